//! The committed seed corpus `fuzz/seeds/<target>/`: small synthetic inputs from the
//! crate's own writers and builders, plus the smallest entries of the generated demo
//! tree (`assets/demo`). Rewrite it with
//! `cargo test -p iron3d_formats --lib rewrite_seed_corpus -- --ignored`.

use super::{Seed, TARGETS, write_seeds};
use crate::nres::{Nres, NresWriter};
use crate::rsli::{Method, NewEntry, RsliWriter};
use crate::script::{VarBin, VarItem};
use crate::world::{ArealMap, ArealMapBuilder, LandMsh, TerrainBuilder};
use crate::{ReadOptions, Result};
use std::path::{Path, PathBuf};

type Seeds = Vec<Seed>;

/// Land.msh face flags: ordinary ground with a microtexture, and reflective water.
const GROUND: u32 = 0x400;
const WATER: u32 = 0x20000;

fn terrains() -> Result<Vec<(String, LandMsh)>> {
    let mut out = vec![
        ("flat-1x1".to_owned(), TerrainBuilder::height_field(1, 1, 8.0, |_, _| 0.0)?),
        ("slope-3x2".to_owned(), TerrainBuilder::height_field(3, 2, 16.0, |x, y| x * 0.5 - y * 0.25)?),
        (
            "hills-6x6".to_owned(),
            TerrainBuilder::height_field(6, 6, 10.0, |x, y| ((x * 0.1).sin() + (y * 0.13).cos()) * 20.0)?,
        ),
    ];
    // Water and overlays: a square of ground beside a square of water.
    let mut b = TerrainBuilder::new();
    for [x, y] in [[0.0, 0.0], [10.0, 0.0], [20.0, 0.0], [0.0, 10.0], [10.0, 10.0], [20.0, 10.0]] {
        b.vertex([x, y, -x * 0.1], [x / 10.0, y / 10.0])?;
    }
    b.face([0, 1, 4], GROUND, [1, 2])?;
    b.face([0, 4, 3], GROUND, [2, 0xFF])?;
    b.face([1, 2, 5], WATER, [4, 0xFF])?;
    b.face([1, 5, 4], WATER, [4, 0xFF])?;
    out.push(("ground-and-water".to_owned(), b.build()?));
    Ok(out)
}

fn areal_maps() -> Result<Vec<(String, ArealMap)>> {
    let square = |x: f32, y: f32, s: f32, z: f32| vec![[x, y, z], [x + s, y, z], [x + s, y + s, z], [x, y + s, z]];
    let mut one = ArealMapBuilder::new();
    one.add_polygon(square(0.0, 0.0, 10.0, 0.0), 1, 0)?;
    let mut grid = ArealMapBuilder::new();
    for (k, (i, j)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
        grid.add_polygon(square(i as f32 * 8.0, j as f32 * 8.0, 8.0, k as f32), 1 + k as u32 % 2, 0)?;
    }
    // A fan of triangles around a shared centre plus a pentagon, linked along edges.
    let mut mixed = ArealMapBuilder::new();
    let c = [10.0, 10.0, 2.0];
    let ring = [[0.0, 0.0, 0.0], [20.0, 0.0, 1.0], [20.0, 20.0, 3.0], [0.0, 20.0, 1.0]];
    for k in 0..4 {
        mixed.add_polygon(vec![ring[k], ring[(k + 1) % 4], c], 1, u32::from(k == 2))?;
    }
    mixed.add_polygon(
        vec![[20.0, 0.0, 1.0], [30.0, 5.0, 0.0], [32.0, 15.0, 0.0], [25.0, 22.0, 2.0], [20.0, 20.0, 3.0]],
        2,
        0,
    )?;
    Ok(vec![
        ("one-square-grid1x1".to_owned(), one.build(1, 1)?),
        ("four-squares-grid4x4".to_owned(), grid.build(4, 4)?),
        ("fan-and-pentagon-grid8x6".to_owned(), mixed.build(8, 6)?),
    ])
}

fn var_bins() -> Result<Vec<(String, Vec<u8>)>> {
    let item = |value_type: i32, value: u32, name: &[u8], string2: &[u8]| VarItem {
        value_length: 4,
        value_type,
        reserved: 0,
        name: name.to_vec(),
        string2: string2.to_vec(),
        values: [value, value, 0, 100],
    };
    let typed = VarBin {
        items: vec![
            item(2, 1, b"Enabled", b""),
            item(3, 2.5f32.to_bits(), b"Speed", b""),
            item(5, 0xDEAD_BEEF, b"Mask", b""),
            item(4, 0, b"Label", b"text"),
        ],
    };
    Ok(vec![("empty.res".to_owned(), VarBin::default().to_bytes()?), ("typed.res".to_owned(), typed.to_bytes()?)])
}

fn containers_and_names() -> Result<Seeds> {
    let mut nres = NresWriter::new();
    nres.add(1, [0; 3], b"first", b"payload!".to_vec())?;
    nres.add(2, [3, 4, 5], b"Empty", Vec::new())?;
    nres.add(u32::from_le_bytes(*b"WEAR"), [0, 0, 1], b"odd.wea", b"1\r\n0 DEFAULT\r\n".to_vec())?;
    let mut rsli = RsliWriter::new(0x5A17);
    for method in Method::ALL {
        let name = format!("{method:?}").to_uppercase();
        rsli.add(NewEntry {
            name: name.clone().into_bytes(),
            method,
            data: format!("{name} {name} {name} data").into_bytes(),
        });
    }
    let mut seeds = vec![
        ("nres", "writer.nres".to_owned(), nres.to_bytes()?),
        ("rsli", "every-method.rlb".to_owned(), rsli.to_bytes()?),
    ];
    // Texture names for the palette-slot rule.
    for name in ["CAMO.A", "GRASS.0", "PANEL2.0"] {
        seeds.push(("palette", format!("name-{name}"), name.as_bytes().to_vec()));
    }
    Ok(seeds)
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo")
}

/// Up to three entries of `type_id` in the demo archive `archive` (the smallest, the
/// median and the largest below 80 KiB, room for a palette).
fn demo_entries(archive: &str, type_id: &[u8; 4]) -> Vec<(String, Vec<u8>)> {
    let bytes = std::fs::read(demo().join(archive)).unwrap();
    let nres = Nres::parse(&bytes, ReadOptions::compatible()).unwrap();
    let mut found: Vec<(String, Vec<u8>)> = (0..nres.len())
        .filter(|&i| nres.entries()[i].type_id == u32::from_le_bytes(*type_id))
        .map(|i| (nres.entries()[i].display_name(), nres.payload(i).unwrap().to_vec()))
        .filter(|(_, payload)| !payload.is_empty() && payload.len() < 80 * 1024)
        .collect();
    found.sort_by_key(|(name, payload)| (payload.len(), name.clone()));
    let mut picks: Vec<usize> = vec![0, found.len() / 2, found.len().saturating_sub(1)];
    picks.dedup();
    picks.into_iter().filter_map(|k| found.get(k).cloned()).collect()
}

fn demo_files() -> Seeds {
    let files: &[(&str, &str)] = &[
        ("config", "Behavior.ini"),
        ("config", "Iron_3D.ini"),
        ("config", "MISSIONS/tutorial.01/mission.cfg"),
        ("nres", "system.rlb"),
        ("registry", "UNITS/BUILDS/b_gen_01.dat"),
        ("registry", "UNITS/ROBOTS/tank.dat"),
        ("registry", "DATA/MAPS/Tut_1/BuildDat.lst"),
        ("rsli", "gamefont.rlb"),
        ("script", "MISSIONS/SCRIPTS/default.scr"),
        ("script", "MISSIONS/SCRIPTS/nature.var"),
        ("tma", "MISSIONS/tutorial.01/data.tma"),
    ];
    let mut seeds: Seeds = files
        .iter()
        .map(|&(target, file)| {
            (target, format!("demo-{}", file.replace('/', "-")), std::fs::read(demo().join(file)).unwrap())
        })
        .collect();
    let entries: &[(&str, &str, &[u8; 4])] = &[
        ("fxid", "effects.rlb", b"FXID"),
        ("helpers", "bases.rlb", b"CTPT"),
        ("helpers", "bases.rlb", b"CTLD"),
        ("helpers", "fortif.rlb", b"BASE"),
        ("mat0", "Material.lib", b"MAT0"),
        ("msh", "units.rlb", b"MSH\0"),
        ("palette", "palettes.lib", b"PAL\0"),
        ("registry", "objects.rlb", &[0; 4]),
        ("sound", "sounds.lib", b"SWAV"),
        ("texm", "Textures.lib", b"Texm"),
        ("wear", "static.rlb", b"WEAR"),
    ];
    for &(target, archive, type_id) in entries {
        for (name, payload) in demo_entries(archive, type_id) {
            seeds.push((target, format!("demo-{archive}-{name}"), payload));
        }
    }
    seeds
}

/// Every seed.
fn seeds() -> Result<Seeds> {
    let mut seeds = containers_and_names()?;
    for (name, t) in terrains()? {
        seeds.push(("land_msh", format!("{name}.msh"), t.to_bytes()?));
    }
    for (name, m) in areal_maps()? {
        seeds.push(("land_map", format!("{name}.map"), m.to_bytes()?));
    }
    for (name, bytes) in var_bins()? {
        seeds.push(("script", name, bytes));
    }
    seeds.extend(demo_files());
    Ok(seeds)
}

#[test]
fn synthetic_seeds_are_read_back() {
    for (name, t) in terrains().unwrap() {
        assert!(LandMsh::parse(&t.to_bytes().unwrap(), ReadOptions::strict()).is_ok(), "{name}");
    }
    for (name, m) in areal_maps().unwrap() {
        assert!(ArealMap::parse(&m.to_bytes().unwrap(), ReadOptions::strict()).is_ok(), "{name}");
    }
    for (name, bytes) in var_bins().unwrap() {
        assert!(VarBin::parse(&bytes).is_ok(), "{name}");
    }
}

#[test]
#[ignore = "rewrites fuzz/seeds/ in the source tree"]
fn rewrite_seed_corpus() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    write_seeds(&fuzz, TARGETS, seeds().unwrap()).unwrap();
}
