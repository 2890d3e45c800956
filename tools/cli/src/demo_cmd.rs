//! `iron3d-cli demo build OUT_DIR [--seed N] [--original-like]`: generate the demo game
//! tree (or its copy laid out like an installed original: robot schemes renamed in the
//! original's style, project-only properties dropped).

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
        /// Rename the robot unit schemes in the original's style (`W_M_TNK1.DAT`, ...)
        /// everywhere and drop the properties the original does not use: a tree on
        /// which the rules must work from the data alone.
        #[arg(long)]
        original_like: bool,
    },
}

/// Runs a demo command.
pub fn run(cmd: DemoCommand) -> anyhow::Result<()> {
    let DemoCommand::Build { out_dir, seed, original_like } = cmd;
    let mut tree = iron3d_demo::build(seed)?;
    if original_like {
        tree = iron3d_demo::original_like::rewrite(&tree)?;
    }
    tree.write_to(&out_dir)?;
    println!("{}: {} files, {} bytes (seed {seed:#x})", out_dir.display(), tree.files().count(), tree.total_size());
    Ok(())
}
