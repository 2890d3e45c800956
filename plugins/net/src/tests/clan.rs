//! A client's clan state, chat, rejoin and sync reports, with a host and clients in one
//! process (simulated time).

use super::session::{MISSION, Session, drop_and_rejoin, game, joined_game, playing_clans};
use crate::*;
use bevy_app::App;
use iron3d_core::{
    CommandQueue, EconomyBoard, MissionClans, Movable, ObjectTable, Order, OriginalObjectId, Owner, ProductionBoard,
    ResearchBoard, SchemeNames, SimCommand,
};
use iron3d_production::Production;

const SCOUT: &str = "UNITS\\ROBOTS\\scout.dat";

/// A building of `clan` on the host that may build a scout now.
fn producer(host: &mut App, clan: i32) -> u32 {
    let scout = host.world_mut().resource_mut::<SchemeNames>().intern(SCOUT).unwrap();
    let mut q = host.world_mut().query_filtered::<(&OriginalObjectId, &Owner), bevy_ecs::query::Without<Movable>>();
    let mut ids: Vec<u32> = q.iter(host.world()).filter(|(_, o)| o.clan == clan).map(|(id, _)| id.0).collect();
    ids.sort_unstable();
    let order = |id| SimCommand { tick: 0, units: vec![id], order: Order::Build(scout), queued: false };
    *ids.iter()
        .find(|id| iron3d_production::check_command(host.world_mut(), &order(**id)).is_ok())
        .expect("the clan has a building that builds scouts")
}

/// Runs the session until the host's figures for `clan` stay the same for 8 ticks (its
/// mines full), so the client's latest state holds them.
fn settle(s: &mut Session, clan: i32) {
    let of = |s: &Session| s.host.world().resource::<EconomyBoard>().of(clan);
    for _ in 0..100 {
        let before = of(s);
        s.step(8);
        if of(s) == before {
            return;
        }
    }
    panic!("clan {clan}'s economy never settles: {:?}", of(s));
}

#[test]
fn a_joined_game_sees_its_clans_economy_production_and_research_and_its_build_order_makes_a_robot_it_sees() {
    let mut s = Session::new(HostSettings::default(), 0);
    let c = joined_game(&mut s);
    let clan = s.session(c).clan.unwrap();
    let plant = producer(&mut s.host, clan as i32);
    settle(&mut s, clan as i32);
    let host_ore = |s: &Session| s.host.world().resource::<EconomyBoard>().of(clan as i32);
    let client_ore = |s: &Session| s.clients[c].world().resource::<EconomyBoard>().of(clan as i32);
    assert_eq!(client_ore(&s), host_ore(&s), "the client's board is the host's figures");
    assert!(host_ore(&s).ore >= 300.0, "the clan can pay a scout: {:?}", host_ore(&s));
    let next = s.host.world().resource::<Production>().next_id;
    // The player orders through its own command queue, as its build panel does.
    let scout = s.clients[c].world_mut().resource_mut::<SchemeNames>().intern(SCOUT).unwrap();
    let build = SimCommand { tick: 0, units: vec![plant], order: Order::Build(scout), queued: false };
    s.clients[c].world_mut().resource_mut::<CommandQueue>().push(build);
    s.step(12);
    let queue = s.clients[c].world().resource::<ProductionBoard>().producers.get(&plant).cloned();
    let job = queue.and_then(|q| q.active).expect("the client's build panel shows the job");
    assert!(job.scheme.eq_ignore_ascii_case(SCOUT), "{job:?}");
    assert!(job.elapsed_ms > 0 && job.total_ms > job.elapsed_ms, "{job:?}");
    assert_eq!(client_ore(&s), host_ore(&s), "paid on the host, seen on the client");
    // Research: the client's board is what the host's production allows its clan.
    let host_board = s.host.world().resource::<ResearchBoard>().clans.get(&(clan as i32)).cloned();
    assert_eq!(s.clients[c].world().resource::<ResearchBoard>().clans.get(&(clan as i32)).cloned(), host_board);
    let view = s.clients[c].world().resource::<clan_state::ClanView>();
    assert_eq!(view.state.as_ref().map(|v| v.clan), Some(clan));
    // Robots past the mission's ids of this clan, as the client holds them.
    let built = |s: &mut Session| {
        let client = s.clients[c].world_mut();
        let mut q = client.query::<(&OriginalObjectId, &Owner)>();
        q.iter(client).filter(|(id, o)| id.0 >= next && o.clan == clan as i32).count()
    };
    for _ in 0..400 {
        s.step(1);
        if built(&mut s) > 0 {
            break;
        }
    }
    assert_eq!(built(&mut s), 1, "the robot the client ordered reaches it");
    s.step(4);
    let produced = s.clients[c].world().resource::<crate::events::EventCounts>().produced;
    assert!(produced >= 1, "the HUD is told it was built (a combat event; other clans build too)");
    let news = s.clients[c].world().resource::<clan_state::ClanView>().news;
    assert_eq!(news, 0, "built robots never come twice: clan news never carries them");
    let idle = s.clients[c].world().resource::<ProductionBoard>().producers.get(&plant).cloned().unwrap();
    assert!(idle.active.is_none() && idle.waiting.is_empty(), "{idle:?}");
}

#[test]
fn a_pods_opening_for_a_clan_reaches_its_player_as_his_own_event() {
    use iron3d_core::{DispatchPhase, GameClock, GameMessage, GameMessageKind, ProductionEvent};
    let mut s = Session::new(HostSettings::default(), 0);
    let c = joined_game(&mut s);
    let clan = s.session(c).clan.unwrap() as i32;
    let building = producer(&mut s.host, clan);
    s.step(4);
    let news = |s: &Session| s.clients[c].world().resource::<clan_state::ClanView>().news;
    let before = news(&s);
    let clock = *s.host.world().resource::<GameClock>();
    let ids = vec![building, building];
    let opened = GameMessageKind::Production { event: ProductionEvent::Opened, ids, detail: String::new() };
    s.host.world_mut().write_message(GameMessage::new(&clock, DispatchPhase::Behavior, opened));
    s.step(4);
    assert_eq!(news(&s), before + 1, "the opening, to the clan's player (its view modes follow it)");
}

#[test]
fn a_bot_reports_its_clans_ore_as_the_host_has_it() {
    let mut s = Session::new(HostSettings::default(), 1);
    let clan = s.session(0).clan.unwrap() as i32;
    settle(&mut s, clan);
    let view = s.clients[0].world().resource::<clan_state::ClanView>().state.clone().unwrap();
    assert_eq!(view.economy, s.host.world().resource::<EconomyBoard>().of(clan));
    assert!(view.research.as_ref().is_some_and(|r| !r.states.is_empty()), "the clan's research: {view:?}");
}

#[test]
fn a_bot_says_its_line_once_admitted_and_every_bot_counts_it() {
    let settings = HostSettings { mission: MISSION.into(), discovery_port: None, ..HostSettings::default() };
    let (mut host, addr) = host_app(&game(), settings, 0, Clock::Stepped).unwrap();
    let mut bots: Vec<bots::Bot> = (0..2).map(|i| bots::Bot::join(addr, i, 7, Clock::Stepped).unwrap()).collect();
    bots[1].say_once_admitted("gl hf");
    for _ in 0..40 {
        host.update();
        bots.iter_mut().for_each(bots::Bot::step);
    }
    let from = bots[1].report().id;
    for bot in &bots {
        let lines: Vec<_> = bot.app.world().resource::<chat::Chat>().lines.iter().cloned().collect();
        assert_eq!(lines, [chat::ChatLine { from, clan_only: false, text: "gl hf".into() }], "once, to everyone");
        assert_eq!(bot.report().chat_received, 1);
    }
}

#[test]
fn a_dropped_bot_rejoins_its_seat_and_units_with_equal_hashes() {
    let settings = HostSettings { mission: MISSION.into(), discovery_port: None, ..HostSettings::default() };
    let (mut host, addr) = host_app(&game(), settings, 0, Clock::Stepped).unwrap();
    let mut bots: Vec<bots::Bot> = (0..2).map(|i| bots::Bot::join(addr, i, 7, Clock::Stepped).unwrap()).collect();
    let step = |host: &mut App, bots: &mut [bots::Bot], ticks: u32, skip: Option<usize>| {
        for _ in 0..ticks {
            host.update();
            bots.iter_mut().enumerate().filter(|(i, _)| Some(*i) != skip).for_each(|(_, b)| b.step());
        }
    };
    step(&mut host, &mut bots, 80, None);
    let before = bots[1].report();
    let (number, clan) = (before.id, bots[1].app.world().resource::<ClientSession>().clan.unwrap());
    assert!(before.hash_checks >= 1 && before.hash_mismatches == 0, "{before:?}");
    let mode =
        |host: &App| host.world().resource::<MissionClans>().clans.iter().find(|c| c.index == clan).unwrap().mode;
    // The clan's objects and their players (objects the computer builds meanwhile have none).
    let units_of = |host: &mut App| {
        let mut q = host.world_mut().query::<(&iron3d_core::OriginalObjectId, &Owner)>();
        q.iter(host.world()).filter(|(_, o)| o.clan == clan as i32).map(|(id, o)| (id.0, o.player)).collect::<Vec<_>>()
    };
    let units = units_of(&mut host);
    let kept = |now: Vec<(u32, Option<u8>)>| units.iter().all(|u| now.contains(u));
    bots[1].leave();
    step(&mut host, &mut bots, 40, Some(1));
    let seat = host.world().resource::<NetWatcher>().players[&number].clone();
    assert!(seat.away.is_some(), "the seat waits: {seat:?}");
    assert_eq!(mode(&host), 2, "the computer plays the clan meanwhile");
    assert!(kept(units_of(&mut host)), "the units keep their player");
    bots[1].rejoin(addr).unwrap();
    step(&mut host, &mut bots, 120, None);
    let after = bots[1].report();
    assert_eq!(after.id, number, "the same player number");
    assert_eq!(bots[1].app.world().resource::<ClientSession>().clan, Some(clan), "the same clan");
    assert!(host.world().resource::<NetWatcher>().players[&number].connected());
    assert_eq!(mode(&host), 1, "the player plays its clan again");
    assert!(kept(units_of(&mut host)), "and has its units");
    assert!(after.hash_checks >= before.hash_checks + 2, "{after:?}");
    assert_eq!(after.hash_mismatches, 0, "{after:?}");
    let mirrors = bots[1].app.world().resource::<Mirrors>().by_id.len();
    assert_eq!(mirrors, host.world().resource::<ObjectTable>().len(), "every object mirrored once again");
    assert!(after.orders > before.orders, "its orders are taken again: {after:?}");
}

#[test]
fn a_forced_desync_writes_the_clients_and_the_hosts_sync_reports() {
    let dir = std::env::temp_dir().join(format!("iron3d-sync-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut s = Session::new(HostSettings::default(), 1);
    s.host.world_mut().insert_resource(sync_report::SyncReports { dir: dir.clone() });
    s.clients[0].world_mut().insert_resource(sync_report::SyncReports { dir: dir.clone() });
    s.step(40);
    assert_eq!(s.clients[0].world().resource::<Checkpoints>().mismatches, 0);
    // A building nobody moves: the client's copy is pushed aside behind the host's back.
    let clan = playing_clans(&s.host)[1] as i32;
    let mut q = s.host.world_mut().query_filtered::<(&OriginalObjectId, &Owner), bevy_ecs::query::Without<Movable>>();
    let building = q.iter(s.host.world()).filter(|(_, o)| o.clan == clan).map(|(id, _)| id.0).min().unwrap();
    let e = s.clients[0].world().resource::<Mirrors>().by_id[&building];
    let host_pose = *s.clients[0].world().get::<NetPose>(e).unwrap();
    s.clients[0].world_mut().get_mut::<NetPose>(e).unwrap().position[0] += 48;
    s.step(70);
    let checks = s.clients[0].world().resource::<Checkpoints>();
    assert!(checks.mismatches >= 1, "{checks:?}");
    let client = checks.report.clone().expect("the client wrote its sync report");
    let text = std::fs::read_to_string(&client).unwrap();
    assert!(text.contains("client side") && text.contains(&format!("object {building}:")), "{text}");
    let moved = [host_pose.position[0] + 48, host_pose.position[1], host_pose.position[2]];
    let pose_line = text.lines().find(|l| l.contains("NetPose")).unwrap_or_else(|| panic!("{text}"));
    assert!(
        pose_line.contains(&format!("{:?}", host_pose.position)) && pose_line.contains(&format!("{moved:?}")),
        "{text}"
    );
    assert!(!text.contains("core.owner"), "only the component that differs: {text}");
    let player = s.session(0).player.unwrap();
    let host = s.host.world().resource::<sync_report::HostSyncState>().written[&player].clone();
    let text = std::fs::read_to_string(&host).unwrap();
    assert!(
        text.contains("host side")
            && text.contains("1 objects differ")
            && text.contains(&format!("object {building}:")),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chat_reaches_everyone_or_the_clan_is_logged_and_a_flood_is_limited() {
    let mut s = Session::new(HostSettings::default(), 3);
    let by_number = |s: &Session, n: u16| (0..3).find(|c| s.session(*c).player == Some(n)).unwrap();
    let (one, two, three) = (by_number(&s, 1), by_number(&s, 2), by_number(&s, 3));
    assert_eq!(s.session(one).clan, s.session(three).clan, "players 1 and 3 share a clan");
    let say = |s: &mut Session, c: usize, clan_only: bool, text: &str| {
        s.clients[c].world_mut().resource_mut::<chat::Chat>().say(clan_only, text);
    };
    say(&mut s, one, true, "to my clan");
    say(&mut s, two, false, "to everyone");
    s.step(4);
    let lines = |s: &Session, c: usize| -> Vec<String> {
        s.clients[c].world().resource::<chat::Chat>().lines.iter().map(|l| format!("{}:{}", l.from, l.text)).collect()
    };
    assert_eq!(lines(&s, one), ["1:to my clan", "2:to everyone"]);
    assert_eq!(lines(&s, three), ["1:to my clan", "2:to everyone"]);
    assert_eq!(lines(&s, two), ["2:to everyone"], "another clan's line is not shown");
    for i in 0..8 {
        say(&mut s, two, false, &format!("spam {i}"));
    }
    s.step(4);
    let got = lines(&s, one);
    let spam = got.iter().filter(|l| l.starts_with("2:spam")).count();
    assert_eq!(spam, chat::FLOOD_LINES - 1, "one line was sent before: {got:?}");
    assert!(lines(&s, two).last().unwrap().starts_with("0:chat refused"), "the sender is told: {:?}", lines(&s, two));
    assert!(!lines(&s, one).iter().any(|l| l.contains("refused")), "only the sender is told");
    assert_eq!(s.clients[one].world().resource::<chat::Chat>().received, 2 + spam as u32);
}

/// The demo laid out like an installed original (campaign folders, the robot schemes
/// renamed in its style, no project-only properties): a joined game of a campaign mission
/// and a bot chat, and the game, dropped, rejoins its seat with equal hashes.
#[test]
fn on_an_original_like_tree_a_joined_game_chats_and_rejoins_its_seat() {
    let root = std::env::temp_dir().join(format!("iron3d-net-original-like-{}", std::process::id()));
    let demo = iron3d_demo::build(iron3d_demo::DEFAULT_SEED).unwrap();
    iron3d_demo::original_like::rewrite(&demo).unwrap().write_to(&root).unwrap();
    let game = iron3d_vfs::GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap();
    let settings = HostSettings { mission: "CAMPAIGN.01/MISSION.01".into(), ..HostSettings::default() };
    let mut s = Session::on(std::sync::Arc::new(game), settings, 1);
    let c = joined_game(&mut s);
    assert_eq!(s.session(c).refused, None);
    let mut q = s.clients[c].world_mut().query_filtered::<&iron3d_mission::MissionObject, With<NetObject>>();
    let keys: Vec<String> = q.iter(s.clients[c].world()).map(|o| o.key.to_ascii_uppercase()).collect();
    assert!(keys.iter().any(|k| k.contains("W_M_TNK")), "the original's scheme names: {keys:?}");

    for (from, text) in [(c, "from the game"), (0, "from the bot")] {
        s.clients[from].world_mut().resource_mut::<chat::Chat>().say(false, text);
    }
    s.step(4);
    for client in [0, c] {
        let mut lines: Vec<&str> =
            s.clients[client].world().resource::<chat::Chat>().lines.iter().map(|l| l.text.as_str()).collect();
        lines.sort_unstable();
        assert_eq!(lines, ["from the bot", "from the game"], "client {client}");
    }
    drop_and_rejoin(&mut s, c);
    std::fs::remove_dir_all(root).unwrap();
}
