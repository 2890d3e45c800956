//! The link graph of an areal map, prepared for routing: every link in one array with
//! its cost (the distance between the two centroids), and the graph distances from and
//! to a few landmark areals. Landmarks give A* a heuristic that never overestimates
//! (triangle inequality) and is far tighter than the straight line, so a route across
//! a map of thousands of areals expands little more than the areals along it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Landmarks per map.
const LANDMARKS: usize = 4;

#[derive(Debug, Clone, Copy)]
struct Edge {
    to: u32,
    cost: f32,
}

/// Links in compressed rows: the links of areal `a` are `edges[start[a]..start[a + 1]]`.
#[derive(Debug, Clone, Default)]
struct Rows {
    start: Vec<u32>,
    edges: Vec<Edge>,
}

impl Rows {
    fn of(&self, a: usize) -> &[Edge] {
        &self.edges[self.start[a] as usize..self.start[a + 1] as usize]
    }

    /// The same links reversed.
    fn reversed(&self) -> Rows {
        let n = self.start.len() - 1;
        let mut count = vec![0u32; n + 1];
        self.edges.iter().for_each(|e| count[e.to as usize + 1] += 1);
        for a in 0..n {
            count[a + 1] += count[a];
        }
        let mut fill = count.clone();
        let mut edges = vec![Edge { to: 0, cost: 0.0 }; self.edges.len()];
        for a in 0..n {
            for e in self.of(a) {
                let slot = &mut fill[e.to as usize];
                edges[*slot as usize] = Edge { to: a as u32, cost: e.cost };
                *slot += 1;
            }
        }
        Rows { start: count, edges }
    }

    /// Graph distances from `source` (infinite where unreachable).
    fn distances(&self, source: usize) -> Vec<f32> {
        let mut d = vec![f32::INFINITY; self.start.len() - 1];
        let mut open = BinaryHeap::new();
        d[source] = 0.0;
        open.push(Reverse(key(0.0, source)));
        while let Some(Reverse(k)) = open.pop() {
            let (dist, a) = unkey(k);
            if dist > d[a] {
                continue;
            }
            for e in self.of(a) {
                let cand = dist + e.cost;
                if cand < d[e.to as usize] {
                    d[e.to as usize] = cand;
                    open.push(Reverse(key(cand, e.to as usize)));
                }
            }
        }
        d
    }
}

/// Heap key of a non-negative cost and an areal: cost first, then the lower id.
fn key(cost: f32, id: usize) -> u64 {
    (u64::from(cost.to_bits()) << 32) | id as u64
}

fn unkey(k: u64) -> (f32, usize) {
    (f32::from_bits((k >> 32) as u32), (k & 0xFFFF_FFFF) as usize)
}

/// Distances from a landmark (`from[v]`) and to it (`to[v]`).
#[derive(Debug, Clone)]
struct Landmark {
    from: Vec<f32>,
    to: Vec<f32>,
}

/// The routing graph.
#[derive(Debug, Clone, Default)]
pub(super) struct RouteGraph {
    rows: Rows,
    landmarks: Vec<Landmark>,
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

impl RouteGraph {
    /// The graph of `links` (per areal, its link targets in link order; targets out of
    /// range and self-links are dropped), costed by `centroids`.
    pub(super) fn new(links: impl Iterator<Item = Vec<usize>>, centroids: &[[f32; 3]]) -> Self {
        let n = centroids.len();
        let mut rows = Rows { start: vec![0], edges: Vec::new() };
        for (a, targets) in links.enumerate().take(n) {
            for t in targets.into_iter().filter(|&t| t < n && t != a) {
                rows.edges.push(Edge { to: t as u32, cost: dist(centroids[a], centroids[t]) });
            }
            rows.start.push(rows.edges.len() as u32);
        }
        rows.start.resize(n + 1, rows.edges.len() as u32);
        let landmarks = Self::landmarks(&rows, n);
        Self { rows, landmarks }
    }

    /// Landmarks chosen farthest first: the areal farthest (by graph distance) from
    /// areal 0, then each time the one farthest from every landmark so far, ties to the
    /// lower id. Areals no landmark reaches keep the straight-line bound.
    fn landmarks(rows: &Rows, n: usize) -> Vec<Landmark> {
        let farthest = |d: &[f32]| {
            d.iter()
                .enumerate()
                .filter(|(_, x)| x.is_finite())
                .fold((0, -1.0), |b, (v, &x)| if x > b.1 { (v, x) } else { b })
        };
        let mut out: Vec<Landmark> = Vec::new();
        if n == 0 {
            return out;
        }
        let back = rows.reversed();
        let (mut next, _) = farthest(&rows.distances(0));
        let mut nearest = vec![f32::INFINITY; n];
        while out.len() < LANDMARKS {
            let landmark = Landmark { from: rows.distances(next), to: back.distances(next) };
            nearest.iter_mut().zip(&landmark.from).for_each(|(m, d)| *m = m.min(*d));
            out.push(landmark);
            let (v, d) = farthest(&nearest);
            if d <= 0.0 {
                break;
            }
            next = v;
        }
        out
    }

    /// A lower bound of the cost from `v` to `t` (infinite when `t` is unreachable).
    fn bound(&self, v: usize, t: usize, straight: f32) -> f32 {
        // A NaN term (both distances infinite) says nothing; `max` skips it.
        self.landmarks.iter().fold(straight, |h, l| h.max(l.from[t] - l.from[v]).max(l.to[v] - l.to[t]))
    }

    /// A* from `from` to `to`; ties by the lower areal id.
    pub(super) fn route(&self, from: usize, to: usize, centroids: &[[f32; 3]]) -> Option<Vec<usize>> {
        let n = centroids.len();
        if from >= n || to >= n {
            return None;
        }
        let h = |v: usize| self.bound(v, to, dist(centroids[v], centroids[to]));
        let mut g = vec![f32::INFINITY; n];
        let mut prev = vec![u32::MAX; n];
        let mut closed = vec![false; n];
        let mut open = BinaryHeap::new();
        g[from] = 0.0;
        open.push(Reverse(key(h(from), from)));
        while let Some(Reverse(k)) = open.pop() {
            let (_, a) = unkey(k);
            if a == to {
                let mut path = vec![to];
                let mut cur = to;
                while cur != from {
                    cur = prev[cur] as usize;
                    path.push(cur);
                }
                path.reverse();
                return Some(path);
            }
            if std::mem::replace(&mut closed[a], true) {
                continue;
            }
            for e in self.rows.of(a) {
                let next = e.to as usize;
                let cand = g[a] + e.cost;
                if cand < g[next] && !closed[next] {
                    let f = cand + h(next);
                    if f.is_finite() {
                        g[next] = cand;
                        prev[next] = a as u32;
                        open.push(Reverse(key(f, next)));
                    }
                }
            }
        }
        None
    }
}
