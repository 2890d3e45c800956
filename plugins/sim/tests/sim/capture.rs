//! Capture through a building's control pod, the escape after it, and the hero's Enter,
//! boarding and leaving (openparkan `docs/27-ownership.md`, `docs/39-boarding.md`,
//! read): who may capture, the pod's time, the new owner, the landing places and
//! "Risk area! Landing impossible.".

use super::*;
use iron3d_behavior::{ENTER_REACH, Navigator, RISK_AREA, pod_fire_ms};
use iron3d_core::{Place, Places, SearchFor, place};

const MINE: u32 = 1;
const SCOUT: u32 = 2;
const HERO: u32 = 3;
const BOT: u32 = 4;
const NEUTRAL_BOT: u32 = 5;
const BIG: u32 = 6;

/// Clan 2's mine at (60, 60), 5 each way, its control pod indoors 2.5 west of its
/// middle; clan 1's scout (size class 2) at (20, 60); clans of types nature, player,
/// enemy and neutral.
fn a_mine_and_a_scout() -> (App, Entity, Entity) {
    let mut app = world_app(flat, |_, _| false);
    app.world_mut().insert_resource(ClanRelations::uniform(vec![0, 1, 2, 3], 0));
    let mine = spawn_building(app.world_mut(), MINE, [60.0, 60.0], [5.0, 5.0]);
    let pod = Place { flags: place::POD, at: [-2.5, 0.0, 0.6], joint: 0 };
    app.world_mut().entity_mut(mine).insert((
        UnitClass(UnitClass::MINE),
        Owner { clan: 2, player: None },
        Places(vec![pod]),
    ));
    let scout = warrior(&mut app, (SCOUT, 1), [20.0, 60.0], 1.0, 2);
    (app, mine, scout)
}

/// A warrior `(id, clan)` of `radius` and size class `size` at `at`.
fn warrior(app: &mut App, (id, clan): (u32, i32), at: [f32; 2], radius: f32, size: u8) -> Entity {
    let e = spawn_unit(app.world_mut(), id, clan, at, 0.0, radius);
    app.world_mut().entity_mut(e).insert((UnitClass(UnitClass::BATTLE_UNIT), SizeClass(size)));
    e
}

/// The `rejected` events' ids and details.
fn refusals(app: &App) -> Vec<(Vec<u32>, String)> {
    events(app, EventKind::Rejected).into_iter().map(|e| (e.1, e.2)).collect()
}

fn owner(app: &App, e: Entity) -> i32 {
    app.world().get::<Owner>(e).unwrap().clan
}

fn nav(app: &App, e: Entity) -> Order {
    app.world().get::<Navigator>(e).unwrap().order
}

/// Until `until` holds or `limit` ticks pass; the tick it first held.
fn run_until(app: &mut App, limit: u32, until: impl Fn(&App) -> bool) -> u32 {
    for _ in 0..limit {
        app.update();
        if until(app) {
            return app.world().resource::<GameClock>().tick;
        }
    }
    panic!("not within {limit} ticks");
}

#[test]
fn a_small_unit_takes_a_building_at_its_pod_after_the_pods_time_then_escapes() {
    let (mut app, mine, scout) = a_mine_and_a_scout();
    order(&mut app, vec![SCOUT], Order::Capture(MINE));
    let inside = run_until(&mut app, 600, |app| app.world().get::<Indoors>(scout).is_some());
    assert_eq!(app.world().get::<Indoors>(scout), Some(&Indoors(MINE)));
    let p = pos(&app, scout);
    assert!(dist2(p, [57.5, 60.0]) < 0.5, "on the pod, inside the walls: {p:?}");
    let taken = run_until(&mut app, 200, |app| !events(app, EventKind::Captured).is_empty());
    let due = pod_fire_ms(UnitClass::MINE).div_ceil(TICK_MS);
    assert_eq!(taken - inside, due, "a mine's pod fires 1.8 s after the scout stands in it");
    assert_eq!(events(&app, EventKind::Captured), [(taken, vec![MINE, SCOUT], "from=2 to=1".to_string())]);
    assert_eq!(owner(&app, mine), 1);
    // The order ends with the building its clan's, and the scout escapes.
    let out = run_until(&mut app, 600, |app| nav(app, scout) == Order::Stop);
    assert!(out > taken);
    assert!(app.world().get::<Indoors>(scout).is_none(), "out of the building");
    let d = dist2(pos(&app, scout), [60.0, 60.0]);
    let circle = app.world().get::<CollisionProxy>(mine).unwrap().radius;
    assert!(d >= circle + 15.0 && d <= circle + 75.0, "20 to 70 beyond the building's circle: {d} ({circle})");
    assert!(events(&app, EventKind::Rejected).is_empty());
}

#[test]
fn a_capture_leaving_the_pod_before_its_time_takes_nothing_and_the_pod_waits_5_s() {
    let (mut app, mine, scout) = a_mine_and_a_scout();
    order(&mut app, vec![SCOUT], Order::Capture(MINE));
    run_until(&mut app, 600, |app| app.world().get::<Indoors>(scout).is_some());
    run(&mut app, 10);
    order(&mut app, vec![SCOUT], Order::Leave);
    run(&mut app, 2);
    assert!(app.world().get::<Indoors>(scout).is_none());
    let closed = app.world().resource::<iron3d_behavior::Pods>().0[&MINE].closed_ms.unwrap();
    assert_eq!(owner(&app, mine), 2, "gone before the pod fired");
    // Back in at once: the pod opens only 5 s after it closed.
    order(&mut app, vec![SCOUT], Order::Capture(MINE));
    let taken = run_until(&mut app, 800, |app| !events(app, EventKind::Captured).is_empty());
    let at = app.world().resource::<GameClock>().time_ms;
    assert!(at >= closed + 5_000 + pod_fire_ms(UnitClass::MINE), "{at} vs closed at {closed}");
    assert_eq!(events(&app, EventKind::Captured)[0].0, taken);
}

#[test]
fn only_small_units_capture_and_never_their_own_clans_building() {
    let (mut app, mine, _) = a_mine_and_a_scout();
    let big = warrior(&mut app, (BIG, 1), [20.0, 40.0], 2.0, 4);
    order(&mut app, vec![BIG], Order::Capture(MINE));
    run(&mut app, 3);
    app.world_mut().get_mut::<Owner>(mine).unwrap().clan = 1;
    order(&mut app, vec![SCOUT], Order::Capture(MINE));
    run(&mut app, 300);
    assert_eq!(
        refusals(&app),
        [
            (vec![BIG, MINE], "capture: object 6 is of size class 4, only 1 and 2 capture".to_string()),
            (vec![SCOUT, MINE], "capture: building 1 is already of clan 1".to_string()),
        ]
    );
    assert!(events(&app, EventKind::Captured).is_empty());
    assert_eq!((nav(&app, big), owner(&app, mine)), (Order::Stop, 1));
}

/// The hero (size 2) of clan 1 at (20, 20), and clan 1's large bot with a turret, 2 in
/// radius, at (70, 20).
fn a_hero_and_a_bot() -> (App, Entity, Entity) {
    let mut app = world_app(flat, |x, y| (x, y) == (10, 10));
    app.world_mut().insert_resource(ClanRelations::uniform(vec![0, 1, 2, 3], 0));
    let hero = spawn_unit(app.world_mut(), HERO, 1, [20.0, 20.0], 0.0, 1.0);
    app.world_mut().entity_mut(hero).insert((UnitClass(UnitClass::HERO), SizeClass(2)));
    let bot = spawn_unit(app.world_mut(), BOT, 1, [70.0, 20.0], 0.0, 2.0);
    let weapon = Weapon { kind: 0, range: 100.0, damage: 1.0, projectile_speed: 0.0, turn_rate: 1.0, turret: 0.0 };
    app.world_mut().entity_mut(bot).insert((UnitClass(UnitClass::BATTLE_UNIT), SizeClass(4), weapon));
    (app, hero, bot)
}

#[test]
fn the_hero_walks_within_20_boards_his_large_bot_and_leaves_it_at_the_first_landing_place() {
    let (mut app, hero, bot) = a_hero_and_a_bot();
    order(&mut app, vec![HERO], Order::Board(BOT));
    let mut last = pos(&app, hero);
    while app.world().get::<Aboard>(hero).is_none() {
        last = pos(&app, hero);
        app.update();
        assert!(app.world().resource::<GameClock>().tick < 600, "boards in time");
    }
    let boarded = app.world().resource::<GameClock>().tick;
    assert_eq!(events(&app, EventKind::Boarded), [(boarded, vec![HERO, BOT], String::new())]);
    let bot_at = pos(&app, bot);
    assert!(dist2(bot_at, [70.0, 20.0]) < 0.5, "the bot stayed where it was");
    // He walked until under 20 away, boarded from there and is now where his bot is.
    let from = dist2(last, [bot_at[0], bot_at[1]]);
    assert!(from < ENTER_REACH && from > ENTER_REACH - 2.0, "boarded from {from} away");
    assert!(dist2(pos(&app, hero), [bot_at[0], bot_at[1]]) < 1e-3, "{:?} {bot_at:?}", pos(&app, hero));
    order(&mut app, vec![HERO], Order::Leave);
    let left = run_until(&mut app, 5, |app| app.world().get::<Aboard>(hero).is_none());
    assert_eq!(events(&app, EventKind::Left), [(left, vec![HERO, BOT], String::new())]);
    // The first place, due +x of the bot at its radius plus his, facing it.
    let r = app.world().get::<CollisionProxy>(bot).unwrap().radius
        + app.world().get::<CollisionProxy>(hero).unwrap().radius;
    let out = pos(&app, hero);
    assert!(dist2(out, [bot_at[0] + r, bot_at[1]]) < 0.05, "{out:?}, r {r}");
    let heading = app.world().get::<SimTransform>(hero).unwrap().heading();
    assert!((heading.abs() - std::f32::consts::PI).abs() < 1e-3, "facing the bot: {heading}");
}

#[test]
fn no_landing_place_keeps_the_hero_aboard_at_risk_and_a_lost_bot_puts_him_out() {
    let (mut app, hero, bot) = a_hero_and_a_bot();
    // The bot stands in the middle of an unwalkable cell (10, 10): all eight places fail.
    app.world_mut().get_mut::<SimTransform>(bot).unwrap().position = [105.0, 105.0, 0.0];
    app.world_mut().entity_mut(hero).insert(Aboard(BOT));
    run(&mut app, 2);
    let due = app.world().resource::<GameClock>().tick + 1;
    order(&mut app, vec![HERO], Order::Leave);
    run(&mut app, 3);
    assert_eq!(events(&app, EventKind::Rejected), [(due, vec![HERO, BOT], RISK_AREA.to_string())]);
    assert_eq!(app.world().get::<Aboard>(hero), Some(&Aboard(BOT)), "still aboard");
    assert!(events(&app, EventKind::Left).is_empty());
    // The bot is destroyed: out at (x - 1, y - 1).
    app.world_mut().entity_mut(bot).insert(Health { hp: 0.0, max: 10.0, invulnerable: false });
    run(&mut app, 1);
    assert!(app.world().get::<Aboard>(hero).is_none());
    // Put at (104, 104), untested, beside the wreck's circle, which pushes him out of it.
    let d = dist2(pos(&app, hero), [105.0, 105.0]);
    assert!(d > 1.4 && d < 3.5, "{:?}", pos(&app, hero));
    assert_eq!(events(&app, EventKind::Left).len(), 1);
}

#[test]
fn the_heros_enter_takes_a_neutral_unit_without_a_mind_and_refuses_what_it_may_not() {
    let (mut app, hero, bot) = a_hero_and_a_bot();
    let neutral = warrior(&mut app, (NEUTRAL_BOT, 3), [30.0, 40.0], 1.5, 2);
    order(&mut app, vec![BOT], Order::Board(NEUTRAL_BOT));
    run(&mut app, 2);
    order(&mut app, vec![HERO], Order::Capture(NEUTRAL_BOT));
    let taken = run_until(&mut app, 300, |app| !events(app, EventKind::Captured).is_empty());
    assert_eq!(events(&app, EventKind::Captured), [(taken, vec![NEUTRAL_BOT, HERO], "from=3 to=1".to_string())]);
    assert_eq!(owner(&app, neutral), 1);
    assert!(app.world().get::<Mindless>(neutral).is_some(), "taken by Enter, it holds no mind");
    assert!(app.world().get::<Aboard>(hero).is_none(), "a small bot is not boarded");
    // A second Enter on it (now his, small): refused; the bot's Enter was refused too.
    order(&mut app, vec![HERO], Order::Board(NEUTRAL_BOT));
    run(&mut app, 3);
    assert_eq!(
        refusals(&app),
        [
            (vec![BOT, NEUTRAL_BOT], "enter: object 4 is not the hero".to_string()),
            (vec![HERO, NEUTRAL_BOT], "board: unit 5 is no large bot with a turret of the hero's clan".to_string()),
        ]
    );
    assert_eq!(owner(&app, bot), 1);
}

/// An escape in the open: on the demo's map, to a walkable point at least 100 inside the
/// map within 150 of the unit along each axis; on a map too small for that margin, the
/// unit stays (the original's "Cannot Leave").
#[test]
fn an_escape_in_the_open_ends_inside_the_map_or_not_at_all() {
    let (mut small, _, scout) = a_mine_and_a_scout();
    order(&mut small, vec![SCOUT], Order::Leave);
    run(&mut small, 5);
    assert_eq!((nav(&small, scout), pos(&small, scout)), (Order::Stop, [20.0, 60.0, 0.0]), "nowhere to go");
    let mut app = super::quiet_tutorial();
    run(&mut app, 1);
    let mut q = app.world_mut().query_filtered::<(&OriginalObjectId, &Owner, Entity), With<Movable>>();
    let (id, unit) = q.iter(app.world()).filter(|u| u.1.clan == 1).map(|u| (u.0.0, u.2)).min().unwrap();
    let from = pos(&app, unit);
    order(&mut app, vec![id], Order::Leave);
    run(&mut app, 3);
    let goal = app.world().get::<Navigator>(unit).unwrap().goal;
    assert!((goal[0] - from[0]).abs() <= 150.0 && (goal[1] - from[1]).abs() <= 150.0, "{goal:?} from {from:?}");
    let (lo, hi) = app.world().resource::<iron3d_terrain::NavMap>().extent().unwrap();
    assert!((0..2).all(|k| goal[k] >= lo[k] + 100.0 && goal[k] <= hi[k] - 100.0), "{goal:?} in {lo:?}..{hi:?}");
    run_until(&mut app, 2000, |app| nav(app, unit) == Order::Stop);
    assert!(dist2(pos(&app, unit), goal) < 10.0, "it walked there");
}

/// Search and capture (the original's search by building type, read): the nearest
/// building of another clan first, a generator counted at half its distance, then the
/// next from its pod with no escape between, the search going on with none left; a
/// large unit is refused.
#[test]
fn search_and_capture_takes_the_generator_first_then_the_mine_without_an_escape() {
    let (mut app, mine, scout) = a_mine_and_a_scout();
    // A generator a little farther than the mine, but nearer at half its distance.
    let generator = spawn_building(app.world_mut(), 7, [20.0, 110.0], [5.0, 5.0]);
    let pod = Place { flags: place::POD, at: [0.0, -2.5, 0.6], joint: 0 };
    let generator_class = UnitClass(0x8000_0002);
    app.world_mut().entity_mut(generator).insert((generator_class, Owner { clan: 2, player: None }, Places(vec![pod])));
    warrior(&mut app, (BIG, 1), [20.0, 20.0], 2.0, 4);
    order(&mut app, vec![SCOUT], Order::Search(SearchFor::Capture));
    order(&mut app, vec![BIG], Order::Search(SearchFor::Capture));
    run_until(&mut app, 3_000, |app| events(app, EventKind::Captured).len() == 2);
    let taken: Vec<u32> = events(&app, EventKind::Captured).iter().map(|e| e.1[0]).collect();
    assert_eq!(taken, [7, MINE], "the generator at half its 50 first, then the mine 40 away");
    assert_eq!((owner(&app, generator), owner(&app, mine)), (1, 1));
    run(&mut app, 2);
    assert_eq!(nav(&app, scout), Order::Search(SearchFor::Capture), "a search by type never ends");
    assert!(app.world().get::<Indoors>(scout).is_none(), "out of the mine, by its door");
    assert!(
        refusals(&app).iter().any(|r| r.0 == [BIG] && r.1.contains("not of size class 1 or 2")),
        "{:?}",
        refusals(&app)
    );
}

/// Seek and destroy (read): the nearest hostile warrior, builder or transport within
/// 3 000, never a hero.
#[test]
fn seek_and_destroy_goes_for_the_nearest_hostile_robot_but_never_a_hero() {
    let (mut app, _, scout) = a_mine_and_a_scout();
    let hero = warrior(&mut app, (HERO, 2), [30.0, 60.0], 1.0, 2);
    app.world_mut().entity_mut(hero).insert(UnitClass(UnitClass::HERO));
    let prey = spawn_unit(app.world_mut(), BOT, 2, [100.0, 100.0], 0.0, 1.5);
    app.world_mut().entity_mut(prey).insert(UnitClass(UnitClass::TRANSPORT));
    order(&mut app, vec![SCOUT], Order::Search(SearchFor::Enemies));
    run(&mut app, 3);
    let goal = app.world().get::<Navigator>(scout).unwrap().goal;
    assert_eq!(goal, [100.0, 100.0], "the transport, past the nearer hero");
}

/// A small unit told to guard another clan's building captures it first, escapes from
/// it and guards it then (openparkan `docs/31-packages.md`, the patrol, read).
#[test]
fn a_small_guard_of_another_clans_building_takes_it_escapes_and_guards_it() {
    use iron3d_core::{Guard, Ward};
    let (mut app, mine, scout) = a_mine_and_a_scout();
    let guard = Order::Guard(Guard { ward: Ward::Object(MINE), radius: 0.0 });
    order(&mut app, vec![SCOUT], guard);
    run_until(&mut app, 600, |app| nav(app, scout) == Order::Capture(MINE));
    let taken = run_until(&mut app, 800, |app| owner(app, mine) == 1);
    assert_eq!(events(&app, EventKind::Captured), [(taken, vec![MINE, SCOUT], "from=2 to=1".to_string())]);
    run_until(&mut app, 10, |app| nav(app, scout) == Order::Leave);
    run_until(&mut app, 600, |app| nav(app, scout) == guard);
    assert!(app.world().get::<Indoors>(scout).is_none(), "out of the building");
    run(&mut app, 5);
    let points = &app.world().resource::<iron3d_behavior::Guards>().0[&SCOUT].points;
    assert_eq!(points.len(), 4, "its own building now: it walks the corners");
}

/// [`a_mine_and_a_scout`] with the mine the player's clan's and its hero at `at`, a tick
/// on: the app and the hero.
fn the_heros_mine_and_him_at(at: [f32; 2]) -> (App, Entity) {
    let (mut app, mine, _) = a_mine_and_a_scout();
    app.world_mut().get_mut::<Owner>(mine).unwrap().clan = 1;
    let hero = spawn_unit(app.world_mut(), HERO, 1, at, 0.0, 1.0);
    app.world_mut().entity_mut(hero).insert((UnitClass(UnitClass::HERO), SizeClass(2)));
    run(&mut app, 1);
    (app, hero)
}

/// The hero sent from afar to his own clan's building walks to it, halts within reach of
/// its door and goes in onto the pod, which fires for him: his walk's speed does not
/// carry him off the pod.
#[test]
fn the_hero_sent_from_afar_goes_in_onto_his_own_buildings_pod_and_it_opens() {
    let (mut app, hero) = the_heros_mine_and_him_at([10.0, 100.0]);
    order(&mut app, vec![HERO], Order::Board(MINE));
    let opened = run_until(&mut app, 800, |app| !events(app, EventKind::Opened).is_empty());
    assert_eq!(events(&app, EventKind::Opened), [(opened, vec![MINE, HERO], String::new())]);
    let p = pos(&app, hero);
    assert!(dist2(p, [57.5, 60.0]) < 0.5, "on the pod: {p:?}");
}

/// The hero's Enter at the door of his own clan's building takes him in to its pod, and
/// the pod fires for him after its time (`opened`, the original's same-clan callback);
/// driven by the player from too far, he is refused; walked out of the walls, he is
/// indoors no more. A capture fires the pod for the capturer as well.
#[test]
fn the_heros_enter_takes_him_to_his_own_buildings_pod_which_opens_for_him() {
    let (mut app, hero) = the_heros_mine_and_him_at([48.0, 60.0]);
    order(&mut app, vec![SCOUT], Order::Board(MINE));
    order(&mut app, vec![HERO], Order::Board(MINE));
    run(&mut app, 2);
    assert_eq!(app.world().get::<Indoors>(hero), Some(&Indoors(MINE)), "in at once from the door");
    let p = pos(&app, hero);
    assert!(dist2(p, [57.5, 60.0]) < 0.5, "on the pod: {p:?}");
    assert_eq!(refusals(&app), [(vec![SCOUT, MINE], "enter: object 2 is not the hero".to_string())]);
    let opened = run_until(&mut app, 100, |app| !events(app, EventKind::Opened).is_empty());
    assert_eq!(events(&app, EventKind::Opened), [(opened, vec![MINE, HERO], String::new())]);
    assert!(events(&app, EventKind::Captured).is_empty(), "his own clan's already");
    // Walked out of the walls by hand, he is indoors no more.
    app.world_mut().get_mut::<SimTransform>(hero).unwrap().position = [40.0, 60.0, 0.0];
    run(&mut app, 2);
    assert!(app.world().get::<Indoors>(hero).is_none());
    // Driven by the player from afar, his Enter is refused.
    app.world_mut().entity_mut(hero).insert(ManualControl::default());
    app.world_mut().get_mut::<SimTransform>(hero).unwrap().position = [10.0, 100.0, 0.0];
    order(&mut app, vec![HERO], Order::Board(MINE));
    run(&mut app, 2);
    assert!(refusals(&app).iter().any(|r| r.0 == [HERO, MINE] && r.1.contains("door is")), "{:?}", refusals(&app));
}

#[test]
fn a_capture_fires_the_pod_for_its_capturer_too() {
    let (mut app, _, _) = a_mine_and_a_scout();
    order(&mut app, vec![SCOUT], Order::Capture(MINE));
    let taken = run_until(&mut app, 800, |app| !events(app, EventKind::Captured).is_empty());
    assert_eq!(events(&app, EventKind::Opened), [(taken, vec![MINE, SCOUT], String::new())]);
}
