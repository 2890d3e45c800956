//! The strategic layer (the project's own rules): computer clans defend, attack when
//! stronger and only give orders; the defeat and victory rules; the demo skirmish won
//! and lost, replayed.

use super::*;
use iron3d_behavior::Navigator;
use iron3d_strategy::Strategy;
use std::sync::Arc;

const BATTLE_UNIT: u32 = 0x0100_8000;
const PLANT: u32 = 0x8000_0010;

struct NoFiles;

impl ScriptFiles for NoFiles {
    fn read(&self, _: &str) -> Result<Option<Vec<u8>>, String> {
        Ok(None)
    }
}

/// A player clan 1 based at (15, 15) and a computer clan 2 based at (105, 105), at war.
fn skirmish() -> App {
    let mut app = world_app(flat, |_, _| false);
    let clan = |index: u32, name: &str, mode: u32, anchor: [f32; 2]| ClanSetup {
        anchor,
        minds: 17,
        ..ClanSetup::bare(index, name, mode)
    };
    let clans =
        vec![clan(0, "Nature", 0, [0.0; 2]), clan(1, "Player", 1, [15.0, 15.0]), clan(2, "Enemy", 2, [105.0, 105.0])];
    app.world_mut().insert_resource(ClanRelations::from_clans(&clans));
    app.world_mut().insert_resource(MissionClans { clans, files: Arc::new(NoFiles) });
    // The shipped radius is for real maps; this one is 120 units wide.
    app.world_mut().resource_mut::<iron3d_strategy::StrategyRules>().ai.defend_radius = 30.0;
    app
}

fn robot(app: &mut App, id: u32, clan: i32, at: [f32; 2]) -> Entity {
    let e = spawn_unit(app.world_mut(), id, clan, at, 0.0, 2.0);
    app.world_mut().entity_mut(e).insert(UnitClass(BATTLE_UNIT));
    e
}

fn plant(app: &mut App, id: u32, clan: i32, at: [f32; 2]) -> Entity {
    let e = spawn_building(app.world_mut(), id, at, [3.0, 3.0]);
    app.world_mut().entity_mut(e).insert((UnitClass(PLANT), Owner { clan, player: None }));
    e
}

fn order_of(app: &App, e: Entity) -> Order {
    app.world().get::<Navigator>(e).unwrap().order
}

#[test]
fn a_stronger_computer_clan_attacks_the_enemy_plant_and_keeps_a_home_guard() {
    let mut app = skirmish();
    plant(&mut app, 1, 1, [15.0, 15.0]);
    robot(&mut app, 2, 1, [20.0, 20.0]);
    let army: Vec<Entity> = (0..6).map(|i| robot(&mut app, 10 + i, 2, [100.0 + 2.0 * i as f32, 95.0])).collect();
    run(&mut app, 70);
    let orders: Vec<Order> = army.iter().map(|&e| order_of(&app, e)).collect();
    let guard = 2;
    assert!(orders[..guard].iter().all(|o| matches!(o, Order::MoveTo(_))), "the home guard rallies: {orders:?}");
    assert!(orders[guard..].iter().all(|o| *o == Order::Attack(1)), "the rest attack the plant: {orders:?}");
    let assigned = app.world().resource::<Strategy>().assigned.clone();
    assert_eq!(assigned.len(), 6, "every order is remembered (and given once)");
}

#[test]
fn a_weaker_computer_clan_gathers_and_defends_its_base() {
    let mut app = skirmish();
    plant(&mut app, 1, 1, [15.0, 15.0]);
    for i in 0..4 {
        robot(&mut app, 2 + i, 1, [15.0 + 3.0 * i as f32, 25.0]);
    }
    let army: Vec<Entity> = (0..3).map(|i| robot(&mut app, 10 + i, 2, [100.0 + 3.0 * i as f32, 95.0])).collect();
    run(&mut app, 70);
    assert!(army.iter().all(|&e| matches!(order_of(&app, e), Order::MoveTo(_))), "weaker: it stays home");
    // An intruder near its anchor: every unit turns on it.
    robot(&mut app, 30, 1, [104.0, 110.0]);
    run(&mut app, 70);
    assert!(army.iter().all(|&e| order_of(&app, e) == Order::Attack(30)), "it defends");
}

#[test]
fn a_clan_without_units_and_producers_is_defeated_and_its_enemy_wins() {
    let mut app = skirmish();
    plant(&mut app, 1, 1, [15.0, 15.0]);
    let factory = plant(&mut app, 2, 2, [105.0, 105.0]);
    let last = robot(&mut app, 3, 2, [100.0, 100.0]);
    run(&mut app, 5);
    assert_eq!(app.world().resource::<MissionOutcome>().records, vec![], "both still play");
    for e in [factory, last] {
        let handle = *app.world().get::<ObjectHandle>(e).unwrap();
        app.world_mut().write_message(DeleteRequest { object: handle });
    }
    run(&mut app, 3);
    let outcome = app.world().resource::<MissionOutcome>();
    assert_eq!(outcome.of(2), Some(Outcome::Defeated));
    assert_eq!(outcome.of(1), Some(Outcome::Completed), "without a script package the win is recorded directly");
    let logged: Vec<String> = events(&app, EventKind::Outcome).into_iter().map(|e| e.2).collect();
    assert_eq!(logged, ["clan=2 defeated", "clan=1 completed"]);
}

mod demo_skirmish {
    use super::*;

    fn tutorial() -> App {
        demo_mission(&demo_game(), "tutorial.01")
    }

    /// Removes every unit and production building of `clan` (what losing a battle does).
    fn wipe_out(app: &mut App, clan: i32) {
        let mut q = app.world_mut().query::<(&Owner, &ObjectHandle, Option<&UnitClass>, Has<Movable>)>();
        let doomed: Vec<ObjectHandle> = q
            .iter(app.world())
            .filter(|(o, _, class, movable)| {
                o.clan == clan && (*movable || class.is_some_and(|c| matches!(c.0, 0x8000_0010 | 0x8000_0040)))
            })
            .map(|(_, h, _, _)| *h)
            .collect();
        assert!(!doomed.is_empty());
        for object in doomed {
            app.world_mut().write_message(DeleteRequest { object });
        }
    }

    #[test]
    fn the_player_wins_the_demo_skirmish_through_its_script() {
        let mut app = tutorial();
        run(&mut app, 3);
        wipe_out(&mut app, 2);
        run(&mut app, 4);
        let outcome = app.world().resource::<MissionOutcome>();
        assert_eq!((outcome.of(2), outcome.of(1)), (Some(Outcome::Defeated), None), "no every-enemy-out win here");
        run(&mut app, 32);
        let logged: Vec<String> = events(&app, EventKind::Outcome).into_iter().map(|e| e.2).collect();
        assert_eq!(
            logged,
            ["clan=2 defeated", "clan=1 completed"],
            "the Mission handler's objective ended it (function 30)"
        );
        let objectives: Vec<String> = events(&app, EventKind::Objective).into_iter().map(|e| e.2).collect();
        assert_eq!(objectives, ["clan=1 id=0 complete"]);
    }

    #[test]
    fn the_computer_clan_builds_robots_with_its_plants_and_hangars() {
        let mut app = tutorial();
        let owner_of = |app: &mut App, id: u32| {
            let e = app.world().resource::<ObjectTable>().entity_of(id).unwrap();
            app.world().get::<Owner>(e).unwrap().clan
        };
        run(&mut app, 700);
        let produced = events(&app, EventKind::Produced);
        let by_enemy: Vec<_> = produced.iter().filter(|e| owner_of(&mut app, e.1[0]) == 2).collect();
        assert!(!by_enemy.is_empty(), "the computer clan built a robot: {produced:?}");
        for e in &by_enemy {
            assert_eq!(owner_of(&mut app, e.1[1]), 2, "the robot is the clan's");
        }
        assert!(
            produced.iter().all(|e| owner_of(&mut app, e.1[0]) == 2),
            "the player's producers build only when the player orders"
        );
        let class_of = |app: &App, id: u32| {
            let e = app.world().resource::<ObjectTable>().entity_of(id).unwrap();
            app.world().get::<UnitClass>(e).map(|c| c.0)
        };
        let haulers: Vec<u32> =
            by_enemy.iter().map(|e| e.1[1]).filter(|&id| class_of(&app, id) == Some(UnitClass::TRANSPORT)).collect();
        assert!(!haulers.is_empty(), "it has mines: it builds transports: {by_enemy:?}");
        let strategy = app.world().resource::<Strategy>().clone();
        for h in haulers {
            assert!(matches!(strategy.assigned.get(&h), Some(Order::Haul(_))), "transport {h} hauls");
        }
    }

    /// The demo laid out like an installed original (robot schemes renamed in its
    /// style, project-only properties such as `PatrolPath` dropped), in a temporary
    /// folder.
    fn original_like(tag: &str) -> (std::path::PathBuf, Arc<iron3d_vfs::GameDir>) {
        let root = std::env::temp_dir().join(format!("iron3d-original-like-{tag}-{}", std::process::id()));
        let demo = iron3d_demo::build(iron3d_demo::DEFAULT_SEED).unwrap();
        iron3d_demo::original_like::rewrite(&demo).unwrap().write_to(&root).unwrap();
        let game = iron3d_vfs::GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap();
        (root, Arc::new(game))
    }

    #[test]
    fn on_an_original_like_copy_the_computer_clan_still_builds_hauls_and_attacks() {
        let (root, game) = original_like("skirmish");
        let mut app = demo_mission(&game, "tutorial.01");
        run(&mut app, 3500);
        let owner_of = |app: &App, id: u32| {
            let e = app.world().resource::<ObjectTable>().entity_of(id)?;
            app.world().get::<Owner>(e).map(|o| o.clan)
        };
        let rejected = events(&app, EventKind::Rejected);
        assert!(rejected.iter().all(|e| !e.2.contains("not found")), "every scheme is found: {rejected:?}");
        let produced = events(&app, EventKind::Produced);
        let built: Vec<&String> = produced.iter().filter(|e| owner_of(&app, e.1[0]) == Some(2)).map(|e| &e.2).collect();
        assert!(built.len() >= 2, "the computer clan builds: {produced:?}");
        let by_name = |name: &str| name.to_ascii_lowercase().starts_with("units\\units\\ai\\");
        assert!(built.iter().any(|n| by_name(n)), "its script builds from the AI's design store: {built:?}");
        let rest: Vec<_> = built.iter().filter(|n| !by_name(n)).collect();
        assert!(rest.iter().all(|name| name.contains("w_m_tnk")), "the rest from the renamed schemes: {built:?}");
        let hauled = events(&app, EventKind::Loaded).into_iter().filter(|e| owner_of(&app, e.1[1]) == Some(2)).count();
        assert!(hauled > 0, "its transports haul ore from its mines");
        let damaged = events(&app, EventKind::Damaged);
        let by_clan =
            |clan: i32| damaged.iter().filter(move |e| e.1.get(1).and_then(|&a| owner_of(&app, a)) == Some(clan));
        assert!(by_clan(2).count() > 0, "it attacks: {} hits in all", damaged.len());
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn on_an_original_like_copy_the_players_attack_on_an_enemy_building_is_taken_and_wiping_the_enemy_out_wins() {
        let (root, game) = original_like("attack");
        let mut app = demo_mission(&game, "tutorial.01");
        let relations = app.world().resource::<ClanRelations>().clone();
        assert!(relations.hostile(1, 2) && relations.hostile(2, 1), "the original's word 0 between them");
        let mut q = app.world_mut().query::<(&OriginalObjectId, &Owner, Has<Movable>, Has<iron3d_core::Health>)>();
        let rows: Vec<(u32, i32, bool, bool)> = q.iter(app.world()).map(|(id, o, m, h)| (id.0, o.clan, m, h)).collect();
        let target = rows.iter().filter(|r| r.1 == 2 && !r.2 && r.3).map(|r| r.0).min().expect("an enemy building");
        let mut q = app.world_mut().query::<(&OriginalObjectId, &Owner, &iron3d_core::Weapon)>();
        let mut armed: Vec<u32> = q.iter(app.world()).filter(|(_, o, _)| o.clan == 1).map(|(id, ..)| id.0).collect();
        armed.retain(|id| rows.iter().any(|r| r.0 == *id && r.2));
        // The enemy's units patrol about their rally points and fight what comes in: this
        // test is about the attack's resolution on renamed schemes, not the battle.
        for &id in &armed {
            let e = app.world().resource::<ObjectTable>().entity_of(id).unwrap();
            app.world_mut().get_mut::<iron3d_core::Health>(e).unwrap().invulnerable = true;
        }
        order(&mut app, armed, Order::Attack(target));
        let mut hit = false;
        for _ in 0..60 {
            run(&mut app, 100);
            if events(&app, EventKind::Damaged).iter().any(|e| e.1.first() == Some(&target)) {
                hit = true;
                break;
            }
        }
        assert!(hit, "the player's robots reach the enemy building and hit it");
        wipe_out(&mut app, 2);
        // The player's script ends the mission at its next run (function 30).
        run(&mut app, 36);
        assert_eq!(app.world().resource::<MissionOutcome>().of(1), Some(Outcome::Completed));
        let _ = std::fs::remove_dir_all(root);
    }

    /// The nature clan's beasts, placed without orders, graze its pasture (its zone in
    /// `data.tma`): they migrate, keep to the pasture's square, and no clan's radar
    /// lists them.
    #[test]
    fn on_an_original_like_copy_the_nature_clans_beasts_graze_their_pasture() {
        let (root, game) = original_like("graze");
        let mut app = demo_mission(&game, "tutorial.01");
        let clans = app.world().resource::<MissionClans>().clans.clone();
        let nature: Vec<&ClanSetup> = clans.iter().filter(|c| c.mode == iron3d_core::ClanType::NATURE).collect();
        let [pasture] = nature[0].pastures[..] else { panic!("one pasture: {:?}", nature[0].pastures) };
        let mut q = app.world_mut().query::<(Entity, &Owner, &UnitClass)>();
        let beasts: Vec<Entity> =
            q.iter(app.world()).filter(|(_, o, c)| o.clan == 0 && c.is_animal()).map(|r| r.0).collect();
        assert!(!beasts.is_empty(), "the mission places animals");
        let start: Vec<[f32; 3]> =
            beasts.iter().map(|&b| app.world().get::<SimTransform>(b).unwrap().position).collect();
        let mut wandered = 0.0f32;
        for _ in 0..40 {
            run(&mut app, 50);
            for (&b, s) in beasts.iter().zip(&start) {
                let nav = app.world().get::<Navigator>(b).unwrap();
                assert_eq!(nav.order, Order::Migrate, "an animal without orders migrates");
                let p = app.world().get::<SimTransform>(b).unwrap().position;
                wandered = wandered.max(dist2(p, [s[0], s[1]]));
                let d = dist2(p, [pasture.centre[0], pasture.centre[1]]);
                assert!(d <= pasture.inner * 1.5 + 10.0, "it keeps to its pasture: {d}");
            }
        }
        assert!(wandered > 5.0, "they walk from point to point: {wandered}");
        let mut q = app.world_mut().query::<&iron3d_core::Radar>();
        let targets: Vec<u32> = q.iter(app.world()).filter_map(|r| r.target).collect();
        let ids: Vec<u32> = beasts.iter().map(|&b| app.world().get::<OriginalObjectId>(b).unwrap().0).collect();
        assert!(ids.iter().all(|id| !targets.contains(id)), "no radar lists a nature clan's machine");
        let _ = std::fs::remove_dir_all(root);
    }

    /// Each mine of the loaded mission: (clan, position, what its lodes give, ore held).
    fn mines(app: &mut App) -> Vec<(i32, [f32; 3], f32, f32)> {
        let mut q = app.world_mut().query::<(
            &Owner,
            &UnitClass,
            &iron3d_core::SimTransform,
            &iron3d_economy::MineDig,
            &iron3d_economy::OreProperty,
        )>();
        let mut v: Vec<_> = q
            .iter(app.world())
            .filter(|r| r.1.0 == UnitClass::MINE)
            .map(|(o, _, t, d, ore)| (o.clan, t.position, d.to_mine, ore.current()))
            .collect();
        v.sort_by_key(|m| m.0);
        v
    }

    #[test]
    fn a_mine_digs_only_from_the_lodes_within_250_of_it() {
        use iron3d_formats::world::Tma;
        let (root, game) = original_like("lodes");
        let mut app = demo_mission(&game, "tutorial.01");
        let before = mines(&mut app);
        assert!(before.len() >= 2 && before.iter().all(|m| m.2 > 0.0), "every demo mine has a lode: {before:?}");
        let player_mine = before.iter().find(|m| m.0 == 1).unwrap().1;
        // The Player's lodes moved just out of reach (251 across the ground).
        let tma_path = root.join("MISSIONS/tutorial.01/data.tma");
        let mut tma = Tma::parse(&std::fs::read(&tma_path).unwrap(), iron3d_formats::ReadOptions::strict()).unwrap();
        let near = |p: [f32; 3]| libm::hypotf(p[0] - player_mine[0], p[1] - player_mine[1]) <= 250.0;
        let mut moved = 0;
        for lode in tma.extras.iter_mut().filter(|e| near(e.position)) {
            lode.position = [player_mine[0] + 251.0, player_mine[1], 0.0];
            moved += 1;
        }
        assert!(moved > 0);
        std::fs::write(&tma_path, tma.to_bytes().unwrap()).unwrap();
        let game = Arc::new(iron3d_vfs::GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap());
        let mut app = demo_mission(&game, "tutorial.01");
        // Emptied, so a full store does not stop the dig.
        let mut q = app.world_mut().query::<(&UnitClass, &mut iron3d_economy::OreProperty)>();
        q.iter_mut(app.world_mut()).filter(|(c, _)| c.0 == UnitClass::MINE).for_each(|(_, mut o)| o.set(0.0));
        let start = mines(&mut app);
        run(&mut app, 50);
        let after = mines(&mut app);
        let (player, enemy) =
            (after.iter().position(|m| m.0 == 1).unwrap(), after.iter().position(|m| m.0 == 2).unwrap());
        assert_eq!(after[player].2, 0.0, "no lode within 250: nothing to mine");
        assert_eq!(after[player].3, start[player].3, "the Player's mine digs nothing");
        assert!(after[enemy].3 > start[enemy].3, "the Enemy's mine digs from its lode");
        let lodes = app.world().resource::<iron3d_core::MineralLodes>();
        assert!(lodes.0.iter().any(|l| l.found), "a mine's lodes are found");
        let _ = std::fs::remove_dir_all(root);
    }

    /// The clan's robots (class bit `0x01000000`).
    fn robots_of(app: &mut App, clan: i32) -> usize {
        let mut q = app.world_mut().query::<(&Owner, &UnitClass)>();
        q.iter(app.world()).filter(|(o, c)| o.clan == clan && c.0 & 0x0100_0000 != 0).count()
    }

    #[test]
    fn the_minds_cap_every_clans_robots_placed_and_built() {
        use iron3d_formats::world::Tma;
        let (root, _) = original_like("minds");
        let tma_path = root.join("MISSIONS/tutorial.01/data.tma");
        let mut tma = Tma::parse(&std::fs::read(&tma_path).unwrap(), iron3d_formats::ReadOptions::strict()).unwrap();
        let robots = |tma: &Tma, clan: u32| {
            tma.objects.iter().filter(|o| o.raw_after_resource == clan && o.raw_kind == 1).count() as i32
        };
        let (player, enemy) = (robots(&tma, 1), robots(&tma, 2));
        assert!(player > 2 && enemy > 1, "the mission places robots for both clans");
        // Fewer minds than placed robots for the Player; one free for the Enemy.
        tma.clans[1].minds = 2;
        tma.clans[2].minds = enemy + 1;
        std::fs::write(&tma_path, tma.to_bytes().unwrap()).unwrap();
        let game = Arc::new(iron3d_vfs::GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap());
        let mut app = demo_mission(&game, "tutorial.01");
        assert_eq!(robots_of(&mut app, 1), 2, "a placed robot without a free mind is not created");
        assert_eq!(robots_of(&mut app, 2), enemy as usize);
        run(&mut app, 2000);
        let board = app.world().resource::<iron3d_core::MindBoard>().clone();
        assert_eq!(board.clans.get(&1), Some(&(2, 0)), "{board:?}");
        assert!(robots_of(&mut app, 1) <= 2 && robots_of(&mut app, 2) <= enemy as usize + 1, "the cap holds");
        let owner_of = |app: &App, id: u32| {
            let e = app.world().resource::<ObjectTable>().entity_of(id)?;
            app.world().get::<Owner>(e).map(|o| o.clan)
        };
        let built = events(&app, EventKind::Produced).into_iter().filter(|e| owner_of(&app, e.1[0]) == Some(2)).count();
        assert!(built >= 1, "the computer clan builds into its free mind");
        let refused: Vec<String> =
            events(&app, EventKind::Rejected).into_iter().map(|e| e.2).filter(|d| d.contains("no free mind")).collect();
        assert!(refused.is_empty(), "the computer clan orders no build it has no mind for: {refused:?}");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn what_a_clan_can_build_comes_from_the_missions_data_and_nothing_is_said_once() {
        use iron3d_formats::world::Tma;
        let (root, game) = original_like("options");
        let mission = root.join("MISSIONS/tutorial.01");
        let options = |game: &Arc<iron3d_vfs::GameDir>| {
            let mut app = demo_mission(game, "tutorial.01");
            run(&mut app, 2);
            let names = app.world().resource::<SchemeNames>().clone();
            let options = app.world().resource::<BuildOptions>().clone();
            let of = |clan: i32| -> Vec<(String, u32)> {
                let list = options.clans.get(&clan).map_or(&[][..], Vec::as_slice);
                list.iter().map(|o| (names.name(o.scheme).unwrap().to_string(), o.class)).collect()
            };
            (of(1), of(2), events(&app, EventKind::Rejected))
        };
        let (player, enemy, _) = options(&game);
        let placed: Vec<&str> = enemy.iter().map(|o| o.0.as_str()).collect();
        assert_eq!(
            placed,
            [
                "units\\builder\\b_s_wel1.dat",
                "units\\robots\\w_m_tnk1.dat",
                "units\\robots\\w_m_tnk2.dat",
                "units\\robots\\w_m_tnk3.dat",
                "units\\robots\\w_m_tnk4.dat"
            ]
        );
        assert_eq!(player, enemy, "robots placed for any clan");
        assert!(enemy.iter().any(|o| o.1 == UnitClass::TRANSPORT), "the transport among them");
        // No robot placed: the mission.cfg's prebuild schemes are what the clans build.
        let tma_path = mission.join("data.tma");
        let mut tma = Tma::parse(&std::fs::read(&tma_path).unwrap(), iron3d_formats::ReadOptions::strict()).unwrap();
        let robot = |o: &iron3d_formats::world::PlacedObject| {
            let path = o.resource_name.as_bytes();
            path.starts_with(b"UNITS\\ROBOTS") || path.starts_with(b"UNITS\\BUILDER")
        };
        tma.objects.retain(|o| !robot(o));
        std::fs::write(&tma_path, tma.to_bytes().unwrap()).unwrap();
        let cfg_path = mission.join("mission.cfg");
        let music = std::fs::read(&cfg_path).unwrap();
        let mut cfg = music.clone();
        cfg.extend_from_slice(b"object prebuild\r\n    unit1 \"UNITS\\ROBOTS\\W_M_TNK3.DAT\"\r\nend\r\n");
        std::fs::write(&cfg_path, cfg).unwrap();
        let reopen = || Arc::new(iron3d_vfs::GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap());
        let (_, enemy, _) = options(&reopen());
        assert_eq!(enemy, [("units\\robots\\w_m_tnk3.dat".to_string(), BATTLE_UNIT)]);
        // Nothing at all: each active clan says so once.
        std::fs::write(&cfg_path, music).unwrap();
        let (player, enemy, rejected) = options(&reopen());
        assert!(player.is_empty() && enemy.is_empty());
        let said: Vec<&String> = rejected.iter().map(|e| &e.2).filter(|d| d.contains("nothing to build")).collect();
        assert_eq!(said.len(), 2, "once per active clan: {said:?}");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn the_computer_clan_researches_its_tree_and_then_builds_what_it_unlocks() {
        let mut app = tutorial();
        run(&mut app, 2000);
        let researched: Vec<String> = events(&app, EventKind::Researched).into_iter().map(|e| e.2).collect();
        assert!(researched.iter().any(|d| d.starts_with("clan=2 ")), "the computer clan researched: {researched:?}");
        assert!(researched.iter().all(|d| d.starts_with("clan=2 ")), "the player researches only when told");
        assert!(researched.len() >= 2, "one node after another: {researched:?}");
        // A refused research order (not enough ore) waits 30 s: 2 000 ticks hold few.
        let refused = events(&app, EventKind::Rejected).into_iter().filter(|e| e.2.starts_with("research")).count();
        assert!(refused <= 2000 / 469 + 1, "{refused} research refusals");
    }

    #[test]
    fn the_player_loses_the_demo_skirmish() {
        let mut app = tutorial();
        run(&mut app, 3);
        wipe_out(&mut app, 1);
        run(&mut app, 4);
        let outcome = app.world().resource::<MissionOutcome>();
        assert_eq!((outcome.of(1), outcome.of(2)), (Some(Outcome::Failed), None), "a player clan fails");
        let logged: Vec<String> = events(&app, EventKind::Outcome).into_iter().map(|e| e.2).collect();
        assert_eq!(logged, ["clan=1 failed"], "through its script's Mission_Failed (function 30)");
    }

    #[test]
    fn the_demo_skirmish_fights_and_replays_to_the_same_hash_and_outcome() {
        let play = || {
            let mut app = tutorial();
            run(&mut app, 3500);
            // The rest of the enemy falls at once: the run ends with the player's victory
            // (its Mission handler's next run completes the primary objective).
            wipe_out(&mut app, 2);
            run(&mut app, 36);
            let hashes = app.world().resource::<StateHash>().history.clone();
            (hashes, app.world().resource::<MissionOutcome>().clone(), events(&app, EventKind::Damaged).len())
        };
        let (hashes, outcome, damaged) = play();
        assert!(damaged > 0, "the clans meet and fight");
        assert_eq!(outcome.of(1), Some(Outcome::Completed));
        assert_eq!(play(), (hashes, outcome, damaged));
    }
}

/// Options of three battle schemes (one armed robot of no listed class among them), a
/// builder, a transport and a building, named by their place, not their file.
fn options() -> Vec<BuildOption> {
    let option = |n: u64, class: u32, component_types: &[u32]| BuildOption {
        scheme: SchemeRef(n),
        class,
        component_types: component_types.to_vec(),
    };
    vec![
        option(10, BATTLE_UNIT, &[0, 1, 4]),
        option(11, 0x0100_4000, &[0]),
        option(12, 0x0120_0000, &[0, 1, 4]),
        option(13, UnitClass::TRANSPORT, &[0]),
        option(14, BATTLE_UNIT, &[0]),
        option(15, PLANT, &[0, 4]),
    ]
}

#[test]
fn the_menu_takes_schemes_by_role_never_by_name() {
    use iron3d_strategy::ai::Menu;
    let rules = iron3d_rules::Rules::shipped().unwrap().ai;
    let menu = Menu::of(&options(), &rules);
    assert_eq!(menu.army, [SchemeRef(10), SchemeRef(12), SchemeRef(14)], "battle class or armed robot");
    assert_eq!(menu.transports, [SchemeRef(13)]);
    let mut hq = rules.clone();
    hq.army = vec![iron3d_rules::Role::Builder];
    assert_eq!(Menu::of(&options(), &hq).army, [SchemeRef(11)], "the army's roles come from the rules");
    assert_eq!(Menu::of(&[], &rules), Menu::default(), "nothing to build");
}

#[test]
fn builds_take_the_schemes_in_turn_skip_refused_ones_and_respect_the_cap() {
    use iron3d_strategy::Build;
    use iron3d_strategy::ai::{Menu, Seen, builds};
    let mut rules = iron3d_rules::Rules::shipped().unwrap().ai;
    rules.unit_cap = 4;
    let menu = Menu::of(&options(), &rules);
    let battle = |producer: u32, n: u64| (producer, Build { clan: 2, scheme: SchemeRef(n), transport: false });
    let seen = |id: u32, clan: i32, armed: bool, movable: bool, producer: bool| Seen {
        id,
        clan,
        at: [0.0; 2],
        hp: 1.0,
        armed,
        movable,
        producer,
        institute: false,
        mine: false,
        transport: false,
    };
    let census = [
        seen(1, 2, false, false, true),
        seen(2, 2, false, false, true),
        seen(3, 2, false, false, true),
        seen(4, 2, true, true, false),
        seen(5, 1, false, false, true),
    ];
    let mut s = Strategy::default();
    let first = builds(2, 0, &census, &rules, &menu, &s);
    assert_eq!(first, vec![battle(1, 10), battle(2, 12), battle(3, 14)], "own producers, schemes in turn");
    s.building.insert(1, first[0].1);
    s.builds.insert(2, 1);
    s.refused.insert((2, SchemeRef(12)), 100);
    let busy = builds(2, 50, &census, &rules, &menu, &s);
    assert_eq!(busy, vec![battle(2, 14), battle(3, 10)], "1 busy, scheme 12 waits");
    rules.unit_cap = 3;
    let capped = builds(2, 50, &census, &rules, &menu, &s);
    assert_eq!(capped, vec![battle(2, 14)], "1 unit + 1 running + 1 new: the cap holds");
    let again = builds(2, 100, &census, &rules, &menu, &s);
    assert_eq!(again, vec![battle(2, 12)], "after the wait it is tried again");
    assert_eq!(builds(2, 0, &census, &rules, &Menu::default(), &Strategy::default()), vec![], "nothing to build");
}

#[test]
fn a_clan_with_a_mine_builds_transports_first_and_sends_idle_ones_to_haul() {
    use iron3d_strategy::Build;
    use iron3d_strategy::ai::{Menu, Seen, builds, hauls};
    let rules = iron3d_rules::Rules::shipped().unwrap().ai;
    let menu = Menu::of(&options(), &rules);
    let build = |producer: u32, n: u64| (producer, Build { clan: 2, scheme: SchemeRef(n), transport: n == 13 });
    let seen = |id: u32, clan: i32| Seen {
        id,
        clan,
        at: [0.0; 2],
        hp: 1.0,
        armed: false,
        movable: false,
        producer: false,
        institute: false,
        mine: false,
        transport: false,
    };
    let producer = |id| Seen { producer: true, ..seen(id, 2) };
    let mine = |id, x: f32| Seen { mine: true, at: [x, 0.0], ..seen(id, 2) };
    let transport = |id, x: f32| Seen { transport: true, movable: true, at: [x, 0.0], ..seen(id, 2) };
    let mut census = vec![producer(1), producer(2), producer(3)];
    let s = Strategy::default();
    let no_mine = builds(2, 0, &census, &rules, &menu, &s);
    assert_eq!(no_mine, vec![build(1, 10), build(2, 12), build(3, 14)], "no mine: no transport");
    census.push(mine(4, 0.0));
    let mined = builds(2, 0, &census, &rules, &menu, &s);
    assert_eq!(mined, vec![build(1, 13), build(2, 13), build(3, 10)], "two transports, then battle units");
    census.push(transport(5, 0.0));
    let mut s = Strategy::default();
    s.building.insert(1, mined[0].1);
    let enough = builds(2, 0, &census, &rules, &menu, &s);
    assert_eq!(enough, vec![build(2, 10), build(3, 12)], "one built, one being built: enough");
    census.extend([mine(6, 100.0), transport(7, 90.0), mine(8, 100.0), transport(9, 48.0)]);
    let mut assigned = std::collections::BTreeMap::new();
    assert_eq!(
        hauls(2, &census, &assigned),
        vec![(5, 4), (7, 6), (9, 4)],
        "each names its nearest mine (ties by the lower id)"
    );
    assigned.insert(5, Order::Haul(4));
    assigned.insert(7, Order::Haul(99));
    assigned.insert(9, Order::MoveTo([0.0, 0.0]));
    assert_eq!(hauls(2, &census, &assigned), vec![(7, 6), (9, 4)], "5 hauls; 7's mine is gone; 9 is not hauling");
    assert_eq!(hauls(1, &census, &assigned), vec![], "another clan has no transport");
}

#[test]
fn a_computer_clans_idle_transport_gets_a_haul_order() {
    use iron3d_core::{Place, Places, place};
    let mut app = skirmish();
    let building = |app: &mut App, id: u32, x: f32, (class, flags): (u32, u32)| {
        let e = spawn_building(app.world_mut(), id, [x, 80.0], [3.0, 3.0]);
        let ore = iron3d_economy::OreProperty { current_bits: 300f32.to_bits(), maximum: 500.0 };
        let places = Places(vec![Place { flags: place::GROUND | flags, at: [0.0, -9.0, 0.0], joint: 0 }]);
        app.world_mut().entity_mut(e).insert((UnitClass(class), Owner { clan: 2, player: None }, ore, places));
    };
    building(&mut app, 40, 100.0, (UnitClass::MINE, place::MINE_LOADING));
    building(&mut app, 41, 110.0, (UnitClass::MINE, place::MINE_LOADING));
    building(&mut app, 42, 160.0, (UnitClass::STORAGE, place::STORAGE_UNLOADING));
    robot(&mut app, 10, 2, [100.0, 100.0]);
    let hauler = robot(&mut app, 20, 2, [108.0, 100.0]);
    app.world_mut().entity_mut(hauler).insert(UnitClass(UnitClass::TRANSPORT));
    run(&mut app, 70);
    assert_eq!(order_of(&app, hauler), Order::Haul(41), "naming its nearest mine");
    assert_eq!(app.world().resource::<Strategy>().assigned.get(&20), Some(&Order::Haul(41)), "remembered");
}

/// The difficulty level (the original's rule over `[LEVEL_RATIO]`): its ratio as is on
/// the life and weapon damage of the warriors, HQs and heroes of every clan not allied
/// with the player's; the player's own, and the enemy's transports, are not scaled; the
/// run's hashes differ.
#[test]
fn the_difficulty_ratio_scales_the_enemys_combat_units_and_changes_the_hash() {
    let game = demo_game();
    let play = |level: iron3d_core::DifficultyLevel| {
        let mut app = headless_app();
        app.add_plugins(iron3d_mission::MissionPlugin);
        app.world_mut().resource_mut::<iron3d_core::Difficulty>().level = level;
        iron3d_mission::load_headless(&mut app, &game, "tutorial.01").expect("loads");
        run(&mut app, 30);
        let mut q = app.world_mut().query::<(&OriginalObjectId, &Owner, &UnitClass, &iron3d_core::Health)>();
        let mut units: Vec<(u32, i32, u32, f32)> =
            q.iter(app.world()).map(|(id, o, c, h)| (id.0, o.clan, c.0, h.max)).collect();
        units.sort_unstable_by_key(|u| u.0);
        let mut q = app.world_mut().query::<(&OriginalObjectId, &iron3d_core::Weapon)>();
        let mut weapons: Vec<(u32, f32)> = q.iter(app.world()).map(|(id, w)| (id.0, w.damage)).collect();
        weapons.sort_unstable_by_key(|w| w.0);
        let difficulty = *app.world().resource::<iron3d_core::Difficulty>();
        (units, weapons, difficulty, app.world().resource::<StateHash>().history.clone())
    };
    use iron3d_core::DifficultyLevel::{Easy, Hard, Normal};
    let (easy, normal, hard) = (play(Easy), play(Normal), play(Hard));
    assert_eq!(normal.2.ratios, [0.5, 0.7, 1.0], "the demo's Iron_3D.ini [LEVEL_RATIO]");
    let warrior = |clan: i32| move |u: &(u32, i32, u32, f32)| u.1 == clan && u.2 == 0x0100_8000;
    // Every clan not allied with the player's: the enemy's and the neutral's.
    let scaled = |u: &(u32, i32, u32, f32)| u.1 != 1 && u.2 == 0x0100_8000;
    assert!(hard.0.iter().any(|u| warrior(2)(u)) && hard.0.iter().any(|u| warrior(1)(u)), "both sides have warriors");
    for (run, ratio) in [(&easy, 0.5), (&normal, 0.7)] {
        for (u, h) in run.0.iter().zip(&hard.0) {
            let expected = if scaled(u) { h.3 * ratio } else { h.3 };
            assert!(
                (u.3 - expected).abs() < 1e-3,
                "object {} of clan {} (class {:#x}): {} vs {expected}",
                u.0,
                u.1,
                u.2,
                u.3
            );
        }
        let enemy: Vec<u32> = run.0.iter().filter(|u| scaled(u)).map(|u| u.0).collect();
        for (w, h) in run.1.iter().zip(&hard.1) {
            let expected = if enemy.contains(&w.0) { h.1 * ratio } else { h.1 };
            assert!((w.1 - expected).abs() < 1e-3, "object {}'s weapon: {} vs {expected}", w.0, w.1);
        }
    }
    assert_ne!(easy.3, normal.3, "the level is in the hash");
    assert_ne!(hard.3, normal.3);
    assert_eq!(play(Hard).3, hard.3, "and the same level replays to the same hashes");
}
