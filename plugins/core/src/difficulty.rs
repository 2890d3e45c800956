//! The difficulty level (`Iron_3D.ini` `[LEVEL_RATIO]`, `docs/reference/runtime.md` §2.4: three
//! coefficients, 0.5, 0.7 and 1.0 in the original's file). The project reads the
//! section's first three numeric values in file order as easy, normal and hard (its key
//! names are not given by the spec). The chosen level's ratio scales the life and the
//! damage of the combat units of every clan not allied with the player's (gameplay.md
//! §7.3; combat applies it).

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// One of the three levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, Reflect, serde::Serialize, serde::Deserialize)]
pub enum DifficultyLevel {
    /// The first coefficient.
    Easy,
    /// The second coefficient (the default).
    #[default]
    Normal,
    /// The third coefficient.
    Hard,
}

impl DifficultyLevel {
    /// Every level, easiest first.
    pub const ALL: [Self; 3] = [Self::Easy, Self::Normal, Self::Hard];

    /// Lower-case name (command line, JSON, progress).
    pub fn name(self) -> &'static str {
        match self {
            Self::Easy => "easy",
            Self::Normal => "normal",
            Self::Hard => "hard",
        }
    }

    /// The level named `name` (any case).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(name.trim()))
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The chosen level and the data's coefficients; kept across missions (the player's
/// choice), hashed with the simulation state.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Difficulty {
    /// The chosen level.
    pub level: DifficultyLevel,
    /// The coefficients of easy, normal and hard.
    pub ratios: [f32; 3],
}

/// The original's coefficients (`docs/reference/runtime.md` §2.4), used when the data has none.
pub const DEFAULT_LEVEL_RATIOS: [f32; 3] = [0.5, 0.7, 1.0];

impl Default for Difficulty {
    fn default() -> Self {
        Self { level: DifficultyLevel::Normal, ratios: DEFAULT_LEVEL_RATIOS }
    }
}

impl Difficulty {
    /// The chosen level's coefficient, as the original gives it (object property 180):
    /// 0.5 easy, 0.7 normal, 1.0 hard in the shipped `Iron_3D.ini`.
    pub fn ratio(&self) -> f32 {
        self.ratios[self.level.index()]
    }
}
