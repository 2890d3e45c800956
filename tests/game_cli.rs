//! The `iron3d` binary's command line: documented options and argument checks.

use std::process::Command;

fn game(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d")).args(args).output().expect("runs")
}

#[test]
fn help_lists_every_option() {
    let o = game(&["--help"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for option in ["--data", "--mission", "--windowed", "--fullscreen", "--screenshot", "--exit-after-frames"] {
        assert!(text.contains(option), "{option} missing from --help");
    }
}

#[test]
fn bad_arguments_are_rejected_before_a_window_opens() {
    assert!(!game(&["--windowed", "--fullscreen"]).status.success());
    assert!(!game(&["--screenshot", "x.png"]).status.success(), "--screenshot needs a frame count");
    assert!(!game(&["--exit-after-frames", "0"]).status.success());
}
