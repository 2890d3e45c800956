//! `behpsp.res`, the behaviour profiles, in the original's format (an NRes archive of
//! binary variable sets) with the shipped profiles' economy numbers (gameplay.md §3.1;
//! dragonee/openparkan `docs/23-economy.md`, measured), so the demo's economy runs on
//! the same path as the original's data.

use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::nres::NresWriter;
use iron3d_formats::script::{VarBin, VarItem};

/// The archive, at the game's root.
pub const FILE: &str = "behpsp.res";

/// The economy variables, in the order a profile lists them.
const VARIABLES: [&str; 8] = [
    "Transfer_Power_Out",
    "Transfer_Power_In",
    "Use_Power",
    "Use_Ore",
    "Store_Ore_Maximum",
    "Store_Ore_Now",
    "Transfer_Ore_OnBoard",
    "Transfer_Ore_OffBoard",
];

/// Each building profile's values of [`VARIABLES`] (power in and ore now are 0 in all).
const PROFILES: [(&str, [f32; 8]); 11] = [
    ("prof_generator", [10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_mine", [0.0, 0.0, 1.0, 0.0, 1000.0, 0.0, 0.0, 1.0]),
    ("prof_storage", [0.0, 0.0, 1.0, 0.0, 4000.0, 0.0, 20.0, 1.0]),
    ("prof_plant", [0.0, 0.0, 4.0, 5.0, 0.0, 0.0, 100.0, 0.0]),
    ("prof_institute", [0.0, 0.0, 3.0, 1.0, 0.0, 0.0, 100.0, 0.0]),
    ("prof_trn", [0.0, 0.0, 0.0, 0.0, 1000.0, 0.0, 100.0, 100.0]),
    ("prof_tower", [0.0, 0.0, 10.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_mast", [0.0, 0.0, 10.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_angar", [0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_teleport", [0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_bunker", [0.07, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
];

/// The locomotion profiles a chassis's record names (its sixth reference), each with
/// its `ChassisType` (openparkan `docs/28-chassis.md`, measured): 1 flying, 2 walking,
/// 3 wheeled, 4 tracked.
pub const CHASSIS: [(&str, f32); 4] = [("chas_fly", 1.0), ("chas_wlk", 2.0), ("chas_wel", 3.0), ("chas_trk", 4.0)];

/// One float variable: value and default equal, bounds the widest floats.
fn float(name: &str, value: f32) -> VarItem {
    VarItem {
        value_length: 4,
        value_type: 3,
        reserved: 0,
        name: name.as_bytes().to_vec(),
        string2: Vec::new(),
        values: [value.to_bits(), value.to_bits(), f32::MIN.to_bits(), f32::MAX.to_bits()],
    }
}

/// The archive's bytes.
pub fn archive() -> Result<Vec<u8>> {
    let mut w = NresWriter::new();
    for (name, values) in PROFILES {
        let set = VarBin { items: VARIABLES.iter().zip(values).map(|(v, x)| float(v, x)).collect() };
        w.add(0, [0, 0, 0], format!("{name}.var").as_bytes(), set.to_bytes()?)?;
    }
    for (name, kind) in CHASSIS {
        let set = VarBin { items: vec![float("ChassisType", kind)] };
        w.add(0, [0, 0, 0], format!("{name}.var").as_bytes(), set.to_bytes()?)?;
    }
    w.to_bytes()
}

/// Writes `behpsp.res`.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    tree.add(FILE, archive()?)
}
