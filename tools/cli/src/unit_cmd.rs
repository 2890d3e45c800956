//! `iron3d-cli unit design`: a warbot fitted, rated and priced as the original's
//! factory designer does (`iron3d_production::design`), written as a unit file.

use crate::layers::Mods;
use crate::output::{UsageError, print_json, print_text};
use anyhow::{Context, anyhow};
use clap::{Args, Subcommand};
use iron3d_core::ClanType;
use iron3d_formats::ReadOptions;
use iron3d_formats::world::Tma;
use iron3d_mission::{Catalogue, GameMissionBackend, MissionName};
use iron3d_production::ResearchTree;
use iron3d_production::design::{self, DesignError, Offer, Price, Rated, Rating, Request, Scales, Socket};
use iron3d_vfs::GameDir;
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;

/// What `--help` adds after the options.
pub const AFTER_HELP: &str = "\
The chassis fills its labelled slots with their default parts (<label>_df) when the clan's tree offers them, the \
turret its radar and deflector slots, each gun its clip. With --json: {\"file\", \"name\" (as the designer shows it, LFW-X Warrior), \"type\", \"parts\": [...], \
\"price\": {\"ore\", \"power\", \"seconds\"}, \"mass\", \"spare\" (kg), \"speed\" (m/s), \"kph\", \"defence\", \
\"offence\", \"defence_percent\", \"offence_percent\", \"sensor_range\", \"boxes\": {PART: [[label, value], ...] (its part's \
box: its stat template's rows with the part's figures) or {\"error\"}}, \"mission\", \"clan\"}; a refusal is \
{\"refused\": {\"part\", \"why\"}} with exit status 1 and no file written.";

/// `unit` subcommands.
#[derive(Subcommand, Debug)]
pub enum UnitCommand {
    /// Fit a chassis, a turret and guns as the factory's designer does; print the
    /// design's price, mass, speed, defence and offence, and write it as a unit file.
    #[command(after_help = AFTER_HELP)]
    Design(DesignArgs),
}

/// `unit design` arguments.
#[derive(Args, Debug)]
pub struct DesignArgs {
    /// Game directory.
    game_dir: PathBuf,
    /// The chassis's part id (R_L_03).
    #[arg(long)]
    chassis: String,
    /// The turret's part id; it must take the chassis's turret socket.
    #[arg(long)]
    turret: String,
    /// A gun on a turret socket, SLOT=ID: SLOT the socket's mesh node, or its label when
    /// one socket has it. Repeatable.
    #[arg(long = "gun", value_name = "SLOT=ID")]
    guns: Vec<String>,
    /// A part for the design's slots labelled LABEL (armour i_arm_b, an internal system
    /// i_eng_l, ammunition i_c15_b), in place of their default; it must start with the
    /// label. Repeatable.
    #[arg(long = "part", value_name = "LABEL=ID")]
    parts: Vec<String>,
    /// The clan whose research tree offers and prices the parts (default: the mission's
    /// player clan).
    #[arg(long)]
    clan: Option<usize>,
    /// The mission whose clans are read (default: the first the menu lists).
    #[arg(long)]
    mission: Option<String>,
    /// The factory's efficiency, which divides the ore.
    #[arg(long, default_value_t = 1.0)]
    efficiency: f32,
    /// Where the unit file is written.
    #[arg(short = 'o', long = "output", value_name = "FILE.dat")]
    output: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    mods: Mods,
}

/// Runs a `unit` subcommand.
pub fn run(cmd: UnitCommand) -> anyhow::Result<()> {
    let UnitCommand::Design(args) = cmd;
    design(args)
}

/// The clan chosen and its research tree's path.
fn clan_tree(game: &GameDir, mission: &MissionName, clan: Option<usize>) -> anyhow::Result<(usize, String)> {
    let file = mission.file("data.tma");
    let tma = Tma::parse(&game.read_file(&file)?, ReadOptions::compatible()).with_context(|| file.clone())?;
    let index = match clan {
        Some(i) if i < tma.clans.len() => i,
        Some(i) => {
            return Err(UsageError(format!("mission {mission} has {} clans, no clan {i}", tma.clans.len())).into());
        }
        None => tma
            .clans
            .iter()
            .position(|c| c.mode == ClanType::PLAYER)
            .ok_or_else(|| anyhow!("mission {mission} has no player clan: name one with --clan"))?,
    };
    let path = tma.clans[index].research_tree.display();
    if path.is_empty() {
        return Err(anyhow!("clan {index} of mission {mission} has no research tree"));
    }
    Ok((index, path))
}

fn request(args: &DesignArgs) -> anyhow::Result<Request> {
    let pairs = |given: &[String], flag: &str| {
        given
            .iter()
            .map(|g| match g.split_once('=') {
                Some((slot, id)) => Ok((slot.to_string(), id.to_string())),
                None => Err(anyhow::Error::from(UsageError(format!("--{flag} {g}: expected SLOT=ID")))),
            })
            .collect::<anyhow::Result<Vec<_>>>()
    };
    let guns = pairs(&args.guns, "gun")?;
    let guns = guns.into_iter().map(|(s, id)| (s.parse::<Socket>().unwrap_or_else(|never| match never {}), id));
    let fits = pairs(&args.parts, "part")?;
    Ok(Request { chassis: args.chassis.clone(), turret: args.turret.clone(), guns: guns.collect(), fits })
}

fn design(args: DesignArgs) -> anyhow::Result<()> {
    let request = request(&args)?;
    let game = Arc::new(args.mods.open(&args.game_dir)?);
    let mission = match &args.mission {
        Some(m) => MissionName::parse(m).map_err(UsageError)?,
        None => Catalogue::discover(&game)
            .missions
            .first()
            .map(|m| m.name.clone())
            .ok_or_else(|| anyhow!("{} lists no mission to read the clans of", args.game_dir.display()))?,
    };
    let (clan, tree_path) = clan_tree(&game, &mission, args.clan)?;
    let bytes = game.read_file(&tree_path).with_context(|| format!("clan {clan}'s research tree"))?;
    let tree = ResearchTree::parse(&tree_path, &bytes).map_err(|e| anyhow!(e))?;
    let ini = design::settings(&game).map_err(|e| anyhow!(e))?;
    let offer = Offer::read(&game, tree, &ini).map_err(|e| anyhow!(e))?;
    let backend = GameMissionBackend::new(Arc::clone(&game));
    let rated =
        design::rate(&backend, &offer.catalogue(), &request, args.efficiency).and_then(|r| r.acceptable().map(|()| r));
    let Rated { design: d, rating, price } = match rated {
        Ok(r) => r,
        Err(DesignError::Refused { part, why }) => {
            if args.json {
                print_json(&json!({"refused": {"part": part, "why": why}}))?;
            }
            return Err(anyhow!("refused: {part}: {why}"));
        }
        Err(DesignError::Data(e)) => return Err(anyhow!(e)),
    };
    std::fs::write(&args.output, d.dat.to_bytes()).with_context(|| format!("writing {}", args.output.display()))?;
    let boxes = d.parts.iter().map(|p| {
        let rows = iron3d_production::stats::box_of(&backend, &offer.catalogue(), p);
        (p.clone(), rows.map_or_else(|e| json!({"error": e}), |rows| json!(rows)))
    });
    let boxes: serde_json::Map<String, serde_json::Value> = boxes.collect();
    report(&args, &d, (&rating, &price, boxes), &Scales::from_ini(&ini), (&mission, clan))
}

fn report(
    args: &DesignArgs,
    d: &design::Design,
    (rating, price, boxes): (&Rating, &Price, serde_json::Map<String, serde_json::Value>),
    scales: &Scales,
    (mission, clan): (&MissionName, usize),
) -> anyhow::Result<()> {
    let defence = scales.shown(rating.defence, scales.defence);
    let offence = scales.shown(rating.offence, scales.offence);
    let kph = rating.speed * 3.6;
    if args.json {
        return print_json(&json!({
            "file": args.output.display().to_string(),
            "name": d.name,
            "type": format!("0x{:08x}", d.dat.class_word()),
            "parts": d.parts,
            "price": price,
            "mass": rating.mass,
            "spare": rating.spare,
            "speed": rating.speed,
            "kph": kph,
            "defence": rating.defence,
            "offence": rating.offence,
            "defence_percent": defence,
            "offence_percent": offence,
            "sensor_range": rating.sensor_range,
            "boxes": boxes,
            "mission": mission.as_str(),
            "clan": clan,
        }));
    }
    let percent = if scales.normalize { " %" } else { "" };
    print_text(&format!(
        "{} ({}): {}\nPrice: {:.1} ore, {:.1} power, {} s\nWeight: {:.0} / {:.0} t\nMax. speed: {kph:.0} kph\n\
         Defence: {defence}{percent}\nOffence: {offence}{percent}\nSensor range: {:.0} m\n",
        d.name,
        args.output.display(),
        d.parts.join(", "),
        price.ore,
        price.power,
        price.seconds,
        rating.mass * 0.001,
        rating.spare * 0.001,
        rating.sensor_range,
    ))
}
