//! The data side of loading: a backend prepares objects phase by phase from some
//! source (the game directory, a test fixture) without touching the ECS world.

use bevy_ecs::prelude::Resource;
use iron3d_core::MissionLoadPhase;
use iron3d_formats::Result;
use iron3d_formats::registry::BuildDat;
use iron3d_formats::world::{ArealMap, LandMsh, Tma};
use iron3d_terrain::MissionPath;

/// An object ready to be constructed.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedObject {
    /// Identity from the mission file.
    pub id: u32,
    /// Display name.
    pub name: String,
    /// Direct prototype key or unit scheme path, as placed.
    pub key: String,
    /// Components after expansion (one for a direct key).
    pub components: Vec<crate::ObjectComponent>,
    /// Clan index.
    pub clan: i32,
    /// The TMA record (position, orientation `R = Rz·Ry·Rx`, scale, raw words).
    pub record: crate::PlacedRecord,
    /// The property bag.
    pub properties: iron3d_core::PropertyBag,
    /// What the prototype resolution found besides the components (empty until then).
    pub extras: ObjectExtras,
}

impl PreparedObject {
    /// An object `id` to resolve from `key` (a unit scheme path or a prototype key): no
    /// components, clan 0, a record naming the key, no properties.
    pub fn probe(id: u32, key: &str) -> Self {
        Self {
            id,
            name: key.into(),
            key: key.into(),
            components: Vec::new(),
            clan: 0,
            record: crate::PlacedRecord { resource_name: key.into(), ..crate::PlacedRecord::default() },
            properties: iron3d_core::PropertyBag::default(),
            extras: ObjectExtras::default(),
        }
    }
}

/// Data accumulated by the preparation phases (backends keep their own state).
#[derive(Resource, Default)]
pub struct Prepared {
    /// Objects to construct.
    pub objects: Vec<PreparedObject>,
    /// The mission file (`data.tma`) from `Context` until `Description` takes the
    /// objects, paths and clans from it.
    pub mission_file: Option<Tma>,
    /// The terrain's land path (`DATA\MAPS\x\Land`, without extension), once known.
    pub land_path: Option<String>,
    /// The terrain (`Land.msh`), published at registration.
    pub terrain: Option<LandMsh>,
    /// The areal map (`Land.map`), published at registration.
    pub areals: Option<ArealMap>,
    /// The building categories (`BuildDat.lst`), published at registration.
    pub build_dat: Option<BuildDat>,
    /// The mission's paths, published at registration.
    pub paths: Vec<MissionPath>,
    /// The mission's mineral lodes, published at registration.
    pub lodes: Vec<iron3d_core::MineralLode>,
    /// `Behavior.ini` of the game root (typed and checked), published at registration;
    /// every key absent when the game has none.
    pub behavior_ini: iron3d_formats::config::BehaviorIni,
    /// `Iron_3D.ini` `[LEVEL_RATIO]` (easy, normal, hard), published into
    /// `iron3d_core::Difficulty` at registration; `None` keeps the original's values.
    pub level_ratios: Option<[f32; 3]>,
    /// The clan records in clan order (`docs/reference/world.md` §1.4), published with
    /// [`Prepared::script_files`] as `iron3d_core::MissionClans` at registration.
    pub clans: Vec<iron3d_core::ClanSetup>,
    /// Where the clans' script packages are read from (SuperAI loads them at scenario
    /// start); without it no `MissionClans` is published.
    pub script_files: Option<std::sync::Arc<dyn iron3d_core::ScriptFiles>>,
    /// The data's layers (names and content fingerprints), published as
    /// `iron3d_core::DataLayers` at registration; `None` publishes none.
    pub layers: Option<iron3d_core::DataLayers>,
    /// The data's behaviour profiles (`behpsp.res`), published as
    /// `iron3d_core::BehaviourProfiles` at registration.
    pub profiles: Option<iron3d_core::BehaviourProfiles>,
    /// The data's rules file, published as `iron3d_core::GameRules` at registration;
    /// `None` publishes none (the subsystems keep the rules they have).
    pub rules: Option<iron3d_core::GameRules>,
}

/// What the prototype resolution of one object found besides its components, inserted
/// at construction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjectExtras {
    /// The Unit DAT class word, for an object placed from a unit scheme
    /// (`iron3d_core::UnitClass`).
    pub unit_class: Option<u32>,
    /// Its chassis's `ChassisType` (its first component's behaviour profile's), for an
    /// object placed from a unit scheme whose chassis names one
    /// (`iron3d_core::ChassisType`).
    pub chassis_type: Option<u32>,
    /// The movement limits from the object's data (components' CTLDs, its
    /// `MaxSpeedPercent`), inserted on movable objects.
    pub motion: Option<iron3d_core::MotionLimits>,
    /// The body and arms its parts' data describe (objects with a node table).
    pub combat: Option<iron3d_core::CombatSheet>,
    /// The places of its model's hall way (buildings).
    pub places: Option<iron3d_core::Places>,
}

/// Prepares mission data. Called once per preparation phase (`Context` through
/// `Resources`); reports its item counts through `progress(done, total)`.
pub trait MissionBackend: Send + Sync + 'static {
    /// Runs `phase` for `mission`, adding to `prepared`.
    fn prepare(
        &self,
        phase: MissionLoadPhase,
        mission: &str,
        prepared: &mut Prepared,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<()>;

    /// Resolves one object while the mission runs (production), exactly as the
    /// `Prototypes` phase resolves a placed object: fills `object.components` from its
    /// key (a unit scheme or a prototype key) and `object.extras` (class, parts, limits).
    ///
    /// # Errors
    /// The located resolution error; by default, that the backend cannot do it.
    fn prepare_object(&self, object: &mut PreparedObject) -> Result<()> {
        Err(iron3d_formats::Error::rule(
            "runtime_object",
            format!("this mission backend cannot prepare {} at run time", object.key),
        ))
    }

    /// Resolves `object` as [`MissionBackend::prepare_object`] does, its scheme read from
    /// `scheme` (a unit file the game keeps, `iron3d_core::Designs`) instead of its key.
    ///
    /// # Errors
    /// The located resolution error; by default, that the backend cannot do it.
    fn prepare_design(&self, object: &mut PreparedObject, scheme: &[u8]) -> Result<()> {
        let _ = scheme;
        Err(iron3d_formats::Error::rule(
            "runtime_design",
            format!("this mission backend cannot prepare the design {} at run time", object.key),
        ))
    }

    /// The game directory's backend, which answers the designer's questions (a part's
    /// labels, a design's body); `None` for any other.
    fn game(&self) -> Option<&crate::GameMissionBackend> {
        None
    }
}
