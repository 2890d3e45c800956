//! Shared vocabulary of the iron3d plugins: the application states, the ordered
//! simulation system sets, object identity and ownership, the axis rule, and the data
//! that crosses simulation subsystems (components, messages, commands, the clock and
//! the random streams, and the animation state of model pieces). No subsystem logic lives here; only Bevy sub-crates are used,
//! so this crate tests headless in seconds.

mod ai_designs;
mod animation;
mod building;
mod clans;
mod clock;
mod combat;
mod difficulty;
mod goals;
mod grid;
mod ids;
mod inside;
mod layers;
mod messages;
mod motion;
mod orders;
mod parts;
mod places;
pub mod plane;
mod power;
mod profiles;
mod properties;
mod random;
mod rules;
mod saved;
mod sets;
mod sound;
mod space;
mod state;
mod states;
mod table;

pub use ai_designs::{AI_DESIGN_DIR, AiDesign, AiDesigns, DesignStatus};
pub use animation::{PieceAnimation, PieceBinding};
pub use building::{
    BeamCondition, BuilderArrived, BuildingPrice, BuildingPrices, CreationNodeCondition, DomeObstacle, Invulnerable,
    KillRequest, Rung, SPHERE_MARGIN, UnderConstruction, placement_radius,
};
pub use clans::{
    BuildOption, BuildOptions, ChassisType, ClanEconomy, ClanSetup, EconomyBoard, JobView, MindBoard, MineralLode,
    MineralLodes, MissionClans, MissionOutcome, Outcome, Pasture, ProductionBoard, QueueView, ResearchBoard,
    RunScriptEvent, SUPER_AI_SLOTS, ScriptFiles, Seat, Seats, SuperAiSlots, UnitClass,
};
pub use clock::GameClock;
pub use combat::{
    ClanRelations, Health, LastHit, Projectile, Radar, RadarContacts, ShotCounter, Supply, Weapon, relation,
};
pub use difficulty::{DEFAULT_LEVEL_RATIOS, Difficulty, DifficultyLevel};
pub use goals::{EnemyOutVictory, MissionGoals, Objective, ObjectiveChange};
pub use grid::SpatialGrid;
pub use ids::{LogicalId, Movable, ObjectHandle, ObjectKind, OriginalObjectId, Owner, SimObject};
pub use inside::{Aboard, Indoors, Mindless, SizeClass};
pub use iron3d_formats::world::ClanType;
pub use layers::{DataLayer, DataLayers};
pub use messages::{
    Collided, DeleteRequest, DiagnosticKind, DispatchPhase, GameMessage, GameMessageKind, ObjectRef, ProductionEvent,
    RISK_AREA, gmsg,
};
pub use motion::{
    AutoDriver, BuildingCategory, CollisionProxy, Drive, HULL_FOLLOW, Kinematics, ManualControl, MotionLimits,
    MotionRequest, NavState, NavStatus, ORDERABLE_SPEED, SteerIntent,
};
pub use orders::{
    ClearWizardPath, CommandQueue, Designs, Guard, Order, PilotInput, SchemeNames, SchemeRef, SearchFor, SimCommand,
    Site, Ward,
};
pub use parts::{
    BatterySheet, CombatSheet, EfficiencySheet, EngineSheet, FigureSheet, Gear, GunSheet, HitSheet, NodeSheet,
    RadarSheet, RepairSheet, RoundSheet, SeekerSheet, ShieldSheet, StealthSheet, power_channel,
};
pub use places::{Place, Places, model_point, place, world_point};
pub use power::{Efficiency, POWER_TICK_MS, Power, PowerUsage};
pub use profiles::BehaviourProfiles;
pub use properties::{ObjectProperty, PropertyBag};
pub use random::{DEFAULT_SEED, Fnv1a, RandomStream, SimRandom, fnv1a};
pub use rules::GameRules;
pub use sets::{
    BehaviorPhase, ControlPhase, FrameSystems, InputPhase, MissionStart, ProductionPhase, SimSummaries, SimSystems,
    SuperAiPhase, TICK_MS, TICK_SECONDS, World3dPhase,
};
pub use sound::{
    BuildingSelected, InterfaceClick, OrderAcknowledged, SoundAction, SoundBus, SoundCue, SoundKey, UnitResponse,
};
pub use space::{ModelBounds, PresentedTransform, PreviousSimTransform, SimTransform};
pub use state::{ComponentState, DecodeError, Hasher, Hashing, Keep, ResourceState, SimState, StateApp, StateValue};
pub use states::{AppState, MissionLoadPhase, Pause};
pub use table::{ObjectTable, TableLayout};

use bevy_app::{App, Plugin};
use bevy_state::app::AppExtStates;

/// Installs the states, the simulation set order, the shared messages and resources.
#[derive(Debug, Default)]
pub struct CorePlugin;

impl Plugin for CorePlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<AppState>()
            .add_sub_state::<MissionLoadPhase>()
            .add_sub_state::<Pause>()
            .init_resource::<GameClock>()
            .init_resource::<SimRandom>()
            .init_resource::<CommandQueue>()
            .init_resource::<SchemeNames>()
            .init_resource::<Designs>()
            .init_resource::<ObjectTable>()
            .init_resource::<SuperAiSlots>()
            .init_resource::<MissionOutcome>()
            .init_resource::<EnemyOutVictory>()
            .register_type::<EnemyOutVictory>()
            .register_type::<MissionGoals>()
            .init_resource::<ClanRelations>()
            .init_resource::<ResearchBoard>()
            .register_type::<ResearchBoard>()
            .init_resource::<ProductionBoard>()
            .register_type::<ProductionBoard>()
            .init_resource::<MindBoard>()
            .register_type::<MindBoard>()
            .register_type::<BeamCondition>()
            .register_type::<CreationNodeCondition>()
            .register_type::<UnderConstruction>()
            .register_type::<DomeObstacle>()
            .register_type::<Rung>()
            .register_type::<Invulnerable>()
            .register_type::<SizeClass>()
            .register_type::<Indoors>()
            .register_type::<Aboard>()
            .register_type::<Mindless>()
            .register_type::<BuildingPrices>()
            .init_resource::<BuildingPrices>()
            .init_resource::<MineralLodes>()
            .register_type::<MineralLodes>()
            .init_resource::<EconomyBoard>()
            .register_type::<EconomyBoard>()
            .register_type::<PropertyBag>()
            .init_resource::<BuildOptions>()
            .init_resource::<AiDesigns>()
            .register_type::<AiDesigns>()
            .register_type::<BuildOptions>()
            .init_resource::<ShotCounter>()
            .init_resource::<Difficulty>()
            .init_resource::<BehaviourProfiles>()
            .register_type::<Difficulty>()
            .register_type::<DifficultyLevel>()
            .add_message::<RunScriptEvent>()
            .add_message::<GameMessage>()
            .add_message::<DeleteRequest>()
            .add_message::<ClearWizardPath>()
            .add_message::<BuilderArrived>()
            .add_message::<KillRequest>()
            .add_message::<SoundCue>()
            .add_message::<UnitResponse>()
            .add_message::<OrderAcknowledged>()
            .add_message::<BuildingSelected>()
            .add_message::<InterfaceClick>()
            .register_type::<AppState>()
            .register_type::<MissionLoadPhase>()
            .register_type::<Pause>()
            .register_type::<DataLayers>()
            .register_type::<OriginalObjectId>()
            .register_type::<ObjectHandle>()
            .register_type::<SimObject>()
            .register_type::<Movable>()
            .register_type::<ManualControl>()
            .register_type::<AutoDriver>()
            .register_type::<Owner>()
            .register_type::<LogicalId>()
            .register_type::<SimTransform>()
            .register_type::<PreviousSimTransform>()
            .register_type::<PresentedTransform>()
            .register_type::<ModelBounds>()
            .register_type::<PieceAnimation>()
            .register_type::<NavStatus>()
            .register_type::<SteerIntent>()
            .register_type::<MotionRequest>()
            .register_type::<Kinematics>()
            .register_type::<MotionLimits>()
            .register_type::<Drive>()
            .register_type::<CollisionProxy>()
            .register_type::<BuildingCategory>()
            .register_type::<GameClock>()
            .register_type::<SimRandom>()
            .register_type::<CommandQueue>()
            .register_type::<SchemeNames>()
            .register_type::<Designs>()
            .register_type::<ObjectTable>()
            .register_type::<SuperAiSlots>()
            .register_type::<MissionOutcome>()
            .register_type::<UnitClass>()
            .register_type::<ChassisType>()
            .register_type::<CombatSheet>()
            .register_type::<Places>()
            .register_type::<Supply>()
            .register_type::<Power>()
            .register_type::<PowerUsage>()
            .register_type::<Efficiency>()
            .register_type::<Health>()
            .register_type::<LastHit>()
            .register_type::<Weapon>()
            .register_type::<Radar>()
            .register_type::<Projectile>()
            .register_type::<ClanRelations>()
            .register_type::<ShotCounter>();
        saved::declare(app);
        // Known before any object carries it, so a query naming it finds the robots
        // without it (minds count every robot but a mindless one).
        app.world_mut().register_component::<Mindless>();
        sets::configure(app);
    }
}
