//! `iron3d-cli script dump FILE [--json]`: show a compiled script package (`.scr`: its
//! handlers and their nodes in the original's meaning, gameplay.md §2.2), a variable
//! table (`.var`) or a formula file (`.fml`).

use crate::output::{options, print_json};
use anyhow::Context;
use clap::Subcommand;
use iron3d_formats::bytes::display_name;
use iron3d_formats::script::{FmlText, NodeKind, Record, ScrPackage, StringIndexing, VarType, Varset};
use serde::Serialize;
use std::path::PathBuf;

/// Script commands.
#[derive(Subcommand)]
pub enum ScriptCommand {
    /// Dump a `.scr` (handlers and their nodes: kind, function, destination, source or
    /// number, relation, operands, formula), a `.var` or a `.fml` file.
    #[command(after_help = "A .scr node prints as the VM reads it: `[vD =] fnN(vA, ...)` a call, `vD = vS` a copy, \
        `vD = formula F` a formula of the bundle's .fml, `if vA REL vB`, `end`, `label`, `goto NODE`, `switch HANDLER`, \
        `return`, `vD = #NUMBER` a constant (vN is variable N of the table). JSON: {\"kind\": \"scr\", \
        \"function_count\", \"handlers\": [{\"name\", \"index\", \"nodes\": [{\"kind\", \"function\", \"dest\", \
        \"source\", \"relation\", \"ops\", \"formula\", \"text\"}]}], \"trailing_bytes\"} (absent words are null).")]
    Dump {
        /// Script file (kind chosen by extension; anything else is read as `.scr`).
        file: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Strict mode (reject a function id outside the 73-entry table).
        #[arg(long)]
        strict: bool,
    },
}

#[derive(Serialize)]
struct ScrJson {
    kind: &'static str,
    function_count: u32,
    handlers: Vec<HandlerJson>,
    trailing_bytes: usize,
}

#[derive(Serialize)]
struct HandlerJson {
    name: String,
    index: u32,
    nodes: Vec<NodeJson>,
}

#[derive(Serialize)]
struct NodeJson {
    kind: &'static str,
    function: Option<u32>,
    dest: Option<u32>,
    source: Option<u32>,
    relation: Option<&'static str>,
    ops: Vec<u32>,
    formula: Option<u32>,
    text: String,
}

#[derive(Serialize)]
struct VarJson {
    index: usize,
    line: usize,
    kind: &'static str,
    name: String,
    default: String,
    initial_word: u32,
}

/// A node as the VM reads it (see the command's help).
fn node_text(r: &Record) -> String {
    let v = |i: u32| format!("v{i}");
    let ops = r.ops.iter().map(|o| v(*o)).collect::<Vec<_>>().join(", ");
    let dest = r.dest().map(|d| format!("{} = ", v(d))).unwrap_or_default();
    let op = |i: usize| r.ops.get(i).map_or("?".to_string(), |o| o.to_string());
    match r.kind() {
        NodeKind::Statement => match (r.function(), r.source(), r.formula()) {
            (Some(f), ..) => format!("{dest}fn{f}({ops})"),
            (None, Some(s), _) => format!("{dest}{}", v(s)),
            (None, None, Some(f)) => format!("{dest}formula {f}"),
            (None, None, None) => "empty statement".into(),
        },
        NodeKind::If => {
            let rel = r.relation().map_or_else(|| format!("relation {}", r.relation), |x| x.symbol().to_string());
            format!(
                "if {} {rel} {}",
                r.ops.first().map_or("?".into(), |o| v(*o)),
                r.ops.get(1).map_or("?".into(), |o| v(*o))
            )
        }
        NodeKind::Goto => format!("goto {}", op(0)),
        NodeKind::Switch => format!("switch {}", op(0)),
        NodeKind::Constant => format!("{dest}#{:#x}", r.head[2]),
        NodeKind::Unknown(w) => format!("kind {}", w as i32),
        k => k.name().to_string(),
    }
}

fn scr_json(p: &ScrPackage) -> ScrJson {
    ScrJson {
        kind: "scr",
        function_count: p.function_count,
        trailing_bytes: p.trailing.len(),
        handlers: p
            .events
            .iter()
            .map(|e| HandlerJson {
                name: e.display_name(),
                index: e.index,
                nodes: e
                    .records
                    .iter()
                    .map(|r| NodeJson {
                        kind: r.kind().name(),
                        function: r.function(),
                        dest: r.dest(),
                        source: r.source(),
                        relation: r.relation().filter(|_| r.kind() == NodeKind::If).map(|x| x.symbol()),
                        ops: r.ops.clone(),
                        formula: r.formula(),
                        text: node_text(r),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn var_json(v: &Varset) -> Vec<VarJson> {
    v.declarations(StringIndexing::Counted)
        .into_iter()
        .enumerate()
        .map(|(index, (line, d))| match d {
            Some(d) => VarJson {
                index,
                line,
                kind: if d.ty == VarType::Float { "float" } else { "DWORD" },
                name: display_name(&d.name),
                default: display_name(&d.default_raw),
                initial_word: d.initial_word(),
            },
            None => {
                VarJson { index, line, kind: "STRING", name: String::new(), default: String::new(), initial_word: 0 }
            }
        })
        .collect()
}

/// Runs a script command.
pub fn run(cmd: ScriptCommand) -> anyhow::Result<()> {
    let ScriptCommand::Dump { file, json, strict } = cmd;
    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let what = file.display().to_string();
    match ext.as_str() {
        "var" => {
            let v = Varset::parse(&bytes).with_context(|| what.clone())?;
            let rows = var_json(&v);
            if json {
                return print_json(&rows);
            }
            for r in rows {
                println!("{:4} {:6} {} = {}", r.index, r.kind, r.name, r.default);
            }
        }
        "fml" => {
            let f = FmlText::parse(&bytes);
            if json {
                return print_json(&f.display_lines());
            }
            for l in f.display_lines() {
                println!("{l}");
            }
        }
        _ => {
            let p = ScrPackage::parse(&bytes, options(strict)).with_context(|| what.clone())?;
            let out = scr_json(&p);
            if json {
                return print_json(&out);
            }
            println!(
                "{what}: {} functions, {} handlers, {} trailing bytes",
                out.function_count,
                out.handlers.len(),
                out.trailing_bytes
            );
            for h in &out.handlers {
                println!("  handler {:?} (index {}), {} nodes", h.name, h.index, h.nodes.len());
                for (i, n) in h.nodes.iter().enumerate() {
                    println!("    {i:4}  {}", n.text);
                }
            }
        }
    }
    Ok(())
}
