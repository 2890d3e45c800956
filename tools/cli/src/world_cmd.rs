//! World commands: `mission graph GAME_DIR MISSION [--mod DIR]...`, `tma dump FILE`, `land info FILE`.

use crate::layers::{Mods, Recorded, layers_json};
use crate::output::{options, print_json};
use anyhow::{Context, bail};
use clap::Subcommand;
use iron3d_formats::world::mission_graph::Failure;
use iron3d_formats::world::{ArealMap, LandMsh, MissionGraph, PropertyValue, TerrainQuery, Tma};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Mission commands.
#[derive(Subcommand)]
pub enum MissionCommand {
    /// The missions of a game directory in the menu's order, with their campaign state.
    #[command(after_help = crate::mission_list::AFTER_HELP)]
    List(crate::mission_list::ListArgs),
    /// Dependency graph of a mission: objects -> keys -> prototypes -> MSH/WEAR -> ...
    Graph {
        /// Game directory.
        game_dir: PathBuf,
        /// Mission name as the game's `--mission` takes it (`single.01`,
        /// `campaign.01/mission.02`, a folder under `MISSIONS`), or the mission directory
        /// relative to the game root (`MISSIONS/single.01`).
        mission: String,
        /// Also resolve unreachable registry entries and report them as warnings.
        #[arg(long)]
        inventory: bool,
        /// Print JSON (with the layers and the layer of every file read).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        mods: Mods,
    },
}

/// `data.tma` commands.
#[derive(Subcommand)]
pub enum TmaCommand {
    /// Dump every section of a mission file.
    Dump {
        /// The `data.tma` file.
        file: PathBuf,
        /// Strict reading.
        #[arg(long)]
        strict: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Terrain / areal map commands.
#[derive(Subcommand)]
pub enum LandCommand {
    /// Counts of a `Land.msh` and/or `Land.map` (the sibling file is read too).
    Info {
        /// `Land.msh` or `Land.map`.
        file: PathBuf,
        /// Strict reading.
        #[arg(long)]
        strict: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

fn failure_json(f: &Failure) -> Value {
    json!({
        "object": f.object, "object_name": f.object_name, "key": f.key, "archive": f.archive,
        "entry": f.entry, "link": f.link.name(), "message": f.message,
    })
}

/// The mission directory relative to the game root: a directory holding `data.tma`
/// given by its path, else the folder of a mission name (`single.01`,
/// `campaign.01/mission.02`, a folder under `MISSIONS`).
fn mission_dir(game: &iron3d_vfs::GameDir, mission: &str) -> anyhow::Result<String> {
    if mission.contains(['/', '\\']) && game.resolve(&format!("{mission}/data.tma")).is_some() {
        return Ok(mission.to_string());
    }
    Ok(iron3d_mission::MissionName::parse(mission).map_err(anyhow::Error::msg)?.folder().to_string())
}

/// Runs a mission command.
pub fn run_mission(cmd: MissionCommand) -> anyhow::Result<()> {
    let (game_dir, mission, inventory, json, mods) = match cmd {
        MissionCommand::List(args) => return crate::mission_list::run(args),
        MissionCommand::Graph { game_dir, mission, inventory, json, mods } => {
            (game_dir, mission, inventory, json, mods)
        }
    };
    let game = mods.open(&game_dir)?;
    let files = Recorded::new(&game);
    let links = iron3d_formats::world::ParsedModelLinks::compatible();
    let report = MissionGraph::new(&files).with_model_links(&links).build(&mission_dir(&game, &mission)?, inventory)?;
    let (s, wx) = (report.stats, report.weather);
    if json {
        print_json(&json!({
            "mission": report.mission,
            "land_path": report.land_path,
            "materials_parsed": report.materials_parsed,
            "stats": {
                "placed_objects": s.placed_objects, "unit_references": s.unit_references,
                "components": s.components, "direct_keys": s.direct_keys,
                "prototype_requests": s.prototype_requests, "mesh_requests": s.mesh_requests,
                "non_geometric": s.non_geometric, "wear_requests": s.wear_requests,
                "material_slots": s.material_slots, "texture_requests": s.texture_requests,
                "lightmap_requests": s.lightmap_requests, "research_trees": s.research_trees,
                "failures": report.errors.len(),
            },
            "weather": {
                "table": wx.table, "schedule": wx.schedule, "material_slots": wx.requests.material_slots,
                "texture_requests": wx.requests.texture_requests, "lightmap_requests": wx.requests.lightmap_requests,
            },
            "errors": report.errors.iter().map(failure_json).collect::<Vec<_>>(),
            "warnings": report.warnings.iter().map(failure_json).collect::<Vec<_>>(),
            "layers": layers_json(&game)?,
            "files": files.files_json(),
            "off_map": report.off_map.iter().map(|o| json!({
                "what": o.what, "x": o.position[0], "y": o.position[1],
            })).collect::<Vec<_>>(),
        }))?;
    } else {
        println!("mission {} (land {})", report.mission, report.land_path);
        println!(
            "  placed objects {}, unit references {} -> components {}, direct keys {}",
            s.placed_objects, s.unit_references, s.components, s.direct_keys
        );
        println!(
            "  prototype/MSH/WEAR requests {} (meshes {}, non-geometric {}, WEAR {})",
            s.prototype_requests, s.mesh_requests, s.non_geometric, s.wear_requests
        );
        if report.materials_parsed {
            println!(
                "  material slots {}, texture requests {} + lightmaps {}",
                s.material_slots, s.texture_requests, s.lightmap_requests
            );
        } else {
            println!("  materials: counted by entry presence only (WEAR/MAT0 not parsed)");
        }
        println!("  clan research trees {}", s.research_trees);
        let schedule = if wx.schedule { "present (layout opaque, not read)" } else { "absent" };
        if wx.table {
            let r = wx.requests;
            println!(
                "  weather: sky.wea material slots {}, texture requests {} + lightmaps {}; sky.ske {schedule}",
                r.material_slots, r.texture_requests, r.lightmap_requests
            );
        } else {
            println!("  weather: sky.wea absent; sky.ske {schedule}");
        }
        for e in &report.errors {
            println!("  error: {e}");
        }
        for w in &report.warnings {
            println!("  warning: {w}");
        }
        for o in &report.off_map {
            println!("  off the walkable map: {o}");
        }
        println!("  failures {}", report.errors.len());
    }
    if !report.errors.is_empty() {
        bail!("{} reachable failures", report.errors.len());
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn value_json(v: PropertyValue) -> Value {
    match v {
        PropertyValue::Float(f) => json!({ "float": f }),
        PropertyValue::Int(i) => json!({ "int": i }),
        PropertyValue::Raw { kind, value } => json!({ "type": kind, "raw": value }),
    }
}

fn tma_json(t: &Tma) -> Value {
    let clans: Vec<Value> = t
        .clans
        .iter()
        .map(|c| {
            let zones: Vec<Value> = c
                .zones
                .iter()
                .map(|z| json!({ "kind": z.kind, "centre": z.centre, "inner": z.inner, "outer": z.outer }))
                .collect();
            json!({
                "name": c.name.display(), "raw_id": c.raw_id, "anchor": [c.anchor_x, c.anchor_y], "mode": c.mode,
                "type": iron3d_core::ClanType::name(c.mode), "script": c.script.display(), "zones": zones,
                "research_tree": c.research_tree.display(), "minds": c.minds,
                "relations": c.relations.iter().map(|(n, v)| json!({ "clan": n.display(), "value": v })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let objects: Vec<Value> = t
        .objects
        .iter()
        .map(|o| {
            json!({
                "raw_kind": o.raw_kind, "class_or_flags": o.class_or_flags, "resource_name": o.resource_name.display(),
                "unit_reference": o.is_unit_reference(), "raw_after_resource": o.raw_after_resource,
                "identity_or_clan_raw": o.identity_or_clan_raw, "position": o.position, "orientation": o.orientation,
                "scale": o.scale, "instance_name": o.instance_name.display(), "raw_after_name": o.raw_after_name,
                "link0": o.link0, "link1": o.link1, "property_schema_version": o.property_schema_version,
                "properties": o.properties.iter().map(|p| json!({
                    "name": p.name.display(), "raw_value": p.raw_value, "value": value_json(p.value()),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "format_version": t.format_version,
        "paths": t.paths.iter().map(|p| json!({ "path_id": p.path_id, "points": p.points })).collect::<Vec<_>>(),
        "clan_section_version": t.clan_section_version,
        "clans": clans,
        "object_section_version": t.object_section_version,
        "objects": objects,
        "land_path": t.land_path.display(),
        "mission_flag": t.mission_flag,
        "description": t.description_text(),
        "description_hex": hex(t.description_raw.as_bytes()),
        "extra_section_version": t.extra_section_version,
        "extras": t.extras.iter().map(|e| json!({ "position": e.position, "words": e.words })).collect::<Vec<_>>(),
        "diagnostics": t.diagnostics.iter().map(|d| json!({ "offset": d.offset, "rule": d.rule, "detail": d.detail })).collect::<Vec<_>>(),
    })
}

/// Runs a TMA command.
pub fn run_tma(cmd: TmaCommand) -> anyhow::Result<()> {
    let TmaCommand::Dump { file, strict, json } = cmd;
    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
    let tma = Tma::parse(&bytes, options(strict)).with_context(|| format!("parsing {}", file.display()))?;
    if json {
        return print_json(&tma_json(&tma));
    }
    println!("land {}  flag {}", tma.land_path.display(), tma.mission_flag);
    println!(
        "paths {}  clans {}  objects {}  extras {}",
        tma.paths.len(),
        tma.clans.len(),
        tma.objects.len(),
        tma.extras.len()
    );
    for (i, o) in tma.objects.iter().enumerate() {
        println!("  {i:4} {} at {:?} ({} properties)", o.resource_name.display(), o.position, o.properties.len());
    }
    for d in &tma.diagnostics {
        println!("  diagnostic at {:#x}: {} {}", d.offset, d.rule, d.detail);
    }
    Ok(())
}

/// The sibling of `file` with extension `ext` (case-insensitive), if present.
fn sibling(file: &Path, ext: &str) -> Option<PathBuf> {
    let stem = file.file_stem()?.to_string_lossy().to_ascii_lowercase();
    let dir = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).find(|p| {
        p.file_stem().is_some_and(|s| s.to_string_lossy().to_ascii_lowercase() == stem)
            && p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
    })
}

/// Runs a land command.
pub fn run_land(cmd: LandCommand) -> anyhow::Result<()> {
    let LandCommand::Info { file, strict, json } = cmd;
    let opts = options(strict);
    let is_map = file.extension().is_some_and(|e| e.eq_ignore_ascii_case("map"));
    let (msh_path, map_path) =
        if is_map { (sibling(&file, "msh"), Some(file.clone())) } else { (Some(file.clone()), sibling(&file, "map")) };
    let mut out = json!({ "terrain": null, "areal_map": null });
    if let Some(path) = msh_path {
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let t = LandMsh::parse(&bytes, opts).with_context(|| format!("parsing {}", path.display()))?;
        let q = TerrainQuery::new(&t);
        out["terrain"] = json!({
            "file": path.display().to_string(), "vertices": t.positions.len(), "faces": t.faces.len(),
            "nodes": t.nodes.len(), "slots": t.slots.len(), "query_grid": q.grid_dims(),
            "max_faces_per_cell": q.max_faces_per_cell(),
        });
    }
    if let Some(path) = map_path {
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let m = ArealMap::parse(&bytes, opts).with_context(|| format!("parsing {}", path.display()))?;
        out["areal_map"] = json!({
            "file": path.display().to_string(), "areals": m.areals.len(), "vertices": m.vertex_count(),
            "grid": [m.cells_x, m.cells_y], "max_candidates": m.max_candidates(),
        });
    }
    if json {
        return print_json(&out);
    }
    if let Some(t) = out["terrain"].as_object() {
        println!("terrain {}: {} vertices, {} faces", t["file"], t["vertices"], t["faces"]);
    }
    if let Some(m) = out["areal_map"].as_object() {
        println!(
            "areal map {}: {} areals, grid {}, max {} candidates",
            m["file"], m["areals"], m["grid"], m["max_candidates"]
        );
    }
    Ok(())
}
