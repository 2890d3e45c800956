//! What the demo world contains: every prototype with its archive and role, and the
//! composite unit schemes built from them. Everything else is generated from this.

use iron3d_formats::registry::BuildCategory;

/// What a prototype is for; decides its references and its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Robot chassis (root component of a unit).
    Chassis,
    /// Robot turret, attached to a chassis.
    Turret,
    /// Weapon, attached to a turret.
    Weapon,
    /// A base building of a `BuildDat.lst` category.
    Building(BuildCategory),
    /// A fortification parent: supplies model, materials and control points.
    FortParent,
    /// A fortification: parent prototype plus its own BASE.
    Fortification {
        /// Key of the parent prototype.
        parent: &'static str,
    },
    /// Rocks, trees and other scenery.
    Scenery,
    /// Non-geometric system object (sun, weather source).
    System,
    /// A gun's round (`BULL`): controller, node table and explosion, no model.
    Round,
    /// A catalogue entry whose model was cut: unreachable from every mission.
    Broken,
}

/// One prototype of `objects.rlb`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proto {
    /// Registry key.
    pub key: &'static str,
    /// Archive holding its resources.
    pub archive: &'static str,
    /// File stem of its resources (`<stem>.msh`, `<stem>.wea`, ...); differs from the
    /// key on purpose for some scenery, as in the original data.
    pub stem: &'static str,
    /// Role.
    pub role: Role,
}

const fn p(key: &'static str, archive: &'static str, stem: &'static str, role: Role) -> Proto {
    Proto { key, archive, stem, role }
}

/// Every prototype, in registry order.
pub const PROTOTYPES: &[Proto] = &[
    p("R_L_03", "units.rlb", "r_ch_01", Role::Chassis),
    p("R_L_04", "units.rlb", "r_ch_02", Role::Chassis),
    p("R_L_01", "units.rlb", "r_ch_03", Role::Chassis),
    p(HERO_CHASSIS, "units.rlb", "r_ch_04", Role::Chassis),
    p("e_tur_lt_01", "units.rlb", "r_tu_01", Role::Turret),
    p("e_tur_lt_02", "units.rlb", "r_tu_02", Role::Turret),
    p("e_tur_lt_03", "units.rlb", "r_tu_03", Role::Turret),
    p("e_gun_lc_01", "units.rlb", "r_we_01", Role::Weapon),
    p("e_gun_lc_02", "units.rlb", "r_we_02", Role::Weapon),
    p("e_gun_ll_03", "units.rlb", "r_we_03", Role::Weapon),
    p(BEAM, "units.rlb", "r_we_04", Role::Weapon),
    p(HERO_GUN, "units.rlb", "r_we_05", Role::Weapon),
    p("fr_l_gener", "bases.rlb", "b_gen_01", Role::Building(BuildCategory::Generator)),
    p("fr_l_mine", "bases.rlb", "b_mine_01", Role::Building(BuildCategory::Mine)),
    p("fr_l_store", "bases.rlb", "b_stor_01", Role::Building(BuildCategory::Storage)),
    p("fr_l_plant", "bases.rlb", "b_plant_01", Role::Building(BuildCategory::Plant)),
    p("fr_l_angar", "bases.rlb", "b_hang_01", Role::Building(BuildCategory::Hangar)),
    p("fr_m_mtp", "bases.rlb", "b_tele_01", Role::Building(BuildCategory::MainTeleport)),
    p("fr_l_inst", "bases.rlb", "b_inst_01", Role::Building(BuildCategory::Institute)),
    p("fr_l_bunker", "bases.rlb", "b_bunk_s", Role::Building(BuildCategory::BunkerSmall)),
    p("fr_m_bunker", "bases.rlb", "b_bunk_m", Role::Building(BuildCategory::BunkerMedium)),
    p("fr_b_bunker", "bases.rlb", "b_bunk_l", Role::Building(BuildCategory::BunkerLarge)),
    p("fr_m_tower", "bases.rlb", "b_tow_m", Role::Building(BuildCategory::TowerMedium)),
    p("fr_b_tower", "bases.rlb", "b_tow_l", Role::Building(BuildCategory::TowerLarge)),
    p("fr_wall_p", "fortif.rlb", "fr_wall", Role::FortParent),
    p("fr_gate_p", "fortif.rlb", "fr_gate", Role::FortParent),
    p("fr_wall_01", "fortif.rlb", "fr_wall_01", Role::Fortification { parent: "fr_wall_p" }),
    p("fr_wall_02", "fortif.rlb", "fr_wall_02", Role::Fortification { parent: "fr_wall_p" }),
    p("fr_gate_01", "fortif.rlb", "fr_gate_01", Role::Fortification { parent: "fr_gate_p" }),
    p("s_rock_01", "static.rlb", "s_rock_0_01", Role::Scenery),
    p("s_rock_02", "static.rlb", "s_rock_0_02", Role::Scenery),
    p("s_rock_03", "static.rlb", "s_rock_0_03", Role::Scenery),
    p("s_rock_04", "static.rlb", "s_rock_0_04", Role::Scenery),
    p("s_tree_01", "static.rlb", "s_tree_0_01", Role::Scenery),
    p("s_tree_02", "static.rlb", "s_tree_0_02", Role::Scenery),
    p("s_tree_03", "static.rlb", "s_tree_0_03", Role::Scenery),
    p("s_tree_04", "static.rlb", "s_tree_0_04", Role::Scenery),
    p("s_crys_01", "static.rlb", "s_crys_0_01", Role::Scenery),
    p("s_crys_02", "static.rlb", "s_crys_0_02", Role::Scenery),
    p("s_ruin_01", "static.rlb", "s_ruin_0_01", Role::Scenery),
    p("s_pole_01", "static.rlb", "s_pole_0_01", Role::Scenery),
    p("sun_01", "effects.rlb", "sun_01", Role::System),
    p("sun_02", "effects.rlb", "sun_02", Role::System),
    p("ws_rain_01", "effects.rlb", "ws_rain_01", Role::System),
    p("x_cut_01", "cut.rlb", "x_cut_01", Role::Broken),
    p("rd_cannon", "weapon.rlb", "rd_cannon", Role::Round),
    p("rd_mgun", "weapon.rlb", "rd_mgun", Role::Round),
    p("rd_heavy", "weapon.rlb", "rd_heavy", Role::Round),
    p("rd_laser", "weapon.rlb", "rd_laser", Role::Round),
    p("rd_plasma", "weapon.rlb", "rd_plasma", Role::Round),
];

/// A composite unit scheme (`UNITS\...\*.dat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitScheme {
    /// Path as written in mission data.
    pub path: &'static str,
    /// Class word of the header.
    pub class_word: u32,
    /// Description of the root record.
    pub description: &'static str,
    /// Component keys, root first; each later one is the only child of the previous.
    pub chain: &'static [&'static str],
}

/// Class word of a battle unit.
pub const BATTLE_UNIT: u32 = 0x0100_8000;

/// Robot schemes: chassis -> turret -> weapon.
pub const ROBOTS: &[UnitScheme] = &[
    UnitScheme {
        path: "UNITS\\ROBOTS\\scout.dat",
        class_word: BATTLE_UNIT,
        description: "Scout",
        chain: &["R_L_03", "e_tur_lt_01", "e_gun_lc_01"],
    },
    UnitScheme {
        path: "UNITS\\ROBOTS\\tank.dat",
        class_word: BATTLE_UNIT,
        description: "Tank",
        chain: &["R_L_04", "e_tur_lt_02", "e_gun_lc_02"],
    },
    UnitScheme {
        path: "UNITS\\ROBOTS\\walker.dat",
        class_word: BATTLE_UNIT,
        description: "Walker",
        chain: &["R_L_01", "e_tur_lt_03", "e_gun_ll_03"],
    },
];

/// The computer clans' design store (the original's `UNITS\UNITS\AI\`, which function
/// 43 loads): a warrior on each robot scheme's chain, so the store holds a design the
/// clans' trees grant at the start and two their research opens.
pub const AI_DESIGNS: &[UnitScheme] = &[
    UnitScheme { path: "UNITS\\UNITS\\AI\\ai_sl_01.dat", description: "AI Scout", ..ROBOTS[0] },
    UnitScheme { path: "UNITS\\UNITS\\AI\\ai_sl_02.dat", description: "AI Tank", ..ROBOTS[1] },
    UnitScheme { path: "UNITS\\UNITS\\AI\\ai_sl_03.dat", description: "AI Walker", ..ROBOTS[2] },
];

/// The hero's chassis (the original's `r_h_02`, its size letter `h`: size class 2, so he
/// captures): nobody researches it.
pub const HERO_CHASSIS: &str = "R_H_02";

/// Class word of the hero (`docs/reference/registry.md` §2.2).
pub const CLASS_HERO: u32 = 0x0102_0000;

/// The hero's gun part: a cannon and a guided plasma rifle, as the original hero's first
/// two guns (nobody researches it).
pub const HERO_GUN: &str = "e_gun_hc_01";

/// The player's hero, where the original keeps its heroes (`UNITS\UNITS\HERO\`): his
/// chassis, a light turret and his gun part.
pub const HERO: UnitScheme = UnitScheme {
    path: "UNITS\\UNITS\\HERO\\hero_t.dat",
    class_word: CLASS_HERO,
    description: "Hero",
    chain: &[HERO_CHASSIS, "e_tur_lt_01", HERO_GUN],
};

/// The small builder's beam module (the original's `e_gun_ls_10`, level 0, free): its
/// controller carries class-30 components, no gun.
pub const BEAM: &str = "e_gun_ls_10";

/// Class word of a builder (`varset.var`'s `ROBOT_BUILDER`).
pub const BUILDER_ROBOT: u32 = 0x0100_4000;

/// The builder scheme (the original's small wheeled builder's name and parts: a chassis,
/// a turret and the beam module).
pub const BUILDER: UnitScheme = UnitScheme {
    path: "UNITS\\BUILDER\\b_s_wel1.dat",
    class_word: BUILDER_ROBOT,
    description: "Builder",
    chain: &["R_L_03", "e_tur_lt_01", BEAM],
};

/// The schemes of the Mine's upgrade ladder past its first (the demo's medium mine keeps
/// the small one's model).
pub const MINE_LADDER: &[&str] = &["UNITS\\BUILDS\\b_mine_02.dat"];

/// Class word of a transport robot.
pub const TRANSPORT_ROBOT: u32 = 0x0100_2000;

/// The transport robot scheme (a bare chassis: it carries ore, it does not fight).
pub const HAULER: UnitScheme = UnitScheme {
    path: "UNITS\\ROBOTS\\hauler.dat",
    class_word: TRANSPORT_ROBOT,
    description: "Hauler",
    chain: &["R_L_03"],
};

/// Class word of an animal (`varset.var`'s `CLASS_ANIMAL`, `gameplay.md` §1.4).
pub const CLASS_ANIMAL: u32 = 0x2000_0000;

/// The animal scheme (the nature clan's grazing beast: a walker with a light gun).
pub const ANIMAL: UnitScheme = UnitScheme {
    path: "UNITS\\ANIMALS\\beast.dat",
    class_word: CLASS_ANIMAL,
    description: "Beast",
    chain: &["R_L_01", "e_tur_lt_01", "e_gun_lc_01"],
};

/// The building scheme path of a category's prototype.
pub fn building_scheme_path(key: &str) -> String {
    format!("UNITS\\BUILDS\\{key}.dat")
}

/// Maps (folders under `DATA\MAPS`), smallest first.
pub const MAPS: &[&str] = &["Tut_1", "Plains", "Warzone"];

/// The folder of a map.
pub fn map_dir(map: &str) -> String {
    format!("DATA\\MAPS\\{map}")
}
