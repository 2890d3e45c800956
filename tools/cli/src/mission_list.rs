//! `iron3d-cli mission list`: the missions of a game directory as the menu lists them
//! (campaigns by number and their missions by number, then single, then tutorial
//! missions), each with its kind, `descr` title and state from the campaign progress.

use crate::output::print_json;
use iron3d_mission::campaign::{Campaign, CampaignProgress};
use iron3d_mission::catalogue::preflight;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// What `--help` adds after the options.
pub const AFTER_HELP: &str = "\
With --json: {\"missions\": [{\"name\", \"kind\", \"title\", \"state\"}, ...]}; kind is campaign, single or \
tutorial; state is completed, failed (the last outcome failed, never completed), available, locked (a campaign \
mission whose predecessor is not completed) or broken (with \"error\": why its files do not load). The progress is \
read from --user-dir, else IRON3D_USER_DIR, else the platform's data directory; MISSIONS/dispatcher.ini's \
[COMPLETE] entries count as completed.";

/// `mission list` arguments.
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Game directory.
    game_dir: PathBuf,
    /// The user data directory holding the campaign progress.
    #[arg(long)]
    user_dir: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    mods: crate::layers::Mods,
}

#[derive(Serialize)]
struct Row {
    name: String,
    kind: &'static str,
    title: String,
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The progress in `user_dir`, else the user's data directory (none: empty progress).
///
/// # Errors
/// The progress file exists but cannot be read.
pub fn progress_in(user_dir: Option<&Path>) -> anyhow::Result<CampaignProgress> {
    match user_dir.map(Path::to_path_buf).or_else(iron3d_vfs::user_files::data_dir) {
        Some(dir) => CampaignProgress::load(&dir).map_err(anyhow::Error::msg),
        None => Ok(CampaignProgress::default()),
    }
}

/// Runs `mission list`.
pub fn run(args: ListArgs) -> anyhow::Result<()> {
    let game = args.mods.open(&args.game_dir)?;
    let campaign = Campaign::open(&game);
    for w in &campaign.warnings {
        eprintln!("warning: {w}");
    }
    let progress = progress_in(args.user_dir.as_deref())?;
    let rows: Vec<Row> = campaign
        .catalogue
        .missions
        .iter()
        .map(|m| {
            let error = preflight(&game, &m.name).err();
            let state = if error.is_some() { "broken" } else { campaign.state(&progress, &m.name).name() };
            let kind = m.name.kind().map_or("folder", |k| k.name());
            Row { name: m.name.to_string(), kind, title: m.title.clone(), state, error }
        })
        .collect();
    if args.json {
        return print_json(&serde_json::json!({ "missions": rows }));
    }
    if rows.is_empty() {
        println!("no missions in {}", args.game_dir.display());
    }
    for r in &rows {
        println!("{:<24} {:<9} {:<10} {}", r.name, r.kind, r.state, r.title);
        if let Some(e) = &r.error {
            println!("{:<24} error: {e}", "");
        }
    }
    Ok(())
}
