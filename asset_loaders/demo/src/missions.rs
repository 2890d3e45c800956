//! The demo missions: for each map a terrain (its overlays follow the mission's bases
//! and paths), an areal map and a `data.tma` with paths, clans (a nature clan with one
//! pasture and two beasts grazing it; the two active clans name the research tree
//! `MISSIONS\SCRIPTS\default.trf`), bases of distinct buildings (a mine and a storage
//! among them), robot squads, one transport robot per base, scenery, ore deposits and ore properties, each object with a logical id (units from 1,
//! the others `CLASS_BUILDING | n`). The last mission is large enough for
//! benchmarks (800+ placed objects, 5 000+ prototype requests).

use crate::catalogue::{ANIMAL, BUILDER, HAULER, HERO, MAPS, PROTOTYPES, ROBOTS, Role, building_scheme_path, map_dir};
use crate::geometry::{cos_approx, sin_approx};
use crate::registry::file_path;
use crate::scripts::RESEARCH_TREE;
use crate::terrain::{self, HeightField, MapSpec, OverlaySites};
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::rng::SplitMix64;
use iron3d_formats::world::{Clan, ClanType, ExtraRecord28, LpString, PathRecord, PlacedObject, Property, Tma, Zone};
use std::f32::consts::FRAC_PI_4;

/// One demo mission.
#[derive(Debug, Clone, Copy)]
pub struct MissionSpec {
    /// Mission name (`tutorial.01`, `single.NN`, `campaign.NN/mission.NN`).
    pub name: &'static str,
    /// Its `descr` title (written in CP1251).
    pub title: &'static str,
    /// Map folder (one of [`MAPS`]).
    pub map: &'static str,
    /// Terrain shape.
    pub terrain: MapSpec,
    /// Robot squads per active clan.
    pub robots_per_clan: u32,
    /// Extra robots of the computer clan (so it grows strong enough to attack: a
    /// skirmish, not a stand-off).
    pub enemy_extra: u32,
    /// Scenery objects.
    pub scenery: u32,
}

/// Tut_1's terrain (the tutorial's map; the first two campaign missions share it).
const TUT_1: MapSpec = MapSpec { cells: 72, cell: 24.0, relief: 160.0, lake: [0.78, 0.22, 0.12], areals: 24 };
/// Plains' terrain (single.01's map; the third campaign mission shares it).
const PLAINS: MapSpec = MapSpec { cells: 96, cell: 32.0, relief: 260.0, lake: [0.5, 0.5, 0.14], areals: 32 };

/// The missions, smallest first; a map's terrain and overlays come from the first
/// mission on it, the later ones share them (so their `MapSpec` must be the same).
pub const MISSIONS: &[MissionSpec] = &[
    MissionSpec {
        name: "tutorial.01",
        title: "Tutorial 1: the first base",
        map: MAPS[0],
        terrain: TUT_1,
        robots_per_clan: 3,
        enemy_extra: 2,
        scenery: 40,
    },
    MissionSpec {
        name: "single.01",
        title: "Single mission 1: the plains",
        map: MAPS[1],
        terrain: PLAINS,
        robots_per_clan: 12,
        enemy_extra: 6,
        scenery: 160,
    },
    MissionSpec {
        name: "single.02",
        title: "Single mission 2: the war zone",
        map: MAPS[2],
        terrain: MapSpec { cells: 120, cell: 40.0, relief: 420.0, lake: [0.3, 0.7, 0.16], areals: 40 },
        robots_per_clan: 780,
        enemy_extra: 0,
        scenery: 300,
    },
    MissionSpec {
        name: "campaign.01/mission.01",
        title: "Кампания 1, миссия 1: Высадка",
        map: MAPS[0],
        terrain: TUT_1,
        robots_per_clan: 2,
        enemy_extra: 0,
        scenery: 20,
    },
    MissionSpec {
        name: "campaign.01/mission.02",
        title: "Кампания 1, миссия 2: Рудник",
        map: MAPS[0],
        terrain: TUT_1,
        robots_per_clan: 3,
        enemy_extra: 2,
        scenery: 30,
    },
    MissionSpec {
        name: "campaign.01/mission.03",
        title: "Кампания 1, миссия 3: Равнины",
        map: MAPS[1],
        terrain: PLAINS,
        robots_per_clan: 4,
        enemy_extra: 4,
        scenery: 60,
    },
];

impl MissionSpec {
    /// The mission's folder in the original's layout: `MISSIONS/<name>`, a campaign
    /// mission under `MISSIONS/CAMPAIGN/CAMPAIGN.NN/MISSION.NN` (upper case, as an
    /// install copied from Windows has it).
    pub fn folder(&self) -> String {
        if self.name.starts_with("campaign.") {
            format!("MISSIONS/CAMPAIGN/{}", self.name.to_ascii_uppercase())
        } else {
            format!("MISSIONS/{}", self.name)
        }
    }
}

/// The type word of a mineral lode (read; the minerals search looks for it).
const LODE_TYPE: u32 = 0x1000_1000;
/// The ore of a mine's lode (the shipped ones hold 999 999 to 10²⁰).
const MINE_LODE_ORE: f32 = 1_000_000.0;

const KIND_BUILDING: u32 = 0;
const KIND_WARBOT: u32 = 1;
const KIND_TREE: u32 = 2;
const KIND_STONE: u32 = 3;
/// The logical-id bit of every object that is not a unit (`varset.var`'s `CLASS_BUILDING`).
pub const CLASS_BUILDING: u32 = 0x8000_0000;

fn standard_properties(object: PlacedObject, clan: i32) -> PlacedObject {
    object
        .with_property(Property::int("Invulnerability", 0))
        .with_property(Property::float("Life state", 1.0))
        .with_property(Property::int("ClanID", clan))
}

/// Places one mission's objects on `field`.
fn mission(spec: &MissionSpec, field: &HeightField, seed: u64) -> Tma {
    let side = spec.terrain.side();
    let land = format!("{}\\land", map_dir(spec.map));
    let mut tma = Tma::new(&land);
    let mut rng = SplitMix64::stream(seed, &format!("mission/{}", spec.name));
    let bases = [[0.2f32, 0.2], [0.8, 0.8]];
    let trf = format!("MISSIONS\\SCRIPTS\\{RESEARCH_TREE}");
    tma.clans.push(Clan::new("Nature", ClanType::NATURE, [0.0; 2], "MISSIONS\\SCRIPTS\\nature", "", 0));
    for (c, anchor) in bases.iter().enumerate() {
        let (name, kind) = if c == 0 { ("Player", ClanType::PLAYER) } else { ("Enemy", ClanType::ENEMY) };
        // Minds: every placed robot holds one (the hauler, the builder and the player's
        // hero too); three more for what the clan builds (the project's choice; shipped
        // clans have 2..17).
        let placed = spec.robots_per_clan + c as u32 * spec.enemy_extra + if c == 0 { 3 } else { 2 };
        let anchor = [anchor[0] * side, anchor[1] * side];
        tma.clans.push(Clan::new(name, kind, anchor, "MISSIONS\\SCRIPTS\\default", &trf, placed as i32 + 3));
    }
    let player_anchor = [bases[0][0] * side, bases[0][1] * side];
    let outpost = neutral_site(field, player_anchor);
    // A neutral clan (type 3), as the original's tutorials have: its bunker and its robot
    // are there to be captured.
    let neutral = format!("MISSIONS\\SCRIPTS\\{}", crate::scripts::NEUTRAL_BUNDLE);
    tma.clans.push(Clan::new("Neutral", ClanType::NEUTRAL, outpost, &neutral, "", 1));
    // The original's relation tables: every clan lists every clan, 1 towards itself
    // (the loader makes it 2, allied), 0 (hostile) towards the others.
    let names: Vec<LpString> = tma.clans.iter().map(|c| c.name.clone()).collect();
    for clan in &mut tma.clans {
        let own = clan.name.clone();
        clan.relations = names.iter().map(|n| (n.clone(), i32::from(*n == own))).collect();
    }
    let ground = |rng: &mut SplitMix64, cx: f32, cy: f32, r: f32| -> [f32; 3] {
        for _ in 0..32 {
            let (x, y) = (cx + rng.range(-r, r), cy + rng.range(-r, r));
            let (x, y) = (x.clamp(8.0, side - 8.0), y.clamp(8.0, side - 8.0));
            if field.is_walkable(x, y) {
                return [x, y, field.height(x, y)];
            }
        }
        [cx, cy, field.height(cx, cy)]
    };
    for (c, anchor) in bases.iter().enumerate() {
        let clan = c as i32 + 1;
        let (bx, by) = (anchor[0] * side, anchor[1] * side);
        let buildings = PROTOTYPES.iter().filter(|p| matches!(p.role, Role::Building(_)));
        for (k, proto) in buildings.enumerate() {
            let angle = k as f32 * std::f32::consts::FRAC_PI_6;
            let ring = 90.0 + 40.0 * (k % 3) as f32;
            let (x, y) = (bx + ring * cos_approx(angle), by + ring * sin_approx(angle));
            let mut o = PlacedObject::new(KIND_BUILDING, &building_scheme_path(proto.key), [x, y, field.height(x, y)]);
            o.raw_after_resource = clan as u32;
            o.orientation = [0.0, 0.0, angle];
            let mut o = standard_properties(o, clan);
            if proto.role == Role::Building(iron3d_formats::registry::BuildCategory::Mine) {
                // 500 on every shipped mine (the engine's Mine_MaxOre; measured).
                o = o
                    .with_property(Property::float("MaximumOre", 500.0))
                    .with_property(Property::float("CurrentOre", 200.0));
                // The mine's lode, found (as every shipped mine has one within 250).
                let words = [1, LODE_TYPE, MINE_LODE_ORE.to_bits(), 0];
                tma.extras.push(ExtraRecord28 { position: [x, y, 0.0], words });
            }
            tma.objects.push(o);
        }
        for f in 0..3 {
            let proto = PROTOTYPES.iter().filter(|p| matches!(p.role, Role::Fortification { .. })).nth(f);
            if let Some(proto) = proto {
                let pos = ground(&mut rng, bx, by, 60.0);
                let mut o = PlacedObject::new(KIND_BUILDING, proto.key, pos);
                o.instance_name = proto.key.into();
                tma.objects.push(standard_properties(o, clan));
            }
        }
        for r in 0..spec.robots_per_clan + c as u32 * spec.enemy_extra {
            let unit = &ROBOTS[(r as usize + c) % ROBOTS.len()];
            let pos = ground(&mut rng, bx + 200.0 * (0.5 - anchor[0]), by + 200.0 * (0.5 - anchor[1]), 160.0);
            let mut o = PlacedObject::new(KIND_WARBOT, unit.path, pos);
            o.raw_after_resource = clan as u32;
            o.orientation = [0.0, 0.0, rng.range(0.0, std::f32::consts::TAU)];
            // Standing orders (the project's own properties): most robots patrol a
            // mission path, every fourth follows one once.
            let (property, path) = if r % 4 == 3 {
                ("FollowPath", 100 + c as i32)
            } else {
                ("PatrolPath", 100 + ((r as usize + c) % 2) as i32)
            };
            tma.objects.push(
                standard_properties(o, clan)
                    .with_property(Property::int("MaxSpeedPercent", 100))
                    .with_property(Property::int(property, path)),
            );
        }
        // One transport robot between the base's mine and storage (no standing order:
        // the computer clan sends it to haul, the player orders it).
        let (x, y) = (bx + 110.0 * cos_approx(FRAC_PI_4), by + 110.0 * sin_approx(FRAC_PI_4));
        let mut o = PlacedObject::new(KIND_WARBOT, HAULER.path, [x, y, field.height(x, y)]);
        o.raw_after_resource = clan as u32;
        o.orientation = [0.0, 0.0, FRAC_PI_4];
        tma.objects.push(standard_properties(o, clan).with_property(Property::int("MaxSpeedPercent", 100)));
    }
    let scenery: Vec<_> = PROTOTYPES.iter().filter(|p| p.role == Role::Scenery).collect();
    for _ in 0..spec.scenery {
        let proto = scenery[rng.below(scenery.len() as u32) as usize];
        let pos = ground(&mut rng, side / 2.0, side / 2.0, side / 2.0);
        let kind = if proto.key.starts_with("s_tree") { KIND_TREE } else { KIND_STONE };
        let mut o = PlacedObject::new(kind, proto.key, pos);
        o.instance_name = proto.stem.into();
        o.orientation = [0.0, 0.0, rng.range(0.0, std::f32::consts::TAU)];
        o.scale = [rng.range(0.8, 1.3); 3];
        tma.objects.push(standard_properties(o, 0));
    }
    for p in 0..2 {
        let points = (0..5).map(|_| ground(&mut rng, side / 2.0, side / 2.0, side * 0.4)).collect();
        tma.paths.push(PathRecord { path_id: 100 + p, points });
    }
    // Lodes not yet found, for a builder's search.
    for _ in 0..4 {
        let position = ground(&mut rng, side / 2.0, side / 2.0, side * 0.45);
        let words = [0, LODE_TYPE, 10_000f32.to_bits(), 0];
        tma.extras.push(ExtraRecord28 { position, words });
    }
    graze(&mut tma, &mut rng, spec, &ground);
    for (c, anchor) in bases.iter().enumerate() {
        place_builder(&mut tma, field, c as i32 + 1, [anchor[0] * side, anchor[1] * side], 0.5 - anchor[0]);
    }
    place_hero(&mut tma, field, player_anchor, 0.5 - bases[0][0]);
    place_neutrals(&mut tma, field, outpost);
    // Logical ids, the scripts' names of objects (gameplay.md §13): units 1, 2, ...;
    // buildings and scenery carry CLASS_BUILDING.
    let (mut units, mut others) = (0u32, 0u32);
    for o in &mut tma.objects {
        let counter = if o.raw_kind == KIND_WARBOT { &mut units } else { &mut others };
        *counter += 1;
        o.identity_or_clan_raw = if o.raw_kind == KIND_WARBOT { *counter } else { CLASS_BUILDING | *counter };
    }
    tma.description_raw = format!("Demo mission {}", spec.name).as_str().into();
    tma
}

/// The logical id of the enemy's building of `category` in every mission (the scripts
/// name it, as the original's name the buildings their mission places): `CLASS_BUILDING`
/// and its place among the objects that are no unit, the player's base (its buildings
/// and fortifications) placed first.
pub fn enemy_building(category: iron3d_formats::registry::BuildCategory) -> u32 {
    let buildings = PROTOTYPES.iter().filter(|p| matches!(p.role, Role::Building(_)));
    let fortifications = PROTOTYPES.iter().filter(|p| matches!(p.role, Role::Fortification { .. })).take(3).count();
    let at = buildings.clone().position(|p| p.role == Role::Building(category)).unwrap_or(0);
    CLASS_BUILDING | (buildings.count() + fortifications + at + 1) as u32
}

/// How far from its base's anchor a clan's lode may lie toward the map's middle (past
/// the base's buildings), the ground round it that should be flat, and how far short of
/// it the builder stands.
const LODE_REACH: std::ops::Range<u16> = 230..600;
const FLAT_RADIUS: f32 = 30.0;
const BUILDER_SHORT: f32 = 30.0;

/// The flattest dry point on the diagonal from `anchor` toward the middle (each 10 units
/// of [`LODE_REACH`]): the least spread of heights on a circle of [`FLAT_RADIUS`].
fn flat_site(field: &HeightField, anchor: [f32; 2], toward: f32) -> [f32; 2] {
    let along = |r: f32| {
        let d = r * toward.signum() * std::f32::consts::FRAC_1_SQRT_2;
        [anchor[0] + d, anchor[1] + d]
    };
    let spread = |p: [f32; 2]| {
        let heights = (0..16).map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 16.0;
            field.height(p[0] + FLAT_RADIUS * cos_approx(a), p[1] + FLAT_RADIUS * sin_approx(a))
        });
        let (lo, hi) = heights.fold((f32::MAX, f32::MIN), |(lo, hi), h| (lo.min(h), hi.max(h)));
        hi - lo
    };
    let candidates = LODE_REACH.step_by(10).map(|r| along(f32::from(r)));
    candidates
        .filter(|p| field.is_walkable(p[0], p[1]))
        .min_by(|a, b| spread(*a).total_cmp(&spread(*b)))
        .unwrap_or(anchor)
}

/// A clan's builder (holding 200 of its 2 000 ore, as the original's placed builders may)
/// and a found lode before it for a mine, on the flattest ground toward the middle:
/// after every other object, so the placed ids and lodes before them stay as they were.
fn place_builder(tma: &mut Tma, field: &HeightField, clan: i32, anchor: [f32; 2], toward: f32) {
    let lode = flat_site(field, anchor, toward);
    let back = BUILDER_SHORT * toward.signum() * std::f32::consts::FRAC_1_SQRT_2;
    let [x, y] = [lode[0] - back, lode[1] - back];
    let mut o = PlacedObject::new(KIND_WARBOT, BUILDER.path, [x, y, field.height(x, y)]);
    o.raw_after_resource = clan as u32;
    o.orientation = [0.0, 0.0, FRAC_PI_4];
    tma.objects.push(
        standard_properties(o, clan)
            .with_property(Property::int("MaxSpeedPercent", 100))
            .with_property(Property::float("CurrentOre", 200.0)),
    );
    let words = [1, LODE_TYPE, MINE_LODE_ORE.to_bits(), 0];
    tma.extras.push(ExtraRecord28 { position: [lode[0], lode[1], field.height(lode[0], lode[1])], words });
}

/// The player's hero (clan 1) beside the player's builder, on his own, where the
/// mission starts him (after every other robot, so their ids stay as they were).
fn place_hero(tma: &mut Tma, field: &HeightField, anchor: [f32; 2], toward: f32) {
    let lode = flat_site(field, anchor, toward);
    let back = BUILDER_SHORT * toward.signum() * std::f32::consts::FRAC_1_SQRT_2;
    let [x, y] = [lode[0] - back + 12.0, lode[1] - back - 12.0];
    let mut o = PlacedObject::new(KIND_WARBOT, HERO.path, [x, y, field.height(x, y)]);
    o.raw_after_resource = 1;
    o.orientation = [0.0, 0.0, FRAC_PI_4];
    tma.objects.push(standard_properties(o, 1).with_property(Property::int("MaxSpeedPercent", 100)));
}

/// The clan index of the demo's neutral clan (after nature, the player and the enemy).
const NEUTRAL_CLAN: i32 = 3;

/// Where the neutral clan stands: the first walkable point along +x of the player's
/// base (past its buildings) whose ground round it is walkable too.
fn neutral_site(field: &HeightField, anchor: [f32; 2]) -> [f32; 2] {
    let clear = |p: [f32; 2]| {
        (0..8).all(|k| {
            let a = k as f32 * std::f32::consts::TAU / 8.0;
            field.is_walkable(p[0] + 25.0 * cos_approx(a), p[1] + 25.0 * sin_approx(a))
        })
    };
    (230..600).step_by(10).map(|r| [anchor[0] + f32::from(r as u16), anchor[1]]).find(|p| clear(*p)).unwrap_or(anchor)
}

/// The neutral clan's small bunker at `at` and a scout of its beside it.
fn place_neutrals(tma: &mut Tma, field: &HeightField, at: [f32; 2]) {
    let bunker =
        PROTOTYPES.iter().find(|p| p.role == Role::Building(iron3d_formats::registry::BuildCategory::BunkerSmall));
    if let Some(proto) = bunker {
        let mut o = PlacedObject::new(
            KIND_BUILDING,
            &building_scheme_path(proto.key),
            [at[0], at[1], field.height(at[0], at[1])],
        );
        o.raw_after_resource = NEUTRAL_CLAN as u32;
        tma.objects.push(standard_properties(o, NEUTRAL_CLAN));
    }
    let [x, y] = [at[0], at[1] + 20.0];
    let mut o = PlacedObject::new(KIND_WARBOT, ROBOTS[0].path, [x, y, field.height(x, y)]);
    o.raw_after_resource = NEUTRAL_CLAN as u32;
    tma.objects.push(standard_properties(o, NEUTRAL_CLAN).with_property(Property::int("MaxSpeedPercent", 100)));
}

/// The nature clan's pasture: inner and outer radius (the shipped ones are 20 inner and
/// 40 or 50 outer on Mission 02; the demo's are wider, so its beasts roam).
const PASTURE_RADII: (f32, f32) = (60.0, 100.0);
/// Beasts grazing it.
const ANIMALS: u32 = 2;

/// Gives the nature clan (clan 0) a pasture in the map's corner away from both bases,
/// and places its beasts there (the original's nature clans carry zones and animals of
/// their own).
fn graze(
    tma: &mut Tma,
    rng: &mut SplitMix64,
    spec: &MissionSpec,
    ground: &impl Fn(&mut SplitMix64, f32, f32, f32) -> [f32; 3],
) {
    let side = spec.terrain.side();
    let centre = ground(rng, 0.15 * side, 0.85 * side, 40.0);
    let (inner, outer) = PASTURE_RADII;
    tma.clans[0].zones.push(Zone { kind: 1, centre, inner, outer });
    for _ in 0..ANIMALS {
        let pos = ground(rng, centre[0] + inner / 2.0, centre[1] + inner / 2.0, inner / 2.0);
        let mut o = PlacedObject::new(KIND_WARBOT, ANIMAL.path, pos);
        o.orientation = [0.0, 0.0, rng.range(0.0, std::f32::consts::TAU)];
        tma.objects.push(standard_properties(o, 0).with_property(Property::int("MaxSpeedPercent", 100)));
    }
}

/// Writes every map and mission.
pub fn write(tree: &mut DemoTree, seed: u64) -> Result<()> {
    let mut maps_written = std::collections::BTreeSet::new();
    for spec in MISSIONS {
        let field = HeightField::new(seed, spec.map, spec.terrain);
        let dir = file_path(&map_dir(spec.map));
        let tma = mission(spec, &field, seed);
        if maps_written.insert(spec.map) {
            let sites = OverlaySites::of_mission(&tma);
            tree.add(&format!("{dir}/land.msh"), terrain::land_msh(&field, &sites)?.to_bytes()?)?;
            tree.add(&format!("{dir}/land.map"), terrain::land_map(&field)?.to_bytes()?)?;
        }
        tree.add(&format!("{}/data.tma", spec.folder()), tma.to_bytes()?)?;
    }
    Ok(())
}
