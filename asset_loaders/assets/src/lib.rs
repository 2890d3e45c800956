//! Bevy adapter of the Iron3D formats: the game directory as the `game://` asset source
//! (loose files and `archive::entry` addresses) and one thin `AssetLoader` per format,
//! keeping the format crate's located error text. Every loader's settings are a
//! [`ReadSettings`] (strict or compatible reading, each quirk; compatible by default).

pub mod axes;
mod loaders;
pub mod models;
pub mod source;
pub mod terrain;
pub mod watch;

pub use loaders::*;
pub use models::{
    LEVELS, Mat0Asset, Mat0Loader, MshAsset, MshLevel, MshLoader, MshNode, MshPart, TexmLoader, WearAsset, WearLoader,
};
pub use source::{GAME_SOURCE, GameData, GameDirReader, LOADER_HINTS};
pub use terrain::{LandAsset, LandLayer, LandLoader};

use bevy_app::{App, Plugin};
use bevy_asset::AssetApp;
use bevy_asset::io::{AssetSourceBuilder, AssetSourceId};
use iron3d_vfs::GameDir;
use std::sync::Arc;

/// Registers the `game://` asset source over an opened game directory (with a polling
/// watcher for hot reloading when `AssetPlugin` watches for changes), the
/// [`GameData`] resource and every loader. Add it **before** Bevy's `AssetPlugin`
/// (i.e. before `DefaultPlugins`); [`GameLoadersPlugin`] adds the loaders after it.
pub struct GameSourcePlugin {
    /// The opened game directory.
    pub game: Arc<GameDir>,
}

impl Plugin for GameSourcePlugin {
    fn build(&self, app: &mut App) {
        let (game, watched) = (Arc::clone(&self.game), Arc::clone(&self.game));
        let served = watch::Served::default();
        let recorded = served.clone();
        app.register_asset_source(
            AssetSourceId::Name(GAME_SOURCE.into()),
            AssetSourceBuilder::new(move || Box::new(GameDirReader(Arc::clone(&game), recorded.clone())))
                .with_watcher(move |sender| Some(Box::new(watch::start(Arc::clone(&watched), served.clone(), sender)))),
        );
        app.insert_resource(GameData(Arc::clone(&self.game)));
    }
}

/// Registers the asset types and loaders (after `AssetPlugin` and
/// [`GameSourcePlugin`]: the WEAR and MAT0 loaders read `Material.lib`'s directory through
/// [`GameData`]). Registers `Mesh` and `Image` assets when no renderer did.
#[derive(Default)]
pub struct GameLoadersPlugin;

impl Plugin for GameLoadersPlugin {
    fn build(&self, app: &mut App) {
        loaders::register(app);
        app.init_asset::<MshAsset>()
            .init_asset::<Mat0Asset>()
            .init_asset::<WearAsset>()
            .init_asset::<LandAsset>()
            .init_asset_loader::<MshLoader>()
            .init_asset_loader::<TexmLoader>()
            .init_asset_loader::<LandLoader>();
        if !app.world().contains_resource::<bevy_asset::Assets<bevy_mesh::Mesh>>() {
            app.init_asset::<bevy_mesh::Mesh>();
        }
        if !app.world().contains_resource::<bevy_asset::Assets<bevy_image::Image>>() {
            app.init_asset::<bevy_image::Image>();
        }
        if let Some(game) = app.world().get_resource::<GameData>().map(|g| Arc::clone(&g.0)) {
            app.register_asset_loader(WearLoader { game: Arc::clone(&game) })
                .register_asset_loader(Mat0Loader { game });
        }
    }
}

#[cfg(test)]
mod land_tests;
#[cfg(test)]
mod model_tests;
#[cfg(test)]
mod tests;
