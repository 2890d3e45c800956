//! One thin `AssetLoader` per format: read the bytes, call the format crate, keep its
//! located error text (with the asset path as the outermost frame).

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, LoadContext};
use bevy_reflect::TypePath;
use iron3d_formats::registry::{BuildDat, UnitDat};

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

pub(crate) async fn read_all(reader: &mut dyn Reader, ctx: &LoadContext<'_>) -> Result<Vec<u8>, LoaderError> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .await
        .map_err(|source| LoaderError::Io { path: ctx.path().to_string(), source })?;
    Ok(bytes)
}

pub(crate) fn located(ctx: &LoadContext<'_>, e: iron3d_formats::Error) -> LoaderError {
    LoaderError::Format(e.in_file(ctx.path().to_string()))
}

/// `BuildDat.lst`: building categories and their unit schemes.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct BuildDatAsset(pub BuildDat);

/// Loader of `BuildDat.lst`.
#[derive(Default, TypePath)]
pub struct BuildDatLoader;

impl AssetLoader for BuildDatLoader {
    type Asset = BuildDatAsset;
    type Settings = ();
    type Error = LoaderError;

    async fn load(&self, reader: &mut dyn Reader, _: &(), ctx: &mut LoadContext<'_>) -> Result<Self::Asset, Self::Error> {
        let bytes = read_all(reader, ctx).await?;
        BuildDat::parse(&bytes).map(BuildDatAsset).map_err(|e| located(ctx, e))
    }

    fn extensions(&self) -> &[&str] {
        &["lst"]
    }
}

/// A unit `.dat` component scheme.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct UnitDatAsset(pub UnitDat);

/// Loader of unit `.dat` schemes.
#[derive(Default, TypePath)]
pub struct UnitDatLoader;

impl AssetLoader for UnitDatLoader {
    type Asset = UnitDatAsset;
    type Settings = ();
    type Error = LoaderError;

    async fn load(&self, reader: &mut dyn Reader, _: &(), ctx: &mut LoadContext<'_>) -> Result<Self::Asset, Self::Error> {
        let bytes = read_all(reader, ctx).await?;
        UnitDat::parse(&bytes).map(UnitDatAsset).map_err(|e| located(ctx, e))
    }

    fn extensions(&self) -> &[&str] {
        &["dat"]
    }
}
