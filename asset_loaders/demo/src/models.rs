//! The model archives `units.rlb`, `bases.rlb`, `fortif.rlb` and `static.rlb`: for
//! every prototype of the catalogue exactly the entries its `objects.rlb` references
//! name (MSH, WEAR, CTPT, CTLD, BASE). Geometry comes from closed primitives
//! ([`shapes`]) at three levels of detail (slot cells `(lod, 0)`, `lod` 0..3: round
//! primitives lose sides, and robots at the coarsest level lose their small parts), with
//! node hierarchies, spinning animated nodes, control points, an initial pose and, for a
//! chassis, its movement limits ([`robots::motion`]).
//!
//! Attached components (turrets, weapons) start with an empty virtual root node,
//! because the engine skips node 0 of an attached MSH (`docs/reference/models.md` §1.12).

pub mod buildings;
pub mod robots;
pub mod scenery;
pub mod shapes;

use crate::catalogue::{PROTOTYPES, Proto, Role};
use crate::geometry::{V3, cos_approx, sin_approx};
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::helpers::ctld::{BindingRow, FLAG_WRAP, ItemRecord};
use iron3d_formats::helpers::{Base, ControlPoint, Ctld, Ctpt};
use iron3d_formats::model::msh::hall_way::{HallLink, HallNode, HallWay};
use iron3d_formats::model::msh::{AnimKey, ModelBuilder, NodeAnimation};
use iron3d_formats::model::wear::Wear;
use iron3d_formats::nres::NresWriter;
use iron3d_formats::registry::BuildCategory;
use shapes::Geo;

/// NRes type of the entries of the model archives (FourCC of the extension).
fn fourcc(tag: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*tag)
}

/// Frames of every spin animation (one full turn).
pub const SPIN_FRAMES: f32 = 32.0;

/// One node of a model at one level of detail.
pub struct Node {
    /// Node name (type 10).
    pub name: &'static str,
    /// Parent node.
    pub parent: Option<usize>,
    /// Rest translation in the parent's frame.
    pub offset: V3,
    /// Spins once around its local Z over [`SPIN_FRAMES`].
    pub spin: bool,
    /// Geometry (may be empty: helper joint / virtual root).
    pub geo: Geo,
}

impl Node {
    /// A node.
    pub fn new(name: &'static str, parent: Option<usize>, offset: V3) -> Self {
        Self { name, parent, offset, spin: false, geo: Geo::new() }
    }
}

/// Material slots of a model (its WEAR rows) in first-use order.
#[derive(Default)]
pub struct Kit {
    wear: Vec<&'static str>,
}

impl Kit {
    /// The WEAR row of material `name`.
    pub fn m(&mut self, name: &'static str) -> u8 {
        match self.wear.iter().position(|&w| w == name) {
            Some(i) => i as u8,
            None => {
                self.wear.push(name);
                (self.wear.len() - 1) as u8
            }
        }
    }
}

/// Detail of a level: round primitives get `base >> lod` sides (at least `min`).
pub fn sides(lod: usize, base: usize, min: usize) -> usize {
    (base >> lod).max(min)
}

/// A model generator: nodes for a level of detail.
pub type Generator = fn(&mut Kit, usize) -> Result<Vec<Node>>;

/// A control point: name, node, position, direction.
pub type Point = (&'static str, i32, V3, V3);

/// Everything a prototype's references need.
pub struct ModelSpec {
    /// Geometry generator.
    pub generator: Generator,
    /// Control points (`.cpt`).
    pub points: Vec<Point>,
    /// Footprint half extents (`.bas` of fortifications).
    pub footprint: [f32; 2],
    /// Lightmap row of the WEAR (buildings).
    pub lightmap: bool,
    /// The hall way's places (buildings): each node's flag word and position, linked
    /// in order.
    pub places: Vec<(u32, [f32; 3])>,
}

fn spin_track(offset: V3) -> Vec<AnimKey> {
    (0..=4)
        .map(|k| {
            let half = k as f32 * std::f32::consts::FRAC_PI_4;
            AnimKey::new(offset, k as f32 * SPIN_FRAMES / 4.0, [0.0, 0.0, sin_approx(half), cos_approx(half)])
        })
        .collect()
}

/// Builds the MSH of a generator (three levels of detail), lightmapped or not.
pub fn build_msh(kit: &mut Kit, generator: Generator, lightmap: bool) -> Result<(ModelBuilder, Vec<usize>)> {
    let levels = (0..3).map(|lod| generator(kit, lod)).collect::<Result<Vec<_>>>()?;
    let mut b = ModelBuilder::new();
    let mut spinning = Vec::new();
    for (i, node) in levels[0].iter().enumerate() {
        let n = b.add_node(node.name, node.parent, 0)?;
        let rest = AnimKey::new(node.offset, 0.0, [0.0, 0.0, 0.0, 1.0]);
        let track = if node.spin { spin_track(node.offset) } else { Vec::new() };
        if node.spin {
            spinning.push(i);
        }
        b.set_animation(n, NodeAnimation { rest, track })?;
    }
    for (lod, nodes) in levels.into_iter().enumerate() {
        for (i, node) in nodes.into_iter().enumerate() {
            if !node.geo.is_empty() {
                let mesh = if lightmap { node.geo.into_lightmapped_mesh() } else { node.geo.into_mesh() };
                b.set_mesh(i, lod, 0, mesh)?;
            }
        }
    }
    Ok((b, spinning))
}

/// A hall way of `places`, each linked to the next (every link's other words
/// `0xFFFFFFFF`, as on every shipped one).
fn hall_way(places: &[(u32, [f32; 3])]) -> HallWay {
    let nodes = places.iter().map(|&(flags, position)| HallNode { position, flags, word: 0 }).collect();
    let links = (1..places.len() as u32).map(|i| HallLink { start: i - 1, end: i, rest: [u32::MAX; 8] }).collect();
    HallWay { nodes, links }
}

/// The model spec of a prototype (by stem); `None` for prototypes without a model.
pub fn spec(proto: &Proto) -> Option<ModelSpec> {
    robots::spec(proto.stem).or_else(|| buildings::spec(proto.stem)).or_else(|| scenery::spec(proto.stem))
}

/// The lightmap entry name of a stem.
pub fn lightmap_name(stem: &str) -> String {
    format!("LM_{}", stem.to_ascii_uppercase())
}

fn entries(proto: &Proto, model: &ModelSpec, out: &mut NresWriter) -> Result<()> {
    let stem = proto.stem;
    let mut kit = Kit::default();
    let (mut builder, spinning) = build_msh(&mut kit, model.generator, model.lightmap)?;
    builder.set_hall_way(hall_way(&model.places))?;
    let wants =
        |ext: &str| crate::registry::refs(proto).map(|r| r.iter().any(|r| r.resource().ends_with(ext.as_bytes())));
    out.add(fourcc(b"MSH\0"), [0, 0, 0], format!("{stem}.msh").as_bytes(), builder.build()?.to_bytes()?)?;
    let names: Vec<&[u8]> = kit.wear.iter().map(|w| w.as_bytes()).collect();
    let lm = lightmap_name(stem);
    let lightmaps: Vec<&[u8]> = if model.lightmap { vec![lm.as_bytes()] } else { Vec::new() };
    out.add(fourcc(b"WEAR"), [0, 0, 1], format!("{stem}.wea").as_bytes(), Wear::new(&names, &lightmaps)?.to_bytes())?;
    if wants(".cpt")? {
        let points = model
            .points
            .iter()
            .map(|&(name, node, p, d)| ControlPoint::new(name, 0, node, -1, p, d))
            .collect::<Result<Vec<_>>>()?;
        out.add(fourcc(b"CTPT"), [0, 0, 0], format!("{stem}.cpt").as_bytes(), Ctpt { points }.to_bytes()?)?;
    }
    if wants(".ctl")? {
        let mut rows = vec![BindingRow::new(0, 0.0, 0.0, 0.0, 0)?];
        for &n in &spinning {
            rows.push(BindingRow::new(n as i32, 0.0, SPIN_FRAMES, 0.25, FLAG_WRAP)?);
        }
        let turret = crate::arms::turret_channels(stem, rows.len() as u32)?;
        if let Some((_, channels)) = &turret {
            rows.extend(channels.iter().cloned());
        }
        let components = crate::arms::components(proto.role, stem, &mut rows)?;
        let mut ctld = Ctld::with_pose(rows)?;
        if let Some(motion) = robots::motion(stem) {
            ctld.set_motion(&motion);
        }
        ctld.items.extend(turret.map(|(item, _)| item));
        if let Role::Building(category) = proto.role {
            let mut item = ItemRecord::with_values(EFFICIENCY_CLASS, 0, &[efficiency(category)]);
            item.set_figures(0.0, EFFICIENCY_POWER);
            ctld.items.push(item);
        }
        ctld.items.extend(components);
        ctld.counts[3] = ctld.items.len() as u32;
        out.add(fourcc(b"CTLD"), [0, 0, 0], format!("{stem}.ctl").as_bytes(), ctld.to_bytes()?)?;
    }
    if wants(".ndp")? {
        let nodes = (model.generator)(&mut Kit::default(), 0)?;
        let flags: Vec<u32> = nodes.iter().map(|n| robots::gear_flags(n.name)).collect();
        let ndp = crate::arms::node_table(proto.role, &flags)
            .ok_or_else(|| iron3d_formats::Error::invalid(0, "demo_nodes", format!("no node table for {stem}")))?;
        out.add(fourcc(b"NDPR"), [0, 0, 0], format!("{stem}.ndp").as_bytes(), ndp.to_bytes()?)?;
    }
    Ok(())
}

/// The component class of a building's efficiency part (openparkan `docs/23-economy.md`).
const EFFICIENCY_CLASS: u32 = 26;

/// What a building's efficiency part draws a second by itself (its power figure: the
/// original's 0.01, measured).
const EFFICIENCY_POWER: f32 = 0.01;

/// A building's efficiency, its class-26 part's first value, as the original's sizes
/// give it (measured: research centres, factories and core mines 1 / 3 / 5 small /
/// medium / large, every other building 1): the demo's plant, research centre and mine
/// are medium ones.
fn efficiency(category: BuildCategory) -> f32 {
    match category {
        BuildCategory::Plant | BuildCategory::Institute | BuildCategory::Mine => 3.0,
        _ => 1.0,
    }
}

/// The closed footprint contour of a BASE: a rectangle of half extents `half`.
fn footprint(half: [f32; 2]) -> Result<Base> {
    let [x, y] = half;
    Base::footprint(vec![[-x, -y, 0.0], [x, -y, 0.0], [x, y, 0.0], [-x, y, 0.0], [-x, -y, 0.0]])
}

/// Writes the four model archives, then the materials and textures they name.
pub fn write(tree: &mut DemoTree, seed: u64) -> Result<()> {
    let lightmaps = archives(tree)?;
    crate::materials::write(tree)?;
    crate::textures::write(tree, seed, &lightmaps)
}

/// Writes the four model archives; returns the lightmap names the WEARs reference.
fn archives(tree: &mut DemoTree) -> Result<Vec<String>> {
    let mut lightmaps = Vec::new();
    for archive in ["units.rlb", "bases.rlb", "fortif.rlb", "static.rlb", crate::arms::ROUND_ARCHIVE] {
        let mut out = NresWriter::new();
        for proto in PROTOTYPES.iter().filter(|p| p.archive == archive) {
            match proto.role {
                Role::Fortification { parent } => {
                    let half =
                        PROTOTYPES.iter().find(|p| p.key == parent).and_then(spec).map_or([4.0, 1.0], |s| s.footprint);
                    let scale = if proto.stem.ends_with("02") { 0.75 } else { 1.0 };
                    let bas = footprint([half[0] * scale, half[1]])?.to_bytes()?;
                    out.add(fourcc(b"BASE"), [0, 0, 0], format!("{}.bas", proto.stem).as_bytes(), bas)?;
                }
                Role::System | Role::Broken => {}
                Role::Round => {
                    let round = crate::arms::ROUNDS.iter().find(|r| r.key == proto.key).ok_or_else(|| {
                        iron3d_formats::Error::invalid(0, "demo_round", format!("no round {}", proto.key))
                    })?;
                    for (member, bytes) in crate::arms::round_entries(round)? {
                        let tag = match member.rsplit('.').next() {
                            Some("ctl") => b"CTLD",
                            Some("ndp") => b"NDPR",
                            _ => b"EXPL",
                        };
                        out.add(fourcc(tag), [0, 0, 0], member.as_bytes(), bytes)?;
                    }
                }
                _ => {
                    let model = spec(proto).ok_or_else(|| {
                        iron3d_formats::Error::invalid(0, "demo_model", format!("no model for {}", proto.key))
                    })?;
                    if model.lightmap {
                        lightmaps.push(lightmap_name(proto.stem));
                    }
                    entries(proto, &model, &mut out)?;
                }
            }
        }
        tree.add(archive, out.to_bytes()?)?;
    }
    Ok(lightmaps)
}

#[cfg(test)]
mod tests;
