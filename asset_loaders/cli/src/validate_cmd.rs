//! `iron3d-cli validate GAME_DIR`: open every archive of a tree in strict and in
//! compatible mode, decode every entry, and summarise.

use crate::output::{print_json, progress};
use anyhow::bail;
use clap::Args;
use iron3d_formats::ReadOptions;
use iron3d_vfs::{Archive, GameDir};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `validate`.
#[derive(Args)]
pub struct ValidateArgs {
    /// Game directory.
    game_dir: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize, Default)]
struct Report {
    archives: usize,
    entries: usize,
    strict_failures: Vec<Failure>,
    compatible_failures: Vec<Failure>,
}

#[derive(Serialize)]
struct Failure {
    file: String,
    error: String,
}

fn check(path: &std::path::Path, name: &str, options: ReadOptions) -> Result<usize, String> {
    let archive = Archive::open(path, name, options).map_err(|e| e.to_string())?;
    for i in 0..archive.len() {
        archive.read_index(i).map_err(|e| e.to_string())?;
    }
    Ok(archive.len())
}

/// True when the file starts with an NRes or RsLi magic.
fn is_archive(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok()
        && (magic == *b"NRes" || magic == *b"NL\0\x01")
}

/// Runs the validation; fails when any archive fails in either mode.
pub fn run(args: ValidateArgs) -> anyhow::Result<()> {
    let game = GameDir::open(&args.game_dir, ReadOptions::compatible())?;
    let archives: Vec<PathBuf> =
        game.index().files().filter(|p| is_archive(&game.root().join(p))).map(PathBuf::from).collect();
    let bar = progress(archives.len() as u64, "validating");
    let mut report = Report::default();
    for rel in &archives {
        let name = rel.display().to_string();
        let path = game.root().join(rel);
        report.archives += 1;
        match check(&path, &name, ReadOptions::strict()) {
            Ok(n) => report.entries += n,
            Err(error) => report.strict_failures.push(Failure { file: name.clone(), error }),
        }
        if let Err(error) = check(&path, &name, ReadOptions::compatible()) {
            report.compatible_failures.push(Failure { file: name, error });
        }
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
