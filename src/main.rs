//! The `iron3d` desktop game: parses the command line, finds the game data, adds the
//! plugins, runs.

mod data;
mod shell;

use clap::Parser;
use iron3d_dev::Scripted;
use std::path::PathBuf;

/// Iron3D engine re-implementation (Parkan: Iron Strategy).
#[derive(Parser, Debug, Clone)]
#[command(
    name = "iron3d",
    version,
    about,
    group = clap::ArgGroup::new("bench_target").args(["mission", "eu7"]),
    after_help = "Game data is looked up in order: --data DIR, the IRON3D_DATA environment variable, demo/ \
                  beside the executable, ../share/iron3d/demo from the executable's directory, the demo tree \
                  of the source checkout. It is read as layers: the project's own data (rules/ beside the \
                  executable, ../share/iron3d/rules, or the checkout's assets/rules), the game data, then each \
                  --mod in order.\n\nSaves, autosaves (autosave-1..3) and the quick save (F5 saves, F9 loads) are \
                  kept under the user data directory's saves/, each FILE.sav with its metadata FILE.sav.slot \
                  and thumbnail FILE.sav.png; every game records a replay under replays/. IRON3D_USER_DIR \
                  replaces the user data and config directories.\n\nExit status: 0 success, 1 no game data found, a layer that does not exist \
                  or cannot be read, or a run-time failure, 2 usage error."
)]
pub struct Args {
    /// Game data directory: an installed copy of the original game, or the bundled demo
    /// (default: the first found of IRON3D_DATA, demo/ beside the executable,
    /// ../share/iron3d/demo, the source checkout's assets/demo).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// A mod directory laid over the game data: its files replace the game's of the same
    /// path (any case) or add to them (missions, schemes, sounds), an archive of the same
    /// path serves the entries it holds. Repeatable; a later mod wins.
    #[arg(long = "mod", value_name = "DIR")]
    pub mods: Vec<PathBuf>,
    /// Mission to open directly (a folder name under MISSIONS, e.g. tutorial.01).
    #[arg(long, value_name = "NAME")]
    pub mission: Option<String>,
    /// Start the game from this save (a slot's `.sav` under the user data directory's
    /// `saves/`, or any save file). A damaged save, or one made with other data, shows
    /// its error in the main menu.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["mission", "replay", "join", "eu7"])]
    pub load: Option<PathBuf>,
    /// Play this replay back (`.rpl`, recorded under the user data directory's
    /// `replays/` by every game): pause, 1x to 8x, the timeline and a free camera; the
    /// player gives no orders. A replay of another engine version or other data says so
    /// in the main menu instead.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["mission", "join", "eu7"])]
    pub replay: Option<PathBuf>,
    /// Run in a window of this size in physical pixels, WIDTHxHEIGHT (the default: a
    /// 1280x720 window).
    #[arg(long, value_name = "WxH", value_parser = parse_window_size, conflicts_with = "fullscreen")]
    pub window: Option<WindowSize>,
    /// Run full screen (borderless, on the primary monitor).
    #[arg(long)]
    pub fullscreen: bool,
    /// Save a PNG of the window after `--exit-after-frames` frames, then exit.
    #[arg(long, value_name = "PATH", requires = "exit_after_frames")]
    pub screenshot: Option<PathBuf>,
    /// Open the EU7B scenery viewer on this `.eu7` file instead of the main menu
    /// (free-fly camera, sections streamed around it; see the overlay for the keys).
    #[arg(long, value_name = "FILE")]
    pub eu7: Option<PathBuf>,
    /// The EU7B viewer's streaming numbers: `seed` (the seed's: sections within 3 of the
    /// start before the first frame, radius 9, 72 decodes in flight, 36 ready) or `compact`
    /// (the project's lighter set for small machines: bootstrap 1, radius 4, 8 in flight,
    /// 4 ready).
    #[arg(long, value_name = "SET", value_enum, default_value_t = Streaming::Seed, requires = "eu7")]
    pub eu7_streaming: Streaming,
    /// Render this many frames, then exit (with `--screenshot`: capture, then exit).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub exit_after_frames: Option<u32>,
    /// Time N frames once the mission is in the world (models and terrain attached, no
    /// pipeline compiling), print `bench-frames N median X ms p95 Y ms draws D` and exit
    /// (X, Y: frame times in ms; D: mesh entities visible to a camera per frame, an upper
    /// bound of the draw calls, since instances sharing mesh and material are batched).
    /// With `--eu7`: after 30 still frames the camera flies east at 300 m/s for N frames,
    /// then `bench-frames N median X ms p95 Y ms sections/s S peak resident R peak held M
    /// MiB` (S: sections applied per second of flight; R, M: the most sections and
    /// decoded bytes held at once).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          requires = "bench_target", conflicts_with = "exit_after_frames")]
    pub bench_frames: Option<u32>,
    /// Host a multiplayer session of the mission started (from the menu or
    /// `--mission`): other players join with `--join` or the menu's Join.
    #[arg(long, conflicts_with_all = ["join", "eu7"])]
    pub host: bool,
    /// UDP port to host on.
    #[arg(long, value_name = "P", default_value_t = iron3d_net::DEFAULT_PORT, requires = "host")]
    pub port: u16,
    /// Join the multiplayer session hosted at ADDR (HOST:PORT, e.g. 192.168.1.5:5150);
    /// the host's mission is loaded from this game's data. If the connection drops, the
    /// session panel offers Rejoin (the same seat, player number and units while the
    /// host keeps them).
    #[arg(long, value_name = "ADDR", value_parser = parse_address, conflicts_with_all = ["mission", "eu7"])]
    pub join: Option<std::net::SocketAddr>,
    /// Open missions in the strategic view (`on`), with the hero on foot (`off`, the
    /// original's), or `auto`: skirmish missions (`single.NN`) strategic, the others on
    /// foot.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub strategic_start: iron3d_ui::StrategicStart,
    /// Player name shown to the other players.
    #[arg(long, value_name = "NAME", default_value = "player")]
    pub name: String,
    /// Developer: press and release a key at frame FRAME (1 = the first frame; KEY is a
    /// Bevy key name: Escape, F3, KeyH, Digit1, ArrowUp, ...). Repeatable.
    #[arg(long, value_name = "KEY@FRAME", value_parser = Scripted::parse_press)]
    pub press: Vec<Scripted>,
    /// Developer: left-click at window position X,Y (logical pixels): the pointer moves
    /// there at frame FRAME, the button goes down the next frame and up the one after.
    /// Repeatable.
    #[arg(long, value_name = "X,Y@FRAME", value_parser = Scripted::parse_click)]
    pub click: Vec<Scripted>,
    /// Developer: move the pointer to window position X,Y (logical pixels) at frame
    /// FRAME, without a click (what follows the cursor, such as a building being placed,
    /// goes there). Repeatable.
    #[arg(long, value_name = "X,Y@FRAME", value_parser = Scripted::parse_point)]
    pub point: Vec<Scripted>,
    /// Developer: run the player's clan's script event EVENT at frame FRAME, or as soon
    /// as the mission is in the game (the demo scripts' `Mission_Complete` and
    /// `Mission_Failed` end the mission). Repeatable.
    #[arg(long, value_name = "EVENT@FRAME", value_parser = Scripted::parse_script_event)]
    pub script_event: Vec<Scripted>,
}

/// A named set of EU7B streaming numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Streaming {
    /// The seed's numbers.
    Seed,
    /// The project's lighter set.
    Compact,
}

impl Streaming {
    /// The viewer's tunables of this set.
    pub fn config(self) -> iron3d_eu7_view::StreamingConfig {
        match self {
            Self::Seed => iron3d_eu7_view::StreamingConfig::default(),
            Self::Compact => iron3d_eu7_view::StreamingConfig::compact(),
        }
    }
}

impl Args {
    /// The save or replay of `--load` or `--replay`.
    pub fn open_file(&self) -> Option<iron3d_ui::OpenFile> {
        use iron3d_ui::OpenFile;
        self.load.clone().map(OpenFile::Save).or_else(|| self.replay.clone().map(OpenFile::Replay))
    }

    /// The scripted steps of `--press`, `--click`, `--point` and `--script-event`.
    pub fn script(&self) -> Vec<Scripted> {
        [&self.press, &self.click, &self.point, &self.script_event].into_iter().flatten().cloned().collect()
    }
}

/// Resolves `HOST:PORT` (a name or an IP address).
fn parse_address(text: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::ToSocketAddrs;
    text.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| format!("`{text}` is not HOST:PORT (e.g. 127.0.0.1:{})", iron3d_net::DEFAULT_PORT))
}

/// A window size in physical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowSize {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl WindowSize {
    /// The window size when neither `--window` nor `--fullscreen` is given.
    pub const DEFAULT: WindowSize = WindowSize { width: 1280, height: 720 };
    /// The largest accepted side.
    pub const MAX_SIDE: u32 = 16384;
}

/// Parses `WIDTHxHEIGHT` (e.g. `1600x900`), each side 1 to [`WindowSize::MAX_SIDE`].
fn parse_window_size(text: &str) -> Result<WindowSize, String> {
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(|| format!("`{text}` is not WIDTHxHEIGHT (e.g. 1600x900)"))?;
    let side = |s: &str, what: &str| match s.trim().parse::<u32>() {
        Ok(v) if (1..=WindowSize::MAX_SIDE).contains(&v) => Ok(v),
        _ => Err(format!("{what} `{s}` must be a whole number from 1 to {}", WindowSize::MAX_SIDE)),
    };
    Ok(WindowSize { width: side(w, "width")?, height: side(h, "height")? })
}

fn main() -> bevy::app::AppExit {
    let args = Args::parse();
    // The EU7B viewer reads its own file and needs no game data.
    if args.eu7.is_some() {
        return shell::app(args, None).run();
    }
    let data = match data::Lookup::from_process(args.data.clone()).find() {
        Ok((origin, dir)) => {
            eprintln!("iron3d: game data: {} ({origin})", dir.display());
            match data::open(&dir, &args.mods) {
                Ok(game) => {
                    for layer in game.layers() {
                        eprintln!("iron3d: layer {}: {}", layer.name(), layer.root.display());
                    }
                    Some(std::sync::Arc::new(game))
                }
                Err(e) => {
                    eprintln!("iron3d: {e}");
                    return bevy::app::AppExit::error();
                }
            }
        }
        Err(e) => {
            eprintln!("iron3d: {e}");
            return bevy::app::AppExit::error();
        }
    };
    shell::app(args, data).run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_frames_needs_a_mission_or_a_scenery_and_stands_alone() {
        let args = Args::try_parse_from(["iron3d", "--mission", "tutorial.01", "--bench-frames", "20"]).expect("parse");
        assert_eq!(args.bench_frames, Some(20));
        assert!(Args::try_parse_from(["iron3d", "--bench-frames", "20"]).is_err());
        assert!(Args::try_parse_from(["iron3d", "--mission", "m", "--bench-frames", "0"]).is_err());
        let both = ["iron3d", "--mission", "m", "--bench-frames", "2", "--exit-after-frames", "2"];
        assert!(Args::try_parse_from(both).is_err());
        let eu7 =
            Args::try_parse_from(["iron3d", "--eu7", "a.eu7", "--bench-frames", "9", "--eu7-streaming", "compact"])
                .expect("parse");
        assert_eq!((eu7.bench_frames, eu7.eu7_streaming), (Some(9), Streaming::Compact));
        assert!(Args::try_parse_from(["iron3d", "--eu7-streaming", "seed"]).is_err(), "a viewer setting");
    }

    #[test]
    fn host_and_join_exclude_each_other_and_join_needs_an_address() {
        let host =
            Args::try_parse_from(["iron3d", "--host", "--port", "6000", "--mission", "single.01"]).expect("parse");
        assert!(host.host && host.port == 6000);
        let join = Args::try_parse_from(["iron3d", "--join", "127.0.0.1:6000", "--name", "Ann"]).expect("parse");
        assert_eq!(join.join, Some("127.0.0.1:6000".parse().unwrap()));
        assert!(Args::try_parse_from(["iron3d", "--host", "--join", "127.0.0.1:1"]).is_err());
        assert!(Args::try_parse_from(["iron3d", "--join", "nowhere"]).is_err());
        assert!(Args::try_parse_from(["iron3d", "--port", "6000"]).is_err(), "--port belongs to --host");
    }

    #[test]
    fn load_and_replay_open_a_file_and_exclude_a_mission() {
        use iron3d_ui::OpenFile;
        let args = Args::try_parse_from(["iron3d", "--load", "a.sav"]).expect("parse");
        assert_eq!(args.open_file(), Some(OpenFile::Save("a.sav".into())));
        let args = Args::try_parse_from(["iron3d", "--replay", "b.rpl"]).expect("parse");
        assert_eq!(args.open_file(), Some(OpenFile::Replay("b.rpl".into())));
        assert!(Args::try_parse_from(["iron3d", "--load", "a.sav", "--mission", "single.01"]).is_err());
        assert!(Args::try_parse_from(["iron3d", "--load", "a.sav", "--replay", "b.rpl"]).is_err());
    }

    #[test]
    fn mods_repeat_in_the_order_given() {
        let args = Args::try_parse_from(["iron3d", "--mod", "b", "--data", "g", "--mod", "a"]).expect("parse");
        assert_eq!(args.mods, [PathBuf::from("b"), PathBuf::from("a")]);
    }

    #[test]
    fn scripted_input_parses_and_a_bad_step_is_a_usage_error() {
        let args = Args::try_parse_from([
            "iron3d",
            "--press",
            "Escape@300",
            "--click",
            "640,360@12",
            "--script-event",
            "Mission_Complete@5",
            "--press",
            "F3@2",
        ])
        .expect("parse");
        let frames: Vec<u32> = args.script().iter().map(|s| s.frame).collect();
        assert_eq!(frames, [300, 2, 12, 5]);
        let e = Args::try_parse_from(["iron3d", "--press", "Esc@3"]).expect_err("bad key");
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("`Esc` is not a key name"), "{e}");
    }

    #[test]
    fn window_sizes_parse_and_bad_ones_are_named() {
        assert_eq!(parse_window_size("1600x900"), Ok(WindowSize { width: 1600, height: 900 }));
        assert_eq!(parse_window_size("640X480"), Ok(WindowSize { width: 640, height: 480 }));
        for bad in ["1600", "0x900", "1600x", "x900", "axb", "99999x10", "-1x5"] {
            assert!(parse_window_size(bad).is_err(), "{bad} accepted");
        }
        assert!(parse_window_size("0x900").expect_err("zero").contains("width `0`"));
    }
}
