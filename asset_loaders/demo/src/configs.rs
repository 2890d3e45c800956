//! Text configuration (spec `runtime.md` §2, §9; `world.md` §5.1): each mission's
//! `mission.cfg` (ambient theme loop and its variation pools) and `descr`, and the
//! engine INI files `Behavior.ini`, `ArealMap.ini`, `Iron_3D.ini` in the game root.
//!
//! Only keys and blocks the spec names are written:
//! * `mission.cfg`: `ambient_music_loop` (`THEME`) and `ambient_music_variation`. The
//!   tutorial uses the `DEFAULT_VARIATION` pool, the other missions `DAY_`/`NIGHT_`
//!   pools. `libtype`/`type` values of these blocks are not documented and are omitted.
//! * `Behavior.ini`: the demo keys with the shipped values (§2.2).
//! * `ArealMap.ini`: the debug switches of §2.3, all off.
//! * `Iron_3D.ini`: the `[CS]` keys of §2.4 with the demo values; the `[MULTIPLAYER]`,
//!   `[TEMP]` and `[LEVEL_RATIO]` key names are not documented, so those sections are
//!   not written.
//! * `descr`: the engine probes its presence to discover missions (§5.1); its content
//!   is undocumented, so it holds a one-line plain-text title.
//!
//! Weather: `sky.wea` is a WEAR table (owned by the material part of the generator) and
//! `sky.ske` has no documented layout, so neither is synthesised here.

use crate::missions::MISSIONS;
use crate::sounds::{DAY_VARIATIONS, NIGHT_VARIATIONS, THEME};
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::config::{ArealMapIni, BehaviorIni, BlockCfg, IniFile, Iron3dIni, Setting};

/// The library the music blocks name.
pub const MUSIC_LIBRARY: &str = "sounds.lib";

/// A mission's `mission.cfg`; `day_night` selects the DAY/NIGHT pools over DEFAULT.
pub fn mission_cfg(name: &str, day_night: bool) -> Result<BlockCfg> {
    let mut cfg = BlockCfg::parse(format!("// mission.cfg of {name} (iron3d demo)\r\n").as_bytes())?;
    let desc = format!("Ambient theme of {name}");
    cfg.push_block("ambient_music_loop", &[("desc", &desc), ("library", MUSIC_LIBRARY), ("THEME", THEME)])?;
    let keys: Vec<(String, &str)> = if day_night {
        let day = DAY_VARIATIONS.iter().enumerate().map(|(i, s)| (format!("DAY_VARIATION{}", i + 1), *s));
        let night = NIGHT_VARIATIONS.iter().enumerate().map(|(i, s)| (format!("NIGHT_VARIATION{}", i + 1), *s));
        day.chain(night).collect()
    } else {
        [DAY_VARIATIONS[0], NIGHT_VARIATIONS[0]].iter().enumerate().map(|(i, s)| (format!("DEFAULT_VARIATION{}", i + 1), *s)).collect()
    };
    let mut params: Vec<(&str, &str)> = vec![("desc", "Theme variations")];
    params.extend(keys.iter().map(|(k, v)| (k.as_str(), *v)));
    cfg.push_block("ambient_music_variation", &params)?;
    Ok(cfg)
}

/// `Behavior.ini` with the shipped demo values (spec §2.2).
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

/// `Iron_3D.ini`: the `[CS]` demo values of spec §2.4.
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
    with_header("Iron_3D.ini", |ini| typed.write_into(ini))
}

fn with_header(name: &str, fill: impl FnOnce(&mut IniFile) -> Result<()>) -> Result<IniFile> {
    let mut ini = IniFile::parse(format!("// {name} (iron3d demo)\r\n").as_bytes());
    fill(&mut ini)?;
    Ok(ini)
}

/// Writes the INI files and every mission's `mission.cfg` and `descr`.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    tree.add("Behavior.ini", behavior_ini()?.to_bytes())?;
    tree.add("ArealMap.ini", areal_map_ini()?.to_bytes())?;
    tree.add("Iron_3D.ini", iron3d_ini()?.to_bytes())?;
    for (i, spec) in MISSIONS.iter().enumerate() {
        let dir = format!("MISSIONS/{}", spec.name);
        tree.add(&format!("{dir}/mission.cfg"), mission_cfg(spec.name, i > 0)?.to_bytes())?;
        tree.add(&format!("{dir}/descr"), format!("Demo mission {} on map {}\r\n", spec.name, spec.map).into_bytes())?;
    }
    Ok(())
}
