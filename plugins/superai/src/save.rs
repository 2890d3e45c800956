//! What a saved game keeps of the SuperAIs: per clan, the script VM's state that running
//! changes (variable words, problems, the clan clock, the problem handler, the next
//! takt, the design draw) and the nodes already reported; and the mission's script state (objectives,
//! deleted objects, route reports, filed lists, the `Mission` handler's next run). The
//! packages, the clan bases, the slots and the tactical areals are made again by
//! starting the mission; [`SuperAis::restore`] lays the saved state over them.

use crate::designs::DesignDraw;
use crate::problems::Problems;
use crate::{MissionState, SuperAis};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The SuperAIs' saved state.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SuperAisState {
    /// Each clan's, in clan order.
    pub clans: Vec<SuperAiState>,
    /// The mission's script state (the areal outlines are not saved).
    pub mission: MissionState,
}

/// One clan's saved SuperAI state (`vm` is `None` for a clan without a VM).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuperAiState {
    /// The clan index (checked on restore).
    pub clan: u32,
    /// The VM's state.
    pub vm: Option<VmState>,
    /// `(handler, node)` pairs already reported.
    pub reported: BTreeSet<(usize, usize)>,
}

/// The part of a [`crate::Vm`] that running changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VmState {
    /// Each variable's current word, in reference order.
    pub words: Vec<u32>,
    /// The problems.
    pub problems: Problems,
    /// The clan clock (seconds).
    pub clock: u32,
    /// *n* of `Problems<n>`.
    pub problem_handler: u32,
    /// The next takt (game ms).
    pub next_takt_ms: u32,
    /// Functions 43 and 69's state.
    pub designs: DesignDraw,
}

impl SuperAis {
    /// The state now.
    pub fn state(&self) -> SuperAisState {
        let vm = |vm: &crate::Vm| VmState {
            words: vm.vars.iter().map(|v| v.word).collect(),
            problems: vm.problems.clone(),
            clock: vm.clock,
            problem_handler: vm.problem_handler,
            next_takt_ms: vm.next_takt_ms,
            designs: vm.designs,
        };
        let clans = self
            .clans
            .iter()
            .map(|ai| SuperAiState { clan: ai.clan.index, vm: ai.vm.as_ref().map(vm), reported: ai.reported.clone() })
            .collect();
        SuperAisState { clans, mission: self.mission.clone() }
    }

    /// Lays `state` over the SuperAIs of the mission just started.
    ///
    /// # Errors
    /// The clans, a clan's VM, its variable count or the objective count differ from
    /// the saved ones (the save is of other scripts or another mission).
    pub fn restore(&mut self, state: SuperAisState) -> Result<(), String> {
        if state.clans.len() != self.clans.len() {
            return Err(format!("the save has {} SuperAIs, the mission {}", state.clans.len(), self.clans.len()));
        }
        if state.mission.objectives.len() != self.mission.objectives.len() {
            return Err(format!(
                "the save has {} objectives, the mission {}",
                state.mission.objectives.len(),
                self.mission.objectives.len()
            ));
        }
        for (ai, saved) in self.clans.iter_mut().zip(state.clans) {
            let clan = ai.clan.index;
            if saved.clan != clan {
                return Err(format!("the save has clan {}'s SuperAI where the mission has clan {clan}'s", saved.clan));
            }
            match (&mut ai.vm, saved.vm) {
                (None, None) => {}
                (Some(vm), Some(s)) if s.words.len() == vm.vars.len() => {
                    vm.vars.iter_mut().zip(s.words).for_each(|(v, w)| v.word = w);
                    vm.problems = s.problems;
                    vm.clock = s.clock;
                    vm.problem_handler = s.problem_handler;
                    vm.next_takt_ms = s.next_takt_ms;
                    vm.designs = s.designs;
                }
                _ => return Err(format!("clan {clan}'s script VM differs from the saved one")),
            }
            ai.reported = saved.reported;
        }
        let outlines = std::mem::take(&mut self.mission.routes.outlines);
        self.mission = state.mission;
        self.mission.routes.outlines = outlines;
        Ok(())
    }
}
