//! The host's one sender: every reply, broadcast, checkpoint and transfer chunk leaves
//! through [`send`], encoded once, on the channel the messages' delivery asks for.

use crate::schema::{Delivery, Gmsg};
use crate::watcher::NetWatcher;
use crate::{ClientBound, ClientBoundUnreliable, encoded};
use bevy_ecs::prelude::*;
use bevy_replicon::prelude::*;

/// Encodes `messages` once and writes them to each client, on the unreliable channel when all of them travel so (checkpoints), else reliably.
pub(crate) fn send(world: &mut World, clients: &[Entity], messages: &[Gmsg]) {
    let Some(bytes) = encoded(messages) else { return };
    let unreliable = messages.iter().all(|m| m.delivery() == Delivery::Unreliable);
    // A client that left this frame is no longer a target (its departure is handled
    // at the next receive).
    let connected: Vec<Entity> =
        clients.iter().copied().filter(|c| world.get::<ConnectedClient>(*c).is_some()).collect();
    for client in connected {
        let targets = SendTargets::Single(client.into());
        if unreliable {
            world.write_message(ToClients { targets, message: ClientBoundUnreliable(bytes.clone()) });
        } else {
            world.write_message(ToClients { targets, message: ClientBound(bytes.clone()) });
        }
    }
}

/// Sends to every joined player but `except`, in player order.
pub(crate) fn broadcast(world: &mut World, messages: &[Gmsg], except: Option<u16>) {
    let clients: Vec<Entity> = world
        .resource::<NetWatcher>()
        .players
        .iter()
        .filter(|(n, p)| p.connected() && Some(**n) != except)
        .map(|(_, p)| p.client)
        .collect();
    send(world, &clients, messages);
}
