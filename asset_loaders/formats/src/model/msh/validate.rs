//! Cross-stream validation of an MSH model (`docs/reference/models.md` §1.2–§1.10): every index in range,
//! every batch inside its buffers, vertex streams of equal length, sane bounds and
//! animation tracks.

use super::{Msh, NONE};
use crate::error::{Error, Result};
use crate::options::ReadOptions;

fn bad(rule: &'static str, detail: String) -> Error {
    Error::invalid(0, rule, detail)
}

fn finite3(v: [f32; 3]) -> bool {
    v.iter().all(|f| f.is_finite())
}

impl Msh {
    /// Checks every cross-reference of the model. Strict mode additionally requires
    /// index counts that are multiples of 3, sane slot bounds, parents before children
    /// and increasing key times.
    pub fn validate(&self, options: ReadOptions) -> Result<()> {
        self.validate_vertex_streams()?;
        self.validate_nodes(options)?;
        self.validate_slots(options)?;
        self.validate_batches(options)?;
        self.validate_animation(options)
    }

    fn validate_vertex_streams(&self) -> Result<()> {
        let n = self.positions.len();
        for (what, len) in [("normals", self.normals.as_ref().map(Vec::len)), ("uvs", self.uvs.as_ref().map(Vec::len))]
        {
            if let Some(len) = len.filter(|&l| l != n) {
                return Err(bad("msh_vertex_stream_length", format!("{what}: {len} records for {n} positions")));
            }
        }
        Ok(())
    }

    fn validate_nodes(&self, options: ReadOptions) -> Result<()> {
        let nodes = self.nodes.len();
        if let Some(names) = &self.names
            && names.len() != nodes
        {
            return Err(bad("msh_name_count", format!("{} node names for {nodes} nodes", names.len())));
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if let Some(p) = node.parent() {
                let p = usize::from(p);
                if p >= nodes || (options.strict && p >= i) {
                    return Err(bad("msh_node_parent", format!("node {i}: parent {p} (of {nodes} nodes)")));
                }
            }
            if let Some(&s) = node.slots.iter().find(|&&s| s != NONE && usize::from(s) >= self.slots.len()) {
                return Err(bad("msh_node_slot", format!("node {i}: slot {s} of {}", self.slots.len())));
            }
        }
        Ok(())
    }

    fn validate_slots(&self, options: ReadOptions) -> Result<()> {
        let tris = self.triangles.as_ref().map_or(0, Vec::len);
        for (i, s) in self.slots.iter().enumerate() {
            let batch_end = usize::from(s.batch_start) + usize::from(s.batch_count);
            if batch_end > self.batches.len() {
                return Err(bad(
                    "msh_slot_batches",
                    format!("slot {i}: batches end {batch_end} > {}", self.batches.len()),
                ));
            }
            let tri_end = usize::from(s.tri_start) + usize::from(s.tri_count);
            if s.tri_count > 0 && tri_end > tris {
                return Err(bad("msh_slot_triangles", format!("slot {i}: descriptors end {tri_end} > {tris}")));
            }
            if options.strict {
                let ordered = (0..3).all(|k| s.aabb_min[k] <= s.aabb_max[k]);
                if !finite3(s.aabb_min) || !finite3(s.aabb_max) || !ordered {
                    return Err(bad("msh_slot_aabb", format!("slot {i}: AABB {:?}..{:?}", s.aabb_min, s.aabb_max)));
                }
                if !(s.sphere_radius.is_finite() && s.sphere_radius >= 0.0) {
                    return Err(bad("msh_slot_radius", format!("slot {i}: radius {}", s.sphere_radius)));
                }
            }
        }
        Ok(())
    }

    fn validate_batches(&self, options: ReadOptions) -> Result<()> {
        let verts = self.positions.len() as u64;
        for (i, b) in self.batches.iter().enumerate() {
            if options.strict && !b.index_count.is_multiple_of(3) {
                return Err(bad("msh_batch_index_count", format!("batch {i}: {} indices", b.index_count)));
            }
            let start = u64::from(b.index_start);
            let end = start + u64::from(b.index_count);
            let Some(range) = self.indices.get(start as usize..end as usize) else {
                return Err(bad(
                    "msh_batch_indices",
                    format!("batch {i}: indices {start}..{end} of {}", self.indices.len()),
                ));
            };
            if let Some(max) = range.iter().max()
                && u64::from(b.base_vertex) + u64::from(*max) >= verts
            {
                return Err(bad("msh_batch_vertex", format!("batch {i}: vertex {} + {max} >= {verts}", b.base_vertex)));
            }
        }
        Ok(())
    }

    fn validate_animation(&self, options: ReadOptions) -> Result<()> {
        let keys = self.keys.as_deref().unwrap_or_default();
        let map = self.frame_map.as_deref().unwrap_or_default();
        let frames = self.frame_count() as usize;
        for (i, node) in self.nodes.iter().enumerate() {
            let fallback = usize::from(node.fallback_key);
            if self.keys.is_some() && fallback >= keys.len() {
                return Err(bad("msh_fallback_key", format!("node {i}: fallback key {fallback} of {}", keys.len())));
            }
            if node.anim_map_start == NONE || frames == 0 {
                continue;
            }
            let start = usize::from(node.anim_map_start);
            let Some(block) = map.get(start..start + frames) else {
                return Err(bad("msh_frame_map", format!("node {i}: map {start}+{frames} of {}", map.len())));
            };
            if options.strict {
                for &k in block.iter().filter(|&&k| usize::from(k) + 1 < fallback) {
                    let (Some(a), Some(b)) = (keys.get(usize::from(k)), keys.get(usize::from(k) + 1)) else {
                        continue;
                    };
                    let (a, b) = (a.time, b.time);
                    if a > b {
                        return Err(bad("msh_key_times", format!("node {i}: key {k} time {a} > next {b}")));
                    }
                }
            }
        }
        Ok(())
    }
}
