//! The format refuses every damaged file with a located message, a failed write keeps
//! the previous save, and a loaded game goes on with the same state hash at every tick
//! as the game that never stopped (demo missions, mid-fight and mid-haul).
#![allow(clippy::unwrap_used, reason = "tests: a failed unwrap is a failed test")]

use super::*;
use crate::file::write_with;
use bevy_app::App;
use bevy_ecs::prelude::{Entity, Name, World};
use bevy_ecs::query::Has;
use iron3d_core::{
    CommandQueue, DataLayer, DataLayers, DifficultyLevel, GameClock, Health, Movable, Order, OriginalObjectId, Owner,
    PilotInput, Projectile, SchemeRef, Seat, Seats, SimCommand, SimTransform, Weapon,
};
use iron3d_sim::StateHash;
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) fn sample() -> Record {
    let order = |tick, units, order| SimCommand { tick, units, order, queued: tick % 2 == 0 };
    Record {
        kind: FileKind::Save,
        engine_version: ENGINE_VERSION.into(),
        mission: "single.02".into(),
        tick: 300,
        layers: DataLayers(vec![DataLayer { name: "game".into(), fingerprint: 0x0123_4567_89ab_cdef }]),
        difficulty: DifficultyLevel::Hard,
        commands: vec![
            (1, order(1, vec![3, 4], Order::MoveTo([f32::from_bits(0x7fc0_0001), -0.0]))),
            (
                7,
                order(
                    5,
                    vec![9],
                    Order::Pilot(PilotInput {
                        throttle: -127,
                        turn: 5,
                        strafe: -64,
                        aim_mrad: -300,
                        fire: true,
                        fire_missiles: false,
                        fire_all: true,
                        camouflage: false,
                        turret_lock: true,
                        target: None,
                    }),
                ),
            ),
            (9, order(9, vec![1], Order::Build(SchemeRef::of("UNITS\\ROBOTS\\scout.dat")))),
        ],
        pending: vec![order(400, vec![2], Order::Haul(0x8000_0004)), order(401, vec![2], Order::Patrol(-1))],
        schemes: [(SchemeRef::of("UNITS\\ROBOTS\\scout.dat").0, "units\\robots\\scout.dat".into())].into(),
        designs: [(7, vec![0xf1, 0xf0, 0, 0, 0, 0x80, 0, 1])].into(),
        hashes: vec![(32, 1), (64, u64::MAX), (300, 42)],
        snapshot: None,
        view: None,
        seats: BTreeMap::new(),
    }
}

#[test]
fn a_record_round_trips_with_exact_float_bits() {
    let r = sample();
    let bytes = r.encode().unwrap();
    let back = Record::decode(&bytes, FileKind::Save).unwrap();
    assert_eq!(format!("{back:?}"), format!("{r:?}"), "NaN is not equal to itself: compare the text");
    let Order::MoveTo(xy) = back.commands[0].1.order else { panic!("a move") };
    assert_eq!(xy.map(f32::to_bits), [0x7fc0_0001, 0x8000_0000], "NaN payload and -0.0 survive");
}

/// Every kind of order a command log may hold comes back from the record (the refit
/// and the migration were once refused as unknown kinds).
#[test]
fn every_order_kind_round_trips_through_a_record() {
    let pilot =
        PilotInput { throttle: 3, turn: -4, aim_mrad: 5, camouflage: true, turret_lock: true, ..PilotInput::default() };
    let orders = [
        Order::Stop,
        Order::MoveTo([1.5, -2.0]),
        Order::MoveToObject(7),
        Order::FollowPath(2),
        Order::Patrol(-3),
        Order::Attack(8),
        Order::Build(SchemeRef::of("UNITS\\ROBOTS\\scout.dat")),
        Order::Research(4),
        Order::Pilot(pilot),
        Order::Pilot(PilotInput { target: Some(41), ..pilot }),
        Order::Pilot(PilotInput { strafe: -127, fire_missiles: true, fire_all: true, ..pilot }),
        Order::Release,
        Order::Haul(9),
        Order::Migrate,
        Order::Refit,
        Order::SearchLodes,
        Order::Construct(iron3d_core::Site::new(4, [1026.125, 942.75], -0.35).unwrap()),
        Order::Upgrade(11),
        Order::Batch(SchemeRef::of("UNITS\\design_0123456789abcdef.dat")),
        Order::StopBuild,
        Order::Capture(3),
        Order::Board(17),
        Order::Leave,
        Order::StandGround,
        Order::Shutdown,
        Order::Follow(5),
        Order::Search(iron3d_core::SearchFor::Capture),
        Order::Search(iron3d_core::SearchFor::Enemies),
        Order::Guard(iron3d_core::Guard { ward: iron3d_core::Ward::Object(6), radius: 300.0 }),
        Order::Guard(iron3d_core::Guard {
            ward: iron3d_core::Ward::Place { at: [1124.0, 783.5], z: Some(0.0) },
            radius: 0.0,
        }),
        Order::Guard(iron3d_core::Guard { ward: iron3d_core::Ward::Place { at: [60.0, 9.0], z: None }, radius: 45.0 }),
        Order::SelectWeapon(0),
        Order::SelectWeapon(3),
        Order::AutoDriver(2),
    ];
    // Naming every kind: a new one fails to compile here until it is listed above.
    for o in &orders {
        match o {
            Order::Stop | Order::MoveTo(_) | Order::MoveToObject(_) | Order::FollowPath(_) | Order::Patrol(_) => {}
            Order::Attack(_) | Order::Build(_) | Order::Research(_) | Order::Pilot(_) | Order::Release => {}
            Order::Haul(_) | Order::Migrate | Order::Refit | Order::SearchLodes => {}
            Order::Construct(_) | Order::Upgrade(_) | Order::Batch(_) | Order::StopBuild => {}
            Order::Capture(_) | Order::Board(_) | Order::Leave => {}
            Order::StandGround | Order::Shutdown | Order::Follow(_) | Order::Search(_) | Order::Guard(_) => {}
            Order::SelectWeapon(_) | Order::AutoDriver(_) => {}
        }
    }
    let mut r = sample();
    r.pending = orders.iter().map(|&order| SimCommand { tick: 400, units: vec![2], order, queued: false }).collect();
    let back = Record::decode(&r.encode().unwrap(), FileKind::Save).unwrap();
    let kinds: Vec<Order> = back.pending.iter().map(|c| c.order).collect();
    assert_eq!(kinds, orders);
}

fn refused(bytes: &[u8]) -> FormatError {
    Record::decode(bytes, FileKind::Save).expect_err("refused")
}

#[test]
fn empty_foreign_and_other_kind_files_are_refused_at_the_header() {
    let e = refused(&[]);
    assert_eq!((e.chunk.as_str(), e.offset), ("header", 0));
    assert!(e.to_string().contains("empty"), "{e}");
    let e = refused(b"PK\x03\x04 this is a zip file, not a save");
    assert_eq!((e.chunk.as_str(), e.offset), ("header", 0));
    assert!(e.message.contains("not an iron3d save"), "{e}");
    let replay = Record { kind: FileKind::Replay, ..sample() }.encode().unwrap();
    assert!(refused(&replay).message.contains("this is a replay, not a save"));
}

#[test]
fn every_truncation_is_refused_naming_the_part_and_offset() {
    let bytes = sample().encode().unwrap();
    let container = Container::decode(&bytes, FileKind::Save).unwrap();
    for len in 1..bytes.len() {
        let e = refused(&bytes[..len]);
        assert!(e.offset <= len, "offset {} inside the {len} bytes: {e}", e.offset);
        if let Some((k, c)) = container.chunks.iter().enumerate().rev().find(|(_, c)| c.offset <= len) {
            let name =
                if c.offset + 4 <= len { c.name() } else { format!("chunk {} of {}", k + 1, container.chunks.len()) };
            assert_eq!(e.chunk, name, "cut at {len}: {e}");
        } else {
            assert_eq!(e.chunk, "header", "cut at {len}: {e}");
        }
    }
}

#[test]
fn a_bit_flip_anywhere_is_refused_and_located() {
    let bytes = sample().encode().unwrap();
    let container = Container::decode(&bytes, FileKind::Save).unwrap();
    let header_end = container.chunks[0].offset;
    for at in 0..bytes.len() {
        for bit in [0, 5] {
            let mut bad = bytes.clone();
            bad[at] ^= 1 << bit;
            let e = refused(&bad);
            let part = container.chunks.iter().rev().find(|c| c.offset <= at);
            match part {
                _ if at < header_end => assert_eq!(e.chunk, "header", "flip at {at}: {e}"),
                Some(c) => {
                    // A flipped name byte may make the name invalid or another name.
                    assert!(e.offset == c.offset || e.chunk == c.name(), "flip at {at} in {}: {e}", c.name());
                }
                None => unreachable!("chunks follow the header"),
            }
        }
    }
    let mut bad = bytes.clone();
    let cmds = container.chunk(b"cmds").unwrap();
    bad[cmds.offset + 16] ^= 0x40;
    let e = refused(&bad);
    assert_eq!((e.chunk.as_str(), e.offset), ("cmds", cmds.offset));
    assert!(e.message.contains("checksum"), "{e}");
}

#[test]
fn trailing_bytes_newer_versions_and_unknown_chunks_are_refused() {
    let bytes = sample().encode().unwrap();
    let mut long = bytes.clone();
    long.extend_from_slice(b"\0\0");
    let e = refused(&long);
    assert_eq!((e.chunk.as_str(), e.offset), ("end", bytes.len()));
    let mut newer = bytes.clone();
    newer[8..10].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let e = refused(&newer);
    assert!(e.message.contains(&format!("{} is newer than this engine's {FORMAT_VERSION}", FORMAT_VERSION + 1)));
    let mut older = bytes.clone();
    older[8..10].copy_from_slice(&(OLDEST_LOADABLE_VERSION - 1).to_le_bytes());
    assert!(refused(&older).message.contains("older than the oldest this engine loads"));
    let mut container = Container::decode(&bytes, FileKind::Save).unwrap();
    container.chunks.push(format::Chunk::new(*b"xtra", 1, vec![1, 2, 3]));
    let e = refused(&container.encode().unwrap());
    assert_eq!(e.chunk, "xtra");
    assert!(e.message.contains("not a chunk this engine knows"));
    container.chunks.pop();
    container.chunks[1].version = 9;
    let e = refused(&container.encode().unwrap());
    assert_eq!((e.chunk.as_str(), e.message.as_str()), ("cmds", "version 9 is newer than this engine's 1"));
}

#[test]
fn a_write_failing_at_any_step_keeps_the_previous_save() {
    let dir = std::env::temp_dir().join(format!("iron3d-save-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("slot1.i3save");
    let old = sample().encode().unwrap();
    write_file(&path, &old, FileKind::Save, "tick=300\n").unwrap();
    let new = Record { tick: 301, ..sample() }.encode().unwrap();
    for step in WriteStep::ALL {
        let fail = |s: WriteStep| match s == step {
            true => Err(std::io::Error::other(format!("injected at {s:?}"))),
            false => Ok(()),
        };
        let e = write_with(&path, &new, FileKind::Save, "tick=301\n", &fail).expect_err("fails");
        assert!(e.contains("injected"), "{e}");
        let on_disk = std::fs::read(&path).unwrap();
        let expected = if step == WriteStep::Metadata { &new } else { &old };
        assert_eq!(&on_disk, expected, "after a failure at {step:?} the file is whole");
        Record::decode(&on_disk, FileKind::Save).unwrap();
        assert!(!dir.join("slot1.i3save.tmp").exists(), "no temporary file left at {step:?}");
        write_file(&path, &old, FileKind::Save, "tick=300\n").unwrap();
    }
    let bad = [&old[..old.len() - 1], b"x"].concat();
    let e = write_file(&path, &bad, FileKind::Save, "").expect_err("does not verify");
    let last = Container::decode(&old, FileKind::Save).unwrap().chunks.last().map(|c| c.name()).unwrap();
    assert!(e.contains("does not verify") && e.contains(&format!("{last} at offset")), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), old, "an unverifiable file never replaces the save");
    assert_eq!(std::fs::read_to_string(slot_path(&path)).unwrap(), "tick=300\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The bundled demo game directory.
pub(crate) fn demo_game() -> Arc<iron3d_vfs::GameDir> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    Arc::new(iron3d_vfs::GameDir::open(root, iron3d_formats::ReadOptions::compatible()).unwrap())
}

pub(crate) fn app() -> App {
    let mut app = iron3d_sim::headless_app();
    app.add_plugins((iron3d_mission::MissionPlugin, SavePlugin));
    app
}

/// Runs to tick `to`, queueing each of `orders` just before its tick (as a player's
/// orders arrive).
pub(crate) fn run_to(app: &mut App, orders: &[SimCommand], to: u32) {
    loop {
        let now = app.world().resource::<GameClock>().tick;
        if now >= to {
            return;
        }
        let mut queue = app.world_mut().resource_mut::<CommandQueue>();
        orders.iter().filter(|c| c.tick == now + 1).for_each(|c| queue.push(c.clone()));
        app.update();
    }
}

/// Orders from tick `start`: the player's (clan 1) armed units attack the computer
/// clans' object with hit points nearest to the first of them, which fires under direct
/// control for a while, and later half of them move away, so the log holds orders
/// before and after the saves.
fn battle_orders(app: &mut App, start: u32) -> Vec<SimCommand> {
    let world = app.world_mut();
    let mut q = world.query::<(&OriginalObjectId, &Owner, &SimTransform, Has<Movable>, Has<Weapon>, Has<Health>)>();
    let mut rows: Vec<_> = q.iter(world).map(|(id, o, t, m, w, h)| (id.0, o.clan, t.position, m && w, h)).collect();
    rows.sort_unstable_by_key(|r| r.0);
    let armed: Vec<u32> = rows.iter().filter(|r| r.1 == 1 && r.3).map(|r| r.0).collect();
    let Some(first) = rows.iter().find(|r| r.1 == 1 && r.3) else { return Vec::new() };
    let far = |r: &&(u32, i32, [f32; 3], bool, bool)| {
        let d = [r.2[0] - first.2[0], r.2[1] - first.2[1]];
        (d[0] * d[0] + d[1] * d[1]).to_bits()
    };
    let Some(target) = rows.iter().filter(|r| r.1 > 1 && r.4).min_by_key(far).map(|r| r.0) else { return Vec::new() };
    let order = |tick, units: Vec<u32>, order| SimCommand { tick: start + tick, units, order, queued: false };
    let fire = PilotInput { turn: 20, fire: true, ..PilotInput::default() };
    let half = armed.len() / 2;
    vec![
        order(3, armed.clone(), Order::Attack(target)),
        order(4, vec![first.0], Order::Pilot(fire)),
        order(60, vec![first.0], Order::Release),
        order(100, armed[half..].to_vec(), Order::MoveTo([10.0, 10.0])),
        order(101, armed[..half].to_vec(), Order::Attack(target)),
    ]
}

/// The uninterrupted run of `mission` to `to`: the ticks where shells first fly and where
/// a transport first carries ore to a store, and the saves it takes as it passes tick 2,
/// tick `to / 2` and those two (each written and read back).
fn straight_run(
    app: &mut App,
    mission: &str,
    orders: &[SimCommand],
    to: u32,
) -> (Option<u32>, Option<u32>, Vec<Record>) {
    let (mut shells, mut haul, mut saves) = (None, None, Vec::new());
    while app.world().resource::<GameClock>().tick < to {
        let now = app.world().resource::<GameClock>().tick + 1;
        run_to(app, orders, now);
        let world = app.world_mut();
        let mut save = now == 2 || now == to / 2;
        if shells.is_none() && world.query::<&Projectile>().iter(world).next().is_some() {
            (shells, save) = (Some(now), true);
        }
        // Mid-haul: a transfer at the mine or the store under way.
        let carrying = |(n, trip): (&iron3d_behavior::Navigator, &iron3d_behavior::HaulTrip)| {
            matches!(n.order, Order::Haul(_)) && trip.start.is_some()
        };
        if haul.is_none()
            && world.query::<(&iron3d_behavior::Navigator, &iron3d_behavior::HaulTrip)>().iter(world).any(carrying)
        {
            (haul, save) = (Some(now), true);
        }
        if save {
            let bytes = Record::capture(app.world(), FileKind::Save, mission, 32).unwrap().encode().unwrap();
            saves.push(Record::decode(&bytes, FileKind::Save).unwrap());
        }
    }
    (shells, haul, saves)
}

/// Loading a save and running on gives the same state hash at every tick as the run
/// that never stopped, with the same orders after the save.
fn resumes_exactly(mission: &str, orders_from: u32, ticks: u32) -> (Option<u32>, Option<u32>) {
    let game = demo_game();
    let mut straight = app();
    iron3d_mission::load_headless(&mut straight, &game, mission).unwrap();
    let orders = battle_orders(&mut straight, orders_from);
    assert!(!orders.is_empty(), "{mission}: the player has units and an enemy");
    let (shells, haul, saves) = straight_run(&mut straight, mission, &orders, ticks);
    let reference = straight.world().resource::<StateHash>().history.clone();
    for record in saves {
        assert!(record.snapshot.is_some(), "a save holds the state");
        continues_exactly(&game, &record, &orders, &reference, ticks);
    }
    (shells, haul)
}

/// The save of `mission` at tick `at` with `orders`, written and read back.
fn saved_at(game: &Arc<iron3d_vfs::GameDir>, mission: &str, orders: &[SimCommand], at: u32) -> Record {
    let mut first = app();
    iron3d_mission::load_headless(&mut first, game, mission).unwrap();
    run_to(&mut first, orders, at);
    let bytes = Record::capture(first.world(), FileKind::Save, mission, 32).unwrap().encode().unwrap();
    let record = Record::decode(&bytes, FileKind::Save).unwrap();
    assert_eq!((record.mission.as_str(), record.tick), (mission, at));
    record
}

/// A hosted game's seats are saved and come back with the save; a version-3 file (before
/// the seats chunk) reads as a game without seats, and one holding the chunk is refused.
#[test]
fn a_hosted_games_seats_come_back_and_version_3_files_read_without_them() {
    let game = demo_game();
    let mut first = app();
    iron3d_mission::load_headless(&mut first, &game, "single.01").unwrap();
    let seat = |name: &str, clan, host| Seat { name: name.into(), clan, host };
    let seats = Seats(
        [(1, seat("host", Some(1), true)), (2, seat("guest", Some(2), false)), (3, seat("eye", None, false))].into(),
    );
    first.insert_resource(seats.clone());
    run_to(&mut first, &[], 5);
    let record = Record::capture(first.world(), FileKind::Save, "single.01", 32).unwrap();
    assert_eq!(record.seats, seats.0);
    let bytes = record.encode().unwrap();
    let read = Record::decode(&bytes, FileKind::Save).unwrap();
    assert_eq!(read, record);
    let mut resumed = app();
    resume(&mut resumed, &game, &read, None).unwrap();
    assert_eq!(resumed.world().get_resource::<Seats>(), Some(&seats), "the seats come back");
    // Migration 3 → 4.
    let mut v3 = Container::decode(&bytes, FileKind::Save).unwrap();
    v3.header.format_version = 3;
    let e = refused(&v3.encode().unwrap());
    assert_eq!(e.chunk, "seat", "{e}");
    assert!(e.message.contains("not in format version 3"), "{e}");
    v3.chunks.retain(|c| &c.name != b"seat");
    let old = Record::decode(&v3.encode().unwrap(), FileKind::Save).unwrap();
    assert_eq!(old, Record { seats: BTreeMap::new(), snapshot: None, ..record }, "re-simulated, without seats");
}

/// The file of save `record` as format version 1 wrote it (no snapshot) or as version
/// 2 did (its snapshot chunks in layout 1, written through reflection).
pub(crate) fn in_version(record: &Record, version: u16) -> Vec<u8> {
    let v1 = Record { snapshot: None, ..record.clone() }.encode().unwrap();
    if version == 1 {
        return v1;
    }
    let mut v2 = Container::decode(&record.encode().unwrap(), FileKind::Save).unwrap();
    v2.header.format_version = version;
    let reflected = [*b"objs", *b"shot", *b"ress"];
    v2.chunks.iter_mut().filter(|c| reflected.contains(&c.name)).for_each(|c| c.version = 1);
    v2.encode().unwrap()
}

/// Resumes `record` and runs on to `ticks` with the later `orders`: every tick's hash
/// equals the `reference` run's.
fn continues_exactly(
    game: &Arc<iron3d_vfs::GameDir>,
    record: &Record,
    orders: &[SimCommand],
    reference: &[(u32, u64)],
    ticks: u32,
) {
    let (mission, at) = (record.mission.as_str(), record.tick);
    let mut resumed = app();
    resume(&mut resumed, game, record, Some(mission)).unwrap();
    assert_eq!(resumed.world().resource::<GameClock>().tick, at);
    let later: Vec<SimCommand> = orders.iter().filter(|c| c.tick > at).cloned().collect();
    run_to(&mut resumed, &later, ticks);
    let after = |h: &[(u32, u64)]| h.iter().filter(|(t, _)| *t > at).copied().collect::<Vec<_>>();
    let got = after(&resumed.world().resource::<StateHash>().history);
    assert_eq!(got.len() as u32, ticks - at, "{mission} saved at {at}");
    assert_eq!(got, after(reference), "{mission} saved at {at}: every later tick's hash");
}

/// A version-1 save (no snapshot) still loads: it is re-simulated to its tick (and so
/// are saves of versions 3 to 7, whose snapshots hold older state)
/// (`migrate_v1`) and goes on exactly; so does a version-2 save, whose reflected
/// snapshot (layout 1) is left out; a current save without its snapshot is refused.
#[test]
fn version_1_to_12_saves_are_migrated_by_re_simulation() {
    let game = demo_game();
    let mut straight = app();
    iron3d_mission::load_headless(&mut straight, &game, "single.01").unwrap();
    let orders = battle_orders(&mut straight, 0);
    run_to(&mut straight, &orders, 120);
    let reference = straight.world().resource::<StateHash>().history.clone();
    let saved = saved_at(&game, "single.01", &orders, 60);
    let v1 = in_version(&saved, 1);
    let container = Container::decode(&v1, FileKind::Save).unwrap();
    assert_eq!(container.header.format_version, 1);
    let record = Record::decode(&v1, FileKind::Save).unwrap();
    assert!(record.snapshot.is_none());
    continues_exactly(&game, &record, &orders, &reference, 120);
    for version in (2..=12).chain([FORMAT_VERSION - 1]) {
        let record = Record::decode(&in_version(&saved, version), FileKind::Save).unwrap();
        assert!(record.snapshot.is_none(), "a version-{version} snapshot is re-simulated, not read");
        continues_exactly(&game, &record, &orders, &reference, 120);
    }
    let mut v3 = container;
    v3.header.format_version = FORMAT_VERSION;
    let e = refused(&v3.encode().unwrap());
    assert!(e.message.contains("must hold the snapshot"), "{e}");
}

/// The state hash guards the restore: a snapshot whose state does not hash as the save
/// recorded (state the snapshot missed, or damaged) is refused, naming both hashes.
#[test]
fn a_restored_state_that_does_not_hash_as_saved_is_refused() {
    let game = demo_game();
    let mut record = saved_at(&game, "single.01", &[], 40);
    let last = record.hashes.last_mut().unwrap();
    last.1 ^= 1;
    let wrong = format!("{:016x}", last.1);
    let e = resume(&mut app(), &game, &record, None).unwrap_err();
    assert!(e.contains("restored state of tick 40") && e.contains(&wrong), "{e}");
}

#[test]
fn a_loaded_single_01_continues_exactly() {
    let (_, haul) = resumes_exactly("single.01", 0, 300);
    assert!(haul.is_some(), "a save was taken with a transport carrying ore");
}

/// In `tutorial.01` the Enemy's first wave meets the Player's defences (the player's
/// orders come after that, so they do not change where the fight happens).
#[test]
fn a_loaded_tutorial_01_continues_exactly_mid_fight() {
    let (shells, haul) = resumes_exactly("tutorial.01", 2150, 2550);
    assert!(shells.is_some() && haul.is_some(), "saves were taken with shells in flight and mid-haul");
}

#[test]
fn a_loaded_single_02_continues_exactly() {
    resumes_exactly("single.02", 0, 60);
}

#[test]
fn a_loaded_campaign_mission_continues_exactly() {
    let (_, haul) = resumes_exactly("campaign.01/mission.01", 0, 300);
    assert!(haul.is_some(), "a save was taken with a transport carrying ore");
}

#[test]
fn a_save_for_other_data_or_another_mission_is_refused_naming_both() {
    let record = sample();
    let ours = DataLayers(vec![DataLayer { name: "game".into(), fingerprint: 1 }]);
    let e = check_compatible(&record, &ours, None).unwrap_err();
    assert!(e.contains("game 0123456789abcdef") && e.contains("game 0000000000000001"), "{e}");
    let e = check_compatible(&record, &record.layers, Some("single.01")).unwrap_err();
    assert!(e.contains("single.02") && e.contains("single.01"), "{e}");
    let replay = Record { kind: FileKind::Replay, engine_version: "0.0.1".into(), ..sample() };
    let e = check_compatible(&replay, &replay.layers, None).unwrap_err();
    assert!(e.contains("0.0.1") && e.contains(ENGINE_VERSION), "{e}");
}

/// The reader's deterministic fuzz run (the cargo-fuzz target `reader` does the
/// same with coverage guidance): chunks whose data is mutated, cut or extended and
/// re-framed with valid checksums, so the chunk parsers see the damage; each file is
/// refused naming the damaged chunk, or read, never a panic.
#[test]
fn mutated_chunk_data_is_refused_naming_the_chunk_or_read() {
    let good = Container::decode(&sample().encode().unwrap(), FileKind::Save).unwrap();
    let mut rng = iron3d_formats::rng::SplitMix64::new(27);
    let mut refused_count = 0;
    for _ in 0..4000 {
        let mut c = good.clone();
        let k = (rng.next_u64() % c.chunks.len() as u64) as usize;
        let data = &mut c.chunks[k].data;
        match rng.next_u64() % 3 {
            0 if !data.is_empty() => {
                let at = (rng.next_u64() % data.len() as u64) as usize;
                data[at] = rng.next_u64() as u8;
            }
            1 => data.truncate((rng.next_u64() % (data.len() as u64 + 1)) as usize),
            _ => data.extend((0..rng.next_u64() % 9).map(|_| rng.next_u64() as u8)),
        }
        let name = c.chunks[k].name();
        let bytes = c.encode().unwrap();
        if let Err(e) = Record::decode(&bytes, FileKind::Save) {
            assert_eq!(e.chunk, name, "{e}");
            refused_count += 1;
        }
    }
    assert!(refused_count > 1000, "most damage is refused: {refused_count}");
}

#[test]
fn committed_fuzz_inputs_replay_through_the_reader() {
    let fuzz = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz"));
    let failures = iron3d_formats::fuzzing::verify(fuzz, crate::fuzzing::TARGETS);
    assert!(failures.is_empty(), "{failures:#?}");
    let save = std::fs::read(fuzz.join("seeds/reader/save")).unwrap();
    assert_eq!(Record::decode(&save, FileKind::Save).unwrap().tick, sample().tick, "the seed save reads");
}

/// The Player's first build option ordered from its first producing building at tick 1.
fn build_orders(app: &mut App) -> Vec<SimCommand> {
    let world = app.world_mut();
    let rules = world.resource::<iron3d_core::GameRules>().rules.clone();
    let scheme = world.resource::<iron3d_core::BuildOptions>().clans[&1][0].scheme;
    let mut q = world.query::<(&OriginalObjectId, &Owner, &iron3d_core::UnitClass)>();
    let mut producers: Vec<u32> =
        q.iter(world).filter(|(_, o, c)| o.clan == 1 && rules.produces(c.0)).map(|(id, ..)| id.0).collect();
    producers.sort_unstable();
    vec![SimCommand { tick: 1, units: vec![producers[0]], order: Order::Build(scheme), queued: false }]
}

/// A save taken after a robot was built (an object no mission file places) re-creates
/// it from its scheme, and the game goes on exactly.
#[test]
fn a_save_after_a_robot_was_built_continues_exactly() {
    let game = demo_game();
    let mut straight = app();
    iron3d_mission::load_headless(&mut straight, &game, "tutorial.01").unwrap();
    let orders = build_orders(&mut straight);
    let first_new = straight.world().resource::<iron3d_production::Production>().next_id;
    let built = |app: &mut App| {
        let world = app.world_mut();
        world.query::<&OriginalObjectId>().iter(world).any(|id| id.0 >= first_new)
    };
    while !built(&mut straight) {
        let now = straight.world().resource::<GameClock>().tick;
        assert!(now < 600, "the Player's build order produced nothing in 600 ticks");
        run_to(&mut straight, &orders, now + 1);
    }
    let at = straight.world().resource::<GameClock>().tick + 3;
    run_to(&mut straight, &orders, at + 60);
    let reference = straight.world().resource::<StateHash>().history.clone();
    let record = saved_at(&game, "tutorial.01", &orders, at);
    let mut fresh = app();
    iron3d_mission::load_headless(&mut fresh, &game, "tutorial.01").unwrap();
    assert!(!built(&mut fresh), "the robot is not in the mission file");
    continues_exactly(&game, &record, &orders, &reference, at + 60);
}

/// A save taken while a builder's mine stands in its construction sphere (a building no
/// mission file places, its sphere's phase and the builder's state) goes on exactly.
#[test]
fn a_save_mid_construction_continues_exactly() {
    let game = demo_game();
    let mut straight = app();
    iron3d_mission::load_headless(&mut straight, &game, "tutorial.01").unwrap();
    let world = straight.world_mut();
    let mut q = world.query::<(&OriginalObjectId, &Owner, &iron3d_core::UnitClass, &SimTransform)>();
    let builder = q.iter(world).find(|(_, o, c, _)| o.clan == 1 && c.0 == iron3d_core::UnitClass::BUILDER).unwrap();
    let (id, at) = (builder.0.0, [builder.3.position[0], builder.3.position[1]]);
    let lodes = &world.resource::<iron3d_core::MineralLodes>().0;
    let near = |l: &&iron3d_core::MineralLode| (l.position[0] - at[0]).hypot(l.position[1] - at[1]);
    let lode = lodes.iter().filter(|l| l.found).min_by(|a, b| near(a).total_cmp(&near(b))).unwrap().position;
    let site = iron3d_core::Site::new(4, lode, 0.0).unwrap();
    let tick = straight.world().resource::<GameClock>().tick + 1;
    let orders = vec![SimCommand { tick, units: vec![id], order: Order::Construct(site), queued: false }];
    run_to(&mut straight, &orders, 260);
    let mut spheres = straight.world_mut().query::<&iron3d_production::sites::Sphere>();
    let log = &straight.world().resource::<iron3d_sim::EventLog>().0;
    let said: Vec<_> = log.iter().filter(|e| e.ids.first() == Some(&id)).collect();
    assert_eq!(spheres.iter(straight.world()).count(), 1, "the mine's sphere runs at the save: {said:?}");
    let reference = straight.world().resource::<StateHash>().history.clone();
    let record = saved_at(&game, "tutorial.01", &orders, 200);
    continues_exactly(&game, &record, &orders, &reference, 260);
}

/// Four objects spawned out of id order (unit 7 named), unit 3 at `unit_3`, in a world
/// with the simulation's state registry.
fn odd_world(unit_3: SimTransform) -> World {
    use iron3d_sim::testing::{spawn_building, spawn_unit};
    let mut world = World::new();
    world.init_resource::<iron3d_core::ObjectTable>();
    world.insert_resource(app().world_mut().remove_resource::<iron3d_core::SimState>().unwrap());
    let seven = spawn_unit(&mut world, 7, 1, [10.0, 20.0], 0.5, 1.0);
    world.entity_mut(seven).insert(Name::new("seven"));
    let three = spawn_unit(&mut world, 3, 2, [0.0, 0.0], 0.0, 1.0);
    world.entity_mut(three).insert(unit_3);
    spawn_building(&mut world, 4, [30.0, 30.0], [2.0, 3.0]);
    spawn_unit(&mut world, 5, 1, [1.0, 2.0], -0.0, 2.0);
    world
}

/// The objects' columns (layout 4) keep every float's bits (a NaN's payload, -0.0, a
/// subnormal) and which object lacks which part: a snapshot written to a file, read and
/// laid over a world whose objects differ (a part more, a part less, other values)
/// captures again to the same bytes.
#[test]
fn object_columns_keep_exact_float_bits_and_missing_parts() {
    let odd = SimTransform {
        position: [f32::from_bits(0x7fc0_0001), -0.0, f32::from_bits(1)],
        orientation: [f32::from_bits(0xff80_0000), f32::MIN_POSITIVE, -1.5],
        scale: [1.0, -0.0, f32::MAX],
    };
    let mut world = odd_world(odd);
    let seven = world.query::<(Entity, &OriginalObjectId)>().iter(&world).find(|(_, id)| id.0 == 7).unwrap().0;
    world.entity_mut(seven).insert(Health { hp: -0.0, max: f32::from_bits(0x7f80_0001), invulnerable: true });
    let saved = Snapshot::capture(&world).unwrap();
    let header = crate::format::Header {
        kind: FileKind::Save,
        format_version: FORMAT_VERSION,
        engine_version: ENGINE_VERSION.into(),
        mission: String::new(),
        tick: 0,
        layers: DataLayers::default(),
    };
    let bytes = Container { header, chunks: saved.0.clone() }.encode().unwrap();
    let read = Container::decode(&bytes, FileKind::Save).unwrap();
    let read = Snapshot::from_chunks(&read.chunks, bytes.len()).unwrap().unwrap();
    assert_eq!(read, saved);
    let mut other = odd_world(SimTransform::default());
    let five = other.query::<(Entity, &OriginalObjectId)>().iter(&other).find(|(_, id)| id.0 == 5).unwrap().0;
    other.entity_mut(five).insert(Health { hp: 1.0, max: 1.0, invulnerable: false });
    read.restore(&mut other).unwrap();
    let mut q = other.query::<(&OriginalObjectId, &SimTransform, Option<&Health>)>();
    let mut restored: Vec<_> = q.iter(&other).map(|(id, t, h)| (id.0, *t, h.copied())).collect();
    restored.sort_unstable_by_key(|(id, ..)| *id);
    let bits = |t: &SimTransform| [t.position, t.orientation, t.scale].map(|v| v.map(f32::to_bits));
    assert_eq!(bits(&restored[0].1), bits(&odd), "unit 3's transform, bit for bit");
    assert_eq!(
        restored.iter().map(|(id, _, h)| (*id, h.is_some())).collect::<Vec<_>>(),
        [(3, false), (4, false), (5, false), (7, true)]
    );
    let health = restored[3].2.unwrap();
    assert_eq!((health.hp.to_bits(), health.max.to_bits()), ((-0.0f32).to_bits(), 0x7f80_0001));
    assert_eq!(Snapshot::capture(&other).unwrap(), saved, "the restored world captures the same bytes");
}

/// Every saved type is hashed or says why not: each hasher the registry names exists,
/// and taking a hashed component off an object that has it, or a hashed resource out
/// of the world, changes the state hash (the hash reads what the save keeps).
#[test]
fn every_saved_type_is_hashed_or_says_why_not() {
    use iron3d_core::{Hashing, SimState};
    let game = demo_game();
    let mut app = app();
    iron3d_mission::load_headless(&mut app, &game, "single.01").unwrap();
    let orders = battle_orders(&mut app, 2);
    run_to(&mut app, &orders, 120);
    let world = app.world_mut();
    let mut q = world.query_filtered::<Entity, bevy_ecs::query::With<iron3d_core::SimObject>>();
    let entities: Vec<Entity> = q.iter(world).collect();
    // What a battle does not use: a capturer indoors, the hero aboard, a unit taken by him.
    world.entity_mut(entities[0]).insert((iron3d_core::Indoors(1), iron3d_core::Aboard(2), iron3d_core::Mindless));
    let state = world.resource::<SimState>();
    let check = |hashing: Hashing, tag: &str| match hashing {
        Hashing::By(name) => assert!(state.hashers().contains_key(name), "{tag}: no hasher {name}"),
        Hashing::Not(why) => assert!(!why.is_empty(), "{tag} says why it is not hashed"),
        Hashing::Bytes => {}
    };
    state.components().iter().for_each(|c| check(c.hashing, c.tag));
    state.resources().iter().for_each(|r| check(r.hashing, r.tag));
    let components: Vec<_> = state
        .components()
        .iter()
        .filter(|c| !matches!(c.hashing, Hashing::Not(_)))
        .map(|c| (c.tag, c.write, c.read, c.put))
        .collect();
    let resources: Vec<_> =
        state.resources().iter().filter(|r| !matches!(r.hashing, Hashing::Not(_))).map(|r| (r.tag, r.remove)).collect();
    let mut absent = Vec::new();
    for (tag, write, read, put) in components {
        let mut masks = vec![0; entities.len()];
        write(world, &entities, 1, &mut masks, &mut Vec::new()).unwrap();
        let Some(k) = masks.iter().position(|m| *m == 1) else {
            absent.push(tag);
            continue;
        };
        let before = iron3d_sim::state_hash(world);
        put(world, &[(entities[k], false)], read(&[], 0).unwrap());
        assert_ne!(iron3d_sim::state_hash(world), before, "taking {tag} off an object changes the hash");
    }
    for (tag, remove) in resources {
        let before = iron3d_sim::state_hash(world);
        remove(world);
        assert_ne!(iron3d_sim::state_hash(world), before, "taking {tag} out changes the hash");
    }
    assert!(absent.len() <= 3, "the battle exercises the hashed components but {absent:?}");
}
