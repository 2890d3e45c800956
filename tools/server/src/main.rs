//! `iron3d-server`: the dedicated host. Loads a mission, opens the UDP port, prints
//! `listening on ADDR` once clients can join, and runs the simulation in real time
//! without a window, a GPU or audio (until `--ticks` ticks have run, if given). With
//! `--wait-players N` the mission clock starts only once N joined players are ready;
//! with `--speed K` it runs K ticks per 64 ms of wall time. It exits once the session
//! ends (every player's clan has its outcome).

use clap::Parser;
use iron3d_core::GameClock;
use iron3d_net::speed::MAX_SPEED;
use iron3d_net::{
    Clock, DEFAULT_PORT, DEFAULT_REJOIN_SECONDS, HostSettings, LeavePolicy, MAX_PLAYERS, NetWatcher, SessionEnd,
    host_app,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the server stays up after the session ended (its last messages reach
/// the clients).
const END_GRACE: Duration = Duration::from_secs(2);

/// The dedicated Iron3D host.
#[derive(Parser, Debug)]
#[command(
    name = "iron3d-server",
    version,
    about = "Host an Iron3D multiplayer session without a window",
    after_help = "Clients join with `iron3d --join ADDR` or `iron3d-cli net bots --server ADDR`. Players take the \
    mission's playing clans in turn. A player whose connection drops keeps its seat, number and units for \
    --rejoin-seconds of game time (default 60) while the computer plays its clan, and takes them back by rejoining; \
    after that its units go to another player of its clan or to the computer (--leave delete removes them). With \
    --wait-players N, players wait in the lobby and the mission clock (and --ticks) starts when N of them are ready. \
    With --speed K the host runs K ticks per 64 ms of wall time (fast-forward) and clients follow its clock. Once \
    every clan a player commands has its outcome the session ends for everyone and the server exits (status 0). \
    Logs go to stderr (RUST_LOG=resnet=debug,netwatch=debug for more).\n\n\
    Exit status: 0 after --ticks ticks or when the session ended; 1 when the game data (a layer: the project's data, --data, a --mod) or the \
    mission cannot be loaded or the port cannot be opened; 2 on a usage error."
)]
struct Args {
    /// Game directory (an installed game or the bundled demo).
    #[arg(long)]
    data: PathBuf,
    /// A mod directory laid over the game directory (its files replace the game's of the
    /// same path or add to them). Repeatable; a later mod wins. Clients must play with
    /// the same layers.
    #[arg(long = "mod", value_name = "DIR")]
    mods: Vec<PathBuf>,
    /// Mission name (the folder under MISSIONS).
    #[arg(long)]
    mission: String,
    /// UDP port (0: any free port).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Most players.
    #[arg(long, default_value_t = MAX_PLAYERS, value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_PLAYERS)))]
    max_players: u8,
    /// Exit after this many simulation ticks (64 ms each).
    #[arg(long)]
    ticks: Option<u32>,
    /// What happens to a departed player's units.
    #[arg(long, value_enum, default_value_t = Leave::Transfer)]
    leave: Leave,
    /// Hold the mission clock until this many joined players are ready (0: start at once).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=i64::from(MAX_PLAYERS)))]
    wait_players: u8,
    /// Ticks run per 64 ms of wall time (1: real time; up to 8 to fast-forward).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_SPEED)))]
    speed: u8,
    /// Seconds of game time a dropped player's seat, number and units wait for it to
    /// rejoin, the computer playing its clan meanwhile (0: it leaves at once).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_REJOIN_SECONDS)]
    rejoin_seconds: u32,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
enum Leave {
    /// To another player of the clan, else the computer.
    Transfer,
    /// Deleted.
    Delete,
}

fn main() -> ExitCode {
    let args = Args::parse();
    iron3d_net::init_logging();
    if args.wait_players > args.max_players {
        use clap::CommandFactory;
        let why = format!("--wait-players {} exceeds --max-players {}", args.wait_players, args.max_players);
        Args::command().error(clap::error::ErrorKind::ArgumentConflict, why).exit();
    }
    let layers = iron3d_vfs::layer::standard_stack(&args.data, &args.mods);
    let opened = layers.and_then(|l| iron3d_vfs::GameDir::open_layers(&l, iron3d_formats::ReadOptions::compatible()));
    let game = match opened {
        Ok(g) => Arc::new(g),
        Err(e) => {
            eprintln!("iron3d-server: opening {}: {e}", args.data.display());
            return ExitCode::from(1);
        }
    };
    let leave = match args.leave {
        Leave::Transfer => LeavePolicy::Transfer,
        Leave::Delete => LeavePolicy::Delete,
    };
    let settings = HostSettings {
        mission: args.mission.clone(),
        max_players: args.max_players,
        leave,
        wait_players: args.wait_players,
        speed: args.speed,
        rejoin_seconds: args.rejoin_seconds,
        ..HostSettings::default()
    };
    let (mut app, addr) = match host_app(&game, settings, args.port, Clock::Real) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("iron3d-server: {e}");
            return ExitCode::from(1);
        }
    };
    println!("listening on {addr}");
    let _ = std::io::stdout().flush();
    let start = app.world().resource::<GameClock>().tick;
    let mut ended: Option<Instant> = None;
    loop {
        app.update();
        let ran = app.world().resource::<GameClock>().tick - start;
        if args.ticks.is_some_and(|n| ran >= n) {
            let players = app.world().resource::<NetWatcher>().players.len();
            println!("ran {ran} ticks; {players} players connected");
            return ExitCode::SUCCESS;
        }
        if let Some(tick) = app.world().resource::<SessionEnd>().tick {
            // The end is sent reliably: the transport gets a moment to deliver it.
            let since = *ended.get_or_insert_with(Instant::now);
            if since.elapsed() >= END_GRACE {
                println!("the session ended after tick {tick} ({ran} ticks run)");
                return ExitCode::SUCCESS;
            }
        }
        std::thread::sleep(Duration::from_millis(4));
    }
}
