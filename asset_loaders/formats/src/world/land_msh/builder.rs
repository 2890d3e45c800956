//! Building new terrains: vertices and faces in, a complete `Land.msh` out (face
//! neighbours, packed normals/UVs, slots, bounding header and the per-vertex/per-face
//! auxiliary streams filled consistently).

use super::*;
use crate::model::bounds;
use std::collections::HashMap;

/// Collects vertices and faces for a new terrain.
#[derive(Debug, Clone, Default)]
pub struct TerrainBuilder {
    positions: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
    faces: Vec<([u16; 3], u32, [u8; 2])>,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 0.0 { v.map(|x| x / len) } else { [0.0, 0.0, 1.0] }
}

impl TerrainBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a vertex and returns its index.
    pub fn vertex(&mut self, position: [f32; 3], uv: [f32; 2]) -> Result<u16> {
        let i = u16::try_from(self.positions.len())
            .map_err(|_| Error::invalid(0, "vertex_count", "a terrain holds at most 65536 vertices"))?;
        self.positions.push(position);
        self.uvs.push(uv);
        Ok(i)
    }

    /// Adds a face with a full surface mask and material selectors `[low, high]`.
    pub fn face(&mut self, vertices: [u16; 3], flags: u32, material: [u8; 2]) -> Result<()> {
        if vertices.iter().any(|&v| usize::from(v) >= self.positions.len()) {
            return Err(Error::invalid(0, "face_vertex", format!("face {vertices:?} names a vertex not added yet")));
        }
        if self.faces.len() >= usize::from(NO_FACE) {
            return Err(Error::invalid(0, "face_count", "a terrain holds at most 65535 faces"));
        }
        self.faces.push((vertices, flags, material));
        Ok(())
    }

    /// A regular height field of `nx × ny` cells of `cell` units (two faces per cell,
    /// counter-clockwise seen from +Z), heights from `height(x, y)`.
    pub fn height_field(nx: u16, ny: u16, cell: f32, height: impl Fn(f32, f32) -> f32) -> Result<LandMsh> {
        let mut b = Self::new();
        let w = nx + 1;
        for j in 0..=ny {
            for i in 0..=nx {
                let (x, y) = (f32::from(i) * cell, f32::from(j) * cell);
                b.vertex([x, y, height(x, y)], [f32::from(i) / 4.0, f32::from(j) / 4.0])?;
            }
        }
        for j in 0..ny {
            for i in 0..nx {
                let v = |di: u16, dj: u16| (j + dj) * w + i + di;
                let material = [1 + ((i + j) % 3) as u8, 0xFF];
                b.face([v(0, 0), v(1, 0), v(1, 1)], 0x400, material)?;
                b.face([v(0, 0), v(1, 1), v(0, 1)], 0x400, material)?;
            }
        }
        b.build()
    }

    /// Builds the terrain.
    pub fn build(&self) -> Result<LandMsh> {
        let mut edges: HashMap<(u16, u16), Vec<(usize, usize)>> = HashMap::new();
        for (fi, (v, _, _)) in self.faces.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (v[k], v[(k + 1) % 3]);
                edges.entry((a.min(b), a.max(b))).or_default().push((fi, k));
            }
        }
        let mut faces: Vec<TerrainFace28> = self
            .faces
            .iter()
            .map(|&(vertices, flags, m)| TerrainFace28 {
                flags,
                material_low: m[0],
                material_high: m[1],
                aux_tag: 0xFFFF,
                vertices,
                neighbours: [NO_FACE; 3],
                tail: [0; 8],
            })
            .collect();
        for sharing in edges.values() {
            if let [(f0, k0), (f1, k1)] = sharing[..] {
                faces[f0].neighbours[k0] = f1 as u16;
                faces[f1].neighbours[k1] = f0 as u16;
            }
        }
        let mut vertex_normals = vec![[0f32; 3]; self.positions.len()];
        for f in &mut faces {
            let [a, b, c] = f.vertices.map(|v| self.positions[usize::from(v)]);
            let n = cross(sub(b, a), sub(c, a));
            for v in f.vertices {
                let acc = &mut vertex_normals[usize::from(v)];
                *acc = [acc[0] + n[0], acc[1] + n[1], acc[2] + n[2]];
            }
            let packed = normalize(n).map(|x| (x * 32767.0).round() as i16);
            for (k, p) in packed.iter().enumerate() {
                f.tail[2 * k..2 * k + 2].copy_from_slice(&p.to_le_bytes());
            }
        }
        let normals = vertex_normals.iter().map(|&n| {
            let n = normalize(n).map(|x| (x * 127.0).round() as i8 as u8);
            [n[0], n[1], n[2], 0]
        });
        let uv0 = self.uvs.iter().map(|uv| {
            let [u, v] = uv.map(|x| ((x * 1024.0).round().clamp(-32768.0, 32767.0) as i16).to_le_bytes());
            [u[0], u[1], v[0], v[1]]
        });
        let (min, max) = bounds(&self.positions);
        let mut slot = [0u8; SLOT_SIZE];
        slot[2..4].copy_from_slice(&(faces.len() as u16).to_le_bytes());
        for (k, x) in min.iter().chain(&max).enumerate() {
            slot[8 + 4 * k..12 + 4 * k].copy_from_slice(&x.to_le_bytes());
        }
        let mut node = [0xFFu8; NODE_SIZE];
        node[..8].copy_from_slice(&[0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]);
        node[8..10].copy_from_slice(&0u16.to_le_bytes());
        Ok(LandMsh {
            nodes: vec![node],
            slot_header: header(min, max),
            slots: vec![Slot68 { raw: slot }],
            positions: self.positions.clone(),
            normals: normals.collect(),
            uv0: uv0.collect(),
            microtexture: vec![0; self.positions.len()],
            aux: vec![0; self.positions.len()],
            face_shading: (0..faces.len() as u32).collect(),
            faces,
            rows: Vec::new(),
            doc: None,
        })
    }
}

/// The 0x8C-byte header: 8 hull corners, bounding sphere, segment A/B, XY radius.
fn header(min: [f32; 3], max: [f32; 3]) -> [u8; SLOT_HEADER_SIZE] {
    let mut floats = Vec::with_capacity(35);
    for z in [min[2], max[2]] {
        for (x, y) in [(min[0], min[1]), (max[0], min[1]), (max[0], max[1]), (min[0], max[1])] {
            floats.extend([x, y, z]);
        }
    }
    let c = [0, 1, 2].map(|k| (min[k] + max[k]) / 2.0);
    let d = sub(max, c);
    let r = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    floats.extend([c[0], c[1], c[2], r, c[0], c[1], min[2], c[0], c[1], max[2]]);
    floats.push(((max[0] - c[0]).powi(2) + (max[1] - c[1]).powi(2)).sqrt());
    let mut out = [0u8; SLOT_HEADER_SIZE];
    for (k, f) in floats.iter().enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(&f.to_le_bytes());
    }
    out
}
