//! A host and clients in one process over UDP on 127.0.0.1, stepped one tick per
//! update (simulated time).

use crate::schema::{self, Gmsg, WireOrder};
use crate::*;
use bevy_app::App;
use iron3d_core::{
    GameClock, MissionClans, ObjectTable, Order, OriginalObjectId, Owner, Pause, PresentedTransform, SimObject,
    SimTransform,
};
use iron3d_sim::StateHash;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

pub(super) const MISSION: &str = "single.01";

pub(super) fn game() -> Arc<iron3d_vfs::GameDir> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo");
    Arc::new(iron3d_vfs::GameDir::open(root, iron3d_formats::ReadOptions::compatible()).unwrap())
}

pub(super) struct Session {
    pub(super) host: App,
    pub(super) addr: SocketAddr,
    pub(super) clients: Vec<App>,
    /// The game data of the host and of the games joining.
    game: Arc<iron3d_vfs::GameDir>,
}

impl Session {
    pub(super) fn new(settings: HostSettings, clients: usize) -> Self {
        Self::on(game(), HostSettings { mission: MISSION.into(), ..settings }, clients)
    }

    /// A host of `settings.mission` of `game` with `clients` bots.
    pub(super) fn on(game: Arc<iron3d_vfs::GameDir>, settings: HostSettings, clients: usize) -> Self {
        // Tests never take the machine's discovery port.
        let discovery_port = settings.discovery_port.filter(|p| *p == 0);
        let settings = HostSettings { discovery_port, ..settings };
        let (host, addr) = host_app(&game, settings, 0, Clock::Stepped).unwrap();
        let mut s = Self { host, addr, clients: Vec::new(), game };
        (0..clients).for_each(|i| s.join(&format!("bot-{i}")));
        s.step(12);
        s
    }

    pub(super) fn join(&mut self, name: &str) {
        self.clients.push(client_app(self.addr, name, Clock::Stepped).unwrap());
    }

    pub(super) fn step(&mut self, ticks: u32) {
        for _ in 0..ticks {
            self.host.update();
            self.clients.iter_mut().for_each(App::update);
        }
    }

    pub(super) fn session(&self, client: usize) -> &ClientSession {
        self.clients[client].world().resource::<ClientSession>()
    }

    /// Units of `clan` on the host, by id.
    pub(super) fn units(&mut self, clan: i32) -> Vec<u32> {
        let mut q = self.host.world_mut().query_filtered::<(&OriginalObjectId, &Owner), With<iron3d_core::Movable>>();
        let mut v: Vec<u32> = q.iter(self.host.world()).filter(|(_, o)| o.clan == clan).map(|(id, _)| id.0).collect();
        v.sort_unstable();
        v
    }

    pub(super) fn owners(&mut self) -> Vec<Owner> {
        let mut q = self.host.world_mut().query_filtered::<&Owner, With<SimObject>>();
        q.iter(self.host.world()).copied().collect()
    }

    pub(super) fn order(&mut self, client: usize, units: Vec<u32>, order: Order) -> u32 {
        self.clients[client].world_mut().resource_mut::<OutgoingOrders>().order(units, WireOrder::Plain(order), false)
    }

    fn host_order(&mut self, unit: u32) -> Order {
        let e = self.host.world().resource::<ObjectTable>().entity_of(unit).unwrap();
        self.host.world().get::<iron3d_behavior::Navigator>(e).unwrap().order
    }
}

pub(super) fn playing_clans(app: &App) -> Vec<u32> {
    app.world().resource::<MissionClans>().clans.iter().filter(|c| c.plays()).map(|c| c.index).collect()
}

#[test]
fn players_get_numbers_from_one_and_the_playing_clans_in_turn() {
    let mut s = Session::new(HostSettings::default(), 3);
    let clans = playing_clans(&s.host);
    let got: Vec<(Option<u16>, Option<u32>)> = (0..3).map(|i| (s.session(i).player, s.session(i).clan)).collect();
    let mut numbers: Vec<u16> = got.iter().map(|g| g.0.unwrap()).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3]);
    for (player, clan) in got {
        assert_eq!(clan, Some(clans[usize::from(player.unwrap() - 1) % clans.len()]));
    }
    assert_eq!(s.session(0).mission.as_deref(), Some(MISSION));
    let players = &s.session(0).players;
    assert_eq!(players.len(), 3, "the others were announced");
    assert_eq!(players.values().filter(|p| p.local).map(|p| p.name.as_str()).collect::<Vec<_>>(), ["bot-0"]);
    let watcher = s.host.world().resource::<NetWatcher>();
    assert!(watcher.players.keys().all(|n| *n != 0));
    // The join moved each clan's objects to its first player, all in one tick.
    let owners = s.owners();
    for (i, clan) in clans.iter().enumerate() {
        let player = Some(i as u8 + 1);
        let of_clan: Vec<&Owner> = owners.iter().filter(|o| o.clan == *clan as i32).collect();
        assert!(!of_clan.is_empty());
        assert!(of_clan.iter().all(|o| o.player == player), "clan {clan}");
    }
    let modes: Vec<u32> =
        s.host.world().resource::<MissionClans>().clans.iter().filter(|c| c.plays()).map(|c| c.mode).collect();
    assert!(modes.iter().all(|m| *m == 1), "no computer plays a player's clan: {modes:?}");
}

#[test]
fn every_object_is_mirrored_once_and_checkpoints_match() {
    // Every change sent every tick, so the mirror can be compared with the host's object.
    let mut s = Session::new(HostSettings { moving_priority: 1.0, ..HostSettings::default() }, 2);
    let first = s.units(playing_clans(&s.host)[0] as i32)[0];
    let to = [40.0, 40.0];
    s.order(0, vec![first], Order::MoveTo(to));
    s.step(140);
    let mut q = s.host.world_mut().query_filtered::<&OriginalObjectId, With<SimObject>>();
    let mut host_ids: Vec<u32> = q.iter(s.host.world()).map(|i| i.0).collect();
    host_ids.sort_unstable();
    for c in 0..2 {
        let mirrors: Vec<u32> = s.clients[c].world().resource::<Mirrors>().by_id.keys().copied().collect();
        assert_eq!(mirrors, host_ids, "client {c} mirrors every object once");
        let checks = s.clients[c].world().resource::<Checkpoints>();
        assert!(checks.checks >= 4 && checks.skipped == 0, "client {c}: {checks:?}");
        assert_eq!(checks.mismatches, 0, "client {c}");
    }
    // The moving unit's mirror stands where the host's does (to the quantum).
    let host_e = s.host.world().resource::<ObjectTable>().entity_of(first).unwrap();
    let host_at = s.host.world().get::<iron3d_core::SimTransform>(host_e).unwrap().position;
    let client_e = s.clients[1].world().resource::<ObjectTable>().entity_of(first).unwrap();
    let client_at = s.clients[1].world().get::<iron3d_core::SimTransform>(client_e).unwrap().position;
    assert!(
        host_at.iter().zip(client_at).all(|(a, b)| (a - b).abs() <= 0.5 / POSITION_STEPS),
        "{host_at:?} {client_at:?}"
    );
}

#[test]
fn orders_reach_only_the_senders_units_and_are_acknowledged() {
    let mut s = Session::new(HostSettings::default(), 2);
    let clans = playing_clans(&s.host);
    let player = s.session(0).player.unwrap();
    let (mine, theirs) = {
        let clan = clans[usize::from(player - 1) % clans.len()] as i32;
        let other = clans.iter().map(|c| *c as i32).find(|c| *c != clan).unwrap();
        (s.units(clan), s.units(other))
    };
    let before = s.host_order(theirs[0]);
    s.order(0, vec![mine[0], theirs[0]], Order::MoveTo([10.0, 12.0]));
    s.order(0, vec![theirs[1]], Order::Stop);
    s.step(4);
    assert_eq!(s.host_order(mine[0]), Order::MoveTo([10.0, 12.0]));
    assert_eq!(s.host_order(theirs[0]), before, "another clan's unit is not ordered");
    assert_eq!((s.session(0).orders_acked, s.session(0).orders_refused), (1, 1));
}

#[test]
fn another_protocol_version_is_refused_with_a_message() {
    let mut s = Session::new(HostSettings::default(), 0);
    s.join("old");
    s.clients[0].world_mut().resource_mut::<ClientSession>().version = PROTOCOL_VERSION + 1;
    s.step(12);
    let refused = s.session(0).refused.clone().unwrap();
    assert!(refused.contains(&format!("protocol version {}", PROTOCOL_VERSION + 1)), "{refused}");
    assert!(refused.contains(&format!("the host speaks {PROTOCOL_VERSION}")));
    assert!(s.host.world().resource::<NetWatcher>().players.is_empty());
}

#[test]
fn a_client_of_other_data_layers_is_refused_with_both_lists() {
    let mut s = Session::new(HostSettings::default(), 0);
    let host = s.host.world().resource::<iron3d_core::DataLayers>().clone();
    assert_eq!(host, iron3d_mission::data_layers(&game()).unwrap(), "the host plays its game's layers");
    let mut modded = host.clone();
    modded.0.push(iron3d_core::DataLayer { name: "mod:other".into(), fingerprint: 7 });
    s.join("modded");
    s.clients[0].world_mut().resource_mut::<ClientSession>().data = layers::encode(&modded);
    s.join("same");
    s.clients[1].world_mut().resource_mut::<ClientSession>().data = layers::encode(&host);
    s.step(12);
    let refused = s.session(0).refused.clone().unwrap();
    assert!(refused.contains(&modded.to_string()) && refused.contains(&host.to_string()), "{refused}");
    assert_eq!(s.session(1).refused, None);
    let names: Vec<String> = s.host.world().resource::<NetWatcher>().players.values().map(|p| p.name.clone()).collect();
    assert_eq!(names, ["same"]);
}

#[test]
fn malformed_packets_are_dropped_and_a_flooding_client_is_cut_off() {
    let settings = HostSettings { max_bad_packets: 3, ..HostSettings::default() };
    let mut s = Session::new(settings, 2);
    let objects = s.owners().len();
    let good = schema::encode(&[Gmsg::Ready { ready: true }]).unwrap();
    let garbage = [vec![], good[..5].to_vec(), vec![0xFF; 40], {
        let mut g = good.clone();
        g[0] = 0x55;
        g
    }];
    for g in &garbage[..2] {
        s.clients[1].world_mut().write_message(HostBound(g.clone()));
        s.step(1);
    }
    assert_eq!(s.host.world().resource::<NetWatcher>().players.len(), 2, "two bad packets are tolerated");
    for g in &garbage[2..] {
        s.clients[1].world_mut().write_message(HostBound(g.clone()));
        s.step(1);
    }
    s.step(20);
    assert_eq!(s.host.world().resource::<NetWatcher>().players.len(), 1, "the third cut the client off");
    assert_eq!(s.owners().len(), objects, "nothing duplicated or lost");
    assert!(s.owners().iter().all(|o| o.player.is_none_or(|p| p == 1)), "no object of the departed player");
}

#[test]
fn a_departed_players_objects_go_to_the_computer_or_are_deleted() {
    for policy in [LeavePolicy::Transfer, LeavePolicy::Delete] {
        let mut s = Session::new(HostSettings { leave: policy, rejoin_seconds: 1, ..HostSettings::default() }, 2);
        let clan = s.session(1).clan.unwrap();
        let before = s.units(clan as i32);
        assert!(!before.is_empty());
        let player = s.session(1).player.unwrap() as u8;
        s.clients.pop();
        s.step(400);
        let owners = s.owners();
        assert!(owners.iter().all(|o| o.player != Some(player)), "{policy:?}: no object keeps the departed owner");
        let left = s.units(clan as i32);
        match policy {
            LeavePolicy::Transfer => {
                assert!(before.iter().all(|u| left.contains(u)), "every unit stays the clan's (it may build more)");
                let c = s.host.world().resource::<MissionClans>().clans.iter().find(|c| c.index == clan).unwrap().mode;
                assert_eq!(c, 2, "the computer plays the clan on");
            }
            LeavePolicy::Delete => assert!(before.iter().all(|u| !left.contains(u)), "the departed player's are gone"),
        }
        let session = s.session(0);
        assert!(!session.players.contains_key(&u16::from(player)), "the others were told");
    }
}

#[test]
fn a_pause_applies_at_one_tick_for_everyone_and_resumes() {
    let mut s = Session::new(HostSettings::default(), 2);
    s.clients[0].world_mut().resource_mut::<OutgoingOrders>().messages.push(Gmsg::PauseRemotePlayer { paused: true });
    s.step(3);
    let at = s.host.world().resource::<GameClock>().tick;
    s.step(10);
    assert_eq!(s.host.world().resource::<GameClock>().tick, at, "no tick runs while paused");
    assert_eq!(*s.host.world().resource::<bevy_state::state::State<Pause>>().get(), Pause::Paused);
    for c in 0..2 {
        assert_eq!(s.session(c).phase, Some((schema::SessionPhase::Paused as u8, at)));
    }
    s.clients[1].world_mut().resource_mut::<OutgoingOrders>().messages.push(Gmsg::PauseRemotePlayer { paused: false });
    s.step(5);
    assert!(s.host.world().resource::<GameClock>().tick > at);
}

#[test]
fn a_duplicate_create_makes_no_second_mirror() {
    let mut s = Session::new(HostSettings::default(), 1);
    let id = s.units(playing_clans(&s.host)[0] as i32)[0];
    let copy = NetObject { id, kind: 1, key: String::new(), name: String::new(), animation: None };
    s.host.world_mut().spawn((bevy_replicon::prelude::Replicated, copy, NetPose::default(), NetState::default()));
    s.step(4);
    let client = s.clients[0].world_mut();
    let mut q = client.query_filtered::<&OriginalObjectId, With<SimObject>>();
    assert_eq!(q.iter(client).filter(|i| i.0 == id).count(), 1);
    let mut dup = client.query_filtered::<&NetObject, With<DuplicateMirror>>();
    assert_eq!(dup.iter(client).map(|o| o.id).collect::<Vec<_>>(), [id]);
}

#[test]
fn a_session_log_replays_to_the_same_world_state() {
    let mut s = Session::new(HostSettings { rejoin_seconds: 0, ..HostSettings::default() }, 2);
    let clans = playing_clans(&s.host);
    let a = s.units(s.session(0).clan.unwrap() as i32);
    let b = s.units(s.session(1).clan.unwrap() as i32);
    s.order(0, a[..3].to_vec(), Order::MoveTo([30.0, 20.0]));
    s.order(1, vec![b[0]], Order::Attack(a[0]));
    s.step(30);
    disconnect(s.clients[1].world_mut());
    s.clients.pop();
    s.step(60);
    let checks = s.clients[0].world().resource::<Checkpoints>();
    assert!(
        checks.checks >= 2 && checks.mismatches == 0,
        "between checkpoints changes wait; at them all are sent: {checks:?}"
    );
    let (tick, hash) = s.host.world().resource::<StateHash>().last().unwrap();
    let text = s.host.world().resource::<SessionLog>().to_ron().unwrap();
    let log = SessionLog::from_ron(&text).unwrap();
    assert!(log.entries.iter().any(|e| matches!(e, LogEntry::Change { change: OwnershipChange::Leave { .. }, .. })));
    assert_eq!(clans.len(), 2);

    let mut replay = iron3d_sim::headless_app();
    replay.add_plugins((iron3d_mission::MissionPlugin, NetSimPlugin));
    iron3d_mission::load_headless(&mut replay, &game(), MISSION).unwrap();
    assert_eq!(log.layers.len(), 1, "the layers are recorded: {:?}", log.layers);
    let other = SessionLog { layers: vec!["mod:x 0000000000000001".into()], ..log.clone() };
    let e = other.queue_into(replay.world_mut()).unwrap_err();
    assert!(e.contains("mod:x") && e.contains(&log.layers[0]), "{e}");
    log.queue_into(replay.world_mut()).unwrap();
    while replay.world().resource::<GameClock>().tick < tick {
        replay.update();
    }
    assert_eq!(replay.world().resource::<StateHash>().last(), Some((tick, hash)));
}

/// Eight bots on the host for `seconds` of simulated play: all admitted, every
/// checkpoint compared and equal, every order acknowledged.
fn eight_bots_play(seconds: u32) {
    let settings = HostSettings { mission: MISSION.into(), discovery_port: None, ..HostSettings::default() };
    let (mut host, addr) = host_app(&game(), settings, 0, Clock::Stepped).unwrap();
    let mut bots: Vec<bots::Bot> = (0..8).map(|i| bots::Bot::join(addr, i, 7, Clock::Stepped).unwrap()).collect();
    let ticks = seconds * 1000 / iron3d_core::TICK_MS;
    for _ in 0..ticks {
        host.update();
        bots.iter_mut().for_each(bots::Bot::step);
    }
    let checkpoints = ticks / HostSettings::default().checkpoint_every;
    for b in &bots {
        let r = b.report();
        assert_ne!(r.id, 0, "{r:?}");
        assert_eq!(r.hash_mismatches, 0, "{r:?}");
        assert!(r.hash_checks + 2 >= checkpoints, "{r:?}: {checkpoints} checkpoints sent");
        assert!(r.orders * bots::ORDER_EVERY + 2 * bots::ORDER_EVERY >= ticks, "{r:?}");
    }
}

/// The test command's short run (five checkpoints); the long one is `.ci/run`'s.
#[test]
fn eight_bots_play_twelve_simulated_seconds_with_equal_hashes() {
    eight_bots_play(12);
}

/// Run by `.ci/run` (about nine minutes in the ci profile).
#[test]
#[ignore = "long: ten simulated minutes; .ci/run runs it"]
fn eight_bots_play_ten_simulated_minutes_with_equal_hashes() {
    eight_bots_play(600);
}

/// A game joining `s` (it loads the host's mission), stepped until it plays; returns
/// its index among the clients.
pub(super) fn joined_game(s: &mut Session) -> usize {
    let mut app = iron3d_sim::headless_app();
    let role = NetRole::Join { server: s.addr, name: "Ann".into() };
    app.add_plugins((iron3d_mission::MissionPlugin, NetGamePlugin { role, game: Arc::clone(&s.game) }));
    app.finish();
    app.cleanup();
    s.clients.push(app);
    s.step(40);
    s.clients.len() - 1
}

/// Each object's encoded replicated components (`SimState::replicated`), by id.
fn replicated_bytes(world: &mut World) -> BTreeMap<u32, Vec<(&'static str, Vec<u8>)>> {
    let mut q = world.query_filtered::<(Entity, &OriginalObjectId), With<SimObject>>();
    let objects: Vec<(Entity, u32)> = q.iter(world).map(|(e, id)| (e, id.0)).collect();
    let entities: Vec<Entity> = objects.iter().map(|o| o.0).collect();
    let mut out: BTreeMap<u32, Vec<_>> = objects.iter().map(|o| (o.1, Vec::new())).collect();
    for c in world.resource::<iron3d_core::SimState>().replicated() {
        let each = (c.each)(world, &entities, &mut |k, bytes| {
            out.get_mut(&objects[k].1).unwrap().push((c.tag, bytes.to_vec()));
        });
        each.unwrap();
    }
    out
}

/// What a crate declares replicated (`Hashing::replicated`: here core's owner and
/// auto-driver levels, combat's hit points and who is aboard a bot) reaches a joined game as the host holds it, with no line of
/// net naming the type; a bot, whose plugins declare no hit points, takes the owner
/// and skips the rest.
#[test]
fn the_declared_replicated_components_reach_a_joined_game_as_the_host_holds_them() {
    let mut s = Session::new(HostSettings { moving_priority: 1.0, ..HostSettings::default() }, 1);
    let game = joined_game(&mut s);
    let registry = s.host.world().resource::<iron3d_core::SimState>();
    let tags: Vec<&str> = registry.replicated().map(|c| c.tag).collect();
    assert_eq!(tags, ["behavior.aboard", "combat.health", "core.auto_driver", "core.owner"]);
    let ids: std::collections::BTreeSet<u16> = registry.components().iter().map(|c| state::column(c.tag)).collect();
    assert_eq!(ids.len(), registry.components().len(), "no two tags travel under one id");
    // Changed behind the simulation's back on the host only.
    let clan = playing_clans(&s.host)[1] as i32;
    let unit = s.units(playing_clans(&s.host)[0] as i32)[0];
    let e = s.host.world().resource::<ObjectTable>().entity_of(unit).unwrap();
    let mut health = s.host.world_mut().get_mut::<iron3d_core::Health>(e).unwrap();
    health.hp = (health.max / 3.0).floor();
    let wounded = *health;
    s.host.world_mut().get_mut::<Owner>(e).unwrap().clan = clan;
    s.step(20);
    let host = replicated_bytes(s.host.world_mut());
    assert!(host[&unit].iter().any(|(tag, _)| *tag == "combat.health"));
    assert_eq!(replicated_bytes(s.clients[game].world_mut()), host, "every object's, byte for byte");
    let mirror = s.clients[game].world().resource::<Mirrors>().by_id[&unit];
    assert_eq!(s.clients[game].world().get::<iron3d_core::Health>(mirror), Some(&wounded));
    assert_eq!(s.clients[game].world().get::<Owner>(mirror).map(|o| o.clan), Some(clan));
    let bot = s.clients[0].world_mut();
    let mirror = bot.resource::<Mirrors>().by_id[&unit];
    assert_eq!(bot.get::<Owner>(mirror).map(|o| o.clan), Some(clan));
    assert!(bot.get::<iron3d_core::Health>(mirror).is_none(), "a bot keeps no hit points");
    assert_eq!(bot.resource::<Checkpoints>().mismatches, 0);
}

fn signed_objects(s: &mut Session) -> usize {
    let host = s.host.world_mut();
    host.query_filtered::<(), (With<bevy_replicon::prelude::Signature>, With<NetObject>)>().iter(host).count()
}

/// A game joining: it loads the host's mission from its own data, keeps its own
/// objects for the host's (no second instance, though the host had dropped the
/// objects' signatures before it came), simulates nothing itself, and sends the
/// commands its player gives to the host.
#[test]
fn a_joining_game_loads_the_hosts_mission_and_follows_the_host() {
    let mut s = Session::new(HostSettings::default(), 0);
    s.step(SIGNED_TICKS + 3);
    assert!(s.host.world().resource::<GameClock>().tick > SIGNED_TICKS + 1, "the host plays alone first");
    assert_eq!(signed_objects(&mut s), 0, "replicated objects keep no signature");
    joined_game(&mut s);
    let client = &mut s.clients[0];
    assert_eq!(client.world().resource::<iron3d_mission::LoadedMission>().name, MISSION);
    let clan = client.world().resource::<ClientSession>().clan.unwrap();
    let mut q = client.world_mut().query_filtered::<&OriginalObjectId, With<SimObject>>();
    let mut ids: Vec<u32> = q.iter(client.world()).map(|i| i.0).collect();
    let local = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), local, "one entity per object");
    let mirrors = client.world().resource::<Mirrors>().by_id.len();
    assert_eq!(mirrors, local, "every object of the mission is the host's mirror");
    let mut q = client.world_mut().query_filtered::<&iron3d_mission::MissionObject, With<NetObject>>();
    assert_eq!(q.iter(client.world()).count(), local, "the mirrors are the client's own mission objects");

    let unit = s.units(clan as i32)[0];
    let host_e = s.host.world().resource::<ObjectTable>().entity_of(unit).unwrap();
    let start = s.host.world().get::<iron3d_core::SimTransform>(host_e).unwrap().position;
    let to = Order::MoveTo([start[0] + 30.0, start[1]]);
    let command = iron3d_core::SimCommand { tick: 0, units: vec![unit], order: to, queued: false };
    s.clients[0].world_mut().resource_mut::<iron3d_core::CommandQueue>().push(command);
    s.step(100);
    let host_at = s.host.world().get::<iron3d_core::SimTransform>(host_e).unwrap().position;
    let acked = s.session(0).orders_acked;
    assert_eq!(acked, 1, "the host took the order");
    assert_eq!(s.host_order(unit), to, "the host gave the order");
    let (host_tick, client_tick) =
        (s.host.world().resource::<GameClock>().tick, s.clients[0].world().resource::<GameClock>().tick);
    assert!(
        host_tick.abs_diff(client_tick) <= 2,
        "the client's clock follows the host's: {client_tick} vs {host_tick}"
    );
    let client_e = s.clients[0].world().resource::<ObjectTable>().entity_of(unit).unwrap();
    let client_at = s.clients[0].world().get::<iron3d_core::SimTransform>(client_e).unwrap().position;
    assert!(
        (client_at[0] - host_at[0]).abs() < 3.0,
        "the client shows it where the host has it: {client_at:?} {host_at:?}"
    );
    let navigator = s.clients[0].world().get::<iron3d_behavior::Navigator>(client_e).map(|n| n.order);
    assert_ne!(navigator, Some(to), "the client's own Behavior never took the order: the host's does");
    assert_eq!(signed_objects(&mut s), 0, "the signatures given for the joining game were dropped again");

    // An object the host builds during the game reaches the client with its models.
    let scheme = s.host.world().get::<iron3d_mission::MissionObject>(host_e).unwrap().key.clone();
    let new_id = 9_000;
    let record = iron3d_mission::PlacedRecord {
        raw_kind: 1,
        resource_name: scheme.clone(),
        position: [host_at[0] + 8.0, host_at[1], host_at[2]],
        scale: [1.0; 3],
        ..Default::default()
    };
    let object = iron3d_mission::PreparedObject {
        id: new_id,
        name: "built".into(),
        key: scheme.clone(),
        components: Vec::new(),
        clan: clan as i32,
        record,
        properties: Default::default(),
        extras: Default::default(),
    };
    iron3d_mission::spawn_object(s.host.world_mut(), object).unwrap();
    s.step(10);
    let client = s.clients[0].world();
    let e = client.resource::<ObjectTable>().entity_of(new_id).expect("the built object is mirrored");
    let object = client.get::<iron3d_mission::MissionObject>(e).expect("resolved like a placed object");
    assert_eq!(object.key, scheme);
    assert!(!object.components.is_empty(), "with its components (and so its models)");
    assert_eq!(client.get::<Owner>(e).unwrap().clan, clan as i32);
    assert_eq!(client.get::<Name>(e).map(Name::as_str), Some("built"), "named as the host named it");
}

#[test]
fn a_game_joining_late_drops_the_objects_the_host_no_longer_has() {
    let mut s = Session::new(HostSettings::default(), 0);
    let gone = s.units(playing_clans(&s.host)[1] as i32)[0];
    let e = s.host.world().resource::<ObjectTable>().entity_of(gone).unwrap();
    s.host.world_mut().despawn(e);
    s.step(2);
    let c = joined_game(&mut s);
    let objects = s.host.world().resource::<ObjectTable>().len();
    let client = s.clients[c].world();
    assert_eq!(client.resource::<ObjectTable>().entity_of(gone), None, "the object the host lost is gone");
    assert_eq!(client.resource::<ObjectTable>().len(), objects, "the client holds the host's objects, no more");
}

#[test]
fn a_joined_game_whose_connection_dropped_rejoins_its_seat_when_asked() {
    let mut s = Session::new(HostSettings::default(), 0);
    let c = joined_game(&mut s);
    drop_and_rejoin(&mut s, c);
}

/// Joined game `c` loses its connection, is offered to rejoin and, asked, takes its seat
/// back with every object mirrored again and equal checkpoint hashes. Meanwhile it
/// simulates nothing itself (its objects stay where the host last had them; no outcome).
pub(super) fn drop_and_rejoin(s: &mut Session, c: usize) {
    let (number, clan) = (s.session(c).player.unwrap(), s.session(c).clan);
    assert!(!s.clients[c].world().resource::<NetStatus>().dropped);
    let checked = s.clients[c].world().resource::<Checkpoints>().checks;
    disconnect(s.clients[c].world_mut());
    let poses = |s: &mut Session| {
        let world = s.clients[c].world_mut();
        let mut q = world.query::<(&OriginalObjectId, &SimTransform)>();
        let mut v: Vec<(u32, [f32; 3])> = q.iter(world).map(|(id, t)| (id.0, t.position)).collect();
        v.sort_by_key(|p| p.0);
        v
    };
    let held = poses(s);
    s.step(100);
    assert!(s.clients[c].world().resource::<NetStatus>().dropped, "the game offers to rejoin");
    let moved = poses(s).iter().zip(&held).filter(|(a, b)| a != b).count();
    assert_eq!(moved, 0, "dropped, the game moves nothing itself");
    let outcomes = |s: &Session| s.clients[c].world().resource::<iron3d_core::MissionOutcome>().records.clone();
    assert_eq!(outcomes(s), [], "dropped, the game decides no outcome");
    assert!(s.host.world().resource::<NetWatcher>().players[&number].away.is_some(), "the seat waits");
    rejoin_game(s.clients[c].world_mut());
    // Connecting again, its objects gone until the host sends them: still no outcome.
    (0..20).for_each(|_| s.clients[c].update());
    assert_eq!(outcomes(s), [], "connecting again, the game decides no outcome");
    s.step(60);
    assert!(!s.clients[c].world().resource::<NetStatus>().dropped);
    assert_eq!((s.session(c).player, s.session(c).clan), (Some(number), clan), "the same seat");
    assert!(s.host.world().resource::<NetWatcher>().players[&number].connected());
    let objects = s.host.world().resource::<ObjectTable>().len();
    let client = s.clients[c].world_mut();
    assert_eq!(client.resource::<Mirrors>().by_id.len(), objects, "every object mirrored once again");
    let mut q = client.query_filtered::<&iron3d_mission::MissionObject, With<NetObject>>();
    assert_eq!(q.iter(client).count(), objects, "resolved with their models, as placed");
    let checks = client.resource::<Checkpoints>();
    assert!(checks.checks > checked && checks.mismatches == 0, "compared again, alike: {checks:?}");
}

#[test]
fn a_lan_probe_finds_the_host_and_its_mission() {
    let mut s = Session::new(HostSettings { discovery_port: Some(0), ..HostSettings::default() }, 2);
    let beacon = s.host.world().resource::<discovery::LanBeacon>().local_addr().unwrap();
    let probe = std::thread::spawn(move || {
        discovery::discover(&[(std::net::Ipv4Addr::LOCALHOST, beacon.port()).into()], std::time::Duration::from_secs(2))
    });
    while !probe.is_finished() {
        s.step(1);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let found = probe.join().unwrap().unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].addr.port(), s.addr.port(), "the answer names the game's port");
    assert_eq!((found[0].mission.as_str(), found[0].players, found[0].max_players), (MISSION, 2, 8));
}

/// Orders enough to make the session record several chunks long.
fn long_record(s: &mut Session) {
    let unit = s.units(s.session(0).clan.unwrap() as i32)[0];
    for i in 0..40 {
        s.order(0, vec![unit], Order::MoveTo([10.0 + i as f32, 20.0]));
    }
    s.step(3);
    let text = s.host.world().resource::<SessionLog>().to_ron().unwrap();
    assert!(text.len() > 3 * transfer::CHUNK, "{} bytes", text.len());
}

fn request_savegame(s: &mut Session, client: usize) -> u32 {
    let world = s.clients[client].world_mut();
    let now = world.resource::<bevy_time::Time<bevy_time::Real>>().elapsed();
    world.resource_scope(|world, mut transfers: bevy_ecs::prelude::Mut<transfer::ClientTransfers>| {
        transfers.request_savegame(&mut world.resource_mut::<OutgoingOrders>(), now)
    })
}

#[test]
fn a_client_fetches_the_session_record_in_chunks() {
    let mut s = Session::new(HostSettings::default(), 1);
    long_record(&mut s);
    let chunks = s.host.world().resource::<SessionLog>().to_ron().unwrap().len().div_ceil(transfer::CHUNK) as u32;
    let id = request_savegame(&mut s, 0);
    s.step(chunks + 4);
    let transfers = s.clients[0].world().resource::<transfer::ClientTransfers>();
    let bytes =
        transfers.done.get(&id).unwrap_or_else(|| panic!("{:?} {:?}", transfers.failed, transfers.incoming.keys()));
    let log = SessionLog::from_ron(std::str::from_utf8(bytes).unwrap()).unwrap();
    assert_eq!(log.mission, MISSION);
    assert!(log.entries.len() > 40);
    assert!(s.host.world().resource::<transfer::HostTransfers>().active.is_empty());
}

#[test]
fn a_transfer_past_the_maximum_delay_is_abandoned_on_both_sides() {
    let mut s = Session::new(HostSettings::default(), 1);
    long_record(&mut s);
    s.host.world_mut().resource_mut::<transfer::HostTransfers>().max_delay = std::time::Duration::from_millis(64);
    let id = request_savegame(&mut s, 0);
    s.step(10);
    let transfers = s.clients[0].world().resource::<transfer::ClientTransfers>();
    assert!(transfers.done.is_empty());
    assert!(transfers.failed[&id].contains("Network_ResourceTransferMaxDelay"), "{:?}", transfers.failed);
    assert!(s.host.world().resource::<transfer::HostTransfers>().active.is_empty());
}

#[test]
fn a_client_leaving_mid_transfer_leaves_nothing_behind() {
    let mut s = Session::new(HostSettings { rejoin_seconds: 0, ..HostSettings::default() }, 2);
    long_record(&mut s);
    request_savegame(&mut s, 1);
    s.step(2);
    assert_eq!(s.host.world().resource::<transfer::HostTransfers>().active.len(), 1, "in flight");
    disconnect(s.clients[1].world_mut());
    s.clients.pop();
    s.step(10);
    assert!(s.host.world().resource::<transfer::HostTransfers>().active.is_empty());
    assert!(s.owners().iter().all(|o| o.player.is_none_or(|p| p == 1)), "no object of the departed player");
}

#[test]
fn messages_before_the_player_data_are_ignored_and_a_sequence_applies_in_order() {
    let mut s = Session::new(HostSettings::default(), 1);
    let clan = s.session(0).clan.unwrap() as i32;
    let unit = s.units(clan)[0];
    let order = |seq, to: f32| Gmsg::Order {
        seq,
        units: vec![unit],
        order: WireOrder::Plain(Order::MoveTo([to, to])),
        queued: false,
    };
    // A connection that never introduced itself: its order changes nothing.
    let stranger = s.host.world_mut().spawn_empty().id();
    let before = s.host.world().resource::<iron3d_core::CommandQueue>().pending.len();
    crate::host::handle(s.host.world_mut(), stranger, order(1, 5.0));
    assert_eq!(s.host.world().resource::<iron3d_core::CommandQueue>().pending.len(), before);
    assert!(s.host.world().resource::<NetWatcher>().players.len() == 1);
    // Two orders in one sequence: applied in their order, so the second stands.
    let mut outgoing = s.clients[0].world_mut().resource_mut::<OutgoingOrders>();
    outgoing.messages.extend([order(2, 11.0), order(3, 13.0)]);
    s.step(3);
    assert_eq!(s.host_order(unit), Order::MoveTo([13.0, 13.0]));
    assert_eq!(s.session(0).orders_acked, 2);
}

#[test]
fn a_held_start_waits_for_the_ready_players_and_the_lobby_shows_them() {
    let mut s = Session::new(HostSettings { wait_players: 2, ..HostSettings::default() }, 0);
    let seat = seat_host_player(s.host.world_mut(), "Hana").unwrap();
    let start = s.host.world().resource::<GameClock>().tick;
    s.join("a");
    s.step(12);
    assert_eq!(s.host.world().resource::<GameClock>().tick, start, "one ready player of two: the clock waits");
    let own = s.session(0).player.unwrap();
    assert_eq!(s.session(0).phase, Some((schema::SessionPhase::Lobby as u8, start)));
    assert!(s.session(0).players[&own].ready, "the lobby shows the player ready");
    // Publishing follows ticks: a change while no tick runs waits for the next one.
    let unit = s.units(playing_clans(&s.host)[0] as i32)[0];
    let e = s.host.world().resource::<ObjectTable>().entity_of(unit).unwrap();
    let published = *s.host.world().get::<NetPose>(e).unwrap();
    s.host.world_mut().get_mut::<SimTransform>(e).unwrap().position[0] += 3.0;
    s.step(2);
    assert_eq!(*s.host.world().get::<NetPose>(e).unwrap(), published, "published without a tick");
    s.join("b");
    s.step(12);
    assert!(s.host.world().resource::<GameClock>().tick > start, "two ready: the clock runs");
    assert_ne!(*s.host.world().get::<NetPose>(e).unwrap(), published, "published after a tick");
    for c in 0..2 {
        let session = s.session(c);
        assert_eq!(session.phase.map(|p| p.0), Some(schema::SessionPhase::Running as u8), "client {c}");
        let players = &session.players;
        assert_eq!(players.len(), 3, "client {c}: {players:?}");
        assert!(players[&seat].host && players[&seat].ready && !players[&seat].local, "{players:?}");
        assert_eq!(players.values().filter(|p| p.local).count(), 1);
        assert!(players[&session.player.unwrap()].local);
        assert!(players.values().all(|p| p.ready), "{players:?}");
    }
    let clans = playing_clans(&s.host);
    assert_eq!(s.session(0).clan, Some(clans[0]), "the host's seat takes no joined player's clan turn");
    let seats = &s.host.world().resource::<iron3d_core::Seats>().0;
    assert_eq!(seats.len(), 3, "the seats a save keeps: {seats:?}");
    assert!(seats[&seat].host && seats[&seat].name == "Hana");
    assert_eq!(seats[&own].clan, Some(clans[0]));
}

#[test]
fn the_hosts_time_sets_a_clients_clock_at_a_tick_boundary() {
    let mut s = Session::new(HostSettings::default(), 1);
    s.step(40);
    // Every tick's event batch carries the host's time.
    let (host, client) =
        (s.host.world().resource::<GameClock>().tick, s.clients[0].world().resource::<GameClock>().tick);
    assert!(host.abs_diff(client) <= 2, "the clock is the host's last time: {client} vs {host}");
    // Taken at the next tick boundary, not when it arrives.
    s.clients[0].world_mut().resource_mut::<ClientSession>().set_time = Some(5_000);
    assert_eq!(s.clients[0].world().resource::<GameClock>().tick, client);
    s.clients[0].update();
    let clock = *s.clients[0].world().resource::<GameClock>();
    assert_eq!((clock.tick, clock.time_ms), (5_000, 5_000 * iron3d_core::TICK_MS));
    assert_eq!(s.session(0).set_time, None);
}

/// Client 0's and client 1's first unit, both sent far away, and 16 ticks to get going.
fn two_moving_units(s: &mut Session) -> (u32, u32) {
    let far = |s: &mut Session, c: usize| {
        let unit = s.units(s.session(c).clan.unwrap() as i32)[0];
        let e = s.host.world().resource::<ObjectTable>().entity_of(unit).unwrap();
        let at = s.host.world().get::<SimTransform>(e).unwrap().position;
        s.order(c, vec![unit], Order::MoveTo([at[0] + 80.0, at[1]]));
        unit
    };
    let units = (far(s, 0), far(s, 1));
    s.step(16);
    units
}

fn mirror_of(s: &Session, client: usize, id: u32) -> Entity {
    s.clients[client].world().resource::<ObjectTable>().entity_of(id).unwrap()
}

#[test]
fn a_clients_own_units_update_every_tick_and_the_others_less_often() {
    let mut s = Session::new(HostSettings::default(), 2);
    let (mine, theirs) = two_moving_units(&mut s);
    let (mine, theirs) = (mirror_of(&s, 0, mine), mirror_of(&s, 0, theirs));
    let pose = |s: &Session, e| *s.clients[0].world().get::<NetPose>(e).unwrap();
    let (mut own, mut other, mut last) = (0, 0, (pose(&s, mine), pose(&s, theirs)));
    for _ in 0..24 {
        s.step(1);
        let now = (pose(&s, mine), pose(&s, theirs));
        own += u32::from(now.0 != last.0);
        other += u32::from(now.1 != last.1);
        last = now;
    }
    assert!(own >= 22, "own unit updated on {own} of 24 ticks");
    assert!((2..=6).contains(&other), "another clan's unit updated on {other} of 24 ticks");
}

#[test]
fn a_mirror_is_drawn_moving_steadily_between_its_sparse_updates() {
    // Every eighth tick, so 32 ticks hold a few segments.
    let mut s = Session::new(HostSettings { moving_priority: 0.125, ..HostSettings::default() }, 2);
    let (_, theirs) = two_moving_units(&mut s);
    let e = mirror_of(&s, 0, theirs);
    let distance = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).map(|(a, b)| (a - b) * (a - b)).sum::<f32>().sqrt();
    let (mut segments, mut between, mut last) = (0, 0, None);
    for _ in 0..32 {
        s.step(1);
        let world = s.clients[0].world();
        let exact = world.get::<SimTransform>(e).unwrap().position;
        assert_eq!(exact, world.get::<NetPose>(e).unwrap().position(), "the simulated pose stays the replicated one");
        let gap = distance(world.get::<PresentedTransform>(e).unwrap().0.position, exact);
        match last {
            Some((at, before)) if at == exact => {
                assert!(gap <= before + 1e-4, "drawn moving away from its pose: {before} then {gap}");
                between += u32::from(gap > 1e-4 && gap < before);
            }
            _ => segments += 1,
        }
        last = Some((exact, gap));
    }
    assert!(segments >= 5, "{segments} updates");
    assert!(between >= segments, "drawn between poses on {between} frames of {segments} segments");
}
