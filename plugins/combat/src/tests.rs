//! The original's combat formulas, each against the numbers openparkan's docs give
//! (`docs/26-damage.md`, `docs/29-weapons.md`).

use super::*;
use iron3d_core::{CombatSheet, GunSheet, HitSheet, NodeSheet, RepairSheet, RoundSheet, ShieldSheet, TICK_MS};

#[test]
fn armour_lets_through_the_smaller_of_the_hit_and_its_curve() {
    let a = [0.5, 0.0002];
    let through: Vec<f32> = [100.0, 1000.0, 2500.0, 3000.0].iter().map(|&d| armoured(d, a)).collect();
    assert_eq!(through, [52.0, 700.0, 2500.0, 3000.0]);
    assert_eq!(armoured(123.0, [1.0, 0.0]), 123.0, "a chassis without armour keeps every hit");
    assert_eq!(armoured(50.0, [-1.0, 0.0]), 0.0, "never below 0");
}

#[test]
fn a_blast_falls_off_by_the_cube_of_the_overlap() {
    let close = |a: f32, b: f32| (a - b).abs() < 1e-4 * b.abs().max(1.0);
    // Radius 10 against a node sphere of radius 1.
    assert_eq!(falloff(200.0, 12.0, 1.0, 10.0), 0.0);
    assert_eq!(falloff(200.0, 11.0, 1.0, 10.0), 0.0, "touching is not meeting");
    assert_eq!(falloff(200.0, 8.0, 1.0, 10.0), 200.0, "strictly inside: all of it");
    assert!(close(falloff(200.0, 9.0, 1.0, 10.0), 0.2), "{}", falloff(200.0, 9.0, 1.0, 10.0));
    assert!(close(falloff(200.0, 10.0, 1.0, 10.0), 0.025));
    // A node larger than the blast.
    assert_eq!(falloff(100.0, 2.9, 5.0, 2.0), 100.0, "the blast inside the node");
    assert!(close(falloff(100.0, 4.0, 5.0, 2.0), 42.1875));
    assert_eq!(falloff(100.0, 0.0, 0.0, 2.0), 0.0, "a node without a sphere");
}

fn node(hit_points: f32, parent: Option<u16>, vital: bool) -> NodeSheet {
    NodeSheet { hit_points, parent, vital, gear: iron3d_core::Gear::None }
}

/// Node 0 with 1 under it, 2 under 1, and a vital 3 under 0.
fn sheet() -> CombatSheet {
    let nodes = vec![
        node(500.0, None, false),
        node(100.0, Some(0), false),
        node(50.0, Some(1), false),
        node(80.0, Some(0), true),
    ];
    CombatSheet { nodes, armour: [1.0, 0.0], ..CombatSheet::default() }
}

#[test]
fn a_destroyed_node_takes_the_nodes_below_it_and_node_0_or_a_vital_node_kills() {
    let mut body = Body::from_sheet(&sheet(), 0.7);
    assert_eq!(body.total(), (511.0, 511.0), "the difficulty ratio scales every node");
    let s = body.strike(2, 10.0);
    assert_eq!((s.lost, s.destroyed.clone(), s.dead), (10.0, vec![], false));
    let s = body.strike(1, 1000.0);
    assert_eq!((s.lost, s.destroyed, s.dead), (70.0, vec![1, 2], false), "life stops at 0; its child falls");
    assert_eq!(body.nodes[2].life, 0.0);
    assert_eq!(body.strike(2, 5.0), Strike::default(), "a destroyed node takes nothing more");
    let s = body.strike(3, 56.0);
    assert_eq!((s.destroyed, s.dead), (vec![3], true), "a vital node kills");
    let mut body = Body::from_sheet(&sheet(), 1.0);
    let s = body.strike(0, 500.0);
    assert_eq!((s.destroyed, s.dead), (vec![0, 1, 3, 2], true), "node 0 takes everything, and kills");
    assert!(body.dead());
}

fn gun(magazine: i32, interval_ms: f32, volley: bool) -> GunSheet {
    let round = RoundSheet {
        speed: 350.0,
        range: 500.0,
        hit_points: 149.0,
        flags: 0,
        hit: HitSheet { kind: 2, damage: 1.0, radius: 0.0 },
        seeker: None,
    };
    GunSheet {
        node: 0,
        magazine,
        capacitor: 2.0,
        shot_energy: 0.15,
        interval_ms,
        barrels: 3,
        volley,
        stroke_ms: None,
        arm: false,
        round,
    }
}

/// Rounds a gun fires held on the trigger for `ms` of game time.
fn fire_for(gun: &mut GunState, ms: u32) -> u32 {
    let mut rounds = 0;
    for _ in 0..ms / TICK_MS {
        gun.refill(1.0);
        let mut now = gun.tick();
        if now == 0 && gun.ready() {
            now = gun.trigger();
        }
        rounds += u32::from(now);
    }
    rounds
}

#[test]
fn one_shot_takes_its_stroke_and_its_interval_and_the_round_leaves_halfway() {
    // The hero's cannon: a 250 ms stroke, no interval: four a second.
    let mut cannon = GunState::new(gun(-1, 0.0, false), STROKE_MS, 1.0);
    assert!(cannon.ready());
    assert_eq!(cannon.trigger(), 0, "the round waits for half the stroke");
    assert_eq!(cannon.tick(), 0, "64 ms in");
    assert_eq!(cannon.tick(), 1, "128 ms in: past the 125 ms mark");
    let mut cannon = GunState::new(gun(-1, 0.0, false), STROKE_MS, 1.0);
    assert_eq!(fire_for(&mut cannon, 10_048), 40);
    // The plasma rifle: 250 ms of interval after the stroke, 1.33 a second.
    let mut plasma = GunState::new(gun(-1, 250.0, false), 500.0, 1.0);
    assert_eq!(fire_for(&mut plasma, 30_016), 40);
    assert_eq!(plasma.magazine, -1, "an unlimited magazine stays unlimited");
}

#[test]
fn a_magazine_empties_and_a_volley_fires_every_barrel() {
    let mut launcher = GunState::new(gun(9, 1250.0, false), STROKE_MS, 1.0);
    assert_eq!(fire_for(&mut launcher, 60_032), 9);
    assert!(!launcher.ready(), "no rounds left");
    assert_eq!(launcher.barrel, 0, "three barrels in turn, three times over");
    let mut beams = GunState::new(gun(-1, 1000.0, true), STROKE_MS, 1.0);
    assert_eq!(fire_for(&mut beams, 1_024), 3, "one stroke in a second, every barrel at once");
}

#[test]
fn a_round_hits_for_its_hit_points_and_its_explosion_times_the_level_ratio() {
    let cannon = |ratio| GunState::new(gun(-1, 0.0, false), STROKE_MS, ratio).round_damage();
    assert_eq!([cannon(1.0), cannon(0.7), cannon(0.5)], [150.0, 105.0, 75.0]);
}

#[test]
fn a_gun_without_the_energy_of_a_shot_does_not_fire() {
    let mut g = gun(-1, 0.0, false);
    g.shot_energy = 3.0;
    assert!(!GunState::new(g, STROKE_MS, 1.0).ready(), "a capacitor of 2 never holds a shot of 3");
    g.capacitor = 0.0;
    assert!(GunState::new(g, STROKE_MS, 1.0).ready(), "a gun without a capacitor fires free");
}

#[test]
fn a_hit_meets_the_sector_of_its_dominant_axis_ties_to_the_lower() {
    let cases = [
        ([0.0, 5.0, 1.0], 0),
        ([0.0, -5.0, 1.0], 1),
        ([-3.0, 1.0, 0.0], 2),
        ([3.0, 1.0, 0.0], 3),
        ([0.0, 0.0, 2.0], 4),
        ([0.0, 0.0, -2.0], 5),
        ([1.0, 1.0, 0.0], 0),
        ([1.0, -1.0, 0.0], 1),
        ([-2.0, 0.0, -2.0], 2),
    ];
    for (offset, s) in cases {
        assert_eq!(sector(offset), s, "{offset:?}");
    }
}

fn shield(points: f32, coefficient: f32, recharge: f32) -> ShieldSheet {
    ShieldSheet { points, recharge, charge_per_point: 0.04, node: 0, coefficients: [coefficient; 6], deflector_node: 0 }
}

#[test]
fn a_sector_stops_up_to_its_strength_and_pays_by_its_coefficient() {
    let body = Body::single(100.0, 100.0, [1.0, 0.0]);
    let mut s = Shield::new(shield(1000.0, 0.5, 0.0), 1.0);
    assert_eq!(s.strength(&body, 0), 500.0);
    assert_eq!(s.stop(&body, 0, 300.0), 0.0, "all of it stopped");
    assert_eq!(s.sectors[0], 400.0, "two points a point stopped");
    assert_eq!(s.stop(&body, 1, 800.0), 300.0, "the rest goes on");
    assert_eq!(s.sectors[1], 0.0);
    let mut s = Shield::new(shield(1000.0, 1.0, 0.0), 1.0);
    s.stop(&body, 2, 300.0);
    assert_eq!(s.sectors[2], 700.0);
    let hurt = Body::single(50.0, 100.0, [1.0, 0.0]);
    assert_eq!(s.strength(&hurt, 0), 500.0, "the deflector's condition scales the strength");
}

#[test]
fn a_round_with_more_life_than_the_sector_passes_emptying_it() {
    let body = Body::single(100.0, 100.0, [1.0, 0.0]);
    let mut s = Shield::new(shield(1000.0, 0.5, 0.0), 1.0);
    assert_eq!(s.meet(&body, 0, 900.0), Meeting::Passes(500.0));
    assert_eq!(s.sectors[0], 0.0);
    assert_eq!(s.meet(&body, 0, 10.0), Meeting::Passes(0.0), "a spent sector lets rounds through whole");
    assert_eq!(s.meet(&body, 1, 400.0), Meeting::Stopped);
    assert!(!s.up(&Body::single(0.0, 100.0, [1.0, 0.0])), "no bubble once the deflector's node is destroyed");
}

#[test]
fn sectors_recharge_in_proportion_to_their_lack_and_the_ratio_scales_them() {
    let body = Body::single(100.0, 100.0, [1.0, 0.0]);
    let mut s = Shield::new(shield(1000.0, 0.5, 11.0), 1.0);
    s.sectors = [900.0, 1000.0, 1000.0, 1000.0, 1000.0, 990.0];
    s.recharge(&body, 0.25);
    assert!((s.sectors[0] - 902.5).abs() < 1e-3 && (s.sectors[5] - 990.25).abs() < 1e-3, "{:?}", s.sectors);
    s.sectors = [999.0, 1000.0, 1000.0, 1000.0, 1000.0, 1000.0];
    s.recharge(&body, 0.25);
    assert_eq!(s.sectors[0], 1000.0, "never past the lack");
    assert_eq!(Shield::new(shield(1500.0, 0.5, 11.0), 0.5).max, 750.0);
}

/// A tower's repair of 110 a second: its turret's 3 506 lack, then two destroyed guns
/// of 6 000 each, in index order: 31.9 s, 86.4 s and 141 s (openparkan's example). The
/// AI switches a repair system on only with more than 30 % of a battery, off under 10 %.
#[test]
fn repair_mends_its_own_nodes_in_index_order_and_only_a_building_revives_nodes() {
    let nodes = vec![
        node(10_000.0, None, false),
        node(3507.0, Some(0), false),
        node(6000.0, Some(0), false),
        node(6000.0, Some(0), false),
    ];
    let mut body = Body::from_sheet(&CombatSheet { nodes, armour: [1.0, 0.0], ..CombatSheet::default() }, 1.0);
    (body.nodes[1].life, body.nodes[2].life, body.nodes[3].life) = (1.0, 0.0, 0.0);
    let sheet = RepairSheet { rate: 110.0, charge_per_point: 0.0002, node: 0 };
    let mut repair = Repair { sheet, on: false, building: true };
    let mut full = [None; 4];
    for tick in 1..=3000u32 {
        repair.step(&mut body, 0.064, 1.0);
        for (i, n) in body.nodes.iter().enumerate() {
            if full[i].is_none() && n.life >= n.max {
                full[i] = Some(tick as f32 * 0.064);
            }
        }
    }
    let at = |i: usize| full[i].unwrap();
    assert!((at(1) - 31.9).abs() < 0.1 && (at(2) - 86.4).abs() < 0.1 && (at(3) - 141.0).abs() < 0.1, "{full:?}");
    let mut unit = Body::from_sheet(&sheet_of_two(), 1.0);
    (unit.nodes[0].life, unit.nodes[1].life) = (200.0, 0.0);
    let mut repair = Repair { sheet: RepairSheet { node: 0, ..sheet }, on: false, building: false };
    assert_eq!(repair.step(&mut unit, 1.0, 0.3), 0.0, "not on with 30 % of a battery");
    assert!(repair.step(&mut unit, 1.0, 0.31) > 0.0 && repair.on, "on below half its life");
    assert!(repair.step(&mut unit, 1.0, 0.2) > 0.0, "stays on above 10 %");
    assert_eq!(repair.step(&mut unit, 1.0, 0.09), 0.0, "off under 10 %");
    assert!(!repair.on);
    repair.step(&mut unit, 1.0, 1.0);
    assert_eq!(unit.nodes[1].life, 0.0, "a unit's destroyed node stays destroyed");
    let mut idle = Repair { on: false, ..repair };
    let mut whole = Body::from_sheet(&sheet_of_two(), 1.0);
    assert_eq!(idle.step(&mut whole, 1.0, 1.0), 0.0);
    assert!(!idle.on, "switched off while whole");
}

fn sheet_of_two() -> CombatSheet {
    CombatSheet { nodes: vec![node(500.0, None, false), node(100.0, Some(0), false)], ..CombatSheet::default() }
}

#[test]
fn the_ai_scores_a_round_by_distance_and_waits_its_random_timer() {
    let close = |a: f32, b: f32| (a - b).abs() < 1e-3;
    // A round of 350 a second: full from 5 to 175.5, half at 438.75, none from 702.
    let s = |d: f32, h: f32| distance_score(0, 350.0, d, h);
    assert!(close(s(2.5, 0.0), 0.5) && s(100.0, 0.0) == 1.0 && s(175.5, 0.0) == 1.0);
    assert!(close(s(438.75, 0.0), 0.5) && s(702.0, 0.0) == 0.0 && close(s(100.0, 35.0), 0.9));
    // The small tower's 200 a second: 0.85 at 145.7, 0.45 at 266.3, 0 at 402.
    let t = |d: f32| distance_score(0, 200.0, d, 0.0);
    assert!((t(145.7) - 0.85).abs() < 1e-3 && (t(266.3) - 0.45).abs() < 1e-3 && t(402.0) == 0.0);
    // A missile of 70: full to 35.5, none at 142.
    assert!(distance_score(0, 70.0, 35.5, 0.0) == 1.0 && distance_score(0, 70.0, 142.0, 0.0) == 0.0);
    // Frame flags: 0x10 scores 1.1, 8 scores 1 at any distance and height.
    assert_eq!((distance_score(0x10, 350.0, 900.0, 50.0), distance_score(8, 350.0, 900.0, 50.0)), (1.1, 1.0));
    let mut random = iron3d_core::RandomStream::named(1, "combat.fire");
    for _ in 0..200 {
        let nine = next_wait_ms(9, &mut random);
        assert!((3333.0..=6667.0).contains(&nine), "{nine}");
        for magazine in [2, -1] {
            let w = next_wait_ms(magazine, &mut random);
            assert!((500.0..=2000.0).contains(&w), "{w}");
        }
    }
}

fn radar(range: f32) -> iron3d_core::RadarSheet {
    iron3d_core::RadarSheet { sensitivity: [0.05, 0.7, 25.0], range, period_ms: 750.0, node: 0 }
}

/// One signature whose product with its sensitivity is `v·s` is seen out to
/// `R·√(1 − 1/(v·s))` (openparkan `docs/25-sensors.md`: 10 at 95 % of the range, 2 at
/// 71 %, 1 or less never); the radar's condition scales the sensitivity.
#[test]
fn a_radar_sees_a_signature_out_to_the_range_times_the_root_of_one_less_its_inverse() {
    let sheet = radar(400.0);
    let edge = |vs: f32| 400.0 * (1.0 - 1.0 / vs).sqrt();
    for (signature, condition, vs) in
        [([200.0, 0.0, 0.0], 1.0, 10.0), ([0.0, 0.0, 0.08], 1.0, 2.0), ([0.0, 0.0, 50.0], 0.1, 125.0)]
    {
        let at = edge(vs);
        assert!(detects(&sheet, condition, signature, at - 0.5), "{signature:?} at {at}");
        assert!(!detects(&sheet, condition, signature, at + 0.5), "{signature:?} beyond {at}");
    }
    assert!(!detects(&sheet, 1.0, [20.0, 0.0, 0.0], 1.0), "a product of 1 is seen nowhere but at the radar");
    assert!(detects(&sheet, 1.0, [20.01, 0.0, 0.0], 1.0));
    assert!(!detects(&sheet, 1.0, [1e9; 3], 400.0), "nothing at the range or beyond");
    assert!(!detects(&sheet, 0.0, [1e9; 3], 1.0), "a destroyed radar sees nothing");
}

/// Mass is mass; electronics is area × what channels 0, 2 and 5 ask; drive is volume ×
/// what channels 0, 3 and 4 ask (channel 1, the batteries', in neither).
#[test]
fn signatures_are_mass_area_times_channels_0_2_5_and_volume_times_channels_0_3_4() {
    let mut sheet = CombatSheet::default();
    sheet.figures.mass = 1375.0;
    (sheet.figures.area, sheet.figures.volume) = (2.0, 3.0);
    sheet.figures.asks = [1.0, 100.0, 2.0, 4.0, 8.0, 16.0];
    let draws = Draws { misc: 0.5, engine: 1.0, guns: 2.0, shields: 3.0 };
    assert_eq!(
        signature(&sheet, draws),
        [1375.0, 2.0 * (1.0 + 2.0 + 16.0 + 0.5 + 3.0), 3.0 * (1.0 + 4.0 + 8.0 + 0.5 + 1.0 + 2.0)]
    );
    assert_eq!(signature(&sheet, Draws::default()), [1375.0, 38.0, 39.0]);
}

/// A detection shield leaves `max(0, 1 − cut × condition)` of each signature, and
/// camouflage `1 − value 3` of that (a small MK2: 10 %, 55 %, 99 %; camouflaged 1.6 %,
/// 8.8 %, 15.8 %, as the doc derives).
#[test]
fn a_detection_shield_cuts_each_signature_by_its_condition_and_camouflage_cuts_again() {
    let sheet = iron3d_core::StealthSheet {
        cuts: [0.9, 0.45, 0.01],
        camouflage: 0.84,
        camouflage_power: 0.2,
        power: 0.09,
        node: 0,
    };
    let mut stealth = Stealth::new(sheet);
    let close = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
    assert!(close(stealth.passes(1.0), [0.1, 0.55, 0.99]), "{:?}", stealth.passes(1.0));
    assert!(close(stealth.passes(0.5), [0.55, 0.775, 0.995]), "a damaged shield cuts less");
    assert!(close(stealth.passes(0.0), [1.0; 3]), "a destroyed one not at all");
    stealth.camouflaged = true;
    assert!(close(stealth.passes(1.0), [0.016, 0.088, 0.1584]), "{:?}", stealth.passes(1.0));
    let over = iron3d_core::StealthSheet { cuts: [2.0; 3], camouflage: 1.5, ..sheet };
    assert_eq!(Stealth { sheet: over, ..stealth }.passes(1.0), [0.0; 3], "never below 0");
}

/// A power tick serves channel 3, then 0, then 2 and 5 at one level, then 4, each at
/// `min(1, left ÷ want)`, from what the batteries give (`min(output × charge ×
/// condition × dt, capacity × charge × condition)`), and drains them by what was used
/// (openparkan `docs/23-economy.md`).
#[test]
fn a_power_tick_serves_the_channels_in_order_and_drains_the_batteries() {
    let battery = iron3d_core::BatterySheet { capacity: 100.0, output: 40.0, node: 0 };
    let mut power = Power::new(vec![battery], 0);
    // 40 × 0.25 = 10 to give: the engine's 4, repair's 3, radar 1 and shield 2 (3 in
    // all), then the guns' 6 get what is left, 0.
    let used = serve(&mut power, [3.0, 0.0, 1.0, 4.0, 6.0, 2.0], 0.25, |_| 1.0);
    assert_eq!((used, power.levels), (10.0, [1.0, 1.0, 1.0, 1.0, 0.0, 1.0]));
    assert_eq!(power.charge, 0.9, "10 of 100 used");
    // Half charged and at half condition the battery gives 40 × 0.5 × 0.5 × 0.25 = 2.5:
    // the engine's 4 get 62.5 %, nothing else anything.
    power.charge = 0.5;
    serve(&mut power, [3.0, 0.0, 1.0, 4.0, 6.0, 2.0], 0.25, |_| 0.5);
    assert_eq!(power.levels, [0.0, 1.0, 0.0, 0.625, 0.0, 0.0]);
    // A channel that wants nothing keeps its level; a small store gives what it holds.
    power.levels = [1.0; 6];
    power.charge = 0.01;
    serve(&mut power, [0.0, 0.0, 0.0, 0.0, 8.0, 0.0], 10.0, |_| 1.0);
    assert_eq!(power.levels, [1.0, 1.0, 1.0, 1.0, 0.125, 1.0], "1 of the store's 100 × 0.01 for 8");
    assert_eq!(power.charge, 0.0);
}

/// In a dock a unit gains a tenth of each full measure a second: every node's life
/// (destroyed ones too), the capacitor, and at each whole second a tenth of the magazine
/// (at least a round): full in ten seconds (openparkan `docs/27-ownership.md`).
#[test]
fn a_dock_refills_a_tenth_a_second_and_a_unit_is_full_in_ten_seconds() {
    let mut body = Body::from_sheet(&sheet_of_two(), 1.0);
    (body.nodes[0].life, body.nodes[1].life) = (100.0, 0.0);
    let mut big = GunState::new(gun(25, 300.0, false), 0.0, 1.0);
    let mut small = GunState::new(gun(4, 300.0, false), 0.0, 1.0);
    (big.magazine, big.charge, small.magazine) = (0, 0.0, 0);
    let mut endless = GunState::new(gun(-1, 300.0, false), 0.0, 1.0);
    // Ten seconds and a tick: 157 ticks of 64 ms.
    for tick in 1..=10_000usize.div_ceil(TICK_MS as usize) {
        docks::mend(&mut body, 0.064);
        let whole = (tick * TICK_MS as usize) / 1000 != ((tick - 1) * TICK_MS as usize) / 1000;
        for g in [&mut big, &mut small, &mut endless] {
            docks::rearm(g, 0.064, whole);
        }
        if tick == 16 {
            assert!((body.nodes[0].life - (100.0 + 50.0 * 0.064 * (tick as f32))).abs() < 1e-2);
            assert!((body.nodes[1].life - 10.0 * 0.064 * tick as f32).abs() < 1e-3, "a destroyed node too");
            assert_eq!((big.magazine, small.magazine), (2, 1), "a tenth rounded down, at least one");
            assert!((big.charge - 0.2 * 0.064 * tick as f32).abs() < 1e-4);
        }
    }
    assert_eq!(body.total(), (600.0, 600.0), "full in ten seconds");
    assert_eq!((big.magazine, small.magazine, endless.magazine), (20, 4, -1), "two rounds a second, ten seconds");
    assert_eq!(big.charge, 2.0);
}

/// E from the data (openparkan `docs/24-motion.md`): the engines' drive × their nodes'
/// condition, times the mean life of the left and right running gear, each side the
/// mean of its nodes; a body without gear keeps both sides at 1, one without an engine
/// has no drive.
#[test]
fn a_machines_drive_is_its_engines_condition_times_its_running_gears_life() {
    use iron3d_core::{EngineSheet, Gear};
    let gear = |side| NodeSheet { gear: side, ..node(100.0, Some(0), false) };
    let mut sheet = CombatSheet {
        nodes: vec![node(500.0, None, false), gear(Gear::Left), gear(Gear::Left), gear(Gear::Right)],
        ..CombatSheet::default()
    };
    let mut body = Body::from_sheet(&sheet, 1.0);
    assert_eq!(drive(&sheet, &body), None, "no engine named");
    sheet.engines = vec![EngineSheet { drive: 0.8, node: 0 }];
    let whole = drive(&sheet, &body).unwrap();
    assert_eq!((whole.engines, whole.left, whole.right, whole.factor()), (0.8, 1.0, 1.0, 0.8));
    body.nodes[0].life = 250.0;
    body.nodes[1].life = 0.0;
    body.nodes[3].life = 50.0;
    let hurt = drive(&sheet, &body).unwrap();
    assert_eq!((hurt.engines, hurt.left, hurt.right), (0.4, 0.5, 0.5));
    assert_eq!(hurt.factor(), 0.2);
    sheet.nodes.truncate(1);
    body.nodes.truncate(1);
    assert_eq!(drive(&sheet, &body).map(|d| (d.left, d.right)), Some((1.0, 1.0)), "no running gear: 1 a side");
}

/// A building's efficiency parts each answer `(condition × value) × level`, the condition
/// their node's life over its full life and the level channel 3's; a part whose node
/// lies outside its table answers nothing (openparkan `docs/23-economy.md`, read).
#[test]
fn a_buildings_efficiency_is_its_parts_values_by_their_nodes_condition_and_its_power_level() {
    let parts = vec![
        iron3d_core::EfficiencySheet { value: 3.0, node: Some(1) },
        iron3d_core::EfficiencySheet { value: 2.0, node: None },
    ];
    let sheet = CombatSheet { nodes: vec![node(100.0, None, false); 2], efficiency: parts, ..CombatSheet::default() };
    let mut body = Body::from_sheet(&sheet, 1.0);
    assert_eq!(efficiency(&sheet, &body, 1.0), Some(Efficiency(3.0)), "intact and powered: its value");
    body.nodes[1].life = 25.0;
    assert_eq!(efficiency(&sheet, &body, 0.5), Some(Efficiency(0.375)), "a quarter of its life at half power");
    assert_eq!(efficiency(&CombatSheet::default(), &body, 1.0), None, "no efficiency parts: none published");
}

/// The player's three triggers (openparkan `docs/29-weapons.md`, read): fire reaches the
/// selected guns, the missiles' button the selected guided ones (round flag 0x10), the
/// fire-all button every gun.
#[test]
fn the_triggers_reach_the_selected_the_guided_and_every_gun() {
    use crate::fire::pulled;
    use iron3d_core::PilotInput;
    let state = |flags, selected| {
        let sheet = gun(-1, 0.0, false);
        let sheet = GunSheet { round: RoundSheet { flags, ..sheet.round }, ..sheet };
        GunState { selected, ..GunState::new(sheet, 250.0, 1.0) }
    };
    let guns = [state(4, true), state(0x10, true), state(0x10, false), state(4, false)];
    let reached = |input: PilotInput| guns.iter().map(|g| pulled(&input, g)).collect::<Vec<_>>();
    let none = PilotInput::default();
    assert_eq!(reached(none), [false; 4]);
    assert_eq!(reached(PilotInput { fire: true, ..none }), [true, true, false, false], "the selected");
    assert_eq!(reached(PilotInput { fire_missiles: true, ..none }), [false, true, false, false], "selected and guided");
    assert_eq!(reached(PilotInput { fire_all: true, ..none }), [true; 4], "every gun");
}

/// A guided gun's gate (openparkan `docs/29-weapons.md`, "A guided gun waits for a
/// lock", read and measured on the hero's plasma rifle: range 150, a seeker of cone 0.25
/// rad, reach 500 and a 250 ms lock): nothing beyond its range or off its cone; the lock
/// counts down at each ready tick before the first shot and again after each stroke, and
/// starts again for a new target or once the target leaves the gate. An unguided gun's
/// gate is its range alone.
#[test]
fn a_guided_gun_fires_within_its_cone_after_holding_its_lock() {
    use iron3d_core::SeekerSheet;
    let plain = gun(-1, 0.0, false);
    let seeker = Some(SeekerSheet { cone: 0.25, reach: 500.0, lock_ms: 250.0 });
    let sheet = GunSheet { round: RoundSheet { range: 150.0, seeker, ..plain.round }, ..plain };
    let mut plasma = GunState::new(sheet, 250.0, 1.0);
    assert_eq!(sheet.round.gate(), 150.0, "the shorter of its range and its reach");
    assert!(!plasma.gate(7, 151.0, 0.0), "beyond its range");
    assert!(!plasma.gate(7, 100.0, 0.3), "off its cone");
    assert_eq!(plasma.lock, 0.25, "the lock waits full");
    let held: Vec<bool> = (0..5).map(|_| plasma.gate(7, 100.0, 0.2)).collect();
    assert_eq!(held, [false, false, false, false, true], "0.25 s at 64 ms a tick");
    assert!(plasma.lock_share() >= 1.0);
    plasma.trigger();
    assert_eq!((plasma.lock, plasma.lock_share()), (0.25, 0.0), "each stroke starts the lock again");
    assert!(!plasma.gate(7, 100.0, 0.0));
    assert!((plasma.lock_share() - 0.256).abs() < 1e-4, "{}", plasma.lock_share());
    assert!(!plasma.gate(8, 100.0, 0.0), "a new target starts it again");
    assert!((plasma.lock - (0.25 - 0.064)).abs() < 1e-6);
    let mut cannon = GunState::new(GunSheet { round: RoundSheet { range: 150.0, ..plain.round }, ..plain }, 250.0, 1.0);
    assert!(cannon.gate(7, 150.0, 1.0), "an unguided gun: its range alone");
    assert!(!cannon.gate(7, 150.5, 0.0));
}
