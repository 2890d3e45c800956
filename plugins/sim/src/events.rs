//! The event log of a run: arrivals, new contacts, Behavior diagnostics, deletions,
//! script reports, the scripts' messages and objectives, mission outcomes, damage and destruction, production (produced,
//! researched, rejected), haulage (loaded, unloaded), capture and boarding (captured,
//! boarded, left) and unsupported settings,
//! read from the World3D queue each tick (what `sim run --json` prints).

use bevy_ecs::prelude::*;
use iron3d_core::{GameMessage, GameMessageKind, ProductionEvent};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, bevy_reflect::Reflect, serde::Serialize, serde::Deserialize)]
pub enum EventKind {
    /// A unit finished its order.
    Arrived,
    /// A new contact between two objects.
    Collision,
    /// A Behavior diagnostic.
    Diagnostic,
    /// An object was deleted.
    Deleted,
    /// A clan script reported something (detail: `clan= bundle= handler= node=
    /// function=: what`; a function the VM does not implement, a package error, ...).
    Script,
    /// A clan script raised a `messages.cfg` message (detail: `clan=C id=ID`, the
    /// `message_index`).
    Message,
    /// A clan script changed an objective (detail: `clan=C id=INDEX complete|failed|progress`).
    Objective,
    /// A clan's mission outcome was recorded.
    Outcome,
    /// A node of an object took damage (detail `node=N amount=A hp=H`: the node, the
    /// life it lost, the object's life left).
    Damaged,
    /// An object was destroyed (detail empty), or a part of it (detail `node=N`: the
    /// node destroyed, with those below it).
    Destroyed,
    /// A robot was built (`ids`: producer, new object; detail: the scheme).
    Produced,
    /// A research node completed (`ids`: the research building).
    Researched,
    /// A production, research or haul order or job was refused or failed (refunded).
    Rejected,
    /// A transport robot left a mine loaded (`ids`: transport, mine; detail `ore=N`).
    Loaded,
    /// A transport robot left a store it unloaded into (`ids`: transport, store; detail
    /// `ore=N`).
    Unloaded,
    /// A builder's search found a mineral lode (`ids`: the builder; detail `lode=N`, its
    /// index among the mission's lodes).
    LodeFound,
    /// A building a builder put up stands finished (`ids`: builder, building; detail its
    /// scheme).
    Constructed,
    /// An upgrade's new building stands finished (`ids`: builder, new building; detail
    /// `from=OLD` and its scheme).
    Upgraded,
    /// An object changed clan by capture (`ids`: object, capturer; detail `from=OLD
    /// to=NEW`).
    Captured,
    /// The hero boarded a bot (`ids`: hero, bot).
    Boarded,
    /// The hero left his bot (`ids`: hero, bot).
    Left,
    /// A building's pod fired for an object of its clan (`ids`: building, object).
    Opened,
    /// A configuration key the project does not apply (detail: `file key: reason`).
    Unsupported,
}

impl EventKind {
    /// Lower-case name (JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::Arrived => "arrived",
            Self::Collision => "collision",
            Self::Diagnostic => "diagnostic",
            Self::Deleted => "deleted",
            Self::Script => "script",
            Self::Message => "message",
            Self::Objective => "objective",
            Self::Outcome => "outcome",
            Self::Damaged => "damaged",
            Self::Destroyed => "destroyed",
            Self::Produced => "produced",
            Self::Researched => "researched",
            Self::Rejected => "rejected",
            Self::Loaded => "loaded",
            Self::Unloaded => "unloaded",
            Self::LodeFound => "lode_found",
            Self::Constructed => "constructed",
            Self::Upgraded => "upgraded",
            Self::Captured => "captured",
            Self::Boarded => "boarded",
            Self::Left => "left",
            Self::Opened => "opened",
            Self::Unsupported => "unsupported",
        }
    }
}

/// One event.
#[derive(Debug, Clone, PartialEq, Eq, bevy_reflect::Reflect, serde::Serialize, serde::Deserialize)]
pub struct SimEvent {
    /// Tick it happened in.
    pub tick: u32,
    /// What happened.
    pub kind: EventKind,
    /// Objects involved (`OriginalObjectId`).
    pub ids: Vec<u32>,
    /// Detail (the diagnostic's name and text, empty otherwise).
    pub detail: String,
}

/// Every event of the run, in tick and queue order.
#[derive(
    Resource, Debug, Clone, Default, PartialEq, Eq, bevy_reflect::Reflect, serde::Serialize, serde::Deserialize,
)]
pub struct EventLog(pub Vec<SimEvent>);

pub(crate) fn record(mut messages: MessageReader<GameMessage>, mut log: ResMut<EventLog>) {
    for m in messages.read() {
        let (kind, ids, detail) = match &m.kind {
            GameMessageKind::Arrived(o) => (EventKind::Arrived, vec![o.id.0], String::new()),
            GameMessageKind::CollisionDetected(a, b) => (EventKind::Collision, vec![a.id.0, b.id.0], String::new()),
            GameMessageKind::KillGameObject(o) => (EventKind::Deleted, vec![o.id.0], String::new()),
            GameMessageKind::Diagnostic { object, kind, detail, .. } => {
                (EventKind::Diagnostic, vec![object.id.0], format!("{}: {detail}", kind.name()))
            }
            GameMessageKind::Script { clan, bundle, handler, node, function, detail } => {
                let at = |v: &Option<u32>| v.map_or("-".to_string(), |v| v.to_string());
                let text = format!(
                    "clan={clan} bundle={bundle} handler={handler} node={} function={}: {detail}",
                    at(node),
                    at(function)
                );
                (EventKind::Script, Vec::new(), text)
            }
            GameMessageKind::Message { clan, id } => (EventKind::Message, Vec::new(), format!("clan={clan} id={id}")),
            GameMessageKind::Objective { clan, id, change } => {
                (EventKind::Objective, Vec::new(), format!("clan={clan} id={id} {}", change.name()))
            }
            GameMessageKind::Outcome { clan, outcome } => {
                (EventKind::Outcome, Vec::new(), format!("clan={clan} {}", outcome.name()))
            }
            GameMessageKind::Damaged { target, attacker, node, amount, hp } => {
                let ids = std::iter::once(target.id.0).chain(attacker.map(|a| a.id.0)).collect();
                (EventKind::Damaged, ids, format!("node={node} amount={amount} hp={hp}"))
            }
            GameMessageKind::PartDestroyed { object, node, by } => {
                let ids = std::iter::once(object.id.0).chain(by.map(|a| a.id.0)).collect();
                (EventKind::Destroyed, ids, format!("node={node}"))
            }
            GameMessageKind::Destroyed { object, by, .. } => {
                (EventKind::Destroyed, std::iter::once(object.id.0).chain(by.map(|a| a.id.0)).collect(), String::new())
            }
            GameMessageKind::Production { event, ids, detail } => {
                let kind = match event {
                    ProductionEvent::Produced => EventKind::Produced,
                    ProductionEvent::Researched => EventKind::Researched,
                    ProductionEvent::Rejected => EventKind::Rejected,
                    ProductionEvent::Loaded => EventKind::Loaded,
                    ProductionEvent::Unloaded => EventKind::Unloaded,
                    ProductionEvent::LodeFound => EventKind::LodeFound,
                    ProductionEvent::Constructed => EventKind::Constructed,
                    ProductionEvent::Upgraded => EventKind::Upgraded,
                    ProductionEvent::Captured => EventKind::Captured,
                    ProductionEvent::Boarded => EventKind::Boarded,
                    ProductionEvent::Left => EventKind::Left,
                    ProductionEvent::Opened => EventKind::Opened,
                };
                (kind, ids.clone(), detail.clone())
            }
            GameMessageKind::Unsupported { file, key, detail } => {
                (EventKind::Unsupported, Vec::new(), format!("{file} {key}: {detail}"))
            }
            GameMessageKind::NewGameTick | GameMessageKind::Init(_) | GameMessageKind::Fired { .. } => continue,
        };
        log.0.push(SimEvent { tick: m.tick, kind, ids, detail });
    }
}
