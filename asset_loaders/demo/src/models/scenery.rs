//! Scenery: rocks (displaced faceted spheres), conifers and broadleaf trees, crystal
//! clusters, a ruin and a lamp pole. Variation comes from a per-stem random stream
//! derived from the stem name only, so it is the same at every level of detail.

use super::shapes::{Lathe, P, h, s};
use super::{Kit, ModelSpec, Node, Point, sides};
use crate::geometry::{PI, TAU, V3, Xf, cos_approx, sin_approx};
use iron3d_formats::Result;
use iron3d_formats::rng::SplitMix64;

/// The spec of a scenery stem.
pub fn spec(stem: &str) -> Option<ModelSpec> {
    let generator: super::Generator = match stem {
        "s_rock_0_01" => |k, l| rock(k, l, 1, 2.0, 0.7),
        "s_rock_0_02" => |k, l| rock(k, l, 2, 3.5, 0.55),
        "s_rock_0_03" => |k, l| rock(k, l, 3, 1.2, 0.9),
        "s_rock_0_04" => |k, l| rock(k, l, 4, 5.0, 0.4),
        "s_tree_0_01" => |k, l| conifer(k, l, 9.0, 3),
        "s_tree_0_02" => |k, l| conifer(k, l, 13.0, 4),
        "s_tree_0_03" => |k, l| broadleaf(k, l, 7.0, 3.0, 1),
        "s_tree_0_04" => |k, l| broadleaf(k, l, 10.0, 4.2, 2),
        "s_crys_0_01" => |k, l| crystals(k, l, 1, 5),
        "s_crys_0_02" => |k, l| crystals(k, l, 2, 8),
        "s_ruin_0_01" => ruin,
        "s_pole_0_01" => pole,
        _ => return None,
    };
    let points: Vec<Point> = vec![("Root", 0, [0.0; 3], [1.0, 0.0, 0.0])];
    Some(ModelSpec { generator, points, footprint: [1.0, 1.0], lightmap: false, places: Vec::new() })
}

/// The sphere profile with `rings` rings of radius `r`, height scale `sz`.
fn ball(r: f32, sz: f32, rings: usize) -> Vec<P> {
    (0..=rings)
        .map(|i| {
            let a = -PI / 2.0 + PI * i as f32 / rings as f32;
            s(if i == 0 || i == rings { 0.0 } else { r * cos_approx(a) }, r * sz * (1.0 + sin_approx(a)))
        })
        .collect()
}

/// A random radial factor per lattice point of a lathe, fixed for all LODs by sampling
/// on the coarsest angle grid (periodic in `side`).
fn bumps(variant: u64, rings: usize, sides: usize, amount: f32) -> impl Fn(usize, usize, V3) -> V3 {
    let mut rng = SplitMix64::stream(variant, "scenery/bumps");
    let grid: Vec<f32> = (0..64).map(|_| 1.0 - amount + 2.0 * amount * rng.unit()).collect();
    move |ring: usize, side: usize, p: V3| {
        let k = grid[(ring * 7 + side * 64 / sides.max(1) * 3 / 8 + rings) % 64];
        [p[0] * k, p[1] * k, p[2] * (0.85 + 0.15 * k)]
    }
}

fn rock(k: &mut Kit, lod: usize, variant: u64, r: f32, flat: f32) -> Result<Vec<Node>> {
    let mut n = Node::new("rock", None, [0.0; 3]);
    let rings = sides(lod, 7, 4);
    let around = sides(lod, 10, 5);
    let prof = ball(r, flat, rings);
    let d = bumps(variant, rings, around, 0.25);
    let mut l = Lathe::new(&prof, around);
    l.displace = Some(&d);
    l.phase = variant as f32;
    n.geo.lathe(&l, Xf::at([0.0, 0.0, -r * flat * 0.3]), k.m("ROCK"))?;
    Ok(vec![n])
}

fn conifer(k: &mut Kit, lod: usize, ht: f32, tiers: usize) -> Result<Vec<Node>> {
    let mut n = Node::new("tree", None, [0.0; 3]);
    let around = sides(lod, 10, 5);
    n.geo.cylinder(0.35, 0.25, ht * 0.35, sides(lod, 8, 4), Xf::ID, k.m("BARK"))?;
    for t in 0..tiers {
        let f = t as f32 / tiers as f32;
        let r = ht * 0.28 * (1.0 - f * 0.6);
        let z = ht * (0.25 + 0.6 * f);
        let prof = [h(0.0, 0.0), h(r, 0.0), h(r * 0.95, r * 0.15), h(0.0, r * 1.6)];
        let mut l = Lathe::new(&prof, around);
        l.phase = t as f32 * 0.7;
        l.faceted = true;
        n.geo.lathe(&l, Xf::at([0.0, 0.0, z]), k.m("LEAVES"))?;
    }
    Ok(vec![n])
}

fn broadleaf(k: &mut Kit, lod: usize, ht: f32, crown: f32, variant: u64) -> Result<Vec<Node>> {
    let mut n = Node::new("tree", None, [0.0; 3]);
    n.geo.cylinder(0.45, 0.3, ht * 0.6, sides(lod, 8, 4), Xf::ID, k.m("BARK"))?;
    let rings = sides(lod, 7, 4);
    let around = sides(lod, 12, 5);
    let prof = ball(crown, 0.8, rings);
    let d = bumps(variant + 10, rings, around, 0.18);
    let mut l = Lathe::new(&prof, around);
    l.displace = Some(&d);
    n.geo.lathe(&l, Xf::at([0.0, 0.0, ht * 0.45]), k.m("LEAVES"))?;
    Ok(vec![n])
}

fn crystals(k: &mut Kit, _lod: usize, variant: u64, count: usize) -> Result<Vec<Node>> {
    let mut n = Node::new("crystals", None, [0.0; 3]);
    let mut rng = SplitMix64::stream(variant, "scenery/crystals");
    for i in 0..count {
        let ht = rng.range(1.5, 4.5);
        let r = ht * 0.16;
        let prof = [h(0.0, -0.5), h(r, -0.5), h(r, ht), h(0.0, ht + r * 1.8)];
        let mut l = Lathe::new(&prof, 6);
        l.faceted = true;
        let a = TAU * i as f32 / count as f32;
        let d = if i == 0 { 0.0 } else { rng.range(0.6, 1.4) };
        let tilt = if i == 0 { 0.0 } else { rng.range(0.2, 0.6) };
        let xf = Xf::at([d * cos_approx(a), d * sin_approx(a), 0.0]).then(&Xf::rot_z(a)).then(&Xf::rot_y(tilt));
        n.geo.lathe(&l, xf, k.m("CRYSTAL"))?;
    }
    Ok(vec![n])
}

fn ruin(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut n = Node::new("ruin", None, [0.0; 3]);
    let m = k.m("CONCRETE");
    n.geo.block([-4.0, -3.0, -0.2], [4.0, 3.0, 0.3], Xf::ID, m)?;
    n.geo.block([-3.8, -2.9, 0.3], [-3.0, 2.9, 3.5], Xf::ID, m)?;
    n.geo.block([-3.0, 2.1, 0.3], [1.0, 2.9, 2.2], Xf::ID, m)?;
    n.geo.block([1.0, 2.1, 0.3], [2.0, 2.9, 1.1], Xf::ID, m)?;
    n.geo.block([-2.6, -2.8, 0.3], [-1.0, -2.0, 1.6], Xf::rot_z(0.1), m)?;
    let column = Xf::at([0.5, -0.6, 0.75]).then(&Xf::rot_z(0.4)).then(&Xf::rot_y(PI / 2.0));
    n.geo.cylinder(0.45, 0.45, 3.2, sides(lod, 10, 5), column, k.m("ROCK"))?;
    n.geo.cylinder(0.5, 0.45, 1.4, sides(lod, 10, 5), Xf::at([2.8, -1.5, 0.3]), k.m("ROCK"))?;
    Ok(vec![n])
}

fn pole(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut n = Node::new("pole", None, [0.0; 3]);
    n.geo.cylinder(0.5, 0.4, 0.4, sides(lod, 8, 4), Xf::ID, k.m("CONCRETE"))?;
    n.geo.cylinder(0.12, 0.08, 6.0, sides(lod, 8, 4), Xf::at([0.0, 0.0, 0.4]), k.m("HULL_DARK"))?;
    n.geo.sphere(0.35, 1.0, sides(lod, 6, 3), sides(lod, 8, 4), Xf::at([0.0, 0.0, 6.6]), k.m("LAMP"))?;
    Ok(vec![n])
}
