//! Areal queries (`docs/reference/world.md` §3.2–3.4): point → areal (grid candidates, then an
//! exact point-in-polygon test, with an explicit miss), routes over the link graph
//! (A* with landmark bounds, deterministic) and the corridor of portals along a route.
//!
//! The grid's cell geometry and order are not documented; [`GridLayout`] makes both
//! explicit (default: the areals' XY vertex bounds split evenly, row-major with X
//! fastest).

use super::land_map::{Areal, ArealMap};
use graph::RouteGraph;
use std::borrow::Borrow;

mod graph;

/// Order of the linear cell index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellOrder {
    /// `index = y * cells_x + x` (default assumption).
    RowMajor,
    /// `index = x * cells_y + y`.
    ColumnMajor,
}

/// Geometry of the candidate grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridLayout {
    /// XY minimum of the covered extent.
    pub min: [f32; 2],
    /// XY maximum of the covered extent.
    pub max: [f32; 2],
    /// Cells along X and Y.
    pub cells: [u32; 2],
    /// Linear order.
    pub order: CellOrder,
}

impl GridLayout {
    /// The default layout over the areals' XY vertex bounds.
    pub fn fit(areals: &[Areal], cells_x: u32, cells_y: u32) -> Self {
        let (mut min, mut max) = ([f32::MAX; 2], [f32::MIN; 2]);
        for v in areals.iter().flat_map(|a| &a.vertices) {
            for k in 0..2 {
                min[k] = min[k].min(v[k]);
                max[k] = max[k].max(v[k]);
            }
        }
        if min[0] > max[0] {
            (min, max) = ([0.0; 2], [1.0; 2]);
        }
        Self { min, max, cells: [cells_x.max(1), cells_y.max(1)], order: CellOrder::RowMajor }
    }

    /// The layout over the terrain extent (the XY of the AABB of slot 0, as the
    /// terrain loader derives the map extent), or `None` without slots.
    pub fn from_terrain(terrain: &crate::world::LandMsh, cells_x: u32, cells_y: u32) -> Option<Self> {
        let slot = terrain.slots.first()?;
        let (lo, hi) = (slot.aabb_min(), slot.aabb_max());
        let ok = lo.iter().chain(&hi).all(|v| v.is_finite()) && lo[0] <= hi[0] && lo[1] <= hi[1];
        ok.then(|| Self {
            min: [lo[0], lo[1]],
            max: [hi[0], hi[1]],
            cells: [cells_x.max(1), cells_y.max(1)],
            order: CellOrder::RowMajor,
        })
    }

    fn axis(&self, v: f32, k: usize) -> u32 {
        let span = self.max[k] - self.min[k];
        // Truncation is the floor here (negative and NaN go to cell 0; no `floorf` call).
        let c = if span > 0.0 { (v - self.min[k]) / span * self.cells[k] as f32 } else { 0.0 };
        if c >= 0.0 { (c as u32).min(self.cells[k] - 1) } else { 0 }
    }

    /// The cell holding `(x, y)`, or `None` outside the extent.
    pub fn cell_xy(&self, x: f32, y: f32) -> Option<[u32; 2]> {
        let inside = x >= self.min[0] && x <= self.max[0] && y >= self.min[1] && y <= self.max[1];
        inside.then(|| [self.axis(x, 0), self.axis(y, 1)])
    }

    /// Clamped cell range `[x0, y0, x1, y1]` covering an XY box.
    pub fn cell_range(&self, lo: [f32; 2], hi: [f32; 2]) -> [u32; 4] {
        [self.axis(lo[0], 0), self.axis(lo[1], 1), self.axis(hi[0], 0), self.axis(hi[1], 1)]
    }

    /// Linear index of a cell.
    pub fn linear(&self, x: u32, y: u32) -> usize {
        match self.order {
            CellOrder::RowMajor => y as usize * self.cells[0] as usize + x as usize,
            CellOrder::ColumnMajor => x as usize * self.cells[1] as usize + y as usize,
        }
    }
}

/// A located areal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AreaHit {
    /// Areal id.
    pub area: usize,
    /// Height of the areal plane at the point.
    pub z: f32,
    /// Distance from the point to the areal boundary (larger = deeper inside).
    pub boundary_distance: f32,
}

/// One portal of a corridor: the shared edge between consecutive areals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Portal {
    /// Areal left.
    pub from: usize,
    /// Areal entered.
    pub to: usize,
    /// Edge start (vertex `k` of `from`).
    pub left: [f32; 3],
    /// Edge end (vertex `k + 1` of `from`).
    pub right: [f32; 3],
}

/// A route with its portals, for the movement layer to refine.
#[derive(Debug, Clone, PartialEq)]
pub struct Corridor {
    /// Areal ids from start to goal.
    pub areas: Vec<usize>,
    /// One portal per step.
    pub portals: Vec<Portal>,
}

impl Corridor {
    /// Portal midpoints: a coarse polyline through the corridor.
    pub fn waypoints(&self) -> Vec<[f32; 3]> {
        self.portals.iter().map(|p| [0, 1, 2].map(|k| (p.left[k] + p.right[k]) / 2.0)).collect()
    }
}

/// Queries over an areal map, borrowed (`&ArealMap`) or owned (`ArealMap`,
/// `Arc<ArealMap>`).
#[derive(Debug, Clone)]
pub struct ArealQuery<M: Borrow<ArealMap>> {
    map: M,
    layout: GridLayout,
    centroids: Vec<[f32; 3]>,
    /// XY bounds `[min_x, min_y, max_x, max_y]` of each areal, widened by `EDGE_EPS`.
    bounds: Vec<[f32; 4]>,
    graph: RouteGraph,
}

const EDGE_EPS: f32 = 1e-4;

/// XY parity test: whether `(x, y)` is strictly inside the polygon (boundary points
/// may go either way).
fn parity(vertices: &[[f32; 3]], x: f32, y: f32) -> bool {
    let mut odd = false;
    for (i, a) in vertices.iter().enumerate() {
        let b = vertices[(i + 1) % vertices.len()];
        if (a[1] > y) != (b[1] > y) && x < a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
            odd = !odd;
        }
    }
    odd
}

/// XY point-in-polygon with the distance to the boundary: `Some(distance)` when the
/// point is inside or on the boundary (within `EDGE_EPS`).
fn inside(vertices: &[[f32; 3]], x: f32, y: f32) -> Option<f32> {
    if vertices.len() < 3 {
        return None;
    }
    let odd = parity(vertices, x, y);
    let mut dist2 = f32::MAX;
    for (i, a) in vertices.iter().enumerate() {
        let b = vertices[(i + 1) % vertices.len()];
        let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
        let len2 = ex * ex + ey * ey;
        let t = if len2 > 0.0 { (((x - a[0]) * ex + (y - a[1]) * ey) / len2).clamp(0.0, 1.0) } else { 0.0 };
        let (dx, dy) = (a[0] + t * ex - x, a[1] + t * ey - y);
        dist2 = dist2.min(dx * dx + dy * dy);
    }
    let d = dist2.sqrt();
    (odd || d <= EDGE_EPS).then_some(d)
}

impl<M: Borrow<ArealMap>> ArealQuery<M> {
    /// Queries with the default grid layout.
    pub fn new(map: M) -> Self {
        let m = map.borrow();
        let layout = GridLayout::fit(&m.areals, m.cells_x, m.cells_y);
        Self::with_layout(map, layout)
    }

    /// Queries with an explicit grid layout (e.g. the terrain extent).
    pub fn with_layout(map: M, layout: GridLayout) -> Self {
        let centroids: Vec<[f32; 3]> = map
            .borrow()
            .areals
            .iter()
            .map(|a| {
                let n = a.vertices.len().max(1) as f32;
                [0, 1, 2].map(|k| a.vertices.iter().map(|v| v[k]).sum::<f32>() / n)
            })
            .collect();
        let links = map.borrow().areals.iter().map(|a| a.links.iter().filter_map(|l| l.target()).collect());
        let graph = RouteGraph::new(links, &centroids);
        let bounds = map
            .borrow()
            .areals
            .iter()
            .map(|a| {
                let (lo, hi) = a.vertices.iter().fold(([f32::MAX; 2], [f32::MIN; 2]), |(lo, hi), v| {
                    ([lo[0].min(v[0]), lo[1].min(v[1])], [hi[0].max(v[0]), hi[1].max(v[1])])
                });
                [lo[0] - EDGE_EPS, lo[1] - EDGE_EPS, hi[0] + EDGE_EPS, hi[1] + EDGE_EPS]
            })
            .collect();
        Self { map, layout, centroids, bounds, graph }
    }

    /// The grid layout in use.
    pub fn layout(&self) -> &GridLayout {
        &self.layout
    }

    /// The areal map queried.
    pub fn map(&self) -> &ArealMap {
        self.map.borrow()
    }

    /// Grid candidates at `(x, y)` (empty outside the grid).
    pub fn candidates_at(&self, x: f32, y: f32) -> &[u16] {
        match self.layout.cell_xy(x, y) {
            Some([cx, cy]) => self.map().cell(self.layout.linear(cx, cy)),
            None => &[],
        }
    }

    /// Every candidate whose polygon contains `(x, y)`, in candidate order.
    pub fn hits_at(&self, x: f32, y: f32) -> Vec<AreaHit> {
        self.hits(x, y).collect()
    }

    /// Whether any areal contains `(x, y)`, as [`ArealQuery::area_at`] would find one
    /// (cheaper: no choice among them, no boundary distance unless on the fence).
    pub fn covered(&self, x: f32, y: f32) -> bool {
        self.near(x, y).any(|(_, a)| parity(&a.vertices, x, y) || inside(&a.vertices, x, y).is_some())
    }

    /// Candidates at `(x, y)` whose widened bounds hold the point.
    fn near(&self, x: f32, y: f32) -> impl Iterator<Item = (usize, &Areal)> + '_ {
        self.candidates_at(x, y).iter().filter_map(move |&id| {
            let id = usize::from(id);
            let b = self.bounds.get(id)?;
            let outside = x < b[0] || y < b[1] || x > b[2] || y > b[3];
            let a = self.map().areals.get(id).filter(|a| a.vertices.len() >= 3 && !outside)?;
            Some((id, a))
        })
    }

    fn hits(&self, x: f32, y: f32) -> impl Iterator<Item = AreaHit> + '_ {
        self.near(x, y).filter_map(move |(area, a)| {
            let d = inside(&a.vertices, x, y)?;
            Some(AreaHit { area, z: plane_z(a, x, y), boundary_distance: d })
        })
    }

    /// The areal at `(x, y)`: among containing candidates, the one the point lies
    /// deepest inside, ties to the lower id; `None` is an explicit miss (the caller
    /// decides on a nearest-areal fallback).
    pub fn area_at(&self, x: f32, y: f32) -> Option<AreaHit> {
        self.area_at_filtered(x, y, |_| true)
    }

    /// [`ArealQuery::area_at`] restricted to areals accepted by `filter` (class id /
    /// logic flag selection).
    pub fn area_at_filtered(&self, x: f32, y: f32, filter: impl Fn(&Areal) -> bool) -> Option<AreaHit> {
        self.hits(x, y)
            .filter(|h| self.map().areals.get(h.area).is_some_and(&filter))
            .max_by(|a, b| a.boundary_distance.total_cmp(&b.boundary_distance).then(b.area.cmp(&a.area)))
    }

    /// The cheapest areal sequence from `from` to `to` over the link graph (A*, cost =
    /// centroid distance, up to f32 rounding; ties by lower areal id); `None` when
    /// unreachable.
    pub fn route(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        self.graph.route(from, to, &self.centroids)
    }

    /// The corridor of a route: for each step the boundary edge of the current areal
    /// whose link enters the next one (centroid midpoint when only a polygon link connects them).
    pub fn corridor(&self, route: &[usize]) -> Corridor {
        let portals = route
            .windows(2)
            .map(|w| {
                let (from, to) = (w[0], w[1]);
                let edge = self.map().areals.get(from).and_then(|a| {
                    let n = a.vertices.len();
                    (0..n)
                        .find(|&k| a.links.get(k).and_then(|l| l.target()) == Some(to))
                        .map(|k| (a.vertices[k], a.vertices[(k + 1) % n]))
                });
                let (left, right) = edge.unwrap_or_else(|| {
                    let (a, b) = (self.centroid(from), self.centroid(to));
                    let mid = [0, 1, 2].map(|k| (a[k] + b[k]) / 2.0);
                    (mid, mid)
                });
                Portal { from, to, left, right }
            })
            .collect();
        Corridor { areas: route.to_vec(), portals }
    }

    /// Vertex centroid of an areal (origin for an unknown id).
    pub fn centroid(&self, id: usize) -> [f32; 3] {
        self.centroids.get(id).copied().unwrap_or_default()
    }
}

/// Height of the areal plane (through vertex 0, with the stored normal) at XY.
fn plane_z(a: &Areal, x: f32, y: f32) -> f32 {
    let n = a.prefix.normal;
    let Some(p) = a.vertices.first() else { return a.prefix.anchor[2] };
    if n[2].abs() > 1e-6 { p[2] - (n[0] * (x - p[0]) + n[1] * (y - p[1])) / n[2] } else { p[2] }
}

#[cfg(test)]
mod tests;
