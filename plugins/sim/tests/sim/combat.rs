//! Combat on hand-built worlds (bodies and guns from the rules file, the project's):
//! radar targets by clan relation, turrets that turn at their rate, armour,
//! invulnerability, the attack order, destruction through the World3D deferred
//! deletion, and determinism; and bodies and guns from the demo's data.

use super::*;
use iron3d_combat::{Body, CombatRules};
use iron3d_core::ClanType;

const BATTLE_UNIT: u32 = 0x0100_8000;
const PLANT: u32 = 0x8000_0010;

/// Two clans (1 and 2) at war or at peace, on the flat 120 × 120 map.
fn battlefield(war: bool) -> App {
    let mut app = world_app(flat, |_, _| false);
    relate(&mut app, war);
    app
}

/// Two clans at war on a flat 500 × 500 map (for radars' ranges).
fn wide_battlefield() -> App {
    let mut app = headless_app();
    iron3d_sim::testing::publish_map(app.world_mut(), 50, 10.0, flat, |_, _| false).unwrap();
    enter_game(&mut app);
    relate(&mut app, true);
    app
}

/// Clans 1 and 2 at war or at peace.
fn relate(app: &mut App, war: bool) {
    let mut relations = ClanRelations::uniform(vec![ClanType::NATURE, ClanType::PLAYER, ClanType::ENEMY], 1);
    let word = if war { iron3d_core::relation::HOSTILE } else { iron3d_core::relation::NEUTRAL };
    (relations.words[1][2], relations.words[2][1]) = (word, word);
    app.world_mut().insert_resource(relations);
}

fn robot(app: &mut App, id: u32, clan: i32, at: [f32; 2], heading: f32) -> Entity {
    let e = spawn_unit(app.world_mut(), id, clan, at, heading, 2.0);
    app.world_mut().entity_mut(e).insert(UnitClass(BATTLE_UNIT));
    e
}

/// The player's hero: a robot of clan 1 with the hero's Type.
fn hero(app: &mut App, id: u32, at: [f32; 2]) -> Entity {
    let e = robot(app, id, 1, at, 0.0);
    app.world_mut().entity_mut(e).insert(UnitClass(UnitClass::HERO));
    e
}

fn cannon(app: &App) -> iron3d_rules::WeaponRule {
    app.world().resource::<CombatRules>().0.weapon("cannon").unwrap().1.clone()
}

/// Leaves an object `life` of life (its one node's).
fn hurt(app: &mut App, e: Entity, life: f32) {
    app.world_mut().get_mut::<Body>(e).unwrap().nodes[0].life = life;
    app.world_mut().get_mut::<Health>(e).unwrap().hp = life;
}

fn health(app: &App, e: Entity) -> Option<Health> {
    app.world().get_entity(e).ok().and_then(|e| e.get::<Health>().copied())
}

#[test]
fn clans_at_war_fight_until_one_is_destroyed_and_it_leaves_through_world3d() {
    let mut app = battlefield(true);
    let a = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    let b = robot(&mut app, 2, 2, [80.0, 60.0], std::f32::consts::PI);
    // The second robot starts hurt, so the duel has a winner.
    run(&mut app, 1);
    hurt(&mut app, b, 100.0);
    run(&mut app, 400);
    assert!(health(&app, a).is_some_and(|h| h.hp < h.max), "the winner took hits too");
    assert!(app.world().get_entity(b).is_err(), "the loser is gone");
    let destroyed = events(&app, EventKind::Destroyed);
    assert_eq!(destroyed.len(), 1, "{destroyed:?}");
    assert_eq!(destroyed[0].1, vec![2, 1], "destroyed by the other robot");
    let deleted = events(&app, EventKind::Deleted);
    assert_eq!(deleted.iter().map(|d| (d.0, d.1.clone())).collect::<Vec<_>>(), vec![(destroyed[0].0, vec![2])]);
    let damaged = events(&app, EventKind::Damaged);
    assert!(damaged.iter().any(|d| d.1 == vec![1, 2]) && damaged.iter().any(|d| d.1 == vec![2, 1]));
    assert!(damaged.iter().all(|d| d.0 <= destroyed[0].0), "no hit after the destruction");
    let mut shells = app.world_mut().query::<&Projectile>();
    assert!(shells.iter(app.world()).all(|p| p.target != 2), "no shell flies at it");
}

#[test]
fn clans_at_peace_do_not_fight() {
    let mut app = battlefield(false);
    let a = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    let b = robot(&mut app, 2, 2, [80.0, 60.0], 0.0);
    run(&mut app, 100);
    assert!(events(&app, EventKind::Damaged).is_empty());
    assert_eq!(app.world().get::<Radar>(a).unwrap().target, None);
    assert_eq!(health(&app, b).unwrap().hp, health(&app, b).unwrap().max);
}

#[test]
fn a_nature_clans_machine_attacks_every_clan_and_no_radar_lists_it() {
    let mut app = battlefield(false);
    let a = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    let nature = robot(&mut app, 3, 0, [60.0, 60.0], 0.0);
    let b = robot(&mut app, 2, 2, [80.0, 60.0], 0.0);
    run(&mut app, 100);
    assert!(app.world().get::<Radar>(nature).unwrap().target.is_some(), "the animal picks a target");
    assert_eq!(app.world().get::<Radar>(a).unwrap().target, None, "types 0 are dropped from radar lists");
    assert_eq!(app.world().get::<Radar>(b).unwrap().target, None);
    let damaged = events(&app, EventKind::Damaged);
    assert!(!damaged.is_empty() && damaged.iter().all(|d| d.1[1] == 3), "only the animal fires: {damaged:?}");
}

#[test]
fn a_turret_turns_at_its_rate_before_the_first_shot_and_armour_absorbs_its_share() {
    let mut app = battlefield(true);
    // The target stands behind the shooter: the turret must turn half a circle.
    let shooter = robot(&mut app, 1, 1, [60.0, 60.0], 0.0);
    let target = spawn_building(app.world_mut(), 2, [20.0, 60.0], [3.0, 3.0]);
    app.world_mut().entity_mut(target).insert((UnitClass(PLANT), Owner { clan: 2, player: None }));
    let w = cannon(&app);
    let fired_by = |app: &App| events(app, EventKind::Damaged).first().map(|d| d.0);
    let turn_ticks = (std::f32::consts::PI / w.turn_degrees.to_radians() / 0.064) as u32;
    run(&mut app, turn_ticks.saturating_sub(2));
    assert_eq!(fired_by(&app), None, "no shot before the turret faces the target");
    assert!(app.world().get::<Weapon>(shooter).unwrap().turret.abs() > 1.0, "the turret turned");
    run(&mut app, 200);
    let first = events(&app, EventKind::Damaged);
    assert!(!first.is_empty(), "it fires once aimed");
    let plant = app.world().resource::<CombatRules>().0.class(PLANT).unwrap().armour;
    let through = w.damage * (1.0 - plant);
    assert_eq!(first[0].2, format!("node=0 amount={through} hp={}", 3000.0 - through));
}

/// A shielded robot's bubble meets the rounds from its front: the cannon's rounds (45,
/// less than the sector's 150 of strength) stop there, each costing it 90 points; the
/// fourth outweighs the 15 left, empties the sector and hurts the robot for the rest
/// (30, 24 through its armour); the next pass whole.
#[test]
fn a_bubble_stops_rounds_in_the_sector_they_come_from_until_it_is_spent() {
    use iron3d_combat::Shield;
    let mut app = battlefield(true);
    robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    let b = robot(&mut app, 2, 2, [70.0, 60.0], std::f32::consts::PI);
    run(&mut app, 1);
    app.world_mut().get_mut::<iron3d_combat::Guns>(b).unwrap().0.clear();
    let sheet = iron3d_core::ShieldSheet {
        points: 300.0,
        recharge: 0.0,
        charge_per_point: 0.04,
        node: 0,
        coefficients: [0.5; 6],
        deflector_node: 0,
    };
    app.world_mut().entity_mut(b).insert(Shield::new(sheet, 1.0));
    let mut held = Vec::new();
    for _ in 0..300 {
        run(&mut app, 1);
        let sectors = app.world().get::<Shield>(b).unwrap().sectors;
        assert_eq!(sectors[1..], [300.0; 5], "only the front sector meets the shots");
        if held.last() != Some(&sectors[0]) {
            held.push(sectors[0]);
        }
    }
    assert_eq!(held, [300.0, 210.0, 120.0, 30.0, 0.0]);
    let hits: Vec<String> = events(&app, EventKind::Damaged).into_iter().filter(|d| d.1[0] == 2).map(|d| d.2).collect();
    assert_eq!(hits[0], "node=0 amount=24 hp=576", "the round that emptied the sector");
    assert!(hits[1].starts_with("node=0 amount=36 "), "then they pass whole: {hits:?}");
}

/// The AI's fire: a moving machine left to itself fires only when its round's distance
/// score clears 0.85 (a cannon round of 90 a second: up to about 66 units), one that
/// cannot move when it clears 0.45; an attack order fires on the timer alone.
#[test]
fn the_ai_fires_by_the_rounds_distance_score_unless_a_task_names_the_target() {
    let shots_at = |distance: f32, speed: Option<f32>, attack: bool| {
        let mut app = battlefield(true);
        let a = robot(&mut app, 1, 1, [20.0, 60.0], 0.0);
        let b = robot(&mut app, 2, 2, [20.0 + distance, 60.0], 0.0);
        let limits = iron3d_core::MotionLimits { top_speed: speed, ..Default::default() };
        app.world_mut().entity_mut(a).insert(limits);
        if !attack {
            // Left to itself it stands (an attacker closes in to 85 % of its range).
            app.world_mut().entity_mut(a).remove::<Movable>();
        }
        app.world_mut().entity_mut(b).remove::<Movable>();
        run(&mut app, 1);
        app.world_mut().get_mut::<iron3d_combat::Guns>(b).unwrap().0.clear();
        if attack {
            order(&mut app, vec![1], Order::Attack(2));
        }
        run(&mut app, 100);
        app.world().resource::<ShotCounter>().0
    };
    let reach = |d: f32| 1.0 - (d - 2.0 - 45.5) / 136.5;
    assert!(reach(70.0) < 0.85 && reach(62.0) > 0.85, "the distances straddle the bar");
    assert_eq!(shots_at(70.0, Some(7.0), false), 0, "a moving machine holds its fire at 70");
    assert!(shots_at(62.0, Some(7.0), false) > 0, "and fires at 62");
    assert!(shots_at(70.0, Some(0.2), false) > 0, "a machine that cannot move fires at 70");
    assert!(shots_at(70.0, Some(7.0), true) > 0, "an attack order fires on the timer alone");
}

#[test]
fn an_invulnerable_object_takes_no_damage() {
    let mut app = battlefield(true);
    robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    let b = robot(&mut app, 2, 2, [70.0, 60.0], std::f32::consts::PI);
    run(&mut app, 1);
    app.world_mut().get_mut::<Health>(b).unwrap().invulnerable = true;
    run(&mut app, 200);
    assert!(events(&app, EventKind::Damaged).iter().all(|d| d.1[0] != 2));
    assert_eq!(health(&app, b).unwrap().hp, health(&app, b).unwrap().max);
}

#[test]
fn an_attack_order_closes_in_to_weapon_range_and_ends_with_the_target() {
    let mut app = battlefield(true);
    let unit = robot(&mut app, 1, 1, [10.0, 10.0], 0.0);
    let plant = spawn_building(app.world_mut(), 2, [105.0, 105.0], [3.0, 3.0]);
    app.world_mut().entity_mut(plant).insert((UnitClass(PLANT), Owner { clan: 2, player: None }));
    run(&mut app, 1);
    hurt(&mut app, plant, 200.0);
    order(&mut app, vec![1], Order::Attack(2));
    let range = cannon(&app).range;
    let mut closest = f32::MAX;
    for _ in 0..2000 {
        run(&mut app, 1);
        if app.world().get_entity(plant).is_err() {
            break;
        }
        closest = closest.min(dist2(pos(&app, unit), [105.0, 105.0]));
    }
    assert!(app.world().get_entity(plant).is_err(), "the plant was destroyed");
    assert!(closest <= range && closest >= range * 0.5, "held at weapon range, not driven into it: {closest}");
    run(&mut app, 2);
    let nav = app.world().get::<iron3d_behavior::Navigator>(unit).unwrap();
    assert_eq!(nav.order, Order::Stop, "the order ends with its target");
}

#[test]
fn a_battle_replays_to_the_same_hash_at_every_tick() {
    let battle = || {
        let mut app = battlefield(true);
        for i in 0..6 {
            let y = 20.0 + 15.0 * i as f32;
            robot(&mut app, 1 + i, 1, [30.0, y], 0.0);
            robot(&mut app, 11 + i, 2, [90.0, y], std::f32::consts::PI);
        }
        order(&mut app, vec![1, 2, 3], Order::Attack(14));
        run(&mut app, 300);
        assert!(!events(&app, EventKind::Destroyed).is_empty(), "the battle destroys something");
        app.world().resource::<StateHash>().history.clone()
    };
    let first = battle();
    assert_eq!(first, battle());
    assert!(first.len() > 300);
}

#[test]
fn a_piloted_robot_fires_only_when_the_player_fires_and_aims_by_the_player() {
    let mut app = battlefield(true);
    let shooter = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    // The enemy stands a quarter turn to the left (game +Y), out of the hull's line.
    let target = robot(&mut app, 2, 2, [40.0, 90.0], 0.0);
    run(&mut app, 1);
    let immune = Health { invulnerable: true, ..health(&app, target).unwrap() };
    app.world_mut().entity_mut(target).insert(immune);
    app.world_mut().entity_mut(target).remove::<Weapon>();
    let hold = PilotInput::default();
    order(&mut app, vec![1], Order::Pilot(hold));
    let fired = |app: &App| app.world().resource::<ShotCounter>().0;
    let turret = |app: &App| app.world().get::<Weapon>(shooter).unwrap().turret;
    let heading = |app: &App| app.world().get::<SimTransform>(shooter).unwrap().heading();
    // Where the turret points in the world (the hull follows it round: the turret lock).
    let pointing = |app: &App| iron3d_core::plane::wrap_angle(heading(app) + turret(app));
    run(&mut app, 1);
    let (shots, held) = (fired(&app), pointing(&app));
    run(&mut app, 40);
    assert_eq!(fired(&app), shots, "no shot without the trigger");
    assert!((pointing(&app) - held).abs() < 1e-5, "the turret waits for the player's aim");
    // Fire while the enemy is not in the sights.
    order(&mut app, vec![1], Order::Pilot(PilotInput { fire: true, ..hold }));
    run(&mut app, 20);
    assert_eq!(fired(&app), shots, "nothing in the sights");
    // Aim at it (a quarter turn left of the hull) and fire.
    let aim = ((std::f32::consts::FRAC_PI_2 - pointing(&app)) * 1000.0).round() as i16;
    order(&mut app, vec![1], Order::Pilot(PilotInput { aim_mrad: aim, fire: true, ..hold }));
    run(&mut app, 40);
    // The hull follows the turret round (the turret lock), the aim holding in the world.
    let world = pointing(&app);
    assert!((world - std::f32::consts::FRAC_PI_2).abs() < 0.01, "aimed once: {world}");
    assert!(heading(&app) > 0.1, "the hull came round toward its turret: {}", heading(&app));
    assert!(fired(&app) > 0, "in the sights, it fires");
}

/// The turret lock (openparkan `docs/24-motion.md` and `docs/14-controls.md`, read and
/// measured): a driven bot's hull follows its turret at 0.7 of its turn rate, the turret
/// turning back so the aim holds in the world, the follow replacing the player's spin;
/// its switch (`MCMD_LOCK`) gives the spin back, and a take starts with the lock on; the
/// hero's hull does not follow.
#[test]
fn a_driven_bots_hull_follows_its_turret_at_seven_tenths_of_its_turn_rate() {
    use iron3d_core::plane::wrap_angle;
    let mut app = battlefield(true);
    let bot = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    let spun = robot(&mut app, 2, 1, [80.0, 60.0], 0.0);
    let hero = hero(&mut app, 3, [20.0, 20.0]);
    run(&mut app, 1);
    // The hero's turret turned a radian off his nose (the project's hero is unarmed here).
    let turned = Weapon { turret: 1.0, ..*app.world().get::<Weapon>(bot).unwrap() };
    app.world_mut().entity_mut(hero).insert(turned);
    order(&mut app, vec![1, 2, 3], Order::Pilot(PilotInput::default()));
    run(&mut app, 1);
    let heading = |app: &App, e: Entity| app.world().get::<SimTransform>(e).unwrap().heading();
    let turret = |app: &App, e: Entity| app.world().get::<Weapon>(e).unwrap().turret;
    // Locked, a spin does nothing to a bot whose turret points ahead: the follow replaces it.
    let spin = PilotInput { turn: 127, ..PilotInput::default() };
    order(&mut app, vec![2], Order::Pilot(spin));
    run(&mut app, 1);
    let still = heading(&app, spun);
    run(&mut app, 3);
    assert_eq!(heading(&app, spun), still, "the lock's follow replaces the spin");
    // The switch unlocks it: a full spin measures the turn rate a tick; the bot turns its
    // turret a radian.
    order(&mut app, vec![2], Order::Pilot(PilotInput { turret_lock: true, ..spin }));
    order(&mut app, vec![1], Order::Pilot(PilotInput { aim_mrad: 1000, ..PilotInput::default() }));
    run(&mut app, 2);
    let before = [heading(&app, spun), heading(&app, bot), turret(&app, bot), heading(&app, hero), turret(&app, hero)];
    run(&mut app, 1);
    let max_turn = wrap_angle(heading(&app, spun) - before[0]);
    let step = wrap_angle(heading(&app, bot) - before[1]);
    let expected = (HULL_FOLLOW * max_turn).min(before[2]);
    assert!(max_turn > 0.0 && before[2] > 0.0, "{max_turn} {}", before[2]);
    assert!((step - expected).abs() < 1e-4, "{step} against 0.7 × {max_turn}");
    let aim = |h: f32, t: f32| wrap_angle(h + t);
    assert!((aim(heading(&app, bot), turret(&app, bot)) - aim(before[1], before[2])).abs() < 1e-4, "the aim holds");
    assert_eq!((heading(&app, hero), turret(&app, hero)), (before[3], before[4]), "the hero's hull stays");
    run(&mut app, 200);
    assert!(turret(&app, bot).abs() < 1e-4, "the hull comes round to its turret: {}", turret(&app, bot));
    // Let go and taken again, the spun bot is locked once more.
    order(&mut app, vec![2], Order::Release);
    run(&mut app, 2);
    order(&mut app, vec![2], Order::Pilot(spin));
    run(&mut app, 1);
    let still = heading(&app, spun);
    run(&mut app, 3);
    assert_eq!(heading(&app, spun), still, "a take starts with the lock on");
}

/// The auto-driver (openparkan `docs/31-packages.md`, read): at level 1 the unit's
/// orders move it, its throttle no longer does, and its guns still wait for the player's
/// trigger; at level 2 the AI fights it; the level stays on the unit when the player lets
/// it go, and his next take takes it at it; the hero's and an undriven unit's are refused.
#[test]
fn the_auto_driver_hands_the_walk_then_the_fight_to_the_ai_and_stays_with_the_unit() {
    let mut app = battlefield(true);
    let shooter = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    // The enemy stands a quarter turn to the left, out of the hull's line.
    let target = robot(&mut app, 2, 2, [40.0, 90.0], 0.0);
    let hero = hero(&mut app, 3, [20.0, 20.0]);
    run(&mut app, 1);
    let immune = Health { invulnerable: true, ..health(&app, target).unwrap() };
    app.world_mut().entity_mut(target).insert(immune);
    app.world_mut().entity_mut(target).remove::<Weapon>();
    let fired = |app: &App| app.world().resource::<ShotCounter>().0;
    let at = |app: &App| app.world().get::<SimTransform>(shooter).unwrap().position;
    let full = PilotInput { throttle: 127, ..PilotInput::default() };
    order(&mut app, vec![1, 3], Order::Pilot(full));
    order(&mut app, vec![1], Order::MoveTo([40.0, 20.0]));
    run(&mut app, 20);
    assert!(at(&app)[0] > 45.0 && (at(&app)[1] - 60.0).abs() < 1.0, "level 0: the throttle drives it ahead");
    let (before, shots) = (at(&app), fired(&app));
    order(&mut app, vec![1], Order::AutoDriver(1));
    run(&mut app, 60);
    assert!(at(&app)[1] < before[1] - 5.0, "level 1: its order walks it south: {:?}", at(&app));
    assert_eq!(fired(&app), shots, "level 1: its guns are still the player's");
    order(&mut app, vec![1], Order::AutoDriver(2));
    run(&mut app, 80);
    assert!(fired(&app) > shots, "level 2: the AI fights it");
    order(&mut app, vec![1], Order::Release);
    run(&mut app, 1);
    assert_eq!(app.world().get::<AutoDriver>(shooter), Some(&AutoDriver(2)), "letting go keeps the level");
    order(&mut app, vec![1], Order::Pilot(PilotInput::default()));
    run(&mut app, 1);
    assert_eq!(app.world().get::<ManualControl>(shooter).map(|m| m.level), Some(2), "taken at its level");
    order(&mut app, vec![3], Order::AutoDriver(1));
    order(&mut app, vec![2], Order::AutoDriver(1));
    run(&mut app, 1);
    let refused: Vec<String> = events(&app, EventKind::Rejected).into_iter().map(|e| e.2).collect();
    assert!(refused.iter().any(|d| d.contains("the hero ignores the auto-driver")), "{refused:?}");
    assert!(refused.iter().any(|d| d.contains("the player does not drive it")), "{refused:?}");
    assert_eq!(app.world().get::<ManualControl>(hero).map(|m| m.level), Some(0));
}

/// The player's target goes with the pilot's input to the driven unit's guns (openparkan
/// `docs/25-sensors.md`, "The player's target", read): aimed at one enemy, they fire
/// only when that enemy is the input's target, whatever its radar picks.
#[test]
fn a_piloted_robots_guns_fire_at_the_players_target() {
    let mut app = battlefield(true);
    let shooter = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    // One enemy a quarter turn to the left (game +Y), one nearer, straight ahead.
    let left = robot(&mut app, 2, 2, [40.0, 90.0], 0.0);
    let ahead = robot(&mut app, 3, 2, [65.0, 60.0], 0.0);
    run(&mut app, 1);
    for enemy in [left, ahead] {
        let immune = Health { invulnerable: true, ..health(&app, enemy).unwrap() };
        app.world_mut().entity_mut(enemy).insert(immune);
        app.world_mut().entity_mut(enemy).remove::<Weapon>();
    }
    let hold = PilotInput::default();
    order(&mut app, vec![1], Order::Pilot(hold));
    run(&mut app, 1);
    let held = app.world().get::<Weapon>(shooter).unwrap().turret;
    let fired = |app: &App| app.world().resource::<ShotCounter>().0;
    let shots = fired(&app);
    // Aimed at the left one, with the one ahead as the target: nothing in the sights.
    let aim = ((std::f32::consts::FRAC_PI_2 - held) * 1000.0).round() as i16;
    order(&mut app, vec![1], Order::Pilot(PilotInput { aim_mrad: aim, fire: true, target: Some(3), ..hold }));
    run(&mut app, 30);
    assert_eq!(fired(&app), shots, "the target is not in the sights");
    order(&mut app, vec![1], Order::Pilot(PilotInput { fire: true, target: Some(2), ..hold }));
    run(&mut app, 30);
    assert!(fired(&app) > shots, "the player's target in the sights: it fires");
}

/// The player's fire reaches the selected guns only (openparkan `docs/29-weapons.md`,
/// "The button reaches the selected guns", read): on the hero a gun whose round carries
/// flag 4 starts selected and the others deselected, on any other machine every gun;
/// a number key toggles its gun, 0 selects them all, taking a unit again picks the
/// starting set again, and a gun on an arm fires only once its arm is out, 0.5 s after
/// it is selected.
#[test]
fn the_players_fire_reaches_the_selected_guns_once_their_arms_are_out() {
    use iron3d_combat::Guns;
    const HERO: u32 = 0x0102_0000;
    let mut app = battlefield(true);
    let hero = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    let bot = robot(&mut app, 3, 1, [40.0, 30.0], 0.0);
    app.world_mut().entity_mut(hero).insert(UnitClass(HERO));
    let enemy = robot(&mut app, 2, 2, [65.0, 60.0], 0.0);
    let mut sheet = seeing_sheet(500.0, None, false);
    let armed = |flags| {
        let cannon = iron3d_sim::testing::cannon(0);
        iron3d_core::GunSheet {
            magazine: 100,
            arm: true,
            round: iron3d_core::RoundSheet { flags, ..cannon.round },
            ..cannon
        }
    };
    // A cannon's round (flag 4), then a guided one's (flag 0x10).
    sheet.guns = vec![armed(4), armed(0x10)];
    for e in [hero, bot] {
        app.world_mut().entity_mut(e).insert(sheet.clone());
    }
    run(&mut app, 1);
    let immune = Health { invulnerable: true, ..health(&app, enemy).unwrap() };
    app.world_mut().entity_mut(enemy).insert(immune);
    app.world_mut().entity_mut(enemy).remove::<Weapon>();
    let guns =
        |app: &App, e: Entity| app.world().get::<Guns>(e).unwrap().0.iter().map(|g| g.selected).collect::<Vec<_>>();
    assert_eq!(guns(&app, hero), [true, false], "the hero: flag 4 starts selected, the rest not");
    assert_eq!(guns(&app, bot), [true, true], "any other machine: every gun");
    let rounds = |app: &App| app.world().get::<Guns>(hero).unwrap().0.iter().map(|g| g.magazine).collect::<Vec<_>>();
    let fire = PilotInput { fire: true, target: Some(2), ..PilotInput::default() };
    order(&mut app, vec![1], Order::Pilot(fire));
    // The arm unfolds from the start: nothing leaves before 0.5 s, the cannon after.
    run(&mut app, 6);
    assert_eq!(rounds(&app), [100, 100], "the cannon's arm is not out yet");
    run(&mut app, 20);
    let after = rounds(&app);
    assert!(after[0] < 100 && after[1] == 100, "the cannon fires, the deselected gun not: {after:?}");
    // Key 2 selects the second gun, key 1 deselects the cannon: only the second fires,
    // half a second after its key.
    order(&mut app, vec![1], Order::SelectWeapon(2));
    run(&mut app, 1);
    order(&mut app, vec![1], Order::SelectWeapon(1));
    run(&mut app, 5);
    let folding = rounds(&app);
    assert_eq!(folding[1], 100, "its arm is still unfolding");
    run(&mut app, 40);
    let now = rounds(&app);
    assert!(now[0] == folding[0] && now[1] < 100, "the cannon stops, the second fires: {folding:?} {now:?}");
    assert_eq!(guns(&app, hero), [false, true]);
    order(&mut app, vec![1], Order::SelectWeapon(0));
    run(&mut app, 1);
    assert_eq!(guns(&app, hero), [true, true], "0 selects every gun");
    order(&mut app, vec![1], Order::SelectWeapon(9));
    run(&mut app, 1);
    assert_eq!(guns(&app, hero), [true, true], "a number past the list does nothing");
    // Handed back and taken again: the starting set.
    order(&mut app, vec![1], Order::Release);
    run(&mut app, 1);
    order(&mut app, vec![1], Order::Pilot(PilotInput::default()));
    run(&mut app, 1);
    assert_eq!(guns(&app, hero), [true, false], "taken again: the starting set");
}

/// The rules file comes from the data's layers: a mod's `iron3d.rules.ron` replaces the
/// project's for the mission (its battle units get the mod's hit points, its computer
/// clans the mod's transports), and a broken one fails the load naming the file and
/// its layer.
#[test]
fn a_mods_rules_file_replaces_the_projects_and_a_broken_one_fails_the_load() {
    use iron3d_vfs::{GameDir, Layer, LayerKind};
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let shipped = std::fs::read_to_string(root.join("assets/rules/iron3d.rules.ron")).unwrap();
    let battle_radar = "weapon: Some(\"cannon\"), radar: 110.0";
    assert!(shipped.contains(battle_radar) && shipped.contains("transports: 2,"), "the shipped rules changed");
    let modded = shipped
        .replace(battle_radar, "weapon: Some(\"cannon\"), radar: 175.0")
        .replace("transports: 2,", "transports: 0,");
    let m = std::env::temp_dir().join(format!("iron3d-rules-mod-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&m);
    std::fs::create_dir_all(&m).unwrap();
    let load = |rules: &str| {
        std::fs::write(m.join("IRON3D.RULES.RON"), rules).unwrap();
        let layers = [
            Layer::new(LayerKind::Project, root.join("assets/rules")),
            Layer::new(LayerKind::Game, root.join("assets/demo")),
            Layer::new(LayerKind::Mod, &m),
        ];
        let game =
            std::sync::Arc::new(GameDir::open_layers(&layers, iron3d_formats::ReadOptions::compatible()).unwrap());
        let mut app = headless_app();
        app.add_plugins(iron3d_mission::MissionPlugin);
        iron3d_mission::load_headless(&mut app, &game, "single.01").map(|()| app)
    };
    let mut app = load(&modded).expect("loads with the mod's rules");
    let source = &app.world().resource::<iron3d_core::GameRules>().source;
    assert!(source.contains("iron3d.rules.ron") && source.contains("mod:iron3d-rules-mod"), "{source}");
    assert_eq!(app.world().resource::<CombatRules>().0.class(BATTLE_UNIT).unwrap().radar, 175.0);
    assert_eq!(app.world().resource::<iron3d_strategy::StrategyRules>().ai.transports, 0);
    // Every battle unit's body is the data's (a chassis's node 0 of 600), that of a clan
    // not allied with the player (the enemy, the neutral) at the difficulty's ratio of it, and it looks as far as its radar part, not the
    // rules (the rules' radar is for objects whose data carries none).
    let ratio = app.world().resource::<iron3d_core::Difficulty>().ratio();
    let mut q = app.world_mut().query::<(&UnitClass, &Owner, &Body, &Radar, &iron3d_combat::Sensor)>();
    let battle: Vec<(i32, f32, f32, f32)> = q
        .iter(app.world())
        .filter(|(c, ..)| c.0 == BATTLE_UNIT)
        .map(|(_, o, b, r, s)| (o.clan, b.nodes[0].max, r.range, s.sheet.range))
        .collect();
    assert!(battle.iter().any(|b| b.0 == 1) && battle.iter().any(|b| b.0 == 2), "{battle:?}");
    let expected = |clan| if clan == 1 { 600.0 } else { 600.0 * ratio };
    assert!(battle.iter().all(|&(clan, life, radar, part)| life == expected(clan) && radar == part), "{battle:?}");
    let Err(broken) = load(&modded.replace("engine_volume:", "engine_volum:")) else { panic!("loaded") };
    assert!(broken.message.contains("iron3d.rules.ron (layer mod:iron3d-rules-mod"), "{}", broken.message);
    let _ = std::fs::remove_dir_all(m);
}

/// The demo's battle units fight with what their parts' data says: the chassis's and
/// turret's and gun's `.ndp` nodes in one tree, the chassis's armour, the gun's
/// magazine and interval and its round's speed, range, hit points and explosion; and a
/// copy whose round is changed fights with the changed round (the game follows the
/// file, not a constant).
#[test]
fn the_demos_units_fight_with_what_their_parts_data_says() {
    use iron3d_combat::{Guns, Repair, Shield};
    use iron3d_core::CombatSheet;
    use iron3d_demo::arms::{ROUND_ARCHIVE, ROUNDS, Round, round_entries};
    use iron3d_vfs::{GameDir, Layer, LayerKind};
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let copy = std::env::temp_dir().join(format!("iron3d-rounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    let open = |game: &std::path::Path| {
        let layers = [Layer::new(LayerKind::Project, root.join("assets/rules")), Layer::new(LayerKind::Game, game)];
        let game =
            std::sync::Arc::new(GameDir::open_layers(&layers, iron3d_formats::ReadOptions::compatible()).unwrap());
        let mut app = headless_app();
        app.add_plugins(iron3d_mission::MissionPlugin);
        iron3d_mission::load_headless(&mut app, &game, "single.01").map(|()| app)
    };
    let load = |game: &std::path::Path| {
        let mut app = open(game).unwrap();
        // Bunkers and towers stand in a bubble; every building and chassis repairs.
        let mut q = app.world_mut().query::<(&UnitClass, &CombatSheet, Option<&Shield>, Option<&Repair>)>();
        let mut shielded = 0;
        for (class, sheet, shield, repair) in q.iter(app.world()) {
            let armed = class.0 & 0x8000_0000 != 0 && !sheet.guns.is_empty();
            assert_eq!(shield.is_some(), armed, "{:#x}: {:?}", class.0, sheet.shield);
            if let Some(shield) = shield {
                assert_eq!((shield.max, shield.sectors, shield.sheet.coefficients), (300.0, [300.0; 6], [0.5; 6]));
                shielded += 1;
            }
            assert!(
                repair.is_some_and(|r| !r.on && r.sheet.rate == if class.0 & 0x8000_0000 != 0 { 5.0 } else { 3.0 })
            );
        }
        assert!(shielded > 0, "the mission has bunkers or towers");
        masses_follow_the_files(&mut app, game);
        // The hero's arms carry his cannon and his guided plasma rifle, whose round's
        // controller carries its seeker (cone, reach, lock).
        let mut q = app.world_mut().query::<(&UnitClass, &CombatSheet)>();
        let hero = q.iter(app.world()).find(|(c, _)| c.is_hero()).map(|(_, s)| s.guns.clone()).unwrap();
        assert!(hero.len() == 2 && hero.iter().all(|g| g.arm), "the hero's guns ride his arms: {hero:?}");
        let (cannon, plasma) = (hero[0].round, hero[1].round);
        assert_eq!(cannon.seeker, None, "an unguided round has no seeker");
        let seeker = iron3d_core::SeekerSheet { cone: 0.25, reach: 500.0, lock_ms: 250.0 };
        assert_eq!((plasma.flags, plasma.seeker, plasma.range), (0x10, Some(seeker), 150.0));
        let mut q = app.world_mut().query::<(&UnitClass, &Owner, &CombatSheet, &Guns)>();
        let units: Vec<(CombatSheet, Guns)> = q
            .iter(app.world())
            .filter(|(c, o, ..)| c.0 == BATTLE_UNIT && o.clan == 1)
            .map(|(_, _, s, g)| (s.clone(), g.clone()))
            .collect();
        assert!(!units.is_empty(), "the player has battle units");
        units
    };
    let units = load(&root.join("assets/demo"));
    for (sheet, guns) in &units {
        assert_eq!(sheet.nodes[0].hit_points, 600.0, "the chassis's node 0");
        assert_eq!(sheet.armour, [0.8, 0.0], "the chassis's class-27 armour");
        // The turret hangs from the chassis's mount node, the gun from the turret's.
        let mount = iron3d_demo::models::robots::CHASSIS_MOUNT as u16;
        let turret = sheet.nodes.iter().position(|n| n.parent == Some(mount) && n.hit_points == 120.0);
        let turret = turret.expect("a turret node under the mount") as u16;
        assert!(sheet.nodes.iter().any(|n| n.parent == Some(turret) && n.hit_points == 120.0), "{sheet:?}");
        // The pieces drawn for them: the chassis's nodes are its own, the turret's
        // skipped root the mount it sits on, its next node the turret's.
        assert_eq!(sheet.node_of(0, usize::from(mount)), Some(mount), "{:?}", sheet.pieces);
        assert_eq!((sheet.node_of(1, 0), sheet.node_of(1, 1)), (Some(mount), Some(turret)), "{:?}", sheet.pieces);
        let [gun] = &sheet.guns[..] else { panic!("one gun: {:?}", sheet.guns) };
        assert_eq!((gun.interval_ms, gun.round.speed, gun.round.range), (1250.0, 90.0, 80.0));
        assert_eq!((gun.round.hit_points, gun.round.hit.kind, gun.round.hit.damage), (44.0, 2, 1.0));
        assert_eq!(gun.round.flags, 4, "an unguided round: its gun starts selected");
        assert!(!gun.arm, "no arm carries a battle unit's gun");
        assert_eq!(gun.stroke_ms, Some(250.0), "1000 ÷ its barrel channel's rate of 4");
        assert_eq!(guns.0[0].stroke_ms, 250.0, "the gun strokes as its data says");
        assert!(gun.magazine == -1 || gun.magazine == 400, "{}", gun.magazine);
        assert_eq!(guns.0[0].round_damage(), 45.0, "the player's own rounds, at ratio 1");
        let radar = sheet.radar.expect("the turret's radar part");
        assert_eq!((radar.sensitivity, radar.period_ms), ([0.05, 0.7, 25.0], 750.0));
        assert!([400.0, 450.0, 500.0].contains(&radar.range), "a MK3 part's range: {}", radar.range);
        let stealth = sheet.stealth.expect("the chassis's detection shield");
        assert!(stealth.camouflage > 0.8 && stealth.cuts[0] >= 0.9, "a MK2: {stealth:?}");
        assert!(sheet.figures.asks[2] > 0.0 && sheet.figures.asks[5] > 0.0 && sheet.figures.engine > 0.0);
        assert!(sheet.batteries.iter().any(|b| b.capacity > 0.0 && b.output > 0.0), "a battery: {:?}", sheet.batteries);
    }
    // A copy whose cannon round carries 144 hit points.
    copy_tree(&root.join("assets/demo"), &copy);
    // The rounds' archive, each round as `change` leaves it and each entry as `cut` does.
    let write_rounds = |change: &dyn Fn(Round) -> Round, cut: &dyn Fn(&str, Vec<u8>) -> Vec<u8>| {
        let mut archive = iron3d_formats::nres::NresWriter::new();
        for round in ROUNDS {
            for (member, bytes) in round_entries(&change(*round)).unwrap() {
                archive.add(0, [0; 3], member.as_bytes(), cut(&member, bytes)).unwrap();
            }
        }
        std::fs::write(copy.join(ROUND_ARCHIVE), archive.to_bytes().unwrap()).unwrap();
    };
    let cannon = |r: Round| if r.key == "rd_cannon" { Round { hit_points: 144.0, flags: 0x10, ..r } } else { r };
    write_rounds(&cannon, &|_, bytes| bytes);
    for (sheet, guns) in load(&copy) {
        assert_eq!(guns.0[0].round_damage(), 145.0, "the changed round");
        assert_eq!(sheet.guns[0].round.flags, 0x10, "its frame flags");
    }
    // A cut explosion fails the load, naming the entry, its archive and the chain to it.
    write_rounds(&|r| r, &|member, bytes| if member == "rd_cannon.exp" { bytes[..700].to_vec() } else { bytes });
    let Err(e) = open(&copy) else { panic!("a cut .exp loaded") };
    for part in ["rd_cannon.exp", "weapon.rlb", "792", "round rd_cannon", "gun of e_gun_l", "placed object"] {
        assert!(e.message.contains(part), "{part}: {}", e.message);
    }
    let _ = std::fs::remove_dir_all(copy);
}

/// A sheet of one node of 600 (and a second for its radar when it has one), `mass`,
/// and a radar part of `range` or a small MK2 detection shield when asked.
fn seeing_sheet(mass: f32, range: Option<f32>, stealth: bool) -> iron3d_core::CombatSheet {
    let node = iron3d_core::NodeSheet { hit_points: 600.0, parent: None, vital: false, gear: iron3d_core::Gear::None };
    let mut sheet = iron3d_core::CombatSheet { nodes: vec![node, node], armour: [1.0, 0.0], ..Default::default() };
    sheet.figures.mass = mass;
    sheet.radar =
        range.map(|range| iron3d_core::RadarSheet { sensitivity: [0.05, 0.7, 25.0], range, period_ms: 750.0, node: 1 });
    sheet.stealth = stealth.then_some(iron3d_core::StealthSheet {
        cuts: [0.9, 0.45, 0.01],
        camouflage: 0.84,
        camouflage_power: 0.2,
        power: 0.09,
        node: 0,
    });
    sheet
}

/// A radar part (mass sensitivity 0.05, range 400) sees a 200 kg machine out to
/// 400·√0.9 ≈ 379.5 and not beyond; a 2 000 kg one behind a small MK2 detection
/// shield (10 % of its mass shows) as far, until it camouflages (1.6 %: out to ≈ 245),
/// which the AI does once it lists a hostile, none within 150, and has targeted
/// nothing for 10 s, and undoes when a hostile comes within 150; a radar whose node is
/// destroyed lists nothing (openparkan `docs/25-sensors.md`).
#[test]
fn a_radar_lists_what_the_signatures_show_and_camouflage_hides_a_machine_until_a_hostile_is_near() {
    use iron3d_combat::Stealth;
    let mut app = wide_battlefield();
    let place = |app: &mut App, id: u32, clan: i32, at: [f32; 2], sheet: iron3d_core::CombatSheet| {
        let e = robot(app, id, clan, at, 0.0);
        app.world_mut().entity_mut(e).insert(sheet);
        e
    };
    let a = place(&mut app, 1, 1, [60.0, 60.0], seeing_sheet(5000.0, Some(400.0), false));
    let diagonal = 370.0 / std::f32::consts::SQRT_2;
    place(&mut app, 2, 2, [60.0 + diagonal, 60.0 + diagonal], seeing_sheet(200.0, None, false));
    place(&mut app, 3, 2, [445.0, 60.0], seeing_sheet(200.0, None, false));
    let hider = place(&mut app, 4, 2, [60.0, 360.0], seeing_sheet(2000.0, Some(400.0), true));
    let contacts = |app: &App, e: Entity| app.world().get::<RadarContacts>(e).unwrap().0.clone();
    let camouflaged = |app: &App| app.world().get::<Stealth>(hider).unwrap().camouflaged;
    run(&mut app, 13);
    assert_eq!(contacts(&app, a), [2, 4], "370 away seen, 385 not; the shielded one at 300 seen");
    assert_eq!(contacts(&app, hider), [1, 2], "friends are contacts too");
    assert!(!camouflaged(&app), "not before 10 s without a target");
    run(&mut app, 10_000 / 64 + 13);
    assert!(camouflaged(&app), "a hostile listed, none within 150, 10 s quiet");
    assert_eq!(contacts(&app, a), [2], "camouflaged, it drops off the radar at 300");
    app.world_mut().get_mut::<SimTransform>(a).unwrap().position = [60.0, 250.0, 0.0];
    run(&mut app, 13);
    assert!(!camouflaged(&app), "a hostile within 150");
    assert_eq!(contacts(&app, a), [2, 4], "seen again at 110");
    app.world_mut().get_mut::<iron3d_combat::Body>(a).unwrap().nodes[1].life = 0.0;
    run(&mut app, 13);
    assert!(contacts(&app, a).is_empty(), "its radar's node destroyed");
}

/// A machine runs on its batteries: its radar asks 0.15 a second on channel 2; with
/// them empty the power tick gives every channel nothing, the radar lists nothing and
/// the gun's capacitor does not refill; charged again, it sees and refills
/// (openparkan `docs/23-economy.md`).
#[test]
fn a_machine_whose_batteries_run_dry_goes_blind_and_its_guns_do_not_refill() {
    use iron3d_combat::Guns;
    use iron3d_core::Power;
    let mut app = wide_battlefield();
    let mut sheet = seeing_sheet(5000.0, Some(400.0), false);
    sheet.figures.asks[2] = 0.15;
    sheet.batteries = vec![iron3d_core::BatterySheet { capacity: 100.0, output: 6.0, node: 0 }];
    sheet.guns.push(iron3d_sim::testing::cannon(0));
    let a = robot(&mut app, 1, 1, [60.0, 60.0], 0.0);
    app.world_mut().entity_mut(a).insert(sheet);
    let b = robot(&mut app, 2, 2, [300.0, 60.0], 0.0);
    app.world_mut().entity_mut(b).insert(seeing_sheet(200.0, None, false));
    let contacts = |app: &App| app.world().get::<RadarContacts>(a).unwrap().0.clone();
    let charge = |app: &App| app.world().get::<Guns>(a).unwrap().0[0].charge;
    run(&mut app, 13);
    let power = app.world().get::<Power>(a).unwrap().clone();
    assert_eq!(contacts(&app), [2]);
    assert!(power.charge < 1.0 && power.levels[2] == 1.0, "the radar draws: {power:?}");
    app.world_mut().get_mut::<Power>(a).unwrap().charge = 0.0;
    app.world_mut().get_mut::<Guns>(a).unwrap().0[0].charge = 0.0;
    run(&mut app, 13);
    assert_eq!(app.world().get::<Power>(a).unwrap().levels[2], 0.0);
    assert!(contacts(&app).is_empty(), "blind");
    assert_eq!(charge(&app), 0.0, "the capacitor waits");
    app.world_mut().get_mut::<Power>(a).unwrap().charge = 1.0;
    run(&mut app, 13);
    assert_eq!((contacts(&app), charge(&app)), (vec![2], 2.0), "seeing and refilled");
}

/// A fitted part takes over its slot (openparkan `docs/28-chassis.md`, read and
/// measured): a battery fitted into the scout chassis's battery device replaces it
/// (capacity, output, mass), it does not add a second, and brings no node; a part
/// fitted to a device its parent does not have fails the load, naming both. A
/// builder's beam is a part, not a gun.
#[test]
fn a_fitted_part_takes_over_the_device_it_is_fitted_to() {
    use iron3d_core::{BatterySheet, CombatSheet};
    use iron3d_formats::ReadOptions;
    use iron3d_formats::helpers::Ctld;
    use iron3d_formats::helpers::ctld::{BindingRow, ItemRecord};
    use iron3d_formats::nres::{Nres, NresDocument, NresWriter};
    use iron3d_formats::registry::{ObjectRef64, UnitDat, UnitRecord};
    use iron3d_vfs::{GameDir, Layer, LayerKind};
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let copy = std::env::temp_dir().join(format!("iron3d-fitted-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    copy_tree(&root.join("assets/demo"), &copy);
    let scouts = |game: &std::path::Path| {
        let layers = [Layer::new(LayerKind::Project, root.join("assets/rules")), Layer::new(LayerKind::Game, game)];
        let game = std::sync::Arc::new(GameDir::open_layers(&layers, ReadOptions::compatible()).unwrap());
        let mut app = headless_app();
        app.add_plugins(iron3d_mission::MissionPlugin);
        iron3d_mission::load_headless(&mut app, &game, "single.01").map(|()| {
            let mut q = app.world_mut().query::<(&iron3d_mission::MissionObject, &CombatSheet)>();
            let found: Vec<CombatSheet> = q
                .iter(app.world())
                .filter(|(o, _)| o.key.to_ascii_lowercase().ends_with("scout.dat"))
                .map(|(_, s)| s.clone())
                .collect();
            assert!(!found.is_empty(), "the mission places scouts");
            found
        })
    };
    let plain = scouts(&copy).unwrap().remove(0);
    // The chassis's battery device, and a part of 5 000 at 9 a second weighing 400.
    let units = std::fs::read(copy.join("units.rlb")).unwrap();
    let units = Nres::parse(&units, ReadOptions::compatible()).unwrap();
    let (_, chassis) = units.get(b"r_ch_01.ctl").unwrap();
    let slot = Ctld::parse(chassis).unwrap().items.iter().position(|i| i.tag() == 19).unwrap() as i32;
    let mut part = ItemRecord::with_values(19, 0, &[5_000.0]);
    part.set_figures(400.0, 9.0);
    let mut ctld = Ctld::with_pose(vec![BindingRow::new(0, 0.0, 0.0, 0.0, 0).unwrap()]).unwrap();
    ctld.items.push(part);
    ctld.counts[3] = 1;
    let mut parts = NresWriter::new();
    parts.add(0, [0; 3], b"i_pws_fit.ctl", ctld.to_bytes().unwrap()).unwrap();
    std::fs::write(copy.join("parts.rlb"), parts.to_bytes().unwrap()).unwrap();
    let objects = std::fs::read(copy.join("objects.rlb")).unwrap();
    let mut registry = NresDocument::from_archive(&Nres::parse(&objects, ReadOptions::compatible()).unwrap());
    let refs = ObjectRef64::new("parts.rlb", "i_pws_fit.ctl").unwrap();
    registry.push(0, [0; 3], b"i_pws_fit", [refs.archive_raw, refs.resource_raw].concat()).unwrap();
    std::fs::write(copy.join("objects.rlb"), registry.save().unwrap()).unwrap();
    // The scout's scheme: the part (type 3) under the chassis, before the turret.
    let path = copy.join("UNITS/ROBOTS/scout.dat");
    let fit = |link: i32| {
        let mut dat = UnitDat::parse(&std::fs::read(&path).unwrap()).unwrap();
        let battery = UnitRecord::new("i_pws_fit", 1, link, b"battery", 3, 0).unwrap();
        dat.records[0].raw[0x6C..0x70].copy_from_slice(&2u32.to_le_bytes());
        dat.records.insert(1, battery);
        dat.to_bytes()
    };
    let original = std::fs::read(&path).unwrap();
    std::fs::write(&path, fit(slot)).unwrap();
    for sheet in scouts(&copy).unwrap() {
        assert_eq!(sheet.batteries, [BatterySheet { capacity: 5_000.0, output: 9.0, node: 0 }], "the slot's, replaced");
        assert_eq!(sheet.nodes.len(), plain.nodes.len(), "the part brings no node");
        assert_eq!(sheet.figures.mass, plain.figures.mass + 100.0, "400 kg in place of the slot's 300");
    }
    std::fs::write(&path, &original).unwrap();
    std::fs::write(&path, fit(99)).unwrap();
    let Err(e) = scouts(&copy) else { panic!("a part fitted to a missing device loaded") };
    for part in ["fitted part i_pws_fit into device 99 of R_L_03", "devices", "scout.dat"] {
        assert!(e.message.contains(part), "{part}: {}", e.message);
    }
    // A builder's beam (class 30) in the gun's place is no gun: the original never fires
    // it; the sheet keeps its node for building (openparkan `docs/32-builder.md`).
    std::fs::write(&path, &original).unwrap();
    let mut units = NresDocument::from_archive(&units);
    let at = units.entries().iter().position(|e| e.row.name() == b"r_we_01.ctl").unwrap();
    let mut gun = Ctld::parse(&units.entries()[at].payload).unwrap();
    let item = gun.items.iter_mut().find(|i| i.tag() == 2).unwrap();
    item.fixed[..4].copy_from_slice(&30u32.to_le_bytes());
    units.set_payload(at, gun.to_bytes().unwrap()).unwrap();
    std::fs::write(copy.join("units.rlb"), units.save().unwrap()).unwrap();
    for sheet in scouts(&copy).unwrap() {
        assert!(sheet.guns.is_empty(), "{:?}", sheet.guns);
        assert_eq!(sheet.beam, Some(plain.guns[0].node), "the beam sits where the gun did");
    }
    let _ = std::fs::remove_dir_all(copy);
}

/// The bare chassis's mass (the demo's transport) is its nodes' `.ndp` density × their
/// level-0 slot volume, plus its armour's weight × their area, plus its parts' masses
/// (openparkan `docs/28-chassis.md`, read), each taken here from the files themselves.
fn masses_follow_the_files(app: &mut App, game: &std::path::Path) {
    use iron3d_formats::helpers::{Ctld, Ndpr};
    use iron3d_formats::model::msh::Msh;
    let archive =
        iron3d_vfs::Archive::open(&game.join("units.rlb"), "units.rlb", iron3d_formats::ReadOptions::compatible())
            .unwrap();
    let entry = |name: &str| archive.read(name).unwrap().to_vec();
    let msh = Msh::parse(&entry("r_ch_01.msh"), iron3d_formats::ReadOptions::compatible()).unwrap();
    let ndp = Ndpr::parse(&entry("r_ch_01.ndp")).unwrap();
    let ctl = Ctld::parse(&entry("r_ch_01.ctl")).unwrap();
    let slot = |n: usize| msh.nodes[n].slot(0, 0).map(|s| &msh.slots[usize::from(s)]);
    let area: f32 = (0..ndp.records.len()).filter_map(|n| slot(n).map(|s| s.area)).sum();
    let body: f32 = ndp.records.iter().enumerate().filter_map(|(n, r)| slot(n).map(|s| r.density() * s.volume)).sum();
    let armour = ctl.items.iter().filter(|i| i.tag() == 27).map(|i| i.values()[0]).next_back().unwrap_or(0.0);
    let parts: f32 = ctl.items.iter().map(|i| i.mass()).sum();
    let expected = body + armour * area + parts;
    let mut q = app.world_mut().query::<(&UnitClass, &iron3d_core::CombatSheet)>();
    let haulers: Vec<f32> =
        q.iter(app.world()).filter(|(c, _)| c.0 == 0x0100_2000).map(|(_, s)| s.figures.mass).collect();
    assert!(!haulers.is_empty(), "the mission has transports");
    for mass in haulers {
        assert!((mass - expected).abs() <= 1e-3 * expected && body > 0.0 && parts > 0.0, "{mass} against {expected}");
    }
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// A dock (openparkan `docs/27-ownership.md`): a unit of the building's clan or of an
/// ally standing in a dock place is full again in ten seconds (life, battery, gun), one
/// of a clan neither its own nor allied, or standing outside its box, gains nothing.
#[test]
fn a_dock_refills_its_clans_and_allies_units_standing_in_it_in_ten_seconds() {
    use iron3d_combat::Guns;
    use iron3d_core::Power;
    use iron3d_core::{Place, Places, place};
    let mut app = wide_battlefield();
    relate(&mut app, false);
    let dock = Place { flags: place::GROUND | 0x400, at: [12.0, 0.0, 0.0], joint: 0 };
    let building = SimTransform {
        position: [100.0, 100.0, 0.0],
        orientation: [0.0, 0.0, std::f32::consts::FRAC_PI_2],
        scale: [1.0; 3],
    };
    app.world_mut().spawn((building, Owner { clan: 1, player: None }, Places(vec![dock])));
    // The place's centre in the world: 12 along the building's heading (+Y).
    let at = [100.0, 112.0];
    let mut sheet = seeing_sheet(500.0, None, false);
    sheet.batteries = vec![iron3d_core::BatterySheet { capacity: 1000.0, output: 0.0, node: 0 }];
    sheet.guns.push(iron3d_core::GunSheet { magazine: 30, ..iron3d_sim::testing::cannon(0) });
    let units = [(1, 1, [at[0] + 4.0, at[1] - 4.0]), (2, 2, at), (3, 1, [at[0] + 6.0, at[1]])];
    let units = units.map(|(id, clan, p)| {
        let e = robot(&mut app, id, clan, p, 0.0);
        app.world_mut().entity_mut(e).insert(sheet.clone());
        e
    });
    run(&mut app, 1);
    let drain = |app: &mut App, e: Entity| {
        hurt(app, e, 1.0);
        app.world_mut().get_mut::<Power>(e).unwrap().charge = 0.1;
        let gun = &mut app.world_mut().get_mut::<Guns>(e).unwrap().0[0];
        (gun.charge, gun.magazine) = (0.0, 0);
    };
    units.iter().for_each(|&e| drain(&mut app, e));
    let full = |app: &App, e: Entity| {
        let gun = app.world().get::<Guns>(e).unwrap().0[0];
        let health = app.world().get::<Health>(e).unwrap();
        (health.hp, app.world().get::<Power>(e).unwrap().charge >= 0.999, gun.charge, gun.magazine)
    };
    run(&mut app, 80);
    let (hp, _, charge, _) = full(&app, units[0]);
    // Node 0 from 1 and the capacitor from 0 by a tenth a second for 5.12 s (node 1 whole).
    let (expected_hp, expected_charge) = (1.0 + 60.0 * 5.12 + 600.0, 0.2 * 5.12);
    assert!((hp - expected_hp).abs() < 1.0 && (charge - expected_charge).abs() < 0.01, "half way: {hp} {charge}");
    run(&mut app, 80);
    let capacitor = iron3d_sim::testing::cannon(0).capacitor;
    assert_eq!(full(&app, units[0]), (1200.0, true, capacitor, 30), "full in ten seconds: 3 rounds a second");
    assert_eq!(full(&app, units[1]).0, 1.0, "a clan at peace with the building's gains nothing");
    assert_eq!(full(&app, units[2]).0, 1.0, "outside the box: nothing");
    // An ally is served as the building's own clan is.
    let mut relations = app.world().resource::<ClanRelations>().clone();
    relations.words[1][2] = iron3d_core::relation::ALLIED;
    app.world_mut().insert_resource(relations);
    run(&mut app, 160);
    assert_eq!(full(&app, units[1]).0, 1200.0);
}

/// The demo's buildings carry the original's places in their models' hall ways, and
/// a generator's ground-level dock serves a unit of its clan standing in it.
#[test]
fn the_demos_buildings_carry_their_places_and_a_generators_dock_serves() {
    use iron3d_core::{Places, place, world_point};
    let game = demo_game();
    let mut app = demo_mission(&game, "single.01");
    let mut q = app.world_mut().query::<(&iron3d_mission::MissionObject, &Places, &SimTransform, &Owner)>();
    let mut generator = None;
    let mut pods = 0;
    for (object, places, t, owner) in q.iter(app.world()) {
        pods += places.of(place::POD).count();
        if object.key.to_ascii_lowercase().contains("gen") {
            let flags: Vec<u32> = places.of(place::DOCK).map(|p| p.flags).collect();
            assert_eq!(flags, [0x620, 0x1000_0620, 0x1000_0020], "{}", object.key);
            let ground = places.of(place::DOCK).find(|p| p.is(place::GROUND)).unwrap();
            generator.get_or_insert((world_point(t, ground.at), owner.clan));
        }
    }
    assert!(pods > 3, "every building has its pod: {pods}");
    let (at, clan) = generator.expect("single.01 has a generator");
    let mut q = app.world_mut().query_filtered::<(Entity, &Owner, &OriginalObjectId), With<Movable>>();
    let (unit, _, id) = q.iter(app.world()).filter(|(_, o, _)| o.clan == clan).min_by_key(|u| u.2.0).unwrap();
    let id = id.0;
    app.world_mut().get_mut::<SimTransform>(unit).unwrap().position = at;
    order(&mut app, vec![id], Order::Stop);
    let body = app.world_mut().get_mut::<Body>(unit).unwrap().nodes.iter().map(|n| n.max).collect::<Vec<_>>();
    app.world_mut().get_mut::<Body>(unit).unwrap().nodes.iter_mut().for_each(|n| n.life *= 0.5);
    run(&mut app, 160);
    let now: Vec<f32> = app.world().get::<Body>(unit).unwrap().nodes.iter().map(|n| n.life).collect();
    assert_eq!(now, body, "every node full again");
}

/// The refit (the original's orders 8 and 9): a unit goes to the nearest ground-level
/// dock of its clan, waits there until its life is at 98 % and stops; a machine under
/// half its life orders itself there and then takes up its order again; a nature clan's
/// never does; with no dock the order is refused (openparkan `docs/27-ownership.md`).
#[test]
fn a_refit_goes_to_the_nearest_dock_and_a_machine_low_on_life_orders_itself_there() {
    use iron3d_behavior::Navigator;
    use iron3d_core::{Place, Places, place};
    let mut app = wide_battlefield();
    relate(&mut app, false);
    let nav = |app: &App, e: Entity| app.world().get::<Navigator>(e).unwrap().clone();
    let life = |app: &App, e: Entity| {
        let h = app.world().get::<Health>(e).unwrap();
        h.hp / h.max
    };
    // No dock yet: refused.
    let lone = robot(&mut app, 9, 1, [300.0, 300.0], 0.0);
    run(&mut app, 1);
    order(&mut app, vec![9], Order::Refit);
    run(&mut app, 3);
    assert_eq!(nav(&app, lone).order, Order::Stop);
    let refused = events(&app, EventKind::Rejected);
    assert!(refused.iter().any(|r| r.1 == [9] && r.2.starts_with("refit: no ground-level dock")), "{refused:?}");
    // Two docks of clan 1 (a ground-level one near, an indoor one nearer) and one of clan 2.
    let building = |x: f32| SimTransform { position: [x, 100.0, 0.0], ..SimTransform::default() };
    let ground = Place { flags: place::GROUND | 0x20, at: [0.0, -12.0, 0.0], joint: 0 };
    let indoor = Place { flags: 0x620, at: [0.0, -6.0, 0.0], joint: 0 };
    for (id, x, clan, places) in
        [(20, 100.0, 1, vec![indoor, ground]), (21, 200.0, 1, vec![ground]), (22, 60.0, 2, vec![ground])]
    {
        app.world_mut().spawn((OriginalObjectId(id), building(x), Owner { clan, player: None }, Places(places)));
    }
    let ordered = robot(&mut app, 1, 1, [120.0, 40.0], 0.0);
    let low = robot(&mut app, 2, 1, [190.0, 40.0], 0.0);
    let beast = robot(&mut app, 3, 0, [90.0, 40.0], 0.0);
    run(&mut app, 1);
    let share = |app: &mut App, e: Entity, share: f32| {
        let max = app.world().get::<Body>(e).unwrap().nodes[0].max;
        hurt(app, e, max * share);
    };
    share(&mut app, ordered, 0.8);
    share(&mut app, low, 0.3);
    share(&mut app, beast, 0.3);
    order(&mut app, vec![1], Order::Refit);
    order(&mut app, vec![2], Order::MoveTo([240.0, 40.0]));
    // Combat publishes an object's supply every fourth tick; Behavior acts the tick after.
    run(&mut app, 6);
    assert_eq!(nav(&app, low).order, Order::Refit, "under half its life: off to a dock");
    assert_eq!(nav(&app, low).queued, [Order::MoveTo([240.0, 40.0])], "its order waits");
    assert_ne!(nav(&app, beast).order, Order::Refit, "a nature clan's machine never refits");
    assert_eq!(nav(&app, ordered).goal, [100.0, 88.0], "the nearest ground-level dock of its clan");
    run(&mut app, 400);
    assert!(life(&app, ordered) >= 0.98 && nav(&app, ordered).order == Order::Stop, "{:?}", nav(&app, ordered));
    assert!(dist2(pos(&app, ordered), [100.0, 88.0]) < 5.0, "it stands in the dock");
    assert!(life(&app, low) >= 0.98, "{}", life(&app, low));
    // Still on its way, or there and patrolling about the place (read).
    let on = |o: &Order| match o {
        Order::MoveTo(at) => *at == [240.0, 40.0],
        Order::Guard(Guard { ward: Ward::Place { at, .. }, radius }) => *at == [240.0, 40.0] && *radius == 150.0,
        _ => false,
    };
    assert!(on(&nav(&app, low).order), "then it goes on with its order: {:?}", nav(&app, low).order);
    assert!(life(&app, beast) < 0.5);
}

/// The player's camouflage (the original's `CMD_CAMOUFLAGE_WEAR` toggle): a piloted
/// machine with a detection shield that can camouflage switches it on and off as the
/// player asks, where the AI's engagement check (no hostile listed) would keep it off;
/// once released, the AI decides again.
#[test]
fn the_player_switches_a_piloted_machines_camouflage() {
    use iron3d_combat::Stealth;
    let mut app = wide_battlefield();
    relate(&mut app, false);
    let unit = robot(&mut app, 1, 1, [60.0, 60.0], 0.0);
    app.world_mut().entity_mut(unit).insert(seeing_sheet(500.0, Some(400.0), true));
    run(&mut app, 2);
    let worn = |app: &App| app.world().get::<Stealth>(unit).unwrap().camouflaged;
    let hold = PilotInput::default();
    let toggle = PilotInput { camouflage: true, ..hold };
    order(&mut app, vec![1], Order::Pilot(toggle));
    run(&mut app, 2);
    assert!(worn(&app), "on at the player's word");
    order(&mut app, vec![1], Order::Pilot(hold));
    run(&mut app, 20);
    assert!(worn(&app), "and it stays on: the engagement check leaves a piloted machine alone");
    order(&mut app, vec![1], Order::Pilot(toggle));
    run(&mut app, 2);
    assert!(!worn(&app), "off at the next toggle");
    order(&mut app, vec![1], Order::Pilot(hold));
    order(&mut app, vec![1], Order::Pilot(toggle));
    run(&mut app, 2);
    assert!(worn(&app));
    order(&mut app, vec![1], Order::Release);
    run(&mut app, 2);
    assert!(!worn(&app), "released, the AI takes it off: no hostile is listed");
}

/// Standby and shutdown (the original's `STAYGROUND` and `SHUTDOWN`, openparkan
/// `docs/31-packages.md`, read): a robot standing by still fires at an enemy in range
/// and never sends itself to a dock however hurt; a shut-down robot picks no target.
#[test]
fn standby_fires_and_holds_its_station_and_shutdown_fires_nothing() {
    use iron3d_behavior::Navigator;
    use iron3d_core::{Place, Places, place};
    let mut app = wide_battlefield();
    let dock = Place { flags: place::GROUND | 0x20, at: [0.0, -12.0, 0.0], joint: 0 };
    let yard = SimTransform { position: [300.0, 100.0, 0.0], ..SimTransform::default() };
    app.world_mut().spawn((OriginalObjectId(20), yard, Owner { clan: 1, player: None }, Places(vec![dock])));
    let standing = robot(&mut app, 1, 1, [40.0, 60.0], 0.0);
    let shut = robot(&mut app, 2, 1, [40.0, 90.0], 0.0);
    // An unarmed enemy in range: a transport.
    let enemy = spawn_unit(app.world_mut(), 3, 2, [80.0, 75.0], std::f32::consts::PI, 2.0);
    app.world_mut().entity_mut(enemy).insert(UnitClass(UnitClass::TRANSPORT));
    run(&mut app, 1);
    let max = app.world().get::<Body>(standing).unwrap().nodes[0].max;
    hurt(&mut app, standing, max * 0.3);
    order(&mut app, vec![1], Order::StandGround);
    order(&mut app, vec![2], Order::Shutdown);
    run(&mut app, 120);
    let fired_by = |id: u32| events(&app, EventKind::Damaged).iter().filter(|e| e.1.get(1) == Some(&id)).count();
    assert!(fired_by(1) > 0, "standing by, its guns still fire");
    assert_eq!(fired_by(2), 0, "shut down, it picks no target");
    let order_of = |e: Entity| app.world().get::<Navigator>(e).unwrap().order;
    assert_eq!((order_of(standing), order_of(shut)), (Order::StandGround, Order::Shutdown));
    assert!(dist2(pos(&app, standing), [40.0, 60.0]) < 1.0, "under half its life, it stays on station");
}

/// Follow (the original's `FOLLOW`, read): the follower stays within 20 of its leader
/// once the leader stops, and the order fails once the leader is another clan's.
#[test]
fn a_follower_keeps_within_20_of_its_leader_and_stops_following_another_clans() {
    use iron3d_behavior::{FOLLOW_RADIUS, Navigator};
    let mut app = wide_battlefield();
    relate(&mut app, false);
    let leader = robot(&mut app, 1, 1, [40.0, 40.0], 0.0);
    let follower = robot(&mut app, 2, 1, [60.0, 40.0], 0.0);
    run(&mut app, 1);
    order(&mut app, vec![2], Order::Follow(1));
    go_and_stop(&mut app, vec![1], [300.0, 300.0]);
    // The leader arrives, and the follower, as fast as it, catches up.
    run(&mut app, 1_200);
    let gap = dist2(pos(&app, follower), [pos(&app, leader)[0], pos(&app, leader)[1]]);
    assert!(dist2(pos(&app, leader), [300.0, 300.0]) < 30.0, "the leader arrived");
    assert!(gap <= FOLLOW_RADIUS * 2.0_f32.sqrt() + 2.0, "the follower stands by it: {gap}");
    app.world_mut().get_mut::<Owner>(leader).unwrap().clan = 2;
    run(&mut app, 2);
    assert_eq!(app.world().get::<Navigator>(follower).unwrap().order, Order::Stop);
    let refused = events(&app, EventKind::Rejected);
    assert!(refused.iter().any(|r| r.1 == [2, 1] && r.2.starts_with("follow: leader 1")), "{refused:?}");
}
