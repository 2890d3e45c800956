//! One thin `AssetLoader` per data format: read the bytes, call the format crate, keep
//! its located error text (with the asset path as the outermost frame). Every loader
//! here has the same shape, so one macro declares them all. Every Iron3D loader takes
//! [`ReadSettings`] as its settings: the read mode, compatible unless a load asks
//! otherwise.

use bevy_app::App;
use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetApp, AssetLoader, LoadContext};
use bevy_reflect::TypePath;
use iron3d_formats::config::{BlockCfg, Descriptor, IniFile, InputTable, ManFile};
use iron3d_formats::helpers::{Base, Ctld, Ctpt};
use iron3d_formats::registry::{BuildDat, UnitDat};
use iron3d_formats::script::{ScrPackage, Varset};
use iron3d_formats::sound::{DecodedSample, decode_wave};
use iron3d_formats::world::{ArealMap, Tma};
use iron3d_formats::{Quirks, ReadOptions, Result};
use serde::{Deserialize, Serialize};

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

/// The base profile of a [`ReadSettings`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ReadMode {
    /// Every rule checked, no quirk accepted ([`ReadOptions::strict`]).
    Strict,
    /// The named quirks of the retail data accepted ([`ReadOptions::compatible`]); how
    /// the game reads its data.
    #[default]
    Compatible,
}

/// Per-quirk overrides of a [`ReadMode`] (`None`: the mode's choice). One field per
/// switch of [`Quirks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct QuirkOverrides {
    /// [`Quirks::nres_linear_lookup`].
    pub nres_linear_lookup: Option<bool>,
    /// [`Quirks::rsli_ao_overlay`].
    pub rsli_ao_overlay: Option<bool>,
    /// [`Quirks::rsli_presorted_rebuild`].
    pub rsli_presorted_rebuild: Option<bool>,
    /// [`Quirks::deflate_eof_plus_one`].
    pub deflate_eof_plus_one: Option<bool>,
    /// [`Quirks::lzhuf_alternate_position`].
    pub lzhuf_alternate_position: Option<bool>,
    /// [`Quirks::material_fallback`].
    pub material_fallback: Option<bool>,
    /// [`Quirks::lightmap_missing_slot`].
    pub lightmap_missing_slot: Option<bool>,
    /// [`Quirks::wear_blank_before_lightmaps`].
    pub wear_blank_before_lightmaps: Option<bool>,
}

/// The settings of every Iron3D loader: how the format crate reads the asset. Compatible
/// by default (as the game reads retail data); ask for strict reading per load, e.g.
/// `server.load_builder().with_settings(|s: &mut ReadSettings| *s = ReadSettings::strict()).load(path)`.
/// Formats without a strict rule or a quirk read the same in both modes.
///
/// ```
/// use iron3d_assets::{ReadMode, ReadSettings};
///
/// let mut settings = ReadSettings::strict();
/// settings.quirks.material_fallback = Some(true);
/// let options = settings.options();
/// assert!(options.strict && options.quirks.material_fallback);
/// assert!(!options.quirks.nres_linear_lookup);
/// assert_eq!(ReadSettings::default().mode, ReadMode::Compatible);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReadSettings {
    /// The base profile.
    pub mode: ReadMode,
    /// Quirks switched against the profile.
    pub quirks: QuirkOverrides,
}

impl ReadSettings {
    /// Strict reading.
    pub const fn strict() -> Self {
        Self { mode: ReadMode::Strict, quirks: QuirkOverrides::NONE }
    }

    /// Compatible reading (the default).
    pub const fn compatible() -> Self {
        Self { mode: ReadMode::Compatible, quirks: QuirkOverrides::NONE }
    }

    /// The format crate's options: the profile with the overrides applied.
    pub fn options(&self) -> ReadOptions {
        let mut options = match self.mode {
            ReadMode::Strict => ReadOptions::strict(),
            ReadMode::Compatible => ReadOptions::compatible(),
        };
        let o = &self.quirks;
        let q: &mut Quirks = &mut options.quirks;
        let pairs = [
            (&mut q.nres_linear_lookup, o.nres_linear_lookup),
            (&mut q.rsli_ao_overlay, o.rsli_ao_overlay),
            (&mut q.rsli_presorted_rebuild, o.rsli_presorted_rebuild),
            (&mut q.deflate_eof_plus_one, o.deflate_eof_plus_one),
            (&mut q.lzhuf_alternate_position, o.lzhuf_alternate_position),
            (&mut q.material_fallback, o.material_fallback),
            (&mut q.lightmap_missing_slot, o.lightmap_missing_slot),
            (&mut q.wear_blank_before_lightmaps, o.wear_blank_before_lightmaps),
        ];
        for (switch, chosen) in pairs {
            if let Some(on) = chosen {
                *switch = on;
            }
        }
        options
    }
}

impl QuirkOverrides {
    /// No override.
    pub const NONE: Self = Self {
        nres_linear_lookup: None,
        rsli_ao_overlay: None,
        rsli_presorted_rebuild: None,
        deflate_eof_plus_one: None,
        lzhuf_alternate_position: None,
        material_fallback: None,
        lightmap_missing_slot: None,
        wear_blank_before_lightmaps: None,
    };
}

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
                type Settings = ReadSettings;
                type Error = LoaderError;

                async fn load(
                    &self,
                    reader: &mut dyn Reader,
                    settings: &ReadSettings,
                    ctx: &mut LoadContext<'_>,
                ) -> std::result::Result<$asset, LoaderError> {
                    let bytes = read_all(reader, ctx).await?;
                    let parse: fn(&[u8], ReadOptions) -> Result<$inner> = $parse;
                    parse(&bytes, settings.options()).map($asset).map_err(|e| located(ctx, e))
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
    BuildDatAsset(BuildDat) by BuildDatLoader for ["lst"] with |b, _| BuildDat::parse(b);
    /// A unit `.dat` component scheme.
    UnitDatAsset(UnitDat) by UnitDatLoader for ["dat"] with |b, _| UnitDat::parse(b);
    /// A mission file `data.tma`.
    TmaAsset(Tma) by TmaLoader for ["tma"] with Tma::parse;
    /// An areal map `Land.map`.
    ArealMapAsset(ArealMap) by ArealMapLoader for ["map"] with ArealMap::parse;
    /// A control description `.ctl` (CTLD).
    CtldAsset(Ctld) by CtldLoader for ["ctl"] with |b, _| Ctld::parse(b);
    /// Control points `.cpt` (CTPT).
    CtptAsset(Ctpt) by CtptLoader for ["cpt"] with |b, _| Ctpt::parse(b);
    /// A building basement `.bas` (BASE).
    BaseAsset(Base) by BaseLoader for ["bas"] with |b, _| Base::parse(b);
    /// A compiled script package `.scr`.
    ScriptAsset(ScrPackage) by ScriptLoader for ["scr"] with ScrPackage::parse;
    /// A variable set `varset.var`.
    VarsetAsset(Varset) by VarsetLoader for ["var"] with |b, _| Varset::parse(b);
    /// An INI file (`Behavior.ini`, `ArealMap.ini`, `Iron_3D.ini`).
    IniAsset(IniFile) by IniLoader for ["ini"] with |b, _| Ok(IniFile::parse(b));
    /// An object-block configuration file (`mission.cfg` and others).
    CfgAsset(BlockCfg) by CfgLoader for ["cfg"] with |b, _| BlockCfg::parse(b);
    /// An input descriptor (`ScanCode.dsc`, `Command.dsc`).
    DescriptorAsset(Descriptor) by DescriptorLoader for ["dsc"] with |b, _| Descriptor::parse(b);
    /// A `.man` key binding file.
    ManAsset(ManFile) by ManLoader for ["man"] with |b, _| ManFile::parse(b);
    /// A `.tbl` input table.
    InputTableAsset(InputTable) by InputTableLoader for ["tbl"] with |b, _| InputTable::parse(b);
    /// A sound (SWAV / RIFF WAVE entry), decoded to 16-bit PCM. Addressed with the hint
    /// `.swav` (`sounds.lib::BOOM.WAV.swav`), so kira's own `wav` loader never clashes.
    SoundAsset(DecodedSample) by SoundLoader for ["swav"] with |b, _| decode_wave(b);
}
