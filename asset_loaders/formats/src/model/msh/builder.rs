//! Authoring new MSH models: nodes with a hierarchy, geometry per slot cell (LOD /
//! group), several materials per mesh and animation tracks. Derived data (slots,
//! bounds, batches, triangle descriptors, frame map, header) is computed; fields
//! without generation rules (`docs/reference/models.md` §1.13) get documented neutral values.

use super::{
    AnimKey, Batch, ModelHeader, Msh, NONE, Node, Slot, StreamEntry, TriDescriptor, encode_normal, encode_uv, stream,
};
use crate::error::{Error, Result};
use crate::model::bounds;
use crate::model::mesh_build::{Pose, QuaternionSense, Transform, face_normal, node_transforms};
use crate::nres::DirEntry;

/// One batch of a mesh: a triangle list with one material.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshBatch {
    /// WEAR row (written to both disputed material fields so both readings agree).
    pub material: u8,
    /// Lightmap row (batch byte `+0x05`).
    pub lightmap: u8,
    /// Batch flags (e.g. `0x0002` two-sided).
    pub flags: u16,
    /// Triangle list indices into the mesh's vertices.
    pub indices: Vec<u16>,
}

/// Node-local geometry for one slot cell.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshData {
    /// Positions.
    pub positions: Vec<[f32; 3]>,
    /// Normals (one per position).
    pub normals: Vec<[f32; 3]>,
    /// UV0 (one per position).
    pub uvs: Vec<[f32; 2]>,
    /// Lightmap coordinates (one per position, or empty for zeros), written to stream 15
    /// as two `f32` per vertex (the reading of [`Msh::lightmap_uv`]).
    pub lightmap_uvs: Vec<[f32; 2]>,
    /// Batches.
    pub batches: Vec<MeshBatch>,
}

/// Animation of one node: the rest (fallback) key and an optional track of keys at
/// whole, strictly increasing frame times starting at 0.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeAnimation {
    /// Fallback key (rest pose); its time is not used.
    pub rest: AnimKey,
    /// Track keys (empty or at least 2 keys).
    pub track: Vec<AnimKey>,
}

#[derive(Debug, Clone)]
struct BuildNode {
    name: Vec<u8>,
    parent: u16,
    flags: u16,
    cells: Vec<(usize, MeshData)>,
    animation: NodeAnimation,
}

/// Builder of a new model; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct ModelBuilder {
    nodes: Vec<BuildNode>,
    hall_way: super::hall_way::HallWay,
}

fn err(rule: &'static str, detail: impl Into<String>) -> Error {
    Error::invalid(0, rule, detail)
}

fn u16_of(v: usize, what: &str) -> Result<u16> {
    u16::try_from(v)
        .ok()
        .filter(|&v| v != NONE)
        .ok_or_else(|| err("msh_builder_limit", format!("{what} {v} exceeds 16 bits")))
}

fn row(type_id: u32, attrs: [u32; 3]) -> StreamEntry {
    let mut name_raw = [0u8; 36];
    let name = format!("res{type_id}");
    name_raw[..name.len()].copy_from_slice(name.as_bytes());
    let row = DirEntry {
        type_id,
        attr1: attrs[0],
        attr2: attrs[1],
        size: 0,
        attr3: attrs[2],
        name_raw,
        data_offset: 0,
        sort_index: 0,
    };
    StreamEntry { row, raw: None }
}

impl ModelBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a node (parent must be an existing node) with identity rest pose; returns its index.
    pub fn add_node(&mut self, name: &str, parent: Option<usize>, flags: u16) -> Result<usize> {
        let index = self.nodes.len();
        let parent = match parent {
            Some(p) if p >= index => {
                return Err(err("msh_builder_parent", format!("parent {p} of new node {index}")));
            }
            Some(p) => u16_of(p, "parent")?,
            None => NONE,
        };
        let rest = AnimKey::new([0.0; 3], 0.0, [0.0, 0.0, 0.0, 1.0]);
        let animation = NodeAnimation { rest, track: Vec::new() };
        self.nodes.push(BuildNode { name: name.as_bytes().to_vec(), parent, flags, cells: Vec::new(), animation });
        Ok(index)
    }

    fn node(&mut self, node: usize) -> Result<&mut BuildNode> {
        self.nodes.get_mut(node).ok_or_else(|| err("msh_builder_node", format!("node {node} does not exist")))
    }

    /// Sets the geometry of `node` at slot cell `(lod, group)` (`lod < 3`, `group < 5`).
    pub fn set_mesh(&mut self, node: usize, lod: usize, group: usize, mesh: MeshData) -> Result<()> {
        if lod >= 3 || group >= 5 {
            return Err(err("msh_slot_cell", format!("cell ({lod}, {group}) outside 3 x 5")));
        }
        let n = mesh.positions.len();
        if mesh.normals.len() != n
            || mesh.uvs.len() != n
            || !(mesh.lightmap_uvs.is_empty() || mesh.lightmap_uvs.len() == n)
        {
            return Err(err(
                "msh_builder_vertices",
                "normals and uvs (and lightmap uvs, if any) need one entry per position",
            ));
        }
        for b in &mesh.batches {
            if !b.indices.len().is_multiple_of(3) || b.indices.iter().any(|&i| usize::from(i) >= n) {
                return Err(err("msh_builder_indices", "batch indices must be whole triangles of existing vertices"));
            }
        }
        let cell = lod * 5 + group;
        let cells = &mut self.node(node)?.cells;
        cells.retain(|(c, _)| *c != cell);
        cells.push((cell, mesh));
        Ok(())
    }

    /// Sets the animation of `node`.
    pub fn set_animation(&mut self, node: usize, animation: NodeAnimation) -> Result<()> {
        let track = &animation.track;
        let whole = track.iter().all(|k| k.time.fract() == 0.0 && k.time >= 0.0);
        let increasing = track.windows(2).all(|w| w[0].time < w[1].time);
        if track.len() == 1 || !whole || !increasing || track.first().is_some_and(|k| k.time != 0.0) {
            return Err(err("msh_builder_track", "tracks need >= 2 keys at whole, increasing frame times from 0"));
        }
        self.node(node)?.animation = animation;
        Ok(())
    }

    /// Sets the building's hall way (stream 17: its places and the links between them);
    /// every link must join two of its nodes.
    pub fn set_hall_way(&mut self, hall_way: super::hall_way::HallWay) -> Result<()> {
        let nodes = hall_way.nodes.len();
        if let Some(l) = hall_way.links.iter().find(|l| l.start as usize >= nodes || l.end as usize >= nodes) {
            let detail = format!("link {} - {} of a hall way of {nodes} nodes", l.start, l.end);
            return Err(err("msh_builder_hall_way", detail));
        }
        self.hall_way = hall_way;
        Ok(())
    }

    /// Builds the model (streams in the retail order `1 2 3 4 5 15 13 6 7 8 19 9 10 17`).
    pub fn build(&self) -> Result<Msh> {
        let mut m = Msh {
            streams: Vec::new(),
            nodes: Vec::new(),
            node_stride: Node::STRIDE,
            header: ModelHeader { words: [0.0; 35] },
            slots: Vec::new(),
            positions: Vec::new(),
            normals: Some(Vec::new()),
            uvs: Some(Vec::new()),
            indices: Vec::new(),
            triangles: Some(Vec::new()),
            batches: Vec::new(),
            keys: Some(Vec::new()),
            frame_map: Some(Vec::new()),
            names: Some(Vec::new()),
            document: None,
        };
        let mut lightmap_stream = Vec::new();
        let frames =
            self.nodes.iter().filter_map(|n| n.animation.track.last()).map(|k| k.time as usize + 1).max().unwrap_or(0);
        for (i, bn) in self.nodes.iter().enumerate() {
            let mut node = Node {
                flags: bn.flags,
                parent: bn.parent,
                anim_map_start: NONE,
                fallback_key: 0,
                slots: vec![NONE; 15],
            };
            for (cell, mesh) in &bn.cells {
                node.slots[*cell] = u16_of(m.slots.len(), "slot count")?;
                let slot = append_mesh(&mut m, mesh, i)?;
                for k in 0..mesh.positions.len() {
                    let [u, v] = mesh.lightmap_uvs.get(k).copied().unwrap_or_default();
                    lightmap_stream.extend(u.to_le_bytes().into_iter().chain(v.to_le_bytes()));
                }
                m.slots.push(slot);
            }
            append_animation(&mut m, &mut node, &bn.animation, frames)?;
            m.names.get_or_insert_default().push((!bn.name.is_empty()).then(|| bn.name.clone()));
            m.nodes.push(node);
        }
        m.header = header_for(&m);
        let count = |n: usize| n as u32;
        let verts = count(m.positions.len());
        m.streams = vec![
            row(stream::NODES, [count(m.nodes.len()), 0, Node::STRIDE as u32]),
            row(stream::SLOTS, [count(m.slots.len()), 0, Slot::SIZE as u32]),
            row(stream::POSITIONS, [verts, 0, 12]),
            row(stream::NORMALS, [verts, 0, 4]),
            row(stream::UVS, [verts, 0, 4]),
            StreamEntry { raw: Some(lightmap_stream), ..row(stream::LIGHTMAP_UVS, [verts, 0, 8]) },
            row(stream::BATCHES, [count(m.batches.len()), 0, Batch::SIZE as u32]),
            row(stream::INDICES, [count(m.indices.len()), 0, 2]),
            row(stream::TRIANGLES, [count(m.triangles.as_ref().map_or(0, Vec::len)), 0, TriDescriptor::SIZE as u32]),
            row(stream::KEYS, [count(m.keys.as_ref().map_or(0, Vec::len)), 0, 4]),
            row(stream::FRAME_MAP, [count(m.frame_map.as_ref().map_or(0, Vec::len)), frames as u32, 2]),
            StreamEntry { raw: Some(Vec::new()), ..row(9, [0; 3]) },
            row(stream::NAMES, [count(m.nodes.len()), 0, 0]),
            StreamEntry {
                raw: Some(self.hall_way.to_bytes()),
                ..row(stream::HALL_WAY, [count(self.hall_way.nodes.len()), count(self.hall_way.links.len()), 0])
            },
        ];
        m.validate(crate::options::ReadOptions::strict())?;
        Ok(m)
    }
}

fn append_mesh(m: &mut Msh, mesh: &MeshData, node: usize) -> Result<Slot> {
    let base = m.positions.len();
    let batch_start = u16_of(m.batches.len(), "batch count")?;
    let tris = m.triangles.get_or_insert_default();
    let tri_start = u16_of(tris.len(), "triangle count")?;
    for b in &mesh.batches {
        for t in b.indices.chunks_exact(3) {
            let p = [t[0], t[1], t[2]].map(|i| mesh.positions[usize::from(i)]);
            let n = face_normal(p).map(|c| (c * 32767.0).round() as i16);
            tris.push(TriDescriptor { flags: 0, links: [NONE; 3], normal: n, selectors: 0x3F });
        }
        m.batches.push(Batch {
            flags: b.flags,
            material_hi: u16::from(b.material),
            material_lo: b.material,
            lightmap: b.lightmap,
            local_index: u16_of(node, "node")?,
            index_count: u16_of(b.indices.len(), "index count")?,
            index_start: m.indices.len() as u32,
            vertex_count: u16_of(mesh.positions.len(), "vertex count")?,
            base_vertex: base as u32,
        });
        m.indices.extend_from_slice(&b.indices);
    }
    let tri_count = u16_of(tris.len() - usize::from(tri_start), "triangle count")?;
    m.positions.extend_from_slice(&mesh.positions);
    m.normals.get_or_insert_default().extend(mesh.normals.iter().map(|&n| encode_normal(n, 0)));
    m.uvs.get_or_insert_default().extend(mesh.uvs.iter().map(|&uv| encode_uv(uv)));
    let (lo, hi) = bounds(&mesh.positions);
    let size = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
    let center = [0, 1, 2].map(|k| (lo[k] + hi[k]) / 2.0);
    Ok(Slot {
        tri_start,
        tri_count,
        batch_start,
        batch_count: u16_of(mesh.batches.len(), "batch count")?,
        aabb_min: lo,
        aabb_max: hi,
        sphere_center: center,
        sphere_radius: (size[0] * size[0] + size[1] * size[1] + size[2] * size[2]).sqrt() / 2.0,
        area: size[0] * size[1],
        volume: size[0] * size[1] * size[2],
        tail: [0; 3],
    })
}

fn append_animation(m: &mut Msh, node: &mut Node, anim: &NodeAnimation, frames: usize) -> Result<()> {
    let keys = m.keys.get_or_insert_default();
    let base = keys.len();
    keys.extend_from_slice(&anim.track);
    node.fallback_key = u16_of(keys.len(), "key count")?;
    keys.push(anim.rest);
    if anim.track.len() >= 2 {
        let map = m.frame_map.get_or_insert_default();
        node.anim_map_start = u16_of(map.len(), "frame map length")?;
        let last = anim.track.len() - 2;
        for f in 0..frames {
            let j = anim.track.iter().rposition(|k| k.time <= f as f32).unwrap_or(0).min(last);
            let beyond = anim.track.last().is_some_and(|k| f as f32 > k.time);
            map.push(if beyond { node.fallback_key } else { u16_of(base + j, "key index")? });
        }
    }
    Ok(())
}

fn header_for(m: &Msh) -> ModelHeader {
    let globals: Vec<Transform> = node_transforms(m, Pose::Rest, QuaternionSense::default());
    let mut corners = Vec::new();
    for (n, node) in m.nodes.iter().enumerate() {
        let xf = globals.get(n).copied().unwrap_or(Transform::IDENTITY);
        for slot in node.slots.iter().filter(|&&s| s != NONE).filter_map(|&s| m.slots.get(usize::from(s))) {
            let (lo, hi) = (slot.aabb_min, slot.aabb_max);
            for c in 0..8 {
                let p = [
                    if c & 1 == 0 { lo[0] } else { hi[0] },
                    if c & 2 == 0 { lo[1] } else { hi[1] },
                    if c & 4 == 0 { lo[2] } else { hi[2] },
                ];
                corners.push(xf.apply(p));
            }
        }
    }
    let (lo, hi) = bounds(&corners);
    ModelHeader::from_bounds(lo, hi)
}
