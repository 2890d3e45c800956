//! Combat state that crosses subsystems. Behavior keeps each armed object's [`Radar`]
//! (what it targets); the combat step turns the [`Weapon`]'s turret toward it, fires its
//! guns, flies [`Projectile`]s and damages the nodes of the object's body, whose sum
//! [`Health`] publishes; a destroyed object leaves through World3D's deferred deletion. Who is hostile to whom comes from the clan
//! relation words of `data.tma` and the clan types, as the original reads them
//! ([`ClanRelations`]).

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// The life of an object that can be damaged: the sum over its body's nodes (combat
/// keeps the nodes).
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Health {
    /// Life left.
    pub hp: f32,
    /// Full life.
    pub max: f32,
    /// The mission made it invulnerable (`Invulnerability` property).
    pub invulnerable: bool,
}

impl Health {
    /// Its life over its full life (0 without full life).
    pub fn share(&self) -> f32 {
        if self.max > 0.0 { self.hp / self.max } else { 0.0 }
    }
}

/// The last hit an object took: who fired it and in which tick (written by combat on
/// every hit, before armour or invulnerability, as the original tells every victim its
/// firer; read by Behavior's answers to hits).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct LastHit {
    /// The firer, by `OriginalObjectId`.
    pub by: u32,
    /// The tick of the hit.
    pub tick: u32,
}

/// An armed object's turret and what its first gun fires (combat keeps the guns).
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Weapon {
    /// Index of the class's weapon in the combat rules' weapon table (its effect and
    /// sound; 0 without).
    pub kind: u16,
    /// Reach: the longest range of its guns' rounds (game units).
    pub range: f32,
    /// What the first gun's round hits for, before armour.
    pub damage: f32,
    /// The first gun's round speed (units per second); 0 fires an instant beam.
    pub projectile_speed: f32,
    /// Turret turn rate (radians per second).
    pub turn_rate: f32,
    /// Turret heading relative to the body (radians, wrapped to -π..π).
    pub turret: f32,
}

/// An armed object's radar: how far it sees and what it targets (kept by Behavior).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Radar {
    /// Sight (game units).
    pub range: f32,
    /// The target, by `OriginalObjectId`.
    pub target: Option<u32>,
    /// The target is a task's (an attack order's): the AI fires at it on its timer
    /// alone, without the distance score.
    pub ordered: bool,
}

/// What an object's radar detected at its last scan, by `OriginalObjectId` in id order
/// (written by combat, which runs the radars of the objects whose data carries one;
/// Behavior picks targets from it). An object without it sees by the project's rule:
/// everything within its [`Radar`]'s range.
#[derive(Component, Debug, Clone, PartialEq, Eq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct RadarContacts(pub Vec<u32>);

/// What an object holds of its full measures (combat publishes it each tick for the
/// objects it armed; Behavior sends a machine to a dock by it, openparkan
/// `docs/27-ownership.md`, read).
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Supply {
    /// Life over full life.
    pub life: f32,
    /// Battery charge over capacity (1 without batteries).
    pub charge: f32,
    /// The emptiest limited magazine's rounds over its size (1 without one).
    pub rounds: f32,
    /// The share of its limited magazines under a fifth of their size.
    pub starved: f32,
}

impl Supply {
    /// Everything full.
    pub const FULL: Self = Self { life: 1.0, charge: 1.0, rounds: 1.0, starved: 0.0 };

    /// Life, charge and ammunition all at 98 % or more: a refit ends (read).
    pub fn refitted(&self) -> bool {
        self.life >= 0.98 && self.charge >= 0.98 && self.rounds >= 0.98
    }

    /// A machine orders itself to a dock (read): life under half, battery under half,
    /// or more than 80 % of its magazines under a fifth.
    pub fn wants_refit(&self) -> bool {
        self.life < 0.5 || self.charge < 0.5 || self.starved > 0.8
    }
}

/// A shell in flight (not a World3D object; ordered by its sequence number).
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Projectile {
    /// Fired-shot sequence number (the stable key).
    pub sequence: u32,
    /// Who fired it (`OriginalObjectId`).
    pub shooter: u32,
    /// Who it flies at (`OriginalObjectId`; it homes on it).
    pub target: u32,
    /// Weapon kind (rules table index).
    pub kind: u16,
    /// Position (game units).
    pub position: [f32; 3],
    /// Speed (units per second).
    pub speed: f32,
    /// Damage on hit.
    pub damage: f32,
    /// Its life (the level ratio × its hit points): what a shield's sector must
    /// outweigh to stop it.
    pub life: f32,
    /// Its explosion's radius when it is a blast (0: a direct hit).
    pub blast: f32,
    /// Ticks left before it falls harmlessly (its range flown).
    pub ttl: u32,
}

/// A clan relation word as the original stores it (`gameplay.md` §1.2, read and
/// measured): 0 hostile, 1 neutral, 2 allied.
pub mod relation {
    /// Hostile.
    pub const HOSTILE: u32 = 0;
    /// Neutral.
    pub const NEUTRAL: u32 = 1;
    /// Allied (every clan towards itself).
    pub const ALLIED: u32 = 2;
}

/// The clans' relation words after the mission loader's rules, and their types
/// (`gameplay.md` §1.1–§1.3, openparkan `docs/25-sensors.md`; read and measured).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct ClanRelations {
    /// `words[a][b]`: clan `a`'s word towards clan `b` (see [`relation`]).
    pub words: Vec<Vec<u32>>,
    /// Each clan's type word ([`crate::ClanType`]), by clan index.
    pub types: Vec<u32>,
}

impl ClanRelations {
    /// The words as the original loads them. The loader files each record under the
    /// clan its name matches, ignoring case (an unnamed clan stays 0, hostile); a
    /// neutral clan's (type 3) row and every word towards one become 1; every clan's
    /// word towards itself becomes 2 (read). Each clan's SuperAI is then given its
    /// words, and setting one writes it both ways (read); the clans are given theirs
    /// in clan order, so of two words that disagree the later clan's stands (the
    /// order is the project's reading; every shipped pair agrees, measured).
    pub fn from_clans(clans: &[crate::ClanSetup]) -> Self {
        let n = clans.len();
        let types: Vec<u32> = clans.iter().map(|c| c.mode).collect();
        let neutral = |i: usize| types[i] == crate::ClanType::NEUTRAL;
        let mut words = vec![vec![relation::HOSTILE; n]; n];
        for (a, clan) in clans.iter().enumerate() {
            let mut row = vec![relation::HOSTILE; n];
            for (name, word) in &clan.relations {
                if let Some(b) = clans.iter().position(|c| c.name.eq_ignore_ascii_case(name)) {
                    row[b] = *word as u32;
                }
            }
            for (b, word) in row.iter_mut().enumerate() {
                if neutral(a) || neutral(b) {
                    *word = relation::NEUTRAL;
                }
            }
            row[a] = relation::ALLIED;
            for (b, word) in row.into_iter().enumerate() {
                words[a][b] = word;
                words[b][a] = word;
            }
        }
        Self { words, types }
    }

    /// Clans of the given types with `word` between every two of them (each allied to
    /// itself): worlds built by hand.
    pub fn uniform(types: Vec<u32>, word: u32) -> Self {
        let n = types.len();
        let words = (0..n).map(|a| (0..n).map(|b| if a == b { relation::ALLIED } else { word }).collect()).collect();
        Self { words, types }
    }

    /// Clan `a`'s word towards clan `b`, when both are clans of the mission.
    pub fn word(&self, a: i32, b: i32) -> Option<u32> {
        let (a, b) = (usize::try_from(a).ok()?, usize::try_from(b).ok()?);
        self.words.get(a)?.get(b).copied()
    }

    /// The type word of clan `clan` ([`crate::ClanType`]), when it is a clan of the mission.
    pub fn kind(&self, clan: i32) -> Option<u32> {
        usize::try_from(clan).ok().and_then(|c| self.types.get(c)).copied()
    }

    /// Whether a machine of clan `a` takes machines of clan `b` as hostile (the AI
    /// radar's rule, read): never its own clan or an unknown one; a neutral clan
    /// (type 3) fights nobody and nobody's radar lists it or a nature clan (type 0);
    /// a nature clan's machine takes every other clan as hostile; otherwise the
    /// word 0 is hostile. The player's target list reads the same for a player's
    /// clan (hostile: word 0 from a clan whose type is not 0).
    pub fn hostile(&self, a: i32, b: i32) -> bool {
        use crate::ClanType;
        let (Some(ta), Some(tb), Some(word)) = (self.kind(a), self.kind(b), self.word(a, b)) else { return false };
        if a == b || ta == ClanType::NEUTRAL || tb == ClanType::NATURE || tb == ClanType::NEUTRAL {
            return false;
        }
        ta == ClanType::NATURE || word == relation::HOSTILE
    }
}

/// Fired-shot counter (the projectiles' stable order).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct ShotCounter(pub u32);
