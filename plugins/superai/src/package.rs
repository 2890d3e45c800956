//! Loading a clan's script package (`docs/reference/runtime.md` §3.1, §3.8; gameplay.md
//! §2.1–§2.3): `<bundle>.scr`, the variable table (`<bundle>.var`, falling back to the
//! shared `varset.var` of the same folder **only when the bundle file is missing**),
//! then `<bundle>.fml` and its formulas; variables created from the table's defaults
//! with their type tags; and a load-time check of every node (its kind and relation,
//! operand counts and ranges, jump targets, formula indices), so a bad package is a
//! located error (file, handler, node, offset), never a panic at run time.
//!
//! The table-length word (73) is not checked here: the original only logs a mismatch
//! and carries on, which SuperAI reports.

use crate::formula::{Expr, parse_line};
use crate::functions::arity;
use crate::variables::{Variable, kind};
use iron3d_core::ScriptFiles;
use iron3d_formats::script::{FmlText, NodeKind, Record, ScrPackage, StringIndexing, VarType, Varset};
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
    /// A function id outside the 73-entry table is kept and stops its handler at run
    /// time as unsupported (the game's default).
    #[default]
    Compatible,
    /// Such an id is a located load error.
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
    /// The formula file as read.
    pub fml: FmlText,
    /// Its formulas, parsed (formula *n* is the *n*th `FUNCTION` line).
    pub formulas: Vec<Expr>,
}

impl ScriptPackage {
    /// The first handler named `name` (case-sensitive C-string comparison).
    pub fn handler(&self, name: &str) -> Option<usize> {
        self.scr.events.iter().position(|e| e.c_name() == name.as_bytes())
    }

    /// A handler's name for reports.
    pub fn handler_name(&self, index: usize) -> String {
        self.scr.events.get(index).map(|e| e.display_name()).unwrap_or_default()
    }
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

/// Byte offset of node `r` of handler `e` in the package file.
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
/// A located error naming the file (and handler, node and offset for a bad node; the
/// line for a bad formula): a missing or unreadable file, a truncated or malformed
/// package, a malformed table or formula, or a node that cannot run (see
/// [`check_node`]); in [`LoadMode::Strict`] also a function id outside the table.
pub fn load(files: &dyn ScriptFiles, bundle: &str, mode: LoadMode) -> iron3d_formats::Result<ScriptPackage> {
    let (dir, stem) = split_bundle(bundle);
    let scr_path = join(&dir, &format!("{stem}.scr"));
    let bytes = required(files, &scr_path)?;
    let options = match mode {
        LoadMode::Compatible => ReadOptions::compatible(),
        LoadMode::Strict => ReadOptions::strict(),
    };
    let scr = ScrPackage::parse(&bytes, options).in_file(scr_path.clone())?;
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
    let formulas = fml
        .function_lines()
        .into_iter()
        .map(|(line, text)| {
            parse_line(&text, &variables).map_err(|detail| {
                Error::new(ErrorKind::Invalid { rule: "fml_formula", detail }).via(format!("line {}", line + 1))
            })
        })
        .collect::<iron3d_formats::Result<Vec<_>>>()
        .in_file(fml_path)?;
    check_nodes(&scr, &variables, formulas.len()).in_file(scr_path)?;
    Ok(ScriptPackage { bundle: bundle.to_string(), scr, table, variables, fml, formulas })
}

/// Checks one node of a handler of `handlers` nodes in a package of `events` handlers
/// over `vars` variables and `formulas` formulas: a known kind; an `if` with two
/// variables and a relation 0..5; a goto to a node of its handler and a switch to a
/// handler of the package (each one operand); a statement that calls a function (its
/// operands variables, at least as many as an implemented function reads), copies a
/// variable or stores a formula that exists; a constant with a destination; every
/// destination a variable.
///
/// # Errors
/// What is wrong.
pub fn check_node(r: &Record, handlers: usize, events: usize, vars: usize, formulas: usize) -> Result<(), String> {
    let var = |what: &str, v: u32| {
        if (v as usize) < vars { Ok(()) } else { Err(format!("{what} {v} names no variable ({vars} variables)")) }
    };
    let ops_are_variables = || r.ops.iter().enumerate().try_for_each(|(i, v)| var(&format!("operand {i}"), *v));
    let one = |what: &str, bound: usize| match r.ops.as_slice() {
        [t] if (*t as usize) < bound => Ok(()),
        [t] => Err(format!("{what} {t} does not exist ({bound})")),
        ops => Err(format!("{what} takes one operand, the node has {}", ops.len())),
    };
    if let Some(d) = r.dest() {
        var("destination", d)?;
    }
    match r.kind() {
        NodeKind::Unknown(w) => Err(format!("kind {} is not one of -1..6", w as i32)),
        NodeKind::If => {
            r.relation().ok_or_else(|| format!("relation {} is not one of 0..5", r.relation))?;
            if r.ops.len() != 2 {
                return Err(format!("an if compares two operands, the node has {}", r.ops.len()));
            }
            ops_are_variables()
        }
        NodeKind::Goto => one("the goto's node", handlers),
        NodeKind::Switch => one("the switch's handler", events),
        NodeKind::Constant if r.dest().is_none() => Err("a constant without a destination".into()),
        NodeKind::Statement => match (r.function(), r.source(), r.formula()) {
            (Some(f), ..) => {
                ops_are_variables()?;
                match arity(f) {
                    Some(n) if r.ops.len() < n => {
                        Err(format!("function {f} reads {n} operands, the node gives {}", r.ops.len()))
                    }
                    _ => Ok(()),
                }
            }
            (None, Some(s), _) => var("source", s),
            (None, None, Some(f)) if (f as usize) < formulas => Ok(()),
            (None, None, Some(f)) => Err(format!("formula {f} does not exist ({formulas} in the .fml)")),
            (None, None, None) => Err("a statement with no function, source or formula".into()),
        },
        _ => Ok(()),
    }
}

/// Load-time check of every node.
fn check_nodes(scr: &ScrPackage, vars: &[Variable], formulas: usize) -> iron3d_formats::Result<()> {
    for (e, event) in scr.events.iter().enumerate() {
        for (r, record) in event.records.iter().enumerate() {
            if let Err(detail) = check_node(record, event.records.len(), scr.events.len(), vars.len(), formulas) {
                return Err(Error::at(record_offset(scr, e, r), ErrorKind::Invalid { rule: "scr_node", detail })
                    .via(format!("node {r}"))
                    .via(format!("handler {e} {:?}", event.display_name())));
            }
        }
    }
    Ok(())
}
