//! Chat (`GMSG_TEXT_FOR_PLAYER`): a line to everyone or to the sender's clan. A client
//! sends it to the host, which checks it, logs it (`netwatch`) and passes it on with the
//! sender's number; the hosting game's own player chats through the same check. The
//! project's own rules (the original's are unknown): a line holds at most
//! [`MAX_TEXT`] bytes of text and is not empty; a player may send [`FLOOD_LINES`] lines
//! in any [`FLOOD_SECONDS`] seconds of wall time, and a line past that is refused and the
//! sender told (by a line from player 0, the host).

use crate::OutgoingOrders;
use crate::schema::Gmsg;
use crate::sender::send;
use crate::watcher::NetWatcher;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_time::{Real, Time};
use std::collections::VecDeque;

/// Longest line (bytes of UTF-8).
pub const MAX_TEXT: usize = 200;
/// Lines a player may send within [`FLOOD_SECONDS`].
pub const FLOOD_LINES: usize = 5;
/// The flood window (seconds of wall time).
pub const FLOOD_SECONDS: f64 = 10.0;
/// Lines kept for the screens.
const KEPT: usize = 50;

/// One line of chat.
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub struct ChatLine {
    /// Sender's player number (0: the host).
    pub from: u16,
    /// Sent to the sender's clan only.
    pub clan_only: bool,
    /// Text.
    pub text: String,
}

/// This machine's chat: the lines it received (newest last) and the lines its player
/// typed, waiting to be sent.
#[derive(Resource, Debug, Clone, Default, Reflect)]
#[reflect(Resource)]
pub struct Chat {
    /// Lines received (at most the last 50).
    pub lines: VecDeque<ChatLine>,
    /// Lines received in all.
    pub received: u32,
    /// Lines to send: `(clan only, text)`.
    pub outgoing: Vec<(bool, String)>,
}

impl Chat {
    /// Records a received line.
    pub fn receive(&mut self, line: ChatLine) {
        self.received += 1;
        self.lines.push_back(line);
        while self.lines.len() > KEPT {
            self.lines.pop_front();
        }
    }

    /// Queues a line the player typed.
    pub fn say(&mut self, clan_only: bool, text: &str) {
        self.outgoing.push((clan_only, text.trim().to_string()));
    }
}

/// The lines a player sent lately (wall-clock seconds), for the flood limit.
#[derive(Component, Debug, Clone, Default)]
pub(crate) struct RecentLines(VecDeque<f64>);

/// Why a line is refused, if it is: empty, too long, or past the flood limit.
fn refusal(text: &str, recent: &mut RecentLines, now: f64) -> Option<String> {
    if text.trim().is_empty() {
        return Some("an empty line".into());
    }
    if text.len() > MAX_TEXT {
        return Some(format!("a line of {} bytes (at most {MAX_TEXT})", text.len()));
    }
    while recent.0.front().is_some_and(|t| now - t >= FLOOD_SECONDS) {
        recent.0.pop_front();
    }
    if recent.0.len() >= FLOOD_LINES {
        return Some(format!("more than {FLOOD_LINES} lines in {FLOOD_SECONDS} s"));
    }
    recent.0.push_back(now);
    None
}

/// The host takes a line from player `from` (its connection `client`, or the host's own
/// player on `Entity::PLACEHOLDER`): checked, logged and passed on to its recipients.
pub(crate) fn take(world: &mut World, client: Entity, from: u16, clan_only: bool, text: String) {
    let now = world.get_resource::<Time<Real>>().map_or(0.0, Time::elapsed_secs_f64);
    let refused = match world.get_entity_mut(client).ok().filter(|_| client != Entity::PLACEHOLDER) {
        Some(mut e) => refusal(&text, &mut e.entry::<RecentLines>().or_default().get_mut(), now),
        None => refusal(&text, &mut world.resource_mut::<HostRecentLines>().0, now),
    };
    let watcher = world.resource::<NetWatcher>();
    let Some((name, local, clan)) = watcher.players.get(&from).map(|p| (p.name.clone(), p.local, p.clan)) else {
        return;
    };
    if let Some(why) = refused {
        tracing::warn!(target: "netwatch", "chat from player {from} '{name}' refused: {why}");
        let notice = ChatLine { from: 0, clan_only: false, text: format!("chat refused: {why}") };
        deliver(world, &[(client, local)], notice);
        return;
    }
    let to =
        if clan_only { clan.map_or("nobody (an observer)".into(), |c| format!("clan {c}")) } else { "everyone".into() };
    tracing::info!(target: "netwatch", "chat from player {from} '{name}' to {to}: {text}");
    let recipients: Vec<(Entity, bool)> = watcher
        .players
        .values()
        .filter(|p| (p.local || p.connected()) && (!clan_only || (clan.is_some() && p.clan == clan)))
        .map(|p| (p.client, p.local))
        .collect();
    deliver(world, &recipients, ChatLine { from, clan_only, text });
}

/// Sends a line to the connections among `recipients` and records it here when the
/// host's own player is one of them.
fn deliver(world: &mut World, recipients: &[(Entity, bool)], line: ChatLine) {
    let clients: Vec<Entity> = recipients.iter().filter(|r| !r.1).map(|r| r.0).collect();
    let message = Gmsg::TextForPlayer { from: line.from, clan_only: line.clan_only, text: line.text.clone() };
    send(world, &clients, &[message]);
    if recipients.iter().any(|r| r.1) {
        world.resource_mut::<Chat>().receive(line);
    }
}

/// The flood record of the hosting game's own player.
#[derive(Resource, Debug, Default)]
pub(crate) struct HostRecentLines(RecentLines);

/// The hosting game's own player's lines go through [`take`] from its seat.
pub(crate) fn send_host_lines(world: &mut World) {
    let lines = std::mem::take(&mut world.resource_mut::<Chat>().outgoing);
    let seat = world.resource::<NetWatcher>().players.iter().find(|(_, p)| p.local).map(|(n, _)| *n);
    let Some(seat) = seat else { return };
    for (clan_only, text) in lines {
        take(world, Entity::PLACEHOLDER, seat, clan_only, text);
    }
}

/// A client's lines go to the host.
pub(crate) fn send_client_lines(mut chat: ResMut<Chat>, mut outgoing: ResMut<OutgoingOrders>) {
    for (clan_only, text) in chat.outgoing.drain(..) {
        outgoing.messages.push(Gmsg::TextForPlayer { from: 0, clan_only, text });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_refused_until_the_window_moves_on() {
        let mut recent = RecentLines::default();
        for i in 0..FLOOD_LINES {
            assert_eq!(refusal("hi", &mut recent, i as f64), None);
        }
        assert!(refusal("hi", &mut recent, 5.0).unwrap().contains("more than"));
        assert_eq!(refusal("hi", &mut recent, FLOOD_SECONDS + 0.5), None, "the first line left the window");
        assert!(refusal(" ", &mut recent, 30.0).unwrap().contains("empty"));
        assert!(refusal(&"x".repeat(MAX_TEXT + 1), &mut recent, 30.0).unwrap().contains("at most"));
    }
}
