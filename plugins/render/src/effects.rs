//! FXID effect playback. The combat rules name an effect for each weapon (played where
//! it fires, with its sounds, and where it hits, without them) and one for a
//! destroyed object; each name is resolved once in `effects.rlb` through the game's
//! archives (as models are), parsed and turned into an [`EffectPlan`], and played as a
//! [`PlayingEffect`] entity at the event's place: its point lights ([`EffectLight`]),
//! billboards and particles ([`EffectSprite`], camera-facing quads with the record's
//! MAT0 made unlit) are children that follow the effect's age, and its opcode-2 records
//! are sent as [`SoundCue`]s once each, when the age reaches their start. Ages run on
//! virtual time and hold while the game is paused; an effect despawns at the end of its
//! lifetime.
//!
//! A missing or bad effect is reported once, naming the chain (rule → effect name →
//! `effects.rlb` entry → cause), and the stand-in of [`crate::combat`] is drawn
//! instead (a fireball for an explosion). Where an effect cannot sound (missing, or
//! without an opcode-2 record) the sample the combat rules name for the event is
//! played instead. A record's material that fails to load is drawn as a plain warm
//! glow (the project's choice).

use crate::MissionRenderSystems;
use crate::combat::{CombatLook, LIFT, spawn_fireball};
use crate::effect_plan::{EffectPlan, MaterialRef, RecordKind, ease, plan, progress};
use crate::materials::standard_material;
use crate::turret::TurretPiece;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use iron3d_assets::axes::to_bevy;
use iron3d_assets::{GameData, Mat0Asset};
use iron3d_combat::CombatRules;
use iron3d_core::{
    AppState, GameMessage, GameMessageKind, GameRules, MissionStart, ObjectTable, OriginalObjectId, Pause,
    SimTransform, SoundBus, SoundCue, SoundKey, UnitClass, Weapon,
};
use iron3d_formats::ReadOptions;
use iron3d_formats::model::fxid::Effect;
use iron3d_formats::rng::SplitMix64;
use iron3d_rules::{Cue, CueEvent};
use std::collections::HashMap;
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EffectLibrary>()
        .register_type::<EffectLibrary>()
        .register_type::<PlayingEffect>()
        .register_type::<EffectSprite>()
        .register_type::<EffectLight>()
        .add_systems(Startup, setup)
        .add_systems(OnEnter(AppState::InGame), preload.in_set(MissionStart::Present))
        .add_systems(OnExit(AppState::InGame), reset)
        .add_systems(
            Update,
            (play_combat_effects.after(crate::combat::spawn_beams), age_effects, animate_effects)
                .chain()
                .in_set(MissionRenderSystems::Animate),
        );
}

/// The archive the cue table's effect names are looked up in.
pub const EFFECTS_ARCHIVE: &str = "effects.rlb";
/// Lumens of an effect light per square game unit of its range (the project's).
const LUMENS_PER_SQUARE_UNIT: f32 = 5000.0;
/// Sprites farther than this from the camera grow with their distance, keeping the size
/// on screen they have here (the project's own rule: the RTS camera watches fights
/// from a few hundred units, where a shot's flash would be a pixel or two).
pub const KEEP_SIZE_BEYOND: f32 = 80.0;

/// How much a sprite `distance` away from the camera is enlarged.
pub fn distance_scale(distance: f32) -> f32 {
    (distance / KEEP_SIZE_BEYOND).max(1.0)
}

/// Resolved effects by lower-case name (`None`: failed, reported once) and the
/// materials their records asked for.
#[derive(Resource, Reflect, Default)]
#[reflect(Resource)]
pub struct EffectLibrary {
    #[reflect(ignore)]
    plans: HashMap<String, Option<Arc<EffectPlan>>>,
    #[reflect(ignore)]
    materials: HashMap<MaterialRef, Handle<Mat0Asset>>,
    /// Effects started since the mission opened (also the particles' seed).
    pub played: u32,
    /// Effects that could not be resolved, with the reason.
    pub failed: Vec<String>,
}

impl EffectLibrary {
    /// The plan of effect `name` (resolved and reported on first use); `rule` names
    /// who asked for it, for the report.
    pub fn plan(
        &mut self,
        game: Option<&GameData>,
        server: &AssetServer,
        name: &str,
        rule: &str,
    ) -> Option<Arc<EffectPlan>> {
        let key = name.to_ascii_lowercase();
        if let Some(known) = self.plans.get(&key) {
            return known.clone();
        }
        let resolved = match resolve(game, name) {
            Ok(p) => {
                for m in p.records.iter().filter_map(record_material) {
                    let path = format!("game://{}::{}.mat0", m.archive, m.name);
                    self.materials.entry(m.clone()).or_insert_with(|| server.load(path));
                }
                Some(Arc::new(p))
            }
            Err(e) => {
                let chain = format!("{rule} → effect {name} → {EFFECTS_ARCHIVE}/{name}: {e}");
                error!(target: "render", "{chain}; drawing the stand-in");
                self.failed.push(chain);
                None
            }
        };
        self.plans.insert(key, resolved.clone());
        resolved
    }
}

fn record_material(r: &crate::effect_plan::PlannedRecord) -> Option<&MaterialRef> {
    match &r.kind {
        RecordKind::Billboard { material, .. } | RecordKind::Particles { material, .. } => Some(material),
        _ => None,
    }
}

/// Reads, parses and plans effect `name` of [`EFFECTS_ARCHIVE`].
fn resolve(game: Option<&GameData>, name: &str) -> Result<EffectPlan, String> {
    let game = game.ok_or("no game data")?;
    let bytes = game.0.read_entry(EFFECTS_ARCHIVE, name).map_err(|e| e.to_string())?;
    let effect = Effect::parse(&bytes, ReadOptions::strict()).map_err(|e| e.to_string())?;
    plan(&effect).map_err(|e| e.to_string())
}

/// An effect being played (at its point; its drawn records are children).
#[derive(Component, Reflect, Debug, Clone)]
#[reflect(Component)]
pub struct PlayingEffect {
    /// Effect name.
    pub name: String,
    /// Seconds since it started (virtual time, held while paused).
    pub age: f32,
    /// Lifetime (seconds).
    pub duration: f32,
    /// Sounds still to start: start (seconds) and cue; each is sent once.
    pub sounds: Vec<(f32, SoundCue)>,
}

/// A drawn billboard or particle of a playing effect (Bevy axes, relative to the
/// effect's point).
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component)]
pub struct EffectSprite {
    /// Command index in the effect.
    pub command: usize,
    /// Seconds from the effect's start when it shows.
    pub window: [f32; 2],
    /// Where it starts.
    pub start: Vec3,
    /// Its velocity (units per second).
    pub velocity: Vec3,
    /// Downward acceleration.
    pub gravity: f32,
    /// `[width, height]` at the start and the end.
    pub size: [Vec2; 2],
    /// Growth exponent.
    pub grow_pow: f32,
    /// Opacity at the start and the end.
    pub alpha: [f32; 2],
    /// Fade exponent.
    pub alpha_pow: f32,
}

/// A point light of a playing effect; it fades out over its window.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component)]
pub struct EffectLight {
    /// Command index in the effect.
    pub command: usize,
    /// Seconds from the effect's start when it shines.
    pub window: [f32; 2],
    /// Intensity at its start (lumens).
    pub lumens: f32,
}

/// The shared quad of effect sprites.
#[derive(Resource)]
pub(crate) struct EffectLook {
    quad: Handle<Mesh>,
}

pub(crate) fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
    commands.insert_resource(EffectLook { quad: meshes.add(Rectangle::new(1.0, 1.0)) });
}

/// What starting an effect needs.
#[derive(SystemParam)]
pub(crate) struct EffectPlayer<'w> {
    library: ResMut<'w, EffectLibrary>,
    game: Option<Res<'w, GameData>>,
    server: Res<'w, AssetServer>,
    look: Res<'w, EffectLook>,
    mats: Res<'w, Assets<Mat0Asset>>,
    images: Res<'w, Assets<Image>>,
    materials: ResMut<'w, Assets<StandardMaterial>>,
}

/// Where and how one effect is played.
pub(crate) struct Play<'a> {
    /// Effect name.
    pub name: &'a str,
    /// Who asked, for reports.
    pub rule: &'a str,
    /// Its point (game axes).
    pub at: [f32; 3],
    /// The object its sounds belong to.
    pub owner: Option<OriginalObjectId>,
    /// Whether its sounds play.
    pub sound: bool,
}

impl EffectPlayer<'_> {
    /// The material of a record: its MAT0 made unlit and blended, or the plain glow.
    fn material(&mut self, m: &MaterialRef) -> Handle<StandardMaterial> {
        let mat0 = self.library.materials.get(m).and_then(|h| self.mats.get(h));
        let mut material = match mat0 {
            Some(mat0) => standard_material(Some(mat0), &self.images),
            None => StandardMaterial {
                base_color: Color::srgb(1.0, 0.75, 0.4),
                emissive: LinearRgba::rgb(4.0, 2.0, 0.6),
                alpha_mode: AlphaMode::Add,
                ..default()
            },
        };
        material.unlit = true;
        material.double_sided = true;
        material.cull_mode = None;
        if matches!(material.alpha_mode, AlphaMode::Opaque | AlphaMode::Mask(_)) {
            material.alpha_mode = AlphaMode::Blend;
        }
        self.materials.add(material)
    }

    /// Starts effect `play.name`: `None` when it cannot be played (reported once),
    /// else whether it sounds. Its sounds (when `play.sound`) are queued on the effect.
    pub(crate) fn play(&mut self, commands: &mut Commands, play: &Play) -> Option<bool> {
        let plan = self.library.plan(self.game.as_deref(), &self.server, play.name, play.rule)?;
        let mut random = SplitMix64::stream(u64::from(self.library.played), "render.effects");
        self.library.played = self.library.played.wrapping_add(1);
        let sounds = plan
            .records
            .iter()
            .filter(|_| play.sound)
            .filter_map(|r| match &r.kind {
                RecordKind::Sound(s) => {
                    let cue = iron3d_audio::sound_cue(s, play.at);
                    Some((r.window[0], if let Some(o) = play.owner { cue.owned_by(o) } else { cue }))
                }
                _ => None,
            })
            .collect();
        let root = commands
            .spawn((
                Name::new(format!("Effect {}", play.name)),
                PlayingEffect { name: play.name.to_string(), age: 0.0, duration: plan.duration, sounds },
                Transform::from_translation(Vec3::from(to_bevy(play.at))),
                Visibility::default(),
                DespawnOnExit(AppState::InGame),
            ))
            .id();
        let game_vec = |v: [f32; 3]| Vec3::from(to_bevy(v));
        let scaled = |v: [f32; 3]| game_vec(std::array::from_fn(|i| v[i] * plan.scale[i]));
        let side = |s: [f32; 2]| Vec2::new(s[0] * plan.scale[0], s[1] * plan.scale[2]);
        for r in &plan.records {
            let name = Name::new(format!("{} command {}", play.name, r.command));
            match &r.kind {
                RecordKind::Light { colour, range, offset } => {
                    let [red, green, blue] = colour.map(|c| c.clamp(0.0, 1.0));
                    let lumens = LUMENS_PER_SQUARE_UNIT * range * range;
                    commands.spawn((
                        name,
                        EffectLight { command: r.command, window: r.window, lumens },
                        PointLight {
                            color: Color::linear_rgb(red, green, blue),
                            intensity: lumens,
                            range: *range,
                            shadow_maps_enabled: false,
                            ..default()
                        },
                        Transform::from_translation(game_vec(plan.place(*offset))),
                        Visibility::Hidden,
                        ChildOf(root),
                    ));
                }
                RecordKind::Billboard { material, size, grow_pow, offset, alpha, alpha_pow } => {
                    let sprite = EffectSprite {
                        command: r.command,
                        window: r.window,
                        start: game_vec(plan.place(*offset)),
                        velocity: Vec3::ZERO,
                        gravity: 0.0,
                        size: [side(size[0]), side(size[1])],
                        grow_pow: *grow_pow,
                        alpha: *alpha,
                        alpha_pow: *alpha_pow,
                    };
                    let material = self.material(material);
                    self.spawn_sprite(commands, root, name, sprite, material);
                }
                RecordKind::Particles { material, count, offset, velocity, gravity, size } => {
                    let material = self.material(material);
                    for _ in 0..*count {
                        let v: [f32; 3] = std::array::from_fn(|i| random.range(velocity[0][i], velocity[1][i]));
                        let sprite = EffectSprite {
                            command: r.command,
                            window: r.window,
                            start: game_vec(plan.place(*offset)),
                            velocity: scaled(v),
                            gravity: gravity * plan.scale[2],
                            size: [side([size[0]; 2]), side([size[1]; 2])],
                            grow_pow: 1.0,
                            alpha: [1.0, 0.0],
                            alpha_pow: 1.0,
                        };
                        self.spawn_sprite(commands, root, name.clone(), sprite, material.clone());
                    }
                }
                RecordKind::Sound(_) => {}
            }
        }
        Some(plan.has_sound())
    }

    fn spawn_sprite(
        &self,
        commands: &mut Commands,
        root: Entity,
        name: Name,
        sprite: EffectSprite,
        material: Handle<StandardMaterial>,
    ) {
        let at = Transform::from_translation(sprite.start).with_scale(sprite.size[0].extend(1.0));
        commands.spawn((
            name,
            sprite,
            Mesh3d(self.look.quad.clone()),
            MeshMaterial3d(material),
            at,
            Visibility::Hidden,
            ChildOf(root),
        ));
    }
}

/// A cue's first sample, for events whose effect cannot sound.
fn cue_sound(cue: &Cue, at: Option<[f32; 3]>, owner: OriginalObjectId) -> Option<SoundCue> {
    Some(SoundCue::play(SoundKey::parse(cue.samples.first()?), SoundBus::Effects, at).owned_by(owner))
}

/// Where the objects of the combat messages are, and what the data's cue table plays.
#[derive(SystemParam)]
pub(crate) struct CombatScene<'w, 's> {
    rules: Option<Res<'w, CombatRules>>,
    game: Option<Res<'w, GameRules>>,
    table: Res<'w, ObjectTable>,
    objects: Query<'w, 's, (&'static SimTransform, Option<&'static Weapon>, Option<&'static UnitClass>)>,
    turrets: Query<'w, 's, (&'static TurretPiece, &'static GlobalTransform)>,
}

impl CombatScene<'_, '_> {
    fn object(&self, id: OriginalObjectId) -> Option<(Entity, &SimTransform, Option<&Weapon>)> {
        let e = self.table.entity_of(id.0)?;
        self.objects.get(e).ok().map(|(t, w, _)| (e, t, w))
    }

    /// The cue of `event` for object `id` (its class, if it still stands) and `weapon`.
    fn cue(&self, event: CueEvent, id: OriginalObjectId, weapon: Option<&str>) -> Option<&Cue> {
        let class = self.table.entity_of(id.0).and_then(|e| self.objects.get(e).ok()).and_then(|(_, _, c)| c);
        self.game.as_ref()?.cues.pick(event, class.map(|c| c.0), weapon)
    }

    /// A shooter's muzzle: its turret's place, else above where it stands (game axes).
    fn muzzle(&self, id: OriginalObjectId) -> Option<[f32; 3]> {
        let (entity, t, _) = self.object(id)?;
        let turret = self.turrets.iter().find(|(p, _)| p.object == entity);
        Some(turret.map_or([t.position[0], t.position[1], t.position[2] + LIFT], |(_, g)| {
            iron3d_assets::axes::to_game(g.translation().into())
        }))
    }

    /// Where an object is hit (game axes).
    fn hit(&self, id: OriginalObjectId) -> Option<[f32; 3]> {
        self.object(id).map(|(_, t, _)| [t.position[0], t.position[1], t.position[2] + LIFT])
    }
}

/// Plays the effects of this frame's shots, hits and destructions, as the data's cue
/// table names them (by event, the object's class and the weapon; a fallback per event).
pub(crate) fn play_combat_effects(
    mut commands: Commands,
    mut messages: MessageReader<GameMessage>,
    mut player: EffectPlayer,
    scene: CombatScene,
    look: Res<CombatLook>,
    mut cues: MessageWriter<SoundCue>,
) {
    let Some(rules) = scene.rules.as_deref() else { return };
    let rules = &rules.0;
    for m in messages.read() {
        match &m.kind {
            GameMessageKind::Fired { shooter, weapon, .. } => {
                let Some(w) = rules.weapons.get(usize::from(*weapon)) else { continue };
                let (Some(at), Some(cue)) =
                    (scene.muzzle(shooter.id), scene.cue(CueEvent::Shot, shooter.id, Some(&w.name)))
                else {
                    continue;
                };
                let rule = format!("cue Shot of weapon {}", w.name);
                let played = cue.effect.as_ref().and_then(|name| {
                    player.play(&mut commands, &Play { name, rule: &rule, at, owner: Some(shooter.id), sound: true })
                });
                if played != Some(true) {
                    cues.write_batch(cue_sound(cue, Some(at), shooter.id));
                }
            }
            GameMessageKind::Damaged { target, attacker: Some(attacker), .. } => {
                let kind = scene.object(attacker.id).and_then(|(_, _, w)| w).map(|w| usize::from(w.kind));
                let (Some(w), Some(at)) = (kind.and_then(|k| rules.weapons.get(k)), scene.hit(target.id)) else {
                    continue;
                };
                let Some(name) = scene.cue(CueEvent::Shot, attacker.id, Some(&w.name)).and_then(|c| c.effect.as_ref())
                else {
                    continue;
                };
                let rule = format!("cue Shot of weapon {}", w.name);
                player.play(&mut commands, &Play { name, rule: &rule, at, owner: None, sound: false });
            }
            GameMessageKind::Destroyed { object, position, .. } => {
                let cue = scene.cue(CueEvent::Explosion, object.id, None);
                let played = cue.and_then(|c| c.effect.as_ref()).and_then(|name| {
                    let play = Play { name, rule: "cue Explosion", at: *position, owner: Some(object.id), sound: true };
                    player.play(&mut commands, &play)
                });
                if played.is_none() {
                    spawn_fireball(&mut commands, &look, &mut player.materials, *position);
                }
                if played != Some(true) {
                    cues.write_batch(cue.and_then(|c| cue_sound(c, Some(*position), object.id)));
                }
            }
            _ => {}
        }
    }
}

/// Ages effects (not while paused), sends the sounds that are due and despawns the
/// effects whose lifetime is over.
pub(crate) fn age_effects(
    mut commands: Commands,
    time: Res<Time<Virtual>>,
    pause: Option<Res<State<Pause>>>,
    mut effects: Query<(Entity, &mut PlayingEffect)>,
    mut cues: MessageWriter<SoundCue>,
) {
    let paused = pause.is_some_and(|p| *p.get() == Pause::Paused);
    let dt = if paused { 0.0 } else { time.delta_secs() };
    for (entity, mut effect) in &mut effects {
        if !effect.is_added() {
            effect.age += dt;
        }
        let age = effect.age;
        if effect.sounds.iter().any(|(start, _)| *start <= age) {
            let (due, later): (Vec<_>, Vec<_>) =
                std::mem::take(&mut effect.sounds).into_iter().partition(|(s, _)| *s <= age);
            effect.sounds = later;
            cues.write_batch(due.into_iter().map(|(_, cue)| cue));
        }
        if effect.age >= effect.duration {
            commands.entity(entity).despawn();
        }
    }
}

/// The place of the active 3D camera of the highest order: the world's (the panels'
/// views draw before it).
fn camera_position(cameras: &Query<(&Camera, &GlobalTransform), With<Camera3d>>) -> Option<Vec3> {
    cameras.iter().filter(|(c, _)| c.is_active).max_by_key(|(c, _)| c.order).map(|(_, g)| g.translation())
}

/// Moves, sizes (by [`distance_scale`] too), fades and turns sprites and fades lights by
/// their effect's age.
pub(crate) fn animate_effects(
    effects: Query<(&PlayingEffect, &GlobalTransform)>,
    mut sprites: Query<(&EffectSprite, &ChildOf, &mut Transform, &mut Visibility, &MeshMaterial3d<StandardMaterial>)>,
    mut lights: Query<(&EffectLight, &ChildOf, &mut PointLight, &mut Visibility), Without<EffectSprite>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let camera = camera_position(&cameras);
    for (sprite, parent, mut transform, mut visibility, material) in &mut sprites {
        let Ok((effect, root)) = effects.get(parent.parent()) else { continue };
        let Some(u) = progress(sprite.window, effect.age) else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        visibility.set_if_neq(Visibility::Inherited);
        let t = effect.age - sprite.window[0];
        let at = sprite.start + sprite.velocity * t - Vec3::Y * (0.5 * sprite.gravity * t * t);
        let [from, to] = sprite.size;
        let size = Vec2::new(ease(from.x, to.x, u, sprite.grow_pow), ease(from.y, to.y, u, sprite.grow_pow));
        let mut placed = Transform::from_translation(at).with_scale(size.extend(1.0));
        if let Some(eye) = camera {
            let world = root.translation() + at;
            placed.scale *= distance_scale(eye.distance(world));
            if let Ok(facing) = Dir3::new(eye - world) {
                let up = if facing.dot(Vec3::Y).abs() < 0.999 { Vec3::Y } else { Vec3::Z };
                placed.rotation = Transform::IDENTITY.looking_to(-facing, up).rotation;
            }
        }
        transform.set_if_neq(placed);
        let alpha = ease(sprite.alpha[0], sprite.alpha[1], u, sprite.alpha_pow).clamp(0.0, 1.0);
        if materials.get(&material.0).is_some_and(|m| m.base_color.alpha() != alpha)
            && let Some(mut m) = materials.get_mut(&material.0)
        {
            m.base_color.set_alpha(alpha);
        }
    }
    for (light, parent, mut point, mut visibility) in &mut lights {
        let Ok((effect, _)) = effects.get(parent.parent()) else { continue };
        match progress(light.window, effect.age) {
            Some(u) => {
                visibility.set_if_neq(Visibility::Inherited);
                point.intensity = light.lumens * (1.0 - u);
            }
            None => {
                visibility.set_if_neq(Visibility::Hidden);
            }
        }
    }
}

/// Requests the effects the cue table names when a mission opens, so their materials
/// load before the first shot (and bad ones are reported up front).
pub(crate) fn preload(
    mut library: ResMut<EffectLibrary>,
    rules: Option<Res<GameRules>>,
    game: Option<Res<GameData>>,
    server: Res<AssetServer>,
) {
    let Some(rules) = rules else { return };
    for effect in rules.cues.effects() {
        library.plan(game.as_deref(), &server, effect, &format!("cue effect {effect}"));
    }
}

/// Forgets the resolved effects (the next mission may read another data directory).
pub(crate) fn reset(mut commands: Commands) {
    commands.insert_resource(EffectLibrary::default());
}

#[cfg(test)]
#[path = "effects_tests.rs"]
mod tests;
