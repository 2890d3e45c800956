//! `iron3d-cli`: inspect, extract, pack and verify Iron3D game data. Exit code 0 only
//! on success.

mod archive_cmd;
mod model_cmd;
mod output;
mod prototype_cmd;
mod validate_cmd;

use clap::{Parser, Subcommand};

/// Inspect, extract, pack and verify Iron3D game data.
#[derive(Parser)]
#[command(name = "iron3d-cli", version, about, long_about = None)]
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
    /// Check every archive of a game tree in strict and compatible mode.
    Validate(validate_cmd::ValidateArgs),
    /// MSH models: info and export to glTF binary / OBJ.
    #[command(subcommand)]
    Model(model_cmd::ModelCommand),
    /// Texm textures: export mip levels to PNG.
    #[command(subcommand)]
    Texture(model_cmd::TextureCommand),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Archive(cmd) => archive_cmd::run(cmd),
        Command::Prototype(cmd) => prototype_cmd::run(cmd),
        Command::Validate(args) => validate_cmd::run(args),
        Command::Model(cmd) => model_cmd::run(cmd),
        Command::Texture(cmd) => model_cmd::run_texture(cmd),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
