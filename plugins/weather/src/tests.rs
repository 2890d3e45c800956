//! Shared test builders and the checks of the demo's schedules.

use crate::schedule::{Key, LightningBounds, Look, Overcast, Sounds, WeatherSchedule};

/// A look with round numbers.
pub(crate) fn look() -> Look {
    Look {
        rain: [0.6, 0.7, 0.8, 0.3],
        snow: [1.0; 4],
        streak_max: 1.5,
        bolt: [5.0, 5.0, 8.0, 1.0],
        bolt_width: 4.0,
        flash_seconds: 0.5,
        flash_lumens: 1.0e9,
        flash_range: 2000.0,
        overcast: Overcast { sky: [0.2, 0.2, 0.3], light: 0.5 },
    }
}

/// A schedule of `(time, rain)` keys (no snow; lightning as strong as the rain).
pub(crate) fn schedule(keys: &[(f32, f32)]) -> WeatherSchedule {
    WeatherSchedule {
        sounds: Sounds { rain: "ATM_RAIN1.WAV".into(), thunder: Some("ATM_THUND1.WAV".into()) },
        lightning_bounds: LightningBounds { min: [0.0, 0.0], max: [1000.0, 1000.0], z: 0.0 },
        look: look(),
        keys: keys.iter().map(|&(time, rain)| Key { time, rain, snow: 0.0, lightning: rain }).collect(),
    }
}

#[test]
fn every_demo_mission_has_a_schedule_with_weather_from_the_start() {
    let tree = iron3d_demo::build(iron3d_demo::DEFAULT_SEED).unwrap();
    for spec in iron3d_demo::missions::MISSIONS {
        let path = format!("{}/{}", spec.folder(), crate::schedule::FILE_NAME);
        let text = std::str::from_utf8(tree.get(&path).expect("written")).unwrap();
        let schedule = WeatherSchedule::parse(&path, text).unwrap_or_else(|e| panic!("{e}"));
        let start = schedule.intensity_at(0.0);
        assert!(start.rain > 0.0 || start.snow > 0.0, "{}: visible at once", spec.name);
        let b = schedule.lightning_bounds;
        assert_eq!((b.min, b.max), ([0.0; 2], [spec.terrain.side(); 2]), "{}: strikes anywhere on the map", spec.name);
        assert!(tree.get(&format!("{}/sky.ske", spec.folder())).is_none(), "no sky.ske is invented");
    }
    let tutorial = tree.get("MISSIONS/tutorial.01/weather.ron").unwrap();
    let tutorial = WeatherSchedule::parse("tutorial", std::str::from_utf8(tutorial).unwrap()).unwrap();
    assert!(tutorial.intensity_at(0.0).lightning > 0.5, "tutorial.01 opens with a thunderstorm");
}

/// The rain cues of each frame as `(action, volume in thousandths)`.
#[derive(bevy::prelude::Resource, Default)]
struct Heard(Vec<Vec<(&'static str, i32)>>);

fn listen(mut cues: bevy::prelude::MessageReader<iron3d_core::SoundCue>, mut heard: bevy::prelude::ResMut<Heard>) {
    use iron3d_core::SoundAction::*;
    let frame = cues
        .read()
        .map(|c| {
            let name = match c.action {
                Play => "play",
                StartLoop(_) => "start",
                SetLoopVolume(_, _) => "volume",
                StopLoop(_) => "stop",
            };
            let volume = match c.action {
                SetLoopVolume(_, v) => v,
                _ => c.volume,
            };
            (name, (volume * 1000.0).round() as i32)
        })
        .collect();
    heard.0.push(frame);
}

#[test]
fn the_rain_loop_follows_a_scripted_curve_frame_by_frame_in_game_time() {
    use bevy::prelude::*;
    use bevy::time::TimeUpdateStrategy;
    use iron3d_core::Pause;
    let curve = schedule(&[(0.0, 0.0), (0.5, 0.0), (0.9, 0.5), (1.3, 0.5), (1.7, 0.0)]);
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_message::<iron3d_core::SoundCue>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(std::time::Duration::from_millis(200)))
        .insert_resource(crate::mission::MissionWeather::with_schedule(curve, String::new()))
        .init_resource::<crate::sound::RainLoop>()
        .init_resource::<Heard>()
        .add_systems(Update, (crate::mission::advance, crate::sound::rain_loop, listen).chain());
    let heard = |app: &App| app.world().resource::<Heard>().0.clone();
    // Run until the rain peaks, pause for three frames, resume.
    for _ in 0..20 {
        app.update();
        if heard(&app).last() == Some(&vec![("volume", 500)]) {
            break;
        }
    }
    app.world_mut().insert_resource(State::new(Pause::Paused));
    for _ in 0..3 {
        app.update();
    }
    let paused_at = app.world().resource::<crate::mission::MissionWeather>().seconds;
    assert_eq!(app.world().resource::<crate::mission::MissionWeather>().step, 0.0, "no game time while paused");
    app.world_mut().insert_resource(State::new(Pause::Running));
    for _ in 0..6 {
        app.update();
    }
    let heard = heard(&app);
    let first = heard.iter().position(|f| !f.is_empty()).unwrap();
    assert!(heard[..first].iter().all(Vec::is_empty));
    // Frames at t = 0.6, 0.8, 1.0 s, three paused frames (t stays 1.0), then 1.2 ... 1.8 s:
    // rain 0.125, 0.375, 0.5, (0.5 ×3), 0.5, 0.375, 0.125, 0.
    let expected: Vec<Vec<(&str, i32)>> = vec![
        vec![("start", 125)],
        vec![("volume", 375)],
        vec![("volume", 500)],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![("volume", 375)],
        vec![("volume", 125)],
        vec![("stop", 0)],
    ];
    assert_eq!(heard[first..first + expected.len()].to_vec(), expected);
    assert!((paused_at - 1.0).abs() < 1e-4, "the clock stood at {paused_at}");
}

#[test]
fn the_missions_sky_chooses_the_day_or_night_music() {
    use bevy::prelude::*;
    use iron3d_audio::{DeviceChoice, GameAudioPlugin, SoundEventLog};
    use iron3d_core::{SoundAction, SoundBus};
    use iron3d_render::Environment;
    use std::sync::Arc;
    // single.01 has a day and a night pool, a dusk sky (its base colour is short: night)
    // and snow from the start (which darkens the sky on screen, not the sky's own
    // colour); the same mission under the clear day's material plays the day pool.
    let root = std::env::temp_dir().join(format!("iron3d-sky-music-{}", std::process::id()));
    let tree = iron3d_demo::build(iron3d_demo::DEFAULT_SEED).unwrap();
    tree.write_to(&root).unwrap();
    let sky = root.join("MISSIONS/single.01/sky.wea");
    let dusk = std::fs::read(&sky).unwrap();
    let day = String::from_utf8(dusk.clone()).unwrap().replace("SKY_DUSK", "SKY_DAY");
    for (table, pool) in [(dusk, "NIGHTVAR"), (day.into_bytes(), "DAYVAR")] {
        std::fs::write(&sky, table).unwrap();
        let game = Arc::new(iron3d_vfs::GameDir::open(&root, iron3d_formats::ReadOptions::compatible()).unwrap());
        let mut app = iron3d_sim::headless_app();
        app.add_plugins((iron3d_mission::MissionPlugin, GameAudioPlugin { device: DeviceChoice::Disabled }))
            .add_plugins(crate::WeatherPlugin)
            .init_resource::<Assets<Mesh>>()
            .init_resource::<Assets<StandardMaterial>>()
            .init_resource::<Assets<Image>>()
            .init_resource::<Environment>()
            .insert_resource(iron3d_assets::GameData(Arc::clone(&game)));
        iron3d_mission::load_headless(&mut app, &game, "single.01").unwrap();
        app.update();
        let log = &app.world().resource::<SoundEventLog>().events;
        let played: Vec<&str> = log
            .iter()
            .filter(|e| e.bus == SoundBus::Music && e.action == SoundAction::Play)
            .map(|e| e.key.name.as_str())
            .collect();
        assert!(played.len() == 1 && played[0].starts_with(pool), "{pool}: {played:?}");
        let sky = app.world().resource::<crate::sky::MissionSky>();
        assert!(sky.look.is_some() && sky.before.is_some(), "{}", sky.status);
        app.world_mut().resource_mut::<NextState<iron3d_core::AppState>>().set(iron3d_core::AppState::MainMenu);
        app.update();
        let env = app.world().resource::<Environment>();
        assert_eq!(env.sky, Environment::default().sky, "closing the mission restores the default sky");
    }
    let _ = std::fs::remove_dir_all(root);
}
