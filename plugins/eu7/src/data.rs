//! Bevy-free scenery data for the viewer: the module with its section index, one-section
//! decoding into compact placements (run on worker threads), and `.e3d` model resolution
//! and flattening into a triangle list (docs/reference/e3d.md "Coordinates and resolution").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use iron3d_eu7::e3d::E3dModel;
use iron3d_eu7::include::{Affine, DiskFiles, IncludeTree, PlacedModule, apply as apply_affine, resolve_includes};
use iron3d_eu7::track::SegmentPath;
use iron3d_eu7::{Module, ReadOptions, SectionIndex};

use crate::planner::SectionId;

/// An opened scenery: the root module (PACK kept undecoded) with its PIDX index, and the
/// modules it includes.
#[derive(Debug)]
pub struct Scenery {
    /// The `.eu7` file.
    pub path: PathBuf,
    /// Folder model paths are resolved against.
    pub dir: PathBuf,
    /// The root module (first) and every module it includes, placed
    /// (`docs/reference/eu7.md` §6.2, §6.3); missing or damaged includes as warnings.
    pub tree: IncludeTree,
    /// The root's section index.
    pub index: SectionIndex,
}

/// One model instance of a decoded section, in world space (docs/reference/eu7.md §7.3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Index into [`DecodedSection::models`].
    pub model: u32,
    /// World location.
    pub location: [f32; 3],
    /// Euler angles in degrees (matrix `T · Ry · Rx · Rz · S`, docs/reference/eu7.md addendum).
    pub angles: [f32; 3],
    /// Scale.
    pub scale: [f32; 3],
}

/// A decoded section ready to be applied.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedSection {
    /// Which section.
    pub id: SectionId,
    /// Unique model paths in first-use order.
    pub models: Vec<String>,
    /// Instances.
    pub placements: Vec<Placement>,
    /// PACK bytes this section was decoded from.
    pub pack_bytes: u64,
}

impl DecodedSection {
    /// Approximate heap bytes held by this decoded section.
    pub fn resident_bytes(&self) -> u64 {
        let strings: usize = self.models.iter().map(|m| m.len() + std::mem::size_of::<String>()).sum();
        (strings + self.placements.len() * std::mem::size_of::<Placement>()) as u64
    }
}

/// Lossy display text of raw scenery bytes (the files are CP1250; paths are ASCII).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl Scenery {
    /// Reads `path` and the modules it includes (compatible mode) and indexes the root.
    pub fn open(path: &Path) -> Result<Self, String> {
        let tree = resolve_includes(&path.display().to_string(), &DiskFiles, &ReadOptions::compatible())
            .map_err(|e| e.to_string())?;
        let root = tree.modules.first().ok_or_else(|| format!("{}: nothing loaded", path.display()))?;
        let index = SectionIndex::new(&root.module).map_err(|e| e.to_string())?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Self { path: path.to_path_buf(), dir, tree, index })
    }

    /// The root module (the one holding PIDX and PACK).
    pub fn root(&self) -> &PlacedModule {
        // `open` only builds a scenery whose tree holds the root.
        &self.tree.modules[0]
    }

    /// The root module's chunks.
    pub fn module(&self) -> &Module {
        &self.root().module
    }

    /// Modules whose `MODL` records are drawn: all of them, except that sub-modules of a
    /// root with PACK are left out (the root's PACK already holds their models,
    /// `docs/reference/eu7.md` §6.10).
    pub fn draws_static_models(&self, module: usize) -> bool {
        module == 0 || self.module().pack().is_none()
    }

    /// Every track of every module, in world space (module order, then file order).
    pub fn world_tracks(&self) -> Vec<WorldTrack> {
        let mut out = Vec::new();
        for (module, m) in self.tree.modules.iter().enumerate() {
            let tracks = m.module.records(|b| match b {
                iron3d_eu7::ChunkBody::Trak(v) => Some(v),
                _ => None,
            });
            for (index, t) in tracks.enumerate() {
                let xf = |p: [f32; 3]| world_point(&m.transform, p);
                let paths = t
                    .paths
                    .iter()
                    .map(|p| SegmentPath {
                        p_start: xf(p.p_start),
                        cp_out: xf(p.cp_out),
                        cp_in: xf(p.cp_in),
                        p_end: xf(p.p_end),
                        ..*p
                    })
                    .collect();
                out.push(WorldTrack {
                    name: text(m.string(t.node.name)),
                    track_type: t.track_type,
                    category: t.category,
                    width: t.track_width,
                    paths,
                    module,
                    index,
                });
            }
        }
        out
    }

    /// Sections holding at least one model, sorted.
    pub fn sections(&self) -> Vec<SectionId> {
        let mut v: Vec<SectionId> =
            self.index.entries.iter().filter(|e| e.model_count > 0).map(|e| SectionId::new(e.row, e.column)).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Decodes section `id` and expands its instances against PROT. Models whose file is
    /// empty or `notload` are skipped.
    pub fn decode(&self, id: SectionId) -> Result<DecodedSection, String> {
        let i = self.index.find(u32::from(id.row), u32::from(id.col)).ok_or_else(|| format!("no section {id}"))?;
        let pack_bytes = self.index.lengths.get(i).copied().unwrap_or(0);
        let module = self.module();
        let records = self
            .index
            .decode(module, i, false)
            .and_then(|s| s.models(module.prototypes()))
            .map_err(|e| e.to_string())?;
        let mut models: Vec<String> = Vec::new();
        let mut lookup: BTreeMap<&[u8], u32> = BTreeMap::new();
        let mut placements = Vec::with_capacity(records.len());
        for r in &records {
            let file = module.string(r.model_file);
            if file.is_empty() || file.eq_ignore_ascii_case(b"notload") {
                continue;
            }
            let model = *lookup.entry(file).or_insert_with(|| {
                models.push(text(file));
                (models.len() - 1) as u32
            });
            placements.push(Placement { model, location: r.location, angles: r.angles, scale: r.scale });
        }
        Ok(DecodedSection { id, models, placements, pack_bytes })
    }
}

/// A track in world space: its module's transform applied to the Bézier control points
/// (exact: Bézier curves are affine invariant).
#[derive(Debug, Clone, PartialEq)]
pub struct WorldTrack {
    /// Name (bound string).
    pub name: String,
    /// `TRAK` type: 1 normal, 2 switch, 3 table, 4 cross, 5 tributary.
    pub track_type: u8,
    /// 1 rail, 2 road, 4 water.
    pub category: u8,
    /// Gauge or road width in metres.
    pub width: f32,
    /// Paths in world space.
    pub paths: Vec<SegmentPath>,
    /// Index of its module in [`Scenery::tree`].
    pub module: usize,
    /// Index among its module's tracks.
    pub index: usize,
}

/// A module-space point in world space.
pub fn world_point(m: &Affine, p: [f32; 3]) -> [f32; 3] {
    apply_affine(m, p.map(f64::from)).map(|c| c as f32)
}

/// Files tried for model `name` under `dir`: the extension dropped, as given and
/// lower-cased, first beside the scenery and then under `models/`.
pub fn model_candidates(dir: &Path, name: &str) -> Vec<PathBuf> {
    let name = name.replace('\\', "/");
    let stem = match name.rfind('.') {
        Some(dot) if !name[dot..].contains('/') => &name[..dot],
        _ => name.as_str(),
    };
    let mut out: Vec<PathBuf> = Vec::new();
    for base in [dir.to_path_buf(), dir.join("models")] {
        for s in [stem.to_string(), stem.to_lowercase()] {
            let p = base.join(format!("{s}.e3d"));
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// A run of [`ModelGeometry`] vertices sharing one material (docs/reference/e3d.md `SUBn`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GeometryPart {
    /// First vertex.
    pub start: usize,
    /// Vertex count.
    pub len: usize,
    /// `TEX0` name; empty for coloured submodels and replaceable skins.
    pub texture: String,
    /// Submodel flag `0x20` (translucent): drawn blended and two-sided.
    pub translucent: bool,
}

/// A model flattened to triangle lists in model space, one [`GeometryPart`] per material.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelGeometry {
    /// Positions.
    pub positions: Vec<[f32; 3]>,
    /// Normals.
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates.
    pub uvs: Vec<[f32; 2]>,
    /// Per-vertex colour: the submodel's diffuse.
    pub colors: Vec<[f32; 4]>,
    /// Material runs, sorted by (texture, translucent).
    pub parts: Vec<GeometryPart>,
}

type Mat4 = [f64; 16];

const IDENTITY: Mat4 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// Column-major product `a · b`.
fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    std::array::from_fn(|k| {
        let (col, row) = (k / 4, k % 4);
        (0..4).map(|i| a[i * 4 + row] * b[col * 4 + i]).sum()
    })
}

fn apply(m: &Mat4, v: [f32; 3], w: f64) -> [f64; 3] {
    std::array::from_fn(|row| (0..3).map(|i| m[i * 4 + row] * f64::from(v[i])).sum::<f64>() + m[12 + row] * w)
}

impl ModelGeometry {
    /// Flattens the submodel tree of `m` (matrices relative to the parent; triangle
    /// types 4/5/6 only; `Light_On*` submodels start hidden and are left out).
    pub fn from_e3d(m: &E3dModel) -> Self {
        let mut by_material: BTreeMap<(String, bool), Self> = BTreeMap::new();
        let mut seen = vec![false; m.submodels.len()];
        let mut stack: Vec<(usize, Mat4)> = if m.submodels.is_empty() { Vec::new() } else { vec![(0, IDENTITY)] };
        while let Some((i, parent)) = stack.pop() {
            let Some(s) = m.submodels.get(i) else { continue };
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let local = usize::try_from(s.matrix).ok().and_then(|k| m.matrices.get(k)).unwrap_or(&IDENTITY);
            let world = mul(&parent, local);
            if let Ok(next) = usize::try_from(s.next)
                && next > 0
            {
                stack.push((next, parent));
            }
            if let Ok(child) = usize::try_from(s.child)
                && child > 0
            {
                stack.push((child, world));
            }
            let name = usize::try_from(s.name).ok().and_then(|k| m.names.get(k)).map_or(&[][..], Vec::as_slice);
            if name.len() >= 8 && name[..8].eq_ignore_ascii_case(b"light_on") {
                continue;
            }
            let texture = usize::try_from(s.texture)
                .ok()
                .filter(|&k| k > 0)
                .and_then(|k| m.textures.get(k))
                .map_or_else(String::new, |t| text(t));
            let g = by_material.entry((texture, s.flags & 0x20 != 0)).or_default();
            for tri in m.triangles(i) {
                for v in tri {
                    let p = apply(&world, v.position, 1.0);
                    let n = apply(&world, v.normal, 0.0);
                    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                    let n = if len > 1e-9 { n.map(|c| (c / len) as f32) } else { [0.0, 1.0, 0.0] };
                    g.positions.push(p.map(|c| c as f32));
                    g.normals.push(n);
                    g.uvs.push(v.uv);
                    g.colors.push(s.diffuse);
                }
            }
        }
        let mut g = Self::default();
        for ((texture, translucent), part) in by_material {
            if part.positions.is_empty() {
                continue;
            }
            g.parts.push(GeometryPart { start: g.positions.len(), len: part.positions.len(), texture, translucent });
            g.positions.extend(part.positions);
            g.normals.extend(part.normals);
            g.uvs.extend(part.uvs);
            g.colors.extend(part.colors);
        }
        g
    }

    /// Finds, reads and flattens model `name` relative to `dir`.
    pub fn load(dir: &Path, name: &str) -> Result<Self, String> {
        let candidates = model_candidates(dir, name);
        let path = candidates.iter().find(|p| p.is_file()).ok_or_else(|| format!("model file not found: {name}"))?;
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let model = E3dModel::read(&bytes, Some(&path.display().to_string())).map_err(|e| e.to_string())?;
        let g = Self::from_e3d(&model);
        if g.positions.is_empty() {
            return Err(format!("{}: no triangles", path.display()));
        }
        Ok(g)
    }
}

/// A loaded (or failed) model, shared between workers and the main thread.
pub type SharedGeometry = Arc<Result<ModelGeometry, String>>;

/// Model geometry by model path, filled by the decode workers (which read `.e3d` files
/// while the main thread keeps rendering) and read on the main thread when a section is
/// applied. Never evicted: a scenery uses a bounded set of model files.
#[derive(Debug, Default)]
pub struct GeometryCache {
    map: Mutex<BTreeMap<String, SharedGeometry>>,
}

impl GeometryCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, SharedGeometry>> {
        self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The cached result for `name`, if it was loaded.
    pub fn get(&self, name: &str) -> Option<SharedGeometry> {
        self.lock().get(name).cloned()
    }

    /// The cached result for `name`, loading it from `dir` first if needed.
    pub fn get_or_load(&self, dir: &Path, name: &str) -> SharedGeometry {
        if let Some(g) = self.get(name) {
            return g;
        }
        let loaded = Arc::new(ModelGeometry::load(dir, name));
        self.lock().entry(name.to_string()).or_insert(loaded).clone()
    }

    /// Number of cached models.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True if nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_eu7::generate::{self, GenConfig};

    #[test]
    fn candidates_drop_extension_and_try_models_folder() {
        let c = model_candidates(Path::new("/s"), "Gen\\Tree.E3D");
        assert_eq!(
            c,
            vec![
                PathBuf::from("/s/Gen/Tree.e3d"),
                PathBuf::from("/s/gen/tree.e3d"),
                PathBuf::from("/s/models/Gen/Tree.e3d"),
                PathBuf::from("/s/models/gen/tree.e3d"),
            ]
        );
        assert_eq!(model_candidates(Path::new(""), "a.b/c")[0], PathBuf::from("a.b/c.e3d"));
    }

    #[test]
    fn generated_pyramid_flattens_to_four_triangles() {
        let (_, bytes) = generate::models(3).remove(2);
        let g = ModelGeometry::from_e3d(&E3dModel::read(&bytes, None).unwrap());
        assert_eq!(g.positions.len(), 12);
        // Kind 2: apex height 2 + 2 = 4 m.
        assert_eq!(g.positions.iter().map(|p| p[1]).fold(0.0, f32::max), 4.0);
        assert!(g.colors.iter().all(|c| *c == [1.0; 4]));
        let part = GeometryPart { start: 0, len: 12, texture: generate::model_texture(2), translucent: false };
        assert_eq!(g.parts, vec![part]);
    }

    #[test]
    fn matrices_compose_parent_first() {
        let t = |x: f64| {
            let mut m = IDENTITY;
            m[12] = x;
            m
        };
        let mut s = IDENTITY;
        s[0] = 2.0;
        // Parent translate 10, child scale 2: (1,0,0) -> (12,0,0).
        assert_eq!(apply(&mul(&t(10.0), &s), [1.0, 0.0, 0.0], 1.0), [12.0, 0.0, 0.0]);
    }

    /// The generated scenery and the module it includes, both from the library's
    /// generator: two modules, the include placed by its site transform (origin (10, 0, 20),
    /// 90° about Y) and its `PLAC` parameters (100, 0, −50); without the include file the
    /// scenery still opens, with a located warning.
    /// Writes the generated scenery of `cfg` as `s.eu7` in a fresh temporary folder named
    /// by `tag`; returns the folder and the file.
    fn write_scenery(cfg: &GenConfig, tag: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("iron3d_eu7_view_{tag}_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.eu7");
        std::fs::write(&path, generate::scenery(cfg).unwrap()).unwrap();
        (dir, path)
    }

    #[test]
    fn opens_the_include_tree() {
        let cfg = GenConfig { instances: 50, extent_m: 2000.0, model_kinds: 3, ..GenConfig::default() };
        let (dir, path) = write_scenery(&cfg, "incl");
        std::fs::write(dir.join(generate::INCLUDE_FILE), generate::include_module(&cfg).unwrap()).unwrap();
        let s = Scenery::open(&path).unwrap();
        assert_eq!(s.tree.modules.len(), 2);
        assert!(s.tree.warnings.is_empty());
        let grove = &s.tree.modules[1];
        assert_eq!(
            grove.string(
                grove
                    .module
                    .records(|b| match b {
                        iron3d_eu7::ChunkBody::Memc(v) => Some(v),
                        _ => None,
                    })
                    .next()
                    .unwrap()
                    .text
            ),
            b"grove at 100"
        );
        let origin = world_point(&grove.transform, [0.0; 3]);
        assert!(origin.iter().zip([-40.0, 0.0, -80.0]).all(|(a, b)| (a - b).abs() < 1e-4), "{origin:?}");
        assert!(!s.draws_static_models(1), "the root has PACK");
        std::fs::remove_file(dir.join(generate::INCLUDE_FILE)).unwrap();
        let s = Scenery::open(&path).unwrap();
        assert_eq!((s.tree.modules.len(), s.tree.warnings.len()), (1, 1));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A baked text scenery opens as MaSzyna's own bakes do: the root (its models in PACK
    /// sections), the module it includes and the template it places, each baked from its
    /// text; the template's model lands where its `include` line's parameters put it.
    #[test]
    fn opens_a_baked_text_scenery_and_its_includes() {
        use iron3d_eu7::bake::{BakeOptions, bake};
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../asset_loaders/eu7/tests/bake");
        let dir = std::env::temp_dir().join(format!("iron3d_eu7_view_bake_{}", std::process::id()));
        std::fs::create_dir_all(dir.join("objects")).unwrap();
        for (text, out, pack) in [
            ("demo.scn", "demo.eu7", true),
            ("demo_env.scm", "demo_env.eu7", false),
            ("objects/signal.inc", "objects/signal.eu7", false),
        ] {
            let baked = bake(&std::fs::read(fixtures.join(text)).unwrap(), text).unwrap();
            std::fs::write(dir.join(out), baked.write(BakeOptions { pack, version: None }).unwrap()).unwrap();
        }
        let s = Scenery::open(&dir.join("demo.eu7")).unwrap();
        assert_eq!((s.tree.modules.len(), s.tree.warnings.len()), (3, 0), "{:?}", s.tree.warnings);
        let placed: usize = s.sections().iter().map(|&id| s.decode(id).unwrap().placements.len()).sum();
        assert_eq!(placed, 3, "the root's three models");
        let signal = &s.tree.modules[2];
        let at = world_point(&signal.transform, [0.0, 0.0, 2.0]);
        assert!(at.iter().zip([14.5, 0.0, 40.0]).all(|(a, b)| (a - b).abs() < 1e-3), "{at:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn decodes_generated_sections_into_placements() {
        let cfg = GenConfig { instances: 500, extent_m: 3000.0, model_kinds: 5, ..GenConfig::default() };
        let (dir, path) = write_scenery(&cfg, "data");
        let s = Scenery::open(&path).unwrap();
        let ids = s.sections();
        assert!(!ids.is_empty());
        let total: usize = ids.iter().map(|&id| s.decode(id).unwrap().placements.len()).sum();
        assert_eq!(total, 500);
        for &id in &ids {
            let d = s.decode(id).unwrap();
            assert!(d.pack_bytes > 0 && d.resident_bytes() > 0);
            for p in &d.placements {
                // Every model lies in its own section (models are keyed on X and Z).
                assert_eq!(SectionId::containing(f64::from(p.location[0]), f64::from(p.location[2])), Some(id));
                assert!(d.models[p.model as usize].starts_with("models/gen/m"));
            }
        }
        assert!(s.decode(SectionId::new(0, 0)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
