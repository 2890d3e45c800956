//! A unit's Behavior state: its order, where it is in it, its global and local path.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{NavStatus, Order, OriginalObjectId, Owner, SimTransform};

/// A unit as a Behavior step that steers it sees it: its entity, id, owner, placement,
/// navigator and status, then what the step needs besides (`T`).
pub(crate) type Walker<'a, T> =
    (Entity, &'a OriginalObjectId, &'a Owner, &'a SimTransform, &'a mut Navigator, &'a NavStatus, T);

/// Behavior's per-unit state (written by Behavior only).
#[derive(Component, Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Navigator {
    /// The current order.
    pub order: Order,
    /// Orders queued after it (waypoints), taken in turn when it ends.
    pub queued: Vec<Order>,
    /// Index of the path point the current leg goes to (follow / patrol).
    pub leg: usize,
    /// Patrol direction: walking the path backwards.
    pub reverse: bool,
    /// The goal of the current leg (game XY).
    pub goal: [f32; 2],
    /// The global path: areals from the leg's start to its goal.
    pub global_path: Vec<u32>,
    /// The local path: points to pass, the leg's goal last.
    pub local_path: Vec<[f32; 2]>,
    /// Next local-path point.
    pub next: usize,
    /// Queue time of the first scheduled step (0: not scheduled yet).
    pub first_step_ms: u32,
    /// The leg must be (re)planned.
    pub replan: bool,
    /// Closest distance to the current point so far, and ticks without getting closer.
    pub best_dist: f32,
    /// Ticks without progress.
    pub stalled: u32,
}

impl Navigator {
    /// The start of the current local-path segment.
    pub fn segment_start(&self, position: [f32; 2]) -> [f32; 2] {
        match self.next {
            0 => position,
            n => self.local_path.get(n - 1).copied().unwrap_or(position),
        }
    }

    /// Starts `order` from its first leg (the path is planned at the next step).
    pub fn start(&mut self, order: Order) {
        self.order = order;
        self.leg = 0;
        self.reverse = false;
        self.replan = true;
        self.clear_path();
    }

    /// The current order ended: starts the next queued one. Returns whether there was
    /// one.
    pub fn next_queued(&mut self) -> bool {
        if self.queued.is_empty() {
            return false;
        }
        let next = self.queued.remove(0);
        self.start(next);
        true
    }

    /// The current order ended: the next queued one, else a stop.
    pub fn finish(&mut self) {
        if !self.next_queued() {
            self.start(Order::Stop);
        }
    }

    /// Heads for a task's point (leg 1, planned at the next step).
    pub fn head_for(&mut self, goal: [f32; 2]) {
        (self.goal, self.leg, self.replan) = (goal, 1, true);
    }

    /// Forgets the path (a new order, a stop, a refusal).
    pub fn clear_path(&mut self) {
        self.global_path.clear();
        self.local_path.clear();
        self.next = 0;
        self.best_dist = f32::INFINITY;
        self.stalled = 0;
    }
}
