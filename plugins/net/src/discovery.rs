//! LAN discovery: a host answers `IRON3D_DISCOVER` probes on [`DISCOVERY_PORT`] with an
//! `IRON3D_SESSION` (its game port, players and mission); [`discover`] sends a probe to
//! the LAN's broadcast address and this machine and gathers the answers. Plain UDP
//! datagrams in the GMSG schema, outside the game's connection.

use crate::schema::{self, Gmsg};
use crate::{HostSettings, NetWatcher, PROTOCOL_VERSION};
use bevy_ecs::prelude::*;
use bevy_replicon::prelude::*;
use bevy_state::prelude::State;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

/// UDP port hosts answer probes on.
pub const DISCOVERY_PORT: u16 = crate::DEFAULT_PORT + 1;

/// A session found on the LAN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanSession {
    /// Address to join (the answering host, its game port).
    pub addr: SocketAddr,
    /// Mission played.
    pub mission: String,
    /// Players in it.
    pub players: u8,
    /// Most players.
    pub max_players: u8,
}

/// The host's probe socket.
#[derive(Resource, Debug)]
pub struct LanBeacon {
    socket: UdpSocket,
    /// The host's game port.
    pub game_port: u16,
}

impl LanBeacon {
    /// Opens the probe socket on `port` (0: any free port) for a host on `game_port`.
    ///
    /// # Errors
    /// The socket cannot be opened (another host on this machine holds the port).
    pub fn open(port: u16, game_port: u16) -> std::io::Result<Self> {
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, port))?;
        socket.set_nonblocking(true)?;
        Ok(Self { socket, game_port })
    }

    /// The probe socket's address.
    ///
    /// # Errors
    /// The socket has no address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }
}

/// Answers every waiting probe (a host system).
pub(crate) fn answer(beacon: Option<Res<LanBeacon>>, settings: Res<HostSettings>, watcher: Res<NetWatcher>) {
    let Some(beacon) = beacon else { return };
    let mut buffer = [0u8; 512];
    while let Ok((len, from)) = beacon.socket.recv_from(&mut buffer) {
        match schema::decode(&buffer[..len]).as_deref() {
            Ok([Gmsg::Discover { version }]) => {
                let answer = Gmsg::Session {
                    version: PROTOCOL_VERSION,
                    port: beacon.game_port,
                    players: watcher.players.len() as u8,
                    max_players: settings.max_players,
                    mission: settings.mission.clone(),
                };
                if *version != PROTOCOL_VERSION {
                    tracing::debug!(target: "resnet", "LAN probe of protocol {version} from {from}");
                }
                if let Some(bytes) = crate::encoded(&[answer]) {
                    let _ = beacon.socket.send_to(&bytes, from);
                }
            }
            other => tracing::debug!(target: "resnet", "not a LAN probe from {from}: {other:?}"),
        }
    }
}

/// Opens the beacon once the host listens (a host system).
pub(crate) fn open_beacon(world: &mut World) {
    if world.contains_resource::<LanBeacon>() || !world.contains_resource::<bevy_replicon_renet::RenetServer>() {
        return;
    }
    let Some(port) = world.resource::<HostSettings>().discovery_port else { return };
    let game_port = world
        .get_resource::<bevy_replicon_renet::netcode::NetcodeServerTransport>()
        .and_then(|t| t.addresses().first().map(SocketAddr::port))
        .unwrap_or(crate::DEFAULT_PORT);
    match LanBeacon::open(port, game_port) {
        Ok(beacon) => world.insert_resource(beacon),
        Err(e) => {
            tracing::warn!(target: "resnet", "no LAN discovery (port {port}: {e})");
            world.resource_mut::<HostSettings>().discovery_port = None;
        }
    }
}

/// Sends a probe to `targets` and gathers the answers of this protocol version for
/// `wait`, one per host address.
///
/// # Errors
/// The socket cannot be opened.
pub fn discover(targets: &[SocketAddr], wait: Duration) -> std::io::Result<Vec<LanSession>> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
    socket.set_broadcast(true)?;
    if let Some(probe) = crate::encoded(&[Gmsg::Discover { version: PROTOCOL_VERSION }]) {
        targets.iter().for_each(|t| _ = socket.send_to(&probe, t));
    }
    let end = Instant::now() + wait;
    let mut found: Vec<LanSession> = Vec::new();
    let mut buffer = [0u8; 512];
    while let Some(left) = end.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) {
        socket.set_read_timeout(Some(left))?;
        let Ok((len, from)) = socket.recv_from(&mut buffer) else { break };
        if let Ok([Gmsg::Session { version, port, players, max_players, mission }]) =
            schema::decode(&buffer[..len]).as_deref()
            && *version == PROTOCOL_VERSION
        {
            let addr = SocketAddr::new(from.ip(), *port);
            if !found.iter().any(|f| f.addr == addr) {
                found.push(LanSession { addr, mission: mission.clone(), players: *players, max_players: *max_players });
            }
        }
    }
    Ok(found)
}

/// The usual probe targets: the LAN's broadcast address and this machine.
pub fn lan_targets() -> [SocketAddr; 2] {
    [(Ipv4Addr::BROADCAST, DISCOVERY_PORT).into(), (Ipv4Addr::LOCALHOST, DISCOVERY_PORT).into()]
}

/// Runs the beacon's systems only while hosting.
pub(crate) fn hosting(state: Option<Res<State<ServerState>>>) -> bool {
    state.is_some_and(|s| *s.get() == ServerState::Running)
}
