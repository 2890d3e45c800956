//! A game that hosts or joins a session. Hosting: once the mission is in the world,
//! the port opens, the host's player takes a seat (the host flag), and remote players
//! take the clans the host's player does not play.
//! Joining: the client loads the mission the host names from its own game data, says
//! ready when it is in the world (so the host's objects land on its own, with their
//! models), runs none of the simulation past the clock and the player's commands
//! (the host decides; its clock follows the host's `SYSMSG_SET_TIME`), and sends the
//! commands the player gives to the host instead. A joined game whose connection dropped
//! offers to rejoin its seat ([`NetStatus::dropped`], [`rejoin_game`]) and meanwhile
//! simulates nothing itself (no local moves or outcomes the host never had).

use crate::{
    ClientSession, HostSettings, NetClientPlugin, NetHostPlugin, NetProtocolPlugin, NetSimPlugin, OutgoingOrders,
    SessionLog, connect, listen, schema::Gmsg, seat_host_player, wire,
};
use bevy_app::{App, FixedPostUpdate, FixedUpdate, Plugin, PostUpdate, Update};
use bevy_ecs::prelude::*;
use bevy_replicon::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{
    AppState, CommandQueue, DataLayers, Designs, MissionClans, MissionStart, OriginalObjectId, SchemeNames, SimObject,
    SimSummaries, SimSystems,
};
use iron3d_mission::{LoadedMission, StartMission};
use std::net::SocketAddr;
use std::sync::Arc;

/// How the game takes part in a session (the menu or `--host` / `--join` set it).
#[derive(Resource, Debug, Clone, PartialEq, Eq, Default)]
pub enum NetRole {
    /// Single player.
    #[default]
    Offline,
    /// Host the mission the player starts, on this UDP port.
    Host {
        /// Port.
        port: u16,
    },
    /// Join the host at this address.
    Join {
        /// Host address.
        server: SocketAddr,
        /// Player name.
        name: String,
    },
}

/// The name the hosting game's own player shows to the others.
const HOST_PLAYER: &str = "host";

/// Netcode for the game (needs `SimPlugins` and `MissionPlugin`).
pub struct NetGamePlugin {
    /// The role at start-up.
    pub role: NetRole,
    /// The game data (a joining client loads the host's mission from it).
    pub game: Arc<iron3d_vfs::GameDir>,
}

/// The game data a joining client loads missions from.
#[derive(Resource, Clone)]
struct JoinData(Arc<iron3d_vfs::GameDir>);

/// What the game shows of its session: an error to report, once.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct NetStatus {
    /// The address the host listens on, once it does.
    pub listening: Option<SocketAddr>,
    /// The last failure (cannot listen, refused, disconnected).
    pub error: Option<String>,
    /// The joined game's connection dropped before the session ended: it may rejoin its
    /// seat ([`rejoin_game`]).
    pub dropped: bool,
}

impl Plugin for NetGamePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((NetProtocolPlugin, NetSimPlugin, NetHostPlugin, NetClientPlugin))
            .init_resource::<NetStatus>()
            .insert_resource(self.role.clone())
            .insert_resource(JoinData(Arc::clone(&self.game)))
            .add_systems(OnEnter(AppState::InGame), (host, ready).in_set(MissionStart::Present))
            .add_systems(Update, join.run_if(resource_changed::<NetRole>))
            .add_systems(OnEnter(ClientState::Disconnected), offer_rejoin)
            .add_systems(Update, (load_hosts_mission, report_refusal).run_if(in_state(ClientState::Connected)))
            .add_systems(
                PostUpdate,
                forward_commands.run_if(in_state(ClientState::Connected).and_then(in_state(AppState::InGame))),
            );
        // The host simulates; a client only keeps its clock and takes the player's commands.
        for set in SimSystems::ORDER.into_iter().skip(1) {
            app.configure_sets(FixedUpdate, set.run_if(simulates));
        }
        app.configure_sets(FixedPostUpdate, SimSummaries.run_if(simulates));
    }
}

/// Whether this game runs the simulation: not while it plays in a host's session, whether
/// connected, dropped from it or connecting again (until the session ends; the host
/// decides meanwhile).
fn simulates(state: Res<State<ClientState>>, session: Res<ClientSession>) -> bool {
    *state.get() != ClientState::Connected && !seated(&session)
}

/// Whether this client holds a seat, or claims one back, in a session that has not ended.
fn seated(session: &ClientSession) -> bool {
    let ended = session.phase.is_some_and(|(phase, _)| phase == crate::schema::SessionPhase::Ended as u8);
    (session.seat.is_some() || session.claim.is_some()) && !ended
}

fn host(world: &mut World) {
    let NetRole::Host { port } = world.resource::<NetRole>().clone() else { return };
    let mission = world.get_resource::<LoadedMission>().map(|m| m.name.clone()).unwrap_or_default();
    let local_clan = world.get_resource::<MissionClans>().and_then(|c| c.player());
    let max = {
        let mut settings = world.resource_mut::<HostSettings>();
        settings.mission = mission.clone();
        settings.local_clan = local_clan;
        settings.max_players
    };
    let layers = world.get_resource::<DataLayers>().cloned().unwrap_or_default();
    world.insert_resource(SessionLog::new(mission, &layers));
    if world.contains_resource::<bevy_replicon_renet::RenetServer>() {
        return;
    }
    seat_host_player(world, HOST_PLAYER);
    let result = listen(world, port, max);
    let mut status = world.resource_mut::<NetStatus>();
    match result {
        Ok(addr) => status.listening = Some(addr),
        Err(e) => status.error = Some(format!("cannot host: {e}")),
    }
}

fn join(world: &mut World) {
    let NetRole::Join { server, name } = world.resource::<NetRole>().clone() else { return };
    if world.contains_resource::<bevy_replicon_renet::RenetClient>() {
        return;
    }
    world.resource_mut::<NetStatus>().error = None;
    // The host admits only a client playing its data layers.
    let layers = match iron3d_mission::data_layers(&world.resource::<JoinData>().0) {
        Ok(layers) => crate::layers::encode(&layers),
        Err(e) => {
            world.resource_mut::<NetStatus>().error = Some(format!("cannot join {server}: {e}"));
            return;
        }
    };
    if let Err(e) = connect(world, server, &name, layers) {
        world.resource_mut::<NetStatus>().error = Some(format!("cannot join {server}: {e}"));
        return;
    }
    world.resource_mut::<ClientSession>().ready_when_admitted = false;
}

/// Loads the mission the host named, once, from the menu.
fn load_hosts_mission(
    session: Res<ClientSession>,
    state: Res<State<AppState>>,
    data: Res<JoinData>,
    mut started: Local<Option<String>>,
    mut commands: Commands,
) {
    let Some(mission) = session.mission.as_ref() else { return };
    if *state.get() != AppState::MainMenu || started.as_ref() == Some(mission) {
        return;
    }
    *started = Some(mission.clone());
    commands.queue(StartMission::from_game(&data.0, mission.clone()));
}

/// A joined game that held (or was claiming back) a seat lost its connection before the
/// session ended.
fn offer_rejoin(role: Res<NetRole>, session: Res<ClientSession>, mut status: ResMut<NetStatus>) {
    if matches!(*role, NetRole::Join { .. }) && seated(&session) {
        tracing::warn!(target: "netwatch", "the connection to the host dropped; the game offers to rejoin");
        status.dropped = true;
    }
}

/// Connects the joined game to its host again, claiming back its seat, player number
/// and units (within the host's rejoin time; after it, a new seat). Its mission stays
/// loaded: the host sends its objects again.
pub fn rejoin_game(world: &mut World) {
    let NetRole::Join { server, .. } = world.resource::<NetRole>().clone() else { return };
    let result = crate::rejoin(world, server);
    let mut status = world.resource_mut::<NetStatus>();
    status.dropped = false;
    status.error = result.err().map(|e| format!("cannot rejoin {server}: {e}"));
}

fn report_refusal(session: Res<ClientSession>, mut status: ResMut<NetStatus>) {
    if session.is_changed() && session.refused.is_some() && status.error != session.refused {
        status.error.clone_from(&session.refused);
    }
}

/// The mission is in the world: its objects get the signatures the host's carry, and
/// the host may send the world.
fn ready(
    mut commands: Commands,
    objects: Query<(Entity, &OriginalObjectId), With<SimObject>>,
    mut outgoing: ResMut<OutgoingOrders>,
    session: Res<ClientSession>,
    state: Res<State<ClientState>>,
    clans: Option<ResMut<MissionClans>>,
    mut queue: ResMut<CommandQueue>,
) {
    if *state.get() != ClientState::Connected {
        return;
    }
    // The mission's own first orders (paths, patrols) are the host's to give.
    queue.pending.clear();
    for (e, id) in &objects {
        commands.entity(e).insert(crate::replicated::signature(id.0));
    }
    // The player's screens follow the clan the host gave (the player's clan is mode 1).
    if let (Some(mut clans), Some(own)) = (clans, session.clan) {
        for c in clans.clans.iter_mut().filter(|c| c.plays()) {
            c.mode = if c.index == own { 1 } else { 2 };
        }
    }
    outgoing.messages.push(Gmsg::Ready { ready: true });
}

/// The player's commands go to the host instead of this client's simulation.
fn forward_commands(
    mut queue: ResMut<CommandQueue>,
    (schemes, designs): (Res<SchemeNames>, Res<Designs>),
    mut outgoing: ResMut<OutgoingOrders>,
) {
    for c in std::mem::take(&mut queue.pending) {
        match wire(c.order, &schemes, &designs) {
            Some(order) => {
                outgoing.order(c.units, order, c.queued);
            }
            None => tracing::warn!(target: "resnet", "an order names an unknown scheme; not sent"),
        }
    }
}
