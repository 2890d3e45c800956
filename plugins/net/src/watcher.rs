//! `NetWatcher` (`docs/reference/runtime.md` §11.1): transport ids → game player numbers (never 0
//! with an active network) → the clan whose objects they own. Logged on `netwatch`.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use std::collections::BTreeMap;

/// One player of the session.
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub struct NetPlayer {
    /// The transport's id of the connection (temporary, per connection).
    pub transport: u64,
    /// The host's entity of the connection.
    pub client: Entity,
    /// Name the player gave.
    pub name: String,
    /// Raw player data (opaque to the host).
    pub data: Vec<u8>,
    /// The clan it commands (`None`: an observer).
    pub clan: Option<u32>,
    /// Ready to start (lobby).
    pub ready: bool,
    /// The host's own player (a game that hosts).
    pub host: bool,
    /// Played on this machine (no connection: `client` is `Entity::PLACEHOLDER`).
    pub local: bool,
    /// The connection dropped: the seat waits for the player until this game tick
    /// (`client` is `Entity::PLACEHOLDER` meanwhile).
    pub away: Option<u32>,
    /// What a client shows to take this seat back after a drop (`IRON3D_SEAT`).
    pub token: u64,
}

impl NetPlayer {
    /// The record a client holds of this player (`local` as the host sees it).
    pub fn record(&self) -> crate::PlayerRecord {
        let (name, clan, host, local, ready) = (self.name.clone(), self.clan, self.host, self.local, self.ready);
        crate::PlayerRecord { name, clan, host, local, ready }
    }

    /// A player who joined over the network (not yet ready).
    pub fn remote(transport: u64, client: Entity, name: String, data: Vec<u8>, clan: Option<u32>) -> Self {
        let token = token(transport, &name);
        Self { transport, client, name, data, clan, ready: false, host: false, local: false, away: None, token }
    }

    /// Joined over the network and connected now (messages reach it).
    pub fn connected(&self) -> bool {
        !self.local && self.away.is_none()
    }
}

/// A seat's rejoin token: the connection's transport id, the name and the time of
/// admission, hashed (unguessable enough for a LAN game; it is no password).
fn token(transport: u64, name: &str) -> u64 {
    let mut h = iron3d_core::Fnv1a::default();
    let now = crate::unix_time().as_nanos();
    h.write(&transport.to_le_bytes());
    h.write(name.as_bytes());
    h.write(&now.to_le_bytes());
    h.0
}

/// Players by game player number.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct NetWatcher {
    /// Players by number (1..=8).
    pub players: BTreeMap<u16, NetPlayer>,
}

impl NetWatcher {
    /// The number and record of the player on a connection.
    pub fn by_client(&self, client: Entity) -> Option<(u16, &NetPlayer)> {
        self.players.iter().find(|(_, p)| p.connected() && p.client == client).map(|(n, p)| (*n, p))
    }

    /// Joined (remote) players who are ready.
    pub fn ready(&self) -> usize {
        self.players.values().filter(|p| p.connected() && p.ready).count()
    }

    /// The lowest free player number up to `max`.
    pub fn free_number(&self, max: u8) -> Option<u16> {
        (1..=u16::from(max)).find(|n| !self.players.contains_key(n))
    }

    /// Another player commanding `clan`, lowest number first.
    pub fn co_player(&self, clan: u32, except: u16) -> Option<u16> {
        self.players.iter().find(|(n, p)| **n != except && p.clan == Some(clan) && p.away.is_none()).map(|(n, _)| *n)
    }

    /// Who commands which clan, as a save keeps it.
    pub fn seats(&self) -> iron3d_core::Seats {
        let seat = |p: &NetPlayer| iron3d_core::Seat { name: p.name.clone(), clan: p.clan, host: p.host };
        iron3d_core::Seats(self.players.iter().map(|(n, p)| (*n, seat(p))).collect())
    }

    /// Adds a player and logs the mapping.
    pub fn insert(&mut self, number: u16, player: NetPlayer) {
        tracing::info!(
            target: "netwatch",
            "player {number} '{}' (transport {}) joined, clan {}",
            player.name,
            player.transport,
            player.clan.map_or("none (observer)".into(), |c| c.to_string())
        );
        self.players.insert(number, player);
    }

    /// Removes a player and logs it.
    pub fn remove(&mut self, number: u16, why: &str) -> Option<NetPlayer> {
        let p = self.players.remove(&number)?;
        tracing::info!(target: "netwatch", "player {number} '{}' (transport {}) left: {why}", p.name, p.transport);
        Some(p)
    }
}
