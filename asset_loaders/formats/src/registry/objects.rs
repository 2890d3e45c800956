//! `objects.rlb`: an NRes archive whose entry names are prototype keys and whose
//! payloads are arrays of 64-byte `ObjectRef64` references; resolution expands parent
//! prototypes in place and picks the effective model, materials and helpers.

use crate::bytes::{display_name, fixed_field, fixed_str};
use crate::error::{Error, ErrorKind, Result, ResultExt};
use crate::nres::Nres;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Size of one reference record.
pub const REF_SIZE: usize = 64;
/// Expansion depth limit of the reference implementation.
pub const DEPTH_LIMIT: usize = 32;
/// The archive name that marks a parent-prototype reference.
pub const REGISTRY_ARCHIVE: &str = "objects.rlb";

/// One reference: two 32-byte fixed strings, kept whole (tails after NUL included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjectRef64 {
    /// Archive name field.
    pub archive_raw: [u8; 32],
    /// Resource (or parent key) field.
    pub resource_raw: [u8; 32],
}

impl ObjectRef64 {
    /// A new reference from names (each at most 31 bytes).
    pub fn new(archive: &str, resource: &str) -> Result<Self> {
        Ok(Self { archive_raw: fixed_field(archive.as_bytes())?, resource_raw: fixed_field(resource.as_bytes())? })
    }

    /// The archive name, up to NUL, ASCII whitespace trimmed.
    pub fn archive(&self) -> &[u8] {
        fixed_str(&self.archive_raw).trim_ascii()
    }

    /// The resource name, up to NUL, ASCII whitespace trimmed.
    pub fn resource(&self) -> &[u8] {
        fixed_str(&self.resource_raw).trim_ascii()
    }

    /// True when this reference names a parent prototype.
    pub fn is_parent(&self) -> bool {
        self.archive().eq_ignore_ascii_case(REGISTRY_ARCHIVE.as_bytes())
    }
}

/// Parses a registry payload (its size must be a multiple of 64, checked first).
pub fn parse_refs(payload: &[u8]) -> Result<Vec<ObjectRef64>> {
    if !payload.len().is_multiple_of(REF_SIZE) {
        return Err(Error::invalid(
            0,
            "objectref_size",
            format!("payload of {} bytes is not a multiple of {REF_SIZE}", payload.len()),
        ));
    }
    Ok(payload
        .chunks_exact(REF_SIZE)
        .map(|c| {
            let mut r = ObjectRef64 { archive_raw: [0; 32], resource_raw: [0; 32] };
            r.archive_raw.copy_from_slice(&c[..32]);
            r.resource_raw.copy_from_slice(&c[32..]);
            r
        })
        .collect())
}

/// Serialises references (all 64 bytes of each kept).
pub fn write_refs(refs: &[ObjectRef64]) -> Vec<u8> {
    refs.iter().flat_map(|r| r.archive_raw.into_iter().chain(r.resource_raw)).collect()
}

/// Existence checks the resolver needs from the game directory.
pub trait ResourceIndex: Sync {
    /// True when the archive exists.
    fn has_archive(&self, archive: &str) -> bool;
    /// True when the archive exists and holds the entry.
    fn has_entry(&self, archive: &str, entry: &str) -> bool;
}

/// A reference after expansion, with the prototype that contributed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectiveRef {
    /// Archive name.
    pub archive: String,
    /// Resource name.
    pub resource: String,
    /// Key of the prototype whose entry holds this reference.
    pub provenance: String,
}

impl EffectiveRef {
    /// True when the resource name ends with `ext` (with dot, case-insensitive).
    pub fn has_ext(&self, ext: &str) -> bool {
        let (r, e) = (self.resource.as_bytes(), ext.as_bytes());
        r.len() >= e.len() && r[r.len() - e.len()..].eq_ignore_ascii_case(e)
    }
}

/// Where a prototype's mesh comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MeshSource {
    /// An explicit `.msh` reference that exists.
    Explicit(EffectiveRef),
    /// Quirk `bas_stem_mesh`: `<stem>.msh` next to the prototype's `.bas`.
    BasStem(EffectiveRef),
    /// No mesh reference and no `.bas`: valid, drawn by no mesh pass (suns, systems).
    NonGeometric,
}

/// A resolved prototype.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prototype {
    /// The registry entry name that matched.
    pub key: String,
    /// Every non-parent reference in expansion order.
    pub refs: Vec<EffectiveRef>,
    /// The mesh.
    pub mesh: MeshSource,
}

impl Prototype {
    /// The first reference with extension `ext` (e.g. `.wea`, `.cpt`, `.ctl`, `.ndp`, `.bas`).
    pub fn first(&self, ext: &str) -> Option<&EffectiveRef> {
        self.refs.iter().find(|r| r.has_ext(ext))
    }

    /// The material table reference.
    pub fn wear(&self) -> Option<&EffectiveRef> {
        self.first(".wea")
    }
}

/// Resolves prototype keys against `objects.rlb`, caching every result (thread-safe).
pub struct PrototypeResolver<'a> {
    registry: &'a Nres<'a>,
    index: &'a dyn ResourceIndex,
    cache: Mutex<HashMap<Vec<u8>, Arc<Result<Prototype>>>>,
}

impl<'a> PrototypeResolver<'a> {
    /// A resolver over a parsed `objects.rlb` and an existence index.
    pub fn new(registry: &'a Nres<'a>, index: &'a dyn ResourceIndex) -> Self {
        Self { registry, index, cache: Mutex::new(HashMap::new()) }
    }

    /// Resolves `key` (cached).
    pub fn resolve(&self, key: &str) -> Arc<Result<Prototype>> {
        let folded = key.to_ascii_lowercase().into_bytes();
        if let Some(hit) = self.cache.lock().ok().and_then(|c| c.get(&folded).cloned()) {
            return hit;
        }
        let result = Arc::new(self.resolve_uncached(key).via(format!("prototype {key}")));
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(folded, Arc::clone(&result));
        }
        result
    }

    /// Number of cached keys.
    pub fn cached(&self) -> usize {
        self.cache.lock().map(|c| c.len()).unwrap_or(0)
    }

    fn find_entry(&self, key: &str) -> Option<usize> {
        let lower = key.to_ascii_lowercase();
        self.registry.find(key.as_bytes()).or_else(|| match lower.strip_suffix(".msh") {
            Some(stem) => self.registry.find(stem.as_bytes()),
            None => self.registry.find(format!("{key}.msh").as_bytes()),
        })
    }

    fn resolve_uncached(&self, key: &str) -> Result<Prototype> {
        let index = self.find_entry(key).ok_or_else(|| {
            Error::new(ErrorKind::NotFound(format!("prototype {key} in {REGISTRY_ARCHIVE}"))).in_file(REGISTRY_ARCHIVE)
        })?;
        let name = self.registry.entries()[index].display_name();
        let mut refs = Vec::new();
        let mut stack = vec![name.clone()];
        self.expand(index, &mut stack, &mut refs)?;
        let mesh = self.pick_mesh(&refs)?;
        Ok(Prototype { key: name, refs, mesh })
    }

    fn expand(&self, index: usize, stack: &mut Vec<String>, out: &mut Vec<EffectiveRef>) -> Result<()> {
        let key = stack.last().cloned().unwrap_or_default();
        if stack.len() > DEPTH_LIMIT {
            return Err(Error::rule("prototype_depth", format!("parent chain deeper than {DEPTH_LIMIT}")));
        }
        let payload = self.registry.payload(index).unwrap_or_default();
        let refs = parse_refs(payload).in_entry(key.clone()).in_file(REGISTRY_ARCHIVE)?;
        for (i, r) in refs.iter().enumerate() {
            let resource = display_name(r.resource());
            if !r.is_parent() {
                out.push(EffectiveRef { archive: display_name(r.archive()), resource, provenance: key.clone() });
                continue;
            }
            let link = format!("reference {i} of {key} -> parent {resource}");
            let parent = self.registry.find(r.resource()).ok_or_else(|| {
                Error::new(ErrorKind::NotFound(format!("parent prototype {resource} in {REGISTRY_ARCHIVE}")))
                    .in_file(REGISTRY_ARCHIVE)
                    .via(link.clone())
            })?;
            if stack.iter().any(|k| k.eq_ignore_ascii_case(&resource)) {
                return Err(Error::rule("prototype_cycle", format!("{} -> {resource}", stack.join(" -> "))));
            }
            stack.push(self.registry.entries()[parent].display_name());
            self.expand(parent, stack, out).via(link)?;
            stack.pop();
        }
        Ok(())
    }

    fn pick_mesh(&self, refs: &[EffectiveRef]) -> Result<MeshSource> {
        let meshes: Vec<&EffectiveRef> = refs.iter().filter(|r| r.has_ext(".msh")).collect();
        if let Some(found) = meshes.iter().find(|r| self.index.has_entry(&r.archive, &r.resource)) {
            return Ok(MeshSource::Explicit((*found).clone()));
        }
        if let Some(first) = meshes.first() {
            return Err(self.broken(first));
        }
        let Some(bas) = refs.iter().find(|r| r.has_ext(".bas")) else {
            return Ok(MeshSource::NonGeometric);
        };
        let stem = &bas.resource[..bas.resource.len() - 4];
        let mesh = EffectiveRef { resource: format!("{stem}.msh"), ..bas.clone() };
        if self.index.has_entry(&mesh.archive, &mesh.resource) {
            Ok(MeshSource::BasStem(mesh))
        } else {
            Err(self.broken(&mesh))
        }
    }

    fn broken(&self, r: &EffectiveRef) -> Error {
        let detail = if self.index.has_archive(&r.archive) {
            format!("entry {} is missing from archive {}", r.resource, r.archive)
        } else {
            format!("archive {} is missing (needed for {})", r.archive, r.resource)
        };
        Error::rule("broken_mesh_reference", detail)
            .in_file(r.archive.clone())
            .via(format!("mesh reference of {}", r.provenance))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nres::NresWriter;
    use crate::options::ReadOptions;

    struct Index(Vec<(&'static str, &'static str)>);
    impl ResourceIndex for Index {
        fn has_archive(&self, archive: &str) -> bool {
            self.0.iter().any(|(a, _)| a.eq_ignore_ascii_case(archive))
        }
        fn has_entry(&self, archive: &str, entry: &str) -> bool {
            self.0.iter().any(|(a, e)| a.eq_ignore_ascii_case(archive) && e.eq_ignore_ascii_case(entry))
        }
    }

    fn registry(protos: &[(&str, &[(&str, &str)])]) -> Vec<u8> {
        let mut w = NresWriter::new();
        for (key, refs) in protos {
            let refs: Vec<ObjectRef64> = refs.iter().map(|(a, r)| ObjectRef64::new(a, r).unwrap()).collect();
            w.add(0, [0; 3], key.as_bytes(), write_refs(&refs)).unwrap();
        }
        w.to_bytes().unwrap()
    }

    fn index() -> Index {
        Index(vec![
            ("static.rlb", "s_tree_0_04.msh"),
            ("static.rlb", "s_tree_0_04.wea"),
            ("fortif.rlb", "fr_m_brige.msh"),
            ("bases.rlb", "r_h_01.msh"),
        ])
    }

    #[test]
    fn explicit_mesh_is_never_derived_from_the_key() {
        let bytes = registry(&[("s_tree_04", &[("static.rlb", "s_tree_0_04.msh"), ("static.rlb", "s_tree_0_04.wea")])]);
        let nres = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
        let index = index();
        let r = PrototypeResolver::new(&nres, &index);
        let p = r.resolve("S_TREE_04");
        let p = p.as_ref().as_ref().unwrap();
        assert_eq!(p.key, "s_tree_04");
        assert!(matches!(&p.mesh, MeshSource::Explicit(m) if m.resource == "s_tree_0_04.msh"));
        assert_eq!(p.wear().unwrap().resource, "s_tree_0_04.wea");
        assert_eq!(r.cached(), 1);
        r.resolve("s_tree_04");
        assert_eq!(r.cached(), 1, "same folded key hits the cache");
    }

    #[test]
    fn parents_expand_in_place_with_provenance_and_bas_stem_mesh() {
        let bytes = registry(&[
            ("fr_parent", &[("fortif.rlb", "fr_m.cpt"), ("fortif.rlb", "fr_m.ndp")]),
            (
                "fr_m_brige",
                &[("fortif.rlb", "fr_m_brige.bas"), ("objects.rlb", "FR_PARENT"), ("fortif.rlb", "fr_m_brige.ctl")],
            ),
        ]);
        let nres = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
        let index = index();
        let r = PrototypeResolver::new(&nres, &index);
        let p = r.resolve("fr_m_brige");
        let p = p.as_ref().as_ref().unwrap();
        let names: Vec<(&str, &str)> = p.refs.iter().map(|e| (e.resource.as_str(), e.provenance.as_str())).collect();
        assert_eq!(
            names,
            [
                ("fr_m_brige.bas", "fr_m_brige"),
                ("fr_m.cpt", "fr_parent"),
                ("fr_m.ndp", "fr_parent"),
                ("fr_m_brige.ctl", "fr_m_brige")
            ]
        );
        assert!(
            matches!(&p.mesh, MeshSource::BasStem(m) if m.resource == "fr_m_brige.msh" && m.archive == "fortif.rlb")
        );
    }

    #[test]
    fn non_geometric_is_valid_but_broken_references_are_errors() {
        let bytes = registry(&[
            ("sun_01", &[("effects.rlb", "sun.sun")]),
            ("broken", &[("bases.rlb", "gone.msh")]),
            ("no_archive", &[("cut.rlb", "x.msh")]),
        ]);
        let nres = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
        let index = index();
        let r = PrototypeResolver::new(&nres, &index);
        assert_eq!(r.resolve("sun_01").as_ref().as_ref().unwrap().mesh, MeshSource::NonGeometric);
        let e = r.resolve("broken").as_ref().clone().unwrap_err();
        assert!(e.to_string().contains("entry gone.msh is missing from archive bases.rlb"), "{e}");
        assert!(e.to_string().starts_with("prototype broken -> mesh reference of broken"), "{e}");
        assert!(e.chain.contains(&crate::Frame::File("bases.rlb".into())), "the archive is the error's file: {e}");
        let e = r.resolve("no_archive").as_ref().clone().unwrap_err();
        assert!(e.to_string().contains("archive cut.rlb is missing"), "{e}");
        let absent = r.resolve("absent").as_ref().clone().unwrap_err();
        assert!(matches!(absent.kind, ErrorKind::NotFound(_)), "{absent}");
        assert!(
            absent.chain.contains(&crate::Frame::File(REGISTRY_ARCHIVE.into())),
            "the registry is its file: {absent}"
        );
    }

    #[test]
    fn cycles_missing_parents_and_depth_are_reported() {
        let bytes = registry(&[
            ("a", &[("objects.rlb", "b")]),
            ("b", &[("objects.rlb", "A")]),
            ("orphan", &[("objects.rlb", "nobody")]),
        ]);
        let nres = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
        let index = index();
        let r = PrototypeResolver::new(&nres, &index);
        let e = r.resolve("a").as_ref().clone().unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Invalid { rule: "prototype_cycle", .. }), "{e}");
        let e = r.resolve("orphan").as_ref().clone().unwrap_err();
        assert!(matches!(e.kind, ErrorKind::NotFound(_)));
        assert!(e.to_string().contains("reference 0 of orphan -> parent nobody"), "{e}");

        let names: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        let chain: Vec<(String, String)> =
            (0..40).map(|i| ("objects.rlb".to_string(), format!("p{}", i + 1))).collect();
        let mut w = NresWriter::new();
        for (i, n) in names.iter().enumerate() {
            let refs = if i < 39 { vec![ObjectRef64::new(&chain[i].0, &chain[i].1).unwrap()] } else { vec![] };
            w.add(0, [0; 3], n.as_bytes(), write_refs(&refs)).unwrap();
        }
        let bytes = w.to_bytes().unwrap();
        let nres = Nres::parse(&bytes, ReadOptions::strict()).unwrap();
        let r = PrototypeResolver::new(&nres, &index);
        let e = r.resolve("p0").as_ref().clone().unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Invalid { rule: "prototype_depth", .. }), "{e}");
        assert!(r.resolve("p20").as_ref().is_ok());
    }

    #[test]
    fn payload_size_is_checked_and_tails_survive() {
        assert!(matches!(parse_refs(&[0; 65]).unwrap_err().kind, ErrorKind::Invalid { rule: "objectref_size", .. }));
        let mut raw = [0u8; 64];
        raw[..10].copy_from_slice(b"bases.rlb\0");
        raw[12] = 0x77;
        raw[32..41].copy_from_slice(b" x.msh \0\0");
        let refs = parse_refs(&raw).unwrap();
        assert_eq!(refs[0].archive(), b"bases.rlb");
        assert_eq!(refs[0].resource(), b"x.msh");
        assert_eq!(write_refs(&refs), raw);
    }
}
