//! The `iron3d` binary's command line: documented options, argument checks and the game
//! data lookup, all decided before a window opens; and where CI builds it.

use std::path::Path;
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

/// CI builds in a directory of its own checkout (issue 42): `.ci/target-dir` names one
/// per checkout path, so a copy of the scripts elsewhere builds elsewhere, and the same
/// checkout always builds in the same place.
#[test]
fn each_checkout_builds_in_a_target_directory_of_its_own() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = |root: &Path| {
        let out = Command::new(root.join(".ci/target-dir")).output().expect("the script runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let other = std::env::temp_dir().join(format!("iron3d-checkout-{}", std::process::id()));
    std::fs::create_dir_all(other.join(".ci")).unwrap();
    std::fs::copy(here.join(".ci/target-dir"), other.join(".ci/target-dir")).unwrap();
    let (mine, theirs) = (dir(here), dir(&other));
    assert!(mine.contains("/.cache/iron3d/target-"), "{mine}");
    assert_ne!(mine, theirs, "another checkout, another build directory");
    assert_eq!(mine, dir(here), "the same checkout, the same one");
    std::fs::remove_dir_all(other).unwrap();
}
