//! `iron3d-cli`: inspect, extract, pack and verify Iron3D game data. Exit status 0 on
//! success, 1 on failure, 2 on a usage error (see [`EXIT_STATUS`]).

mod archive_cmd;
mod demo_cmd;
mod eu7_cmd;
mod layers;
mod mission_list;
mod model_cmd;
mod net_cmd;
mod output;
mod prototype_cmd;
mod save_cmd;
mod script_cmd;
mod sim_cmd;
mod sound_cmd;
mod unit_cmd;
mod validate_cmd;
mod verify_cmd;
mod world_cmd;

use clap::{Parser, Subcommand};

/// The exit statuses, as `--help` lists them.
const EXIT_STATUS: &str = "\
Exit status:
  0  success (a verified file is valid, an inspected file was read)
  1  failure: invalid or unreadable data, a failed verification, an I/O error
  2  usage error: unknown command, missing or malformed arguments

Archive entries are named ARCHIVE::ENTRY by every command (e.g. Textures.lib::GRASS01).
Inspecting commands take --json; errors go to standard error as `error: ...`.";

/// Inspect, extract, pack and verify Iron3D game data.
#[derive(Parser)]
#[command(name = "iron3d-cli", version, about, long_about = None, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// NRes and RsLi archives: list, extract, verify, round-trip, pack.
    #[command(subcommand)]
    Archive(archive_cmd::ArchiveCommand),
    /// Prototype registry (`objects.rlb`) queries.
    #[command(subcommand)]
    Prototype(prototype_cmd::PrototypeCommand),
    /// Sounds (SWAV): decode to WAV.
    #[command(subcommand)]
    Sound(sound_cmd::SoundCommand),
    /// Mission scripts: dump `.scr`, `.var`, `.fml`.
    #[command(subcommand)]
    Script(script_cmd::ScriptCommand),
    /// Check every archive of a game tree in strict and compatible mode.
    Validate(validate_cmd::ValidateArgs),
    /// Check a player's copy of the game: archives, textures, missions, placed objects,
    /// script packages, research trees, clans and behaviour profiles, one PASS/FAIL line
    /// each.
    #[command(after_help = verify_cmd::AFTER_HELP)]
    Verify(verify_cmd::VerifyArgs),
    /// Generate the demo game tree in the real formats.
    #[command(subcommand)]
    Demo(demo_cmd::DemoCommand),
    /// MaSzyna EU7B sceneries: info, section, verify, generate.
    #[command(subcommand)]
    Eu7(eu7_cmd::Eu7Command),
    /// Missions: the list with campaign states, the dependency graph.
    #[command(subcommand)]
    Mission(world_cmd::MissionCommand),
    /// `data.tma` mission files.
    #[command(subcommand)]
    Tma(world_cmd::TmaCommand),
    /// `Land.msh` terrain and `Land.map` areal map.
    #[command(subcommand)]
    Land(world_cmd::LandCommand),
    /// MSH models: info and export to glTF binary / OBJ.
    #[command(subcommand)]
    Model(model_cmd::ModelCommand),
    /// Texm textures: export mip levels to PNG.
    #[command(subcommand)]
    Texture(model_cmd::TextureCommand),
    /// The headless simulation: run a mission for N ticks, with orders, state hashes,
    /// saves and replays; re-simulate a replay.
    #[command(subcommand)]
    Sim(sim_cmd::HeadlessCommand),
    /// Warbot designs: fit, rate and price a design as the factory's designer does.
    #[command(subcommand)]
    Unit(unit_cmd::UnitCommand),
    /// Saves and replays: info.
    #[command(subcommand)]
    Save(save_cmd::SaveCommand),
    /// Multiplayer: bots that join a host and check its replicated state.
    #[command(subcommand)]
    Net(net_cmd::NetCommand),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Archive(cmd) => archive_cmd::run(cmd),
        Command::Prototype(cmd) => prototype_cmd::run(cmd),
        Command::Validate(args) => validate_cmd::run(args),
        Command::Verify(args) => verify_cmd::run(args),
        Command::Eu7(cmd) => eu7_cmd::run(cmd),
        Command::Demo(cmd) => demo_cmd::run(cmd),
        Command::Sound(cmd) => sound_cmd::run(cmd),
        Command::Script(cmd) => script_cmd::run(cmd),
        Command::Mission(cmd) => world_cmd::run_mission(cmd),
        Command::Tma(cmd) => world_cmd::run_tma(cmd),
        Command::Land(cmd) => world_cmd::run_land(cmd),
        Command::Model(cmd) => model_cmd::run(cmd),
        Command::Texture(cmd) => model_cmd::run_texture(cmd),
        Command::Sim(cmd) => sim_cmd::run(cmd),
        Command::Unit(cmd) => unit_cmd::run(cmd),
        Command::Save(cmd) => save_cmd::run(cmd),
        Command::Net(cmd) => net_cmd::run(cmd),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // The reader went away (`| head`): nothing more to say, to anyone.
        Err(e) if output::closed_output(&e) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.is::<output::UsageError>() { std::process::ExitCode::from(2) } else { std::process::ExitCode::FAILURE }
        }
    }
}
