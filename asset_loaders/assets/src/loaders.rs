//! One thin `AssetLoader` per data format: read the bytes, call the format crate, keep
//! its located error text (with the asset path as the outermost frame). Every loader
//! here has the same shape, so one macro declares them all.

use bevy_app::App;
use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetApp, AssetLoader, LoadContext};
use bevy_reflect::TypePath;
use iron3d_formats::config::{BlockCfg, IniFile};
use iron3d_formats::helpers::{Base, Ctld, Ctpt};
use iron3d_formats::registry::{BuildDat, UnitDat};
use iron3d_formats::script::{ScrPackage, Varset};
use iron3d_formats::sound::{DecodedSample, decode_wave};
use iron3d_formats::world::{ArealMap, Tma};
use iron3d_formats::{ReadOptions, Result};

/// Error of every Iron3D loader.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum LoaderError {
    /// Reading the bytes failed.
    #[error("reading {path}: {source}")]
    Io {
        /// Asset path.
        path: String,
        /// Cause.
        source: std::io::Error,
    },
    /// The format crate rejected the data.
    #[error("{0}")]
    Format(#[from] iron3d_formats::Error),
}

/// Reads the whole asset.
pub(crate) async fn read_all(
    reader: &mut dyn Reader,
    ctx: &LoadContext<'_>,
) -> std::result::Result<Vec<u8>, LoaderError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).await.map_err(|source| LoaderError::Io { path: ctx.path().to_string(), source })?;
    Ok(bytes)
}

/// Puts the asset path around a format error.
pub(crate) fn located(ctx: &LoadContext<'_>, e: iron3d_formats::Error) -> LoaderError {
    LoaderError::Format(e.in_file(ctx.path().to_string()))
}

/// Game data is read in compatible mode (the named retail quirks are accepted).
const GAME: ReadOptions = ReadOptions::compatible();

macro_rules! data_loaders {
    ($( $(#[$doc:meta])* $asset:ident($inner:ty) by $loader:ident for [$($ext:literal),+] with $parse:expr; )+) => {
        $(
            $(#[$doc])*
            #[derive(Asset, TypePath)]
            pub struct $asset(pub $inner);

            #[doc = concat!("Loader of [`", stringify!($asset), "`].")]
            #[derive(Default, TypePath)]
            pub struct $loader;

            impl AssetLoader for $loader {
                type Asset = $asset;
                type Settings = ();
                type Error = LoaderError;

                async fn load(
                    &self,
                    reader: &mut dyn Reader,
                    _: &(),
                    ctx: &mut LoadContext<'_>,
                ) -> std::result::Result<$asset, LoaderError> {
                    let bytes = read_all(reader, ctx).await?;
                    let parse: fn(&[u8]) -> Result<$inner> = $parse;
                    parse(&bytes).map($asset).map_err(|e| located(ctx, e))
                }

                fn extensions(&self) -> &[&str] {
                    &[$($ext),+]
                }
            }
        )+

        /// Registers every data asset type and its loader.
        pub fn register(app: &mut App) {
            $( app.init_asset::<$asset>().init_asset_loader::<$loader>(); )+
        }
    };
}

data_loaders! {
    /// `BuildDat.lst`: building categories and their unit schemes.
    BuildDatAsset(BuildDat) by BuildDatLoader for ["lst"] with BuildDat::parse;
    /// A unit `.dat` component scheme.
    UnitDatAsset(UnitDat) by UnitDatLoader for ["dat"] with UnitDat::parse;
    /// A mission file `data.tma`.
    TmaAsset(Tma) by TmaLoader for ["tma"] with |b| Tma::parse(b, GAME);
    /// An areal map `Land.map`.
    ArealMapAsset(ArealMap) by ArealMapLoader for ["map"] with |b| ArealMap::parse(b, GAME);
    /// A control description `.ctl` (CTLD).
    CtldAsset(Ctld) by CtldLoader for ["ctl"] with Ctld::parse;
    /// Control points `.cpt` (CTPT).
    CtptAsset(Ctpt) by CtptLoader for ["cpt"] with Ctpt::parse;
    /// A building basement `.bas` (BASE).
    BaseAsset(Base) by BaseLoader for ["bas"] with Base::parse;
    /// A compiled script package `.scr`.
    ScriptAsset(ScrPackage) by ScriptLoader for ["scr"] with |b| ScrPackage::parse(b, GAME);
    /// A variable set `varset.var`.
    VarsetAsset(Varset) by VarsetLoader for ["var"] with Varset::parse;
    /// An INI file (`Behavior.ini`, `ArealMap.ini`, `Iron_3D.ini`).
    IniAsset(IniFile) by IniLoader for ["ini"] with |b| Ok(IniFile::parse(b));
    /// An object-block configuration file (`mission.cfg` and others).
    CfgAsset(BlockCfg) by CfgLoader for ["cfg"] with BlockCfg::parse;
    /// A sound (SWAV / RIFF WAVE entry), decoded to 16-bit PCM.
    SoundAsset(DecodedSample) by SoundLoader for ["wav"] with decode_wave;
}
