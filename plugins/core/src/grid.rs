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
        // Truncation is the floor here (negative and NaN go to cell 0; no `floorf` call).
        let c = (v - self.min[k]) / self.cell;
        if c >= 0.0 { (c as usize).min(self.dims[k] - 1) } else { 0 }
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

    /// The items, cell by cell in row order (each cell's items in insertion order).
    pub fn items(&self) -> &[u32] {
        &self.items
    }

    /// The cell of `p` (clamped into the grid).
    pub fn cell_of(&self, p: [f32; 2]) -> [usize; 2] {
        [self.axis(p[0], 0), self.axis(p[1], 1)]
    }

    /// A lower bound of the distance from `p` to any item stored in ring `r` around
    /// `cell` (the cell of `p`: ring `r` is the cells at Chebyshev distance `r` from it)
    /// or beyond, for items that are points; `None` when ring `r` holds no cell (the
    /// search is done). Ring 0 is the cell itself (bound 0).
    pub fn ring_gap(&self, p: [f32; 2], cell: [usize; 2], r: usize) -> Option<f32> {
        if r == 0 {
            return Some(0.0);
        }
        let mut gap = f32::INFINITY;
        for k in 0..2 {
            // Items of ring r lie left of the block of rings 0..r-1, or right of it.
            if cell[k] >= r {
                gap = gap.min(p[k] - (self.min[k] + (cell[k] + 1 - r) as f32 * self.cell));
            }
            if cell[k] + r < self.dims[k] {
                gap = gap.min(self.min[k] + (cell[k] + r) as f32 * self.cell - p[k]);
            }
        }
        // Less a little for cell indices rounded at a border.
        gap.is_finite().then_some((gap - 1e-4 * self.cell).max(0.0))
    }

    /// Calls `span` with the ranges of [`SpatialGrid::items`] that make ring `r` around
    /// `cell` (see [`SpatialGrid::ring_gap`]) and may hold a point within `within` of
    /// `p` (cells farther along an axis are left out), in a fixed order: the bottom and
    /// top rows (one range each), then the left and right cells of the rows between.
    pub fn ring_spans(
        &self,
        p: [f32; 2],
        cell: [usize; 2],
        r: usize,
        within: f32,
        mut span: impl FnMut(core::ops::Range<usize>),
    ) {
        let [w, h] = self.dims;
        let [cx, cy] = cell;
        // The cells along each axis that reach within `within` of `p`.
        let [(x_lo, x_hi), (y_lo, y_hi)] = [0, 1].map(|k| (self.axis(p[k] - within, k), self.axis(p[k] + within, k)));
        let mut row = |y: usize, x0: usize, x1: usize| {
            let (x0, x1) = (x0.max(x_lo), x1.min(x_hi));
            if x0 <= x1 && (y_lo..=y_hi).contains(&y) {
                let (a, b) = (self.starts[y * w + x0] as usize, self.starts[y * w + x1 + 1] as usize);
                if a < b {
                    span(a..b);
                }
            }
        };
        let (x0, x1) = (cx.saturating_sub(r), (cx + r).min(w - 1));
        if r == 0 {
            row(cy, cx, cx);
            return;
        }
        if cy >= r {
            row(cy - r, x0, x1);
        }
        if cy + r < h {
            row(cy + r, x0, x1);
        }
        for y in cy.saturating_sub(r - 1).max(y_lo)..(cy + r).min(h).min(y_hi + 1) {
            if cx >= r {
                row(y, cx - r, cx - r);
            }
            if cx + r < w {
                row(y, cx + r, cx + r);
            }
        }
    }
}
