//! The project's rules file in force for the running mission.

use bevy_ecs::prelude::*;
use std::sync::Arc;

/// The rules file of the mission's data (`iron3d_rules::FILE_NAME` from the top layer
/// that has one; the built-in copy when no layer has it), read once per mission load
/// and published at registration. Each subsystem takes its section from it when the
/// scenario starts; until a mission publishes one, the built-in rules are in force.
#[derive(Resource, Debug, Clone)]
pub struct GameRules {
    /// The parsed, checked rules.
    pub rules: Arc<iron3d_rules::Rules>,
    /// Where they came from: the file's path in the data tree, or `built-in`.
    pub source: String,
    /// The data's cue table (`iron3d_rules::CUES_FILE`; empty when the data has none):
    /// the effects and samples of events, for the presentation.
    pub cues: Arc<iron3d_rules::Cues>,
}
