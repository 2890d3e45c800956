//! Resource transfers (`GMSG_APPEND_RESOURCE` chunks, `GMSG_REMOVE_RESOURCE` to give
//! up), bounded by `Network_ResourceTransferMaxDelay` (`docs/reference/runtime.md` §11.3): a
//! transfer not complete in time is abandoned on both sides with a log line, and one
//! whose client left is dropped. The one resource today: the session's record
//! ([`crate::SessionLog`], RON), which a client asks for with
//! `GMSG_GET_SAVEGAME_FROM_HOST` (the project's savegame until saves exist).

use crate::NetWatcher;
use crate::schema::Gmsg;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_time::{Real, Time};
use std::collections::BTreeMap;
use std::time::Duration;

/// Bytes per chunk (one chunk per frame and transfer).
pub const CHUNK: usize = 1024;
/// Largest resource a client accepts (checked before anything is allocated).
pub const MAX_RESOURCE: u32 = 16 << 20;
/// `Network_ResourceTransferMaxDelay` when the configuration does not set it: its
/// compiled default is unknown (`docs/reference/runtime.md` §16), this is the project's.
pub const DEFAULT_MAX_DELAY: Duration = Duration::from_secs(30);

/// One transfer the host is sending.
#[derive(Debug, Clone, Reflect)]
pub struct Outgoing {
    /// Receiving connection.
    pub client: Entity,
    /// Transfer id (the client's).
    pub id: u32,
    /// The resource.
    pub data: Vec<u8>,
    /// Bytes sent.
    pub sent: usize,
    /// When it started (real time since start-up).
    pub started: Duration,
}

/// The host's transfers in flight.
#[derive(Resource, Debug, Clone, Reflect)]
#[reflect(Resource)]
pub struct HostTransfers {
    /// In flight, in start order.
    pub active: Vec<Outgoing>,
    /// `Network_ResourceTransferMaxDelay`.
    pub max_delay: Duration,
}

/// One transfer a client receives.
#[derive(Debug, Clone, Default, Reflect)]
pub struct Incoming {
    /// Size announced.
    pub total: u32,
    /// Bytes so far.
    pub data: Vec<u8>,
    /// When the first chunk came.
    pub started: Duration,
}

/// A client's transfers.
#[derive(Resource, Debug, Clone, Reflect)]
#[reflect(Resource)]
pub struct ClientTransfers {
    /// Transfers asked for or arriving.
    pub incoming: BTreeMap<u32, Incoming>,
    /// Completed resources by transfer id.
    pub done: BTreeMap<u32, Vec<u8>>,
    /// Abandoned transfers and why.
    pub failed: BTreeMap<u32, String>,
    /// The next transfer id to ask for.
    pub next_id: u32,
    /// `Network_ResourceTransferMaxDelay`.
    pub max_delay: Duration,
}

impl Default for HostTransfers {
    fn default() -> Self {
        Self { active: Vec::new(), max_delay: DEFAULT_MAX_DELAY }
    }
}

impl Default for ClientTransfers {
    fn default() -> Self {
        Self {
            incoming: BTreeMap::new(),
            done: BTreeMap::new(),
            failed: BTreeMap::new(),
            next_id: 0,
            max_delay: DEFAULT_MAX_DELAY,
        }
    }
}

/// Why a transfer past `max` is abandoned.
fn too_late(max: Duration) -> String {
    format!("not complete within Network_ResourceTransferMaxDelay ({} ms)", max.as_millis())
}

impl ClientTransfers {
    /// Asks the host for the session's record; returns the transfer id.
    pub fn request_savegame(&mut self, outgoing: &mut crate::OutgoingOrders, now: Duration) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.incoming.insert(id, Incoming { started: now, ..Incoming::default() });
        outgoing.messages.push(Gmsg::GetSavegameFromHost { transfer: id });
        id
    }

    /// Takes one chunk; a defect abandons the transfer.
    pub(crate) fn append(&mut self, id: u32, total: u32, offset: u32, chunk: Vec<u8>) -> Result<(), String> {
        let fail = |why: String| Err(format!("transfer {id}: {why}"));
        if total > MAX_RESOURCE {
            return fail(format!("{total} bytes exceed {MAX_RESOURCE}"));
        }
        let Some(t) = self.incoming.get_mut(&id) else { return fail("not asked for".into()) };
        if t.data.is_empty() {
            t.total = total;
        }
        if total != t.total || offset as usize != t.data.len() || t.data.len() + chunk.len() > total as usize {
            return fail(format!("chunk at {offset} of {total} does not follow {} of {}", t.data.len(), t.total));
        }
        t.data.extend_from_slice(&chunk);
        if t.data.len() == total as usize
            && let Some(t) = self.incoming.remove(&id)
        {
            self.done.insert(id, t.data);
        }
        Ok(())
    }

    /// Gives transfer `id` up.
    pub(crate) fn abandon(&mut self, id: u32, why: String) {
        tracing::warn!(target: "resnet", "resource transfer {id} abandoned: {why}");
        self.incoming.remove(&id);
        self.failed.insert(id, why);
    }
}

/// The host starts sending the session's record to `client`.
pub(crate) fn start_savegame(world: &mut World, client: Entity, id: u32) {
    let data = world.resource::<crate::SessionLog>().to_ron().unwrap_or_default().into_bytes();
    let started = world.resource::<Time<Real>>().elapsed();
    tracing::info!(target: "resnet", "client {client}: sending the session record ({} bytes) as transfer {id}", data.len());
    world.resource_mut::<HostTransfers>().active.push(Outgoing { client, id, data, sent: 0, started });
}

/// The host sends one chunk of every transfer, drops those whose client left and
/// abandons those past the maximum delay.
pub(crate) fn send_chunks(world: &mut World) {
    let now = world.resource::<Time<Real>>().elapsed();
    let mut out: Vec<(Entity, Gmsg)> = Vec::new();
    world.resource_scope(|world, mut transfers: Mut<HostTransfers>| {
        let max = transfers.max_delay;
        let watcher = world.resource::<NetWatcher>();
        transfers.active.retain_mut(|t| {
            if watcher.by_client(t.client).is_none() {
                tracing::warn!(target: "resnet", "transfer {} dropped: its client left mid-transfer", t.id);
                return false;
            }
            if now.saturating_sub(t.started) > max {
                let reason = too_late(max);
                tracing::warn!(target: "resnet", "transfer {} abandoned: {reason}", t.id);
                out.push((t.client, Gmsg::RemoveResource { transfer: t.id, reason }));
                return false;
            }
            let end = (t.sent + CHUNK).min(t.data.len());
            let chunk = t.data[t.sent..end].to_vec();
            let (total, offset) = (t.data.len() as u32, t.sent as u32);
            out.push((t.client, Gmsg::AppendResource { transfer: t.id, total, offset, chunk }));
            t.sent = end;
            t.sent < t.data.len()
        });
    });
    for (client, message) in out {
        crate::sender::send(world, &[client], &[message]);
    }
}

/// A client abandons transfers past the maximum delay (and tells the host).
pub(crate) fn expire(
    mut transfers: ResMut<ClientTransfers>,
    time: Res<Time<Real>>,
    mut outgoing: ResMut<crate::OutgoingOrders>,
) {
    let now = time.elapsed();
    let max = transfers.max_delay;
    let late: Vec<u32> =
        transfers.incoming.iter().filter(|(_, t)| now.saturating_sub(t.started) > max).map(|(id, _)| *id).collect();
    for id in late {
        let reason = too_late(max);
        outgoing.messages.push(Gmsg::RemoveResource { transfer: id, reason: reason.clone() });
        transfers.abandon(id, reason);
    }
}
