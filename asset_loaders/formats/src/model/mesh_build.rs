//! From a decoded MSH to drawable triangle lists (`docs/reference/models.md` §1.10 and §7):
//! node poses from the animation keys (fallback key or sampled time), hierarchy
//! composition, slot selection per node and per-material triangle lists with
//! positions, normals and UVs in model space.

use crate::error::{Error, Result};
use crate::model::msh::{AnimKey, MaterialField, Msh, NONE, decode_normal, decode_uv};

/// Quaternion `[x, y, z, w]`.
pub type Quat = [f32; 4];

/// How the stored key quaternion rotates points (`docs/reference/models.md` §1.10, **disputed**).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QuaternionSense {
    /// Apply the conjugate of the stored quaternion (recommended; the visually validated viewer).
    #[default]
    Conjugate,
    /// Apply the stored quaternion directly (the Rust reference).
    Direct,
}

/// A rigid transform: rotate, then translate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    /// Translation.
    pub translation: [f32; 3],
    /// Unit rotation quaternion `[x, y, z, w]`.
    pub rotation: Quat,
}

fn dot4(a: Quat, b: Quat) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

fn normalize(q: Quat) -> Quat {
    let len = dot4(q, q).sqrt();
    if len > 0.0 && len.is_finite() { q.map(|c| c / len) } else { [0.0, 0.0, 0.0, 1.0] }
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn mul(a: Quat, b: Quat) -> Quat {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

fn lerp3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * t)
}

/// Shortest-path normalised blend of two quaternions (`docs/reference/models.md` §1.10): `q1` is negated when
/// `|q0 + q1|² < |q0 − q1|²`.
pub fn blend_quat(q0: Quat, q1: Quat, t: f32) -> Quat {
    let sum: Quat = std::array::from_fn(|i| q0[i] + q1[i]);
    let diff: Quat = std::array::from_fn(|i| q0[i] - q1[i]);
    let q1 = if dot4(sum, sum) < dot4(diff, diff) { q1.map(|c| -c) } else { q1 };
    normalize(std::array::from_fn(|i| q0[i] * (1.0 - t) + q1[i] * t))
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Self = Self { translation: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0] };

    /// The transform of a key under the chosen quaternion sense.
    pub fn from_key(key: &AnimKey, sense: QuaternionSense) -> Self {
        Self { translation: key.translation, rotation: oriented(key.quaternion(), sense) }
    }

    /// Rotates a vector.
    pub fn rotate(&self, v: [f32; 3]) -> [f32; 3] {
        let [x, y, z, w] = self.rotation;
        let u = [x, y, z];
        let t = cross(u, v).map(|c| 2.0 * c);
        let ut = cross(u, t);
        [v[0] + w * t[0] + ut[0], v[1] + w * t[1] + ut[1], v[2] + w * t[2] + ut[2]]
    }

    /// Transforms a point: `R·p + t`.
    pub fn apply(&self, p: [f32; 3]) -> [f32; 3] {
        let r = self.rotate(p);
        [r[0] + self.translation[0], r[1] + self.translation[1], r[2] + self.translation[2]]
    }

    /// `self ∘ child`: the child's translation rotated by `self`, plus `self`'s
    /// translation; rotations multiplied.
    pub fn then(&self, child: &Transform) -> Transform {
        Transform {
            translation: self.apply(child.translation),
            rotation: normalize(mul(self.rotation, child.rotation)),
        }
    }

    /// Row-major 4×4 matrix `[R | t; 0 0 0 1]` (translation in elements 3, 7, 11).
    pub fn matrix(&self) -> [f32; 16] {
        let c = [self.rotate([1.0, 0.0, 0.0]), self.rotate([0.0, 1.0, 0.0]), self.rotate([0.0, 0.0, 1.0])];
        let t = self.translation;
        [
            c[0][0], c[1][0], c[2][0], t[0], c[0][1], c[1][1], c[2][1], t[1], c[0][2], c[1][2], c[2][2], t[2], 0.0,
            0.0, 0.0, 1.0,
        ]
    }
}

fn oriented(q: Quat, sense: QuaternionSense) -> Quat {
    let q = normalize(q);
    match sense {
        QuaternionSense::Direct => q,
        QuaternionSense::Conjugate => [-q[0], -q[1], -q[2], q[3]],
    }
}

/// Which pose to build.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pose {
    /// No node transforms at all (geometry as stored).
    Unposed,
    /// Every node at its fallback key.
    Rest,
    /// Sampled animation at time `t` (in frames).
    Frame(f32),
}

/// Choices for the disputed readings and slot selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MeshOptions {
    /// Batch field naming the WEAR row.
    pub material_field: MaterialField,
    /// Quaternion sense.
    pub quaternion: QuaternionSense,
    /// Fall back to the first present slot cell of a node whose requested cell is empty
    /// (as a public viewer does); off = such nodes draw nothing.
    pub slot_fallback: bool,
    /// Read lightmap coordinates from stream 15 ([`Msh::lightmap_uv`], a candidate
    /// reading) for batches flagged [`Batch::has_lightmap`](crate::model::msh::Batch).
    pub lightmap_uv: bool,
}

/// The local transform of node `n` at time `t` (`docs/reference/models.md` §1.10 key selection), `None`
/// without keys.
pub fn sample_node(msh: &Msh, n: usize, t: f32, sense: QuaternionSense) -> Option<Transform> {
    let keys = msh.keys.as_deref()?;
    let node = msh.nodes.get(n)?;
    let fallback = usize::from(node.fallback_key);
    let frames = i64::from(msh.frame_count());
    let frame = (t - 0.5).round_ties_even();
    let map = msh.frame_map.as_deref().unwrap_or_default();
    let mapped = if frame.is_finite() && frame >= 0.0 && (frame as i64) < frames && node.anim_map_start != NONE {
        map.get(usize::from(node.anim_map_start) + frame as usize).map(|&k| usize::from(k)).filter(|&k| k < fallback)
    } else {
        None
    };
    let Some(k) = mapped else {
        return keys.get(fallback).map(|k| Transform::from_key(k, sense));
    };
    let (k0, k1) = (keys.get(k)?, keys.get(k + 1)?);
    if t == k0.time {
        return Some(Transform::from_key(k0, sense));
    }
    if t == k1.time {
        return Some(Transform::from_key(k1, sense));
    }
    let span = k1.time - k0.time;
    let a = if span != 0.0 { (t - k0.time) / span } else { 0.0 };
    Some(Transform {
        translation: lerp3(k0.translation, k1.translation, a),
        rotation: blend_quat(oriented(k0.quaternion(), sense), oriented(k1.quaternion(), sense), a),
    })
}

/// Global transforms of every node for a pose (parents composed first). A parent index
/// that is not smaller than its child makes the whole pose fall back to unposed.
pub fn node_transforms(msh: &Msh, pose: Pose, sense: QuaternionSense) -> Vec<Transform> {
    let n = msh.nodes.len();
    let t = match pose {
        Pose::Unposed => return vec![Transform::IDENTITY; n],
        Pose::Rest => f32::NAN,
        Pose::Frame(t) => t,
    };
    if !hierarchy_valid(msh) {
        return vec![Transform::IDENTITY; n];
    }
    let mut out: Vec<Transform> = Vec::with_capacity(n);
    for (i, node) in msh.nodes.iter().enumerate() {
        let local = sample_node(msh, i, t, sense).unwrap_or(Transform::IDENTITY);
        let global = match node.parent() {
            None => local,
            Some(p) => out[usize::from(p)].then(&local),
        };
        out.push(global);
    }
    out
}

/// True when every node's parent index is smaller than its own (`docs/reference/models.md` §1.10: otherwise
/// the model is drawn unposed).
pub fn hierarchy_valid(msh: &Msh) -> bool {
    msh.nodes.iter().enumerate().all(|(i, node)| node.parent().is_none_or(|p| usize::from(p) < i))
}

/// One (material, lightmap) triangle list in model space.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshPart {
    /// WEAR row (under the chosen material-field reading).
    pub material: u16,
    /// Batch lightmap index (WEAR `LIGHTMAPS` row).
    pub lightmap: u8,
    /// True when any contributing batch is flagged two-sided.
    pub two_sided: bool,
    /// True when the part carries lightmap coordinates (see [`MeshPart::lightmap_uvs`]).
    pub lightmapped: bool,
    /// Positions.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals (decoded, or face normals when the model has no normal stream).
    pub normals: Vec<[f32; 3]>,
    /// UV0 (zero when the model has no UV stream).
    pub uvs: Vec<[f32; 2]>,
    /// Lightmap coordinates, one per vertex of a lightmapped part (batches flagged
    /// `0x2000` with stream-15 coordinates, read when [`MeshOptions::lightmap_uv`] is on).
    pub lightmap_uvs: Vec<[f32; 2]>,
    /// Triangle list indices into this part's vertices.
    pub indices: Vec<u32>,
}

/// The result of [`build_mesh`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BuiltMesh {
    /// One part per (material, lightmap, lightmapped) in first-use order.
    pub parts: Vec<MeshPart>,
    /// Global node transforms of the pose used.
    pub node_transforms: Vec<Transform>,
}

impl BuiltMesh {
    /// Total triangle count.
    pub fn triangle_count(&self) -> usize {
        self.parts.iter().map(|p| p.indices.len() / 3).sum()
    }
}

pub(crate) fn face_normal(p: [[f32; 3]; 3]) -> [f32; 3] {
    let e1 = [p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]];
    let e2 = [p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]];
    let n = cross(e1, e2);
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 { n.map(|c| c / len) } else { [0.0, 0.0, 1.0] }
}

/// Builds per-material triangle lists for slot cell `(lod, group)` (`slot_index[lod * 5
/// + group]`, reading A of `docs/reference/models.md` §1.4) in the given pose (`docs/reference/models.md` §7 steps 3–5).
pub fn build_mesh(msh: &Msh, lod: usize, group: usize, pose: Pose, options: MeshOptions) -> Result<BuiltMesh> {
    check_cell(lod, group)?;
    let transforms = node_transforms(msh, pose, options.quaternion);
    let mut parts: Vec<MeshPart> = Vec::new();
    for n in 0..msh.nodes.len() {
        let xf = transforms.get(n).copied().unwrap_or(Transform::IDENTITY);
        append_node(msh, n, lod, group, &xf, options, &mut parts)?;
    }
    Ok(BuiltMesh { parts, node_transforms: transforms })
}

/// Per-node triangle lists in node-local space (`docs/reference/models.md` §7 step 4 without step 5), for
/// renderers that pose the nodes as a transform hierarchy: entry `n` holds node `n`'s
/// parts, split by (material, lightmap) in first-use order.
pub fn build_node_meshes(msh: &Msh, lod: usize, group: usize, options: MeshOptions) -> Result<Vec<Vec<MeshPart>>> {
    check_cell(lod, group)?;
    (0..msh.nodes.len())
        .map(|n| {
            let mut parts = Vec::new();
            append_node(msh, n, lod, group, &Transform::IDENTITY, options, &mut parts)?;
            Ok(parts)
        })
        .collect()
}

fn check_cell(lod: usize, group: usize) -> Result<()> {
    if lod >= 3 || group >= 5 {
        return Err(Error::invalid(0, "msh_slot_cell", format!("cell ({lod}, {group}) outside 3 x 5")));
    }
    Ok(())
}

/// Appends the batches of node `n`'s slot in cell `(lod, group)`, transformed by `xf`.
fn append_node(
    msh: &Msh,
    n: usize,
    lod: usize,
    group: usize,
    xf: &Transform,
    options: MeshOptions,
    parts: &mut Vec<MeshPart>,
) -> Result<()> {
    let node = &msh.nodes[n];
    let cell = node
        .slot(lod, group)
        .or_else(|| if options.slot_fallback { node.slots.iter().copied().find(|&s| s != NONE) } else { None });
    let Some(slot) = cell.and_then(|s| msh.slots.get(usize::from(s))) else {
        return Ok(());
    };
    let first = usize::from(slot.batch_start);
    let batches = msh.batches.get(first..first + usize::from(slot.batch_count)).unwrap_or_default();
    let has_uvs = options.lightmap_uv && msh.lightmap_uv(0).is_some();
    for batch in batches {
        let key = (batch.material(options.material_field), batch.lightmap, has_uvs && batch.has_lightmap());
        let at = match parts.iter().position(|p| (p.material, p.lightmap, p.lightmapped) == key) {
            Some(at) => at,
            None => {
                parts.push(MeshPart { material: key.0, lightmap: key.1, lightmapped: key.2, ..MeshPart::default() });
                parts.len() - 1
            }
        };
        append_batch(msh, batch, xf, &mut parts[at])?;
    }
    Ok(())
}

fn vertex_index(msh: &Msh, base: u32, idx: u16) -> Result<usize> {
    let v = base as usize + usize::from(idx);
    if v >= msh.positions.len() {
        return Err(Error::invalid(0, "msh_batch_vertex", format!("vertex {v} of {}", msh.positions.len())));
    }
    Ok(v)
}

fn append_batch(msh: &Msh, batch: &crate::model::msh::Batch, xf: &Transform, part: &mut MeshPart) -> Result<()> {
    part.two_sided |= batch.two_sided();
    let start = batch.index_start as usize;
    let whole = usize::from(batch.index_count) / 3 * 3;
    let Some(idx) = msh.indices.get(start..start + whole) else {
        return Err(Error::invalid(
            0,
            "msh_batch_indices",
            format!("indices {start}+{whole} of {}", msh.indices.len()),
        ));
    };
    let uv = |v: usize| msh.uvs.as_ref().and_then(|u| u.get(v)).map_or([0.0; 2], |&u| decode_uv(u));
    match &msh.normals {
        Some(normals) => {
            let (Some(&lo), Some(&hi)) = (idx.iter().min(), idx.iter().max()) else {
                return Ok(());
            };
            let offset = part.positions.len() as u32;
            for i in lo..=hi {
                let v = vertex_index(msh, batch.base_vertex, i)?;
                part.positions.push(xf.apply(msh.positions[v]));
                part.normals.push(xf.rotate(normals.get(v).map_or([0.0, 0.0, 1.0], |&n| decode_normal(n))));
                part.uvs.push(uv(v));
                if part.lightmapped {
                    part.lightmap_uvs.push(msh.lightmap_uv(v).unwrap_or_default());
                }
            }
            part.indices.extend(idx.iter().map(|&i| offset + u32::from(i - lo)));
        }
        None => {
            for tri in idx.chunks_exact(3) {
                let mut vs = [0usize; 3];
                for (v, &i) in vs.iter_mut().zip(tri) {
                    *v = vertex_index(msh, batch.base_vertex, i)?;
                }
                let p = vs.map(|v| xf.apply(msh.positions[v]));
                let n = face_normal(p);
                for (k, &v) in vs.iter().enumerate() {
                    part.indices.push(part.positions.len() as u32);
                    part.positions.push(p[k]);
                    part.normals.push(n);
                    part.uvs.push(uv(v));
                    if part.lightmapped {
                        part.lightmap_uvs.push(msh.lightmap_uv(v).unwrap_or_default());
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
