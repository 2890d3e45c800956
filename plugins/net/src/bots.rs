//! Bots: headless clients that join a session and give random but seeded orders to
//! their clan's units (`iron3d-cli net bots`, the long-session test, the bench).

use crate::{Checkpoints, ClientSession, Clock, EventCounts, Mirrors, OutgoingOrders, client_app, schema::WireOrder};
use bevy_app::App;
use bevy_replicon::prelude::ClientStats;
use iron3d_core::{MissionOutcome, ObjectKind, Order, Outcome, Owner, RandomStream, SimObject, SimTransform};
use serde::Serialize;
use std::net::SocketAddr;

/// Frames between a bot's orders.
pub const ORDER_EVERY: u32 = 16;
/// Farthest a bot sends a unit from where it stands (game units).
pub const ORDER_REACH: f32 = 60.0;

/// One bot.
pub struct Bot {
    /// Its client app.
    pub app: App,
    random: RandomStream,
    frame: u32,
    received_bps: f64,
    samples: u32,
    /// A chat line to say to everyone once admitted.
    say: Option<String>,
}

/// What a bot reports (the `net bots` JSON row).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BotReport {
    /// Player number the host gave (0: never admitted).
    pub id: u16,
    /// Mean bytes received per second while connected (the transport's measure).
    pub bytes_per_s: f64,
    /// Orders the host acknowledged.
    pub orders: u32,
    /// Checkpoints compared.
    pub hash_checks: u32,
    /// Checkpoints whose hashes differed.
    pub hash_mismatches: u32,
    /// Checkpoints never held exactly (a later tick arrived first).
    pub hash_skipped: u32,
    /// The host's last game tick this bot heard of.
    pub last_tick: u32,
    /// Why the host refused or dropped it, if it did.
    pub refused: Option<String>,
    /// The host's events it received, by kind.
    pub events: EventCounts,
    /// Its clan's outcome (`completed`, `failed`, `defeated`), once recorded.
    pub outcome: Option<&'static str>,
    /// Its clan's ore as last replicated (`IRON3D_CLAN_STATE`; 0 before the first).
    pub ore: f32,
    /// Chat lines received.
    pub chat_received: u32,
    /// The sync report it wrote at a checkpoint mismatch, if any.
    pub desync_report: Option<String>,
}

impl Bot {
    /// Bot `index` joining `server`, its orders drawn from `seed`.
    ///
    /// # Errors
    /// The socket cannot be opened.
    pub fn join(server: SocketAddr, index: u32, seed: u64, clock: Clock) -> Result<Self, String> {
        let app = client_app(server, &format!("bot-{index}"), clock)?;
        Ok(Self {
            app,
            random: RandomStream::named(seed, &format!("bot-{index}")),
            frame: 0,
            received_bps: 0.0,
            samples: 0,
            say: None,
        })
    }

    /// Says `text` to everyone once the host admitted it (`net bots --say`).
    pub fn say_once_admitted(&mut self, text: &str) {
        self.say = Some(text.into());
    }

    /// One frame: the app updates, then every [`ORDER_EVERY`] frames the bot orders one
    /// of its units somewhere near; once admitted, it says its line if it has one.
    pub fn step(&mut self) {
        self.app.update();
        self.frame += 1;
        let world = self.app.world();
        if world.resource::<ClientSession>().player.is_some() {
            self.received_bps += world.get_resource::<ClientStats>().map_or(0.0, |s| s.received_bps);
            self.samples += 1;
            if let Some(text) = self.say.take() {
                self.app.world_mut().resource_mut::<crate::chat::Chat>().say(false, &text);
            }
        }
        if self.frame.is_multiple_of(ORDER_EVERY) {
            self.order();
        }
    }

    fn order(&mut self) {
        let world = self.app.world();
        let Some(clan) = world.resource::<ClientSession>().clan else { return };
        let units: Vec<(u32, [f32; 3])> = world
            .resource::<Mirrors>()
            .by_id
            .iter()
            .filter_map(|(id, e)| {
                let e = world.get_entity(*e).ok()?;
                let mine = e.get::<Owner>()?.clan == clan as i32 && e.get::<SimObject>()?.kind == ObjectKind::Unit;
                mine.then(|| (*id, e.get::<SimTransform>().map_or([0.0; 3], |t| t.position)))
            })
            .collect();
        if units.is_empty() {
            return;
        }
        let (id, at) = units[self.random.below(units.len() as u32) as usize];
        let mut offset = || (self.random.below(2001) as f32 / 1000.0 - 1.0) * ORDER_REACH;
        let to = [at[0] + offset(), at[1] + offset()];
        self.app.world_mut().resource_mut::<OutgoingOrders>().order(
            vec![id],
            WireOrder::Plain(Order::MoveTo(to)),
            false,
        );
    }

    /// Leaves the session (the host holds its seat for its rejoin time, then hands its
    /// units on).
    pub fn leave(&mut self) {
        crate::disconnect(self.app.world_mut());
    }

    /// Joins `server` again after a drop, claiming back its seat.
    ///
    /// # Errors
    /// The socket cannot be opened.
    pub fn rejoin(&mut self, server: SocketAddr) -> Result<(), String> {
        crate::rejoin(self.app.world_mut(), server).map_err(|e| e.to_string())
    }

    /// The bot's report so far.
    pub fn report(&self) -> BotReport {
        let world = self.app.world();
        let session = world.resource::<ClientSession>();
        let checks = world.resource::<Checkpoints>();
        BotReport {
            id: session.player.unwrap_or(0),
            bytes_per_s: if self.samples == 0 { 0.0 } else { self.received_bps / f64::from(self.samples) },
            orders: session.orders_acked,
            hash_checks: checks.checks,
            hash_mismatches: checks.mismatches,
            hash_skipped: checks.skipped,
            last_tick: session.last_tick,
            refused: session.refused.clone(),
            events: *world.resource::<EventCounts>(),
            outcome: session.clan.and_then(|c| world.resource::<MissionOutcome>().of(c)).map(Outcome::name),
            ore: world.resource::<crate::clan_state::ClanView>().state.as_ref().map_or(0.0, |s| s.economy.ore),
            chat_received: world.resource::<crate::chat::Chat>().received,
            desync_report: checks.report.as_ref().map(|p| p.display().to_string()),
        }
    }
}
