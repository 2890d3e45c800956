//! `iron3d-cli prototype resolve GAME_DIR KEY`: expand a prototype through
//! `objects.rlb` and show its effective references with provenance.

use crate::output::print_json;
use anyhow::Context;
use clap::Subcommand;
use iron3d_formats::ReadOptions;
use iron3d_formats::registry::{MeshSource, PrototypeResolver};
use iron3d_vfs::GameDir;
use serde::Serialize;
use std::path::PathBuf;

/// Prototype commands.
#[derive(Subcommand)]
pub enum PrototypeCommand {
    /// Resolve a prototype key to its mesh, materials and helper resources.
    Resolve {
        /// Game directory.
        game_dir: PathBuf,
        /// Prototype key (case-insensitive).
        key: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Serialize)]
struct Resolved {
    key: String,
    mesh_kind: &'static str,
    mesh: Option<String>,
    wear: Option<String>,
    refs: Vec<RefRow>,
}

#[derive(Serialize)]
struct RefRow {
    archive: String,
    resource: String,
    provenance: String,
}

/// Runs a prototype command.
pub fn run(cmd: PrototypeCommand) -> anyhow::Result<()> {
    let PrototypeCommand::Resolve { game_dir, key, json } = cmd;
    let game = GameDir::open(&game_dir, ReadOptions::compatible())?;
    let registry = game.archive("objects.rlb").context("opening objects.rlb")?;
    let nres = registry.nres().context("objects.rlb is not an NRes archive")?;
    let resolver = PrototypeResolver::new(&nres, &game);
    let result = resolver.resolve(&key);
    let p = result.as_ref().as_ref().map_err(Clone::clone)?;
    let (mesh_kind, mesh) = match &p.mesh {
        MeshSource::Explicit(r) => ("explicit", Some(format!("{}::{}", r.archive, r.resource))),
        MeshSource::BasStem(r) => ("bas_stem", Some(format!("{}::{}", r.archive, r.resource))),
        MeshSource::NonGeometric => ("non_geometric", None),
    };
    let out = Resolved {
        key: p.key.clone(),
        mesh_kind,
        mesh,
        wear: p.wear().map(|r| format!("{}::{}", r.archive, r.resource)),
        refs: p
            .refs
            .iter()
            .map(|r| RefRow {
                archive: r.archive.clone(),
                resource: r.resource.clone(),
                provenance: r.provenance.clone(),
            })
            .collect(),
    };
    if json {
        return print_json(&out);
    }
    println!("prototype {} ({mesh_kind})", out.key);
    if let Some(m) = &out.mesh {
        println!("  mesh: {m}");
    }
    if let Some(w) = &out.wear {
        println!("  wear: {w}");
    }
    for r in &out.refs {
        println!("  {}::{}  (from {})", r.archive, r.resource, r.provenance);
    }
    Ok(())
}
