use super::*;
use crate::error::ErrorKind;
use proptest::prelude::*;

const BEHAVIOR: &[u8] = b"// Behavior settings\r\nLogFile = Behavior.log\r\nSaveLog=0 // off\r\n\r\nMaxErrorLevel = 1\r\nDefErrorLevel =2\r\nUseWizard = 1\r\nMystery = keep me\r\n";

#[test]
fn ini_lines_are_classified_and_round_trip() {
    let ini = IniFile::parse(BEHAVIOR);
    assert_eq!(ini.to_bytes(), BEHAVIOR);
    assert_eq!(ini.lines[0].kind, LineKind::Comment);
    assert_eq!(ini.lines[3].kind, LineKind::Blank);
    assert_eq!(ini.get(None, "savelog").unwrap().raw, b"0");
    assert_eq!(ini.get(None, "DefErrorLevel").unwrap().as_int(), Some(2));
    assert_eq!(ini.get(None, "mystery").unwrap().as_text(), "keep me");
    assert!(ini.get(None, "PathFind_MaxAccel").is_none());
}

#[test]
fn behavior_ini_typed_view_keeps_absent_distinct() {
    let b = BehaviorIni::from_ini(&IniFile::parse(BEHAVIOR));
    assert_eq!(b.log_file.as_ref().and_then(|s| s.value.clone()), Some("Behavior.log".to_string()));
    assert_eq!(b.save_log.as_ref().map(|s| (s.raw.as_slice(), s.value)), Some((&b"0"[..], Some(0))));
    assert_eq!(b.use_wizard.and_then(|s| s.value), Some(1));
    assert!(b.path_find_max_accel.is_none(), "absent, not a default");
    assert!(b.immortal_hero.is_none());
}

#[test]
fn set_edits_only_the_value_and_appends_new_keys() {
    let mut ini = IniFile::parse(BEHAVIOR);
    ini.set(None, "SAVELOG", b"1").unwrap();
    let typed = BehaviorIni { immortal_hero: Some(Setting::new(1)), ..Default::default() };
    typed.write_into(&mut ini).unwrap();
    let text = String::from_utf8(ini.to_bytes()).unwrap();
    assert!(text.contains("SaveLog=1 // off\r\n"), "{text}");
    assert!(text.ends_with("Mystery = keep me\r\nImmortalHero = 1\r\n"), "{text}");
    assert!(ini.set(None, "x", b"a\r\nb").is_err());
}

#[test]
fn iron3d_ini_sections() {
    let data = b"[CS]\r\nDISPLAY_WIDTH = 640\r\nDISPLAY_HEIGHT = 480\r\n\r\n[MULTIPLAYER]\r\nIP = 127.0.0.1\r\n[LEVEL_RATIO]\r\n0.5\r\n";
    let mut ini = IniFile::parse(data);
    assert_eq!(ini.to_bytes(), data);
    assert_eq!(ini.lines[7].kind, LineKind::Other, "a bare number is kept raw");
    assert_eq!(ini.get(Some("multiplayer"), "ip").unwrap().raw, b"127.0.0.1");
    assert!(ini.get(Some("CS"), "IP").is_none());
    let t = Iron3dIni::from_ini(&ini);
    assert_eq!(t.display_width.and_then(|s| s.value), Some(640));
    let t = Iron3dIni { subtitles: Some(Setting::new(1)), ..Default::default() };
    t.write_into(&mut ini).unwrap();
    let text = String::from_utf8(ini.to_bytes()).unwrap();
    assert!(
        text.starts_with("[CS]\r\nDISPLAY_WIDTH = 640\r\nDISPLAY_HEIGHT = 480\r\nSUBTITLES = 1\r\n\r\n[MULTIPLAYER]"),
        "{text}"
    );
    let mut fresh = IniFile::default();
    ArealMapIni { show_areals: Some(Setting::new(0)), ..Default::default() }.write_into(&mut fresh).unwrap();
    assert_eq!(fresh.to_bytes(), b"ShowAreals = 0\r\n");
    let mut sect = IniFile::parse(b"a=1");
    sect.set(Some("NEW"), "k", b"v").unwrap();
    assert_eq!(sect.to_bytes(), b"a=1\r\n[NEW]\r\nk = v\r\n");
}

const MISSION: &[u8] = b"// music\r\nobject ambient_music_loop\r\n    desc     Theme loop\r\n    library  music.lib\r\n    libtype  1\r\n    type     3\r\n    THEME    theme.wav\r\nend\r\n\r\nobject ambient_music_variation\r\n\tDAY_VARIATION1 day1.wav\r\nEND";

#[test]
fn mission_cfg_blocks() {
    let cfg = BlockCfg::parse(MISSION).unwrap();
    assert_eq!(cfg.to_bytes(), MISSION);
    let blocks: Vec<_> = cfg.blocks().collect();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].name(), b"ambient_music_loop");
    assert_eq!(blocks[0].desc().as_deref(), Some("Theme loop"));
    assert_eq!(blocks[0].library(), Some(&b"music.lib"[..]));
    assert_eq!(blocks[0].libtype(), Some(&b"1"[..]));
    assert_eq!(blocks[0].type_id(), Some(3));
    assert_eq!(blocks[0].param("theme"), Some(&b"theme.wav"[..]));
    assert_eq!(cfg.block("AMBIENT_MUSIC_VARIATION").unwrap().param("DAY_VARIATION1"), Some(&b"day1.wav"[..]));
}

#[test]
fn mission_cfg_errors_are_located() {
    let e = BlockCfg::parse(b"object a\r\nobject b\r\nend\r\n").unwrap_err();
    assert_eq!((e.offset, matches!(e.kind, ErrorKind::Invalid { rule: "cfg_nested_object", .. })), (Some(10), true));
    assert!(BlockCfg::parse(b"end\r\n").is_err());
    assert!(BlockCfg::parse(b"object a\r\n type 1\r\n").is_err());
    assert!(BlockCfg::parse(b"type 1\r\n").is_err());
}

#[test]
fn mission_cfg_authoring() {
    let mut cfg = BlockCfg::parse(b"// generated").unwrap();
    cfg.push_block("ambient_music_loop", &[("library", "music.lib"), ("THEME", "t.wav")]).unwrap();
    let bytes = cfg.to_bytes();
    assert_eq!(
        bytes,
        b"// generated\r\nobject ambient_music_loop\r\n    library music.lib\r\n    THEME t.wav\r\nend\r\n"
    );
    assert_eq!(
        BlockCfg::parse(&bytes).unwrap().block("ambient_music_loop").unwrap().param("theme"),
        Some(&b"t.wav"[..])
    );
    assert!(cfg.push_block("two words", &[]).is_err());
    assert!(cfg.push_block("a", &[("End", "1")]).is_err(), "a key read back as the block's end");
    assert!(cfg.push_block("a", &[("object", "b")]).is_err());
}

proptest! {
    #[test]
    fn ini_parse_is_lossless(data in proptest::collection::vec(prop_oneof![Just(b'\r'), Just(b'\n'), Just(b'='), Just(b'['), Just(b']'), Just(b'/'), Just(b' '), any::<u8>()], 0..200)) {
        prop_assert_eq!(IniFile::parse(&data).to_bytes(), data);
    }

    #[test]
    fn block_cfg_write_read_write_identity(blocks in proptest::collection::vec(("[a-z_]{1,8}", proptest::collection::vec(("[A-Za-z_]{1,6}", "[a-z0-9. ]{0,8}"), 0..4)), 0..4)) {
        let mut cfg = BlockCfg::default();
        let mut written = 0;
        for (name, params) in &blocks {
            let p: Vec<(&str, &str)> = params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            let edge = params.iter().any(|(k, _)| ["object", "end"].iter().any(|w| k.eq_ignore_ascii_case(w)));
            prop_assert_eq!(cfg.push_block(name, &p).is_ok(), !edge);
            written += usize::from(!edge);
        }
        let bytes = cfg.to_bytes();
        let back = BlockCfg::parse(&bytes).unwrap();
        prop_assert_eq!(back.to_bytes(), bytes);
        prop_assert_eq!(back.blocks().count(), written);
    }
}

#[test]
fn behavior_ini_check_names_the_bad_key() {
    let check = |text: &[u8]| BehaviorIni::from_ini(&IniFile::parse(text)).check().map_err(|e| e.to_string());
    assert!(check(BEHAVIOR).is_ok());
    assert!(check(b"PathFind_CorridorRadius = 4.5\r\nPathFind_MinPointInTrajectory = 3\r\n").is_ok());
    let e = check(b"PathFind_CorridorRadius = wide\r\n").unwrap_err();
    assert!(e.contains("PathFind_CorridorRadius") && e.contains("wide"), "{e}");
    let e = check(b"PathFind_MaxAccel = -2\r\n").unwrap_err();
    assert!(e.contains("PathFind_MaxAccel") && e.contains("positive"), "{e}");
    let e = check(b"PathFind_MinPointInTrajectory = 0\r\n").unwrap_err();
    assert!(e.contains("PathFind_MinPointInTrajectory"), "{e}");
    let e = check(b"UseWizard = yes\r\n").unwrap_err();
    assert!(e.contains("UseWizard"), "{e}");
}
