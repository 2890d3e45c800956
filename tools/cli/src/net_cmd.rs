//! `iron3d-cli net bots`: headless clients that join a host, give random but seeded
//! orders to their clan's units and report bytes received, orders acknowledged and
//! checkpoint hash comparisons.

use crate::output::{print_json, usage};
use anyhow::anyhow;
use clap::Subcommand;
use iron3d_net::Clock;
use iron3d_net::bots::{Bot, BotReport};
use serde::Serialize;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::{Duration, Instant};

/// `net` subcommands.
#[derive(Subcommand, Debug)]
pub enum NetCommand {
    /// Join a host with N bots for S seconds.
    #[command(after_help = "Each bot joins as bot-I, takes the clan the host gives it and every 16 frames orders one \
    of its units to a point up to 60 game units away, drawn from --seed; with --say TEXT it says TEXT to everyone \
    once admitted. JSON: {\"clients\": [{\"id\", \
    \"bytes_per_s\", \"orders\", \"hash_checks\", \"hash_mismatches\", \"hash_skipped\", \"last_tick\", \"refused\", \
    \"events\": {\"fired\", \"hit\", \"destroyed\", \"produced\"}, \"outcome\", \"ore\", \"chat_received\", \
    \"desync_report\"}], \"server_ticks\"}: id is the player number (0: not admitted), bytes_per_s the transport's \
    mean receive rate, orders the acknowledged ones, hash_checks the checkpoints compared with the host's replicated \
    state hash, events the counts of shots, hits, destructions and robots built it received, outcome its clan's \
    outcome or null, ore its clan's ore as last replicated, chat_received the chat lines it received, desync_report \
    the sync report it wrote at a checkpoint mismatch (a path) or null.\n\n\
    Exit status: 0 when every bot was admitted and no hash differed; 1 otherwise (the report is printed first); \
    2 on a usage error.")]
    Bots {
        /// Host address (HOST:PORT).
        #[arg(long)]
        server: String,
        /// Bots to start.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        clients: u32,
        /// How long they play (seconds of wall-clock time).
        #[arg(long)]
        seconds: f64,
        /// Seed of the bots' orders.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A chat line each bot says to everyone once admitted (at most 200 bytes).
        #[arg(long)]
        say: Option<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Serialize)]
struct Report {
    clients: Vec<BotReport>,
    server_ticks: u32,
}

/// Runs a `net` subcommand.
pub fn run(cmd: NetCommand) -> anyhow::Result<()> {
    let NetCommand::Bots { server, clients, seconds, seed, say, json } = cmd;
    if !(seconds.is_finite() && seconds > 0.0) {
        return usage(format!("--seconds {seconds} is not a positive number"));
    }
    if let Some(text) = say.as_ref().filter(|t| t.trim().is_empty() || t.len() > iron3d_net::chat::MAX_TEXT) {
        return usage(format!("--say takes 1 to {} bytes of text, not {}", iron3d_net::chat::MAX_TEXT, text.len()));
    }
    let Some(addr) = server.to_socket_addrs().ok().and_then(|mut a| a.next()) else {
        return usage(format!("--server {server} is not HOST:PORT"));
    };
    let mut bots = (0..clients)
        .map(|i| Bot::join(addr, i, seed, Clock::Real))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow!(e))?;
    if let Some(text) = &say {
        bots.iter_mut().for_each(|b| b.say_once_admitted(text));
    }
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    while Instant::now() < end {
        bots.iter_mut().for_each(Bot::step);
        std::thread::sleep(Duration::from_millis(4));
    }
    let report = Report { server_ticks: server_ticks(&bots), clients: bots.iter().map(Bot::report).collect() };
    bots.iter_mut().for_each(Bot::leave);
    if json {
        print_json(&report)?;
    } else {
        print_table(&report, addr);
    }
    let unadmitted = report.clients.iter().filter(|c| c.id == 0).count();
    let mismatches: u32 = report.clients.iter().map(|c| c.hash_mismatches).sum();
    if unadmitted > 0 || mismatches > 0 {
        return Err(anyhow!("{unadmitted} bots not admitted, {mismatches} checkpoint hashes differed"));
    }
    Ok(())
}

fn server_ticks(bots: &[Bot]) -> u32 {
    let sessions = bots.iter().map(|b| b.app.world().resource::<iron3d_net::ClientSession>());
    let (first, last) =
        sessions.fold((u32::MAX, 0), |(f, l), s| (s.first_tick.map_or(f, |t| f.min(t)), l.max(s.last_tick)));
    last.saturating_sub(first)
}

fn print_table(report: &Report, addr: SocketAddr) {
    println!("{} bots on {addr}, the host ran {} ticks", report.clients.len(), report.server_ticks);
    println!("{:>6} {:>12} {:>7} {:>7} {:>10}", "player", "bytes/s", "orders", "checks", "mismatches");
    for c in &report.clients {
        println!("{:>6} {:>12.0} {:>7} {:>7} {:>10}", c.id, c.bytes_per_s, c.orders, c.hash_checks, c.hash_mismatches);
        if let Some(why) = &c.refused {
            println!("       refused: {why}");
        }
    }
}
