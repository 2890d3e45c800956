//! Terrain height lookup (Bevy only for the resource derive): a uniform grid over the terrain triangles' X/Z
//! bounds, answering "height of the terrain surface at (x, z)" by barycentric
//! interpolation. The viewer uses it to keep track ribbons visible on top of the terrain.

use std::collections::BTreeMap;

use bevy::prelude::Resource;

/// Terrain triangles bucketed by grid cell (a resource once the scene is spawned).
#[derive(Resource, Debug, Clone, Default)]
pub struct TerrainHeights {
    cell: f64,
    triangles: Vec<[[f32; 3]; 3]>,
    cells: BTreeMap<(i64, i64), Vec<u32>>,
}

impl TerrainHeights {
    /// Indexes `triangles` (world positions) into cells of about `cell` metres.
    pub fn new(triangles: Vec<[[f32; 3]; 3]>, cell: f64) -> Self {
        let cell = if cell.is_finite() && cell > 1.0 { cell } else { 1.0 };
        let mut cells: BTreeMap<(i64, i64), Vec<u32>> = BTreeMap::new();
        for (i, t) in triangles.iter().enumerate() {
            let key = |v: f32| (f64::from(v) / cell).floor() as i64;
            let xs = t.map(|p| key(p[0]));
            let zs = t.map(|p| key(p[2]));
            let (x0, x1) = (xs.iter().min().copied().unwrap_or(0), xs.iter().max().copied().unwrap_or(0));
            let (z0, z1) = (zs.iter().min().copied().unwrap_or(0), zs.iter().max().copied().unwrap_or(0));
            // Degenerate or huge triangles: skip rather than fill millions of cells.
            if (x1 - x0 + 1) * (z1 - z0 + 1) > 4096 {
                continue;
            }
            for x in x0..=x1 {
                for z in z0..=z1 {
                    cells.entry((x, z)).or_default().push(i as u32);
                }
            }
        }
        Self { cell, triangles, cells }
    }

    /// Terrain height at (`x`, `z`): the highest triangle covering the point.
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        let key = ((f64::from(x) / self.cell).floor() as i64, (f64::from(z) / self.cell).floor() as i64);
        let list = self.cells.get(&key)?;
        list.iter()
            .filter_map(|&i| self.triangles.get(i as usize))
            .filter_map(|t| barycentric_height(t, x, z))
            .reduce(f32::max)
    }

    /// Number of indexed triangles.
    pub fn len(&self) -> usize {
        self.triangles.len()
    }

    /// True without triangles.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }
}

/// Height of triangle `t` above (`x`, `z`), `None` if the point is outside its X/Z shadow.
fn barycentric_height(t: &[[f32; 3]; 3], x: f32, z: f32) -> Option<f32> {
    let [a, b, c] = t;
    let det = (b[2] - c[2]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[2] - c[2]);
    if det.abs() < 1e-9 {
        return None;
    }
    let l1 = ((b[2] - c[2]) * (x - c[0]) + (c[0] - b[0]) * (z - c[2])) / det;
    let l2 = ((c[2] - a[2]) * (x - c[0]) + (a[0] - c[0]) * (z - c[2])) / det;
    let l3 = 1.0 - l1 - l2;
    const EPS: f32 = -1e-4;
    (l1 >= EPS && l2 >= EPS && l3 >= EPS).then(|| l1 * a[1] + l2 * b[1] + l3 * c[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolates_inside_and_misses_outside() {
        // A 10 m right triangle rising from 0 at the origin to 10 at x = 10.
        let t = [[0.0, 0.0, 0.0], [10.0, 10.0, 0.0], [0.0, 0.0, 10.0]];
        let h = TerrainHeights::new(vec![t], 4.0);
        assert_eq!(h.height_at(5.0, 2.0), Some(5.0));
        assert_eq!(h.height_at(0.0, 0.0), Some(0.0));
        assert_eq!(h.height_at(9.0, 9.0), None, "beyond the hypotenuse");
        assert_eq!(h.height_at(-1.0, 1.0), None);
        assert_eq!(h.height_at(500.0, 500.0), None, "no cell");
    }

    #[test]
    fn overlapping_triangles_give_the_highest() {
        let low = [[0.0, 1.0, 0.0], [10.0, 1.0, 0.0], [0.0, 1.0, 10.0]];
        let high = [[0.0, 3.0, 0.0], [10.0, 3.0, 0.0], [0.0, 3.0, 10.0]];
        let h = TerrainHeights::new(vec![low, high], 100.0);
        assert_eq!(h.height_at(1.0, 1.0), Some(3.0));
        assert_eq!(h.len(), 2);
    }

    #[test]
    fn degenerate_input_does_not_panic() {
        let flat = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]];
        let h = TerrainHeights::new(vec![flat], f64::NAN);
        assert_eq!(h.height_at(1.0, 0.0), None);
        assert!(TerrainHeights::default().is_empty());
    }
}
