//! The `iron3d` binary's command line: documented options, argument checks and the game
//! data lookup, all decided before a window opens.

use std::process::Command;

fn game(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d")).args(args).env_remove("IRON3D_DATA").output().expect("runs")
}

#[test]
fn help_lists_every_option() {
    let o = game(&["--help"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for option in [
        "--data",
        "--mission",
        "--window",
        "--fullscreen",
        "--screenshot",
        "--exit-after-frames",
        "--eu7",
        "--press",
        "--click",
        "--script-event",
    ] {
        assert!(text.contains(option), "{option} missing from --help");
    }
    assert!(text.contains("IRON3D_DATA") && text.contains("Exit status"), "{text}");
}

#[test]
fn bad_arguments_are_rejected_before_a_window_opens() {
    let usage = |args: &[&str]| game(args).status.code();
    assert_eq!(usage(&["--window", "800x600", "--fullscreen"]), Some(2));
    assert_eq!(usage(&["--window", "800"]), Some(2), "a size is WIDTHxHEIGHT");
    assert_eq!(usage(&["--window", "0x600"]), Some(2));
    assert_eq!(usage(&["--windowed"]), Some(2), "the old flag is gone");
    assert_eq!(usage(&["--screenshot", "x.png"]), Some(2), "--screenshot needs a frame count");
    assert_eq!(usage(&["--exit-after-frames", "0"]), Some(2));
    assert_eq!(usage(&["--press", "Esc@3"]), Some(2), "not a key name");
    assert_eq!(usage(&["--click", "640@3"]), Some(2), "a position is X,Y");
    assert_eq!(usage(&["--script-event", "Mission_Complete"]), Some(2), "no frame");
}

#[test]
fn missing_game_data_is_named_before_a_window_opens() {
    let missing = std::env::temp_dir().join(format!("iron3d-no-data-{}", std::process::id()));
    let flag = game(&["--data", missing.to_str().expect("utf-8 temp path"), "--exit-after-frames", "1"]);
    assert_eq!(flag.status.code(), Some(1));
    let text = String::from_utf8_lossy(&flag.stderr);
    assert!(text.contains(&missing.display().to_string()) && text.contains("(--data)"), "{text}");

    let env = Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(["--exit-after-frames", "1"])
        .env("IRON3D_DATA", &missing)
        .output()
        .expect("runs");
    assert_eq!(env.status.code(), Some(1));
    let text = String::from_utf8_lossy(&env.stderr);
    assert!(text.contains(&missing.display().to_string()) && text.contains("(IRON3D_DATA)"), "{text}");
}
