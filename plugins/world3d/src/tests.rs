//! Handles, the clock and deferred deletion in a headless app.

use super::*;
use bevy_ecs::message::Messages;
use bevy_state::app::StatesPlugin;
use iron3d_core::{
    CorePlugin, DeleteRequest, GameClock, GameMessage, GameMessageKind, ObjectHandle, ObjectKind, ObjectTable,
    OriginalObjectId, SimObject, SimSystems,
};

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, CorePlugin, World3dPlugin));
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
    app.update();
    app
}

fn spawn(app: &mut App, id: u32) -> Entity {
    app.world_mut().spawn((OriginalObjectId(id), SimObject { kind: ObjectKind::Unit })).id()
}

fn tick(app: &mut App) {
    app.world_mut().run_schedule(FixedUpdate);
}

fn kinds(app: &App) -> Vec<GameMessageKind> {
    app.world().resource::<Messages<GameMessage>>().iter_current_update_messages().map(|m| m.kind.clone()).collect()
}

#[derive(Resource, Default)]
struct Seen(Vec<(&'static str, bool)>);

#[test]
fn deletion_waits_for_the_world3d_boundary_and_the_handle_dies() {
    let mut app = app();
    let a = spawn(&mut app, 5);
    let b = spawn(&mut app, 2);
    app.world_mut().flush();
    let ha = *app.world().get::<ObjectHandle>(a).unwrap();
    let hb = *app.world().get::<ObjectHandle>(b).unwrap();
    assert_ne!(ha, hb);
    assert_eq!(app.world().resource::<ObjectTable>().entity_of(5), Some(a));
    // Behavior asks for the deletion; Control still sees the whole object.
    app.init_resource::<Seen>();
    app.add_systems(
        FixedUpdate,
        (move |mut w: MessageWriter<DeleteRequest>| {
            w.write(DeleteRequest { object: ha });
            w.write(DeleteRequest { object: ha });
        })
        .in_set(SimSystems::Behavior),
    );
    app.add_systems(
        FixedUpdate,
        (move |q: Query<&OriginalObjectId>, mut s: ResMut<Seen>| s.0.push(("control", q.get(a).is_ok())))
            .in_set(SimSystems::Control),
    );
    tick(&mut app);
    assert_eq!(app.world().resource::<Seen>().0, [("control", true)]);
    assert!(app.world().get_entity(a).is_err(), "deleted at the boundary");
    let table = app.world().resource::<ObjectTable>();
    assert_eq!(table.get(ha), None, "a deleted object's handle resolves to nothing");
    assert_eq!(table.entity_of(5), None);
    assert_eq!(table.get(hb), Some(b));
    let killed: Vec<_> = kinds(&app)
        .into_iter()
        .filter_map(|k| match k {
            GameMessageKind::KillGameObject(r) => Some(r.id.0),
            _ => None,
        })
        .collect();
    assert_eq!(killed, [5], "announced once, after the deletion");
    // The slot is reused with a new generation: the old handle still resolves to nothing.
    let c = spawn(&mut app, 9);
    app.world_mut().flush();
    let hc = *app.world().get::<ObjectHandle>(c).unwrap();
    assert_eq!(hc.index, ha.index);
    assert_ne!(hc.generation, ha.generation);
    assert_eq!(app.world().resource::<ObjectTable>().get(ha), None);
}

#[test]
fn the_clock_ticks_64_ms_and_each_tick_is_announced() {
    let mut app = app();
    for _ in 0..3 {
        tick(&mut app);
    }
    assert_eq!(*app.world().resource::<GameClock>(), GameClock { tick: 3, time_ms: 192 });
    let ticks = kinds(&app).iter().filter(|k| **k == GameMessageKind::NewGameTick).count();
    assert_eq!(ticks, 3);
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::MainMenu);
    app.update();
    assert_eq!(*app.world().resource::<GameClock>(), GameClock::default(), "closing the game resets the clock");
}

#[test]
fn joining_objects_are_announced_with_their_handles() {
    let mut app = app();
    spawn(&mut app, 1);
    spawn(&mut app, 0);
    app.world_mut().flush();
    let joined: Vec<u32> = kinds(&app)
        .into_iter()
        .filter_map(|k| match k {
            GameMessageKind::Init(r) => Some(r.id.0),
            _ => None,
        })
        .collect();
    assert_eq!(joined, [1, 0]);
    assert_eq!(app.world().resource::<ObjectTable>().iter().map(|(id, _)| id).collect::<Vec<_>>(), [0, 1]);
}
