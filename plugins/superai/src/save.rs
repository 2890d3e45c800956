//! What a saved game keeps of the SuperAIs: per clan, the script VM's state that running
//! changes (variable words, the flag, the context, the last scalar, the scheduler's
//! records and timers, the problem records) and the records already reported as
//! unsupported. The packages, the clan bases, the slots and the `Init` results are made
//! again by starting the mission; [`SuperAis::restore`] lays the saved state over them.

use crate::SuperAis;
use crate::scheduler::Scheduler;
use crate::vm::{PROBLEM_WORDS, Scalar};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One clan's saved SuperAI state (`vm` is `None` for a clan without a VM).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuperAiState {
    /// The clan index (checked on restore).
    pub clan: u32,
    /// The VM's state.
    pub vm: Option<VmState>,
    /// `(event, record)` pairs already reported as unsupported.
    pub reported: BTreeSet<(usize, usize)>,
}

/// The part of a [`crate::Vm`] that running changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VmState {
    /// Each variable's current word, in reference order.
    pub words: Vec<u32>,
    /// The VM flag.
    pub flag: u32,
    /// The current context.
    pub context: Option<(usize, usize, Option<u32>)>,
    /// The last scalar.
    pub scalar: Option<Scalar>,
    /// The scheduler (records and their timers).
    pub scheduler: Scheduler,
    /// The problem records.
    pub problems: Vec<[u32; PROBLEM_WORDS]>,
    /// The current problem.
    pub current_problem: Option<usize>,
}

impl SuperAis {
    /// Every clan's state now, in clan order.
    pub fn state(&self) -> Vec<SuperAiState> {
        let vm = |vm: &crate::Vm| VmState {
            words: vm.vars.iter().map(|v| v.word).collect(),
            flag: vm.flag,
            context: vm.context,
            scalar: vm.scalar,
            scheduler: vm.scheduler.clone(),
            problems: vm.problems.clone(),
            current_problem: vm.current_problem,
        };
        self.0
            .iter()
            .map(|ai| SuperAiState { clan: ai.clan.index, vm: ai.vm.as_ref().map(vm), reported: ai.reported.clone() })
            .collect()
    }

    /// Lays `states` over the SuperAIs of the mission just started.
    ///
    /// # Errors
    /// The clans, a clan's VM or its variable count differ from the saved ones (the
    /// save is of other scripts).
    pub fn restore(&mut self, states: Vec<SuperAiState>) -> Result<(), String> {
        if states.len() != self.0.len() {
            return Err(format!("the save has {} SuperAIs, the mission {}", states.len(), self.0.len()));
        }
        for (ai, state) in self.0.iter_mut().zip(states) {
            let clan = ai.clan.index;
            if state.clan != clan {
                return Err(format!("the save has clan {}'s SuperAI where the mission has clan {clan}'s", state.clan));
            }
            match (&mut ai.vm, state.vm) {
                (None, None) => {}
                (Some(vm), Some(s)) if s.words.len() == vm.vars.len() => {
                    vm.vars.iter_mut().zip(s.words).for_each(|(v, w)| v.word = w);
                    vm.flag = s.flag;
                    vm.context = s.context;
                    vm.scalar = s.scalar;
                    vm.scheduler = s.scheduler;
                    vm.problems = s.problems;
                    vm.current_problem = s.current_problem;
                }
                _ => return Err(format!("clan {clan}'s script VM differs from the saved one")),
            }
            ai.reported = state.reported;
        }
        Ok(())
    }
}
