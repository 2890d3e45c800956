//! Ambient music in the game (`docs/reference/runtime.md` §9; the rules are in [`crate::music`]):
//! when a mission opens, `mission.cfg`'s `ambient_music_loop` starts its `THEME` loop
//! on the music bus and `ambient_music_variation` gives the pools; every running frame
//! the timer advances and, when it fires, a variation of the pool the sky selects plays
//! once. Paused frames do not advance it (its state is kept).

use crate::AudioSystems;
use crate::music::{IndexGenerator, MUSIC_STREAM, VariationPools, VariationTimer, rand15, seeded_generator};
use crate::samples::MISSION_SOUND_LIBRARY;
use bevy::prelude::*;
use iron3d_assets::GameData;
use iron3d_core::{AppState, MissionStart, Pause, RandomStream, SimRandom, SoundAction, SoundBus, SoundCue, SoundKey};
use iron3d_formats::config::BlockCfg;
use iron3d_mission::LoadedMission;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AmbientMusic>()
        .init_resource::<SkyBaseColour>()
        .register_type::<AmbientMusic>()
        .register_type::<SkyBaseColour>()
        .add_systems(OnEnter(AppState::InGame), open.in_set(MissionStart::Present))
        .add_systems(OnExit(AppState::InGame), close)
        .add_systems(
            PostUpdate,
            vary.run_if(in_state(Pause::Running)).after(crate::producers::clicks).in_set(AudioSystems::Cues),
        );
}

/// Loop id of the theme (loop ids of the audio plugin live above bit 40, clear of the
/// other producers' small ids).
pub const THEME_LOOP: u64 = 1 << 40;

/// The base RGB of the first active sky object (before camera glare), published by the
/// weather (the clear sky's colour); `None` (no sky object) counts as day (*project*).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Default, Reflect)]
#[reflect(Resource)]
pub struct SkyBaseColour(pub Option<[f32; 3]>);

/// The mission's music state.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct AmbientMusic {
    /// The theme loop (`None`: the mission declares none).
    pub theme: Option<SoundKey>,
    /// The variation pools.
    pub pools: VariationPools,
    /// The index generator.
    pub generator: IndexGenerator,
    /// The variation timer.
    pub timer: VariationTimer,
    /// The music's random stream ([`MUSIC_STREAM`] of the mission seed).
    pub stream: RandomStream,
    /// Why the mission has no music, when it has none.
    pub problem: Option<String>,
}

impl Default for AmbientMusic {
    fn default() -> Self {
        Self {
            theme: None,
            pools: VariationPools::default(),
            generator: IndexGenerator::new(0, 1),
            timer: VariationTimer::default(),
            stream: RandomStream::named(0, MUSIC_STREAM),
            problem: None,
        }
    }
}

impl AmbientMusic {
    /// The music of a mission's `mission.cfg` text (`seed`: the mission's random seed).
    ///
    /// # Errors
    /// A located parse error, or a file without an `ambient_music_loop` `THEME`.
    pub fn from_cfg(cfg_name: &str, bytes: &[u8], seed: u64) -> Result<Self, String> {
        let cfg = BlockCfg::parse(bytes).map_err(|e| format!("{cfg_name}: {e}"))?;
        let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
        let block = cfg.block("ambient_music_loop").ok_or_else(|| format!("{cfg_name}: no ambient_music_loop"))?;
        let theme = block.param("THEME").map(text).filter(|t| !t.is_empty());
        let theme = theme.ok_or_else(|| format!("{cfg_name}: ambient_music_loop has no THEME"))?;
        let library = block.library().map(text).filter(|l| !l.is_empty());
        let library = library.unwrap_or_else(|| MISSION_SOUND_LIBRARY.into());
        let key = SoundKey::parse(&theme);
        let theme = if key.library.is_empty() { SoundKey { library: library.clone(), ..key } } else { key };
        let pools =
            cfg.block("ambient_music_variation").map(|b| VariationPools::from_block(b, &library)).unwrap_or_default();
        let mut stream = RandomStream::named(seed, MUSIC_STREAM);
        let generator = seeded_generator(&mut stream);
        Ok(Self { theme: Some(theme), pools, generator, stream, ..Self::default() })
    }

    /// Advances the timer by a frame's `dt`; the variation to play when it fires.
    pub fn advance(&mut self, dt: f32, sky: SkyBaseColour) -> Option<SoundKey> {
        let stream = &mut self.stream;
        if !self.timer.advance(dt, || rand15(stream)) {
            return None;
        }
        let pool = self.pools.selected(sky.0.unwrap_or([1.0; 3]));
        self.generator.next_index(pool.len()).map(|i| pool[i].clone())
    }
}

fn music_cue(key: SoundKey, action: SoundAction) -> SoundCue {
    SoundCue::play(key, SoundBus::Music, None).with_action(action)
}

/// Reads the mission's music and starts the theme.
pub(crate) fn open(
    game: Option<Res<GameData>>,
    mission: Option<Res<LoadedMission>>,
    random: Res<SimRandom>,
    mut music: ResMut<AmbientMusic>,
    mut cues: MessageWriter<SoundCue>,
) {
    let (Some(game), Some(mission)) = (game, mission) else {
        *music = AmbientMusic { problem: Some("no mission data".into()), ..AmbientMusic::default() };
        return;
    };
    let name = format!("{}/mission.cfg", mission.folder);
    let read = game.0.read_file(&name).map_err(|e| format!("{name}: {e}"));
    *music = match read.and_then(|bytes| AmbientMusic::from_cfg(&name, &bytes, random.seed)) {
        Ok(m) => m,
        Err(problem) => {
            info!(target: "audio", "no ambient music: {problem}");
            AmbientMusic { problem: Some(problem), ..AmbientMusic::default() }
        }
    };
    if let Some(theme) = music.theme.clone() {
        cues.write(music_cue(theme, SoundAction::StartLoop(THEME_LOOP)));
    }
}

/// Runs the variation timer on the frame's (virtual) time.
pub(crate) fn vary(
    time: Res<Time>,
    sky: Res<SkyBaseColour>,
    mut music: ResMut<AmbientMusic>,
    mut cues: MessageWriter<SoundCue>,
) {
    if music.theme.is_none() {
        return;
    }
    if let Some(key) = music.advance(time.delta_secs(), *sky) {
        cues.write(music_cue(key, SoundAction::Play));
    }
}

/// Forgets the mission's music when it closes (its loop ends with every other voice).
pub(crate) fn close(mut music: ResMut<AmbientMusic>) {
    *music = AmbientMusic::default();
}

#[cfg(test)]
mod tests {
    use super::*;

    const CFG: &[u8] = b"object ambient_music_loop\r\n    library sounds.lib\r\n    THEME THEME1.WAV\r\nend\r\nobject ambient_music_variation\r\n    DAY_VARIATION1 D1.WAV\r\n    DAY_VARIATION2 D2.WAV\r\n    NIGHT_VARIATION1 N1.WAV\r\nend\r\n";

    #[test]
    fn the_mission_cfg_gives_the_theme_and_pools_and_a_seeded_stream() {
        let m = AmbientMusic::from_cfg("m.cfg", CFG, 42).unwrap();
        assert_eq!(m.theme, Some(SoundKey::parse("sounds.lib/THEME1.WAV")));
        assert_eq!(m.pools.day.len(), 2);
        let mut stream = RandomStream::named(42, MUSIC_STREAM);
        assert_eq!(m.generator, seeded_generator(&mut stream));
        assert_eq!(m.stream, stream, "the generator's words came from the music stream");
        let e = AmbientMusic::from_cfg("m.cfg", b"object other\r\nend\r\n", 1).unwrap_err();
        assert_eq!(e, "m.cfg: no ambient_music_loop");
    }

    #[test]
    fn variations_follow_the_sky_and_the_timer_of_the_stream() {
        let mut m = AmbientMusic::from_cfg("m.cfg", CFG, 42).unwrap();
        let mut replay = m.clone();
        let night = SkyBaseColour(Some([0.3, 0.3, 0.3]));
        assert_eq!(m.advance(0.0, night), None);
        assert_eq!(m.advance(0.1, night), Some(SoundKey::parse("sounds.lib/N1.WAV")), "first positive frame");
        // The delay is drawn from the music stream after the pick's timer fired.
        let delay = 10 + rand15(&mut replay.stream) % 10;
        assert_eq!(m.timer.delay, delay as f32);
        assert_eq!(m.advance(delay as f32, night), None, "not before the delay is exceeded");
        let day = m.advance(0.01, SkyBaseColour(None)).unwrap();
        assert!(m.pools.day.contains(&day), "no sky object counts as day");
    }
}
