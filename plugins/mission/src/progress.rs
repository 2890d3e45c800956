//! Loading progress (per-phase counts and timings) and the last load error.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::MissionLoadPhase;

/// Progress of one phase.
#[derive(Debug, Clone, PartialEq, Reflect)]
pub struct PhaseProgress {
    /// The phase.
    pub phase: MissionLoadPhase,
    /// Items done.
    pub done: usize,
    /// Items in total (0 until known).
    pub total: usize,
    /// Wall time spent, milliseconds.
    pub millis: f32,
    /// True when the phase finished successfully.
    pub finished: bool,
}

/// Progress of the current (or last) load, one row per phase in order.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct LoadProgress {
    /// Rows in phase order.
    pub phases: Vec<PhaseProgress>,
}

impl Default for LoadProgress {
    fn default() -> Self {
        Self {
            phases: MissionLoadPhase::ALL
                .iter()
                .map(|&phase| PhaseProgress { phase, done: 0, total: 0, millis: 0.0, finished: false })
                .collect(),
        }
    }
}

impl LoadProgress {
    /// The row of `phase`.
    pub fn row_mut(&mut self, phase: MissionLoadPhase) -> Option<&mut PhaseProgress> {
        self.phases.iter_mut().find(|p| p.phase == phase)
    }

    /// Fraction of phases finished, 0..=1.
    pub fn fraction(&self) -> f32 {
        let done = self.phases.iter().filter(|p| p.finished).count();
        done as f32 / self.phases.len().max(1) as f32
    }
}

/// Why the last load failed: the phase and the full error chain.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct LoadError {
    /// Mission name.
    pub mission: String,
    /// Phase that failed.
    pub phase: MissionLoadPhase,
    /// Error text with its chain (placed object -> key -> archive -> entry -> link).
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "mission {} failed in {}: {}", self.mission, self.phase.label(), self.message)
    }
}

impl std::error::Error for LoadError {}
