//! `Material.lib`: MAT0 materials (entry 0 `DEFAULT`), some with several phases and
//! animation blocks (a pulsing lamp, a shimmering crystal, flowing water), one
//! intentionally untextured, the terrain overlays alpha-blended; and each map's terrain
//! tables (`docs/reference/world.md` §2.4, reading A): `land2.wea` the base layers (low
//! selector), `land1.wea` the overlays (high selector).

use crate::catalogue::{MAPS, map_dir};
use crate::registry::file_path;
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::model::mat0::{AnimBlock, AnimKey, Material, Phase, TYPE_ID};
use iron3d_formats::model::wear::Wear;
use iron3d_formats::nres::NresWriter;

/// One phase: diffuse colour, emissive colour, texture.
type PhaseSpec = ([u8; 3], [u8; 3], &'static str);

/// A material: name, phases, animation `(mode, interpolation mask, key durations in ms)`.
pub struct MaterialSpec {
    /// Entry name.
    pub name: &'static str,
    /// Phases.
    pub phases: &'static [PhaseSpec],
    /// Optional animation block over every phase in order.
    pub anim: Option<(u32, u32, u16)>,
    /// Source/destination `D3DBLEND` codes (`None`: unset).
    pub blend: Option<[u8; 2]>,
}

const fn m(name: &'static str, phases: &'static [PhaseSpec], anim: Option<(u32, u32, u16)>) -> MaterialSpec {
    MaterialSpec { name, phases, anim, blend: None }
}

/// `D3DBLEND_SRCALPHA`, `D3DBLEND_INVSRCALPHA`: ordinary alpha blending.
const ALPHA_BLEND: [u8; 2] = [5, 6];

/// `D3DBLEND_SRCALPHA`, `D3DBLEND_ONE`: additive blending (glowing effects).
const ADDITIVE: [u8; 2] = [5, 2];

/// A material drawn blended with `blend`.
const fn blended(name: &'static str, phases: &'static [PhaseSpec], blend: [u8; 2]) -> MaterialSpec {
    MaterialSpec { name, phases, anim: None, blend: Some(blend) }
}

/// A terrain overlay: one texture with alpha, blended over the base layer.
const fn overlay(name: &'static str, phases: &'static [PhaseSpec]) -> MaterialSpec {
    blended(name, phases, ALPHA_BLEND)
}

const W: [u8; 3] = [255, 255, 255];
const K: [u8; 3] = [0, 0, 0];

/// Every material, `DEFAULT` first.
pub const MATERIALS: &[MaterialSpec] = &[
    m("DEFAULT", &[(W, K, "PANEL.0")], None),
    m("HULL", &[(W, K, "PANEL.0")], None),
    m("HULL_DARK", &[(W, K, "PANEL2.0")], None),
    m("CAMO", &[(W, K, "CAMO.A")], None),
    m("CAMO_SAND", &[(W, K, "DESERT.0")], None),
    m("RUBBER", &[(W, K, "TRACK.0")], None),
    m("HAZARD", &[(W, K, "HAZARD.0")], None),
    m("WINDOW", &[([30, 50, 80], [10, 20, 40], "")], None),
    // Loop, interpolating diffuse and emissive: a pulsing lamp.
    m("LAMP", &[(W, [40, 120, 200], "GLOW1.0"), (W, [255, 120, 20], "GLOW2.0")], Some((0, 0x0A, 700))),
    m("CONCRETE", &[(W, K, "CONCRETE.0")], None),
    m("ROOF", &[(W, K, "ROOF.0")], None),
    m("ROCK", &[(W, K, "ROCK.0")], None),
    m("BARK", &[(W, K, "BARK.0")], None),
    m("LEAVES", &[(W, K, "LEAVES.0")], None),
    // Ping-pong emissive shimmer.
    m("CRYSTAL", &[(W, [20, 60, 60], "CRYSTAL.0"), (W, [80, 200, 190], "CRYSTAL.0")], Some((1, 0x08, 1200))),
    m("LAND_SAND", &[(W, K, "SAND.0")], None),
    m("LAND_GRASS", &[(W, K, "GRASS.0")], None),
    m("LAND_DIRT", &[(W, K, "DIRT.0")], None),
    m("LAND_ROCK", &[(W, K, "LROCK.0")], None),
    overlay("LAND_SHORE", &[(W, K, "SHORE.0")]),
    overlay("LAND_TRACK", &[(W, K, "TRACK_DIRT.0")]),
    overlay("LAND_SCORCH", &[(W, K, "SCORCH.0")]),
    m("LAND_WATER", &[(W, K, "WATER1.0"), (W, K, "WATER2.0")], Some((0, 0x02, 900))),
    // Skies (the first row of each mission's `sky.wea`): their diffuse colour is the
    // sky's, their ambient (half of it) the ambient light's, their specular the sun's tint.
    m("SKY_DAY", &[([140, 174, 217], K, "")], None),
    m("SKY_DUSK", &[([72, 58, 112], K, "")], None),
    m("SKY_HAZE", &[([196, 172, 138], K, "")], None),
    // Weather (`sky.wea`): the lightning bolt glows.
    m("RAIN", &[(W, K, "RAIN.0")], None),
    m("SNOW", &[(W, K, "SNOW.0")], None),
    m("LIGHTNING", &[(W, [200, 220, 255], "LIGHTNING.0")], None),
    // Combat effects (`effects.rlb`): glowing fire and sparks, grey smoke.
    blended("FX_FIRE", &[(W, [255, 150, 60], "FX_FLARE.0")], ADDITIVE),
    blended("FX_SPARK", &[(W, [255, 230, 170], "FX_FLARE.0")], ADDITIVE),
    blended("FX_SMOKE", &[([110, 105, 100], K, "FX_SMOKE.0")], ALPHA_BLEND),
];

/// The rows of `land2.wea`: row = low face selector (0 unused, 1..3 ground, 4 water).
pub const LAND_ROWS: [&str; 5] = ["LAND_SAND", "LAND_GRASS", "LAND_DIRT", "LAND_ROCK", "LAND_WATER"];
/// The rows of `land1.wea`: row = high face selector (0 unused; rows
/// [`crate::terrain::SHORE`], [`crate::terrain::TRACK`], [`crate::terrain::SCORCH`]).
pub const OVERLAY_ROWS: [&str; 4] = ["DEFAULT", "LAND_SHORE", "LAND_TRACK", "LAND_SCORCH"];

/// The MAT0 of a spec.
pub fn material(spec: &MaterialSpec) -> Result<Material> {
    let phases = spec
        .phases
        .iter()
        .map(|&(d, e, tex)| {
            let amb = [d[0] / 2, d[1] / 2, d[2] / 2, 100];
            Phase::new(
                amb,
                [d[0], d[1], d[2], 255],
                [60, 60, 60, 255],
                [e[0], e[1], e[2], 255],
                20,
                if tex.is_empty() { -1 } else { 0 },
                tex.as_bytes(),
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let anims = spec
        .anim
        .map(|(mode, mask, ms)| {
            let keys =
                (0..spec.phases.len() as u16).map(|phase| AnimKey { phase, duration_ms: ms, unused: 0 }).collect();
            AnimBlock { header: mode | mask << 3, keys }
        })
        .into_iter()
        .collect();
    let mat = Material::new(0, phases, anims);
    Ok(Material { blend: spec.blend.or(mat.blend), ..mat })
}

/// A terrain table (WEAR without lightmaps).
fn land_table(rows: &[&str]) -> Result<Vec<u8>> {
    let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
    Ok(Wear::new(&rows, &[])?.to_bytes())
}

/// Writes `Material.lib` and the terrain tables of every map.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    let mut lib = NresWriter::new();
    for spec in MATERIALS {
        let mat = material(spec)?;
        lib.add(TYPE_ID, [mat.attr1, mat.version, 0], spec.name.as_bytes(), mat.to_bytes()?)?;
    }
    tree.add("Material.lib", lib.to_bytes()?)?;
    let (overlays, bases) = (land_table(&OVERLAY_ROWS)?, land_table(&LAND_ROWS)?);
    for map in MAPS {
        let dir = file_path(&map_dir(map));
        tree.add(&format!("{dir}/land1.wea"), overlays.clone())?;
        tree.add(&format!("{dir}/land2.wea"), bases.clone())?;
    }
    Ok(())
}
