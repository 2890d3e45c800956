//! `iron3d-cli sim run`: a mission in the headless simulation for N ticks, with orders
//! from a file applied through the same command queue as player input, per-tick state
//! hashes, the final objects and the event log.

use crate::output::{UsageError, print_json};
use anyhow::{Context, anyhow};
use bevy_ecs::prelude::*;
use clap::Subcommand;
use iron3d_core::{
    CollisionProxy, CommandQueue, GameClock, Health, Kinematics, MissionOutcome, Movable, NavStatus, ObjectKind,
    ObjectTable, Order, OriginalObjectId, Owner, SimCommand as Command, SimObject, SimTransform, TICK_MS,
};
use iron3d_mission::{MissionPlugin, load_headless};
use iron3d_sim::{EventLog, StateHash, headless_app};
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// `sim` subcommands.
#[derive(Subcommand, Debug)]
pub enum SimCommand {
    /// Run MISSION for N ticks of 64 ms.
    #[command(
        after_help = "ORDERS is a JSON array of {\"tick\": T, \"units\": [ID, ...], \"order\": ORDER}, ORDER one of \
        {\"move_to\": [X, Y]}, {\"follow_path\": PATH_ID}, {\"patrol\": PATH_ID}, {\"attack\": ID} or \"stop\"; ID is the OriginalObjectId \
        (index of the placed object in data.tma), coordinates in game units. Orders apply at the start of tick T; \
        several for one tick apply in a stable order independent of the file.\n\n\
        Exit status: 0 on success; 1 when the game or the mission cannot be loaded; 2 on a usage error, a malformed \
        orders file, an unknown id or a non-movable object (the message names the entry)."
    )]
    Run {
        /// Game directory.
        game_dir: PathBuf,
        /// Mission name (the folder under MISSIONS).
        mission: String,
        /// Ticks to run.
        #[arg(long)]
        ticks: u32,
        /// Orders file (JSON).
        #[arg(long)]
        orders: Option<PathBuf>,
        /// Record the state hash every K ticks (and at the last).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        hash_every: u32,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Serialize)]
struct Hash {
    tick: u32,
    hash: String,
}

#[derive(Serialize)]
struct Object {
    id: u32,
    position: [f32; 3],
    heading: f32,
    speed: f32,
    radius: f32,
    state: &'static str,
    areal: i64,
}

#[derive(Serialize)]
struct Event {
    tick: u32,
    kind: &'static str,
    ids: Vec<u32>,
    detail: String,
}

#[derive(Serialize)]
struct Clan {
    index: u32,
    slot: Option<u32>,
    ore: f32,
    power: f32,
    units: usize,
    buildings: usize,
    outcome: Option<&'static str>,
}

#[derive(Serialize)]
struct Report {
    mission: String,
    ticks: u32,
    tick_ms: u32,
    hashes: Vec<Hash>,
    objects: Vec<Object>,
    events: Vec<Event>,
    clans: Vec<Clan>,
}

/// Runs a `sim` subcommand.
pub fn run(cmd: SimCommand) -> anyhow::Result<()> {
    let SimCommand::Run { game_dir, mission, ticks, orders, hash_every, json } = cmd;
    let game = iron3d_vfs::GameDir::open(&game_dir, iron3d_formats::ReadOptions::compatible())
        .with_context(|| format!("opening {}", game_dir.display()))?;
    let mut app = headless_app();
    app.add_plugins(MissionPlugin);
    load_headless(&mut app, &Arc::new(game), &mission).map_err(|e| anyhow!("{e}"))?;
    if let Some(file) = orders {
        let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
        let commands =
            parse_orders(&text).map_err(|e| anyhow::Error::from(UsageError(format!("{}: {e}", file.display()))))?;
        check_units(app.world_mut(), &commands)
            .map_err(|e| anyhow::Error::from(UsageError(format!("{}: {e}", file.display()))))?;
        let mut queue = app.world_mut().resource_mut::<CommandQueue>();
        commands.into_iter().for_each(|c| queue.push(c));
    }
    while app.world().resource::<GameClock>().tick < ticks {
        app.update();
    }
    let report = report(app.world_mut(), &mission, ticks, hash_every);
    if json {
        return print_json(&report);
    }
    println!("{}: {} ticks of {} ms", report.mission, report.ticks, report.tick_ms);
    if let Some(h) = report.hashes.last() {
        println!("state hash at tick {}: {}", h.tick, h.hash);
    }
    let moving = report.objects.iter().filter(|o| o.state == "moving").count();
    println!("{} objects ({moving} moving), {} events", report.objects.len(), report.events.len());
    for e in report.events.iter().filter(|e| e.kind != "collision") {
        println!("  tick {:5} {:10} {:?} {}", e.tick, e.kind, e.ids, e.detail);
    }
    Ok(())
}

fn parse_order(v: &Value) -> Result<Order, String> {
    if v.as_str() == Some("stop") {
        return Ok(Order::Stop);
    }
    let o = v.as_object().filter(|o| o.len() == 1).ok_or("an order is \"stop\" or an object with one key")?;
    let (key, arg) = o.iter().next().ok_or("empty order")?;
    let path = || arg.as_i64().and_then(|p| i32::try_from(p).ok()).ok_or(format!("{key} takes a path id"));
    match key.as_str() {
        "move_to" => match arg.as_array().map(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>()) {
            Some(Some(xy)) if xy.len() == 2 && xy.iter().all(|v| v.is_finite()) => {
                Ok(Order::MoveTo([xy[0] as f32, xy[1] as f32]))
            }
            _ => Err("move_to takes [X, Y]".into()),
        },
        "follow_path" => Ok(Order::FollowPath(path()?)),
        "patrol" => Ok(Order::Patrol(path()?)),
        "attack" => arg
            .as_u64()
            .and_then(|id| u32::try_from(id).ok())
            .map(Order::Attack)
            .ok_or("attack takes an object id".into()),
        other => Err(format!("unknown order {other:?}")),
    }
}

/// The commands of an orders file; errors name the entry.
fn parse_orders(text: &str) -> Result<Vec<Command>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let entries = value.as_array().ok_or("the orders file is a JSON array")?;
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let entry = |m: String| format!("entry {i}: {m}");
            let tick = e
                .get("tick")
                .and_then(Value::as_u64)
                .and_then(|t| u32::try_from(t).ok())
                .ok_or_else(|| entry("\"tick\" is a tick number".into()))?;
            let units =
                e.get("units").and_then(Value::as_array).ok_or_else(|| entry("\"units\" is an array of ids".into()))?;
            let units = units
                .iter()
                .map(|u| u.as_u64().and_then(|u| u32::try_from(u).ok()))
                .collect::<Option<Vec<u32>>>()
                .ok_or_else(|| entry("unit ids are numbers".into()))?;
            let order = parse_order(e.get("order").ok_or_else(|| entry("no \"order\"".into()))?).map_err(entry)?;
            Ok(Command { tick, units, order })
        })
        .collect()
}

/// Every unit named exists and moves.
fn check_units(world: &mut World, commands: &[Command]) -> Result<(), String> {
    for (i, c) in commands.iter().enumerate() {
        for &id in &c.units {
            let entity =
                world.resource::<ObjectTable>().entity_of(id).ok_or(format!("entry {i}: no object with id {id}"))?;
            if world.get::<Movable>(entity).is_none() {
                return Err(format!("entry {i}: object {id} does not move"));
            }
        }
        if let Order::Attack(target) = c.order {
            let entity = world.resource::<ObjectTable>().entity_of(target);
            if entity.is_none_or(|e| world.get::<Health>(e).is_none()) {
                return Err(format!("entry {i}: attack target {target} is not an object that can be damaged"));
            }
        }
    }
    Ok(())
}

/// Every clan record: its GetSuperAI slot, economy, objects and outcome.
fn clans(world: &mut World) -> Vec<Clan> {
    let records: Vec<(u32, Option<u32>)> = world
        .get_resource::<iron3d_superai::SuperAis>()
        .map(|a| a.0.iter().map(|ai| (ai.clan.index, ai.slot)).collect())
        .unwrap_or_default();
    let mut q = world.query::<(&Owner, &SimObject)>();
    let owned: Vec<(i32, ObjectKind)> = q.iter(world).map(|(o, s)| (o.clan, s.kind)).collect();
    records
        .into_iter()
        .map(|(index, slot)| {
            let (ore, power) = iron3d_economy::clan_summary(world, index);
            let count = |k: ObjectKind| owned.iter().filter(|(c, kind)| *c == index as i32 && *kind == k).count();
            Clan {
                index,
                slot,
                ore,
                power,
                units: count(ObjectKind::Unit),
                buildings: count(ObjectKind::Building),
                outcome: world.resource::<MissionOutcome>().of(index).map(|o| o.name()),
            }
        })
        .collect()
}

fn report(world: &mut World, mission: &str, ticks: u32, every: u32) -> Report {
    let history = &world.resource::<StateHash>().history;
    let last = history.last().map(|h| h.0);
    let hashes = history
        .iter()
        .filter(|(t, _)| t % every == 0 || Some(*t) == last)
        .map(|(tick, h)| Hash { tick: *tick, hash: format!("{h:016x}") })
        .collect();
    let events = world
        .resource::<EventLog>()
        .0
        .iter()
        .map(|e| Event { tick: e.tick, kind: e.kind.name(), ids: e.ids.clone(), detail: e.detail.clone() })
        .collect();
    let mut q = world.query_filtered::<(
        &OriginalObjectId,
        &SimTransform,
        Option<&Kinematics>,
        Option<&CollisionProxy>,
        Option<&NavStatus>,
    ), With<SimObject>>();
    let mut objects: Vec<Object> = q
        .iter(world)
        .map(|(id, t, kin, proxy, status)| Object {
            id: id.0,
            position: t.position,
            heading: t.heading(),
            speed: kin.map_or(0.0, |k| k.speed),
            radius: proxy.map_or(0.0, |p| p.radius),
            state: status.map_or("idle", |s| s.state.name()),
            areal: status.and_then(|s| s.areal).map_or(-1, i64::from),
        })
        .collect();
    objects.sort_by_key(|o| o.id);
    let clans = clans(world);
    Report { mission: mission.into(), ticks, tick_ms: TICK_MS, hashes, objects, events, clans }
}
