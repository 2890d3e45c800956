//! MaSzyna `.e3d` model reader (docs/reference/e3d.md): `E3D0` with `SUBn`, `VNTn`, `IDXn`, `TRA0/1`,
//! `TEX0`, `NAM0`; unknown chunks are kept raw.

use crate::cursor::{Cursor, CursorExt};
use crate::error::{Error, ErrorKind, Result};

/// A submodel record (`SUBn`), the fields a viewer needs plus the raw bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Submodel {
    /// Next sibling (≤ 0: none).
    pub next: i32,
    /// First child (≤ 0: none).
    pub child: i32,
    /// GL primitive type or 256..259.
    pub kind: i32,
    /// Name index into NAM0 (−1 none).
    pub name: i32,
    /// Animation type.
    pub anim: i32,
    /// Flags.
    pub flags: u32,
    /// Matrix index (−1 identity).
    pub matrix: i32,
    /// Vertex count.
    pub vertex_count: i32,
    /// First vertex.
    pub first_vertex: i32,
    /// Texture: > 0 TEX0 index, 0 none, −1..−4 replaceable skin.
    pub texture: i32,
    /// Index count.
    pub index_count: i32,
    /// First index.
    pub first_index: i32,
    /// Diffuse RGBA.
    pub diffuse: [f32; 4],
    /// The whole record as stored.
    pub raw: Vec<u8>,
}

impl Submodel {
    /// Replaceable skin slot 1..=4 if the texture field is −1..−4.
    pub fn skin_slot(&self) -> Option<u8> {
        (-4..=-1).contains(&self.texture).then(|| (-self.texture) as u8)
    }
}

/// Decoded vertex (layout-independent).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vertex {
    /// Position.
    pub position: [f32; 3],
    /// Normal.
    pub normal: [f32; 3],
    /// Texture coordinates.
    pub uv: [f32; 2],
}

/// A read model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct E3dModel {
    /// Submodels.
    pub submodels: Vec<Submodel>,
    /// Vertices (decoded from VNT0/1/2/4/5/6).
    pub vertices: Vec<Vertex>,
    /// VNT variant number, if any.
    pub vertex_layout: Option<u8>,
    /// Indices (widened).
    pub indices: Vec<u32>,
    /// Matrices, column-major.
    pub matrices: Vec<[f64; 16]>,
    /// TEX0 strings.
    pub textures: Vec<Vec<u8>>,
    /// NAM0 strings.
    pub names: Vec<Vec<u8>>,
    /// Unknown chunks (id, payload).
    pub other: Vec<([u8; 4], Vec<u8>)>,
}

fn digit(id: [u8; 4]) -> Option<u8> {
    id[3].is_ascii_digit().then(|| id[3] - b'0')
}

fn strings(b: &[u8]) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = b.split(|&c| c == 0).map(<[u8]>::to_vec).collect();
    // The data ends with a NUL, leaving one empty piece after it.
    if b.last() == Some(&0) {
        v.pop();
    }
    v
}

fn half(c: &mut Cursor<'_>) -> Result<f32> {
    Ok(crate::prim::half_to_f32(c.u16()?))
}

fn unpack_1010102(v: u32) -> [f32; 3] {
    std::array::from_fn(|i| {
        let raw = ((v >> (10 * i)) & 0x3FF) as i32;
        let s = if raw >= 512 { raw - 1024 } else { raw };
        (s as f32 / 511.0).max(-1.0)
    })
}

fn read_vertices(c: &mut Cursor<'_>, layout: u8) -> Result<Vec<Vertex>> {
    let base = layout & 3;
    let user = layout & 4 != 0;
    let stride = match (base, user) {
        (0, false) => 32,
        (1, false) => 20,
        (2, false) => 48,
        (0, true) => 48,
        (1, true) => 28,
        (2, true) => 64,
        _ => {
            return Err(c.err(ErrorKind::Invalid {
                rule: "vertex_layout",
                detail: format!("unknown vertex layout VNT{layout}"),
            }));
        }
    };
    let n = c.remaining() / stride;
    if !c.remaining().is_multiple_of(stride) {
        return Err(c.err(ErrorKind::Invalid {
            rule: "record_size",
            detail: format!("VNT{layout} size not a multiple of {stride}"),
        }));
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.offset();
        let mut r = Cursor::with_base(c.take(stride)?, at);
        let v = if base == 1 {
            let p = [half(&mut r)?, half(&mut r)?, half(&mut r)?];
            half(&mut r)?;
            let normal = unpack_1010102(r.u32()?);
            Vertex { position: p, normal, uv: [half(&mut r)?, half(&mut r)?] }
        } else {
            Vertex { position: r.vec3()?, normal: r.vec3()?, uv: [r.f32()?, r.f32()?] }
        };
        out.push(v);
    }
    Ok(out)
}

impl E3dModel {
    /// Reads a model file.
    pub fn read(data: &[u8], file: Option<&str>) -> Result<Self> {
        Self::read_inner(data).map_err(|e| match file {
            Some(file) => e.in_file(file),
            None => e,
        })
    }

    fn read_inner(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data);
        let id: [u8; 4] = c.array()?;
        if &id != b"E3D0" {
            return Err(Error::at(0, ErrorKind::BadMagic(id)));
        }
        let size = c.u32()?;
        if size < 8 {
            return Err(Error::at(4, ErrorKind::ChunkTooSmall(size)));
        }
        let body = c.take(size as usize - 8)?;
        let mut c = Cursor::with_base(body, 8);
        let mut m = E3dModel::default();
        while c.remaining() > 0 {
            let at = c.offset();
            let id: [u8; 4] = c.array()?;
            let size = c.u32()?;
            if size < 8 {
                return Err(Error::at(at, ErrorKind::ChunkTooSmall(size)).in_chunk(id));
            }
            let payload = c.take(size as usize - 8).map_err(|e| Error::from(e).in_chunk(id))?;
            let mut p = Cursor::with_base(payload, at + 8);
            let n = digit(id);
            let res: Result<()> = (|| {
                match (&id[..3], n) {
                    (b"SUB", Some(n)) => {
                        let rec = 256 + 64 * usize::from(n);
                        if payload.len() % rec != 0 {
                            return Err(p.err(ErrorKind::Invalid {
                                rule: "record_size",
                                detail: format!("SUB{n} size not a multiple of {rec}"),
                            }));
                        }
                        while p.remaining() > 0 {
                            let raw_at = p.offset();
                            let raw = p.take(rec)?;
                            let mut r = Cursor::with_base(raw, raw_at);
                            let f = |r: &mut Cursor<'_>| r.i32();
                            let (next, child, kind, name, anim) =
                                (f(&mut r)?, f(&mut r)?, f(&mut r)?, f(&mut r)?, f(&mut r)?);
                            let flags = r.u32()?;
                            let (matrix, vertex_count, first_vertex, texture) =
                                (f(&mut r)?, f(&mut r)?, f(&mut r)?, f(&mut r)?);
                            let mut at = Cursor::with_base(raw.get(64..).unwrap_or(&[]), raw_at + 64);
                            let diffuse = [at.f32()?, at.f32()?, at.f32()?, at.f32()?];
                            let mut ix = Cursor::with_base(raw.get(156..).unwrap_or(&[]), raw_at + 156);
                            let (index_count, first_index) = (ix.i32()?, ix.i32()?);
                            m.submodels.push(Submodel {
                                next,
                                child,
                                kind,
                                name,
                                anim,
                                flags,
                                matrix,
                                vertex_count,
                                first_vertex,
                                texture,
                                index_count,
                                first_index,
                                diffuse,
                                raw: raw.to_vec(),
                            });
                        }
                    }
                    (b"VNT", Some(n)) => {
                        m.vertex_layout = Some(n);
                        m.vertices = read_vertices(&mut p, n)?;
                    }
                    (b"IDX", Some(w @ (1 | 2 | 4))) => {
                        let w = usize::from(w);
                        if payload.len() % w != 0 {
                            return Err(p.err(ErrorKind::Invalid {
                                rule: "record_size",
                                detail: format!("IDX{w} size not a multiple of {w}"),
                            }));
                        }
                        m.indices = payload
                            .chunks(w)
                            .map(|b| b.iter().rev().fold(0u32, |a, &x| (a << 8) | u32::from(x)))
                            .collect();
                    }
                    (b"TRA", Some(k @ (0 | 1))) => {
                        let size = if k == 0 { 64 } else { 128 };
                        if payload.len() % size != 0 {
                            return Err(p.err(ErrorKind::Invalid {
                                rule: "record_size",
                                detail: format!("TRA{k} size not a multiple of {size}"),
                            }));
                        }
                        while p.remaining() > 0 {
                            let mut mat = [0f64; 16];
                            for v in &mut mat {
                                *v = if k == 0 { f64::from(p.f32()?) } else { p.f64()? };
                            }
                            m.matrices.push(mat);
                        }
                    }
                    (b"TEX", Some(0)) => m.textures = strings(payload),
                    (b"NAM", Some(0)) => m.names = strings(payload),
                    _ => m.other.push((id, payload.to_vec())),
                }
                Ok(())
            })();
            res.map_err(|e| e.in_chunk(id))?;
        }
        m.validate()?;
        Ok(m)
    }

    fn validate(&self) -> Result<()> {
        for (i, s) in self.submodels.iter().enumerate() {
            let bad = |what: &str| Err(Error::rule("submodel_range", what).in_record("submodel", i));
            let vr = i64::from(s.first_vertex) + i64::from(s.vertex_count);
            if s.first_vertex < 0 || s.vertex_count < 0 || vr > self.vertices.len() as i64 {
                return bad("vertex range outside VNT");
            }
            let ir = i64::from(s.first_index) + i64::from(s.index_count);
            if s.index_count > 0 && (s.first_index < 0 || ir > self.indices.len() as i64) {
                return bad("index range outside IDX");
            }
        }
        Ok(())
    }

    /// The triangle list of submodel `i` (types 4/5/6 expanded; others empty), positions
    /// local to the submodel.
    pub fn triangles(&self, i: usize) -> Vec<[Vertex; 3]> {
        let Some(s) = self.submodels.get(i) else { return Vec::new() };
        let first = s.first_vertex.max(0) as usize;
        let vert = |k: usize| self.vertices.get(first + k).copied();
        let order: Vec<usize> = if s.index_count > 0 {
            let a = s.first_index.max(0) as usize;
            self.indices.get(a..a + s.index_count as usize).unwrap_or(&[]).iter().map(|&x| x as usize).collect()
        } else {
            (0..s.vertex_count.max(0) as usize).collect()
        };
        let tri =
            |a: usize, b: usize, c: usize| Some([vert(*order.get(a)?)?, vert(*order.get(b)?)?, vert(*order.get(c)?)?]);
        let n = order.len();
        match s.kind {
            4 => (0..n / 3).filter_map(|t| tri(3 * t, 3 * t + 1, 3 * t + 2)).collect(),
            5 => (2..n).filter_map(|k| if k % 2 == 0 { tri(k - 2, k - 1, k) } else { tri(k - 1, k - 2, k) }).collect(),
            6 => (2..n).filter_map(|k| tri(0, k - 1, k)).collect(),
            _ => Vec::new(),
        }
    }

    /// Texture of submodel `i`: its TEX0 entry, or the instance skin for slots −1..−4.
    pub fn texture_of<'a>(&'a self, i: usize, skin: &'a [u8]) -> &'a [u8] {
        match self.submodels.get(i) {
            Some(s) if s.skin_slot().is_some() => skin,
            Some(s) if s.texture > 0 => self.textures.get(s.texture as usize).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }
}

/// Writes a minimal E3D file (SUB0, VNT0, IDX4, TEX0, NAM0) — used by the generator.
pub fn write_simple(vertices: &[Vertex], indices: &[u32], texture: &[u8], name: &[u8]) -> Vec<u8> {
    let mut w = crate::cursor::Writer::new();
    let chunk = |w: &mut crate::cursor::Writer, id: &[u8; 4], body: &[u8]| {
        w.bytes(id);
        w.u32((body.len() + 8) as u32);
        w.bytes(body);
    };
    let mut sub = vec![0u8; 256];
    let put = |b: &mut [u8], at: usize, v: [u8; 4]| {
        if let Some(s) = b.get_mut(at..at + 4) {
            s.copy_from_slice(&v);
        }
    };
    put(&mut sub, 0, (-1i32).to_le_bytes());
    put(&mut sub, 4, (-1i32).to_le_bytes());
    put(&mut sub, 8, 4i32.to_le_bytes());
    put(&mut sub, 12, 0i32.to_le_bytes());
    put(&mut sub, 20, 0x10u32.to_le_bytes());
    put(&mut sub, 24, (-1i32).to_le_bytes());
    put(&mut sub, 28, (vertices.len() as i32).to_le_bytes());
    put(&mut sub, 36, (if texture.is_empty() { 0i32 } else { 1 }).to_le_bytes());
    for (k, v) in [1.0f32, 1.0, 1.0, 1.0].iter().enumerate() {
        put(&mut sub, 64 + 4 * k, v.to_le_bytes());
    }
    put(&mut sub, 156, (indices.len() as i32).to_le_bytes());
    let mut body = crate::cursor::Writer::new();
    chunk(&mut body, b"SUB0", &sub);
    let mut vb = crate::cursor::Writer::new();
    for v in vertices {
        vb.vec3(v.position);
        vb.vec3(v.normal);
        vb.f32(v.uv[0]);
        vb.f32(v.uv[1]);
    }
    chunk(&mut body, b"VNT0", &vb.buf);
    let mut ib = crate::cursor::Writer::new();
    indices.iter().for_each(|&i| ib.u32(i));
    chunk(&mut body, b"IDX4", &ib.buf);
    let mut tex = vec![0u8];
    if !texture.is_empty() {
        tex.extend_from_slice(texture);
        tex.push(0);
    }
    chunk(&mut body, b"TEX0", &tex);
    let mut nam = name.to_vec();
    nam.push(0);
    chunk(&mut body, b"NAM0", &nam);
    chunk(&mut w, b"E3D0", &body.buf);
    w.buf
}
