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

impl PlacedModule {
    /// Resolves a string id in the bound table (empty for `0xFFFFFFFF` and out of range).
    pub fn string(&self, id: crate::Sid) -> &[u8] {
        resolve(&self.strings, id)
    }
}

/// One `INCL` record as resolved: where it was looked for, what was loaded, what failed.
#[derive(Debug, Clone, Default)]
pub struct IncludeNode {
    /// The record's binary path as written (parameters bound).
    pub binary_path: String,
    /// The record's source `.scm`/`.inc` path (parameters bound).
    pub source_path: String,
    /// Bound parameters.
    pub params: Vec<Vec<u8>>,
    /// The file loaded (or, for a duplicate, the file loaded earlier); `None` if none was.
    pub file: Option<String>,
    /// Why nothing was loaded: a located message.
    pub error: Option<String>,
    /// True if the same path + parameters was loaded before (so nothing was loaded again).
    pub duplicate: bool,
    /// Index into [`IncludeTree::modules`] of the module loaded here.
    pub module: Option<usize>,
    /// The loaded module's own includes.
    pub children: Vec<IncludeNode>,
}

/// The resolved include tree: modules in depth-first load order (root first), the root's
/// includes as a tree, and one located warning per include that could not be loaded.
#[derive(Debug, Clone, Default)]
pub struct IncludeTree {
    /// Loaded modules (each path + parameter list once).
    pub modules: Vec<PlacedModule>,
    /// The root's includes.
    pub includes: Vec<IncludeNode>,
    /// Includes skipped because the same path + parameters was already loaded.
    pub duplicates: Vec<(String, Vec<Vec<u8>>)>,
    /// Missing or damaged includes (the rest of the tree is still loaded).
    pub warnings: Vec<Error>,
}

/// Files where an include's binary is looked for, de-duplicated, in order: the `binary_path`
/// beside the including file, then the source path with its extension replaced by `.eu7`
/// (a binary lives beside its `.scm`/`.inc`, `docs/reference/eu7.md` §10.2), both first
/// relative to the including file's folder and then to the root scenery's folder.
pub fn include_candidates(including: &str, root: &str, binary_path: &str, source_path: &str) -> Vec<String> {
    let beside_source = binary_of_source(source_path);
    let mut out: Vec<String> = Vec::new();
    for base in [including, root] {
        for rel in [binary_path, beside_source.as_str()] {
            let p = join_relative(base, rel);
            if !rel.is_empty() && !out.iter().any(|o| normalize(o) == normalize(&p)) {
                out.push(p);
            }
        }
    }
    out
}

/// `X.scm`, `X.inc`, `X.scn`, `X.sbt` → `X.eu7` (same folder); other names unchanged, empty
/// for an empty path (`docs/reference/eu7.md` §10.2).
pub fn binary_of_source(source: &str) -> String {
    let source = source.replace('\\', "/");
    match source.rfind('.') {
        Some(dot) if !source[dot..].contains('/') => {
            let ext = source[dot + 1..].to_ascii_lowercase();
            if matches!(ext.as_str(), "scm" | "inc" | "scn" | "sbt") {
                format!("{}.eu7", &source[..dot])
            } else {
                source
            }
        }
        _ => source,
    }
}

/// Loads `root` and every module it includes, recursively (`docs/reference/eu7.md` §6.2,
/// §6.3 and §10.2). Each path + parameter list is loaded once, so self-includes and cycles
/// end. Only a root that cannot be read is an error; a missing or damaged include becomes
/// a located warning in [`IncludeTree::warnings`] and on its [`IncludeNode`].
pub fn resolve_includes(root: &str, loader: &dyn FileLoader, opts: &ReadOptions) -> Result<IncludeTree> {
    let mut r = Resolver { root, loader, opts, seen: BTreeSet::new(), tree: IncludeTree::default() };
    r.seen.insert((normalize(root), Vec::new()));
    let data = loader.load(root).map_err(|cause| Error::new(ErrorKind::Load { path: root.to_owned(), cause }))?;
    let module = Module::read(data, &ReadOptions { strict: opts.strict, file: Some(root.to_owned()) })?;
    r.tree.includes = r.place(root.to_owned(), module, Vec::new(), IDENTITY, 0);
    Ok(r.tree)
}

struct Resolver<'a> {
    root: &'a str,
    loader: &'a dyn FileLoader,
    opts: &'a ReadOptions,
    seen: BTreeSet<(String, Vec<Vec<u8>>)>,
    tree: IncludeTree,
}

impl Resolver<'_> {
    /// Adds a loaded module and resolves its includes; returns their nodes.
    fn place(
        &mut self,
        path: String,
        module: Module,
        params: Vec<Vec<u8>>,
        outer: Affine,
        depth: usize,
    ) -> Vec<IncludeNode> {
        // bind parameters, then the site transform (in `outer`), then PLAC (docs/reference/eu7.md addendum).
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
        self.tree.modules.push(PlacedModule {
            path: path.clone(),
            params,
            module,
            strings: strings.clone(),
            transform,
            depth,
        });
        let text = |id| String::from_utf8_lossy(resolve(&strings, id)).into_owned();
        let mut nodes = Vec::with_capacity(includes.len());
        for (k, inc) in includes.into_iter().enumerate() {
            let mut node = IncludeNode {
                binary_path: text(inc.binary_path),
                source_path: text(inc.source_path),
                params: inc.params.iter().map(|s| resolve(&strings, *s).to_vec()).collect(),
                ..IncludeNode::default()
            };
            let site = compose(&transform, &inc.site_transform.as_ref().map_or(IDENTITY, site_matrix));
            let locate = |e: Error| e.in_record("include", k).in_chunk(ids::INCL).in_file(path.as_str());
            match self.open(&path, &node, depth) {
                Ok(Opened::Loaded(file, module)) => {
                    node.module = Some(self.tree.modules.len());
                    node.file = Some(file.clone());
                    node.children = self.place(file, module, node.params.clone(), site, depth + 1);
                }
                Ok(Opened::Duplicate(file)) => {
                    node.duplicate = true;
                    self.tree.duplicates.push((file.clone(), node.params.clone()));
                    node.file = Some(file);
                }
                Err(e) => {
                    let e = locate(e);
                    node.error = Some(e.to_string());
                    self.tree.warnings.push(e);
                }
            }
            nodes.push(node);
        }
        nodes
    }

    /// Finds, de-duplicates and reads the binary of `node`, included from `including`.
    fn open(&mut self, including: &str, node: &IncludeNode, depth: usize) -> Result<Opened> {
        let candidates = include_candidates(including, self.root, &node.binary_path, &node.source_path);
        let load_err = |path: &str, cause: String| Error::new(ErrorKind::Load { path: path.to_owned(), cause });
        let Some(first) = candidates.first() else {
            return Err(load_err("", "the include names no file".to_owned()));
        };
        if depth >= MAX_DEPTH {
            return Err(load_err(first, format!("include depth above {MAX_DEPTH}")));
        }
        let mut causes = Vec::new();
        for path in &candidates {
            if !self.seen.insert((normalize(path), node.params.clone())) {
                return Ok(Opened::Duplicate(path.clone()));
            }
            match self.loader.load(path) {
                Ok(data) => {
                    let opts = ReadOptions { strict: self.opts.strict, file: Some(path.clone()) };
                    return Module::read(data, &opts).map(|m| Opened::Loaded(path.clone(), m));
                }
                Err(cause) => {
                    self.seen.remove(&(normalize(path), node.params.clone()));
                    causes.push(format!("{path}: {cause}"));
                }
            }
        }
        Err(load_err(first, format!("not found ({})", causes.join("; "))))
    }
}

enum Opened {
    Loaded(String, Module),
    Duplicate(String),
}
