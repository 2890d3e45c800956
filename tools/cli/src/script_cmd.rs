//! `iron3d-cli script dump FILE [--json]`: show a compiled script package (`.scr`), a
//! variable table (`.var`) or a formula export (`.fml`).

use crate::output::{options, print_json};
use anyhow::Context;
use clap::Subcommand;
use iron3d_formats::bytes::display_name;
use iron3d_formats::script::{FmlText, ScrPackage, Selector, StringIndexing, VarType, Varset};
use serde::Serialize;
use std::path::PathBuf;

/// Script commands.
#[derive(Subcommand)]
pub enum ScriptCommand {
    /// Dump a `.scr`, `.var` or `.fml` file.
    Dump {
        /// Script file (kind chosen by extension; anything else is read as `.scr`).
        file: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Strict mode (reject selectors outside the handler table).
        #[arg(long)]
        strict: bool,
    },
}

#[derive(Serialize)]
struct ScrJson {
    kind: &'static str,
    handler_count: u32,
    events: Vec<EventJson>,
    trailing_bytes: usize,
}

#[derive(Serialize)]
struct EventJson {
    name: String,
    event_word: u32,
    records: Vec<RecordJson>,
}

#[derive(Serialize)]
struct RecordJson {
    selector: String,
    words: [u32; 5],
    refs: Vec<u32>,
    w6: u32,
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

fn selector(s: Selector) -> String {
    match s {
        Selector::Handler(n) => format!("handler({n})"),
        Selector::Sentinel => "sentinel".into(),
        Selector::Unknown(n) => format!("unknown({n:#x})"),
    }
}

fn scr_json(p: &ScrPackage) -> ScrJson {
    ScrJson {
        kind: "scr",
        handler_count: p.handler_count,
        trailing_bytes: p.trailing.len(),
        events: p
            .events
            .iter()
            .map(|e| EventJson {
                name: e.display_name(),
                event_word: e.event_word,
                records: e
                    .records
                    .iter()
                    .map(|r| RecordJson {
                        selector: selector(r.selector()),
                        words: r.words,
                        refs: r.refs.clone(),
                        w6: r.w6,
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
                "{what}: {} handlers, {} events, {} trailing bytes",
                out.handler_count,
                out.events.len(),
                out.trailing_bytes
            );
            for e in &out.events {
                println!("  event {:?} (word {}), {} records", e.name, e.event_word, e.records.len());
                for r in &e.records {
                    println!("    {} words {:?} refs {:?} w6 {}", r.selector, r.words, r.refs, r.w6);
                }
            }
        }
    }
    Ok(())
}
