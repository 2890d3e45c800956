//! `iron3d-cli demo build OUT_DIR [--seed N]`: generate the demo game tree.

use clap::Subcommand;
use std::path::PathBuf;

/// Demo-content commands.
#[derive(Subcommand)]
pub enum DemoCommand {
    /// Write the demo game tree (deterministic: same seed, same bytes).
    Build {
        /// Output folder (the bundled demo lives in `assets/demo`).
        out_dir: PathBuf,
        /// Seed of every generator stream.
        #[arg(long, default_value_t = iron3d_demo::DEFAULT_SEED)]
        seed: u64,
    },
}

/// Runs a demo command.
pub fn run(cmd: DemoCommand) -> anyhow::Result<()> {
    let DemoCommand::Build { out_dir, seed } = cmd;
    let tree = iron3d_demo::build(seed)?;
    tree.write_to(&out_dir)?;
    println!("{}: {} files, {} bytes (seed {seed:#x})", out_dir.display(), tree.files().count(), tree.total_size());
    Ok(())
}
