//! The rules of `docs/reference/runtime.md` §4 with its worked examples; each test fails without
//! its rule.
#![allow(clippy::unwrap_used)]

use super::distributor::{FIRST_KEY, memberships, two_tier};
use super::kpd;
use super::ore::{DESCRIPTORS, Descriptor, initial};
use super::*;
use std::collections::BTreeMap;

// ---------------------------------------------------------------- §4.4 ore

#[test]
fn class_default_table() {
    assert_eq!(class_defaults(0x8000_0004), (0.0, 500.0));
    assert_eq!(class_defaults(0x8000_0008), (0.0, 4000.0));
    assert_eq!(class_defaults(0x0100_2000), (0.0, 2000.0));
    assert_eq!(class_defaults(0x0100_4000), (2000.0, 2000.0));
    assert_eq!(class_defaults(0x0100_8000), (0.0, 0.0), "battle units: the other-class row");
    assert_eq!(class_defaults(0x8000_0010), (0.0, 0.0));
}

fn props(list: &[(&'static str, [u32; 4])]) -> Vec<(&'static str, [u32; 4])> {
    list.to_vec()
}

#[test]
fn current_ore_is_the_raw_word_of_the_first_exact_property() {
    let p = props(&[
        ("currentore", [0, 77, 0, 0]),
        ("CurrentOre", [0, 0x7FC0_0001, 0, 0]),
        ("CurrentOre", [0, 1200f32.to_bits(), 0, 0]),
        ("MaximumOre", [0, 5000f32.to_bits(), 0, 0]),
    ]);
    let ore = initial(0x8000_0008, p.iter().copied(), &DESCRIPTORS);
    assert_eq!(ore.current_bits, 0x7FC0_0001, "first exact match, raw bits (a NaN payload survives)");
    assert_eq!(ore.maximum, 4000.0, "MaximumOre's setter is a no-op: the class default stays");
    let none = initial(0x0100_4000, std::iter::empty(), &DESCRIPTORS);
    assert_eq!((none.current(), none.maximum), (2000.0, 2000.0), "class defaults without a property");
    let lower = initial(0x0100_4000, props(&[("currentore", [0, 5, 0, 0])]).into_iter(), &DESCRIPTORS);
    assert_eq!(lower.current(), 2000.0, "case-sensitive");
}

#[test]
fn descriptor_handlers_are_chosen_by_code_not_position() {
    let p = props(&[("CurrentOre", [1, 42, 0, 0]), ("MaximumOre", [1, 9, 0, 0])]);
    let reordered = [DESCRIPTORS[1], DESCRIPTORS[0]];
    assert_eq!(
        initial(0x8000_0004, p.iter().copied(), &DESCRIPTORS),
        initial(0x8000_0004, p.iter().copied(), &reordered)
    );
    // A row named MaximumOre with code 4 would store: the code decides, not the name.
    let swapped = [Descriptor { name: "MaximumOre", code: 4 }, Descriptor { name: "CurrentOre", code: 5 }];
    assert_eq!(initial(0x8000_0004, p.iter().copied(), &swapped).current_bits, 9);
}

// ---------------------------------------------------------------- §4.1 membership

#[test]
fn autodemo_membership() {
    // AutoDemo: objects 4 and 6 -> slot 0, 5 and 7 -> slot 1; classes 0x80000010
    // (wor_l_n1.dat) and 0x80000002 (gener01.dat); the others are battle units.
    let candidates = vec![
        (0, 0, 0x0100_8000),
        (1, 1, 0x0100_8000),
        (2, 0, 0x0100_8000),
        (3, 1, 0x0100_8000),
        (7, 1, 0x8000_0002),
        (4, 0, 0x8000_0010),
        (5, 1, 0x8000_0010),
        (6, 0, 0x8000_0002),
    ];
    let d = memberships(candidates.clone(), |s| s <= 1);
    let rows = |d: &Distributor| d.rows.iter().map(|r| (r.key, r.object)).collect::<Vec<_>>();
    assert_eq!(d.len(), 2, "two distributors");
    assert_eq!((d[0].slot, rows(&d[0])), (0, vec![(0x8000_0003, 4), (0x8000_0005, 6)]));
    assert_eq!((d[1].slot, rows(&d[1])), (1, vec![(0x8000_0004, 5), (0x8000_0006, 7)]));
    // Slot 0 empty (clan 0's package missing): slot 1 keeps its members, keys unchanged.
    let d = memberships(candidates, |s| s == 1);
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].slot, rows(&d[0])), (1, vec![(0x8000_0004, 5), (0x8000_0006, 7)]));
    assert_eq!(FIRST_KEY, 0x8000_0003);
}

// ---------------------------------------------------------------- §4.2 shares

#[test]
fn shares_half_then_a_third() {
    let mut d = Distributor::new(0);
    assert!(d.add(1, 1, false));
    assert!(d.add(2, 2, false));
    assert_eq!(d.rows.iter().map(|r| r.weight).collect::<Vec<_>>(), [0.5, 0.5]);
    assert!(d.add(3, 3, false));
    for r in &d.rows {
        assert!((r.weight - 1.0 / 3.0).abs() < 1e-6, "≈ 1/3: {}", r.weight);
    }
    assert_eq!(d.rows[2].weight, 1.0f32 / 3.0, "the new entry gets 1/n");
    let total: f32 = d.rows.iter().map(|r| r.weight).sum();
    assert!((total - 1.0).abs() < 1e-6);
}

#[test]
fn a_pinned_entry_keeps_its_weight() {
    let mut d = Distributor::new(0);
    d.add(1, 1, true);
    d.add(2, 2, false);
    assert_eq!(d.rows[0].weight, 1.0, "pinned");
    d.rows[0].weight = 0.25;
    d.add(3, 3, false);
    assert_eq!(d.rows[0].weight, 0.25, "pinned keeps 0.25");
    assert_eq!(d.rows[2].weight, 1.0f32 / 3.0);
    assert!((d.rows[1].weight - (1.0 - 0.25 - 1.0 / 3.0)).abs() < 1e-6, "the remainder goes to the modifiable row");
}

#[test]
fn re_adding_a_key_is_a_no_op() {
    let mut d = Distributor::new(0);
    d.add(1, 1, false);
    d.add(2, 2, false);
    d.rows[0].tail = [9, 8, 7, 6];
    let before = d.clone();
    assert!(!d.add(1, 99, true));
    assert_eq!(d, before, "no new row, the row's other words unchanged");
}

// ---------------------------------------------------------------- the step

#[test]
fn the_two_tier_share_fills_the_first_tier_then_the_rest_and_draws_no_surplus() {
    // Priorities ½ and ½, wants 10 and 30: the first tier is 20.
    let wants = [(10.0, 0.5), (30.0, 0.5)];
    let (got, take) = two_tier(10.0, &wants);
    assert_eq!((got, take), (vec![2.5, 7.5], 1.0), "A = 10 / 20 of each first half");
    let (got, take) = two_tier(30.0, &wants);
    assert_eq!((got, take), (vec![7.5, 22.5], 1.0), "the first tier full, B = 10 / 20");
    let (got, take) = two_tier(80.0, &wants);
    assert_eq!((got, take), (vec![10.0, 30.0], 0.5), "all wants met, half the offer drawn");
    // Equal priorities collapse to want × min(1, available / total).
    let three = [(3.0, 1.0 / 3.0), (6.0, 1.0 / 3.0), (9.0, 1.0 / 3.0)];
    for available in [1.0f32, 6.0, 12.0, 17.0] {
        let (got, _) = two_tier(available, &three);
        for (g, (w, _)) in got.iter().zip(three) {
            assert!((g - w * (available / 18.0).min(1.0)).abs() < 1e-5, "{available}: {got:?}");
        }
    }
    assert_eq!(two_tier(5.0, &[]), (vec![], 0.0), "nobody asks: nothing drawn");
}

/// A scripted distributor member: holders offer, consumers want.
#[derive(Default)]
struct Scripted {
    offers: BTreeMap<u32, f32>,
    wants: BTreeMap<u32, f32>,
    moved: BTreeMap<u32, f32>,
    /// Generators' power a second.
    generators: BTreeMap<u32, f32>,
    /// What batteries lack.
    lacks: BTreeMap<u32, f32>,
    charged: BTreeMap<u32, f32>,
}

impl StepHost for Scripted {
    fn lookup(&mut self, key: u32) -> Option<u32> {
        Some(key)
    }
    fn offer(&mut self, o: u32, dt: f32) -> Option<f32> {
        self.offers.get(&o).map(|rate| rate * dt)
    }
    fn want(&mut self, o: u32) -> f32 {
        self.wants.get(&o).copied().unwrap_or(0.0)
    }
    fn take(&mut self, o: u32, amount: f32) {
        *self.moved.entry(o).or_default() -= amount;
    }
    fn give(&mut self, o: u32, amount: f32) {
        *self.moved.entry(o).or_default() += amount;
    }
    fn generate(&mut self, o: u32, dt: f32) -> Option<f32> {
        self.generators.get(&o).map(|rate| rate * dt)
    }
    fn lacks(&mut self, o: u32) -> f32 {
        self.lacks.get(&o).copied().unwrap_or(0.0)
    }
    fn charge(&mut self, o: u32, amount: f32) {
        *self.charged.entry(o).or_default() += amount;
    }
}

/// Power takes the ore's formula (openparkan `docs/23-economy.md`, read): the
/// generators give `Transfer_Power_Out × dt`, every other member's batteries ask for
/// what they lack and get `want × min(1, available / total)`; a surplus is not drawn.
#[test]
fn a_step_tops_up_batteries_by_their_share_of_the_generators_power() {
    let mut d = Distributor::new(0);
    for key in [51, 52, 53, 54] {
        d.add(key, key, false);
    }
    let generators = BTreeMap::from([(51, 10.0)]);
    // 2.5 given over 0.25 s against 1 + 4 asked: each gets half of what it lacks.
    let lacks = BTreeMap::from([(52, 1.0), (53, 4.0)]);
    let mut host = Scripted { generators: generators.clone(), lacks, ..Scripted::default() };
    let report = d.step(0.25, &mut host);
    assert_eq!(host.charged, BTreeMap::from([(52, 0.5), (53, 2.0)]), "want × 2.5 / 5");
    assert_eq!((report.power_available, report.power_asked, report.power_delivered), (2.5, 5.0, 2.5));
    // Enough for all: every lack filled, the rest not drawn; a full battery asks nothing.
    let lacks = BTreeMap::from([(52, 0.5), (53, 0.0), (54, 1.0)]);
    let mut host = Scripted { generators, lacks, ..Scripted::default() };
    let report = d.step(0.25, &mut host);
    assert_eq!(host.charged, BTreeMap::from([(52, 0.5), (54, 1.0)]));
    assert_eq!(report.power_delivered, 1.5, "of 2.5 given");
    // No generator: nothing to share.
    let mut dark = Scripted { lacks: BTreeMap::from([(52, 3.0)]), ..Scripted::default() };
    assert_eq!(d.step(0.25, &mut dark).power_delivered, 0.0);
    assert!(dark.charged.is_empty());
}

#[test]
fn a_step_shares_the_holders_offers_among_the_consumers() {
    let mut d = Distributor::new(0);
    for key in [41, 42, 43, 44] {
        d.add(key, key, false);
    }
    let offers = BTreeMap::from([(41, 1.0), (42, 1.0)]);
    let wants = BTreeMap::from([(43, 0.3), (44, 0.1), (41, 5.0)]);
    let mut host = Scripted { offers: offers.clone(), wants, ..Scripted::default() };
    let report = d.step(0.25, &mut host);
    // 0.5 offered over 0.25 s, 0.4 asked: every want met, 0.8 of each offer drawn.
    assert!((host.moved[&43] - 0.3).abs() < 1e-6 && (host.moved[&44] - 0.1).abs() < 1e-6, "{:?}", host.moved);
    assert!((host.moved[&41] + 0.2).abs() < 1e-6, "a holder asks nothing: {:?}", host.moved);
    assert!((report.drawn - report.delivered).abs() < 1e-6, "ore is moved, never made: {report:?}");
    let mut short = Scripted { offers, wants: BTreeMap::from([(43, 3.0), (44, 1.0)]), ..Scripted::default() };
    d.step(0.25, &mut short);
    assert!((short.moved[&43] - 0.375).abs() < 1e-6, "want × 0.5 / 4: {:?}", short.moved);
    let mut small =
        Scripted { wants: BTreeMap::from([(43, 0.005)]), offers: BTreeMap::from([(41, 1.0)]), ..Scripted::default() };
    assert_eq!(d.step(1.0, &mut small).delivered, 0.0, "nothing under 0.01 is asked for");
    assert_eq!(d.step(0.0, &mut Scripted::default()), StepReport::default(), "dt 0 moves nothing");
}

// ---------------------------------------------------------------- §4.5 efficiency

#[test]
fn the_kpd_is_what_combat_publishes_and_only_a_finite_one() {
    assert_eq!(kpd::of(None), Ok(1.0), "1 without efficiency parts (the project's)");
    assert_eq!(kpd::of(Some(&Efficiency(1.5))), Ok(1.5));
    assert_eq!(kpd::of(Some(&Efficiency(0.0))), Ok(0.0), "a destroyed part answers 0");
    for bad in [f32::NAN, f32::INFINITY, 1.0e-40] {
        assert!(kpd::of(Some(&Efficiency(bad))).is_err(), "{bad} is refused");
    }
}

// ---------------------------------------------------------------- the plugin

#[test]
fn a_mine_feeds_a_factorys_request_in_the_game() {
    use bevy_state::app::StatesPlugin;
    use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
    use iron3d_core::{CorePlugin, EconomyBoard, ObjectProperty, SimObject};
    use std::time::Duration;
    let mut app = App::new();
    app.add_plugins((TimePlugin, StatesPlugin, CorePlugin, EconomyPlugin::default()))
        .insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(64)))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(64)));
    app.world_mut().resource_mut::<SuperAiSlots>().0[1] = Some(1);
    let mut table = ObjectTable::default();
    let mut spawn = |app: &mut App, id: u32, class: u32, bag: Vec<ObjectProperty>| {
        let e = app
            .world_mut()
            .spawn((OriginalObjectId(id), Owner { clan: 1, player: None }, UnitClass(class), PropertyBag(bag)))
            .id();
        table.insert(e, OriginalObjectId(id));
        e
    };
    let stocked = vec![ObjectProperty { name: "CurrentOre".into(), raw_value: [0, 100f32.to_bits(), 0, 0] }];
    let mine = spawn(&mut app, 0, 0x8000_0004, stocked);
    let factory = spawn(&mut app, 1, 0x8000_0010, vec![]);
    let _ = spawn(&mut app, 2, 0x0100_8000, vec![]);
    app.world_mut().entity_mut(mine).insert((SimObject { kind: iron3d_core::ObjectKind::Building }, Efficiency(3.0)));
    app.insert_resource(table).insert_resource(original());
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
    app.update();
    let e = app.world().resource::<Economy>();
    assert_eq!(e.distributors.len(), 1);
    assert_eq!(e.distributors[0].rows.len(), 2, "the battle unit has no registration key");
    let held = |app: &App, e: Entity| app.world().get::<OreProperty>(e).unwrap().current();
    assert_eq!((held(&app, mine), held(&app, factory)), (100.0, 0.0), "nobody asks: nothing moves");
    request_ore(app.world_mut(), 1, 10.0);
    // The clock is World3D's: advanced here by hand.
    let tick = |app: &mut App, n: u32| {
        for _ in 0..n {
            app.world_mut().resource_mut::<iron3d_core::GameClock>().time_ms += 64;
            app.update();
        }
    };
    tick(&mut app, 16);
    // The mine offers KPD 3 × prof_mine's Transfer_Ore_OffBoard 1 a second, from its
    // distributor's first step after the request to its last.
    let d = &app.world().resource::<Economy>().distributors[0];
    let got = held(&app, factory);
    assert!(got > 0.0 && got <= 3.0 * (d.last_ms as f32 / 1000.0) + 1e-4, "{got} by {} ms", d.last_ms);
    assert!((held(&app, mine) + got - 100.0).abs() < 1e-3, "ore is moved, never made");
    tick(&mut app, 200);
    assert!((held(&app, factory) - 10.0).abs() < 1e-3, "never past the request: {}", held(&app, factory));
    assert_eq!(take_ore(app.world_mut(), 1, 4.0), 4.0, "the task takes what arrived");
    let (ore, power) = clan_summary(app.world_mut(), 1);
    assert!((ore - (held(&app, mine) + 6.0)).abs() < 1e-3, "{ore}");
    assert_eq!(power, 0.0, "no generator");
    let board = app.world().resource::<EconomyBoard>();
    assert_eq!(board.of(1).power, power, "the summary is published after the tick");
}

// ---------------------------------------------------------------- ore back to the stores

#[test]
fn a_failed_builds_ore_goes_back_to_the_clans_stores_in_id_order() {
    let mut world = World::new();
    world.init_resource::<ObjectTable>();
    let store = |world: &mut World, id: u32, clan: i32, class: u32, ore: f32| {
        let maximum = class_defaults(class).1;
        let e = world
            .spawn((
                OriginalObjectId(id),
                Owner { clan, player: None },
                UnitClass(class),
                OreProperty { current_bits: ore.to_bits(), maximum },
            ))
            .id();
        world.resource_mut::<ObjectTable>().insert(e, OriginalObjectId(id));
    };
    store(&mut world, 9, 1, UnitClass::STORAGE, 100.0);
    store(&mut world, 4, 1, UnitClass::MINE, 450.0);
    store(&mut world, 5, 2, UnitClass::STORAGE, 0.0);
    store(&mut world, 3, 1, UnitClass::TRANSPORT, 0.0);
    assert_eq!(deposit_ore(&mut world, 1, 4000.0), 50.0, "50 fill the mine, 3900 the storage, 50 left over");
    let ore = |world: &mut World, id: u32| {
        let e = world.resource::<ObjectTable>().entity_of(id).unwrap();
        world.get::<OreProperty>(e).unwrap().current()
    };
    assert_eq!(
        [4, 9, 5, 3].map(|id| ore(&mut world, id)),
        [500.0, 4000.0, 0.0, 0.0],
        "its own mines and storages only"
    );
}

// ---------------------------------------------------------------- mines and lodes

#[test]
fn a_mine_digs_about_half_of_its_lodes_ore_and_then_stops() {
    // The original's arithmetic: ToMine falls by each dig, and the mine stops once what
    // was left before a dig is no more than that dig.
    let mut dig = MineDig { to_mine: 600.0, total: 0.0, done: false };
    let mut total = 0.0;
    for _ in 0..1000 {
        total += dig.dig(50.0);
    }
    assert!(dig.done);
    assert_eq!((total, dig.total), (350.0, 350.0), "a lode of 600 at 50 a takt yields 350 (openparkan's example)");
    let mut none = MineDig::default();
    assert_eq!(none.dig(10.0), 0.0, "a mine without a lode digs nothing");
    assert!(!none.done);
}

// ---------------------------------------------------------------- the original's mining

/// A game world with the shipped rules' mining and clan 1's mine at the origin, a lode
/// of `lode` ore under it, holding `held`; in the game, its survey done.
fn mine_world(lode: f32, held: f32) -> (App, Entity) {
    use bevy_state::app::StatesPlugin;
    use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
    use iron3d_core::{CorePlugin, MineralLode, MineralLodes, SimTransform};
    use std::time::Duration;
    let mut app = App::new();
    app.add_plugins((TimePlugin, StatesPlugin, CorePlugin, EconomyPlugin::shipped()))
        .insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(64)))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(64)));
    let lodes = vec![MineralLode { position: [100.0, 0.0], found: false, amount: lode }];
    app.insert_resource(MineralLodes(lodes));
    let ore = iron3d_core::ObjectProperty { name: "CurrentOre".into(), raw_value: [0, held.to_bits(), 0, 0] };
    let mine = app
        .world_mut()
        .spawn((
            OriginalObjectId(1),
            Owner { clan: 1, player: None },
            UnitClass(UnitClass::MINE),
            PropertyBag(vec![ore]),
            SimTransform::default(),
        ))
        .id();
    let mut table = ObjectTable::default();
    table.insert(mine, OriginalObjectId(1));
    app.insert_resource(table);
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
    app.update();
    (app, mine)
}

fn held(app: &App, e: Entity) -> f32 {
    app.world().get::<OreProperty>(e).unwrap().current()
}

#[test]
fn a_mine_with_a_lode_and_nothing_else_holds_500_after_10_s() {
    let (mut app, mine) = mine_world(1.0e6, 0.0);
    assert!(app.world().resource::<iron3d_core::MineralLodes>().0[0].found, "the lode within 250 is found");
    // The game's first tick ran as it entered the game.
    assert!((held(&app, mine) - 3.2).abs() < 1e-6, "50 a second: 3.2 a tick");
    for _ in 1..156 {
        app.update();
    }
    assert!((held(&app, mine) - 499.2).abs() < 1e-2, "9.984 s: {}", held(&app, mine));
    app.update();
    assert_eq!(held(&app, mine), 500.0, "10 s: full, its MaximumOre");
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(held(&app, mine), 500.0, "and no more");
}

#[test]
fn a_digging_mine_writes_its_total_over_what_it_holds_so_a_draw_comes_back() {
    let (mut app, mine) = mine_world(1.0e6, 500.0);
    app.update();
    assert_eq!(held(&app, mine), 500.0);
    assert_eq!(take_ore(app.world_mut(), 1, 300.0), 300.0);
    assert_eq!(held(&app, mine), 200.0);
    app.update();
    assert_eq!(held(&app, mine), 500.0, "a full mine never empties while it digs");
    // A mine whose lodes gave out holds what it holds: a draw stays drawn.
    let (mut spent, mine) = mine_world(0.0, 500.0);
    take_ore(spent.world_mut(), 1, 300.0);
    spent.update();
    assert_eq!(held(&spent, mine), 200.0, "no lode: it digs nothing and writes nothing");
}

// ---------------------------------------------------------------- the HUD's bars

/// Profiles as `behpsp.res` would give them: `(profile, variable, value)`.
fn profiles(values: &[(&str, &str, f64)]) -> EconomyProfiles {
    let mut data = iron3d_core::BehaviourProfiles::default();
    for (profile, variable, value) in values {
        data.profiles.entry((*profile).into()).or_default().insert((*variable).into(), *value);
    }
    EconomyProfiles::from_data(&data)
}

/// The shipped `behpsp.res`'s power figures (openparkan `docs/23-economy.md`, measured).
fn original() -> EconomyProfiles {
    profiles(&[
        ("prof_generator", "Transfer_Power_Out", 10.0),
        ("prof_bunker", "Transfer_Power_Out", 0.07),
        ("prof_mine", "Use_Power", 1.0),
        ("prof_mine", "Transfer_Ore_OffBoard", 1.0),
    ])
}

fn bars_by(profiles: &EconomyProfiles, objects: &[(i32, u32, f32, bool)]) -> BTreeMap<i32, iron3d_core::ClanEconomy> {
    let mut board = BTreeMap::new();
    // A working building draws its profile's Use_Power (what its task sets).
    let usage = |class: u32, working: bool| if working { profiles.of(class).use_power } else { 0.0 };
    let holdings = objects.iter().map(|&(clan, class, ore, working)| bars::Holding {
        clan,
        class,
        ore,
        usage: usage(class, working),
    });
    bars::fill(&mut board, profiles, holdings);
    board
}

fn bars(objects: &[(i32, u32, f32, bool)]) -> BTreeMap<i32, iron3d_core::ClanEconomy> {
    bars_by(&original(), objects)
}

#[test]
fn the_bars_follow_the_profiles_the_data_gives() {
    let base =
        [(1, UnitClass::GENERATOR, 0.0, false), (1, UnitClass::MINE, 0.0, true), (2, UnitClass::GENERATOR, 0.0, false)];
    assert_eq!(bars(&base)[&1].energy_percent, 45, "(10 - 1.01) / 20");
    let changed = profiles(&[("prof_generator", "Transfer_Power_Out", 30.0), ("prof_mine", "Use_Power", 6.0)]);
    assert_eq!(bars_by(&changed, &base)[&1].energy_percent, 40, "(30 - 6.01) / 60: the file, not a constant");
    let compiled = bars_by(&EconomyProfiles::default(), &base);
    assert_eq!(compiled[&1].energy_percent, 50, "no behpsp.res: the compiled 100 out, no Use_Power");
}

#[test]
fn the_ore_bar_is_what_mines_and_storages_hold_over_4500() {
    let b = bars(&[(1, UnitClass::MINE, 500.0, false)]);
    assert_eq!(b[&1].ore_percent, 11, "one full mine: 500 / 4500");
    let b = bars(&[(1, UnitClass::MINE, 500.0, false), (1, UnitClass::STORAGE, 4000.0, false)]);
    assert_eq!(b[&1].ore_percent, 100);
    let b = bars(&[(1, UnitClass::STORAGE, 4000.0, false), (1, UnitClass::TRANSPORT, 2000.0, false)]);
    assert_eq!(b[&1].ore_percent, 89, "a transport's load is not counted");
    let b = bars(&[(1, UnitClass::STORAGE, 9000.0, false)]);
    assert_eq!(b[&1].ore_percent, 100, "clamped");
}

#[test]
fn the_energy_bar_is_a_clans_share_of_the_maps_power_after_its_own_draw() {
    let three: Vec<_> = (1..=3).map(|clan| (clan, UnitClass::GENERATOR, 0.0, false)).collect();
    let b = bars(&three);
    assert!(b.values().all(|c| c.energy_percent == 33), "one generator of three equal ones: {b:?}");
    let b = bars(&[(1, UnitClass::GENERATOR, 0.0, false), (1, 0x8001_0000, 0.0, false)]);
    assert_eq!(b[&1].energy_percent, 100, "a generator and a bunker supply it all");
    let base = [(1, UnitClass::GENERATOR, 0.0, false), (1, UnitClass::MINE, 0.0, true)];
    assert_eq!(bars(&base)[&1].energy_percent, 90, "a digging mine draws 1.01 of 10");
    let idle = [(1, UnitClass::GENERATOR, 0.0, false), (1, UnitClass::MINE, 0.0, false)];
    assert_eq!(bars(&idle)[&1].energy_percent, 100, "an idle building draws 0.01");
    assert_eq!(bars(&[(1, UnitClass::MINE, 0.0, true)])[&1].energy_percent, 0, "no power on the map");
}
