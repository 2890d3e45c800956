//! `iron3d-cli save info` and `sim replay`, and the save and replay files of `sim run`
//! (`--save-at`/`--save`, `--load`, `--record`): reading and writing them with the file
//! named in every message.

use crate::layers::Mods;
use crate::output::print_json;
use anyhow::{anyhow, bail};
use bevy_ecs::world::World;
use clap::Subcommand;
use iron3d_core::GameClock;
use iron3d_save::{Container, FORMAT_VERSION, FileKind, Record};
use iron3d_sim::StateHash;
use serde::Serialize;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `save` subcommands.
#[derive(Subcommand, Debug)]
pub enum SaveCommand {
    /// A save's (or a replay's) header and chunks.
    #[command(after_help = "Exit status: 0 for a sound file; 1 for a damaged, truncated, foreign or newer one \
        (the message names the part, a chunk or the header, and the byte offset).")]
    Info {
        /// The file.
        file: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `save` subcommand.
pub fn run(cmd: SaveCommand) -> anyhow::Result<()> {
    let SaveCommand::Info { file, json } = cmd;
    let bytes = std::fs::read(&file).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let kind = FileKind::detect(&bytes).unwrap_or(FileKind::Save);
    let c = Container::decode(&bytes, kind).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let h = &c.header;
    let chunks: Vec<Value> = c
        .chunks
        .iter()
        .map(|k| json!({"name": k.name(), "version": k.version, "offset": k.offset, "stored": k.stored, "size": k.data.len()}))
        .collect();
    let layers: Vec<Value> =
        h.layers.0.iter().map(|l| json!({"name": l.name, "fingerprint": format!("{:016x}", l.fingerprint)})).collect();
    if json {
        return print_json(&json!({
            "kind": kind.name(),
            "format_version": h.format_version,
            "engine_version": h.engine_version,
            "mission": h.mission,
            "tick": h.tick,
            "layers": layers,
            "size": bytes.len(),
            "chunks": chunks,
        }));
    }
    println!("{}: {} of {} at tick {}", file.display(), kind.name(), h.mission, h.tick);
    println!("format version {} (this engine writes {FORMAT_VERSION}), engine {}", h.format_version, h.engine_version);
    println!("data layers: {}", h.layers);
    for k in &c.chunks {
        println!("  {} v{} at {:8}: {} bytes ({} stored)", k.name(), k.version, k.offset, k.data.len(), k.stored);
    }
    Ok(())
}

/// Reads a file of `kind`; errors name the file.
pub fn read(file: &Path, kind: FileKind) -> anyhow::Result<Record> {
    let bytes = std::fs::read(file).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    Record::decode(&bytes, kind).map_err(|e| anyhow!("{}: {e}", file.display()))
}

/// Writes the world's record of `kind` to `file` transactionally (hashes every `every`
/// ticks and at the last).
pub fn write(world: &World, file: &Path, kind: FileKind, mission: &str, every: u32) -> anyhow::Result<()> {
    let record = Record::capture(world, kind, mission, every).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    iron3d_save::slots::write_slot(file, &record, iron3d_save::slots::now()).map_err(anyhow::Error::msg)?;
    Ok(())
}

#[derive(Serialize)]
struct Mismatch {
    tick: u32,
    recorded: String,
    computed: String,
}

#[derive(Serialize)]
struct ReplayReport {
    mission: String,
    ticks: u32,
    hash_checks: u32,
    mismatches: u32,
    first_mismatch: Option<Mismatch>,
    final_hash: Option<String>,
}

/// `sim replay`: re-simulates the replay headless and checks every recorded hash.
pub fn replay(game_dir: &Path, file: &Path, json: bool, mods: &Mods) -> anyhow::Result<()> {
    let record = read(file, FileKind::Replay)?;
    let game = Arc::new(mods.open(game_dir)?);
    let mut app = iron3d_sim::headless_app();
    app.add_plugins((iron3d_mission::MissionPlugin, iron3d_save::SavePlugin));
    let checked =
        iron3d_save::replay(&mut app, &game, &record, None).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let world = app.world();
    let report = ReplayReport {
        mission: record.mission.clone(),
        ticks: world.resource::<GameClock>().tick,
        hash_checks: checked.hash_checks,
        mismatches: u32::from(checked.mismatch.is_some()),
        first_mismatch: checked.mismatch.map(|m| Mismatch {
            tick: m.tick,
            recorded: format!("{:016x}", m.recorded),
            computed: format!("{:016x}", m.computed),
        }),
        final_hash: world.resource::<StateHash>().last().map(|(_, h)| format!("{h:016x}")),
    };
    if json {
        print_json(&report)?;
    } else {
        println!(
            "{}: {} of {} ticks, {} hash checks",
            file.display(),
            report.mission,
            report.ticks,
            report.hash_checks
        );
    }
    if let Some(m) = &report.first_mismatch {
        bail!(
            "{}: the replay diverges at tick {}: state hash {}, recorded {}",
            file.display(),
            m.tick,
            m.computed,
            m.recorded
        );
    }
    Ok(())
}
