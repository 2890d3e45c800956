//! The canonical writer (§3.2, §4, §6.1, §6.7.3, §7.4, §8): a [`Scene`] of merged records
//! is written the way the baking tool writes it — chunk order, string interning order,
//! slim-node flag rules, batched terrain and PACK sectioning.

use std::collections::{BTreeMap, HashMap};

use crate::chunk::{Chunk, ChunkBody, PackPayload, ids};
use crate::error::{Error, Result};
use crate::logic::{Dynamic, Event, Include, Launcher, MemCell, Sound, Trainset};
use crate::model::ModelRecord;
use crate::module::{Module, resolve};
use crate::node::{Lighting, SlimNode, TaggedLighting, VisitSids};
use crate::pack::section_of;
use crate::pack_build;
use crate::prim::Sid;
use crate::section::SectionFormat;
use crate::shape::{LineShape, Shape, Terrain, TerrainBatch, TerrainBody, terr_flags};
use crate::track::{PowerSource, Track, Traction};

/// Resolves a prototype's (texture path, model path) to the stored `resolved_texture` (§8.4).
pub type TextureResolver = fn(&[u8], &[u8]) -> Vec<u8>;

/// PACK output options.
#[derive(Debug, Clone, Copy)]
pub struct PackOptions {
    /// Section format to write.
    pub format: SectionFormat,
    /// Resolves a prototype's texture (texture path, model path) to the stored
    /// `resolved_texture` (§8.4); `None` stores the empty string.
    pub resolve_texture: Option<TextureResolver>,
}

/// Scene content: all records of each kind merged, ids referring to `strings`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scene {
    /// String table the records' ids refer to.
    pub strings: Vec<Vec<u8>>,
    /// Includes.
    pub includes: Vec<Include>,
    /// `PLAC` parameter numbers.
    pub placement: [u8; 4],
    /// Tracks.
    pub tracks: Vec<Track>,
    /// Triangle shapes (terrain triangles included).
    pub shapes: Vec<Shape>,
    /// Line shapes.
    pub lines: Vec<LineShape>,
    /// Models: `MODL` records, or the models to section when `pack` is set.
    pub models: Vec<ModelRecord>,
    /// Traction wires.
    pub traction: Vec<Traction>,
    /// Power sources.
    pub power: Vec<PowerSource>,
    /// Memory cells.
    pub memcells: Vec<MemCell>,
    /// Launchers.
    pub launchers: Vec<Launcher>,
    /// Dynamics.
    pub dynamics: Vec<Dynamic>,
    /// Sounds.
    pub sounds: Vec<Sound>,
    /// Trainsets.
    pub trainsets: Vec<Trainset>,
    /// Events.
    pub events: Vec<Event>,
    /// `FINT` count.
    pub first_init: u32,
    /// PACK mode when set.
    pub pack: Option<PackOptionsEq>,
}

/// [`PackOptions`] wrapper comparable by format (function pointers are not compared).
#[derive(Debug, Clone, Copy)]
pub struct PackOptionsEq(pub PackOptions);

impl PartialEq for PackOptionsEq {
    fn eq(&self, o: &Self) -> bool {
        self.0.format == o.0.format
    }
}

/// String interner: first use wins, the empty string is never interned.
#[derive(Debug, Default)]
pub struct Interner {
    /// Interned strings in id order.
    pub table: Vec<Vec<u8>>,
    map: HashMap<Vec<u8>, u32>,
}

impl Interner {
    /// Interns `s`, returning its id ([`Sid::EMPTY`] for the empty string).
    pub fn intern(&mut self, s: &[u8]) -> Sid {
        if s.is_empty() {
            return Sid::EMPTY;
        }
        if let Some(&i) = self.map.get(s) {
            return Sid(i);
        }
        let i = self.table.len() as u32;
        self.table.push(s.to_vec());
        self.map.insert(s.to_vec(), i);
        Sid(i)
    }
}

fn remap_all<T: VisitSids>(items: &mut [T], old: &[Vec<u8>], int: &mut Interner) {
    for r in items {
        r.visit_sids(&mut |s| *s = int.intern(resolve(old, *s)));
    }
}

fn is_terrain_lite(s: &Shape, first: &Shape) -> bool {
    let n = &s.node;
    s.subtype == 0
        && s.vertices.len() == 3
        && s.origin.iter().all(|o| f64::from(*o).abs() <= 1e-9)
        && n.name.is_empty()
        && n.range_sq_min == 0.0
        && n.range_sq_max == f32::INFINITY
        && n.is_visible()
        && n.flags & crate::node::flags::GROUP == 0
        && n.transform.is_empty()
        && s.material == first.material
        && (s.translucent != 0) == (first.translucent != 0)
        && s.lighting.block.approx_eq(&first.lighting.block, 1e-4)
}

fn terrain_chunk(shapes: &[Shape]) -> Option<Terrain> {
    let first = shapes.first()?;
    if !shapes.iter().all(|s| is_terrain_lite(s, first)) {
        return None;
    }
    let mut batches: BTreeMap<(i64, i64), Vec<crate::node::PackedVertex>> = BTreeMap::new();
    for s in shapes {
        let c = |i: usize| s.vertices.iter().map(|v| f64::from(v.position[i])).sum::<f64>() / 3.0;
        batches.entry((section_of(c(2)), section_of(c(0)))).or_default().extend(&s.vertices);
    }
    let lighting = first.lighting.block;
    let mut flags = terr_flags::BATCHED;
    if first.translucent != 0 {
        flags |= terr_flags::TRANSLUCENT;
    }
    if !lighting.is_default() {
        flags |= terr_flags::LIGHTING;
    }
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    Some(Terrain {
        flags,
        material: first.material,
        lighting: if flags & terr_flags::LIGHTING != 0 { lighting } else { Lighting::default() },
        body: TerrainBody::Batched(
            batches
                .into_iter()
                .map(|((z, x), vertices)| TerrainBatch { section_x: clamp(x), section_z: clamp(z), vertices })
                .collect(),
        ),
    })
}

fn canon_nodes<'a>(nodes: impl Iterator<Item = &'a mut SlimNode>) {
    nodes.for_each(SlimNode::canonicalize);
}

impl Scene {
    /// Merges a module's records. TERR triangles become terrain-lite shapes. Modules with
    /// PACK are refused (their sections would need re-sectioning, which is not identity).
    pub fn from_module(m: &Module) -> Result<Self> {
        if m.pack().is_some() {
            return Err(Error::rule(
                "canonical_pack",
                "canonical rewrite of a PACK module is not supported; use the lossless writer",
            ));
        }
        let mut s = Scene {
            strings: m.strings().to_vec(),
            placement: m.placement(),
            first_init: m.first_init(),
            ..Scene::default()
        };
        for c in &m.chunks {
            match &c.body {
                ChunkBody::Incl(v) => s.includes.extend(v.iter().cloned()),
                ChunkBody::Trak(v) => s.tracks.extend(v.iter().cloned()),
                ChunkBody::Trac(v) => s.traction.extend(v.iter().cloned()),
                ChunkBody::Pwrs(v) => s.power.extend(v.iter().cloned()),
                ChunkBody::Mesh(v) => s.shapes.extend(v.iter().cloned()),
                ChunkBody::Line(v) => s.lines.extend(v.iter().cloned()),
                ChunkBody::Modl(v) => s.models.extend(v.iter().cloned()),
                ChunkBody::Memc(v) => s.memcells.extend(v.iter().cloned()),
                ChunkBody::Laun(v) => s.launchers.extend(v.iter().cloned()),
                ChunkBody::Dynm(v) => s.dynamics.extend(v.iter().cloned()),
                ChunkBody::Sond(v) => s.sounds.extend(v.iter().cloned()),
                ChunkBody::Trse(v) => s.trainsets.extend(v.iter().cloned()),
                ChunkBody::Evnt(v) => s.events.extend(v.iter().cloned()),
                ChunkBody::Terr(t) => s.shapes.extend(terrain_shapes(t)),
                _ => {}
            }
        }
        Ok(s)
    }

    /// Builds the canonical module (version 9 with PACK, 7 with flat PACK sections, the
    /// layout of version 7, else 6).
    pub fn to_module(&self) -> Result<Module> {
        self.clone().into_module()
    }

    /// [`Self::to_module`] of a scene no longer needed.
    pub fn into_module(self) -> Result<Module> {
        let mut s = self;
        let old = std::mem::take(&mut s.strings);
        let mut int = Interner::default();
        remap_all(&mut s.includes, &old, &mut int);
        remap_all(&mut s.tracks, &old, &mut int);
        remap_all(&mut s.shapes, &old, &mut int);
        remap_all(&mut s.lines, &old, &mut int);
        if s.pack.is_none() {
            remap_all(&mut s.models, &old, &mut int);
        }
        remap_all(&mut s.traction, &old, &mut int);
        remap_all(&mut s.power, &old, &mut int);
        remap_all(&mut s.memcells, &old, &mut int);
        remap_all(&mut s.launchers, &old, &mut int);
        remap_all(&mut s.dynamics, &old, &mut int);
        remap_all(&mut s.sounds, &old, &mut int);
        remap_all(&mut s.trainsets, &old, &mut int);
        remap_all(&mut s.events, &old, &mut int);
        if s.pack.is_some() {
            remap_all(&mut s.models, &old, &mut int);
        }
        canon_nodes(s.tracks.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.shapes.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.lines.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.models.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.traction.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.power.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.memcells.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.launchers.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.dynamics.iter_mut().map(|r| &mut r.node));
        canon_nodes(s.sounds.iter_mut().map(|r| &mut r.node));
        for sh in &mut s.shapes {
            sh.lighting = TaggedLighting::canonical(sh.lighting.block);
        }
        for l in &mut s.lines {
            l.lighting = TaggedLighting::canonical(l.lighting.block);
        }
        for inc in &mut s.includes {
            inc.site_transform.get_or_insert_with(Default::default);
        }

        let mut pack_chunks = Vec::new();
        if let Some(PackOptionsEq(opts)) = s.pack {
            let groups = pack_build::group(&s.models);
            let (mut protos, proto_ids) = pack_build::select_prototypes(&s.models, &groups, &int.table);
            let resolved: Vec<Vec<u8>> = protos
                .iter()
                .map(|p| {
                    let tex = resolve(&int.table, p.texture_file);
                    match opts.resolve_texture {
                        Some(f) if pack_build::is_pack_texture(tex) => f(tex, resolve(&int.table, p.model_file)),
                        _ => Vec::new(),
                    }
                })
                .collect();
            let resolved: Vec<Sid> = resolved.iter().map(|r| int.intern(r)).collect();
            let mut k = 0usize;
            pack_build::add_v9_tails(&mut protos, |_| {
                let r = resolved.get(k).copied().unwrap_or(Sid::EMPTY);
                k += 1;
                r
            });
            let (pidx, pack) =
                pack_build::build_sections(opts.format, &s.models, &groups, &protos, &proto_ids, &int.table)?;
            pack_chunks.push(Chunk::new(ids::PIDX, ChunkBody::Pidx(pidx)));
            pack_chunks.push(Chunk::new(ids::PROT, ChunkBody::Prot(protos)));
            pack_chunks.push(Chunk::new(ids::PACK, ChunkBody::Pack(PackPayload::from_vec(pack))));
        }

        let version = match s.pack {
            Some(PackOptionsEq(ref o)) if o.format == SectionFormat::Flat => 7,
            Some(_) => 9,
            None => 6,
        };
        let mut m = Module::new(version);
        let mut push = |id, body| m.chunks.push(Chunk::new(id, body));
        push(ids::STRS, ChunkBody::Strs(int.table));
        push(ids::INCL, ChunkBody::Incl(s.includes));
        if s.placement != [0; 4] {
            push(ids::PLAC, ChunkBody::Plac(s.placement));
        }
        push(ids::TRAK, ChunkBody::Trak(s.tracks));
        match terrain_chunk(&s.shapes) {
            Some(t) => push(ids::TERR, ChunkBody::Terr(t)),
            None => push(ids::MESH, ChunkBody::Mesh(s.shapes)),
        }
        if !s.lines.is_empty() {
            push(ids::LINE, ChunkBody::Line(s.lines));
        }
        if pack_chunks.is_empty() {
            if !s.models.is_empty() {
                push(ids::MODL, ChunkBody::Modl(s.models));
            }
        } else {
            for c in pack_chunks {
                push(c.id, c.body);
            }
        }
        macro_rules! nonempty {
            ($($v:expr => $id:expr, $variant:ident);* $(;)?) => {$(
                if !$v.is_empty() { push($id, ChunkBody::$variant($v)); }
            )*};
        }
        nonempty! {
            s.traction => ids::TRAC, Trac;
            s.power => ids::PWRS, Pwrs;
            s.memcells => ids::MEMC, Memc;
            s.launchers => ids::LAUN, Laun;
            s.dynamics => ids::DYNM, Dynm;
            s.sounds => ids::SOND, Sond;
            s.trainsets => ids::TRSE, Trse;
            s.events => ids::EVNT, Evnt;
        }
        if s.first_init > 0 {
            push(ids::FINT, ChunkBody::Fint(s.first_init));
        }
        Ok(m)
    }

    /// Canonical bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        self.to_module()?.write()
    }
}

/// TERR triangles as terrain-lite shapes (3 vertices each, default node, no bounds).
pub fn terrain_shapes(t: &Terrain) -> Vec<Shape> {
    let verts: Vec<&crate::node::PackedVertex> = match &t.body {
        TerrainBody::Batched(b) => b.iter().flat_map(|b| &b.vertices).collect(),
        TerrainBody::Legacy(v) => v.iter().collect(),
    };
    let block = if t.flags & terr_flags::LIGHTING != 0 { t.lighting } else { Lighting::default() };
    verts
        .chunks(3)
        .map(|tri| Shape {
            subtype: 0,
            node: SlimNode::default(),
            translucent: t.flags & terr_flags::TRANSLUCENT,
            material: t.material,
            lighting: TaggedLighting::canonical(block),
            origin: [0.0; 3],
            vertices: tri.iter().map(|v| **v).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_scene_is_the_56_byte_vector() {
        let bytes = Scene::default().write().unwrap_or_default();
        let mut want = b"EU7B\x06\0\0\0".to_vec();
        for id in [b"STRS", b"INCL", b"TRAK", b"MESH"] {
            want.extend_from_slice(id);
            want.extend_from_slice(&[12, 0, 0, 0, 0, 0, 0, 0]);
        }
        assert_eq!(bytes, want);
    }

    #[test]
    fn interner_first_use_and_empty() {
        let mut i = Interner::default();
        assert_eq!(i.intern(b""), Sid::EMPTY);
        assert_eq!(i.intern(b"b"), Sid(0));
        assert_eq!(i.intern(b"a"), Sid(1));
        assert_eq!(i.intern(b"b"), Sid(0));
    }
}
