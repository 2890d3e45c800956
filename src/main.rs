//! The `iron3d` desktop game: parses the command line, adds the plugins, runs.

mod shell;

use clap::Parser;
use std::path::PathBuf;

/// Iron3D engine re-implementation (Parkan: Iron Strategy).
#[derive(Parser, Debug, Clone)]
#[command(name = "iron3d", version, about)]
pub struct Args {
    /// Game data directory: an installed copy of the original game, or the bundled demo.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo"))]
    pub data: PathBuf,
    /// Mission to open directly (a folder name under MISSIONS).
    #[arg(long)]
    pub mission: Option<String>,
    /// Run in a window (the default).
    #[arg(long, conflicts_with = "fullscreen")]
    pub windowed: bool,
    /// Run full screen (borderless).
    #[arg(long)]
    pub fullscreen: bool,
    /// Save a PNG of the window after `--exit-after-frames` frames, then exit.
    #[arg(long, requires = "exit_after_frames")]
    pub screenshot: Option<PathBuf>,
    /// Open the EU7B scenery viewer on this `.eu7` file instead of the main menu
    /// (free-fly camera, sections streamed around it; see the overlay for the keys).
    #[arg(long, value_name = "FILE")]
    pub eu7: Option<PathBuf>,
    /// Render this many frames, then exit (with `--screenshot`: capture, then exit).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub exit_after_frames: Option<u32>,
}

fn main() -> bevy::app::AppExit {
    shell::app(Args::parse()).run()
}
