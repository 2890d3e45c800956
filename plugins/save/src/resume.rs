//! Resuming a save and re-simulating a replay. Both start the record's mission through
//! the loading state machine on the same layers. A save then lays its [`Snapshot`] over
//! the started mission and checks that the state hash equals the one it recorded for
//! its tick (any state the snapshot missed would change it). A replay, and a save of
//! format version 1 (no snapshot), is re-simulated: the simulation is deterministic
//! (fixed tick, ordered by `OriginalObjectId`, seeded streams), so the state of tick N
//! is a function of the mission, the data layers, the difficulty and the external
//! commands up to N; each logged command is applied at the tick it was applied at, and
//! the state hash compared at every recorded checkpoint.

use crate::format::{ENGINE_VERSION, FileKind};
use crate::log::CommandLog;
use crate::record::Record;
use crate::snapshot::Snapshot;
use bevy_app::{App, FixedMain};
use bevy_ecs::world::World;
use iron3d_core::{CommandQueue, DataLayers, Designs, GameClock, SchemeNames, Seats};
use iron3d_sim::StateHash;
use iron3d_vfs::GameDir;
use std::sync::Arc;

/// A recorded state hash the re-simulation did not reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    /// The tick.
    pub tick: u32,
    /// The hash in the file.
    pub recorded: u64,
    /// The hash computed now.
    pub computed: u64,
}

/// The outcome of a re-simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Checked {
    /// Recorded hashes compared.
    pub hash_checks: u32,
    /// The first that differed (the run stops there).
    pub mismatch: Option<Mismatch>,
}

/// Refuses a record made for other data or another mission, naming both sides
/// (`mission`: the one asked for, if any); a replay also from another engine version.
///
/// # Errors
/// The message naming what differs.
pub fn check_compatible(record: &Record, layers: &DataLayers, mission: Option<&str>) -> Result<(), String> {
    let kind = record.kind.name();
    if record.layers != *layers {
        return Err(format!("the {kind} was made with data layers {}, this game has {layers}", record.layers));
    }
    if let Some(m) = mission.filter(|m| !m.eq_ignore_ascii_case(&record.mission)) {
        return Err(format!("the {kind} is of mission {}, not {m}", record.mission));
    }
    if record.kind == FileKind::Replay && record.engine_version != ENGINE_VERSION {
        return Err(format!(
            "the replay was recorded by engine version {}, this is {ENGINE_VERSION}; it cannot be re-simulated",
            record.engine_version
        ));
    }
    Ok(())
}

/// Starts the record's mission in `app` at the record's difficulty.
fn start(app: &mut App, game: &Arc<GameDir>, record: &Record, mission: Option<&str>) -> Result<(), String> {
    let layers = iron3d_mission::data_layers(game).map_err(|e| e.to_string())?;
    check_compatible(record, &layers, mission)?;
    iron3d_mission::load_headless_at(app, game, &record.mission, record.difficulty).map_err(|e| e.to_string())?;
    Ok(())
}

/// Loads the record's mission into `app` (a headless app with `MissionPlugin` and
/// [`crate::SavePlugin`]) and re-simulates it to the record's tick ([`catch_up`]).
///
/// # Errors
/// Other data or mission ([`check_compatible`]), a mission that does not load.
pub fn replay(app: &mut App, game: &Arc<GameDir>, record: &Record, mission: Option<&str>) -> Result<Checked, String> {
    start(app, game, record, mission)?;
    Ok(catch_up(app, record))
}

/// With the record's mission just loaded (in the game, at the record's difficulty),
/// re-simulates it to the record's tick, applying each logged command at the tick it
/// applied at and checking every recorded hash (stopping at the first that differs);
/// then queues a save's pending commands again. Each tick is one `app.update()`.
pub fn catch_up(app: &mut App, record: &Record) -> Checked {
    re_simulate(app, App::world_mut, App::update, record)
}

/// [`catch_up`] inside a frame of the game, where `world` is the game's: each tick is
/// one run of the fixed-step schedule (the simulation reads no frame time).
pub fn catch_up_in_world(world: &mut World, record: &Record) -> Checked {
    re_simulate(world, |w| w, |w| w.run_schedule(FixedMain), record)
}

/// [`catch_up`] on `sim`, whose world is `world_of(sim)` and whose next tick `step(sim)` runs.
fn re_simulate<S>(sim: &mut S, world_of: fn(&mut S) -> &mut World, step: fn(&mut S), record: &Record) -> Checked {
    let world = world_of(sim);
    world.resource_mut::<SchemeNames>().0.extend(record.schemes.clone());
    world.resource_mut::<Designs>().0.extend(record.designs.clone());
    world.resource_mut::<CommandQueue>().pending.clear();
    let mut checked = Checked::default();
    let mut commands = record.commands.iter().peekable();
    let mut hashes = record.hashes.iter().peekable();
    let tick = |sim: &mut S| world_of(sim).resource::<GameClock>().tick;
    // The ticks the load itself ran already applied their commands.
    let now = tick(sim);
    while commands.next_if(|(t, _)| *t <= now).is_some() {}
    while tick(sim) < record.tick {
        let next = tick(sim) + 1;
        let mut queue = world_of(sim).resource_mut::<CommandQueue>();
        while let Some((_, c)) = commands.next_if(|(t, _)| *t <= next) {
            queue.push(c.clone());
        }
        step(sim);
        let Some((now, computed)) = world_of(sim).resource::<StateHash>().last() else { continue };
        while let Some(&(at, recorded)) = hashes.next_if(|(t, _)| *t <= now) {
            if at != now {
                continue;
            }
            checked.hash_checks += 1;
            if recorded != computed {
                checked.mismatch = Some(Mismatch { tick: now, recorded, computed });
                return checked;
            }
        }
    }
    let mut queue = world_of(sim).resource_mut::<CommandQueue>();
    record.pending.iter().for_each(|c| queue.push(c.clone()));
    checked
}

/// Brings the game in `app` (a headless app with `MissionPlugin` and
/// [`crate::SavePlugin`]) to the save's tick: starts its mission, then restores its
/// snapshot ([`restore`]), or, for a save of format version 1 or 2, re-simulates it
/// ([`migrate_v1`]); a hosted game's seats come back as [`Seats`].
///
/// # Errors
/// Other data or mission ([`check_compatible`]), a mission that does not load, a
/// snapshot that does not restore or does not give the saved state hash.
pub fn resume(app: &mut App, game: &Arc<GameDir>, record: &Record, mission: Option<&str>) -> Result<(), String> {
    let Some(snapshot) = &record.snapshot else { return migrate_v1(app, game, record, mission) };
    start(app, game, record, mission)?;
    restore(app.world_mut(), record, snapshot)?;
    app.insert_resource(Seats(record.seats.clone()));
    Ok(())
}

/// Lays `snapshot` over the world where `record`'s mission was just started, takes the
/// record's command log, and checks the state hash of the save's tick.
///
/// # Errors
/// The snapshot does not parse or does not fit the mission, or the state hash after
/// restoring differs from the saved one (naming both).
pub fn restore(world: &mut World, record: &Record, snapshot: &Snapshot) -> Result<(), String> {
    snapshot.restore(world)?;
    world.insert_resource(CommandLog(record.commands.clone()));
    let Some(&(_, saved)) = record.hashes.last().filter(|(t, _)| *t == record.tick) else { return Ok(()) };
    let restored = iron3d_sim::state_hash(world);
    if restored != saved {
        return Err(format!(
            "the restored state of tick {} hashes to {restored:016x}, the save has {saved:016x} (saved by engine {}, this is {ENGINE_VERSION})",
            record.tick, record.engine_version
        ));
    }
    Ok(())
}

/// The migration of a save of format version 1 or 2 (no snapshot this engine reads):
/// [`replay`], every recorded hash reproduced ([`reproduced`]), leaves the game at the
/// save's tick. The game does the same inside its frame ([`catch_up_in_world`]).
///
/// # Errors
/// What [`replay`] refuses, or a recorded hash not reproduced.
pub fn migrate_v1(app: &mut App, game: &Arc<GameDir>, record: &Record, mission: Option<&str>) -> Result<(), String> {
    let checked = replay(app, game, record, mission)?;
    reproduced(record, checked)
}

/// A re-simulated save ([`catch_up`]) that reproduced every recorded hash.
///
/// # Errors
/// The first hash not reproduced, naming the tick: the save was made by an engine that
/// simulates differently.
pub fn reproduced(record: &Record, checked: Checked) -> Result<(), String> {
    match checked.mismatch {
        None => Ok(()),
        Some(m) => Err(format!(
            "the save does not reproduce at tick {}: state hash {:016x}, the save has {:016x} (saved by engine {}, this is {ENGINE_VERSION})",
            m.tick, m.computed, m.recorded, record.engine_version
        )),
    }
}
