//! `iron3d-cli validate GAME_DIR [--mod DIR]...`: open every archive of every layer (the
//! project's data, the game, the mods) in strict and in compatible mode, decode every
//! entry, and summarise.

use crate::layers::{LayerArchive, Mods, layer_archives, layers_json};
use crate::output::{print_json, progress};
use anyhow::bail;
use clap::Args;
use iron3d_formats::ReadOptions;
use iron3d_vfs::Archive;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `validate`.
#[derive(Args)]
pub struct ValidateArgs {
    /// Game directory.
    game_dir: PathBuf,
    /// Print JSON (with the layers and the layer of every archive checked).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    mods: Mods,
}

#[derive(Serialize, Default)]
struct Report {
    archives: usize,
    entries: usize,
    strict_failures: Vec<Failure>,
    compatible_failures: Vec<Failure>,
    layers: serde_json::Value,
    files: Vec<File>,
}

#[derive(Serialize)]
struct Failure {
    file: String,
    layer: String,
    error: String,
}

/// An archive checked and the layer it is in.
#[derive(Serialize)]
struct File {
    file: String,
    layer: String,
}

fn check(path: &std::path::Path, name: &str, options: ReadOptions) -> Result<usize, String> {
    let archive = Archive::open(path, name, options).map_err(|e| e.to_string())?;
    for i in 0..archive.len() {
        archive.read_index(i).map_err(|e| e.to_string())?;
    }
    Ok(archive.len())
}

/// Runs the validation; fails when any archive fails in either mode.
pub fn run(args: ValidateArgs) -> anyhow::Result<()> {
    let game = args.mods.open(&args.game_dir)?;
    let archives = layer_archives(&game);
    let bar = progress(archives.len() as u64, "validating");
    let mut report = Report { layers: layers_json(&game)?, ..Report::default() };
    for LayerArchive { layer, path, name } in archives {
        report.archives += 1;
        match check(&path, &name, ReadOptions::strict()) {
            Ok(n) => report.entries += n,
            Err(error) => report.strict_failures.push(Failure { file: name.clone(), layer: layer.clone(), error }),
        }
        if let Err(error) = check(&path, &name, ReadOptions::compatible()) {
            report.compatible_failures.push(Failure { file: name.clone(), layer: layer.clone(), error });
        }
        report.files.push(File { file: name, layer });
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.json {
        print_json(&report)?;
    } else {
        println!(
            "{} archives, {} entries; strict failures: {}; compatible failures: {}",
            report.archives,
            report.entries,
            report.strict_failures.len(),
            report.compatible_failures.len()
        );
        for f in report
            .strict_failures
            .iter()
            .map(|f| ("strict", f))
            .chain(report.compatible_failures.iter().map(|f| ("compatible", f)))
        {
            println!("  [{}] {}: {}", f.0, f.1.file, f.1.error);
        }
    }
    if !report.strict_failures.is_empty() || !report.compatible_failures.is_empty() {
        bail!("validation failed");
    }
    Ok(())
}
