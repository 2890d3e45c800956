//! Building new areal maps: polygons in, links (shared edges) and the candidate grid
//! computed.

use super::*;
use crate::world::areal_query::GridLayout;
use std::collections::HashMap;

/// Collects areal polygons for a new map.
#[derive(Debug, Clone, Default)]
pub struct ArealMapBuilder {
    areals: Vec<Areal>,
}

/// An XY point by its exact bits.
type PointKey = (u32, u32);

fn key(p: [f32; 3]) -> PointKey {
    (p[0].to_bits(), p[1].to_bits())
}

impl ArealMapBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an areal with boundary `vertices` (counter-clockwise from +Z) and returns
    /// its id. Anchor = vertex centroid, metric = XY area, normal from the polygon.
    pub fn add_polygon(&mut self, vertices: Vec<[f32; 3]>, class_id: u32, logic_flag: u32) -> Result<u16> {
        let id =
            u16::try_from(self.areals.len()).map_err(|_| Error::invalid(0, "areal_count", "at most 65536 areals"))?;
        if vertices.len() < 3 {
            return Err(Error::invalid(0, "areal_vertices", format!("areal {id} has {} vertices", vertices.len())));
        }
        let n = vertices.len() as f32;
        let anchor = [0, 1, 2].map(|k| vertices.iter().map(|v| v[k]).sum::<f32>() / n);
        let mut normal = [0f32; 3];
        for (i, a) in vertices.iter().enumerate() {
            let b = vertices[(i + 1) % vertices.len()];
            normal[0] += (a[1] - b[1]) * (a[2] + b[2]);
            normal[1] += (a[2] - b[2]) * (a[0] + b[0]);
            normal[2] += (a[0] - b[0]) * (a[1] + b[1]);
        }
        let len = (normal.iter().map(|x| x * x).sum::<f32>()).sqrt();
        let normal = if len > 0.0 { normal.map(|x| x / len) } else { [0.0, 0.0, 1.0] };
        let area = vertices
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let b = vertices[(i + 1) % vertices.len()];
                a[0] * b[1] - b[0] * a[1]
            })
            .sum::<f32>()
            .abs()
            / 2.0;
        let prefix =
            ArealPrefix56 { anchor, area_metric: area, normal, logic_flag, class_id, ..ArealPrefix56::default() };
        let links = vec![EdgeLink8::NONE; vertices.len()];
        self.areals.push(Areal { prefix, vertices, links, polys: Vec::new() });
        Ok(id)
    }

    /// Links shared edges (same XY endpoints in opposite order) and builds a
    /// `cells_x × cells_y` grid over the vertex bounds (row-major, X fastest).
    pub fn build(mut self, cells_x: u32, cells_y: u32) -> Result<ArealMap> {
        let mut edges: HashMap<(PointKey, PointKey), (usize, usize)> = HashMap::new();
        for (i, a) in self.areals.iter().enumerate() {
            for k in 0..a.vertices.len() {
                let (p, q) = (a.vertices[k], a.vertices[(k + 1) % a.vertices.len()]);
                edges.entry((key(p), key(q))).or_insert((i, k));
            }
        }
        for i in 0..self.areals.len() {
            let n = self.areals[i].vertices.len();
            for k in 0..n {
                let (p, q) = (self.areals[i].vertices[k], self.areals[i].vertices[(k + 1) % n]);
                if let Some(&(j, e)) = edges.get(&(key(q), key(p))).filter(|(j, _)| *j != i) {
                    self.areals[i].links[k] = EdgeLink8 { area_ref: j as i32, edge_ref: e as i32 };
                }
            }
        }
        let mut map = ArealMap {
            areals: self.areals,
            cells_x: 1,
            cells_y: 1,
            cells: Vec::new(),
            pool: Vec::new(),
            row: None,
            doc: None,
        };
        let layout = GridLayout::fit(&map.areals, cells_x, cells_y);
        let mut lists = vec![Vec::new(); (cells_x as usize).saturating_mul(cells_y as usize)];
        for (id, a) in map.areals.iter().enumerate() {
            let lo = [0, 1].map(|k| a.vertices.iter().map(|v| v[k]).fold(f32::MAX, f32::min));
            let hi = [0, 1].map(|k| a.vertices.iter().map(|v| v[k]).fold(f32::MIN, f32::max));
            let [x0, y0, x1, y1] = layout.cell_range(lo, hi);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if let Some(list) = lists.get_mut(layout.linear(x, y)) {
                        list.push(id as u16);
                    }
                }
            }
        }
        map.set_grid(cells_x, cells_y, &lists)?;
        Ok(map)
    }
}
