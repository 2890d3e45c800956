//! The mission dependency graph (`docs/reference/world.md` §1.8, §5): placed objects → direct
//! key or unit DAT → component keys → `objects.rlb` entries → MSH and WEAR → material
//! slots → MAT0 phases → Texm and lightmaps. Counts follow the spec's corpus
//! statistics (per request, not per unique resource) and every failure names its
//! edge: placed object, expanded key, archive, entry and link kind.
//!
//! Mission-level edges: the land files (the points of the mission that must be walkable
//! are checked against `Land.map`, [`GraphReport::off_map`]), each clan's research tree (TRF) and the
//! weather table `sky.wea`, whose materials are counted apart from the object chain
//! (as the spec's corpus statistics separate environment tables).
//!
//! The crate does not depend on the game directory: [`GameFiles`] is the small trait
//! the graph needs (implemented for `iron3d_vfs::GameDir` in that crate). WEAR and
//! MAT0 contents are reached through [`ModelLinks`]; until the model parsers are
//! wired in, [`PresenceOnly`] counts MSH/WEAR by entry presence and does not expand
//! material slots or textures.

use super::land_map::ArealMap;
use super::tma::{Tma, land_file_paths};
use crate::error::{Error, Result, ResultExt};
use crate::nres::Nres;
use crate::options::ReadOptions;
use crate::registry::{MeshSource, PrototypeResolver, ResourceIndex, UnitDat};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Archive of the materials (MAT0 entries).
pub const MATERIAL_ARCHIVE: &str = "Material.lib";
/// Archive of the textures (Texm entries).
pub const TEXTURE_ARCHIVE: &str = "Textures.lib";
/// Archive of the lightmaps.
pub const LIGHTMAP_ARCHIVE: &str = "LightMap.lib";
/// The prototype registry.
pub const REGISTRY: &str = "objects.rlb";

/// Byte access to a game tree (paths case-insensitive, `\` or `/`).
pub trait GameFiles: ResourceIndex {
    /// Reads a loose file by game path.
    fn load_file(&self, path: &str) -> Result<Arc<[u8]>>;
    /// Reads an archive entry (decoded).
    fn load_entry(&self, archive: &str, entry: &str) -> Result<Arc<[u8]>>;
}

/// What a WEAR table links to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WearLinks {
    /// One material name per slot (in `Material.lib`).
    pub materials: Vec<String>,
    /// Lightmap names (in `LightMap.lib`).
    pub lightmaps: Vec<String>,
}

/// The plug-in point of the model-format parsers (WEAR, MAT0). `Ok(None)` means
/// "not parsed": the graph then counts the resource by entry presence only.
pub trait ModelLinks: Sync {
    /// The links of a WEAR table.
    fn wear_links(&self, wear: &[u8]) -> Result<Option<WearLinks>>;
    /// The texture names of a MAT0 material's phases (one per phase that names one).
    fn material_textures(&self, mat0: &[u8]) -> Result<Option<Vec<String>>>;
}

/// The presence-only expander used until the WEAR/MAT0 parsers land.
#[derive(Debug, Clone, Copy, Default)]
pub struct PresenceOnly;

impl ModelLinks for PresenceOnly {
    fn wear_links(&self, _wear: &[u8]) -> Result<Option<WearLinks>> {
        Ok(None)
    }
    fn material_textures(&self, _mat0: &[u8]) -> Result<Option<Vec<String>>> {
        Ok(None)
    }
}

/// The kind of a graph edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// Mission → `data.tma`.
    Mission,
    /// Mission → terrain/areal/WEAR files derived from the land path.
    Land,
    /// Placed object → unit `.dat`.
    UnitDat,
    /// Placed object or component → `objects.rlb` prototype (and its parents).
    Prototype,
    /// Prototype → MSH.
    Mesh,
    /// Prototype → WEAR.
    Wear,
    /// WEAR slot → MAT0.
    Material,
    /// MAT0 phase → Texm.
    Texture,
    /// WEAR → lightmap Texm.
    Lightmap,
    /// Clan → research tree (TRF, the clan's second resource).
    ResearchTree,
    /// Mission → weather material table `sky.wea`.
    Weather,
}

impl LinkKind {
    /// Stable lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Mission => "mission",
            Self::Land => "land",
            Self::UnitDat => "unit_dat",
            Self::Prototype => "prototype",
            Self::Mesh => "mesh",
            Self::Wear => "wear",
            Self::Material => "material",
            Self::Texture => "texture",
            Self::Lightmap => "lightmap",
            Self::ResearchTree => "research_tree",
            Self::Weather => "weather",
        }
    }
}

/// One failed edge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Placed object index (none for mission-level edges and inventory warnings).
    pub object: Option<usize>,
    /// The placed object's resource name; for mission-level edges the source (a clan
    /// or a weather file), empty for the mission itself.
    pub object_name: String,
    /// Expanded prototype key (empty when the failure precedes expansion).
    pub key: String,
    /// Archive (or loose file) of the missing/broken resource.
    pub archive: String,
    /// Entry name.
    pub entry: String,
    /// Link kind.
    pub link: LinkKind,
    /// The located error, with its chain.
    pub message: String,
}

/// Request counts, per request (a prototype used twice counts twice).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GraphStats {
    /// Placed objects.
    pub placed_objects: u64,
    /// Objects naming a unit `.dat`.
    pub unit_references: u64,
    /// Components expanded from unit `.dat` files.
    pub components: u64,
    /// Objects naming a prototype key directly.
    pub direct_keys: u64,
    /// Prototype requests (direct keys + components); each asks for prototype, MSH and WEAR.
    pub prototype_requests: u64,
    /// Resolved meshes (explicit or `.bas` stem).
    pub mesh_requests: u64,
    /// Prototypes without geometry (valid).
    pub non_geometric: u64,
    /// WEAR references found.
    pub wear_requests: u64,
    /// Material slots (0 while WEAR is counted by presence only).
    pub material_slots: u64,
    /// Texture requests (MAT0 phases naming a Texm).
    pub texture_requests: u64,
    /// Lightmap requests.
    pub lightmap_requests: u64,
    /// Clans naming a research tree (TRF), each resolved and parsed.
    pub research_trees: u64,
}

/// Requests made by the rows of WEAR tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MaterialCounts {
    /// Material slots.
    pub material_slots: u64,
    /// Texture requests (MAT0 phases naming a Texm).
    pub texture_requests: u64,
    /// Lightmap requests.
    pub lightmap_requests: u64,
}

/// The mission's weather files (`docs/reference/world.md` §5.1, `docs/reference/runtime.md` §8). The spec does
/// not say the load fails without them, so absence is reported, not an error.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WeatherFiles {
    /// `sky.wea` is present (its materials are then followed like any WEAR table).
    pub table: bool,
    /// `sky.ske` is present (layout opaque: presence only).
    pub schedule: bool,
    /// Requests of `sky.wea`, kept apart from the object chain's counts.
    pub requests: MaterialCounts,
}

/// The graph of one mission.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphReport {
    /// Mission directory as given.
    pub mission: String,
    /// Land path from the TMA (display).
    pub land_path: String,
    /// Counts.
    pub stats: GraphStats,
    /// Weather files.
    pub weather: WeatherFiles,
    /// True when WEAR/MAT0 were expanded by a real parser (not presence only).
    pub materials_parsed: bool,
    /// Reachable failures: these stop a mission load.
    pub errors: Vec<Failure>,
    /// Unreachable broken catalogue entries (inventory mode only).
    pub warnings: Vec<Failure>,
    /// Path points, clan anchors and placed units outside every areal of the mission's
    /// `Land.map` ([`super::walkable`]; checked when the map parses): reported, they do
    /// not stop a load.
    pub off_map: Vec<super::walkable::OffMap>,
}

/// Builds mission graphs over a game tree.
pub struct MissionGraph<'a> {
    files: &'a dyn GameFiles,
    links: &'a dyn ModelLinks,
    options: ReadOptions,
}

mod mission_files;
mod walk;

pub use mission_files::{SKY_SCHEDULE, SKY_TABLE};

impl<'a> MissionGraph<'a> {
    /// A graph builder with presence-only material counting.
    pub fn new(files: &'a dyn GameFiles) -> Self {
        Self { files, links: &PresenceOnly, options: ReadOptions::compatible() }
    }

    /// Uses real WEAR/MAT0 parsers.
    #[must_use]
    pub fn with_model_links(mut self, links: &'a dyn ModelLinks) -> Self {
        self.links = links;
        self
    }

    /// Reading options for the TMA and the unit schemes.
    #[must_use]
    pub fn with_options(mut self, options: ReadOptions) -> Self {
        self.options = options;
        self
    }

    /// Builds the graph of `mission` (a directory holding `data.tma`). With
    /// `inventory`, every registry prototype the mission does not reach is also
    /// resolved and its failures are reported as warnings.
    pub fn build(&self, mission: &str, inventory: bool) -> Result<GraphReport> {
        let dir = mission.trim_end_matches(['/', '\\']);
        let tma_path = format!("{dir}/data.tma");
        let bytes = self.files.load_file(&tma_path).via(format!("mission {mission}"))?;
        let tma = Tma::parse(&bytes, self.options).in_file(tma_path)?;
        let registry = self.files.load_file(REGISTRY)?;
        let nres = Nres::parse(&registry, self.options).in_file(REGISTRY)?;
        let resolver = PrototypeResolver::new(&nres, self.files);
        let mut w = walk::Walk::new(self, &resolver);
        let land = tma.land_path.display();
        let mut off_map = Vec::new();
        for path in land_file_paths(&land) {
            if path.ends_with(".map") && self.files.has_archive(&path) {
                // The graph checks the land files' presence; a map that does not parse
                // is the mission load's located error (Foundation), not the graph's.
                if let Ok(map) = self.files.load_file(&path).and_then(|b| ArealMap::parse(&b, self.options)) {
                    off_map = super::walkable::off_map(&tma, &map);
                }
            }
            if !self.files.has_archive(&path) {
                w.fail(
                    walk::Origin::mission(""),
                    &path,
                    "",
                    LinkKind::Land,
                    Error::new(crate::error::ErrorKind::NotFound(path.clone())),
                );
            }
        }
        w.research_trees(&tma.clans);
        let weather = w.weather(dir);
        for (i, object) in tma.objects.iter().enumerate() {
            w.object(i, object);
        }
        let mut warnings = Vec::new();
        if inventory {
            let reached: HashSet<String> = w.requested.iter().map(|k| k.to_ascii_lowercase()).collect();
            for e in nres.entries() {
                let key = e.display_name();
                if reached.contains(&key.to_ascii_lowercase()) {
                    continue;
                }
                if let Err(err) = resolver.resolve(&key).as_ref() {
                    warnings.push(Failure {
                        object: None,
                        object_name: String::new(),
                        key: key.clone(),
                        archive: REGISTRY.into(),
                        entry: key,
                        link: LinkKind::Prototype,
                        message: err.to_string(),
                    });
                }
            }
        }
        Ok(GraphReport {
            mission: mission.to_string(),
            land_path: land,
            stats: w.stats,
            weather,
            materials_parsed: w.materials_parsed,
            errors: w.errors,
            warnings,
            off_map,
        })
    }
}

/// Per-resource caches of the walk (results are shared by every request).
#[derive(Default)]
struct Caches {
    wear: HashMap<(String, String), std::result::Result<Option<WearLinks>, String>>,
    material: HashMap<String, std::result::Result<Option<Vec<String>>, String>>,
}

#[cfg(test)]
mod tests;

pub(crate) fn is_broken_mesh(e: &Error) -> bool {
    matches!(&e.kind, crate::error::ErrorKind::Invalid { rule: "broken_mesh_reference", .. })
}

pub(crate) fn mesh_of(p: &crate::registry::Prototype) -> Option<&crate::registry::EffectiveRef> {
    match &p.mesh {
        MeshSource::Explicit(r) | MeshSource::BasStem(r) => Some(r),
        MeshSource::NonGeometric => None,
    }
}

pub(crate) fn unit_keys(bytes: &[u8]) -> Result<Vec<String>> {
    UnitDat::parse(bytes)?.component_keys()
}
