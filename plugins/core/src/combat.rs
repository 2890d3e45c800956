//! Combat state that crosses subsystems (the project's own rules, issue "Clans play":
//! the original's combat is not recovered). Behavior keeps each armed object's
//! [`Radar`] (what it targets); the combat step turns the [`Weapon`] toward it, fires,
//! flies [`Projectile`]s and applies damage to [`Health`]; a destroyed object leaves
//! through World3D's deferred deletion. Who is hostile to whom comes from the clan
//! relation tables of `data.tma` ([`ClanRelations`]).

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

/// Hit points of an object that can be damaged.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Health {
    /// Current hit points (the object is destroyed at 0).
    pub hp: f32,
    /// Full hit points.
    pub max: f32,
    /// Fraction of each hit absorbed (0..1).
    pub armour: f32,
    /// The mission made it invulnerable (`Invulnerability` property).
    pub invulnerable: bool,
}

/// A weapon mount and its turret: what it fires and where it points.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct Weapon {
    /// Index of the weapon in the combat rules' weapon table.
    pub kind: u16,
    /// Reach (game units).
    pub range: f32,
    /// Damage per hit before armour.
    pub damage: f32,
    /// Ticks between shots.
    pub reload_ticks: u32,
    /// Ticks until it may fire again.
    pub cooldown: u32,
    /// Projectile speed (units per second); 0 fires an instant beam.
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
    /// Ticks left before it falls harmlessly.
    pub ttl: u32,
}

/// Hostility between clans, from the relation tables of the clan records (spec
/// `docs/reference/world.md` §1.4: values 0/1 observed). The project reads a non-zero value as "at
/// war"; clans without an entry for each other are at war when both are player or AI
/// clans (modes 1 and 2), and the environment and neutral clans fight nobody.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct ClanRelations {
    /// `hostile[a][b]` by clan index.
    pub hostile: Vec<Vec<bool>>,
}

impl ClanRelations {
    /// The relations of the mission's clans (clan order); an entry naming no clan of
    /// the mission is ignored.
    pub fn from_clans(clans: &[crate::ClanSetup]) -> Self {
        let n = clans.len();
        let mut hostile = vec![vec![false; n]; n];
        for (a, ca) in clans.iter().enumerate() {
            for (b, cb) in clans.iter().enumerate() {
                let named = |from: &crate::ClanSetup, to: &crate::ClanSetup| {
                    from.relations.iter().find(|(name, _)| *name == to.name).map(|(_, v)| *v != 0)
                };
                let war = match (named(ca, cb), named(cb, ca)) {
                    (None, None) => true,
                    (x, y) => x.unwrap_or(false) || y.unwrap_or(false),
                };
                hostile[a][b] = a != b && war && ca.plays() && cb.plays();
            }
        }
        Self { hostile }
    }

    /// Whether clan `a` fights clan `b` (never itself; unknown clans fight nobody).
    pub fn hostile(&self, a: i32, b: i32) -> bool {
        a != b
            && usize::try_from(a)
                .ok()
                .zip(usize::try_from(b).ok())
                .and_then(|(a, b)| self.hostile.get(a).and_then(|row| row.get(b)).copied())
                .unwrap_or(false)
    }
}

/// Fired-shot counter (the projectiles' stable order).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct ShotCounter(pub u32);
