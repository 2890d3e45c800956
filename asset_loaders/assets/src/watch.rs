//! Hot reloading over `game://`. Bevy asks a source for a watcher when `AssetPlugin`
//! watches for changes (the game does in debug builds): a thread polls the files of the
//! game directory, and a changed file clears the directory's caches and reports every
//! address served from it — the loose file itself, or each `archive::entry` read from
//! an archive — as modified, so Bevy reloads exactly those assets.

use bevy_asset::io::{AssetSourceEvent, AssetWatcher};
use iron3d_vfs::{GameDir, fold_path};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

/// How often the watcher looks at the files.
pub const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// Addresses the reader has served, shared with the watcher.
#[derive(Debug, Default, Clone)]
pub struct Served(Arc<Mutex<BTreeSet<String>>>);

impl Served {
    /// Records an address as requested by Bevy.
    pub fn record(&self, address: &str) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).insert(address.to_string());
    }

    /// Served addresses whose file (the part before `::`) is `file` (a game path).
    pub fn from_file(&self, file: &str) -> Vec<String> {
        let file = fold_path(file);
        let served = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        served
            .iter()
            .filter(|a| fold_path(a.split_once("::").map_or(a.as_str(), |(f, _)| f)) == file)
            .cloned()
            .collect()
    }
}

/// Size and modification time of every indexed file.
pub type Snapshot = BTreeMap<PathBuf, (u64, Option<SystemTime>)>;

fn snapshot(game: &GameDir) -> Snapshot {
    game.index()
        .files()
        .map(|p| {
            let meta = game.resolve(&p.to_string_lossy()).and_then(|real| std::fs::metadata(real).ok());
            (p.to_path_buf(), meta.map_or((0, None), |m| (m.len(), m.modified().ok())))
        })
        .collect()
}

/// The events for files that differ between two snapshots.
pub fn changes(before: &Snapshot, after: &Snapshot, served: &Served) -> Vec<AssetSourceEvent> {
    after
        .iter()
        .filter(|(path, state)| before.get(*path) != Some(state))
        .flat_map(|(path, _)| served.from_file(&path.to_string_lossy()))
        .map(|address| AssetSourceEvent::ModifiedAsset(PathBuf::from(address)))
        .collect()
}

/// The polling thread's handle; dropping it stops the thread.
pub struct PollingWatcher {
    stop: Arc<AtomicBool>,
}

impl AssetWatcher for PollingWatcher {}

impl Drop for PollingWatcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Starts watching `game`, sending events for addresses in `served`.
pub fn start(game: Arc<GameDir>, served: Served, sender: async_channel::Sender<AssetSourceEvent>) -> PollingWatcher {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    std::thread::spawn(move || {
        let mut last = snapshot(&game);
        while !flag.load(Ordering::Relaxed) {
            std::thread::sleep(POLL_INTERVAL);
            let now = snapshot(&game);
            if now != last {
                game.clear_caches();
                for event in changes(&last, &now, &served) {
                    if sender.send_blocking(event).is_err() {
                        return;
                    }
                }
                last = now;
            }
        }
    });
    PollingWatcher { stop }
}
