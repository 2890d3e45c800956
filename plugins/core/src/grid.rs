//! A uniform XY grid of boxes (the broad phase of Wizard and Control): items are
//! indices into the caller's array, stored per cell in insertion order, so queries are
//! deterministic. Building is linear in items (cells are at most about twice as many).

/// Cells along each axis at most, whatever the extent (larger extents get larger cells).
const MAX_CELLS_PER_AXIS: usize = 1024;

/// The grid.
#[derive(Debug, Clone, Default)]
pub struct SpatialGrid {
    min: [f32; 2],
    cell: f32,
    dims: [usize; 2],
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl SpatialGrid {
    /// A grid of cells about `cell` wide over `boxes` (`[min, max]` per item).
    pub fn build(boxes: &[[[f32; 2]; 2]], cell: f32) -> Self {
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for b in boxes {
            for k in 0..2 {
                lo[k] = lo[k].min(b[0][k]);
                hi[k] = hi[k].max(b[1][k]);
            }
        }
        if boxes.is_empty() || !lo.iter().chain(&hi).all(|v| v.is_finite()) {
            return Self { cell: 1.0, dims: [1, 1], starts: vec![0, 0], ..Self::default() };
        }
        let extent = (hi[0] - lo[0]).max(hi[1] - lo[1]);
        // About two cells per item at most: a sparse world does not pay for empty cells.
        let sparse = extent / (2.0 * boxes.len() as f32).sqrt();
        let cell = cell.max(extent / MAX_CELLS_PER_AXIS as f32).max(sparse).max(f32::EPSILON);
        let dims = [0, 1].map(|k| (((hi[k] - lo[k]) / cell) as usize + 1).min(MAX_CELLS_PER_AXIS));
        let mut grid = Self { min: lo, cell, dims, starts: vec![0; dims[0] * dims[1] + 1], items: Vec::new() };
        let ranges: Vec<[usize; 4]> = boxes.iter().map(|b| grid.range(b[0], b[1])).collect();
        for r in &ranges {
            for y in r[1]..=r[3] {
                for x in r[0]..=r[2] {
                    grid.starts[y * dims[0] + x + 1] += 1;
                }
            }
        }
        for i in 1..grid.starts.len() {
            grid.starts[i] += grid.starts[i - 1];
        }
        let mut fill = grid.starts.clone();
        grid.items = vec![0; grid.starts[dims[0] * dims[1]] as usize];
        for (item, r) in ranges.iter().enumerate() {
            for y in r[1]..=r[3] {
                for x in r[0]..=r[2] {
                    let slot = &mut fill[y * dims[0] + x];
                    grid.items[*slot as usize] = item as u32;
                    *slot += 1;
                }
            }
        }
        grid
    }

    fn axis(&self, v: f32, k: usize) -> usize {
        let c = ((v - self.min[k]) / self.cell).floor();
        if c.is_nan() || c < 0.0 { 0 } else { (c as usize).min(self.dims[k] - 1) }
    }

    fn range(&self, lo: [f32; 2], hi: [f32; 2]) -> [usize; 4] {
        [self.axis(lo[0], 0), self.axis(lo[1], 1), self.axis(hi[0], 0), self.axis(hi[1], 1)]
    }

    /// Appends to `out` the items of every cell the box `lo..hi` touches (an item in
    /// several cells appears once per cell).
    pub fn query(&self, lo: [f32; 2], hi: [f32; 2], out: &mut Vec<u32>) {
        let r = self.range(lo, hi);
        for y in r[1]..=r[3] {
            for x in r[0]..=r[2] {
                let i = y * self.dims[0] + x;
                if let (Some(&a), Some(&b)) = (self.starts.get(i), self.starts.get(i + 1)) {
                    out.extend_from_slice(&self.items[a as usize..b as usize]);
                }
            }
        }
    }
}
