//! Closed primitive builders: every primitive is a closed, counter-clockwise-wound
//! shell (seen from outside) with outward normals, generated as a surface of
//! revolution ("lathe") of a profile that starts and ends on the axis, or as a torus.
//! Boxes and prisms are lathes with few, faceted sides. The result is [`Geo`]: one
//! vertex list with one index list per WEAR row, ready for an MSH slot cell.

use crate::geometry::{TAU, V3, Xf, cos_approx, cross, dot, normalize, sin_approx, sub};
use iron3d_formats::Result;
use iron3d_formats::model::bounds;
use iron3d_formats::model::msh::{LIGHTMAP_FLAG, MeshBatch, MeshData};

/// Geometry of one node at one slot cell.
#[derive(Debug, Clone, Default)]
pub struct Geo {
    positions: Vec<V3>,
    normals: Vec<V3>,
    uvs: Vec<[f32; 2]>,
    batches: Vec<(u8, Vec<u16>)>,
}

/// A profile point `(radius, z)` of a lathe and whether the surface is smooth there.
#[derive(Debug, Clone, Copy)]
pub struct P {
    /// Radius.
    pub r: f32,
    /// Height.
    pub z: f32,
    /// Smooth normal across this point (otherwise a hard edge).
    pub smooth: bool,
}

/// A hard profile point.
pub const fn h(r: f32, z: f32) -> P {
    P { r, z, smooth: false }
}

/// A smooth profile point.
pub const fn s(r: f32, z: f32) -> P {
    P { r, z, smooth: true }
}

/// Per-vertex displacement of a lathe: `(ring, side, position) -> position`.
pub type Displace<'a> = &'a dyn Fn(usize, usize, V3) -> V3;

/// A surface of revolution around local Z.
#[derive(Clone, Copy)]
pub struct Lathe<'a> {
    /// Profile from the bottom axis point to the top axis point.
    pub profile: &'a [P],
    /// Sides around.
    pub sides: usize,
    /// Angle of the first side.
    pub phase: f32,
    /// Scale of local X and Y (ellipses, boxes).
    pub scale: [f32; 2],
    /// Flat shading around (boxes, prisms, rocks) instead of smooth.
    pub faceted: bool,
    /// Texture repeats per world unit.
    pub tile: f32,
    /// Optional displacement (rocks, crystals, foliage).
    pub displace: Option<Displace<'a>>,
}

impl<'a> Lathe<'a> {
    /// A smooth lathe of `profile` with `sides` sides.
    pub fn new(profile: &'a [P], sides: usize) -> Self {
        Self { profile, sides, phase: 0.0, scale: [1.0, 1.0], faceted: false, tile: 0.25, displace: None }
    }
}

fn limit(n: usize) -> Result<u16> {
    u16::try_from(n)
        .map_err(|_| iron3d_formats::Error::invalid(0, "demo_mesh_size", format!("{n} vertices in one mesh")))
}

impl Geo {
    /// An empty mesh.
    pub fn new() -> Self {
        Self::default()
    }

    fn vertex(&mut self, p: V3, n: V3, uv: [f32; 2]) -> Result<u16> {
        let i = limit(self.positions.len())?;
        self.positions.push(p);
        self.normals.push(normalize(n));
        self.uvs.push(uv);
        Ok(i)
    }

    fn tri(&mut self, material: u8, t: [u16; 3]) {
        match self.batches.iter_mut().find(|(m, _)| *m == material) {
            Some((_, list)) => list.extend_from_slice(&t),
            None => self.batches.push((material, t.to_vec())),
        }
    }

    /// Adds a lathe placed by `xf` with WEAR row `material`.
    pub fn lathe(&mut self, l: &Lathe<'_>, xf: Xf, material: u8) -> Result<()> {
        let prof = l.profile;
        let sides = l.sides.max(3);
        let at = |i: usize, j: usize| -> V3 {
            let a = l.phase + TAU * j as f32 / sides as f32;
            let (c, s) = if j.is_multiple_of(sides) {
                (cos_approx(l.phase), sin_approx(l.phase))
            } else {
                (cos_approx(a), sin_approx(a))
            };
            let p = [prof[i].r * c * l.scale[0], prof[i].r * s * l.scale[1], prof[i].z];
            let p = match l.displace {
                Some(d) if prof[i].r > 0.0 => d(i, j % sides, p),
                _ => p,
            };
            xf.point(p)
        };
        // Cumulative profile length for V.
        let mut v_at = vec![0f32; prof.len()];
        for i in 1..prof.len() {
            let (dr, dz) = (prof[i].r - prof[i - 1].r, prof[i].z - prof[i - 1].z);
            v_at[i] = v_at[i - 1] + (dr * dr + dz * dz).sqrt();
        }
        let rmax = prof.iter().fold(0f32, |m, p| m.max(p.r)) * l.scale[0].max(l.scale[1]);
        let u_len = (TAU * rmax * l.tile).round().max(1.0);
        // Segment normals in the (radius, z) plane.
        let seg_n: Vec<[f32; 2]> = prof
            .windows(2)
            .map(|w| {
                let (dr, dz) = (w[1].r - w[0].r, w[1].z - w[0].z);
                let len = (dr * dr + dz * dz).sqrt().max(1e-9);
                [dz / len, -dr / len]
            })
            .collect();
        for i in 0..prof.len() - 1 {
            let (r0, r1) = (prof[i].r, prof[i + 1].r);
            if r0 <= 0.0 && r1 <= 0.0 {
                continue;
            }
            let end_n = |k: usize| -> [f32; 2] {
                let own = seg_n[i];
                let point = &prof[k];
                let other = if k == i { i.checked_sub(1) } else { Some(k).filter(|&k| k < seg_n.len()) };
                match other.map(|o| seg_n[o]) {
                    Some(o) if point.smooth => {
                        let (a, b) = (own[0] + o[0], own[1] + o[1]);
                        let len = (a * a + b * b).sqrt().max(1e-9);
                        [a / len, b / len]
                    }
                    _ => own,
                }
            };
            let (n0, n1) = (end_n(i), end_n(i + 1));
            for j in 0..sides {
                let quad = [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)];
                let uv = |jj: usize, v: f32| [u_len * jj as f32 / sides as f32, v * l.tile];
                let uvs = [uv(j, v_at[i]), uv(j + 1, v_at[i]), uv(j + 1, v_at[i + 1]), uv(j, v_at[i + 1])];
                let tris: Vec<[usize; 3]> =
                    [(r0 > 0.0).then_some([0, 1, 2]), (r1 > 0.0).then_some([0, 2, 3])].into_iter().flatten().collect();
                if l.displace.is_some() {
                    // Non-planar quads: every triangle gets its own flat normal.
                    for t in tris {
                        let face = cross(sub(quad[t[1]], quad[t[0]]), sub(quad[t[2]], quad[t[0]]));
                        let mut idx = [0u16; 3];
                        for (k, &c) in t.iter().enumerate() {
                            idx[k] = self.vertex(quad[c], face, uvs[c])?;
                        }
                        self.tri(material, idx);
                    }
                    continue;
                }
                let normals: [V3; 4] = if l.faceted {
                    let (p, q) = if r0 <= 0.0 { (quad[2], quad[3]) } else { (quad[1], quad[2]) };
                    let face = normalize(cross(sub(p, quad[0]), sub(q, quad[0])));
                    [face; 4]
                } else {
                    let radial = |jj: usize, n: [f32; 2]| {
                        let a = l.phase + TAU * jj as f32 / sides as f32;
                        let local = [n[0] * cos_approx(a) / l.scale[0], n[0] * sin_approx(a) / l.scale[1], n[1]];
                        xf.dir(local)
                    };
                    [radial(j, n0), radial(j + 1, n0), radial(j + 1, n1), radial(j, n1)]
                };
                let mut idx = [0u16; 4];
                for k in 0..4 {
                    idx[k] = self.vertex(quad[k], normals[k], uvs[k])?;
                }
                for t in tris {
                    self.tri(material, t.map(|c| idx[c]));
                }
            }
        }
        Ok(())
    }

    /// Adds a box `[-hx, hx] x [-hy, hy] x [0, hz]` placed by `xf`.
    pub fn cuboid(&mut self, half: [f32; 2], height: f32, xf: Xf, material: u8) -> Result<()> {
        let r = std::f32::consts::SQRT_2;
        let prof = [h(0.0, 0.0), h(r, 0.0), h(r, height), h(0.0, height)];
        let mut l = Lathe::new(&prof, 4);
        l.phase = TAU / 8.0;
        l.scale = half;
        l.faceted = true;
        self.lathe(&l, xf, material)
    }

    /// Adds a chamfered hull: a box of half extents `half` from `z0` to `z1` whose top
    /// shrinks to `top` of the base size over the upper `chamfer` height.
    #[expect(clippy::too_many_arguments, reason = "each hull dimension is its own argument")]
    pub fn hull(
        &mut self,
        half: [f32; 2],
        z0: f32,
        z1: f32,
        chamfer: f32,
        top: f32,
        xf: Xf,
        material: u8,
    ) -> Result<()> {
        let r = std::f32::consts::SQRT_2;
        let prof = [h(0.0, z0), h(r, z0), h(r, z1 - chamfer), h(r * top, z1), h(0.0, z1)];
        let mut l = Lathe::new(&prof, 4);
        l.phase = TAU / 8.0;
        l.scale = half;
        l.faceted = true;
        self.lathe(&l, xf, material)
    }

    /// Adds a box between two corners (axis-aligned before `xf`).
    pub fn block(&mut self, lo: V3, hi: V3, xf: Xf, material: u8) -> Result<()> {
        let c = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0, lo[2]];
        self.cuboid([(hi[0] - lo[0]) / 2.0, (hi[1] - lo[1]) / 2.0], hi[2] - lo[2], xf.then(&Xf::at(c)), material)
    }

    /// Adds a capped cylinder / frustum of `height` with radii `r0` (bottom), `r1` (top).
    pub fn cylinder(&mut self, r0: f32, r1: f32, height: f32, sides: usize, xf: Xf, material: u8) -> Result<()> {
        let prof = [h(0.0, 0.0), h(r0, 0.0), h(r1, height), h(0.0, height)];
        self.lathe(&Lathe::new(&prof, sides), xf, material)
    }

    /// Adds a sphere (or an ellipsoid with `scale_z`) centred at the local origin.
    pub fn sphere(
        &mut self,
        radius: f32,
        scale_z: f32,
        rings: usize,
        sides: usize,
        xf: Xf,
        material: u8,
    ) -> Result<()> {
        let prof: Vec<P> = (0..=rings)
            .map(|k| {
                let a = -TAU / 4.0 + TAU / 2.0 * k as f32 / rings as f32;
                let r = if k == 0 || k == rings { 0.0 } else { radius * cos_approx(a) };
                s(r, radius * scale_z * sin_approx(a))
            })
            .collect();
        self.lathe(&Lathe::new(&prof, sides), xf, material)
    }

    /// Adds a torus around local Z (major radius `big`, tube radius `small`).
    pub fn torus(&mut self, big: f32, small: f32, sides: usize, tube: usize, xf: Xf, material: u8) -> Result<()> {
        let point = |i: usize, j: usize| -> (V3, V3) {
            let (a, b) = (TAU * (i % sides) as f32 / sides as f32, TAU * (j % tube) as f32 / tube as f32);
            let (ca, sa, cb, sb) = (cos_approx(a), sin_approx(a), cos_approx(b), sin_approx(b));
            let n = [cb * ca, cb * sa, sb];
            (xf.point([(big + small * cb) * ca, (big + small * cb) * sa, small * sb]), xf.dir(n))
        };
        let base = self.positions.len();
        for i in 0..=sides {
            for j in 0..=tube {
                let (p, n) = point(i, j);
                self.vertex(p, n, [i as f32 * 4.0 / sides as f32, j as f32 / tube as f32])?;
            }
        }
        let id = |i: usize, j: usize| limit(base + i * (tube + 1) + j);
        for i in 0..sides {
            for j in 0..tube {
                let (a, b, c, d) = (id(i, j)?, id(i + 1, j)?, id(i + 1, j + 1)?, id(i, j + 1)?);
                self.tri(material, [a, b, c]);
                self.tri(material, [a, c, d]);
            }
        }
        Ok(())
    }

    /// Vertex count so far.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True without vertices.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The MSH mesh data (one batch per WEAR row, in first-use order).
    pub fn into_mesh(self) -> MeshData {
        let batches = self
            .batches
            .into_iter()
            .map(|(material, indices)| MeshBatch { material, lightmap: 0, flags: 0, indices })
            .collect();
        MeshData { lightmap_uvs: Vec::new(), positions: self.positions, normals: self.normals, uvs: self.uvs, batches }
    }

    /// The MSH mesh data with every batch lightmapped (flag `0x2000`, WEAR lightmap row
    /// 0) and box-projected lightmap coordinates: each vertex is projected along its
    /// normal's dominant axis and normalised by the mesh bounds to [0, 1].
    pub fn into_lightmapped_mesh(self) -> MeshData {
        let (lo, hi) = bounds(&self.positions);
        let unit = |p: V3, k: usize| if hi[k] > lo[k] { (p[k] - lo[k]) / (hi[k] - lo[k]) } else { 0.5 };
        let lightmap_uvs = self
            .positions
            .iter()
            .zip(&self.normals)
            .map(|(&p, n)| {
                let (ax, ay, az) = (n[0].abs(), n[1].abs(), n[2].abs());
                let (a, b) = if az >= ax && az >= ay {
                    (0, 1)
                } else if ax >= ay {
                    (1, 2)
                } else {
                    (0, 2)
                };
                [unit(p, a), unit(p, b)]
            })
            .collect();
        let mut mesh = self.into_mesh();
        for b in &mut mesh.batches {
            b.flags |= LIGHTMAP_FLAG;
        }
        MeshData { lightmap_uvs, ..mesh }
    }
}

/// Signed volume of a closed triangle list (positive when wound outward).
pub fn signed_volume(positions: &[V3], indices: &[u32]) -> f32 {
    indices
        .chunks_exact(3)
        .map(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| positions[i as usize]);
            dot(a, cross(b, c)) / 6.0
        })
        .sum()
}
