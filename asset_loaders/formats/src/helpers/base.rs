//! BASE building basements (`.bas`, `docs/reference/registry.md` §5.6) — *inferred layout*:
//! footprint contours. Never interpreted as a mesh; preserved 1:1.
//!
//! ```text
//! u32 inner_count; repeat: u32 n, vec3 point[n+1], u32 a[n] (opaque), u32 b[n]
//! u32 outer_count; repeat: u32 n, vec3 point[n+1]
//! ```

use super::count_u32;
use crate::bytes::Cursor;
use crate::error::{Error, Result};

/// An inner polygon: `n + 1` points and two opaque `n`-word arrays.
#[derive(Debug, Clone, PartialEq)]
pub struct InnerPolygon {
    /// `n + 1` points (bits kept exactly).
    pub points: Vec<[f32; 3]>,
    /// Array `a` — *opaque*.
    pub a: Vec<u32>,
    /// Array `b` — *opaque* (looks like a vertex order).
    pub b: Vec<u32>,
}

/// A parsed `.bas` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Base {
    /// Inner polygons.
    pub inner: Vec<InnerPolygon>,
    /// Outer polygons (`n + 1` points each).
    pub outer: Vec<Vec<[f32; 3]>>,
}

fn read_points(c: &mut Cursor<'_>, n: u32) -> Result<Vec<[f32; 3]>> {
    let count = u64::from(n) + 1;
    c.check_count(count, 12, "BASE points")?;
    let mut pts = Vec::with_capacity(count as usize);
    for _ in 0..count {
        pts.push(c.vec3()?);
    }
    Ok(pts)
}

fn read_words(c: &mut Cursor<'_>, n: u32) -> Result<Vec<u32>> {
    c.check_count(u64::from(n), 4, "BASE words")?;
    (0..n).map(|_| c.u32()).collect()
}

fn write_points(out: &mut Vec<u8>, pts: &[[f32; 3]]) -> Result<()> {
    if pts.is_empty() {
        return Err(Error::invalid(0, "base_points", "a polygon stores n + 1 ≥ 1 points"));
    }
    out.extend_from_slice(&count_u32(pts.len() - 1, "points")?.to_le_bytes());
    for p in pts {
        for v in p {
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
    }
    Ok(())
}

impl Base {
    /// Parses; must end exactly at the payload end.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data);
        let inner_count = c.u32()?;
        c.check_count(u64::from(inner_count), 16, "inner polygons")?;
        let mut inner = Vec::with_capacity(inner_count as usize);
        for _ in 0..inner_count {
            let n = c.u32()?;
            let points = read_points(&mut c, n)?;
            let a = read_words(&mut c, n)?;
            let b = read_words(&mut c, n)?;
            inner.push(InnerPolygon { points, a, b });
        }
        let outer_count = c.u32()?;
        c.check_count(u64::from(outer_count), 16, "outer polygons")?;
        let mut outer = Vec::with_capacity(outer_count as usize);
        for _ in 0..outer_count {
            let n = c.u32()?;
            outer.push(read_points(&mut c, n)?);
        }
        c.expect_end("BASE")?;
        Ok(Self { inner, outer })
    }

    /// Serialises byte for byte; `a` and `b` must hold `points.len() − 1` words.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = count_u32(self.inner.len(), "inner polygons")?.to_le_bytes().to_vec();
        for p in &self.inner {
            if p.a.len() + 1 != p.points.len() || p.b.len() + 1 != p.points.len() {
                return Err(Error::invalid(0, "base_arrays", "a and b need one word per edge (points − 1)"));
            }
            write_points(&mut out, &p.points)?;
            for w in p.a.iter().chain(&p.b) {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&count_u32(self.outer.len(), "outer polygons")?.to_le_bytes());
        for p in &self.outer {
            write_points(&mut out, p)?;
        }
        Ok(out)
    }

    /// Authoring: one inner contour from a closed point list (last point repeats the
    /// first is *not* assumed; `n + 1` points are written as given) with zero `a` words
    /// and `b = 0..n` (the opaque arrays get neutral values; document when shipping).
    pub fn footprint(points: Vec<[f32; 3]>) -> Result<Self> {
        let n = points.len().checked_sub(1).ok_or_else(|| Error::invalid(0, "base_points", "no points"))?;
        let b = (0..count_u32(n, "edges")?).collect();
        Ok(Self { inner: vec![InnerPolygon { points, a: vec![0; n], b }], outer: Vec::new() })
    }
}
