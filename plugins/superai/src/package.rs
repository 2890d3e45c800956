//! Loading a clan's script package (`docs/reference/runtime.md` §3.1, §3.8, §3.11): `<bundle>.scr`,
//! the variable table (`<bundle>.var`, falling back to the shared `varset.var` of the
//! same folder **only when the bundle file is missing**), then `<bundle>.fml`; the
//! version check (its own error); variables created from the table's defaults with the
//! declaration kinds of §3.8; and a load-time check of the records of the analysed
//! handlers (reference counts, kinds and ranges), so a bad package is a located error,
//! never a panic at run time.

use crate::handlers::{HANDLER_COUNT, check_shape};
use crate::variables::{Variable, kind};
use iron3d_core::ScriptFiles;
use iron3d_formats::script::{FmlText, ScrPackage, Selector, StringIndexing, VarType, Varset};
use iron3d_formats::{Error, ErrorKind, ReadOptions, ResultExt};

/// Which file the variables came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableSource {
    /// `<bundle>.var`.
    Bundle(String),
    /// The shared `varset.var` (the bundle file was missing).
    Shared(String),
}

impl TableSource {
    /// The path read.
    pub fn path(&self) -> &str {
        match self {
            Self::Bundle(p) | Self::Shared(p) => p,
        }
    }
}

/// How strictly packages are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoadMode {
    /// Selectors outside the handler table are kept as `Unknown` and stop their event
    /// at run time with an *unsupported* result (the game's default).
    #[default]
    Compatible,
    /// Such a selector is a located load error.
    Strict,
}

/// A loaded package: the immutable compiled script and the initial variables.
#[derive(Debug, Clone)]
pub struct ScriptPackage {
    /// The bundle as the clan names it (e.g. `MISSIONS\SCRIPTS\default`).
    pub bundle: String,
    /// The compiled package.
    pub scr: ScrPackage,
    /// The variable table's source.
    pub table: TableSource,
    /// Variables from the table's defaults, in declaration (reference) order.
    pub variables: Vec<Variable>,
    /// The formula export (kept; the engine path does not parse it).
    pub fml: FmlText,
}

/// `<dir>/<stem>` of a bundle path, with `/` separators.
fn split_bundle(bundle: &str) -> (String, String) {
    let path = bundle.replace('\\', "/");
    let path = path.strip_suffix(".scr").or_else(|| path.strip_suffix(".SCR")).unwrap_or(&path).to_string();
    match path.rsplit_once('/') {
        Some((dir, stem)) => (dir.to_string(), stem.to_string()),
        None => (String::new(), path),
    }
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") }
}

fn read(files: &dyn ScriptFiles, path: &str) -> iron3d_formats::Result<Option<Vec<u8>>> {
    files.read(path).map_err(|e| Error::new(ErrorKind::Io(e)).in_file(path.to_string()))
}

fn required(files: &dyn ScriptFiles, path: &str) -> iron3d_formats::Result<Vec<u8>> {
    read(files, path)?
        .ok_or_else(|| Error::new(ErrorKind::NotFound(format!("script file {path}"))).in_file(path.to_string()))
}

/// The variables of a table: every counted declaration in file order (§3.8).
pub fn variables(table: &Varset) -> Vec<Variable> {
    table
        .declarations(StringIndexing::Counted)
        .into_iter()
        .map(|(line, decl)| match decl {
            Some(d) => Variable {
                name: String::from_utf8_lossy(&d.name).into_owned(),
                kind: match d.ty {
                    VarType::Float => kind::FLOAT,
                    VarType::Dword => kind::DWORD,
                },
                word: d.initial_word(),
            },
            None => Variable {
                name: String::from_utf8_lossy(&table.lines[line].text).into_owned(),
                kind: kind::STRING,
                word: 0,
            },
        })
        .collect()
}

/// Byte offset of record `r` of event `e` in the package file.
pub fn record_offset(scr: &ScrPackage, e: usize, r: usize) -> u64 {
    let mut at = 8u64;
    for (i, event) in scr.events.iter().enumerate() {
        at += 4 + event.name.len() as u64 + 1 + 8;
        for (j, rec) in event.records.iter().enumerate() {
            if i == e && j == r {
                return at;
            }
            at += rec.encoded_len() as u64;
        }
    }
    at
}

/// Loads the package of `bundle` (`docs/reference/runtime.md` §3.1 order: `.scr`, variable table, `.fml`).
///
/// # Errors
/// A located error naming the file (and event, record and offset for a bad record):
/// a missing or unreadable file, a truncated or malformed package, a handler count
/// other than `expected_handlers` (the version error), a malformed table, or a
/// record of an analysed handler whose references are incomplete, of the wrong kind or
/// out of range (and, in [`LoadMode::Strict`], a selector outside the handler table).
pub fn load(
    files: &dyn ScriptFiles,
    bundle: &str,
    expected_handlers: u32,
    mode: LoadMode,
) -> iron3d_formats::Result<ScriptPackage> {
    let (dir, stem) = split_bundle(bundle);
    let scr_path = join(&dir, &format!("{stem}.scr"));
    let bytes = required(files, &scr_path)?;
    let options = match mode {
        LoadMode::Compatible => ReadOptions::compatible(),
        LoadMode::Strict => ReadOptions::strict(),
    };
    let scr = ScrPackage::parse(&bytes, options).in_file(scr_path.clone())?;
    scr.check_version(expected_handlers).in_file(scr_path.clone())?;
    let bundle_var = join(&dir, &format!("{stem}.var"));
    let (table, table_bytes) = match read(files, &bundle_var)? {
        Some(b) => (TableSource::Bundle(bundle_var), b),
        None => {
            let shared = join(&dir, "varset.var");
            let b = required(files, &shared)?;
            (TableSource::Shared(shared), b)
        }
    };
    let varset = Varset::parse(&table_bytes).in_file(table.path().to_string())?;
    let fml_path = join(&dir, &format!("{stem}.fml"));
    let fml = FmlText::parse(&required(files, &fml_path)?);
    let variables = variables(&varset);
    check_records(&scr, &variables).in_file(scr_path)?;
    Ok(ScriptPackage { bundle: bundle.to_string(), scr, table, variables, fml })
}

/// Load-time check of every record of an analysed handler.
fn check_records(scr: &ScrPackage, vars: &[Variable]) -> iron3d_formats::Result<()> {
    for (e, event) in scr.events.iter().enumerate() {
        for (r, record) in event.records.iter().enumerate() {
            let Selector::Handler(h) = record.selector() else { continue };
            if h >= HANDLER_COUNT {
                continue;
            }
            if let Err(why) = check_shape(h, &record.refs, vars) {
                return Err(Error::at(
                    record_offset(scr, e, r),
                    ErrorKind::Invalid { rule: "scr_record", detail: why },
                )
                .via(format!("record {r} (Handler({h}))"))
                .via(format!("event {e} {:?}", event.display_name())));
            }
        }
    }
    Ok(())
}
