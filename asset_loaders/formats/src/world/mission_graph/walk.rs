//! The walk over one mission's placed objects, counting requests and recording
//! failed edges.

use super::*;
use crate::error::ErrorKind;
use crate::world::tma::PlacedObject;

pub(super) struct Walk<'g, 'a> {
    pub(super) graph: &'g MissionGraph<'a>,
    resolver: &'g PrototypeResolver<'g>,
    caches: Caches,
    pub(super) stats: GraphStats,
    pub(super) errors: Vec<Failure>,
    pub(super) requested: Vec<String>,
    pub(super) materials_parsed: bool,
}

fn missing(what: String) -> Error {
    Error::new(ErrorKind::NotFound(what))
}

/// Where a failed edge starts: a placed object (with its expanded key) or a
/// mission-level source such as a clan or a weather file.
#[derive(Debug, Clone, Copy)]
pub(super) struct Origin<'s> {
    object: Option<usize>,
    name: &'s str,
    key: &'s str,
}

impl<'s> Origin<'s> {
    pub(super) fn object(index: usize, name: &'s str, key: &'s str) -> Self {
        Self { object: Some(index), name, key }
    }

    /// A mission-level source (`""` for the mission itself).
    pub(super) fn mission(source: &'s str) -> Self {
        Self { object: None, name: source, key: "" }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(i) = self.object {
            write!(f, "placed object {i} ({}) -> ", self.object_name)?;
        } else if !self.object_name.is_empty() {
            write!(f, "{} -> ", self.object_name)?;
        }
        if !self.key.is_empty() {
            write!(f, "key {} -> ", self.key)?;
        }
        write!(f, "{} link {}", self.link.name(), self.archive)?;
        if !self.entry.is_empty() {
            write!(f, "::{}", self.entry)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl<'g, 'a> Walk<'g, 'a> {
    pub(super) fn new(graph: &'g MissionGraph<'a>, resolver: &'g PrototypeResolver<'g>) -> Self {
        Self {
            graph,
            resolver,
            caches: Caches::default(),
            stats: GraphStats::default(),
            errors: Vec::new(),
            requested: Vec::new(),
            materials_parsed: false,
        }
    }

    pub(super) fn fail(&mut self, at: Origin<'_>, archive: &str, entry: &str, link: LinkKind, e: Error) {
        self.errors.push(Failure {
            object: at.object,
            object_name: at.name.to_string(),
            key: at.key.to_string(),
            archive: archive.to_string(),
            entry: entry.to_string(),
            link,
            message: e.to_string(),
        });
    }

    pub(super) fn object(&mut self, index: usize, object: &PlacedObject) {
        self.stats.placed_objects += 1;
        let name = object.resource_name.display();
        let keys = if object.is_unit_reference() {
            self.stats.unit_references += 1;
            match self.graph.files.load_file(&name).and_then(|b| unit_keys(&b).in_file(name.clone())) {
                Ok(keys) => {
                    self.stats.components += keys.len() as u64;
                    keys
                }
                Err(e) => return self.fail(Origin::object(index, &name, ""), &name, "", LinkKind::UnitDat, e),
            }
        } else {
            self.stats.direct_keys += 1;
            vec![name.clone()]
        };
        for key in keys {
            self.key(index, &name, &key);
        }
    }

    fn key(&mut self, index: usize, name: &str, key: &str) {
        let at = Origin::object(index, name, key);
        self.stats.prototype_requests += 1;
        self.requested.push(key.to_string());
        let resolved = self.resolver.resolve(key);
        let p = match resolved.as_ref() {
            Ok(p) => p,
            Err(e) => {
                let link = if is_broken_mesh(e) { LinkKind::Mesh } else { LinkKind::Prototype };
                return self.fail(at, REGISTRY, key, link, e.clone());
            }
        };
        let has_mesh = mesh_of(p).is_some();
        if has_mesh {
            self.stats.mesh_requests += 1;
        } else {
            self.stats.non_geometric += 1;
        }
        match p.wear() {
            Some(w) => {
                self.stats.wear_requests += 1;
                self.wear(at, &w.archive, &w.resource);
            }
            None if has_mesh => {
                let e = missing(format!("prototype {} has a mesh but no .wea reference", p.key));
                self.fail(at, REGISTRY, key, LinkKind::Wear, e);
            }
            None => {}
        }
    }

    /// Expands one WEAR table: the point where the WEAR parser plugs in
    /// ([`ModelLinks::wear_links`]); presence only until then.
    fn wear(&mut self, at: Origin<'_>, archive: &str, entry: &str) {
        let files = self.graph.files;
        if !files.has_entry(archive, entry) {
            let what = if files.has_archive(archive) {
                format!("entry {entry} in {archive}")
            } else {
                format!("archive {archive}")
            };
            return self.fail(at, archive, entry, LinkKind::Wear, missing(what));
        }
        let cache_key = (archive.to_ascii_lowercase(), entry.to_ascii_lowercase());
        let links = self.graph.links;
        let result = self
            .caches
            .wear
            .entry(cache_key)
            .or_insert_with(|| {
                files
                    .load_entry(archive, entry)
                    .and_then(|b| links.wear_links(&b))
                    .in_entry(entry.to_string())
                    .map_err(|e| e.to_string())
            })
            .clone();
        let wear = match result {
            Ok(Some(w)) => w,
            Ok(None) => return,
            Err(msg) => {
                return self.fail(
                    at,
                    archive,
                    entry,
                    LinkKind::Wear,
                    Error::new(ErrorKind::Invalid { rule: "wear", detail: msg }),
                );
            }
        };
        self.materials_parsed = true;
        let counts = self.expand(at, &wear);
        self.stats.material_slots += counts.material_slots;
        self.stats.texture_requests += counts.texture_requests;
        self.stats.lightmap_requests += counts.lightmap_requests;
    }

    /// Follows a parsed WEAR table's material slots and lightmaps, recording failures
    /// against `at`; returns the requests made.
    pub(super) fn expand(&mut self, at: Origin<'_>, wear: &WearLinks) -> MaterialCounts {
        let mut counts = MaterialCounts { material_slots: wear.materials.len() as u64, ..MaterialCounts::default() };
        for m in &wear.materials {
            counts.texture_requests += self.material(at, m);
        }
        counts.lightmap_requests = wear.lightmaps.len() as u64;
        for l in &wear.lightmaps {
            if !self.graph.files.has_entry(LIGHTMAP_ARCHIVE, l) {
                self.fail(at, LIGHTMAP_ARCHIVE, l, LinkKind::Lightmap, missing(format!("lightmap {l}")));
            }
        }
        counts
    }

    /// Expands one material slot: the point where the MAT0 parser plugs in
    /// ([`ModelLinks::material_textures`]). Returns the texture requests made.
    fn material(&mut self, at: Origin<'_>, material: &str) -> u64 {
        let files = self.graph.files;
        if !files.has_entry(MATERIAL_ARCHIVE, material) {
            self.fail(at, MATERIAL_ARCHIVE, material, LinkKind::Material, missing(format!("material {material}")));
            return 0;
        }
        let links = self.graph.links;
        let result = self
            .caches
            .material
            .entry(material.to_ascii_lowercase())
            .or_insert_with(|| {
                files
                    .load_entry(MATERIAL_ARCHIVE, material)
                    .and_then(|b| links.material_textures(&b))
                    .in_entry(material.to_string())
                    .map_err(|e| e.to_string())
            })
            .clone();
        match result {
            Ok(Some(textures)) => {
                for t in &textures {
                    if !files.has_entry(TEXTURE_ARCHIVE, t) {
                        self.fail(at, TEXTURE_ARCHIVE, t, LinkKind::Texture, missing(format!("texture {t}")));
                    }
                }
                textures.len() as u64
            }
            Ok(None) => 0,
            Err(msg) => {
                self.fail(
                    at,
                    MATERIAL_ARCHIVE,
                    material,
                    LinkKind::Material,
                    Error::new(ErrorKind::Invalid { rule: "mat0", detail: msg }),
                );
                0
            }
        }
    }
}
