//! Typed views of the known INI files (`docs/reference/runtime.md` §2.2–2.4): `Behavior.ini`,
//! `ArealMap.ini`, `Iron_3D.ini`. Each field is `None` when the key is absent (absent ≠
//! explicit default) and otherwise a [`Setting`] with the raw text and the parsed value.
//! Key names are *confirmed*; meanings are *inferred* from names and consumers.

use super::ini::{IniFile, IniValue, parse_int};
use crate::error::{Error, Result};

/// A present key: raw text and parsed value (`None` when the text does not parse).
#[derive(Debug, Clone, PartialEq)]
pub struct Setting<T> {
    /// Raw value bytes as stored.
    pub raw: Vec<u8>,
    /// Parsed value.
    pub value: Option<T>,
}

/// Value types of typed settings.
pub trait SettingValue: Sized {
    /// Parses raw bytes.
    fn parse(raw: &IniValue<'_>) -> Option<Self>;
    /// Formats for writing.
    fn format(&self) -> Vec<u8>;
}

impl SettingValue for i64 {
    fn parse(raw: &IniValue<'_>) -> Option<Self> {
        parse_int(raw.raw)
    }
    fn format(&self) -> Vec<u8> {
        self.to_string().into_bytes()
    }
}

impl SettingValue for f64 {
    fn parse(raw: &IniValue<'_>) -> Option<Self> {
        raw.as_float()
    }
    fn format(&self) -> Vec<u8> {
        self.to_string().into_bytes()
    }
}

impl SettingValue for String {
    fn parse(raw: &IniValue<'_>) -> Option<Self> {
        Some(raw.as_text())
    }
    fn format(&self) -> Vec<u8> {
        let (b, _, _) = encoding_rs::WINDOWS_1251.encode(self);
        b.into_owned()
    }
}

impl<T: SettingValue> Setting<T> {
    /// A new setting from a value (authoring).
    pub fn new(value: T) -> Self {
        Self { raw: value.format(), value: Some(value) }
    }

    fn read(v: Option<IniValue<'_>>) -> Option<Self> {
        v.map(|v| Self { raw: v.raw.to_vec(), value: T::parse(&v) })
    }
}

macro_rules! typed_ini {
    ($(#[$doc:meta])* $name:ident, section: $section:expr, { $($(#[$fdoc:meta])* $field:ident : $ty:ty = $key:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name {
            $($(#[$fdoc])* #[doc = concat!("Key `", $key, "`.")] pub $field: Option<Setting<$ty>>,)*
        }

        impl $name {
            /// Section in which new keys are written (`None` = top of the file).
            pub const SECTION: Option<&'static str> = $section;
            /// Every key name of this struct, in declaration order.
            pub const KEYS: &'static [&'static str] = &[$($key),*];

            /// The first present key whose text does not parse as its type: its name and
            /// raw text.
            pub fn first_unparsed(&self) -> Option<(&'static str, &[u8])> {
                $(if let Some(Setting { raw, value: None }) = &self.$field {
                    return Some(($key, raw.as_slice()));
                })*
                None
            }

            /// Reads the known keys (looked up in any section, first match wins).
            pub fn from_ini(ini: &IniFile) -> Self {
                Self { $($field: Setting::read(ini.get(None, $key)),)* }
            }

            /// Writes every present setting's raw text into `ini` (existing lines are
            /// edited in place, missing keys are appended to [`Self::SECTION`]).
            pub fn write_into(&self, ini: &mut IniFile) -> Result<()> {
                $(if let Some(s) = &self.$field {
                    let section = if ini.get(None, $key).is_some() { None } else { Self::SECTION };
                    ini.set(section, $key, &s.raw)?;
                })*
                Ok(())
            }
        }
    };
}

typed_ini!(
    /// `Behavior.ini` (`Behavior.dll`): demo keys and the path-finding / network keys.
    BehaviorIni, section: None, {
    /// Log file name.
    log_file: String = "LogFile",
    /// Save the log (switch).
    save_log: i64 = "SaveLog",
    /// Maximal error level.
    max_error_level: i64 = "MaxErrorLevel",
    /// Default error level.
    def_error_level: i64 = "DefErrorLevel",
    /// Debug look mode (switch).
    look_bug_mode: i64 = "LookBugMode",
    /// Draw vectors (switch).
    show_vectors: i64 = "ShowVectors",
    /// Debug drawing without Z buffer (switch).
    no_z_buffer: i64 = "NoZBuffer",
    /// Lock behaviour (switch).
    lock_behaviour: i64 = "LockBehaviour",
    /// Debug keys (switch).
    use_debug_key: i64 = "UseDebugKey",
    /// Give a default order (switch).
    give_default_order: i64 = "GiveDefaultOrder",
    /// Phase of the default order.
    default_order_phase: i64 = "DefaultOrderPhase",
    /// Deterministic mode (switch).
    determin_mode: i64 = "DeterminMode",
    /// Immortal hero (switch).
    immortal_hero: i64 = "ImmortalHero",
    /// Use the Wizard (switch).
    use_wizard: i64 = "UseWizard",
    /// Distance at which a building counts as hit.
    path_find_building_hit_dist: f64 = "PathFind_BuildingHitDist",
    /// "Near a building" reaction distance.
    path_find_building_nearest_dist: f64 = "PathFind_BuildingNearestDist",
    /// Speed percentage near buildings.
    path_find_near_build_speed_percent: f64 = "PathFind_NearBuildSpeedPercent",
    /// Local corridor radius.
    path_find_corridor_radius: f64 = "PathFind_CorridorRadius",
    /// Coefficient near doors/gates.
    path_find_near_door_coeff: f64 = "PathFind_NearDoorCoeff",
    /// Step used to leave a building footprint.
    path_find_step_off_building: f64 = "PathFind_fStepOffBuilding",
    /// Acceleration limit.
    path_find_max_accel: f64 = "PathFind_MaxAccel",
    /// Rotation-rate limit.
    path_find_max_rotation: f64 = "PathFind_MaxRotation",
    /// Trajectory discretisation step.
    path_find_step_dist: f64 = "PathFind_fStepDist",
    /// Minimum points per trajectory.
    path_find_min_point_in_trajectory: i64 = "PathFind_MinPointInTrajectory",
    /// Timeout for network resource transfer.
    network_resource_transfer_max_delay: i64 = "Network_ResourceTransferMaxDelay",
});

impl BehaviorIni {
    /// Every present key parses, and every `PathFind_*` key is a finite positive number
    /// (they are distances, factors and limits; the project refuses the rest rather
    /// than guess a repair).
    ///
    /// # Errors
    /// A located error naming the key and its text.
    pub fn check(&self) -> Result<()> {
        let text = |raw: &[u8]| String::from_utf8_lossy(raw).into_owned();
        if let Some((key, raw)) = self.first_unparsed() {
            return Err(Error::rule("setting_value", format!("`{}` is not a value of its type", text(raw)))
                .via(format!("key {key}")));
        }
        let numbers = [
            ("PathFind_BuildingHitDist", &self.path_find_building_hit_dist),
            ("PathFind_BuildingNearestDist", &self.path_find_building_nearest_dist),
            ("PathFind_NearBuildSpeedPercent", &self.path_find_near_build_speed_percent),
            ("PathFind_CorridorRadius", &self.path_find_corridor_radius),
            ("PathFind_NearDoorCoeff", &self.path_find_near_door_coeff),
            ("PathFind_fStepOffBuilding", &self.path_find_step_off_building),
            ("PathFind_MaxAccel", &self.path_find_max_accel),
            ("PathFind_MaxRotation", &self.path_find_max_rotation),
            ("PathFind_fStepDist", &self.path_find_step_dist),
        ];
        let bad = |v: f64| !(v.is_finite() && v > 0.0);
        if let Some((key, s)) = numbers.iter().find(|(_, s)| s.as_ref().and_then(|s| s.value).is_some_and(bad)) {
            let raw = s.as_ref().map_or(String::new(), |s| text(&s.raw));
            return Err(Error::rule("setting_range", format!("`{raw}` is not a finite positive number"))
                .via(format!("key {key}")));
        }
        match &self.path_find_min_point_in_trajectory {
            Some(Setting { raw, value: Some(v) }) if *v < 1 => {
                Err(Error::rule("setting_range", format!("`{}` is not a positive count", text(raw)))
                    .via("key PathFind_MinPointInTrajectory"))
            }
            _ => Ok(()),
        }
    }
}

typed_ini!(
    /// `ArealMap.ini`: debug visualisation switches of areals and hallways.
    ArealMapIni, section: None, {
    /// Show areals.
    show_areals: i64 = "ShowAreals",
    /// Areals without Z buffer.
    areal_no_z_buffer: i64 = "Areal_NoZBuffer",
    /// Hallways without Z buffer.
    hallway_no_z_buffer: i64 = "HallWay_NoZBuffer",
    /// Edge lift.
    edge_up: i64 = "EdgeUp",
    /// Run Behavior debugging.
    run_beh_debug: i64 = "RunBehDebug",
});

typed_ini!(
    /// `Iron_3D.ini` display, input and sound settings (sections `[CS]`,
    /// `[MULTIPLAYER]`, `[TEMP]`, `[LEVEL_RATIO]`; the section of each key is not given by
    /// the spec, so keys are looked up in any section and new ones go to `[CS]`).
    Iron3dIni, section: Some("CS"), {
    /// Display width.
    display_width: i64 = "DISPLAY_WIDTH",
    /// Display height.
    display_height: i64 = "DISPLAY_HEIGHT",
    /// Colour depth.
    bitdepth: i64 = "BITDEPTH",
    /// Direct3D card index.
    current_d3dcard: i64 = "CURRENT_D3DCARD",
    /// Windowed mode (switch).
    window_mode: i64 = "WINDOW_MODE",
    /// Software cursor (switch).
    force_software_cursor: i64 = "FORCE_SOFTWARE_CURSOR",
    /// Render quality.
    render_quality: i64 = "RENDER_QUALITY",
    /// Reflections (switch).
    reflections: i64 = "REFLECTIONS",
    /// Emboss bump mapping (switch).
    emboss_bump: i64 = "EMBOSS_BUMP",
    /// Environment bump mapping (switch).
    embm: i64 = "EMBM",
    /// Play CD music (switch).
    play_cd_music: i64 = "PLAY_CD_MUSIC",
    /// Mouse sensitivity.
    mouse_sens: i64 = "MOUSE_SENS",
    /// Joystick sensitivity.
    joy_sens: i64 = "JOY_SENS",
    /// Invert mouse Y (switch).
    mouse_rev_y: i64 = "MOUSE_REV_Y",
    /// Invert joystick Y (switch).
    joy_rev_y: i64 = "JOY_REV_Y",
    /// Joystick enabled (switch).
    joy_enable: i64 = "JOY_ENABLE",
    /// Subtitles (switch).
    subtitles: i64 = "SUBTITLES",
    /// Music source path.
    force_cd_sound: String = "FORCE_CD_SOUND",
    /// Part 2: effects volume.
    sfx_volume: i64 = "SFX_VOLUME",
    /// Part 2: CD volume.
    cd_volume: i64 = "CD_VOLUME",
    /// Part 2: debug keys.
    debug_keys_on: i64 = "DEBUG_KEYS_ON",
    /// Part 2: map alpha.
    map_alpha128: i64 = "MAP_ALPHA128",
    /// Non-zero: the designer lists every part of the tree, researched or not
    /// (`[CS]`; openparkan `docs/38-designs.md`, read; the shipped file lacks it).
    full_research_tree: i64 = "FULL_RESEARCH_TREE",
    /// Non-zero: the designer's Defence and Offence are shown as percentages between
    /// their MIN and MAX (`[TEMP]`, set in the shipped file).
    normalize: i64 = "NORMALIZE",
    /// Offence at 0 % (`[TEMP]`; 0 in the shipped file).
    offence_min: f64 = "OFFENCE_MIN",
    /// Offence at 100 % (`[TEMP]`; 6550 in the shipped file).
    offence_max: f64 = "OFFENCE_MAX",
    /// Defence at 0 % (`[TEMP]`; 0 in the shipped file).
    defence_min: f64 = "DEFENCE_MIN",
    /// Defence at 100 % (`[TEMP]`; 24400 in the shipped file).
    defence_max: f64 = "DEFENCE_MAX",
});
