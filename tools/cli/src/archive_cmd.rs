//! `iron3d-cli archive ...`: list, extract, verify, round-trip and pack archives.

use crate::output::{ensure_identical, entry_address, options, print_json, progress, usage};
use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use iron3d_formats::nres::{Nres, NresDocument, NresWriter};
use iron3d_formats::rsli::{Method, NewEntry, Rsli, RsliDocument, RsliWriter};
use iron3d_formats::{ReadOptions, ResultExt};
use iron3d_vfs::{Address, Archive, ArchiveKind};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Archive commands.
#[derive(Subcommand)]
pub enum ArchiveCommand {
    /// List entries: name, type/flags, sizes, method, offset, sort position.
    List {
        /// Archive file.
        file: PathBuf,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Extract one entry (decoded) to `-o OUT`, or every entry with `--all DIR`
    /// (plus a `manifest.json` that `archive pack` reads).
    Extract(ExtractArgs),
    /// Check an archive; exit 0 only when it is valid in the chosen mode.
    Verify {
        /// Archive file.
        file: PathBuf,
        /// Strict mode: reject every compatibility quirk.
        #[arg(long)]
        strict: bool,
        /// Print the result of a valid archive as JSON (failures go to standard error).
        #[arg(long)]
        json: bool,
    },
    /// Rewrite an archive through the lossless document model; fails when the output
    /// is not byte-identical to the input.
    #[command(after_help = "Exit status: 0 when the output is byte-identical to the input; 1 when the \
        input cannot be read or parsed, the output cannot be written, or the output differs from the \
        input (it is still written, for inspection, and the first differing byte is named); 2 on a \
        usage error.")]
    Roundtrip {
        /// Archive file.
        file: PathBuf,
        /// Output file (byte-identical for an untouched archive).
        #[arg(short, long)]
        output: PathBuf,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Build an archive from a directory holding `manifest.json` and the entry files.
    Pack {
        /// Directory written by `archive extract --all` (or by hand).
        dir: PathBuf,
        /// Output archive.
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// Arguments of `archive extract`.
#[derive(Args)]
pub struct ExtractArgs {
    /// `ARCHIVE::ENTRY` (entry names are case-insensitive), or the archive alone with `--all`.
    source: String,
    /// The entry as a second argument (older form of `ARCHIVE::ENTRY`).
    entry: Option<String>,
    /// Output file for one entry.
    #[arg(short, long, required_unless_present = "all")]
    output: Option<PathBuf>,
    /// Extract every entry into this directory.
    #[arg(long, conflicts_with_all = ["entry", "output"])]
    all: Option<PathBuf>,
}

#[derive(Serialize)]
struct Row {
    index: usize,
    name: String,
    type_or_flags: String,
    packed_size: u64,
    size: u64,
    method: String,
    offset: u64,
    sort_position: Option<usize>,
}

/// The manifest of an extracted archive.
#[derive(Serialize, Deserialize)]
struct Manifest {
    format: String,
    #[serde(default)]
    seed: u16,
    entries: Vec<ManifestEntry>,
}

#[derive(Serialize, Deserialize)]
struct ManifestEntry {
    name: String,
    file: String,
    #[serde(default)]
    type_id: u32,
    #[serde(default)]
    attrs: [u32; 3],
    #[serde(default)]
    method: Option<String>,
}

/// Runs an archive command.
pub fn run(cmd: ArchiveCommand) -> anyhow::Result<()> {
    match cmd {
        ArchiveCommand::List { file, json } => list(&file, json),
        ArchiveCommand::Extract(args) => extract(args),
        ArchiveCommand::Verify { file, strict, json } => verify(&file, strict, json),
        ArchiveCommand::Roundtrip { file, output, json } => roundtrip(&file, &output, json),
        ArchiveCommand::Pack { dir, output } => pack(&dir, &output),
    }
}

fn open(file: &Path, options: ReadOptions) -> anyhow::Result<Archive> {
    Ok(Archive::open(file, &file.display().to_string(), options)?)
}

fn type_label(kind: &ArchiveKind, word: u32) -> String {
    match kind {
        ArchiveKind::Rsli(_) => format!("{word:#06x}"),
        ArchiveKind::Nres(_) => {
            let b = word.to_le_bytes();
            if b.iter().all(|c| c.is_ascii_alphanumeric()) {
                String::from_utf8_lossy(&b).into_owned()
            } else {
                word.to_string()
            }
        }
    }
}

fn list(file: &Path, json: bool) -> anyhow::Result<()> {
    let archive = open(file, ReadOptions::compatible())?;
    let rows: Vec<Row> = archive
        .list()
        .into_iter()
        .enumerate()
        .map(|(index, e)| Row {
            index,
            name: e.name,
            type_or_flags: type_label(archive.kind(), e.type_or_flags),
            packed_size: e.packed_size,
            size: e.size,
            method: e.method,
            offset: e.offset,
            sort_position: e.sort_position,
        })
        .collect();
    if json {
        return print_json(&rows);
    }
    println!(
        "{:>5} {:<36} {:>8} {:>10} {:>10} {:<10} {:>10} {:>5}",
        "#", "name", "type", "packed", "size", "method", "offset", "sort"
    );
    for r in rows {
        let sort = r.sort_position.map_or("-".to_string(), |p| p.to_string());
        println!(
            "{:>5} {:<36} {:>8} {:>10} {:>10} {:<10} {:>10} {:>5}",
            r.index, r.name, r.type_or_flags, r.packed_size, r.size, r.method, r.offset, sort
        );
    }
    Ok(())
}

/// A file name for an entry: unsafe characters replaced, prefixed with its index.
fn entry_file_name(index: usize, name: &str) -> String {
    let clean: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect();
    format!("{index:05}_{clean}")
}

fn extract(args: ExtractArgs) -> anyhow::Result<()> {
    let Some(dir) = args.all else {
        let (file, entry) = entry_address(&args.source, args.entry)?;
        let Some(output) = args.output else { return usage("give -o OUT for one entry") };
        let archive = open(Path::new(&file), ReadOptions::compatible())?;
        return std::fs::write(&output, archive.read(&entry)?).with_context(|| format!("writing {}", output.display()));
    };
    if Address::parse(&args.source).entry.is_some() {
        return usage(format!("--all extracts a whole archive: give ARCHIVE, not {}", args.source));
    }
    let archive = open(Path::new(&args.source), ReadOptions::compatible())?;
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let bar = progress(archive.len() as u64, "extracting");
    let mut manifest = Manifest { format: String::new(), seed: 0, entries: Vec::new() };
    match archive.kind() {
        ArchiveKind::Nres(index) => {
            manifest.format = "nres".into();
            for (i, e) in index.entries().iter().enumerate() {
                let file = entry_file_name(i, &e.display_name());
                std::fs::write(dir.join(&file), archive.read_index(i)?)?;
                manifest.entries.push(ManifestEntry {
                    name: e.display_name(),
                    file,
                    type_id: e.type_id,
                    attrs: [e.attr1, e.attr2, e.attr3],
                    method: None,
                });
                bar.inc(1);
            }
        }
        ArchiveKind::Rsli(index) => {
            manifest.format = "rsli".into();
            let h = index.header();
            manifest.seed = u16::from_le_bytes([h[0x14], h[0x15]]);
            for (i, e) in index.entries().iter().enumerate() {
                let file = entry_file_name(i, &e.display_name());
                std::fs::write(dir.join(&file), archive.read_index(i)?)?;
                let method = e.method().map(|m| m.name().to_string());
                manifest.entries.push(ManifestEntry {
                    name: e.display_name(),
                    file,
                    type_id: 0,
                    attrs: [0; 3],
                    method,
                });
                bar.inc(1);
            }
        }
    }
    bar.finish_and_clear();
    std::fs::write(dir.join("manifest.json"), serde_json::to_vec_pretty(&manifest)?)?;
    Ok(())
}

#[derive(Serialize)]
struct Verified {
    file: String,
    mode: &'static str,
    entries: usize,
}

fn verify(file: &Path, strict: bool, json: bool) -> anyhow::Result<()> {
    let archive = open(file, options(strict))?;
    for i in 0..archive.len() {
        archive.read_index(i)?;
    }
    let v = Verified {
        file: file.display().to_string(),
        mode: if strict { "strict" } else { "compatible" },
        entries: archive.len(),
    };
    if json {
        return print_json(&v);
    }
    println!("{}: valid ({} mode, {} entries)", v.file, v.mode, v.entries);
    Ok(())
}

#[derive(Serialize)]
struct RoundTrip {
    file: String,
    output: String,
    bytes: usize,
    identical: bool,
}

/// An archive's bytes read (compatible mode) and saved again through the lossless
/// document model of its kind (NRes by its magic, else RsLi); `name` is the file errors
/// name. An untouched archive saves byte-identical.
pub fn lossless_save(bytes: &[u8], name: &str) -> anyhow::Result<Vec<u8>> {
    Ok(if bytes.starts_with(b"NRes") {
        let nres = Nres::parse(bytes, ReadOptions::compatible()).in_file(name)?;
        NresDocument::from_archive(&nres).save().in_file(name)?
    } else {
        let lib = Rsli::parse(bytes, ReadOptions::compatible()).in_file(name)?;
        RsliDocument::from_library(&lib).and_then(|d| d.save()).in_file(name)?
    })
}

fn roundtrip(file: &Path, output: &Path, json: bool) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let saved = lossless_save(&bytes, &file.display().to_string())?;
    std::fs::write(output, &saved).with_context(|| format!("writing {}", output.display()))?;
    let r = RoundTrip {
        file: file.display().to_string(),
        output: output.display().to_string(),
        bytes: saved.len(),
        identical: saved == bytes,
    };
    if json {
        print_json(&r)?;
    }
    ensure_identical(&saved, &bytes, &format!("{} -> {}: the lossless save", file.display(), output.display()))?;
    if !json {
        println!("{} -> {}: {} bytes, byte-identical", r.file, r.output, r.bytes);
    }
    Ok(())
}

fn pack(dir: &Path, output: &Path) -> anyhow::Result<()> {
    let manifest_path = dir.join("manifest.json");
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(&manifest_path).with_context(|| format!("reading {}", manifest_path.display()))?,
    )
    .with_context(|| format!("parsing {}", manifest_path.display()))?;
    let read = |e: &ManifestEntry| std::fs::read(dir.join(&e.file)).with_context(|| format!("reading {}", e.file));
    let bytes = match manifest.format.as_str() {
        "nres" => {
            let mut w = NresWriter::new();
            for e in &manifest.entries {
                w.add(e.type_id, e.attrs, e.name.as_bytes(), read(e)?)?;
            }
            w.to_bytes()?
        }
        "rsli" => {
            let mut w = RsliWriter::new(manifest.seed);
            for e in &manifest.entries {
                let name = e.method.as_deref().unwrap_or("stored");
                let method = Method::ALL
                    .into_iter()
                    .find(|m| m.name() == name)
                    .with_context(|| format!("entry {}: unknown method {name}", e.name))?;
                w.add(NewEntry { name: e.name.clone().into_bytes(), method, data: read(e)? });
            }
            w.to_bytes()?
        }
        other => bail!("manifest format must be \"nres\" or \"rsli\", not {other:?}"),
    };
    std::fs::write(output, bytes).with_context(|| format!("writing {}", output.display()))?;
    Ok(())
}
