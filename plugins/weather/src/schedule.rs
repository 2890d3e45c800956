//! The weather schedule: the iron3d project's own, versioned RON file `weather.ron`
//! beside a mission's `sky.wea`. The original keeps its schedule in `sky.ske`, whose
//! layout is undocumented (`docs/reference/registry.md` §5.8); that file is never read or written here.
//! Everything in `weather.ron` is a project decision: the keys over mission time with
//! rain, snow and lightning intensity (interpolated linearly, held before the first and
//! after the last key), the sample names, the `LightningBounds` strikes fall in, and
//! the look of particles, bolts and flashes.

use serde::Deserialize;

/// The schedule file version this reader understands.
pub const VERSION: u32 = 1;
/// The schedule's file name in a mission folder.
pub const FILE_NAME: &str = "weather.ron";

/// Where a schedule comes from (only the project's own files exist).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Origin {
    /// Designed by the iron3d project.
    Project,
}

/// Rain, snow and lightning intensity, each `0..=1`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize, bevy::reflect::Reflect)]
pub struct Intensity {
    /// Rain particles and loop volume.
    pub rain: f32,
    /// Snow particles.
    pub snow: f32,
    /// Lightning (shortens the delay between strikes, `docs/reference/runtime.md` §8.3).
    pub lightning: f32,
}

impl Intensity {
    fn lerp(self, other: Self, k: f32) -> Self {
        let mix = |a: f32, b: f32| a + (b - a) * k;
        Self {
            rain: mix(self.rain, other.rain),
            snow: mix(self.snow, other.snow),
            lightning: mix(self.lightning, other.lightning),
        }
    }
}

/// One key of the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Key {
    /// Mission time in seconds (game time: stops on pause).
    pub time: f32,
    /// Rain intensity.
    pub rain: f32,
    /// Snow intensity.
    pub snow: f32,
    /// Lightning intensity.
    pub lightning: f32,
}

impl Key {
    /// The key's intensities.
    pub fn intensity(&self) -> Intensity {
        Intensity { rain: self.rain, snow: self.snow, lightning: self.lightning }
    }
}

/// The sample names (a bare name = the mission's sound library, `archive/name` selects
/// the archive, `docs/reference/runtime.md` §8.2).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sounds {
    /// The rain loop.
    pub rain: String,
    /// The thunder one-shot of a strike (none: strikes are silent).
    #[serde(default)]
    pub thunder: Option<String>,
}

/// The area strikes fall in, in game space (Z up): X and Y are sampled inside
/// `min..max`, Z is copied (`docs/reference/runtime.md` §8.3).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightningBounds {
    /// Lower X, Y corner.
    pub min: [f32; 2],
    /// Upper X, Y corner.
    pub max: [f32; 2],
    /// The strike height (the bolt's lower end).
    pub z: f32,
}

/// An RGBA colour (linear components `0..=1`; emissive bolts may exceed 1).
pub type Rgba = [f32; 4];

/// How weather looks (the original takes it from `sky.wea`'s materials and the effect
/// header; until those are played these numbers stand in).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Look {
    /// Rain streak colour.
    pub rain: Rgba,
    /// Snow flake colour.
    pub snow: Rgba,
    /// The longest rain streak drawn (game units), so slow frames draw no rods.
    pub streak_max: f32,
    /// Bolt colour (emissive).
    pub bolt: Rgba,
    /// Bolt ribbon width (game units).
    pub bolt_width: f32,
    /// How long a bolt and its flash show (seconds).
    pub flash_seconds: f32,
    /// Peak flash light intensity (lumens).
    pub flash_lumens: f32,
    /// Flash light range (game units).
    pub flash_range: f32,
    /// The sky under full rain or snow.
    pub overcast: Overcast,
}

/// How rain and snow darken the sky: at intensity `i` the sky colour moves `i` of the way
/// to `sky`, and the scene's brightness (the camera exposure) to `1 − i·(1 − light)` of
/// its clear-sky value.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overcast {
    /// Sky and fog colour at full intensity (linear RGB).
    pub sky: [f32; 3],
    /// Brightness factor at full intensity (`0..=1`).
    pub light: f32,
}

/// The file as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    origin: Origin,
    sounds: Sounds,
    lightning_bounds: LightningBounds,
    look: Look,
    keys: Vec<Key>,
}

/// A mission's weather schedule, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct WeatherSchedule {
    /// Sample names.
    pub sounds: Sounds,
    /// Where strikes fall.
    pub lightning_bounds: LightningBounds,
    /// Colours, sizes and durations.
    pub look: Look,
    /// Keys in strictly increasing time (at least one).
    pub keys: Vec<Key>,
}

/// A schedule file that cannot be used, naming the file and the entry.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleError {
    /// Not RON of the expected shape.
    #[error("{file}: {detail}")]
    Syntax {
        /// The file.
        file: String,
        /// Parser message with line and column.
        detail: String,
    },
    /// Another version.
    #[error("{file}: version {found}, this reader understands version {VERSION}")]
    Version {
        /// The file.
        file: String,
        /// The version found.
        found: u32,
    },
    /// A value out of range.
    #[error("{file}: {entry}: {detail}")]
    Invalid {
        /// The file.
        file: String,
        /// The entry (`keys[3].rain`, `lightning_bounds`, ...).
        entry: String,
        /// What is wrong.
        detail: String,
    },
}

impl WeatherSchedule {
    /// Parses and checks the text of `file`.
    ///
    /// # Errors
    /// A [`ScheduleError`] naming the file and the entry.
    pub fn parse(file: &str, text: &str) -> Result<Self, ScheduleError> {
        let raw: File = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .map_err(|e| ScheduleError::Syntax { file: file.into(), detail: e.to_string() })?;
        if raw.version != VERSION {
            return Err(ScheduleError::Version { file: file.into(), found: raw.version });
        }
        let invalid =
            |entry: String, detail: &str| ScheduleError::Invalid { file: file.into(), entry, detail: detail.into() };
        let Origin::Project = raw.origin;
        if raw.keys.is_empty() {
            return Err(invalid("keys".into(), "no key"));
        }
        let mut last = f32::NEG_INFINITY;
        for (i, key) in raw.keys.iter().enumerate() {
            if !key.time.is_finite() || key.time < 0.0 || key.time <= last {
                return Err(invalid(format!("keys[{i}].time"), "times must be finite, >= 0 and increasing"));
            }
            last = key.time;
            let Intensity { rain, snow, lightning } = key.intensity();
            for (name, v) in [("rain", rain), ("snow", snow), ("lightning", lightning)] {
                if !(0.0..=1.0).contains(&v) {
                    return Err(invalid(format!("keys[{i}].{name}"), "intensity outside 0..=1"));
                }
            }
        }
        let b = raw.lightning_bounds;
        let finite = b.min.iter().chain(&b.max).all(|v| v.is_finite()) && b.z.is_finite();
        if !finite || b.min[0] > b.max[0] || b.min[1] > b.max[1] {
            return Err(invalid("lightning_bounds".into(), "finite, min <= max"));
        }
        let l = raw.look;
        let positive = [l.streak_max, l.bolt_width, l.flash_seconds, l.flash_lumens, l.flash_range];
        if !positive.iter().all(|v| v.is_finite() && *v > 0.0) {
            return Err(invalid("look".into(), "sizes, durations and the flash must be finite and > 0"));
        }
        let o = l.overcast;
        let sky_ok = o.sky.iter().all(|v| (0.0..=1.0).contains(v));
        if !(sky_ok && o.light > 0.0 && o.light <= 1.0) {
            return Err(invalid("look.overcast".into(), "colour in 0..=1, light factor in (0, 1]"));
        }
        let thunder = raw.sounds.thunder.iter().map(|t| ("sounds.thunder", t));
        for (name, sample) in [("sounds.rain", &raw.sounds.rain)].into_iter().chain(thunder) {
            if sample.trim().is_empty() {
                return Err(invalid(name.into(), "empty sample name"));
            }
        }
        Ok(Self { sounds: raw.sounds, lightning_bounds: b, look: l, keys: raw.keys })
    }

    /// The intensities at mission time `t` seconds: linear between the keys around
    /// `t`, the first key's before it, the last key's after it.
    pub fn intensity_at(&self, t: f32) -> Intensity {
        let after = self.keys.partition_point(|k| k.time <= t);
        match (after.checked_sub(1).and_then(|i| self.keys.get(i)), self.keys.get(after)) {
            (Some(a), Some(b)) => a.intensity().lerp(b.intensity(), (t - a.time) / (b.time - a.time)),
            (Some(only), None) | (None, Some(only)) => only.intensity(),
            (None, None) => Intensity::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"(
        version: 1,
        origin: Project,
        sounds: (rain: "ATM_RAIN1.WAV", thunder: "sounds.lib/ATM_THUND1.WAV"),
        lightning_bounds: (min: (0.0, 10.0), max: (100.0, 200.0), z: 5.0),
        look: (rain: (0.7, 0.75, 0.8, 0.3), snow: (1.0, 1.0, 1.0, 0.8), streak_max: 2.0,
               bolt: (4.0, 4.5, 6.0, 1.0), bolt_width: 3.0, flash_seconds: 0.3,
               flash_lumens: 1e10, flash_range: 3000.0, overcast: (sky: (0.3, 0.3, 0.4), light: 0.5)),
        keys: [
            (time: 10.0, rain: 0.2, snow: 0.0, lightning: 1.0),
            (time: 20.0, rain: 0.6, snow: 0.5, lightning: 0.0),
        ],
    )"#;

    #[test]
    fn intensity_is_interpolated_between_keys_and_held_outside() {
        let s = WeatherSchedule::parse("weather.ron", TEXT).unwrap();
        assert_eq!(s.intensity_at(0.0), s.keys[0].intensity(), "held before the first key");
        assert_eq!(s.intensity_at(99.0), s.keys[1].intensity(), "held after the last key");
        let mid = s.intensity_at(15.0);
        assert!((mid.rain - 0.4).abs() < 1e-6 && (mid.snow - 0.25).abs() < 1e-6 && (mid.lightning - 0.5).abs() < 1e-6);
        let quarter = s.intensity_at(12.5);
        assert!((quarter.rain - 0.3).abs() < 1e-6, "{quarter:?}");
        assert_eq!(s.intensity_at(20.0), s.keys[1].intensity());
    }

    #[test]
    fn bad_files_are_refused_with_file_and_entry() {
        let err = |text: &str| WeatherSchedule::parse("m/weather.ron", text).unwrap_err();
        assert!(matches!(err(&TEXT.replace("version: 1", "version: 2")), ScheduleError::Version { found: 2, .. }));
        let e = err(&TEXT.replace("snow: 0.5", "snow: 1.5"));
        assert_eq!(e.to_string(), "m/weather.ron: keys[1].snow: intensity outside 0..=1");
        let e = err(&TEXT.replace("time: 20.0", "time: 10.0"));
        assert!(matches!(&e, ScheduleError::Invalid { entry, .. } if entry == "keys[1].time"), "{e}");
        let e = err(&TEXT.replace("max: (100.0", "max: (-1.0"));
        assert!(matches!(&e, ScheduleError::Invalid { entry, .. } if entry == "lightning_bounds"), "{e}");
        let e = err(&TEXT.replace("flash_seconds: 0.3", "flash_seconds: 0.0"));
        assert!(matches!(&e, ScheduleError::Invalid { entry, .. } if entry == "look"), "{e}");
        let e = err(&TEXT.replace("light: 0.5", "light: 1.5"));
        assert!(matches!(&e, ScheduleError::Invalid { entry, .. } if entry == "look.overcast"), "{e}");
        let e = err(&TEXT.replace("\"ATM_RAIN1.WAV\"", "\"\""));
        assert!(matches!(&e, ScheduleError::Invalid { entry, .. } if entry == "sounds.rain"), "{e}");
        let e = err(&TEXT.replace("origin: Project", "origin: Spec"));
        assert!(matches!(&e, ScheduleError::Syntax { detail, .. } if detail.starts_with("3:17")), "located: {e}");
        let e = err(&TEXT.replace("keys: [", "keys: [ ], old: ["));
        assert!(matches!(e, ScheduleError::Syntax { .. }), "{e}");
        let no_keys = TEXT.split("keys:").next().unwrap().to_string() + "keys: [])";
        assert!(matches!(err(&no_keys), ScheduleError::Invalid { entry, .. } if entry == "keys"));
    }
}
