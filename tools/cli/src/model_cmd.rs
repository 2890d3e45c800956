//! `iron3d-cli model info|export` and `iron3d-cli texture export`: inspect MSH models,
//! export them to glTF 2.0 binary or OBJ, and export Texm mip levels to PNG.

mod gltf;

use crate::output::{entry_address, options, print_json, usage};
use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use iron3d_formats::bytes::display_name;
use iron3d_formats::model::mesh_build::{MeshOptions, Pose, QuaternionSense, build_mesh};
use iron3d_formats::model::msh::{MaterialField, Msh};
use iron3d_formats::model::texm::{DecodeOptions, Texm};
use iron3d_vfs::{Address, Archive};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Model commands.
#[derive(Subcommand)]
pub enum ModelCommand {
    /// Streams, nodes, slots, batches and animation of a model.
    Info {
        /// A `.msh` file, or `ARCHIVE::ENTRY` (e.g. `bases.rlb::r_h_01.msh`).
        source: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Strict mode.
        #[arg(long)]
        strict: bool,
    },
    /// Export a model to `.glb` (glTF 2.0 binary) or `.obj` (chosen by the extension).
    Export {
        /// A `.msh` file, or `ARCHIVE::ENTRY`.
        source: String,
        /// Output file (`.glb` or `.obj`).
        #[arg(short, long)]
        output: PathBuf,
        /// Slot matrix row (LOD in reading A).
        #[arg(long, default_value_t = 0)]
        lod: usize,
        /// Slot matrix column (group in reading A).
        #[arg(long, default_value_t = 0)]
        group: usize,
        /// Animation time in frames (default: the rest pose).
        #[arg(long)]
        frame: Option<f32>,
        /// Export the geometry without node transforms.
        #[arg(long)]
        unposed: bool,
        /// Batch field naming the WEAR row (disputed).
        #[arg(long, value_enum, default_value_t = Field::Lo)]
        material_field: Field,
        /// Quaternion sense (disputed).
        #[arg(long, value_enum, default_value_t = Sense::Conjugate)]
        quaternion: Sense,
        /// Strict mode.
        #[arg(long)]
        strict: bool,
        /// Print a JSON summary.
        #[arg(long)]
        json: bool,
    },
}

/// Texture commands.
#[derive(Subcommand)]
pub enum TextureCommand {
    /// Decode a Texm entry of an archive to PNG.
    Export {
        /// `ARCHIVE::ENTRY`, e.g. `Textures.lib::GRASS01` (entry names are case-insensitive).
        source: String,
        /// Deprecated: the entry as a second argument (`ARCHIVE ENTRY`).
        #[arg(hide = true)]
        entry: Option<String>,
        /// Output PNG (with `--all-mips`: `NAME_mipN.png` next to it).
        #[arg(short, long)]
        output: PathBuf,
        /// Mip level to export (default: the loader's mip-skip base level).
        #[arg(long, conflicts_with = "all_mips")]
        mip: Option<usize>,
        /// Export every mip level.
        #[arg(long)]
        all_mips: bool,
        /// Print a JSON summary.
        #[arg(long)]
        json: bool,
    },
}

/// `--material-field`.
#[derive(Clone, Copy, ValueEnum)]
pub enum Field {
    /// Byte `+0x04` (recommended).
    Lo,
    /// Word `+0x02`.
    Hi,
}

/// `--quaternion`.
#[derive(Clone, Copy, ValueEnum)]
pub enum Sense {
    /// Conjugate of the stored quaternion (recommended).
    Conjugate,
    /// The stored quaternion.
    Direct,
}

fn load_source(source: &str, strict: bool) -> anyhow::Result<(String, Vec<u8>)> {
    let address = Address::parse(source);
    match address.entry {
        Some(entry) => {
            let a = Archive::open(Path::new(&address.file), &address.file, options(strict))?;
            let bytes = a.read(&entry)?.into_owned();
            Ok((entry, bytes))
        }
        None => Ok((source.to_string(), std::fs::read(source).with_context(|| format!("reading {source}"))?)),
    }
}

#[derive(Serialize)]
struct StreamInfo {
    type_id: u32,
    name: String,
    attrs: [u32; 3],
    typed: bool,
}

#[derive(Serialize)]
struct NodeInfo {
    index: usize,
    name: String,
    parent: Option<u16>,
    flags: u16,
    slots: Vec<Option<u16>>,
}

#[derive(Serialize)]
struct ModelInfo {
    name: String,
    streams: Vec<StreamInfo>,
    nodes: Vec<NodeInfo>,
    slots: usize,
    vertices: usize,
    indices: usize,
    batches: usize,
    triangles: usize,
    keys: usize,
    frames: u32,
    materials: Vec<u16>,
    bounds_min: [f32; 3],
    bounds_max: [f32; 3],
}

fn info(name: String, m: &Msh) -> ModelInfo {
    let mut materials: Vec<u16> = m.batches.iter().map(|b| b.material(MaterialField::Lo)).collect();
    materials.sort_unstable();
    materials.dedup();
    let corners = m.header.corners();
    ModelInfo {
        name,
        streams: m
            .streams
            .iter()
            .map(|s| StreamInfo {
                type_id: s.row.type_id,
                name: s.row.display_name(),
                attrs: [s.row.attr1, s.row.attr2, s.row.attr3],
                typed: s.raw.is_none(),
            })
            .collect(),
        nodes: m
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| NodeInfo {
                index: i,
                name: m.node_name(i).map(display_name).unwrap_or_default(),
                parent: n.parent(),
                flags: n.flags,
                slots: n.slots.iter().map(|&s| (s != 0xFFFF).then_some(s)).collect(),
            })
            .collect(),
        slots: m.slots.len(),
        vertices: m.positions.len(),
        indices: m.indices.len(),
        batches: m.batches.len(),
        triangles: m.triangles.as_ref().map_or(0, Vec::len),
        keys: m.keys.as_ref().map_or(0, Vec::len),
        frames: m.frame_count(),
        materials,
        bounds_min: corners[0],
        bounds_max: corners[6],
    }
}

/// Runs a model command.
pub fn run(cmd: ModelCommand) -> anyhow::Result<()> {
    match cmd {
        ModelCommand::Info { source, json, strict } => {
            let (name, bytes) = load_source(&source, strict)?;
            let m = Msh::parse(&bytes, options(strict)).with_context(|| format!("parsing {name}"))?;
            let i = info(name, &m);
            if json {
                return print_json(&i);
            }
            println!(
                "{}: {} nodes, {} slots, {} vertices, {} batches, {} keys, {} frames",
                i.name,
                i.nodes.len(),
                i.slots,
                i.vertices,
                i.batches,
                i.keys,
                i.frames
            );
            for s in &i.streams {
                println!(
                    "  stream {:>2} {:<12} attrs {:?}{}",
                    s.type_id,
                    s.name,
                    s.attrs,
                    if s.typed { "" } else { " (raw)" }
                );
            }
            for n in &i.nodes {
                println!("  node {:>2} {:<16} parent {:?} flags {:#06x}", n.index, n.name, n.parent, n.flags);
            }
            Ok(())
        }
        ModelCommand::Export {
            source,
            output,
            lod,
            group,
            frame,
            unposed,
            material_field,
            quaternion,
            strict,
            json,
        } => {
            let ext = output.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
            if !matches!(ext.as_str(), "glb" | "obj") {
                return usage(format!("unknown export format `{ext}` (use .glb or .obj)"));
            }
            let (name, bytes) = load_source(&source, strict)?;
            let m = Msh::parse(&bytes, options(strict)).with_context(|| format!("parsing {name}"))?;
            let pose = match (unposed, frame) {
                (true, _) => Pose::Unposed,
                (false, Some(t)) => Pose::Frame(t),
                (false, None) => Pose::Rest,
            };
            let opts = MeshOptions {
                material_field: match material_field {
                    Field::Lo => MaterialField::Lo,
                    Field::Hi => MaterialField::Hi,
                },
                quaternion: match quaternion {
                    Sense::Conjugate => QuaternionSense::Conjugate,
                    Sense::Direct => QuaternionSense::Direct,
                },
                slot_fallback: false,
                lightmap_uv: false,
            };
            let built = build_mesh(&m, lod, group, pose, opts)?;
            let data = if ext == "glb" {
                gltf::write_glb(&built, &name)?
            } else {
                gltf::write_obj(&built, &name).into_bytes()
            };
            std::fs::write(&output, data).with_context(|| format!("writing {}", output.display()))?;
            let summary = ExportInfo {
                name,
                output: output.display().to_string(),
                triangles: built.triangle_count(),
                parts: built.parts.len(),
            };
            if json {
                return print_json(&summary);
            }
            eprintln!(
                "{}: {} triangles in {} parts -> {}",
                summary.name, summary.triangles, summary.parts, summary.output
            );
            Ok(())
        }
    }
}

fn write_png(path: &Path, w: u32, h: u32, rgba: &[u8]) -> anyhow::Result<()> {
    let file = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(())
}

#[derive(Serialize)]
struct ExportInfo {
    name: String,
    output: String,
    triangles: usize,
    parts: usize,
}

#[derive(Serialize)]
struct TextureInfo {
    entry: String,
    width: u32,
    height: u32,
    format: u32,
    mips: u32,
    mip_skip: u32,
    page_rects: usize,
    written: Vec<String>,
}

/// Runs a texture command.
pub fn run_texture(cmd: TextureCommand) -> anyhow::Result<()> {
    let TextureCommand::Export { source, entry, output, mip, all_mips, json } = cmd;
    if entry.is_some() {
        eprintln!("warning: `texture export ARCHIVE ENTRY` is deprecated; write ARCHIVE::ENTRY");
    }
    let (file, entry) = entry_address(&source, entry)?;
    let archive = Archive::open(Path::new(&file), &file, options(false))?;
    let bytes = archive.read(&entry)?;
    let t = Texm::parse(&bytes).with_context(|| format!("parsing {entry}"))?;
    let levels: Vec<usize> =
        if all_mips { (0..t.mips.len()).collect() } else { vec![mip.unwrap_or(t.mip_skip() as usize)] };
    let mut written = Vec::new();
    for level in levels {
        let rgba = t.decode_level(level, DecodeOptions::default())?;
        let (w, h) = t.level_dims(level as u32);
        let path = if all_mips {
            let stem = output.file_stem().and_then(|s| s.to_str()).unwrap_or("texture");
            output.with_file_name(format!("{stem}_mip{level}.png"))
        } else {
            output.clone()
        };
        write_png(&path, w, h, &rgba)?;
        written.push(path.display().to_string());
    }
    let h = &t.header;
    let info = TextureInfo {
        entry,
        width: h.width,
        height: h.height,
        format: h.format,
        mips: h.mip_count,
        mip_skip: t.mip_skip(),
        page_rects: t.page.as_ref().map_or(0, Vec::len),
        written,
    };
    if json {
        print_json(&info)?;
    }
    Ok(())
}
