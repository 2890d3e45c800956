//! MSH models (`docs/reference/models.md` §1): an NRes archive whose entries are streams keyed by
//! integer type. Typed streams are decoded into raw-word records; optional streams
//! (9, 15, 16, 17, 18, 20 and any other type) are kept as raw bytes. An opened model
//! saves back byte for byte through the NRes document model.

mod builder;
pub mod hall_way;
mod records;
mod validate;

pub use builder::{MeshBatch, MeshData, ModelBuilder, NodeAnimation};
pub use records::{
    AnimKey, Batch, LIGHTMAP_FLAG, MaterialField, ModelHeader, NONE, Node, Slot, TriDescriptor, decode_normal,
    decode_uv, encode_normal, encode_uv,
};

use crate::bytes::Cursor;
use crate::error::{Error, Result, ResultExt};
use crate::model::Put;
use crate::nres::{DirEntry, Nres, NresDocument, NresWriter};
use crate::options::ReadOptions;

/// Stream type ids (`docs/reference/models.md` §1.2).
pub mod stream {
    /// Node table.
    pub const NODES: u32 = 1;
    /// Model header + slots.
    pub const SLOTS: u32 = 2;
    /// Positions.
    pub const POSITIONS: u32 = 3;
    /// Packed normals.
    pub const NORMALS: u32 = 4;
    /// Packed UV0.
    pub const UVS: u32 = 5;
    /// Index buffer.
    pub const INDICES: u32 = 6;
    /// Triangle descriptors.
    pub const TRIANGLES: u32 = 7;
    /// Animation keys.
    pub const KEYS: u32 = 8;
    /// Node strings: one label a node, which on the original's parts names what a
    /// socket takes (`e_tur_lt`, `central_lc`; openparkan `docs/38-designs.md`,
    /// measured), empty on most nodes.
    pub const NAMES: u32 = 10;
    /// Batch table.
    pub const BATCHES: u32 = 13;
    /// Optional, stride 8: candidate lightmap coordinates (`docs/reference/models.md` §1.11, opaque; kept raw).
    pub const LIGHTMAP_UVS: u32 = 15;
    /// A building's hall way (`hall_way`).
    pub const HALL_WAY: u32 = 17;
    /// Animation frame map.
    pub const FRAME_MAP: u32 = 19;
    /// Streams every static draw needs.
    pub const REQUIRED: [u32; 5] = [NODES, SLOTS, POSITIONS, INDICES, BATCHES];
}

/// One stream entry of the container: its directory row (name, attributes, order) and,
/// for a stream without a typed decoding, its raw payload.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamEntry {
    /// Directory row as read (size/offset/sort words are derived on save).
    pub row: DirEntry,
    /// Raw payload of an opaque/optional stream; `None` for a typed stream.
    pub raw: Option<Vec<u8>>,
}

/// A decoded MSH model.
#[derive(Debug, Clone)]
pub struct Msh {
    /// Streams in directory order.
    pub streams: Vec<StreamEntry>,
    /// Type 1 nodes.
    pub nodes: Vec<Node>,
    /// Node stride in bytes (38 or the rare 24).
    pub node_stride: usize,
    /// Type 2 header.
    pub header: ModelHeader,
    /// Type 2 slots.
    pub slots: Vec<Slot>,
    /// Type 3 positions.
    pub positions: Vec<[f32; 3]>,
    /// Type 4 packed normals (`i8 x, y, z` + preserved 4th byte).
    pub normals: Option<Vec<[u8; 4]>>,
    /// Type 5 packed UV0.
    pub uvs: Option<Vec<[i16; 2]>>,
    /// Type 6 indices.
    pub indices: Vec<u16>,
    /// Type 7 triangle descriptors.
    pub triangles: Option<Vec<TriDescriptor>>,
    /// Type 13 batches.
    pub batches: Vec<Batch>,
    /// Type 8 animation keys.
    pub keys: Option<Vec<AnimKey>>,
    /// Type 19 frame map.
    pub frame_map: Option<Vec<u16>>,
    /// Type 10 node names (`None` = record with length 0).
    pub names: Option<Vec<Option<Vec<u8>>>>,
    document: Option<NresDocument>,
}

fn exact_count(c: &Cursor<'_>, stride: usize, what: &'static str) -> Result<usize> {
    if !c.remaining().is_multiple_of(stride) {
        return Err(Error::invalid(
            c.offset(),
            "msh_stride",
            format!("{what}: {} bytes is not a multiple of the {stride}-byte stride", c.remaining()),
        ));
    }
    Ok(c.remaining() / stride)
}

fn records<T>(
    c: &mut Cursor<'_>,
    stride: usize,
    what: &'static str,
    f: impl Fn(&mut Cursor<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let n = exact_count(c, stride, what)?;
    (0..n).map(|_| f(c)).collect()
}

fn parse_names(c: &mut Cursor<'_>) -> Result<Vec<Option<Vec<u8>>>> {
    let mut out = Vec::new();
    while !c.is_empty() {
        let at = c.offset();
        let len = c.u32()? as usize;
        if len == 0 {
            out.push(None);
            continue;
        }
        c.check_count(len as u64, 1, "node name")?;
        let text = c.take(len)?.to_vec();
        if c.u8()? != 0 {
            return Err(Error::invalid(at, "msh_name_terminator", "node name is not followed by a NUL byte"));
        }
        out.push(Some(text));
    }
    Ok(out)
}

fn set_once<T>(slot: &mut Option<T>, value: T, row: &DirEntry) -> Result<()> {
    if slot.is_some() {
        return Err(Error::invalid(
            u64::from(row.data_offset),
            "msh_duplicate_stream",
            format!("stream type {} appears twice", row.type_id),
        ));
    }
    *slot = Some(value);
    Ok(())
}

#[derive(Default)]
struct Parts {
    nodes: Option<(Vec<Node>, usize)>,
    slots: Option<(ModelHeader, Vec<Slot>)>,
    positions: Option<Vec<[f32; 3]>>,
    normals: Option<Vec<[u8; 4]>>,
    uvs: Option<Vec<[i16; 2]>>,
    indices: Option<Vec<u16>>,
    triangles: Option<Vec<TriDescriptor>>,
    batches: Option<Vec<Batch>>,
    keys: Option<Vec<AnimKey>>,
    frame_map: Option<Vec<u16>>,
    names: Option<Vec<Option<Vec<u8>>>>,
}

impl Parts {
    /// Decodes one stream; returns false when the type has no typed decoding.
    fn decode(&mut self, row: &DirEntry, payload: &[u8], options: ReadOptions) -> Result<bool> {
        let mut c = Cursor::with_base(payload, u64::from(row.data_offset));
        let c = &mut c;
        let mut counted = None;
        match row.type_id {
            stream::NODES => {
                let stride = match row.attr3 as usize {
                    Node::STRIDE_SHORT => Node::STRIDE_SHORT,
                    Node::STRIDE => Node::STRIDE,
                    s if !options.strict && s == 0 => Node::STRIDE,
                    s => {
                        return Err(Error::invalid(c.offset(), "msh_node_stride", format!("node stride (attr3) {s}")));
                    }
                };
                let nodes = records(c, stride, "nodes", |c| Node::parse(c, stride))?;
                set_once(&mut self.nodes, (nodes, stride), row)?;
            }
            stream::SLOTS => {
                let header = ModelHeader::parse(c)?;
                let slots = records(c, Slot::SIZE, "slots", Slot::parse)?;
                counted = Some(slots.len());
                set_once(&mut self.slots, (header, slots), row)?;
            }
            stream::POSITIONS => {
                let v = records(c, 12, "positions", |c| c.vec3())?;
                set_once(&mut self.positions, v, row)?;
            }
            stream::NORMALS => set_once(&mut self.normals, records(c, 4, "normals", |c| c.array())?, row)?,
            stream::UVS => set_once(&mut self.uvs, records(c, 4, "uvs", |c| Ok([c.i16()?, c.i16()?]))?, row)?,
            stream::INDICES => set_once(&mut self.indices, records(c, 2, "indices", |c| c.u16())?, row)?,
            stream::TRIANGLES => {
                let v = records(c, TriDescriptor::SIZE, "triangle descriptors", TriDescriptor::parse)?;
                counted = Some(v.len());
                set_once(&mut self.triangles, v, row)?;
            }
            stream::BATCHES => set_once(&mut self.batches, records(c, Batch::SIZE, "batches", Batch::parse)?, row)?,
            stream::KEYS => {
                let v = records(c, AnimKey::SIZE, "animation keys", AnimKey::parse)?;
                counted = Some(v.len());
                set_once(&mut self.keys, v, row)?;
            }
            stream::FRAME_MAP => {
                let v = records(c, 2, "frame map", |c| c.u16())?;
                counted = Some(v.len());
                set_once(&mut self.frame_map, v, row)?;
            }
            stream::NAMES => set_once(&mut self.names, parse_names(c)?, row)?,
            _ => return Ok(false),
        }
        if let Some(n) = counted.filter(|&n| options.strict && n as u64 != u64::from(row.attr1)) {
            return Err(Error::invalid(
                u64::from(row.data_offset),
                "msh_attr1_count",
                format!("stream type {}: attr1 {} but {n} records", row.type_id, row.attr1),
            ));
        }
        Ok(true)
    }
}

fn missing(type_id: u32) -> Error {
    Error::invalid(0, "msh_missing_stream", format!("required stream type {type_id} is missing"))
}

impl Msh {
    /// Its hall way (stream 17, a building's inside), `None` when it has none.
    pub fn hall_way(&self) -> Option<Result<hall_way::HallWay>> {
        let stream = self.streams.iter().find(|s| s.row.type_id == stream::HALL_WAY)?;
        let raw = stream.raw.as_deref().unwrap_or_default();
        Some(hall_way::HallWay::parse(raw, stream.row.attr1, stream.row.attr2))
    }

    /// Parses and validates a model from the bytes of its NRes container.
    pub fn parse(bytes: &[u8], options: ReadOptions) -> Result<Self> {
        let archive = Nres::parse(bytes, options)?;
        let mut parts = Parts::default();
        let mut streams = Vec::with_capacity(archive.len());
        for (i, row) in archive.entries().iter().enumerate() {
            let payload = archive.payload(i).unwrap_or_default();
            let typed = parts
                .decode(row, payload, options)
                .in_entry(row.display_name())
                .via(format!("msh stream type {}", row.type_id))?;
            streams.push(StreamEntry { row: *row, raw: (!typed).then(|| payload.to_vec()) });
        }
        let (nodes, node_stride) = parts.nodes.ok_or_else(|| missing(stream::NODES))?;
        let (header, slots) = parts.slots.ok_or_else(|| missing(stream::SLOTS))?;
        let model = Self {
            streams,
            nodes,
            node_stride,
            header,
            slots,
            positions: parts.positions.ok_or_else(|| missing(stream::POSITIONS))?,
            normals: parts.normals,
            uvs: parts.uvs,
            indices: parts.indices.ok_or_else(|| missing(stream::INDICES))?,
            triangles: parts.triangles,
            batches: parts.batches.ok_or_else(|| missing(stream::BATCHES))?,
            keys: parts.keys,
            frame_map: parts.frame_map,
            names: parts.names,
            document: Some(NresDocument::from_archive(&archive)),
        };
        model.validate(options)?;
        Ok(model)
    }

    /// Node `i`'s name from type 10 (raw CP1251 bytes): its label (see [`stream::NAMES`]).
    pub fn node_name(&self, i: usize) -> Option<&[u8]> {
        self.names.as_ref()?.get(i)?.as_deref()
    }

    /// Lightmap coordinates of vertex `v` under the project's reading of stream 15 (two
    /// little-endian `f32`, u then v, per vertex; `docs/reference/models.md` §1.11 names it only a candidate
    /// second UV set). `None` without a stream 15 of exactly 8 bytes per vertex.
    pub fn lightmap_uv(&self, v: usize) -> Option<[f32; 2]> {
        let entry = self.streams.iter().find(|s| s.row.type_id == stream::LIGHTMAP_UVS)?;
        let raw = entry.raw.as_deref().filter(|r| r.len() == self.positions.len() * 8)?;
        let at = v.checked_mul(8)?;
        let word = |k: usize| raw.get(at + k..at + k + 4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        Some([word(0)?, word(4)?])
    }

    /// Animation frame count (type-19 `attr2`), 0 without a frame map stream.
    pub fn frame_count(&self) -> u32 {
        self.stream_row(stream::FRAME_MAP).map_or(0, |r| r.attr2)
    }

    /// The directory row of the first stream of `type_id`.
    pub fn stream_row(&self, type_id: u32) -> Option<&DirEntry> {
        self.streams.iter().map(|s| &s.row).find(|r| r.type_id == type_id)
    }

    /// Encodes the payload of stream `entry` from the typed fields.
    pub fn encode_stream(&self, entry: &StreamEntry) -> Vec<u8> {
        if let Some(raw) = &entry.raw {
            return raw.clone();
        }
        let mut out = Vec::new();
        match entry.row.type_id {
            stream::NODES => self.nodes.iter().for_each(|n| n.write(&mut out)),
            stream::SLOTS => {
                self.header.write(&mut out);
                self.slots.iter().for_each(|s| s.write(&mut out));
            }
            stream::POSITIONS => self.positions.iter().flatten().for_each(|&f| out.put_f32(f)),
            stream::NORMALS => self.normals.iter().flatten().for_each(|n| out.extend_from_slice(n)),
            stream::UVS => self.uvs.iter().flatten().flatten().for_each(|&v| out.put_u16(v as u16)),
            stream::INDICES => self.indices.iter().for_each(|&i| out.put_u16(i)),
            stream::TRIANGLES => self.triangles.iter().flatten().for_each(|t| t.write(&mut out)),
            stream::BATCHES => self.batches.iter().for_each(|b| b.write(&mut out)),
            stream::KEYS => self.keys.iter().flatten().for_each(|k| k.write(&mut out)),
            stream::FRAME_MAP => self.frame_map.iter().flatten().for_each(|&m| out.put_u16(m)),
            stream::NAMES => {
                for name in self.names.iter().flatten() {
                    match name {
                        None => out.put_u32(0),
                        Some(text) => {
                            out.put_u32(text.len() as u32);
                            out.extend_from_slice(text);
                            out.push(0);
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// Lossless save: an opened model reproduces its input byte for byte; edited
    /// streams are re-encoded and only derived container fields change. A built model
    /// is written as a canonical NRes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        match &self.document {
            Some(doc) if doc.entries().len() == self.streams.len() => {
                let mut doc = doc.clone();
                for (i, s) in self.streams.iter().enumerate() {
                    let payload = self.encode_stream(s);
                    let old = &doc.entries()[i];
                    if old.row.name_raw != s.row.name_raw || old.row.type_id != s.row.type_id {
                        return Err(Error::invalid(
                            0,
                            "msh_stream_identity",
                            "stream rows were replaced; use a new model",
                        ));
                    }
                    if old.payload != payload {
                        doc.set_payload(i, payload)?;
                    }
                    doc.set_attributes(i, s.row.attr1, s.row.attr2, s.row.attr3)?;
                }
                doc.save()
            }
            _ => {
                let mut w = NresWriter::new();
                for s in &self.streams {
                    let r = &s.row;
                    w.add(r.type_id, [r.attr1, r.attr2, r.attr3], r.name(), self.encode_stream(s))?;
                }
                w.to_bytes()
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
