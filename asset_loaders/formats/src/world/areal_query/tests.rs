use super::*;
use crate::world::land_map::ArealMapBuilder;

/// A `w × h` board of unit squares; squares listed in `holes` are left out.
fn board(w: usize, h: usize, holes: &[(usize, usize)]) -> (ArealMap, Vec<Option<usize>>) {
    let mut b = ArealMapBuilder::new();
    let mut ids = vec![None; w * h];
    for j in 0..h {
        for i in 0..w {
            if holes.contains(&(i, j)) {
                continue;
            }
            let (x, y) = (i as f32, j as f32);
            let id = b
                .add_polygon(vec![[x, y, 0.5], [x + 1.0, y, 0.5], [x + 1.0, y + 1.0, 0.5], [x, y + 1.0, 0.5]], 0, 0)
                .unwrap();
            ids[j * w + i] = Some(usize::from(id));
        }
    }
    (b.build(w as u32, h as u32).unwrap(), ids)
}

#[test]
fn area_at_tests_candidates_exactly_and_misses_explicitly() {
    let (map, ids) = board(4, 3, &[(2, 1)]);
    let q = ArealQuery::new(&map);
    let hit = q.area_at(1.5, 2.25).unwrap();
    assert_eq!(Some(hit.area), ids[2 * 4 + 1]);
    assert_eq!(hit.z, 0.5);
    assert!(q.candidates_at(1.5, 2.25).len() <= 4, "grid gives a few candidates, not all areals");
    assert_eq!(q.area_at(2.5, 1.5), None, "hole: candidates exist but none contains the point");
    assert_eq!(q.area_at(-1.0, 0.5), None, "outside the grid");
    assert_eq!(q.area_at(9.0, 9.0), None);
}

#[test]
fn shared_boundaries_resolve_deterministically() {
    let (map, _) = board(2, 1, &[]);
    let q = ArealQuery::new(&map);
    // On the shared edge both contain the point at distance 0: lower id wins.
    let hits = q.hits_at(1.0, 0.5);
    assert_eq!(hits.len(), 2);
    assert_eq!(q.area_at(1.0, 0.5).unwrap().area, 0);
    // Slightly right of the edge the point is deeper inside areal 1.
    assert_eq!(q.area_at(1.001, 0.5).unwrap().area, 1);
    // A filter on class/logic flags can exclude candidates.
    assert_eq!(q.area_at_filtered(1.0, 0.5, |a| a.vertices[0][0] > 0.5).unwrap().area, 1);
}

#[test]
fn overlapping_areals_choose_by_geometry_not_first_id() {
    let mut b = ArealMapBuilder::new();
    b.add_polygon(vec![[0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [10.0, 10.0, 0.0], [0.0, 10.0, 0.0]], 0, 0).unwrap();
    b.add_polygon(vec![[4.0, 4.0, 1.0], [6.0, 4.0, 1.0], [6.0, 6.0, 1.0], [4.0, 6.0, 1.0]], 0, 0).unwrap();
    let map = b.build(1, 1).unwrap();
    let q = ArealQuery::new(&map);
    assert_eq!(q.area_at(4.1, 5.0).unwrap().area, 0, "closer to the small areal's edge than the big one's");
    let mid = q.area_at(5.0, 5.0).unwrap();
    assert_eq!((mid.area, mid.boundary_distance), (0, 5.0));
}

#[test]
fn routes_go_around_holes_with_a_deterministic_tie_break() {
    let (map, ids) = board(5, 3, &[(2, 0), (2, 1)]);
    let id = |i: usize, j: usize| ids[j * 5 + i].unwrap();
    let q = ArealQuery::new(&map);
    let route = q.route(id(0, 0), id(4, 0)).unwrap();
    assert_eq!(route.first(), Some(&id(0, 0)));
    assert_eq!(route.last(), Some(&id(4, 0)));
    assert!(route.contains(&id(2, 2)), "must pass the only gap: {route:?}");
    for w in route.windows(2) {
        assert!(map.areals[w[0]].links.iter().any(|l| l.target() == Some(w[1])), "steps follow links");
    }
    assert_eq!(q.route(id(0, 0), id(4, 0)), Some(route.clone()), "repeatable");
    // Two equal-cost paths around a square: the lower ids are preferred.
    let (square, sid) = board(2, 2, &[]);
    let q2 = ArealQuery::new(&square);
    let r = q2.route(sid[0].unwrap(), sid[3].unwrap()).unwrap();
    assert_eq!(r, vec![0, 1, 3]);
    assert_eq!(q.route(id(0, 0), id(0, 0)), Some(vec![id(0, 0)]));
    assert_eq!(q.route(0, 999), None);
    let (islands, iid) = board(3, 1, &[(1, 0)]);
    assert_eq!(ArealQuery::new(&islands).route(iid[0].unwrap(), iid[2].unwrap()), None, "unreachable");
}

#[test]
fn corridor_portals_are_the_shared_edges() {
    let (map, _) = board(3, 1, &[]);
    let q = ArealQuery::new(&map);
    let route = q.route(0, 2).unwrap();
    let c = q.corridor(&route);
    assert_eq!(c.portals.len(), 2);
    let p = c.portals[0];
    assert_eq!((p.from, p.to), (0, 1));
    assert_eq!((p.left[0], p.right[0]), (1.0, 1.0), "edge x = 1");
    assert_eq!(c.waypoints()[1], [2.0, 0.5, 0.5]);
}

#[test]
fn column_major_layout_is_selectable() {
    let (map, _) = board(3, 2, &[]);
    let mut layout = *ArealQuery::new(&map).layout();
    assert_eq!(layout.linear(2, 1), 5);
    layout.order = CellOrder::ColumnMajor;
    assert_eq!(layout.linear(2, 1), 5);
    assert_eq!(layout.linear(1, 0), 2);
    assert_eq!(layout.cell_xy(0.5, 1.5), Some([0, 1]));
    assert_eq!(layout.cell_xy(3.5, 1.5), None);
}

#[test]
fn terrain_extent_layout_matches_the_default_for_a_matching_terrain() {
    let (map, _) = board(4, 2, &[]);
    let terrain = crate::world::TerrainBuilder::height_field(4, 2, 1.0, |_, _| 0.0).unwrap();
    let layout = GridLayout::from_terrain(&terrain, map.cells_x, map.cells_y).unwrap();
    assert_eq!(layout, *ArealQuery::new(&map).layout());
    let q = ArealQuery::with_layout(&map, layout);
    assert_eq!(q.area_at(3.5, 1.5).map(|h| h.area), Some(7));
}

#[test]
fn covered_agrees_with_area_at_everywhere_including_edges_and_holes() {
    let (map, _) = board(5, 4, &[(1, 1), (3, 2)]);
    let q = ArealQuery::new(&map);
    let mut misses = 0;
    for j in -4..=44 {
        for i in -4..=54 {
            let (x, y) = (i as f32 / 10.0, j as f32 / 10.0);
            assert_eq!(q.covered(x, y), q.area_at(x, y).is_some(), "at ({x}, {y})");
            misses += usize::from(!q.covered(x, y));
        }
    }
    assert!(misses > 100, "holes and the outside are not covered: {misses}");
}

#[test]
fn routes_are_cheapest_with_landmark_bounds_on_a_large_board() {
    // The reference cost is Dijkstra over the same links.
    let (map, ids) = board(30, 30, &[(10, 5), (10, 6), (10, 7), (10, 8), (20, 20), (5, 25)]);
    let q = ArealQuery::new(&map);
    let cost = |route: &[usize]| route.windows(2).map(|w| dist3(q.centroid(w[0]), q.centroid(w[1]))).sum::<f32>();
    let reference = |from: usize, to: usize| {
        // Dijkstra over the same links.
        let n = map.areals.len();
        let mut d = vec![f32::INFINITY; n];
        let mut done = vec![false; n];
        d[from] = 0.0;
        while let Some(a) = (0..n).filter(|&a| !done[a] && d[a].is_finite()).min_by(|&a, &b| d[a].total_cmp(&d[b])) {
            done[a] = true;
            for t in map.areals[a].links.iter().filter_map(|l| l.target()).filter(|&t| t < n) {
                d[t] = d[t].min(d[a] + dist3(q.centroid(a), q.centroid(t)));
            }
        }
        d[to]
    };
    for (from, to) in [((0, 0), (29, 29)), ((0, 7), (29, 7)), ((29, 0), (0, 29)), ((4, 25), (6, 25))] {
        let (a, b) = (ids[from.1 * 30 + from.0].unwrap(), ids[to.1 * 30 + to.0].unwrap());
        let route = q.route(a, b).unwrap();
        assert_eq!((route[0], *route.last().unwrap()), (a, b));
        let (got, want) = (cost(&route), reference(a, b));
        assert!((got - want).abs() <= want * 1e-5, "{from:?} -> {to:?}: {got} vs cheapest {want}");
    }
}

fn dist3(a: [f32; 3], b: [f32; 3]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}
