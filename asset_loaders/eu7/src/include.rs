//! Include resolution over an abstract file loader: `INCL` paths relative to the including
//! file, `(pN)` parameter binding, de-duplication by path + parameters, and placement
//! (parent · site transform · `PLAC` placement).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::chunk::{ChunkBody, ids};
use crate::error::{Error, ErrorKind, Result};
use crate::module::{Module, ReadOptions, resolve};
use crate::node::TransformContext;

/// Maximum include nesting depth (guards against self-inclusion with growing parameters).
pub const MAX_DEPTH: usize = 64;

/// Source of file bytes by path (`/`-separated).
pub trait FileLoader {
    /// Loads `path`, or explains why not.
    fn load(&self, path: &str) -> std::result::Result<Arc<[u8]>, String>;
}

/// In-memory files keyed by ASCII-lower-cased `/` path (for tests and generated data).
#[derive(Debug, Default, Clone)]
pub struct MemoryFiles(pub BTreeMap<String, Arc<[u8]>>);

impl MemoryFiles {
    /// Adds a file.
    pub fn insert(&mut self, path: &str, data: Vec<u8>) {
        self.0.insert(normalize(path), data.into());
    }
}

impl FileLoader for MemoryFiles {
    fn load(&self, path: &str) -> std::result::Result<Arc<[u8]>, String> {
        self.0.get(&normalize(path)).cloned().ok_or_else(|| "no such file".to_owned())
    }
}

/// Files on disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct DiskFiles;

impl FileLoader for DiskFiles {
    fn load(&self, path: &str) -> std::result::Result<Arc<[u8]>, String> {
        std::fs::read(path).map(Into::into).map_err(|e| e.to_string())
    }
}

/// `\` → `/`, `.` and `..` segments collapsed, ASCII lower case (paths compare
/// case-insensitively).
pub fn normalize(path: &str) -> String {
    let lower = path.replace('\\', "/").to_ascii_lowercase();
    let mut parts: Vec<&str> = Vec::new();
    for seg in lower.split('/') {
        match seg {
            "." | "" if !parts.is_empty() => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            _ => parts.push(seg),
        }
    }
    parts.join("/")
}

/// Joins `rel` to the directory of `including` (absolute `rel` kept as is).
pub fn join_relative(including: &str, rel: &str) -> String {
    let rel = rel.replace('\\', "/");
    if rel.starts_with('/') {
        return rel;
    }
    let including = including.replace('\\', "/");
    match including.rfind('/') {
        Some(i) => format!("{}/{rel}", &including[..i]),
        None => rel,
    }
}

/// Replaces `(pN)` (1-based) by parameter `N`; a missing parameter becomes `none`.
pub fn bind_params(s: &[u8], params: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        if b == b'(' && matches!(s.get(i + 1), Some(b'p' | b'P')) {
            let digits = s.get(i + 2..).unwrap_or(&[]).iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 0 && s.get(i + 2 + digits) == Some(&b')') {
                let n: usize = std::str::from_utf8(s.get(i + 2..i + 2 + digits).unwrap_or(&[]))
                    .ok()
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(0);
                match n.checked_sub(1).and_then(|k| params.get(k)) {
                    Some(p) => out.extend_from_slice(p),
                    None => out.extend_from_slice(b"none"),
                }
                i += 3 + digits;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    out
}

/// Row-major 3 × 4 affine transform.
pub type Affine = [[f64; 4]; 3];

/// The identity transform.
pub const IDENTITY: Affine = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]];

/// `a · b`.
pub fn compose(a: &Affine, b: &Affine) -> Affine {
    std::array::from_fn(|r| {
        std::array::from_fn(|c| {
            let lin: f64 = (0..3).map(|k| a[r][k] * b[k][c]).sum();
            lin + if c == 3 { a[r][3] } else { 0.0 }
        })
    })
}

/// Applies `m` to a point.
pub fn apply(m: &Affine, p: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3])
}

fn rot_y(deg: f64) -> Affine {
    let (s, c) = deg.to_radians().sin_cos();
    [[c, 0.0, s, 0.0], [0.0, 1.0, 0.0, 0.0], [-s, 0.0, c, 0.0]]
}

/// The transform context as a matrix: translate(last origin) · scale(last scale) · Ry.
pub fn site_matrix(t: &TransformContext) -> Affine {
    let mut m = rot_y(f64::from(t.rotation[1]));
    if let Some(s) = t.scales.last() {
        for (row, sv) in m.iter_mut().zip(s) {
            row.iter_mut().take(3).for_each(|v| *v *= f64::from(*sv));
        }
    }
    if let Some(o) = t.origins.last() {
        for (row, ov) in m.iter_mut().zip(o) {
            row[3] += f64::from(*ov);
        }
    }
    m
}

/// `PLAC` placement from the include parameters: translate(origin params) · Ry(rotation param).
pub fn placement_matrix(plac: [u8; 4], params: &[Vec<u8>]) -> Affine {
    let num = |k: u8| -> f64 {
        usize::from(k)
            .checked_sub(1)
            .and_then(|i| params.get(i))
            .and_then(|p| std::str::from_utf8(p).ok())
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0.0)
    };
    let mut m = rot_y(num(plac[3]));
    for (row, k) in m.iter_mut().zip(&plac[..3]) {
        row[3] = num(*k);
    }
    m
}

/// One loaded module of the include tree.
#[derive(Debug, Clone)]
pub struct PlacedModule {
    /// Path it was loaded from.
    pub path: String,
    /// Bound parameters it was included with.
    pub params: Vec<Vec<u8>>,
    /// The module as read.
    pub module: Module,
    /// Its string table with `(pN)` bound.
    pub strings: Vec<Vec<u8>>,
    /// Module space → world.
    pub transform: Affine,
    /// Nesting depth (root 0).
    pub depth: usize,
}

/// The resolved include tree in depth-first load order.
#[derive(Debug, Clone, Default)]
pub struct IncludeTree {
    /// Loaded modules (each path + parameter list once).
    pub modules: Vec<PlacedModule>,
    /// Includes skipped because the same path + parameters was already loaded.
    pub duplicates: Vec<(String, Vec<Vec<u8>>)>,
}

/// Loads `root` and every module it includes, recursively.
pub fn resolve_includes(root: &str, loader: &dyn FileLoader, opts: &ReadOptions) -> Result<IncludeTree> {
    let mut tree = IncludeTree::default();
    let mut seen = BTreeSet::new();
    seen.insert((normalize(root), Vec::new()));
    visit(root, Vec::new(), IDENTITY, 0, loader, opts, &mut seen, &mut tree)?;
    Ok(tree)
}

#[expect(clippy::too_many_arguments, reason = "the recursion carries its whole include context")]
fn visit(
    path: &str,
    params: Vec<Vec<u8>>,
    outer: Affine,
    depth: usize,
    loader: &dyn FileLoader,
    opts: &ReadOptions,
    seen: &mut BTreeSet<(String, Vec<Vec<u8>>)>,
    tree: &mut IncludeTree,
) -> Result<()> {
    let load_err = |cause: String| Error::new(ErrorKind::Load { path: path.to_owned(), cause });
    if depth > MAX_DEPTH {
        return Err(load_err(format!("include depth above {MAX_DEPTH}")));
    }
    let data = loader.load(path).map_err(load_err)?;
    let file_opts = ReadOptions { strict: opts.strict, file: Some(path.to_owned()) };
    let module = Module::read(data, &file_opts)?;
    // Placement is applied inside the frame set up by the parent and the site transform.
    let transform = compose(&outer, &placement_matrix(module.placement(), &params));
    let strings: Vec<Vec<u8>> = module.strings().iter().map(|s| bind_params(s, &params)).collect();
    let includes: Vec<_> = module
        .chunks
        .iter()
        .filter_map(|c| match &c.body {
            ChunkBody::Incl(v) => Some(v.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    tree.modules.push(PlacedModule {
        path: path.to_owned(),
        params,
        module,
        strings: strings.clone(),
        transform,
        depth,
    });
    for (k, inc) in includes.into_iter().enumerate() {
        let rel = String::from_utf8_lossy(resolve(&strings, inc.binary_path)).into_owned();
        let child = join_relative(path, &rel);
        let child_params: Vec<Vec<u8>> = inc.params.iter().map(|s| resolve(&strings, *s).to_vec()).collect();
        if !seen.insert((normalize(&child), child_params.clone())) {
            tree.duplicates.push((child, child_params));
            continue;
        }
        let site = inc.site_transform.as_ref().map_or(IDENTITY, site_matrix);
        visit(&child, child_params, compose(&transform, &site), depth + 1, loader, opts, seen, tree)
            .map_err(|e| e.in_record("include", k).in_chunk(ids::INCL).in_file(path))?;
    }
    Ok(())
}
