//! The plugin over a hand-built world: when handlers run, the host callback (outcome,
//! objectives, messages), the world's functions, routes, saves and the victory rule.

use super::*;
use bevy_app::App;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use iron3d_core::{
    CommandQueue, CorePlugin, GameMessage, MindBoard, MissionGoals, Movable, ObjectKind, Objective, ObjectiveChange,
    Order, Owner, SimObject, SimSystems, SimTransform, UnitClass,
};
use iron3d_terrain::{MissionPath, MissionPaths};
use std::time::Duration;

fn advance(mut clock: ResMut<GameClock>) {
    clock.tick += 1;
    clock.time_ms += 64;
}

fn app_with(files: MemFiles, clans: Vec<ClanSetup>, plugin: SuperAiPlugin, setup: impl FnOnce(&mut World)) -> App {
    let mut app = App::new();
    app.add_plugins((TimePlugin, bevy_state::app::StatesPlugin, CorePlugin, plugin))
        .insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(64)))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(64)))
        .insert_resource(MissionClans { clans, files: Arc::new(files) })
        .add_systems(FixedUpdate, advance.in_set(SimSystems::Input));
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Loading);
    app.update();
    setup(app.world_mut());
    app.world_mut().resource_mut::<NextState<MissionLoadPhase>>().set(MissionLoadPhase::ScenarioStart);
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
    app.update();
    app
}

fn app(p: &ScrPackage, clans: Vec<ClanSetup>) -> App {
    app_with(files_with(p), clans, SuperAiPlugin::default(), |_| {})
}

/// Clan 0 is the player (mode 1), the others computer clans (mode 2).
fn clan(index: u32, bundle: &str, anchor: [f32; 2]) -> ClanSetup {
    ClanSetup {
        anchor,
        bundle: bundle.into(),
        minds: 17,
        ..ClanSetup::bare(index, &format!("clan{index}"), 1 + index.min(1))
    }
}

fn clans(n: u32) -> Vec<ClanSetup> {
    (0..n).map(|i| clan(i, "MISSIONS/SCRIPTS/test", [1.0 + i as f32, 1.0])).collect()
}

fn var(app: &App, clan: usize, v: u32) -> u32 {
    app.world().resource::<SuperAis>().clans[clan].vm.as_ref().unwrap().vars[v as usize].word
}

/// The messages of the last update, in order.
fn messages(app: &App) -> Vec<GameMessageKind> {
    let messages = app.world().resource::<Messages<GameMessage>>();
    messages.iter_current_update_messages().map(|m| m.kind.clone()).collect()
}

/// A script report: (handler, node, function, detail).
type Note = (String, Option<u32>, Option<u32>, String);

fn script_notes(kinds: Vec<GameMessageKind>) -> Vec<Note> {
    kinds
        .into_iter()
        .filter_map(|k| match k {
            GameMessageKind::Script { handler, node, function, detail, .. } => Some((handler, node, function, detail)),
            _ => None,
        })
        .collect()
}

/// The script reports of the last update.
fn notes(app: &App) -> Vec<Note> {
    script_notes(messages(app))
}

/// The script reports the app still holds (the last two updates: the start's reports
/// after the app is made).
fn start_notes(app: &App) -> Vec<Note> {
    let messages = app.world().resource::<Messages<GameMessage>>();
    script_notes(messages.get_cursor().read(messages).map(|m| m.kind.clone()).collect())
}

fn send(app: &mut App, slot: u32, event: &str) {
    app.world_mut().write_message(RunScriptEvent::new(slot, event));
    app.update();
}

fn ticks(app: &mut App, n: u32) {
    (0..n).for_each(|_| app.update());
}

fn now(app: &App) -> u32 {
    app.world().resource::<GameClock>().time_ms
}

#[test]
fn slots_go_only_to_loaded_packages_and_are_never_renumbered() {
    let p = pkg(&[("Init", vec![call(f::CLAN_BASE, None, &[X, Y, CLAN])])]);
    let app = app_with(
        files_with(&p),
        vec![
            clan(0, "MISSIONS\\SCRIPTS\\missing", [10.0, 10.0]),
            clan(1, "MISSIONS\\SCRIPTS\\test", [500.2857, 752.0]),
            clan(2, "MISSIONS\\SCRIPTS\\test", [728.0, 449.0]),
            clan(3, "MISSIONS\\SCRIPTS\\test", [10001.0, 1.0]),
        ],
        SuperAiPlugin::default(),
        |_| {},
    );
    let slots = app.world().resource::<SuperAiSlots>();
    assert_eq!(slots.0[..5], [None, Some(1), Some(2), None, None], "clan 1 stays slot 1");
    let ais = app.world().resource::<SuperAis>();
    assert_eq!(ais.clans.len(), 4, "a SuperAI per clan record");
    assert!(ais.clans[0].error.as_deref().unwrap_or("").contains("missing.scr"));
    assert!(ais.clans[3].error.is_some(), "reading A rejects base X 10001");
    let vars = |slot: u32| {
        let vm = ais.by_slot(slot).unwrap().vm.as_ref().unwrap();
        (vm.var("ClanBaseX").unwrap(), vm.var("ClanBaseY").unwrap(), vm.var("ClanID").unwrap())
    };
    assert_eq!(vars(1), (500, 752, 1));
    assert_eq!(vars(2), (728, 449, 2));
}

#[test]
fn init_runs_once_and_mission_only_for_the_player_clan_at_most_every_2000_ms() {
    let p = pkg(&[("Init", vec![Record::formula_into(DB, 5)]), ("Mission", vec![Record::formula_into(DA, 3)])]);
    let mut app = app(&p, clans(2));
    let mut runs = vec![now(&app)];
    app.world_mut().resource_mut::<MissionOutcome>().record(0, Outcome::Completed, 1);
    for _ in 0..100 {
        let before = var(&app, 0, DA);
        app.update();
        if var(&app, 0, DA) != before {
            runs.push(now(&app));
        }
    }
    assert_eq!(var(&app, 0, DA), 4, "runs at ms 64, 2112, 4160, 6208 — and on after the outcome");
    assert!(
        runs[1..].windows(2).all(|w| w[1] - w[0] >= MISSION_PERIOD_MS && w[1] - w[0] < MISSION_PERIOD_MS + 64),
        "{runs:?}"
    );
    assert_eq!((var(&app, 0, DB), var(&app, 1, DB)), (1, 1), "every clan's Init ran once");
    assert_eq!(var(&app, 1, DA), 0, "a computer clan's Mission never runs");
}

#[test]
fn every_clans_takt_runs_its_problem_handler_every_7000_to_8000_ms_and_steps_the_clan_clock_by_7() {
    let p = pkg(&[("Init", vec![]), ("Problems0", vec![Record::formula_into(DA, 3)])]);
    let mut app = app(&p, clans(2));
    let mut runs: Vec<Vec<u32>> = vec![vec![0], vec![0]];
    for _ in 0..400 {
        let before = [var(&app, 0, DA), var(&app, 1, DA)];
        app.update();
        for c in 0..2 {
            if var(&app, c, DA) != before[c] {
                runs[c].push(now(&app));
            }
        }
    }
    for (c, times) in runs.iter().enumerate() {
        assert!(times.len() > 3, "clan {c}: {times:?}");
        for w in times.windows(2) {
            assert!((TAKT_MS..TAKT_MS + TAKT_SPREAD_MS + 64).contains(&(w[1] - w[0])), "clan {c}: {times:?}");
        }
        let vm = app.world().resource::<SuperAis>().clans[c].vm.clone().unwrap();
        assert_eq!(vm.clock, TAKT_SECONDS * var(&app, c, DA), "clan {c}: +7 s per takt");
    }
    assert_ne!(runs[0], runs[1], "each clan draws its own takts");
}

#[test]
fn function_33_picks_the_problem_handler() {
    let p = pkg(&[
        ("Init", vec![]),
        ("Problems0", vec![call(f::PROBLEM_HANDLER, None, &[D1])]),
        ("Problems1", vec![Record::formula_into(DA, 3)]),
    ]);
    let mut app = app(&p, clans(1));
    ticks(&mut app, 2 * 8064 / 64);
    assert_eq!(var(&app, 0, DA), 1, "the second takt ran Problems1");
}

#[test]
fn raised_problems_run_start_then_continue_and_are_dropped_once_solved() {
    let p = pkg(&[
        ("Init", vec![]),
        ("Problems0", vec![call(f::RAISE_PROBLEM, None, &[PBM, FA, D1, D2, D3, D1, D2])]),
        ("PBM_TEST_Start", vec![Record::formula_into(DA, 3)]),
        ("PBM_TEST_Continue", vec![Record::formula_into(DB, 5), call(f::PROBLEM_STATE, None, &[D2])]),
    ]);
    let mut app = app(&p, clans(1));
    let takt = |app: &mut App| {
        let next = app.world().resource::<SuperAis>().clans[0].vm.as_ref().unwrap().next_takt_ms;
        while now(app) < next {
            app.update();
        }
        (
            var(app, 0, DA),
            var(app, 0, DB),
            app.world().resource::<SuperAis>().clans[0].vm.as_ref().unwrap().problems.list.len(),
        )
    };
    assert_eq!(takt(&mut app), (1, 0, 1), "raised, its _Start ran");
    assert_eq!(takt(&mut app), (1, 1, 0), "standing: _Continue ran, solved, dropped");
    assert_eq!(takt(&mut app), (2, 1, 1), "raised again");
    assert_eq!(var(&app, 0, 13), 0, "dCurrentProblem named it");
}

fn outcomes(app: &App) -> Vec<(u32, Outcome)> {
    messages(app)
        .into_iter()
        .filter_map(|k| match k {
            GameMessageKind::Outcome { clan, outcome } => Some((clan, outcome)),
            _ => None,
        })
        .collect()
}

#[test]
fn function_30_records_the_players_outcome_a_repeat_is_ignored_and_a_failure_replaces_a_win() {
    let p = pkg(&[
        ("Init", vec![]),
        ("Win", vec![call(f::CALLBACK, None, &[SYSTEM, D1])]),
        ("Lose", vec![call(f::CALLBACK, None, &[SYSTEM, D0])]),
        ("Odd", vec![call(f::CALLBACK, None, &[SYSTEM, D2]), call(f::CALLBACK, None, &[D2, D3])]),
    ]);
    let mut app = app(&p, clans(2));
    send(&mut app, 1, "Win");
    let recorded = app.world().resource::<MissionOutcome>().clone();
    assert_eq!(
        (recorded.of(0), recorded.of(1)),
        (Some(Outcome::Completed), None),
        "any clan's script: the player's outcome"
    );
    assert_eq!(outcomes(&app), [(0, Outcome::Completed)]);
    send(&mut app, 0, "Win");
    assert_eq!(outcomes(&app), [], "a repeated complete is ignored");
    send(&mut app, 0, "Lose");
    assert_eq!(outcomes(&app), [(0, Outcome::Failed)]);
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), Some(Outcome::Failed), "a failure replaces the win");
    send(&mut app, 0, "Odd");
    let notes = notes(&app);
    assert!(
        notes.iter().any(|n| n.0 == "Odd" && n.1 == Some(0) && n.2 == Some(30) && n.3.contains("SYSTEM_MESSAGE 2")),
        "{notes:?}"
    );
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), Some(Outcome::Failed));
}

fn goals(world: &mut World) {
    let objective = |key: &str, bonus| Objective { key: key.into(), text: format!("{key} text"), bonus };
    world.insert_resource(MissionGoals {
        objectives: vec![objective("objective1", false), objective("objective2", false), objective("objective1", true)],
        messages: vec![0, 14],
    });
}

fn objectives(app: &App) -> Vec<(u32, ObjectiveChange)> {
    messages(app)
        .into_iter()
        .filter_map(|k| match k {
            GameMessageKind::Objective { id, change, .. } => Some((id, change)),
            _ => None,
        })
        .collect()
}

#[test]
fn objectives_complete_the_mission_when_every_primary_one_is_and_a_bonus_never_holds_it_back() {
    let fn30 = |kind, value| vec![call(f::CALLBACK, None, &[kind, value])];
    let p = pkg(&[
        ("Init", vec![]),
        ("C0", fn30(COMPLETE, D0)),
        ("C1", fn30(COMPLETE, D1)),
        ("F1", fn30(FAILED, D1)),
        ("P1", fn30(PROGRESS, D1)),
        ("Past", fn30(COMPLETE, ERR)),
    ]);
    let mut app = app_with(files_with(&p), clans(1), SuperAiPlugin::default(), goals);
    let state = |app: &App| app.world().resource::<SuperAis>().mission.objectives.clone();
    send(&mut app, 0, "C0");
    assert_eq!(objectives(&app), [(0, ObjectiveChange::Complete)]);
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), None, "objective 1 is still open");
    send(&mut app, 0, "F1");
    assert_eq!(objectives(&app), [(1, ObjectiveChange::Failed)]);
    send(&mut app, 0, "C0");
    assert_eq!(objectives(&app), [], "a repeated complete changes nothing");
    send(&mut app, 0, "C1");
    assert_eq!(objectives(&app), [(1, ObjectiveChange::Complete)]);
    assert_eq!(outcomes(&app), [(0, Outcome::Completed)], "every primary objective complete: the mission is");
    assert_eq!(
        state(&app),
        [ObjectiveState::Complete, ObjectiveState::Complete, ObjectiveState::Open],
        "the bonus is open"
    );
    send(&mut app, 0, "P1");
    assert_eq!(objectives(&app), [(1, ObjectiveChange::Progress)]);
    assert_eq!(state(&app)[1], ObjectiveState::Open, "progress un-completes");
    send(&mut app, 0, "Past");
    assert!(notes(&app).iter().any(|n| n.0 == "Past" && n.3.contains("objective 4294967295 is not in mission.cfg (3")));
}

#[test]
fn message_info_posts_the_messages_cfg_id_and_reports_an_id_the_mission_lacks() {
    let p = pkg(&[
        ("Init", vec![]),
        ("Say", vec![call(f::CALLBACK, None, &[INFO, D0]), call(f::CALLBACK, None, &[INFO, D2])]),
    ]);
    let mut app = app_with(files_with(&p), clans(2), SuperAiPlugin::default(), goals);
    send(&mut app, 1, "Say");
    let said: Vec<_> = messages(&app)
        .into_iter()
        .filter_map(|k| match k {
            GameMessageKind::Message { clan, id } => Some((clan, id)),
            _ => None,
        })
        .collect();
    assert_eq!(said, [(1, 0), (1, 2)], "ids in the order raised, any clan's");
    assert!(
        notes(&app).iter().any(|n| n.1 == Some(1) && n.3.contains("message 2 is not in the mission's messages.cfg"))
    );
}

/// Objects: logical 1 (clan 0 robot), 2 (clan 1 transport), CLASS_BUILDING|1 (clan 1
/// plant), 3 (clan 1 robot), CLASS_BUILDING|2 (clan 0 tree with a robot class).
fn objects(world: &mut World) {
    let rows = [
        (0, 1, 0, 0x0100_0000, ObjectKind::Unit),
        (1, 2, 1, 0x0100_2000, ObjectKind::Unit),
        (2, 0x8000_0001, 1, 0x8000_0010, ObjectKind::Building),
        (3, 3, 1, 0x0100_0000, ObjectKind::Unit),
        (4, 0x8000_0002, 0, 0x0100_0000, ObjectKind::Tree),
    ];
    for (id, logical, clan, class, kind) in rows {
        let mut e = world.spawn((
            OriginalObjectId(id),
            LogicalId(logical),
            Owner { clan, player: None },
            UnitClass(class),
            SimObject { kind },
            SimTransform { position: [5.0 + id as f32, 5.0, 0.0], ..SimTransform::default() },
        ));
        if kind == ObjectKind::Unit {
            e.insert(Movable);
        }
    }
    world.insert_resource(MindBoard { clans: [(1, (5, 3))].into() });
}

/// `Ask`: fn31(1, ROBOT), fn31(0, ROBOT), fn34(ROBOT), fn52(1), fn52(3), fn52(ERROR),
/// fn49 into dA, dB, dOut, X, Y, ClanID, fOut.
fn ask() -> Vec<Record> {
    vec![
        call(f::COUNT_CLASS, Some(DA), &[D1, ROBOT]),
        call(f::COUNT_CLASS, Some(DB), &[D0, ROBOT]),
        call(f::COUNT_TYPE, Some(D_OUT), &[ROBOT]),
        call(f::OWNER, Some(X), &[D1]),
        call(f::OWNER, Some(Y), &[D3]),
        call(f::OWNER, Some(CLAN), &[ERR]),
        call(f::FREE_MINDS, Some(F_OUT), &[]),
    ]
}

fn answers(app: &App) -> [u32; 7] {
    [DA, DB, D_OUT, X, Y, CLAN, F_OUT].map(|v| var(app, 1, v))
}

fn kill(app: &mut App, id: u32) {
    let mut q = app.world_mut().query::<(Entity, &OriginalObjectId)>();
    let e = q.iter(app.world()).find(|(_, i)| i.0 == id).unwrap().0;
    app.world_mut().despawn(e);
}

#[test]
fn counts_owners_and_minds_answer_from_the_world_and_a_destroyed_object_answers_65534() {
    let p = pkg(&[("Init", vec![]), ("Ask", ask())]);
    let mut app = app_with(files_with(&p), clans(2), SuperAiPlugin::default(), objects);
    send(&mut app, 1, "Ask");
    assert_eq!(answers(&app), [2, 1, 1, 0, 1, f::ERROR, 3], "units and buildings only; own clan's exact type");
    kill(&mut app, 3);
    send(&mut app, 1, "Ask");
    assert_eq!(answers(&app)[..5], [1, 1, 0, 0, f::DESTROYED_OWNER], "the count falls; the dead unit answers 65534");
    let mut filed = app_with(
        files_with(&p),
        clans(2),
        SuperAiPlugin { vm: VmConfig { counts: CountRule::Filed, ..VmConfig::default() }, ..SuperAiPlugin::default() },
        objects,
    );
    kill(&mut filed, 3);
    send(&mut filed, 1, "Ask");
    assert_eq!(answers(&filed)[..3], [2, 1, 1], "the list as read never forgets a filed object");
}

#[test]
fn function_15_gives_any_clans_unit_an_order_through_the_command_queue() {
    let order = |unit, order, target_kind, target| {
        call(f::ORDER_UNIT, Some(DA), &[unit, order, D1, D0, FA, FA, FA, FA, target_kind, target])
    };
    let p = pkg(&[
        ("Init", vec![]),
        ("Attack", vec![order(D2, D3, LOGIC, D1)]),
        ("Nobody", vec![order(ERR, D3, LOGIC, D1)]),
        // ORDER_ROBOT_BUILD (7, ClanID's value here) by logic id: not carried out.
        ("Build", vec![order(D2, CLAN, LOGIC, D1)]),
        ("Go", vec![call(f::ORDER_UNIT, Some(DA), &[D1, D2, D3, D0, FA, FA, FA, FA, PLACE, D3, D2])]),
    ]);
    let mut app = app_with(files_with(&p), clans(2), SuperAiPlugin::default(), objects);
    let pending = |app: &mut App| app.world_mut().resource_mut::<CommandQueue>().take_due(u32::MAX);
    send(&mut app, 0, "Attack");
    assert_eq!(var(&app, 0, DA), 1, "taken");
    let tick = app.world().resource::<GameClock>().tick;
    let mut commands = pending(&mut app);
    assert_eq!(commands.len(), 1);
    let c = commands.remove(0);
    assert_eq!(
        (c.units, c.order, c.queued),
        (vec![1], Order::Attack(0), true),
        "the other clan's unit 2 attacks unit 1, queued"
    );
    assert_eq!(c.tick, tick, "for the tick it runs in");
    send(&mut app, 0, "Nobody");
    assert_eq!(var(&app, 0, DA), 5, "no such object");
    send(&mut app, 0, "Build");
    assert_eq!(var(&app, 0, DA), 0, "refused");
    assert!(notes(&app).iter().any(|n| n.0 == "Build" && n.3.contains("order 7") && n.3.contains("refused")));
    send(&mut app, 0, "Go");
    let go = pending(&mut app);
    assert_eq!(
        (go[0].order, go[0].queued),
        (Order::MoveTo([3.0, 2.0]), false),
        "a place's words become floats; replace"
    );
}

#[test]
fn routes_are_polygons_with_the_ray_crossing_test() {
    let square = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
    assert!(routes::contains(&square, [5.0, 5.0]));
    assert!(!routes::contains(&square, [15.0, 5.0]) && !routes::contains(&square, [5.0, -1.0]));
    assert!(!routes::contains(&square, [0.0, 5.0]), "on the left edge both edges meet the ray at or right of it");
    assert!(routes::contains(&square, [10.0, 5.0]), "on the right edge only that one does");
    let l = [[0.0, 0.0], [10.0, 0.0], [10.0, 4.0], [4.0, 4.0], [4.0, 10.0], [0.0, 10.0]];
    assert!(routes::contains(&l, [2.0, 8.0]) && !routes::contains(&l, [8.0, 8.0]), "concave");
    assert!(!routes::contains(&square[..2], [5.0, 0.0]), "two points enclose nothing");
}

fn routed(world: &mut World) {
    objects(world);
    let square = vec![[0.0, 0.0, 0.0], [8.0, 0.0, 0.0], [8.0, 10.0, 0.0], [0.0, 10.0, 0.0]];
    world.insert_resource(MissionPaths(vec![
        MissionPath { id: 5, points: vec![[0.0; 3]; 3] },
        MissionPath { id: 0, points: square },
    ]));
}

fn place(app: &mut App, id: u32, at: [f32; 2]) {
    let mut q = app.world_mut().query::<(&OriginalObjectId, &mut SimTransform)>();
    for (i, mut t) in q.iter_mut(app.world_mut()) {
        if i.0 == id {
            t.position = [at[0], at[1], 0.0];
        }
    }
}

#[test]
fn function_32_answers_from_the_last_report_of_a_unit_in_a_routes_tactical_areal() {
    let p = pkg(&[
        ("Init", vec![]),
        ("Mission", vec![call(f::IN_ROUTE, Some(DA), &[D0, D1]), call(f::IN_ROUTE, Some(DB), &[D1, D2])]),
    ]);
    let mut app = app_with(files_with(&p), clans(1), SuperAiPlugin::default(), routed);
    let routes = &app.world().resource::<SuperAis>().mission.routes;
    assert_eq!(routes.outlines.len(), 2, "one areal per route");
    assert!(routes.outlines[1].is_empty(), "no route has id 1 (the other is 5)");
    assert_eq!((var(&app, 0, DA), var(&app, 0, DB)), (1, 0), "unit 1 reported inside route 0 at once");
    place(&mut app, 0, [9.0, 5.0]);
    ticks(&mut app, 200);
    assert_eq!(var(&app, 0, DA), 1, "out of the route but moved 4 (not more than 5), no areal change: not reported");
    place(&mut app, 0, [30.0, 5.0]);
    let moved = now(&app);
    while var(&app, 0, DA) == 1 {
        app.update();
        assert!(
            now(&app) - moved <= routes::TAKT_BASE_MS + routes::TAKT_SPREAD_MS + MISSION_PERIOD_MS + 128,
            "a takt reports it"
        );
    }
    let report = &app.world().resource::<SuperAis>().mission.routes.units[&0];
    assert_eq!((report.at, report.inside.len()), ([30.0, 5.0], 0));
    kill(&mut app, 0);
    assert!(
        !app.world().resource::<SuperAis>().mission.routes.units.contains_key(&0),
        "a deleted unit leaves the lists"
    );
}

#[test]
fn the_state_survives_a_save_and_a_restore_over_a_fresh_start() {
    let p = pkg(&[
        ("Init", vec![]),
        ("Mission", vec![Record::formula_into(DA, 3), call(f::RANDOM, Some(DB), &[D3])]),
        ("Problems0", vec![call(f::RAISE_PROBLEM, None, &[PBM, FA, D1, D2, D3, D1, D2])]),
        ("PBM_TEST_Start", vec![]),
        ("PBM_TEST_Continue", vec![]),
        ("C0", vec![call(f::CALLBACK, None, &[COMPLETE, D0])]),
    ]);
    let mut app = app_with(files_with(&p), clans(2), SuperAiPlugin::default(), |w| {
        goals(w);
        routed(w);
    });
    send(&mut app, 0, "C0");
    ticks(&mut app, 150);
    let state = app.world().resource::<SuperAis>().state();
    assert_eq!(state.clans[0].vm.as_ref().unwrap().problems.list.len(), 1);
    let mut fresh = app_with(files_with(&p), clans(2), SuperAiPlugin::default(), |w| {
        goals(w);
        routed(w);
    });
    fresh.world_mut().resource_mut::<SuperAis>().restore(state.clone()).unwrap();
    assert_eq!(fresh.world().resource::<SuperAis>().state(), state);
    let hash = |app: &App| {
        let mut h = Fnv1a::default();
        app.world().resource::<SuperAis>().hash_into(&mut h);
        h.0
    };
    assert_eq!(hash(&fresh), hash(&app));
    assert!(!fresh.world().resource::<SuperAis>().mission.routes.outlines.is_empty(), "the areals stay the mission's");
    let mut other = state;
    other.mission.objectives.pop();
    assert!(fresh.world_mut().resource_mut::<SuperAis>().restore(other).unwrap_err().contains("objectives"));
}

#[test]
fn the_every_enemy_out_victory_rule_stays_only_for_a_player_package_that_never_records_the_outcome() {
    let quiet = pkg(&[("Init", vec![]), ("Say", vec![call(f::CALLBACK, None, &[INFO, D0])])]);
    let app = app(&quiet, clans(2));
    assert!(app.world().resource::<EnemyOutVictory>().0);
    assert!(start_notes(&app).iter().any(|n| n.3.contains("can never record the outcome")));
    let scripted = pkg(&[("Init", vec![]), ("Win", vec![call(f::CALLBACK, None, &[SYSTEM, D1])])]);
    let app = self::app(&scripted, clans(2));
    assert!(!app.world().resource::<EnemyOutVictory>().0, "SYSTEM_MESSAGE: the scripts decide");
    assert!(start_notes(&app).iter().any(|n| n.3.contains("victory rule is off")));
    let written = pkg(&[("Init", vec![Record::copy(DA, D0)]), ("Win", vec![call(f::CALLBACK, None, &[DA, D1])])]);
    assert!(!self::app(&written, clans(2)).world().resource::<EnemyOutVictory>().0, "a kind a node may set to 0");
}

#[test]
fn a_fallback_outcome_is_recorded_through_the_host_callback_only_when_none_is() {
    let p = pkg(&[("Init", vec![]), ("Lose", vec![call(f::CALLBACK, None, &[SYSTEM, D0])])]);
    let request = |event: &str, fallback| RunScriptEvent { slot: 0, event: event.into(), fallback: Some(fallback) };
    let mut app = app(&p, clans(1));
    app.world_mut().write_message(request("Lose", Outcome::Completed));
    app.update();
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), Some(Outcome::Failed), "the script's own outcome stays");
    let mut other = self::app(&p, clans(1));
    other.world_mut().write_message(request("Mission_Complete", Outcome::Completed));
    other.update();
    assert_eq!(
        other.world().resource::<MissionOutcome>().of(0),
        Some(Outcome::Completed),
        "no such event: the fallback"
    );
    assert!(notes(&other).iter().any(|n| n.0 == "Mission_Complete" && n.3 == "no such event"));
    assert_eq!(outcomes(&other), [(0, Outcome::Completed)], "posted like function 30's");
}

#[test]
fn an_unknown_function_is_reported_once_naming_the_handler_node_and_function() {
    let p = pkg(&[("Init", vec![]), ("Mission", vec![Record::formula_into(DA, 3), call(44, None, &[D1])])]);
    let mut app = app(&p, clans(1));
    let mut seen = start_notes(&app).into_iter().filter(|n| n.3.starts_with("unsupported")).collect::<Vec<_>>();
    for _ in 0..100 {
        app.update();
        seen.extend(notes(&app).into_iter().filter(|n| n.3.starts_with("unsupported")));
    }
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!((seen[0].0.as_str(), seen[0].1, seen[0].2), ("Mission", Some(1), Some(44)));
    assert!(var(&app, 0, DA) >= 3, "the nodes before it still run every time");
}

#[test]
fn a_stopped_init_keeps_what_ran_or_under_strict_load_costs_the_slot() {
    let p = pkg(&[("Init", vec![call(f::CLAN_BASE, None, &[X, Y, CLAN]), call(40, None, &[])])]);
    let lenient = app(&p, vec![clan(0, "MISSIONS/SCRIPTS/test", [5.0, 6.0])]);
    assert_eq!(lenient.world().resource::<SuperAiSlots>().get(0), Some(0));
    assert_eq!(var(&lenient, 0, X), 5, "function 19 ran before the stop");
    let strict = app_with(
        files_with(&p),
        vec![clan(0, "MISSIONS/SCRIPTS/test", [5.0, 6.0])],
        SuperAiPlugin { init: InitPolicy::Strict, ..SuperAiPlugin::default() },
        |_| {},
    );
    assert_eq!(strict.world().resource::<SuperAiSlots>().get(0), None);
    assert!(strict.world().resource::<SuperAis>().clans[0].error.as_deref().unwrap().contains("strict"));
}

#[test]
fn a_package_for_another_table_length_is_reported_and_runs() {
    let mut p = pkg(&[("Init", vec![Record::copy(DA, D1)])]);
    p.function_count = 59;
    let app = app(&p, clans(1));
    assert_eq!(var(&app, 0, DA), 1);
    assert!(start_notes(&app).iter().any(|n| n.3.contains("compiled for 59 functions")));
}
