//! Ready-made apps: the headless host (the dedicated server, tests, bots' server) and
//! the headless client (bots, tests). Neither has a window, a GPU or audio.

use crate::{HostSettings, NetClientPlugin, NetError, NetHostPlugin, NetProtocolPlugin, NetSimPlugin};
use bevy_app::App;
use bevy_state::app::StatesPlugin;
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use iron3d_core::{CorePlugin, TICK_MS};
use iron3d_mission::{MissionPlugin, load_headless};
use iron3d_world3d::World3dPlugin;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How an app's clock advances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// Every `update()` is one 64 ms tick (tests, benches: simulated time).
    Stepped,
    /// Wall-clock time (the dedicated server, bots).
    Real,
}

fn set_clock(app: &mut App, clock: Clock) {
    let strategy = match clock {
        Clock::Stepped => TimeUpdateStrategy::ManualDuration(Duration::from_millis(u64::from(TICK_MS))),
        Clock::Real => TimeUpdateStrategy::Automatic,
    };
    app.insert_resource(strategy);
}

/// A headless host with `settings.mission` of `game` loaded and the UDP port open.
/// Returns the app and the bound address.
///
/// # Errors
/// The mission does not load, or the port cannot be opened.
pub fn host_app(
    game: &Arc<iron3d_vfs::GameDir>,
    settings: HostSettings,
    port: u16,
    clock: Clock,
) -> Result<(App, SocketAddr), String> {
    let mut app = iron3d_sim::headless_app();
    app.add_plugins((MissionPlugin, NetProtocolPlugin, NetSimPlugin, NetHostPlugin));
    let max = settings.max_players;
    let mission = settings.mission.clone();
    app.insert_resource(settings);
    app.finish();
    app.cleanup();
    load_headless(&mut app, game, &mission).map_err(|e| e.to_string())?;
    let layers = app.world().get_resource::<iron3d_core::DataLayers>().cloned().unwrap_or_default();
    app.insert_resource(crate::SessionLog::new(mission, &layers));
    let addr = crate::listen(app.world_mut(), port, max).map_err(|e: NetError| e.to_string())?;
    set_clock(&mut app, clock);
    Ok((app, addr))
}

/// A headless client connecting to `server` as `name` (World3D gives its mirrors
/// their handles). It reads no game data, so it sends no data layers.
///
/// # Errors
/// The socket cannot be opened.
pub fn client_app(server: SocketAddr, name: &str, clock: Clock) -> Result<App, String> {
    let mut app = App::new();
    app.add_plugins((TimePlugin, StatesPlugin, CorePlugin, World3dPlugin, NetProtocolPlugin, NetClientPlugin));
    set_clock(&mut app, clock);
    iron3d_sim::run_on_one_thread(&mut app);
    app.finish();
    app.cleanup();
    crate::connect(app.world_mut(), server, name, Vec::new()).map_err(|e| e.to_string())?;
    Ok(app)
}
