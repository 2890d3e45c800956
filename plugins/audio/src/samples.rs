//! Samples: a [`SoundKey`] resolved to a library entry of the game directory, decoded
//! once by the formats crate (PCM or MS ADPCM) and cached per (library, name), so one
//! decoded sample serves every source that plays it (`docs/reference/runtime.md` §10.1). The
//! four load results of §10.2 stay distinct (`entry_missing`, `entry_empty` — never
//! handed to the RIFF parser — `wave_invalid`, success), plus an unreadable library;
//! every failure names the full lookup chain: mission, library (as named and as found
//! on disk) and entry.
//!
//! Entries are read straight from the game directory rather than through the asset
//! server: a missing and an empty entry would both be a failed load there.

use bevy::prelude::*;
use iron3d_core::{AppState, SoundKey};
use iron3d_formats::sound::{DecodedSample, SoundLoad};
use iron3d_vfs::{GameDir, fold_path};
use std::collections::HashMap;
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SampleCache>().register_type::<SampleCache>().add_systems(OnEnter(AppState::Loading), clear);
}

/// The library a bare sample name means: the standard sound archive of the game
/// directory (`docs/reference/runtime.md` §2.7; the project's reading of "the mission's sound
/// library", which no mission file declares).
pub const MISSION_SOUND_LIBRARY: &str = "sounds.lib";

/// Where a sample was looked for.
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub struct LookupChain {
    /// The mission that asked (empty outside a mission).
    pub mission: String,
    /// The library as named (the mission's library for a bare name).
    pub library: String,
    /// The library file found in the game directory (`None`: not found).
    pub path: Option<String>,
    /// The entry.
    pub entry: String,
}

impl std::fmt::Display for LookupChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mission = if self.mission.is_empty() { "(no mission)" } else { &self.mission };
        let path = self.path.as_deref().unwrap_or("not in the game directory");
        write!(f, "mission {mission} -> library {} ({path}) -> entry {}", self.library, self.entry)
    }
}

/// Why a sample cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Reflect)]
#[non_exhaustive]
pub enum SampleError {
    /// No such key in the library.
    #[error("entry_missing: {0}")]
    EntryMissing(LookupChain),
    /// The key is present with a payload of size 0.
    #[error("entry_empty: {0}")]
    EntryEmpty(LookupChain),
    /// The RIFF/WAVE framing or format chunk is invalid.
    #[error("wave_invalid: {0}: {1}")]
    WaveInvalid(LookupChain, String),
    /// The library itself is missing or unreadable.
    #[error("library_unavailable: {0}: {1}")]
    LibraryUnavailable(LookupChain, String),
    /// No game directory is open.
    #[error("no_game_data: {0}")]
    NoGameData(LookupChain),
}

impl SampleError {
    /// The stable result name (`entry_missing`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Self::EntryMissing(_) => "entry_missing",
            Self::EntryEmpty(_) => "entry_empty",
            Self::WaveInvalid(..) => "wave_invalid",
            Self::LibraryUnavailable(..) => "library_unavailable",
            Self::NoGameData(_) => "no_game_data",
        }
    }
}

/// The library and entry a key names (a bare name: [`MISSION_SOUND_LIBRARY`]).
pub fn resolve(key: &SoundKey) -> SoundKey {
    let library = if key.library.is_empty() { MISSION_SOUND_LIBRARY } else { &key.library };
    SoundKey { library: library.to_string(), name: key.name.clone() }
}

/// Reads and decodes one sample; `mission` only labels the lookup chain.
///
/// # Errors
/// The distinct results of `docs/reference/runtime.md` §10.2 and an unavailable library, each with its chain.
pub fn load(game: Option<&GameDir>, key: &SoundKey, mission: &str) -> Result<DecodedSample, SampleError> {
    let key = resolve(key);
    let mut chain = LookupChain { mission: mission.to_string(), library: key.library, path: None, entry: key.name };
    let Some(game) = game else { return Err(SampleError::NoGameData(chain)) };
    chain.path = game.resolve(&chain.library).map(|p| p.display().to_string());
    let archive =
        game.archive(&chain.library).map_err(|e| SampleError::LibraryUnavailable(chain.clone(), e.to_string()))?;
    let payload = match archive.find(&chain.entry) {
        None => None,
        Some(i) => {
            Some(archive.read_index(i).map_err(|e| SampleError::LibraryUnavailable(chain.clone(), e.to_string()))?)
        }
    };
    match SoundLoad::from_lookup(payload.as_deref()) {
        SoundLoad::EntryMissing => Err(SampleError::EntryMissing(chain)),
        SoundLoad::EntryEmpty => Err(SampleError::EntryEmpty(chain)),
        SoundLoad::WaveInvalid(e) => Err(SampleError::WaveInvalid(chain, e.to_string())),
        SoundLoad::DecodedSample(s) => Ok(s),
    }
}

/// A decoded sample and, when a device plays, its kira source.
#[derive(Debug)]
pub struct Sample {
    /// The decoded samples.
    pub decoded: DecodedSample,
    /// The kira source made from them (`None` without a device).
    pub source: Option<Handle<bevy_kira_audio::AudioSource>>,
}

/// Every sample looked up in this mission, by folded (library, name); failures are
/// cached too, so a missing sample is reported once, not on every cue.
#[derive(Resource, Debug, Default, Reflect)]
#[reflect(Resource)]
pub struct SampleCache {
    /// Samples decoded (one per distinct key).
    pub decoded: u32,
    /// Keys that failed.
    pub failed: u32,
    #[reflect(ignore)]
    entries: HashMap<(String, String), Result<Arc<Sample>, SampleError>>,
}

impl SampleCache {
    /// The cached sample of `key`, loading it on first use (`make_source` turns the
    /// decoded samples into a kira source when a device plays).
    ///
    /// # Errors
    /// The cached failure of the key.
    pub fn get_or_load(
        &mut self,
        key: &SoundKey,
        load: impl FnOnce() -> Result<DecodedSample, SampleError>,
        make_source: impl FnOnce(&DecodedSample) -> Option<Handle<bevy_kira_audio::AudioSource>>,
    ) -> Result<Arc<Sample>, SampleError> {
        let resolved = resolve(key);
        let id = (fold_path(&resolved.library), resolved.name.to_ascii_lowercase());
        if let Some(hit) = self.entries.get(&id) {
            return hit.clone();
        }
        let result = load().map(|decoded| {
            let source = make_source(&decoded);
            Arc::new(Sample { decoded, source })
        });
        match &result {
            Ok(_) => self.decoded += 1,
            Err(_) => self.failed += 1,
        }
        self.entries.insert(id, result.clone());
        result
    }
}

/// Forgets every sample when a mission starts loading (the next mission's lookups name
/// it in their chains).
pub(crate) fn clear(mut cache: ResMut<SampleCache>) {
    *cache = SampleCache::default();
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::nres::NresWriter;
    use iron3d_formats::sound::{SWAV, write_pcm16};

    fn library(tag: &str) -> (std::path::PathBuf, GameDir) {
        let root = std::env::temp_dir().join(format!("iron3d-audio-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let mut lib = NresWriter::new();
        lib.add(SWAV, [0; 3], b"GOOD.WAV", write_pcm16(&[0, 100, -100, 0], 1, 22_050).unwrap()).unwrap();
        lib.add(SWAV, [0; 3], b"EMPTY.WAV", Vec::new()).unwrap();
        lib.add(SWAV, [0; 3], b"BROKEN.WAV", b"RIFF\x04\x00\x00\x00WAVX".to_vec()).unwrap();
        std::fs::write(root.join("sounds.lib"), lib.to_bytes().unwrap()).unwrap();
        let game = GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap();
        (root, game)
    }

    #[test]
    fn the_load_results_are_distinct_and_name_the_whole_lookup_chain() {
        let (root, game) = library("results");
        let good = load(Some(&game), &SoundKey::parse("good.wav"), "m1").unwrap();
        assert_eq!(good.samples, [0, 100, -100, 0]);
        let err = |name: &str| load(Some(&game), &SoundKey::parse(name), "m1").unwrap_err();
        let names: Vec<_> =
            ["NOPE.WAV", "EMPTY.WAV", "BROKEN.WAV", "voices.lib/A.WAV"].iter().map(|n| err(n).name()).collect();
        assert_eq!(names, ["entry_missing", "entry_empty", "wave_invalid", "library_unavailable"]);
        let text = err("NOPE.WAV").to_string();
        let path = root.join("sounds.lib").display().to_string();
        assert_eq!(text, format!("entry_missing: mission m1 -> library sounds.lib ({path}) -> entry NOPE.WAV"));
        assert!(err("voices.lib/A.WAV").to_string().contains("library voices.lib (not in the game directory)"));
        assert_eq!(load(None, &SoundKey::parse("GOOD.WAV"), "").unwrap_err().name(), "no_game_data");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn one_decode_serves_every_use_of_a_key_in_any_spelling() {
        let (root, game) = library("cache");
        let mut cache = SampleCache::default();
        let mut loads = 0;
        for name in ["GOOD.WAV", "good.wav", "sounds.lib/Good.wav", "SOUNDS.LIB/GOOD.WAV"] {
            let key = SoundKey::parse(name);
            let s = cache.get_or_load(
                &key,
                || {
                    loads += 1;
                    load(Some(&game), &key, "m1")
                },
                |_| None,
            );
            assert_eq!(s.unwrap().decoded.samples.len(), 4);
        }
        for _ in 0..2 {
            let key = SoundKey::parse("EMPTY.WAV");
            assert!(cache.get_or_load(&key, || load(Some(&game), &key, "m1"), |_| None).is_err());
        }
        assert_eq!((loads, cache.decoded, cache.failed), (1, 1, 1));
        let _ = std::fs::remove_dir_all(root);
    }
}
