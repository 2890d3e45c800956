//! `iron3d-cli sim run`: a mission in the headless simulation for N ticks, with orders
//! from a file applied through the same command queue as player input, per-tick state
//! hashes, the final objects and the event log.

use crate::layers::{Mods, layers_json};
use crate::output::{UsageError, print_json};
use crate::save_cmd;
use anyhow::{Context, anyhow};
use bevy_ecs::prelude::*;
use clap::Subcommand;
use iron3d_core::{
    Aboard, AutoDriver, CollisionProxy, CommandQueue, Designs, Difficulty, DifficultyLevel, GameClock, Guard, Health,
    Kinematics, MissionClans, MissionOutcome, Movable, NavStatus, ObjectKind, ObjectTable, Order, OriginalObjectId,
    Owner, PilotInput, SchemeNames, SearchFor, SimCommand, SimObject, SimTransform, Site, TICK_MS, UnitClass, Ward,
};
use iron3d_formats::registry::UnitDat;
use iron3d_mission::campaign::{Campaign, CampaignProgress};
use iron3d_mission::{MissionName, MissionObject, MissionPlugin, load_headless_at};
use iron3d_save::{FileKind, SavePlugin};
use iron3d_sim::{EventLog, StateHash, headless_app};
use iron3d_vfs::GameDir;
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `sim` subcommands.
#[derive(Subcommand, Debug)]
pub enum HeadlessCommand {
    /// Run MISSION for N ticks of 64 ms.
    #[command(
        after_help = "ORDERS is a JSON array of {\"tick\": T, \"units\": [ID, ...], \"order\": ORDER}, ORDER one of \
        {\"move_to\": [X, Y]}, {\"follow_path\": PATH_ID}, {\"patrol\": PATH_ID}, {\"attack\": ID}, \"stop\", \
        {\"haul\": MINE_ID}, \"refit\", {\"search_lodes\": true}, {\"construct\": {\"scheme\": S, \"at\": [X, Y], \
        \"angle\": A}}, {\"upgrade\": ID}, {\"build\": SCHEME}, {\"build_design\": FILE}, {\"batch\": SCHEME}, \
        {\"batch_design\": FILE}, \"stop_build\", {\"research\": NODE}, {\"capture\": ID}, {\"board\": ID} or \
        \"leave\", {\"follow\": ID}, \"stand_ground\", \"shutdown\", {\"search\": \"capture\" | \"enemies\" | ID} \
        or {\"guard\": ID | [X, Y] | {\"object\": ID | \"at\": [X, Y], \"radius\": R}}; ID is the OriginalObjectId (index of the \
        placed object in data.tma), coordinates in game units. haul: the units are transport robots, MINE_ID a mine of \
        their clan; as in the original each chooses its own route, its clan's nearest mine with a loading place and \
        nearest storage with an unloading place, loads ore, unloads it there (waiting beside it while it is full; \
        \"loaded\" and \"unloaded\" events, ore=N) and goes back, until another order. refit: to the nearest ground-level dock of the unit's clan or \
        an ally, where it waits until life, charge and ammunition are at 98 % (the original's orders 8 and 9; no \
        dock: a \"rejected\" event). search_lodes: the units are builders; each walks to the nearest mineral lode not \
        yet found and, within 10 of it, finds it for every clan (a \"lode_found\" event, lode=N), then the next, \
        stopping when none is left. construct: the units are builders with an intact beam; S a BuildDat.lst scheme \
        (Mine, Storage, Plant, Bunker_Small, ...), the site's origin [X, Y] held to 1/16 of a unit, A its turn in \
        radians, a whole number of the original's 0.05 rad turns (default 0); the site must pass the original's \
        placement test (a path to it, inside the map, clear of other buildings, no basement face steeper than \
        acos 0.88, a mine on a found lode within 20; else a \"rejected\" event naming the rule); a builder with \
        under 100 ore fetches the cost from its clan's nearest mine or storage holding over 150 (not for a mine), \
        and where it arrives it raises the scheme's first building, paying its parts' ore from the research tree, \
        into debt; the construction sphere then runs 41 s (a \"constructed\" event: builder, building). upgrade: \
        builders; ID a building of their clan below the top of its scheme's ladder; beside it the builder starts a \
        116 s sphere, and at 50 s the building is replaced by the ladder's next entry, its ore carried over (an \
        \"upgraded\" event 4 s later: builder, new building, from=ID). build: the units are production buildings (plants, hangars), each queues one robot \
        of SCHEME, a unit scheme path as missions place them (UNITS\\ROBOTS\\scout.dat). build_design: the same \
        for a warbot design (iron3d-cli unit design), FILE a unit file on disk or a game path: the game keeps the \
        design itself (saves and replays carry it), named UNITS\\design_<hash of its bytes>.dat in events. \
        batch, batch_design: the same, built again whenever the producer is idle and its clan has a free mind \
        (the factory's batch); stop_build: the producer's batch ends, its build is aborted (its ore refunded) \
        and what waits is dropped. \
        research: the units are \
        research buildings (institutes), NODE a node index or short name of their clan's research tree. capture: \
        a unit of size class 1 or 2 goes in to the control pod of another clan's building (never a main teleport) \
        and, the pod open (1.29 to 4.5 s by the building), the building is its clan's (a \"captured\" event: \
        building, capturer, from=OLD to=NEW), then escapes; the hero on a unit of a neutral clan takes it within 20 \
        (no mind). board: the hero's Enter within 20: a neutral unit is captured, then a large bot of his clan with \
        a turret is boarded (\"boarded\": hero, bot); on a building with a control pod, within 20 of its door he goes in \
        to the pod, which fires for an object of its clan (\"opened\": building, object; after a capture too). leave: the hero aboard gets out at the first of eight \
        landing places round the bot (\"left\"), or stays (\"rejected\", Risk area! Landing impossible.); any \
        other unit escapes to open ground. A refused capture or Enter is a \"rejected\" event naming the rule. \
        follow: within 20 of the unit ID of the same clan, a new spot once it is 40 away (the order fails, \
        \"rejected\", when it is gone). stand_ground: the unit stays, its guns fire, it never sends itself to a \
        dock; shutdown: it stays and its guns pick no target. search: \"capture\" (units of size class 1 or 2) \
        takes the nearest building of another clan (a generator at half its distance) through its pod, then the \
        next, with no end; \"enemies\" walks to the nearest hostile warrior, builder or transport within 3000, \
        its guns fighting on the way; with nothing found both roam; ID searches one building (capture). \
        guard: loops of random points about a place (15-19 points within 60 along each axis, 0.8 of its speed, a \
        fresh loop every 20-30 s), a unit of its clan (3-7 within 60, 5-15 s) or a building (its corners pushed \
        out 30, 60-120 s), R replacing the 60 or 30; it takes up a fight only against a hostile machine inside \
        that ground, or whoever hits it, and drops it beyond R + 60 (a building: R + 80); a unit of size class \
        1 or 2 told to guard another clan's building captures it first. A guarded unit gone or of another clan, \
        or a building gone, is a \"rejected\" event. \
        Orders \
        apply at the start of tick T; several for one tick apply in a stable order independent of the file. An entry \
        may add \"queued\": true to wait behind the units' current orders (waypoints). ORDER may also be \
        {\"pilot\": {\"throttle\": -127..127, \"turn\": -127..127, \"strafe\": -127..127 (left positive), \
        \"aim_mrad\": MRAD, \"fire\": BOOL (the selected guns), \"fire_missiles\": BOOL (the selected guided guns), \
        \"fire_all\": BOOL (every gun), \
        \"camouflage\": BOOL, \"turret_lock\": BOOL, \"target\": ID}} (the player's direct control of one unit, held \
        until the next pilot entry; aim, the triggers, camouflage, which switches the detection shield's camouflage on or \
        off, and turret_lock, which switches whether a bot's hull follows its turret (on when it is taken; while on the \
        follow replaces the turn), act in that entry's tick; the target, the player's, is what its guns fire at, its radar's without one; missing fields \
        are 0 / false / none), {\"select_weapon\": N} (a driven unit's weapon keys: 0 selects every gun, 1..9 \
        toggles that gun; the pilot's fire reaches the selected guns) or \"release\" \
        (the unit returns to its orders).\n\n\
        Exit status: 0 on success; 1 when the game or the mission cannot be loaded, a save cannot be read, \
        written or resumed (another mission, other data layers; the message names the file, part and offset); 2 on a usage error, a malformed \
        orders file, an unknown id, a non-movable object for a unit order, a haul by a non-transport or to anything but a mine of \
        the transport's clan, a non-producer for build, an unknown scheme \
        or one that is no robot, a non-institute or an unknown node for research (the message names the entry). What \
        only the run decides (a scheme locked by research, ore, power, a failed construction, a haul whose mine is \
        gone, a refit without a dock) is a \"rejected\" event."
    )]
    Run {
        /// Game directory.
        game_dir: PathBuf,
        /// Mission name (`single.01`, `tutorial.01`, `campaign.01/mission.02`, any case; or a
        /// folder under MISSIONS). With --load: the save's (another is refused).
        #[arg(required_unless_present = "load")]
        mission: Option<String>,
        /// Run to tick N.
        #[arg(long)]
        ticks: u32,
        /// Orders file (JSON). With --load, the orders whose tick is after the save's apply
        /// (the earlier ones are not checked: their units may be gone since).
        #[arg(long)]
        orders: Option<PathBuf>,
        /// Report the state hash every K ticks (and at the last); with --record, record it
        /// every K ticks (32 without this option).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        hash_every: Option<u32>,
        /// Write a save at the end of tick TICK (to --save) and go on to --ticks.
        #[arg(long, value_name = "TICK", requires = "save")]
        save_at: Option<u32>,
        /// The save file of --save-at (written transactionally, with FILE.slot beside it).
        #[arg(long, value_name = "FILE", requires = "save_at")]
        save: Option<PathBuf>,
        /// Continue the game of a save from its tick (its mission, data and difficulty) to
        /// --ticks; the run's JSON is that of a run that never stopped.
        #[arg(long, value_name = "FILE")]
        load: Option<PathBuf>,
        /// Write a replay of the run: the mission, data layers, engine version, the command
        /// log with ticks and the state hash every --hash-every ticks (32 without it).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Apply the player clan's outcome to the campaign progress in this user data
        /// directory, as the game does (nothing without an outcome).
        #[arg(long)]
        user_dir: Option<PathBuf>,
        /// Difficulty level: easy, normal or hard (`Iron_3D.ini` `[LEVEL_RATIO]`); with
        /// --load, the save's.
        #[arg(long, default_value = "normal", value_parser = difficulty)]
        difficulty: DifficultyLevel,
        #[command(flatten)]
        mods: Mods,
    },
    /// Re-simulate a replay headless and check every recorded state hash.
    #[command(after_help = "JSON: {\"hash_checks\", \"mismatches\", \"first_mismatch\", \"final_hash\"} \
        (first_mismatch: null or {\"tick\", \"recorded\", \"computed\"}).\n\n\
        Exit status: 0 when every hash matches; 1 at the first mismatch (naming its tick), for a damaged file, \
        or a replay of other data, another engine version or a mission that does not load.")]
    Replay {
        /// Game directory.
        game_dir: PathBuf,
        /// The replay file (`sim run --record`).
        file: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        mods: Mods,
    },
}

fn difficulty(text: &str) -> Result<DifficultyLevel, String> {
    DifficultyLevel::parse(text).ok_or(format!("`{text}` is not easy, normal or hard"))
}

#[derive(Serialize)]
struct Hash {
    tick: u32,
    hash: String,
}

#[derive(Serialize)]
struct Object {
    id: u32,
    /// Its name as the original names it (`Human`, `SWW-7 Warrior`, `Small Factory`).
    name: String,
    /// The unit scheme or prototype key it was placed or built from.
    key: String,
    position: [f32; 3],
    heading: f32,
    speed: f32,
    radius: f32,
    state: &'static str,
    areal: i64,
    /// A building's efficiency (KPD; buildings only).
    #[serde(skip_serializing_if = "Option::is_none")]
    efficiency: Option<f32>,
    /// Its owner's clan index.
    clan: i32,
    /// The player's hero (only on the hero).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    hero: bool,
    /// The bot the hero is aboard (only on the hero aboard one).
    #[serde(skip_serializing_if = "Option::is_none")]
    aboard: Option<u32>,
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
    /// The clan type: `nature`, `player`, `enemy`, `neutral`.
    #[serde(rename = "type")]
    kind: String,
    /// The clan's minds (its robot cap) and how many are free.
    minds: u32,
    free_minds: u32,
    slot: Option<u32>,
    ore: f32,
    power: f32,
    /// The HUD's Ore and Energy bars (0..100).
    ore_percent: u8,
    energy_percent: u8,
    units: usize,
    buildings: usize,
    outcome: Option<&'static str>,
}

#[derive(Serialize)]
struct Report {
    mission: String,
    difficulty: &'static str,
    ticks: u32,
    tick_ms: u32,
    hashes: Vec<Hash>,
    objects: Vec<Object>,
    events: Vec<Event>,
    clans: Vec<Clan>,
    layers: Value,
}

/// Runs a `sim` subcommand.
pub fn run(cmd: HeadlessCommand) -> anyhow::Result<()> {
    let HeadlessCommand::Run {
        game_dir,
        mission,
        ticks,
        orders,
        hash_every,
        save_at,
        save,
        load,
        record,
        json,
        user_dir,
        difficulty,
        mods,
    } = cmd
    else {
        let HeadlessCommand::Replay { game_dir, file, json, mods } = cmd else { unreachable!("two variants") };
        return save_cmd::replay(&game_dir, &file, json, &mods);
    };
    let saved = load.as_deref().map(|f| save_cmd::read(f, FileKind::Save)).transpose()?;
    let given = match (&saved, &mission) {
        (Some(s), _) => &s.mission,
        (None, Some(m)) => m,
        (None, None) => return Err(UsageError("MISSION is required without --load".into()).into()),
    };
    let name = MissionName::parse(given).map_err(UsageError)?;
    let game = Arc::new(mods.open(&game_dir)?);
    let mut app = headless_app();
    app.add_plugins((MissionPlugin, SavePlugin));
    match (&saved, &load) {
        (Some(s), Some(file)) => {
            let asked = mission.as_deref().map(MissionName::parse).transpose().map_err(UsageError)?;
            iron3d_save::resume(&mut app, &game, s, asked.as_ref().map(MissionName::as_str))
                .map_err(|e| anyhow!("{}: {e}", file.display()))?;
        }
        _ => {
            load_headless_at(&mut app, &game, name.as_str(), difficulty).map_err(|e| anyhow!("{e}"))?;
        }
    }
    let start = app.world().resource::<GameClock>().tick;
    if let Some(at) = save_at.filter(|at| *at < start || *at > ticks) {
        return Err(UsageError(format!("--save-at {at} is not between tick {start} and --ticks {ticks}")).into());
    }
    let mut commands = match orders {
        None => Vec::new(),
        Some(file) => {
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            let usage = |e: String| anyhow::Error::from(UsageError(format!("{}: {e}", file.display())));
            // With --load, the orders up to the save's tick were applied before it: they are
            // neither checked (their units may be gone since) nor applied again.
            let after = saved.as_ref().map(|_| start);
            let entries = parse_orders(&text).map_err(usage)?;
            let entries = with_designs(&game, entries).map_err(usage)?;
            commands(app.world_mut(), entries, after).map_err(usage)?
        }
    };
    commands.sort_by(SimCommand::cmp_stable);
    let mut commands = commands.into_iter().peekable();
    loop {
        let now = app.world().resource::<GameClock>().tick;
        if let (Some(file), Some(at)) = (&save, save_at)
            && at == now
        {
            save_cmd::write(app.world(), file, FileKind::Save, name.as_str(), 32)?;
        }
        if now >= ticks {
            break;
        }
        let mut queue = app.world_mut().resource_mut::<CommandQueue>();
        while let Some(c) = commands.next_if(|c| c.tick <= now + 1) {
            queue.push(c);
        }
        app.update();
    }
    if let Some(file) = record {
        save_cmd::write(app.world(), &file, FileKind::Replay, name.as_str(), hash_every.unwrap_or(32))?;
    }
    if let Some(dir) = user_dir {
        apply_outcome(app.world(), &game, &name, &dir)?;
    }
    let report = report(app.world_mut(), name.as_str(), ticks, hash_every.unwrap_or(1), layers_json(&game)?);
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

/// Applies the player clan's recorded outcome to the campaign progress in `dir`
/// through the same call as the game (a repeat changes nothing).
fn apply_outcome(world: &World, game: &iron3d_vfs::GameDir, name: &MissionName, dir: &Path) -> anyhow::Result<()> {
    let player = world.get_resource::<MissionClans>().and_then(MissionClans::player);
    let Some(outcome) = player.and_then(|p| world.resource::<MissionOutcome>().of(p)) else { return Ok(()) };
    let campaign = Campaign::open(game);
    let mut progress = CampaignProgress::load(dir).map_err(anyhow::Error::msg)?;
    let level = world.resource::<Difficulty>().level.name();
    progress.apply(&campaign.fingerprint, name, outcome, level).map_err(anyhow::Error::msg)?;
    Ok(())
}

/// An order as the file gives it: production orders name a scheme or a research node,
/// resolved against the loaded mission.
enum FileOrder {
    Unit(Order),
    /// A build, or with `true` a batch, of a scheme.
    Build(SchemeOf, bool),
    Research(Value),
}

/// The scheme a build or batch order names.
enum SchemeOf {
    /// A unit scheme path.
    Named(String),
    /// A design's file, to read.
    File(String),
    /// A design's unit file, read.
    Design(Vec<u8>),
}

fn parse_order(v: &Value) -> Result<FileOrder, String> {
    match v.as_str() {
        Some("stop") => return Ok(FileOrder::Unit(Order::Stop)),
        Some("release") => return Ok(FileOrder::Unit(Order::Release)),
        Some("refit") => return Ok(FileOrder::Unit(Order::Refit)),
        Some("stop_build") => return Ok(FileOrder::Unit(Order::StopBuild)),
        Some("leave") => return Ok(FileOrder::Unit(Order::Leave)),
        Some("stand_ground") => return Ok(FileOrder::Unit(Order::StandGround)),
        Some("shutdown") => return Ok(FileOrder::Unit(Order::Shutdown)),
        _ => {}
    }
    let o = v.as_object().filter(|o| o.len() == 1).ok_or(
        "an order is \"stop\", \"release\", \"refit\", \"stop_build\", \"leave\", \"stand_ground\", \"shutdown\" \
             or an object with one key",
    )?;
    let (key, arg) = o.iter().next().ok_or("empty order")?;
    let path = || arg.as_i64().and_then(|p| i32::try_from(p).ok()).ok_or(format!("{key} takes a path id"));
    let unit = |o| Ok(FileOrder::Unit(o));
    match key.as_str() {
        "move_to" => match arg.as_array().map(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>()) {
            Some(Some(xy)) if xy.len() == 2 && xy.iter().all(|v| v.is_finite()) => {
                unit(Order::MoveTo([xy[0] as f32, xy[1] as f32]))
            }
            _ => Err("move_to takes [X, Y]".into()),
        },
        "follow_path" => unit(Order::FollowPath(path()?)),
        "patrol" => unit(Order::Patrol(path()?)),
        "construct" => site(arg).map(|s| FileOrder::Unit(Order::Construct(s))),
        "attack" | "haul" | "upgrade" | "capture" | "board" | "follow" => arg
            .as_u64()
            .and_then(|id| u32::try_from(id).ok())
            .map(|id| {
                FileOrder::Unit(match key.as_str() {
                    "attack" => Order::Attack(id),
                    "haul" => Order::Haul(id),
                    "capture" => Order::Capture(id),
                    "board" => Order::Board(id),
                    "follow" => Order::Follow(id),
                    _ => Order::Upgrade(id),
                })
            })
            .ok_or(format!("{key} takes an object id")),
        "pilot" => pilot(arg).map(|p| FileOrder::Unit(Order::Pilot(p))),
        "select_weapon" => match arg.as_u64().and_then(|n| u8::try_from(n).ok()).filter(|n| *n <= 9) {
            Some(n) => unit(Order::SelectWeapon(n)),
            None => Err("select_weapon takes 0 (every gun) or the gun's number 1..=9".into()),
        },
        "auto_driver" => match arg.as_u64().and_then(|n| u8::try_from(n).ok()).filter(|n| *n < AutoDriver::LEVELS) {
            Some(n) => unit(Order::AutoDriver(n)),
            None => {
                Err("auto_driver takes the level 0 (the player drives), 1 (its orders move it) or 2 (the AI)".into())
            }
        },
        // The original's SEARCH: on one building (a capture), by building type, or for enemies.
        "search" => match (arg.as_str(), arg.as_u64().and_then(|id| u32::try_from(id).ok())) {
            (Some("capture"), _) => unit(Order::Search(SearchFor::Capture)),
            (Some("enemies"), _) => unit(Order::Search(SearchFor::Enemies)),
            (_, Some(id)) => unit(Order::Capture(id)),
            _ => Err("search takes \"capture\", \"enemies\" or a building id".into()),
        },
        "guard" => guard(arg).map(FileOrder::Unit),
        "search_lodes" if arg.as_bool() == Some(true) => unit(Order::SearchLodes),
        "search_lodes" => Err("search_lodes takes true".into()),
        "build" | "batch" => match arg.as_str() {
            Some(scheme) if !scheme.trim().is_empty() => {
                Ok(FileOrder::Build(SchemeOf::Named(scheme.into()), key == "batch"))
            }
            _ => Err(format!("{key} takes a unit scheme path")),
        },
        "build_design" | "batch_design" => match arg.as_str() {
            Some(file) if !file.trim().is_empty() => {
                Ok(FileOrder::Build(SchemeOf::File(file.into()), key == "batch_design"))
            }
            _ => Err(format!("{key} takes a design file")),
        },
        "research" if arg.is_string() || arg.as_u64().is_some_and(|n| u32::try_from(n).is_ok()) => {
            Ok(FileOrder::Research(arg.clone()))
        }
        "research" => Err("research takes a node index or name".into()),
        other => Err(format!("unknown order {other:?}")),
    }
}

/// A guard: `ID`, `[X, Y]` or `[X, Y, Z]`, or `{"object": ID | "at": [X, Y(, Z)], "radius": R}`.
fn guard(arg: &Value) -> Result<Order, String> {
    const USAGE: &str =
        "guard takes an object id, [X, Y(, Z)] or {\"object\": ID | \"at\": [X, Y(, Z)], \"radius\": R}";
    let id = |v: &Value| v.as_u64().and_then(|id| u32::try_from(id).ok());
    let place = |v: &Value| match v.as_array().map(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>()) {
        Some(Some(p)) if (2..=3).contains(&p.len()) => {
            Some(Ward::Place { at: [p[0] as f32, p[1] as f32], z: p.get(2).map(|z| *z as f32) })
        }
        _ => None,
    };
    let ward = |v: &Value| id(v).map(Ward::Object).or_else(|| place(v));
    let (ward, radius) = match arg.as_object() {
        None => (ward(arg).ok_or(USAGE)?, 0.0),
        Some(o) => {
            if let Some(k) = o.keys().find(|k| !["object", "at", "radius"].contains(&k.as_str())) {
                return Err(format!("{USAGE}: unknown key {k:?}"));
            }
            let ward = match (o.get("object"), o.get("at")) {
                (Some(v), None) => id(v).map(Ward::Object),
                (None, Some(v)) => place(v),
                _ => None,
            };
            let radius = match o.get("radius") {
                None => Some(0.0),
                Some(r) => r.as_f64().filter(|r| *r >= 0.0).map(|r| r as f32),
            };
            (ward.ok_or(USAGE)?, radius.ok_or(format!("{USAGE}: the radius is a number, 0 or more"))?)
        }
    };
    let g = Guard { ward, radius };
    if g.finite() { Ok(Order::Guard(g)) } else { Err(format!("{USAGE}: the place and radius are finite numbers")) }
}

/// A building site: `{"scheme": S, "at": [X, Y], "angle": A}`, the scheme a `BuildDat.lst`
/// category by name (any letter case), the angle in radians (optional, 0), a whole
/// number of the original's 0.05 rad turns.
fn site(arg: &Value) -> Result<Site, String> {
    const USAGE: &str = "construct takes {\"scheme\": S, \"at\": [X, Y], \"angle\": A}";
    let o = arg.as_object().ok_or(USAGE)?;
    if let Some(k) = o.keys().find(|k| !["scheme", "at", "angle"].contains(&k.as_str())) {
        return Err(format!("{USAGE}: unknown key {k:?}"));
    }
    let name = o.get("scheme").and_then(Value::as_str).ok_or(USAGE)?;
    let table = iron3d_formats::registry::BuildCategory::TABLE;
    let scheme = table.iter().position(|(_, n, _)| n.eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|r| r.1).collect();
        format!("construct: unknown scheme {name:?} (one of {})", names.join(", "))
    })?;
    let at =
        match o.get("at").and_then(Value::as_array).map(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<_>>>()) {
            Some(Some(xy)) if xy.len() == 2 => [xy[0] as f32, xy[1] as f32],
            _ => return Err(USAGE.into()),
        };
    let angle = match o.get("angle") {
        None => 0.0,
        Some(a) => a.as_f64().ok_or(USAGE)? as f32,
    };
    Site::new(scheme as u8, at, angle).map_err(|e| format!("construct: {e}"))
}

/// A pilot input: `{"throttle", "turn", "strafe", "aim_mrad", "fire", "fire_missiles",
/// "fire_all", "camouflage", "turret_lock", "target"}`, each optional.
fn pilot(arg: &Value) -> Result<PilotInput, String> {
    const FIELDS: [&str; 10] = [
        "throttle",
        "turn",
        "strafe",
        "aim_mrad",
        "fire",
        "fire_missiles",
        "fire_all",
        "camouflage",
        "turret_lock",
        "target",
    ];
    let o =
        arg.as_object().ok_or_else(|| format!("pilot takes {{{}}}", FIELDS.map(|f| format!("{f:?}")).join(", ")))?;
    if let Some(k) = o.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("pilot has no field {k:?}"));
    }
    let int = |k: &str, lo: i64, hi: i64| match o.get(k) {
        None => Ok(0),
        Some(v) => {
            v.as_i64().filter(|n| (lo..=hi).contains(n)).ok_or(format!("pilot {k} is a whole number {lo}..{hi}"))
        }
    };
    let flag = |k: &str| match o.get(k) {
        None => Ok(false),
        Some(v) => v.as_bool().ok_or(format!("pilot {k} is true or false")),
    };
    Ok(PilotInput {
        throttle: int("throttle", -127, 127)? as i8,
        turn: int("turn", -127, 127)? as i8,
        strafe: int("strafe", -127, 127)? as i8,
        aim_mrad: int("aim_mrad", i64::from(i16::MIN), i64::from(i16::MAX))? as i16,
        fire: flag("fire")?,
        fire_missiles: flag("fire_missiles")?,
        fire_all: flag("fire_all")?,
        camouflage: flag("camouflage")?,
        turret_lock: flag("turret_lock")?,
        target: match o.get("target") {
            None => None,
            Some(v) => Some(v.as_u64().and_then(|t| u32::try_from(t).ok()).ok_or("pilot target is an object id")?),
        },
    })
}

/// One entry of an orders file.
type Entry = (u32, Vec<u32>, FileOrder, bool);

/// The entries of an orders file, `(tick, units, order, queued)`; errors name the entry.
fn parse_orders(text: &str) -> Result<Vec<Entry>, String> {
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
            let queued = match e.get("queued") {
                None => false,
                Some(q) => q.as_bool().ok_or_else(|| entry("\"queued\" is true or false".into()))?,
            };
            Ok((tick, units, order, queued))
        })
        .collect()
}

/// The entries with each design read: a file on disk, else a game path, which must
/// read as a robot's unit file. Errors name the entry.
fn with_designs(game: &GameDir, entries: Vec<Entry>) -> Result<Vec<Entry>, String> {
    let design = |file: &str| -> Result<Vec<u8>, String> {
        let bytes = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(_) => game.read_file(file).map_err(|e| format!("design {file}: {e}"))?,
        };
        let dat = UnitDat::parse(&bytes).map_err(|e| format!("design {file}: {e}"))?;
        match dat.is_building() {
            true => Err(format!("design {file} is a building's scheme, not a warbot's")),
            false => Ok(bytes),
        }
    };
    entries
        .into_iter()
        .enumerate()
        .map(|(i, (tick, units, order, queued))| {
            let order = match order {
                FileOrder::Build(SchemeOf::File(file), batch) => {
                    FileOrder::Build(SchemeOf::Design(design(&file).map_err(|e| format!("entry {i}: {e}"))?), batch)
                }
                other => other,
            };
            Ok((tick, units, order, queued))
        })
        .collect()
}

/// The commands of the parsed entries against the loaded mission: schemes named in
/// the command path's table, research nodes by index (a name per unit's clan), every
/// unit checked (unit orders: it exists and moves; build and research: production's
/// static checks). Entries of a tick up to `after` are left out unchecked. Errors name
/// the entry.
fn commands(world: &mut World, entries: Vec<Entry>, after: Option<u32>) -> Result<Vec<SimCommand>, String> {
    let mut out = Vec::new();
    let due = |e: &(usize, Entry)| after.is_none_or(|t| e.1.0 > t);
    for (i, (tick, units, order, queued)) in entries.into_iter().enumerate().filter(due) {
        let entry = |m: String| format!("entry {i}: {m}");
        let orders: Vec<(Vec<u32>, Order)> = match order {
            FileOrder::Unit(o) => vec![(units, o)],
            FileOrder::Build(scheme, batch) => {
                let r = match scheme {
                    SchemeOf::Named(name) => world.resource_mut::<SchemeNames>().intern(&name),
                    SchemeOf::Design(bytes) => Designs::keep(world, bytes),
                    SchemeOf::File(file) => Err(format!("design {file} was not read")),
                };
                let r = r.map_err(entry)?;
                vec![(units, if batch { Order::Batch(r) } else { Order::Build(r) })]
            }
            FileOrder::Research(node) => match (node.as_u64(), node.as_str()) {
                (Some(n), _) => vec![(units, Order::Research(n as u32))],
                (_, Some(name)) => units
                    .iter()
                    .map(|&u| Ok((vec![u], Order::Research(iron3d_production::research_node(world, u, name)?))))
                    .collect::<Result<_, String>>()
                    .map_err(entry)?,
                _ => Vec::new(),
            },
        };
        for (units, order) in orders {
            let command = SimCommand { tick, units, order, queued };
            check_units(world, &command).map_err(entry)?;
            out.push(command);
        }
    }
    Ok(out)
}

/// Every unit named exists and moves (unit orders) or passes production's checks.
fn check_units(world: &mut World, command: &SimCommand) -> Result<(), String> {
    for &id in &command.units {
        let entity = world.resource::<ObjectTable>().entity_of(id).ok_or(format!("no object with id {id}"))?;
        if !command.order.is_production() && world.get::<Movable>(entity).is_none() {
            return Err(format!("object {id} does not move"));
        }
    }
    if let Order::Attack(target) = command.order {
        let entity = world.resource::<ObjectTable>().entity_of(target);
        if entity.is_none_or(|e| world.get::<Health>(e).is_none()) {
            return Err(format!("attack target {target} is not an object that can be damaged"));
        }
    }
    if let Order::Capture(target)
    | Order::Board(target)
    | Order::Follow(target)
    | Order::Guard(Guard { ward: Ward::Object(target), .. }) = command.order
        && world.resource::<ObjectTable>().entity_of(target).is_none()
    {
        return Err(format!("capture, board, follow or guard target {target} is not an object"));
    }
    if let Order::Haul(mine) = command.order {
        command.units.iter().try_for_each(|&unit| iron3d_behavior::haul::check(world, unit, mine))?;
    }
    if command.order == Order::SearchLodes {
        for &unit in &command.units {
            let class = world.resource::<ObjectTable>().entity_of(unit).and_then(|e| world.get::<UnitClass>(e));
            iron3d_behavior::lodes::refusal(unit, class.map(|c| c.0))?;
        }
    }
    iron3d_production::check_command(world, command)
}

/// Every clan record: its GetSuperAI slot, economy, objects and outcome.
fn clans(world: &mut World) -> Vec<Clan> {
    let records: Vec<(u32, Option<u32>)> = world
        .get_resource::<iron3d_superai::SuperAis>()
        .map(|a| a.clans.iter().map(|ai| (ai.clan.index, ai.slot)).collect())
        .unwrap_or_default();
    let mut q = world.query::<(&Owner, &SimObject)>();
    let owned: Vec<(i32, ObjectKind)> = q.iter(world).map(|(o, s)| (o.clan, s.kind)).collect();
    let minds = iron3d_production::minds::current(world);
    let types: Vec<u32> =
        world.get_resource::<MissionClans>().map(|c| c.clans.iter().map(|c| c.mode).collect()).unwrap_or_default();
    records
        .into_iter()
        .map(|(index, slot)| {
            let (ore, power) = iron3d_economy::clan_summary(world, index);
            let bars =
                world.get_resource::<iron3d_core::EconomyBoard>().map(|b| b.of(index as i32)).unwrap_or_default();
            let count = |k: ObjectKind| owned.iter().filter(|(c, kind)| *c == index as i32 && *kind == k).count();
            let (minds, free_minds) = minds.get(&(index as i32)).copied().unwrap_or_default();
            Clan {
                index,
                kind: types.get(index as usize).map_or_else(String::new, |&t| iron3d_core::ClanType::name(t)),
                minds,
                free_minds,
                slot,
                ore,
                power,
                ore_percent: bars.ore_percent,
                energy_percent: bars.energy_percent,
                units: count(ObjectKind::Unit),
                buildings: count(ObjectKind::Building),
                outcome: world.resource::<MissionOutcome>().of(index).map(|o| o.name()),
            }
        })
        .collect()
}

fn report(world: &mut World, mission: &str, ticks: u32, every: u32, layers: Value) -> Report {
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
        Option<&UnitClass>,
        Option<&Name>,
        (&Owner, Option<&Aboard>, Option<&MissionObject>),
    ), With<SimObject>>();
    let mut objects: Vec<Object> = q
        .iter(world)
        .map(|(id, t, kin, proxy, status, class, name, (owner, aboard, object))| Object {
            id: id.0,
            name: name.map(|n| n.as_str().to_string()).unwrap_or_default(),
            key: object.map(|o| o.key.clone()).unwrap_or_default(),
            // A building's, filled in below.
            efficiency: class.filter(|c| c.registers()).map(|_| 0.0),
            position: t.position,
            heading: t.heading(),
            speed: kin.map_or(0.0, |k| k.speed),
            radius: proxy.map_or(0.0, |p| p.radius),
            state: status.map_or("idle", |s| s.state.name()),
            areal: status.and_then(|s| s.areal).map_or(-1, i64::from),
            clan: owner.clan,
            hero: class.is_some_and(|c| c.is_hero()),
            aboard: aboard.map(|a| a.0),
        })
        .collect();
    objects.sort_by_key(|o| o.id);
    for o in &mut objects {
        o.efficiency = o.efficiency.map(|_| iron3d_economy::efficiency(world, o.id));
    }
    let clans = clans(world);
    let difficulty = world.resource::<Difficulty>().level.name();
    Report { mission: mission.into(), difficulty, ticks, tick_ms: TICK_MS, hashes, objects, events, clans, layers }
}
