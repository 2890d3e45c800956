//! Text configuration (`docs/reference/runtime.md` §2, §9; `docs/reference/world.md` §5.1): each mission's
//! `mission.cfg` (ambient theme loop and its variation pools) and `descr`, and the
//! engine INI files `Behavior.ini`, `ArealMap.ini`, `Iron_3D.ini` in the game root.
//!
//! Only keys and blocks the spec names are written:
//! * `mission.cfg`: `ambient_music_loop` (`THEME`) and `ambient_music_variation`. The
//!   tutorial uses the `DEFAULT_VARIATION` pool, the other missions `DAY_`/`NIGHT_`
//!   pools. `libtype`/`type` values of these blocks are not documented and are omitted.
//!   Then the objectives: one primary, one bonus.
//! * `Behavior.ini`: the demo keys with the shipped values (§2.2).
//! * `ArealMap.ini`: the debug switches of §2.3, all off.
//! * `Iron_3D.ini`: the `[CS]` keys of §2.4 with the demo values; the `[MULTIPLAYER]`,
//!   `[TEMP]` and `[LEVEL_RATIO]` key names are not documented, so those sections are
//!   not written.
//! * `descr`: the engine probes its presence to discover missions (§5.1); its content
//!   is undocumented, so it holds a one-line plain-text title.
//!
//! The briefing, messages, tips and `DATA/TextRes.cfg` of each mission are written by
//! [`crate::texts`].
//!
//! Weather: `sky.wea` is written by [`crate::weather`]; `mission.cfg` gets no weather
//! keys because the spec names none, and `sky.ske` has no documented layout.

use crate::missions::MISSIONS;
use crate::sounds::{DAY_VARIATIONS, NIGHT_VARIATIONS, THEME};
use crate::texts::Texts;
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::config::{ArealMapIni, BehaviorIni, BlockCfg, IniFile, Iron3dIni, Setting, goals};

/// The library the music blocks name.
pub const MUSIC_LIBRARY: &str = "sounds.lib";

/// A mission's `mission.cfg` (its folder `folder`); `day_night` selects the DAY/NIGHT
/// pools over DEFAULT. The objectives' blocks (`primary_objectives`,
/// `bonus_objectives`, gameplay.md §13) name the table keys of
/// [`crate::texts::objective_keys`], written `key = value` as the original does.
pub fn mission_cfg(name: &str, folder: &str, day_night: bool) -> Result<BlockCfg> {
    let mut cfg = BlockCfg::parse(format!("// mission.cfg of {name} (iron3d demo)\r\n").as_bytes())?;
    let desc = format!("Ambient theme of {name}");
    cfg.push_block("ambient_music_loop", &[("desc", &desc), ("library", MUSIC_LIBRARY), ("THEME", THEME)])?;
    let keys: Vec<(String, &str)> = if day_night {
        let day = DAY_VARIATIONS.iter().enumerate().map(|(i, s)| (format!("DAY_VARIATION{}", i + 1), *s));
        let night = NIGHT_VARIATIONS.iter().enumerate().map(|(i, s)| (format!("NIGHT_VARIATION{}", i + 1), *s));
        day.chain(night).collect()
    } else {
        [DAY_VARIATIONS[0], NIGHT_VARIATIONS[0]]
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("DEFAULT_VARIATION{}", i + 1), *s))
            .collect()
    };
    let mut params: Vec<(&str, &str)> = vec![("desc", "Theme variations")];
    params.extend(keys.iter().map(|(k, v)| (k.as_str(), *v)));
    cfg.push_block("ambient_music_variation", &params)?;
    for (key, bonus) in crate::texts::objective_keys(folder) {
        let block = if bonus { goals::BONUS_OBJECTIVES } else { goals::PRIMARY_OBJECTIVES };
        cfg.push_block(block, &[("objective1", &format!("= \"{key}\""))])?;
    }
    Ok(cfg)
}

/// `Behavior.ini` with the shipped demo values (`docs/reference/runtime.md` §2.2).
pub fn behavior_ini() -> Result<IniFile> {
    let int = |v: i64| Some(Setting::new(v));
    let typed = BehaviorIni {
        log_file: Some(Setting::new("Behavior.log".to_string())),
        save_log: int(0),
        max_error_level: int(1),
        def_error_level: int(2),
        look_bug_mode: int(0),
        show_vectors: int(0),
        no_z_buffer: int(0),
        lock_behaviour: int(0),
        use_debug_key: int(1),
        give_default_order: int(0),
        default_order_phase: int(10),
        determin_mode: int(0),
        immortal_hero: int(0),
        use_wizard: int(1),
        ..BehaviorIni::default()
    };
    with_header("Behavior.ini", |ini| typed.write_into(ini))
}

/// `ArealMap.ini`: every debug switch off.
pub fn areal_map_ini() -> Result<IniFile> {
    let off = || Some(Setting::new(0i64));
    let typed = ArealMapIni {
        show_areals: off(),
        areal_no_z_buffer: off(),
        hallway_no_z_buffer: off(),
        edge_up: off(),
        run_beh_debug: off(),
    };
    with_header("ArealMap.ini", |ini| typed.write_into(ini))
}

/// The original's campaign progress file.
pub const DISPATCHER: &str = "MISSIONS/dispatcher.ini";

/// `Iron_3D.ini`: the `[CS]` demo values of `docs/reference/runtime.md` §2.4, `[LEVEL_RATIO]`
/// and the designer's `[TEMP]` scales.
pub fn iron3d_ini() -> Result<IniFile> {
    let int = |v: i64| Some(Setting::new(v));
    let typed = Iron3dIni {
        display_width: int(640),
        display_height: int(480),
        bitdepth: int(16),
        current_d3dcard: int(0),
        window_mode: int(0),
        force_software_cursor: int(1),
        render_quality: int(2),
        reflections: int(0),
        emboss_bump: int(0),
        embm: int(0),
        play_cd_music: int(1),
        mouse_sens: int(100),
        joy_sens: int(100),
        mouse_rev_y: int(0),
        joy_rev_y: int(0),
        joy_enable: int(0),
        subtitles: int(1),
        ..Iron3dIni::default()
    };
    with_header("Iron_3D.ini", |ini| {
        typed.write_into(ini)?;
        // The three difficulty coefficients of `docs/reference/runtime.md` §2.4 (the key names are the demo's).
        for (key, value) in [("EASY", "0.5"), ("NORMAL", "0.7"), ("HARD", "1.0")] {
            ini.set(Some("LEVEL_RATIO"), key, value.as_bytes())?;
        }
        // The designer's scales, as the original ships them (openparkan
        // `docs/38-designs.md`, read).
        let scales = [("NORMALIZE", "1"), ("OFFENCE_MIN", "0"), ("OFFENCE_MAX", "6550")];
        for (key, value) in scales.into_iter().chain([("DEFENCE_MIN", "0"), ("DEFENCE_MAX", "24400")]) {
            ini.set(Some("TEMP"), key, value.as_bytes())?;
        }
        Ok(())
    })
}

/// `MISSIONS/dispatcher.ini`: the original's campaign progress file (`docs/reference/runtime.md` §14), here
/// with every campaign mission not completed (`0`).
pub fn dispatcher_ini() -> Result<IniFile> {
    with_header("dispatcher.ini", |ini| {
        for spec in MISSIONS.iter().filter(|s| s.name.starts_with("campaign.")) {
            let key = spec.name.to_ascii_uppercase().replace('/', "\\");
            ini.set(Some("COMPLETE"), &key, b"0")?;
        }
        Ok(())
    })
}

/// `text` in the original's encoding (CP1251) with a CRLF.
pub fn cp1251(text: &str) -> Vec<u8> {
    let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(text);
    let mut out = bytes.into_owned();
    out.extend_from_slice(b"\r\n");
    out
}

fn with_header(name: &str, fill: impl FnOnce(&mut IniFile) -> Result<()>) -> Result<IniFile> {
    let mut ini = IniFile::parse(format!("// {name} (iron3d demo)\r\n").as_bytes());
    fill(&mut ini)?;
    Ok(ini)
}

/// Writes the INI files, every mission's `mission.cfg`, `descr` (its title in CP1251)
/// and texts, the string table and `MISSIONS/dispatcher.ini`.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    tree.add("Behavior.ini", behavior_ini()?.to_bytes())?;
    tree.add("ArealMap.ini", areal_map_ini()?.to_bytes())?;
    tree.add("Iron_3D.ini", iron3d_ini()?.to_bytes())?;
    let mut texts = Texts::default();
    for (i, spec) in MISSIONS.iter().enumerate() {
        let dir = spec.folder();
        tree.add(&format!("{dir}/mission.cfg"), mission_cfg(spec.name, &dir, i > 0)?.to_bytes())?;
        tree.add(&format!("{dir}/descr"), cp1251(spec.title))?;
        texts.mission(tree, &dir)?;
    }
    tree.add(crate::configs::DISPATCHER, dispatcher_ini()?.to_bytes())?;
    texts.finish(tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DEFAULT_SEED, build};
    use iron3d_formats::ReadOptions;
    use iron3d_formats::nres::Nres;
    use iron3d_formats::sound::SoundLoad;

    #[test]
    fn mission_cfg_names_a_theme_and_variation_pools_that_decode() {
        let tree = build(DEFAULT_SEED).unwrap();
        let sounds = Nres::parse(tree.get("sounds.lib").unwrap(), ReadOptions::strict()).unwrap();
        for (i, spec) in MISSIONS.iter().enumerate() {
            let dir = spec.folder();
            assert!(tree.get(&format!("{dir}/descr")).is_some_and(|d| !d.is_empty()), "{dir}/descr");
            let bytes = tree.get(&format!("{dir}/mission.cfg")).unwrap();
            let cfg = BlockCfg::parse(bytes).unwrap();
            assert_eq!(cfg.to_bytes(), bytes);
            let theme = cfg.block("ambient_music_loop").unwrap();
            assert_eq!(theme.library(), Some(MUSIC_LIBRARY.as_bytes()));
            let variations = cfg.block("ambient_music_variation").unwrap();
            let pool = |prefix: &str| -> Vec<String> {
                variations
                    .params()
                    .filter(|(k, _)| k.starts_with(prefix.as_bytes()))
                    .map(|(_, v)| String::from_utf8(v.to_vec()).unwrap())
                    .collect()
            };
            let (day, night, default) = (pool("DAY_VARIATION"), pool("NIGHT_VARIATION"), pool("DEFAULT_VARIATION"));
            if i == 0 {
                assert!(day.is_empty() && night.is_empty() && default.len() == 2, "{dir}: default pool only");
            } else {
                assert!(day.len() == 2 && night.len() == 2 && default.is_empty(), "{dir}: day and night pools");
            }
            let objectives: Vec<_> = goals::objectives(&cfg).into_iter().map(|o| (o.text, o.bonus)).collect();
            assert_eq!(objectives, crate::texts::objective_keys(&dir), "{dir}: one primary, one bonus objective");
            let theme = String::from_utf8(theme.param("THEME").unwrap().to_vec()).unwrap();
            for name in std::iter::once(theme).chain(day).chain(night).chain(default) {
                assert_eq!(SoundLoad::from_nres(&sounds, &name).name(), "decoded_sample", "{dir}: {name}");
            }
        }
    }

    #[test]
    fn ini_files_read_back_through_the_typed_views() {
        let tree = build(DEFAULT_SEED).unwrap();
        let read = |name: &str| {
            let bytes = tree.get(name).unwrap();
            let ini = IniFile::parse(bytes);
            assert_eq!(ini.to_bytes(), bytes, "{name} is lossless");
            ini
        };
        let b = BehaviorIni::from_ini(&read("Behavior.ini"));
        assert_eq!(b.log_file.unwrap().value.as_deref(), Some("Behavior.log"));
        assert_eq!(b.default_order_phase.unwrap().value, Some(10));
        assert_eq!(b.use_wizard.unwrap().value, Some(1));
        assert!(b.path_find_step_dist.is_none(), "compiled defaults apply: absent, not zero");
        let a = ArealMapIni::from_ini(&read("ArealMap.ini"));
        assert_eq!(a, areal_map_ini().map(|i| ArealMapIni::from_ini(&i)).unwrap());
        assert_eq!(a.show_areals.unwrap().value, Some(0));
        let ini = read("Iron_3D.ini");
        assert_eq!(ini.get(Some("CS"), "DISPLAY_WIDTH").unwrap().as_int(), Some(640));
        let i3 = Iron3dIni::from_ini(&ini);
        assert_eq!((i3.mouse_sens.unwrap().value, i3.subtitles.unwrap().value), (Some(100), Some(1)));
        assert!(i3.sfx_volume.is_none(), "Part 2 keys are not written");
    }
}
