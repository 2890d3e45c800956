//! Bevy adapter of the Iron3D formats: the game directory as the `game://` asset source
//! (loose files and `archive::entry` addresses) and one thin `AssetLoader` per format,
//! keeping the format crate's located error text.

mod loaders;
mod source;

pub use loaders::*;
pub use source::{GAME_SOURCE, GameData, GameDirReader};

use bevy_app::{App, Plugin};
use bevy_asset::AssetApp;
use bevy_asset::io::{AssetSourceBuilder, AssetSourceId};
use iron3d_vfs::GameDir;
use std::sync::Arc;

/// Registers the `game://` asset source over an opened game directory, the
/// [`GameData`] resource and every loader. Add it **before** Bevy's `AssetPlugin`
/// (i.e. before `DefaultPlugins`); [`GameLoadersPlugin`] adds the loaders after it.
pub struct GameSourcePlugin {
    /// The opened game directory.
    pub game: Arc<GameDir>,
}

impl Plugin for GameSourcePlugin {
    fn build(&self, app: &mut App) {
        let game = Arc::clone(&self.game);
        app.register_asset_source(
            AssetSourceId::Name(GAME_SOURCE.into()),
            AssetSourceBuilder::new(move || Box::new(GameDirReader(Arc::clone(&game)))),
        );
        app.insert_resource(GameData(Arc::clone(&self.game)));
    }
}

/// Registers the asset types and loaders (after `AssetPlugin`).
#[derive(Default)]
pub struct GameLoadersPlugin;

impl Plugin for GameLoadersPlugin {
    fn build(&self, app: &mut App) {
        loaders::register(app);
    }
}

#[cfg(test)]
mod tests;
