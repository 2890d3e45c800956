//! Combat by parts (openparkan `docs/26-damage.md` and `docs/29-weapons.md`, read and
//! measured), from each object's data; what the data does not say is the project's and
//! comes from the rules file (`assets/rules/iron3d.rules.ron`, section `combat`).
//!
//! * **Arming** (when the game starts, `MissionStart::Objects`, then in
//!   `InputPhase::Combat` for objects that join later): an object with a Unit DAT class
//!   gets its [`Body`] of nodes (from its [`iron3d_core::CombatSheet`], or one node of
//!   its class's hit points), its [`Guns`], and, armed, a turret ([`iron3d_core::Weapon`])
//!   and a [`iron3d_core::Radar`]; its [`Sensor`] and [`Stealth`] when its data carries a
//!   radar and a detection shield, its [`Power`] when its data carries batteries, its
//!   [`iron3d_core::Drive`] when it names an engine and its [`iron3d_core::Efficiency`]
//!   when it carries efficiency parts. Behavior keeps the radar's target.
//! * **Armament** (`ControlPhase::Combat`, after every object moved): docks refill the
//!   units of their clan and allies standing in them; power ticks serve
//!   the parts by channel from the batteries; radars whose scan
//!   is due write what they detect by signature into [`iron3d_core::RadarContacts`] (which
//!   Behavior picks targets from) and the AI puts camouflage on or off; turrets turn
//!   toward their target; guns stroke, release rounds and wait their interval; rounds
//!   fly their range (homing: the project's) and hit; hits are applied in (target,
//!   shot) order through armour to one node (direct) or to every node a blast reaches;
//!   a construction sphere's kills (`kills`) destroy what stands in its dome;
//!   a destroyed node takes the nodes below it; an object whose node 0 or a vital node
//!   is destroyed dies: its deletion is requested from World3D and `Destroyed` is
//!   posted with its position (presentation shows the explosion); a machine whose body
//!   changed gets its [`iron3d_core::Drive`] and a builder its [`iron3d_core::BeamCondition`]
//!   again (damage slows it, a shot beam stops its building), a factory its
//!   [`iron3d_core::CreationNodeCondition`] (a destroyed joint stops its production), and a building
//!   whose body or power changed its [`iron3d_core::Efficiency`].

mod ai_fire;
mod arm;
mod body;
mod docks;
mod drive;
mod efficiency;
mod fire;
mod guns;
mod kills;
mod power;
mod repair;
mod sensors;
mod shield;

pub use ai_fire::{distance_score, next_wait_ms};
pub use body::{Body, NodeLife, Strike, armoured, falloff};
pub use drive::drive;
pub use efficiency::efficiency;
pub use fire::{AIM_TOLERANCE, reach};
pub use guns::{GunState, Guns, STROKE_MS};
pub use power::serve;
pub use repair::Repair;
pub use sensors::{Draws, Sensor, Stealth, detects, signature};
pub use shield::{Meeting, Shield, sector};

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use iron3d_core::{
    AppState, BeamCondition, ControlPhase, CreationNodeCondition, Drive, Efficiency, Fnv1a, GameRules, Hashing, Health,
    InputPhase, LastHit, MissionLoadPhase, MissionStart, OriginalObjectId, Power, Projectile, Radar, RadarContacts,
    ShotCounter, SimObject, StateApp, Supply, Weapon,
};
use iron3d_rules::Combat;

/// The combat rules in force (the rules file's `combat` section).
#[derive(Resource, Debug, Clone)]
pub struct CombatRules(pub Combat);

/// Installs combat (needs `iron3d_core::CorePlugin`).
#[derive(Debug, Clone)]
pub struct CombatPlugin {
    /// The rules (the shipped file's by default).
    pub rules: Combat,
}

impl CombatPlugin {
    /// Combat with the shipped rules file.
    ///
    /// # Panics
    /// Never in a release: a test keeps the shipped rules valid.
    pub fn shipped() -> Self {
        #[expect(clippy::expect_used, reason = "the shipped rules are checked by a test")]
        let rules = iron3d_rules::Rules::shipped().expect("the shipped rules file is valid");
        Self { rules: rules.combat }
    }
}

impl Plugin for CombatPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(CombatRules(self.rules.clone()))
            .init_resource::<fire::Hits>()
            .register_type::<Body>()
            .register_type::<Guns>()
            .register_type::<Shield>()
            .register_type::<Repair>()
            .register_type::<Power>()
            .register_type::<Sensor>()
            .register_type::<Stealth>()
            .register_type::<RadarContacts>()
            .save_component::<Body>("combat.body", Hashing::By("combat"))
            .save_component::<Guns>("combat.guns", Hashing::By("combat"))
            .save_component::<Shield>("combat.shield", Hashing::By("combat"))
            .save_component::<Repair>("combat.repair", Hashing::By("combat"))
            .save_component::<Power>("combat.power", Hashing::By("combat"))
            .save_component::<Sensor>("combat.sensor", Hashing::By("combat"))
            .save_component::<Stealth>("combat.stealth", Hashing::By("combat"))
            .save_component::<RadarContacts>(
                "combat.contacts",
                Hashing::Not("each scan's function of the hashed state"),
            )
            .save_component::<Health>("combat.health", Hashing::Not("the sum of the body's nodes").replicated())
            .save_component::<Weapon>("combat.weapon", Hashing::By("combat"))
            .save_component::<Radar>("combat.radar", Hashing::By("combat"))
            .save_component::<LastHit>("combat.last_hit", Hashing::By("combat"))
            .save_component::<Supply>("combat.supply", Hashing::Not("a function of the body, batteries and guns"))
            .save_component::<Drive>("combat.drive", Hashing::Not("a function of the body and the data"))
            .save_component::<BeamCondition>("combat.beam", Hashing::Not("a function of the body and the data"))
            .save_component::<CreationNodeCondition>(
                "combat.creation_node",
                Hashing::Not("a function of the body and the data"),
            )
            .save_component::<Efficiency>(
                "combat.efficiency",
                Hashing::Not("a function of the body, the power and the data"),
            )
            .save_resource::<ShotCounter>("combat.shots", Hashing::Bytes)
            .hash_state("combat", hash)
            .add_systems(OnEnter(MissionLoadPhase::ScenarioStart), adopt_rules)
            .add_systems(OnEnter(AppState::InGame), (arm::relations, arm::arm).chain().in_set(MissionStart::Objects))
            .add_systems(OnExit(AppState::InGame), fire::reset)
            .add_systems(FixedUpdate, arm::arm.in_set(InputPhase::Combat))
            .add_systems(
                FixedUpdate,
                (
                    docks::serve,
                    power::tick,
                    fire::maintain,
                    sensors::scan,
                    sensors::camouflage,
                    guns::select,
                    fire::aim_and_fire,
                    fire::fly,
                    fire::apply_hits,
                    kills::apply,
                    drive::keep,
                    efficiency::keep,
                    docks::supply,
                )
                    .chain()
                    .in_set(ControlPhase::Combat),
            );
    }
}

/// Takes the combat section of the mission's rules file.
fn adopt_rules(game: Option<Res<GameRules>>, mut commands: Commands) {
    let Some(game) = game else { return };
    commands.insert_resource(CombatRules(game.rules.combat.clone()));
}

/// Combat's hasher: which of its parts each object has, its nodes' life, last hit,
/// guns, turret, radar target, scans and camouflage, in `OriginalObjectId`
/// order, then projectiles in shot order.
fn hash(world: &World, _: &[(u32, Entity)], h: &mut Fnv1a) {
    // Its own sparse queries, sorted: most objects of a large world carry none of these.
    // A type no object ever had is not registered and its query fails: it adds nothing.
    fn ids<F: bevy_ecs::query::QueryFilter>(world: &World, out: &mut Vec<(u32, Entity)>) {
        if let Some(q) = world.try_query_filtered::<(Entity, &OriginalObjectId), (With<SimObject>, F)>() {
            out.extend(q.iter_manual(world).map(|(e, id)| (id.0, e)));
        }
    }
    let mut rows = Vec::new();
    ids::<Or<(With<Body>, With<Guns>, With<Weapon>, With<Radar>, With<LastHit>)>>(world, &mut rows);
    ids::<With<Shield>>(world, &mut rows);
    ids::<With<Repair>>(world, &mut rows);
    ids::<Or<(With<Sensor>, With<Stealth>, With<Power>)>>(world, &mut rows);
    rows.sort_unstable();
    rows.dedup();
    for (id, entity) in rows {
        let (body, guns, shield) = (world.get::<Body>(entity), world.get::<Guns>(entity), world.get::<Shield>(entity));
        let (repair, weapon) = (world.get::<Repair>(entity), world.get::<Weapon>(entity));
        let (radar, last) = (world.get::<Radar>(entity), world.get::<LastHit>(entity));
        let (sensor, stealth) = (world.get::<Sensor>(entity), world.get::<Stealth>(entity));
        let power = world.get::<Power>(entity);
        let present = [
            body.is_some(),
            guns.is_some(),
            shield.is_some(),
            repair.is_some(),
            weapon.is_some(),
            radar.is_some(),
            last.is_some(),
            sensor.is_some(),
            stealth.is_some(),
            power.is_some(),
        ];
        h.word(id);
        h.word(present.iter().enumerate().fold(0, |m, (k, p)| m | u32::from(*p) << k));
        if let Some(body) = body {
            h.wide(body.nodes.len() as u64);
            for n in &body.nodes {
                h.word(n.life.to_bits());
            }
        }
        for g in guns.map_or(&[][..], |g| &g.0) {
            let release = g.release_ms.map_or(u32::MAX, f32::to_bits);
            let words = [g.magazine as u32, g.charge.to_bits(), release, g.wait_ms.to_bits(), g.ai_wait_ms.to_bits()];
            let more = [u32::from(g.barrel), u32::from(g.selected), g.arm.to_bits(), g.lock.to_bits()];
            for word in words.into_iter().chain(more).chain([g.lock_on.unwrap_or(u32::MAX)]) {
                h.word(word);
            }
        }
        if let Some(shield) = shield {
            h.floats(&shield.sectors);
            h.word(shield.level.to_bits());
        }
        if let Some(repair) = repair {
            h.word(u32::from(repair.on));
        }
        if let Some(l) = last {
            h.word(l.by);
            h.word(l.tick);
        }
        if let Some(w) = weapon {
            h.word(w.turret.to_bits());
        }
        if let Some(r) = radar {
            h.word(r.target.unwrap_or(u32::MAX));
            h.word(u32::from(r.ordered));
        }
        if let Some(s) = sensor {
            h.word(s.next_ms);
        }
        if let Some(s) = stealth {
            h.word(u32::from(s.camouflaged));
            h.word(s.targeted_ms);
        }
        if let Some(p) = power {
            h.word(p.charge.to_bits());
            h.word(p.next_ms);
            h.floats(&p.levels);
        }
    }
    let mut shots: Vec<&Projectile> =
        world.try_query::<&Projectile>().map(|q| q.iter_manual(world).collect()).unwrap_or_default();
    shots.sort_unstable_by_key(|p| p.sequence);
    for p in shots {
        for word in [p.sequence, p.target, p.ttl, p.position[0].to_bits(), p.position[1].to_bits()] {
            h.word(word);
        }
    }
}

#[cfg(test)]
mod tests;
