//! Base buildings with one silhouette per category, and the fortification parents
//! (wall and gate). Every building stands on a concrete slab; sizes fit the base
//! layout of the missions (rings of 90–170 units around the base anchor).

use super::shapes::{Geo, Lathe, h, s};
use super::{Kit, ModelSpec, Node, Point, sides};
use crate::geometry::{PI, TAU, Xf, cos_approx, sin_approx};
use iron3d_formats::Result;

/// The spec of a building or fortification-parent stem.
pub fn spec(stem: &str) -> Option<ModelSpec> {
    let (generator, half, top): (super::Generator, [f32; 2], f32) = match stem {
        "b_gen_01" => (generator, [10.0, 8.0], 14.0),
        "b_mine_01" => (mine, [9.0, 9.0], 22.0),
        "b_stor_01" => (storage, [11.0, 8.0], 9.0),
        "b_plant_01" => (plant, [12.0, 9.0], 18.0),
        "b_hang_01" => (hangar, [12.0, 9.0], 7.0),
        "b_tele_01" => (teleport, [9.0, 9.0], 12.0),
        "b_inst_01" => (institute, [9.0, 9.0], 13.0),
        "b_bunk_s" => (bunker_s, [3.5, 3.5], 2.5),
        "b_bunk_m" => (bunker_m, [5.0, 5.0], 3.0),
        "b_bunk_l" => (bunker_l, [7.0, 6.0], 4.0),
        "b_tow_m" => (tower_m, [3.0, 3.0], 12.0),
        "b_tow_l" => (tower_l, [4.0, 4.0], 18.0),
        "fr_wall" => (wall, [6.0, 0.8], 4.5),
        "fr_gate" => (gate, [6.0, 2.0], 7.0),
        _ => return None,
    };
    let points: Vec<Point> = vec![
        ("Root", 0, [0.0; 3], [1.0, 0.0, 0.0]),
        ("CameraCenter", 0, [0.0, 0.0, top], [1.0, 0.0, 0.0]),
        ("Sign_Entrance1", 0, [half[0] + 1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
        ("Sfx_1", 0, [0.0, 0.0, top * 0.5], [0.0, 0.0, 1.0]),
        ("Width", 0, [half[0] * 2.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
        ("Height", 0, [0.0, 0.0, top], [0.0, 0.0, 1.0]),
    ];
    let lightmap = stem.starts_with("b_");
    Some(ModelSpec { generator, points, footprint: half, lightmap, places: places(stem, half) })
}

/// A building's hall-way places as the original's models carry them (openparkan
/// `docs/27-ownership.md`, measured): every building but a wall or a gate has its control
/// pod indoors; bunkers and towers an indoor dock (`0x620`); a factory an indoor
/// (`0x600`) and a ground-level dock (`0x10000400`); a generator an indoor and two
/// ground-level docks (`0x10000620`, `0x10000020`); an Outpost (hangar) one ground-level
/// dock (`0x10000620`); a mine its ground-level loading place and a storage its
/// unloading place; a factory its creation node, where a robot it builds appears
/// (`0x20000800`, `docs/36-factory.md`, measured). Indoor places stand on the slab,
/// ground-level ones 6 units out from its side, where a unit can stand.
fn places(stem: &str, half: [f32; 2]) -> Vec<(u32, [f32; 3])> {
    use iron3d_formats::model::msh::hall_way::place::{GROUND, MINE_LOADING, POD, STORAGE_UNLOADING};
    let pod = (POD, [-half[0] * 0.5, 0.0, 0.6]);
    let indoor = |flags: u32| (flags, [half[0] * 0.5, 0.0, 0.6]);
    let outside = |flags: u32, side: f32| (GROUND | flags, [side * (half[0] + 6.0), 0.0, 0.0]);
    match stem {
        "b_bunk_s" | "b_bunk_m" | "b_bunk_l" | "b_tow_m" | "b_tow_l" => vec![pod, indoor(0x620)],
        "b_plant_01" => vec![pod, indoor(0x600), outside(0x400, 1.0), (0x2000_0800, [0.0, half[1] * 0.5, 0.6])],
        "b_gen_01" => vec![pod, indoor(0x620), outside(0x620, 1.0), outside(0x20, -1.0)],
        "b_hang_01" => vec![pod, outside(0x620, 1.0)],
        "b_mine_01" => vec![pod, outside(MINE_LOADING, 1.0)],
        "b_stor_01" => vec![pod, outside(STORAGE_UNLOADING, 1.0)],
        "b_inst_01" | "b_tele_01" => vec![pod],
        _ => Vec::new(),
    }
}

fn slab(g: &mut Geo, k: &mut Kit, half: [f32; 2]) -> Result<()> {
    g.hull(half, 0.0, 0.6, 0.2, 0.96, Xf::ID, k.m("CONCRETE"))
}

fn one(node: Node) -> Result<Vec<Node>> {
    Ok(vec![node])
}

/// A hyperboloid cooling tower of height `ht` and base radius `r`.
fn cooling_tower(g: &mut Geo, k: &mut Kit, lod: usize, at: [f32; 3], r: f32, ht: f32) -> Result<()> {
    let rings = sides(lod, 8, 3);
    let mut prof = vec![h(0.0, 0.0)];
    for i in 0..=rings {
        let t = i as f32 / rings as f32;
        let waist = 0.62 + 0.38 * (2.0 * t - 1.3) * (2.0 * t - 1.3) / 1.69;
        prof.push(if i == 0 || i == rings { h(r * waist, ht * t) } else { s(r * waist, ht * t) });
    }
    prof.push(h(0.0, ht));
    g.lathe(&Lathe::new(&prof, sides(lod, 20, 8)), Xf::at(at), k.m("CONCRETE"))
}

fn generator(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    slab(&mut b.geo, k, [10.0, 8.0])?;
    b.geo.hull([4.5, 3.5], 0.6, 6.0, 1.0, 0.8, Xf::at([-4.0, 0.0, 0.0]), k.m("HULL_DARK"))?;
    cooling_tower(&mut b.geo, k, lod, [3.5, -3.5, 0.6], 3.6, 13.0)?;
    cooling_tower(&mut b.geo, k, lod, [3.5, 3.8, 0.6], 3.0, 11.0)?;
    b.geo.block([-8.7, -3.0, 2.0], [-8.4, 3.0, 3.0], Xf::ID, k.m("LAMP"))?;
    let mut fan = Node::new("fan", Some(0), [-4.0, 0.0, 6.0]);
    fan.spin = true;
    fan.geo.cylinder(0.4, 0.4, 0.8, sides(lod, 10, 5), Xf::ID, k.m("HULL"))?;
    for i in 0..3 {
        let blade = Xf::rot_z(TAU * i as f32 / 3.0).then(&Xf::rot_x(0.3));
        fan.geo.block([0.3, -0.3, 0.3], [2.6, 0.3, 0.4], blade, k.m("HAZARD"))?;
    }
    Ok(vec![b, fan])
}

fn mine(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    slab(&mut b.geo, k, [9.0, 9.0])?;
    b.geo.hull([4.0, 5.0], 0.6, 5.0, 0.5, 0.9, Xf::at([-3.5, 0.0, 0.0]), k.m("ROOF"))?;
    // Shaft tower: four tapered legs and a head with the winding wheel.
    for (x, y) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
        let xf = Xf::at([4.0 + x * 2.2, y * 2.2, 0.6]);
        let lean = Xf::rot_y(-x * 0.1).then(&Xf::rot_x(y * 0.1));
        b.geo.cylinder(0.35, 0.25, 17.0, sides(lod, 8, 4), xf.then(&lean), k.m("HULL_DARK"))?;
    }
    b.geo.hull([2.3, 2.3], 17.0, 19.0, 0.3, 0.9, Xf::at([4.0, 0.0, 0.0]), k.m("HULL"))?;
    let wheel = Xf::at([4.0, 0.0, 20.8]).then(&Xf::rot_x(PI / 2.0));
    b.geo.torus(1.6, 0.25, sides(lod, 20, 8), sides(lod, 8, 4), wheel, k.m("HAZARD"))?;
    // Conveyor from the head to the hall.
    b.geo.block(
        [-0.2, -0.5, 0.0],
        [9.0, 0.5, 0.6],
        Xf::at([-2.0, 0.0, 5.0]).then(&Xf::rot_y(-0.45)),
        k.m("HULL_DARK"),
    )?;
    one(b)
}

fn tank_profile(r: f32, ht: f32, rings: usize) -> Vec<super::shapes::P> {
    let mut p = vec![h(0.0, 0.0), h(r, 0.0), s(r, ht)];
    for i in 1..rings {
        let a = TAU / 4.0 * i as f32 / rings as f32;
        p.push(s(r * cos_approx(a), ht + r * 0.5 * sin_approx(a)));
    }
    p.push(h(0.0, ht + r * 0.5));
    p
}

fn storage(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    slab(&mut b.geo, k, [11.0, 8.0])?;
    for (x, y, r, ht) in [(-5.5, -2.5, 3.6, 6.5), (2.0, -3.0, 3.2, 5.5), (6.5, 3.5, 2.6, 7.5), (-3.0, 4.5, 2.4, 4.0)] {
        let prof = tank_profile(r, ht, sides(lod, 5, 2));
        b.geo.lathe(&Lathe::new(&prof, sides(lod, 20, 8)), Xf::at([x, y, 0.6]), k.m("HULL"))?;
        b.geo.cylinder(r + 0.1, r + 0.1, 0.5, sides(lod, 20, 8), Xf::at([x, y, 0.6 + ht * 0.6]), k.m("HAZARD"))?;
    }
    one(b)
}

fn plant(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    slab(&mut b.geo, k, [12.0, 9.0])?;
    b.geo.block([-10.0, -7.0, 0.6], [6.0, 7.0, 7.0], Xf::ID, k.m("CONCRETE"))?;
    // Three gable roofs along Y (triangular prisms).
    for i in 0..3 {
        let x = -10.0 + (i as f32 + 0.5) * 16.0 / 3.0;
        let prof = [h(0.0, 0.0), h(1.0, 0.0), h(1.0, 14.0), h(0.0, 14.0)];
        let mut l = Lathe::new(&prof, 3);
        l.phase = -PI / 2.0;
        l.faceted = true;
        l.scale = [3.08, 1.667];
        b.geo.lathe(&l, Xf::at([x, -7.0, 7.0 + 0.833]).then(&Xf::rot_x(-PI / 2.0)), k.m("ROOF"))?;
    }
    for (x, y, ht) in [(9.0, -5.0, 17.0), (9.0, 0.0, 14.0), (9.0, 5.0, 11.0)] {
        b.geo.cylinder(1.2, 0.8, ht, sides(lod, 12, 5), Xf::at([x, y, 0.6]), k.m("CONCRETE"))?;
        b.geo.cylinder(0.95, 0.9, 1.0, sides(lod, 12, 5), Xf::at([x, y, ht - 1.5]), k.m("HAZARD"))?;
    }
    b.geo.block([6.0, -2.0, 0.6], [6.3, 2.0, 4.0], Xf::ID, k.m("WINDOW"))?;
    one(b)
}

fn hangar(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    slab(&mut b.geo, k, [12.0, 9.0])?;
    b.geo.block([-10.0, -7.5, 0.6], [10.0, 7.5, 3.0], Xf::ID, k.m("CONCRETE"))?;
    // Vaulted roof: a flattened cylinder along X sitting on the walls.
    let prof = [h(0.0, 0.0), h(1.0, 0.0), h(1.0, 20.4), h(0.0, 20.4)];
    let mut l = Lathe::new(&prof, sides(lod, 24, 8));
    l.scale = [3.5, 7.6];
    l.tile = 0.1;
    b.geo.lathe(&l, Xf::at([-10.2, 0.0, 2.9]).then(&Xf::rot_y(PI / 2.0)), k.m("ROOF"))?;
    b.geo.block([9.95, -5.0, 0.6], [10.4, 5.0, 5.5], Xf::ID, k.m("HAZARD"))?;
    one(b)
}

fn teleport(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    let n = sides(lod, 24, 8);
    b.geo.cylinder(9.0, 8.0, 1.2, n, Xf::ID, k.m("CONCRETE"))?;
    b.geo.cylinder(5.0, 5.0, 0.3, n, Xf::at([0.0, 0.0, 1.2]), k.m("LAMP"))?;
    for i in 0..4 {
        let a = TAU * (i as f32 + 0.5) / 4.0;
        b.geo.hull(
            [0.6, 0.6],
            1.2,
            8.0,
            1.0,
            0.4,
            Xf::at([7.0 * cos_approx(a), 7.0 * sin_approx(a), 0.0]),
            k.m("HULL_DARK"),
        )?;
    }
    let mut ring = Node::new("ring", Some(0), [0.0, 0.0, 7.5]);
    ring.spin = true;
    ring.geo.torus(5.5, 0.6, sides(lod, 32, 10), sides(lod, 8, 4), Xf::rot_x(PI / 2.0), k.m("HULL"))?;
    Ok(vec![b, ring])
}

fn institute(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    let n = sides(lod, 24, 8);
    slab(&mut b.geo, k, [9.0, 9.0])?;
    b.geo.cylinder(7.5, 7.5, 4.0, n, Xf::at([0.0, 0.0, 0.6]), k.m("CONCRETE"))?;
    b.geo.cylinder(7.6, 7.6, 0.8, n, Xf::at([0.0, 0.0, 2.0]), k.m("WINDOW"))?;
    b.geo.sphere(7.0, 1.0, sides(lod, 12, 4), n, Xf::at([0.0, 0.0, 4.6]), k.m("HULL"))?;
    b.geo.cylinder(0.15, 0.05, 4.0, sides(lod, 6, 3), Xf::at([0.0, 0.0, 11.4]), k.m("HULL_DARK"))?;
    b.geo.sphere(0.4, 1.0, sides(lod, 6, 3), sides(lod, 8, 4), Xf::at([0.0, 0.0, 15.4]), k.m("LAMP"))?;
    one(b)
}

/// An octagonal bunker of radius `r` and height `ht` with a dark firing slit.
fn bunker(k: &mut Kit, lod: usize, r: f32, ht: f32, guns: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    let prof = [h(0.0, 0.0), h(r, 0.0), h(r * 0.85, ht), h(r * 0.6, ht * 1.2), h(0.0, ht * 1.2)];
    let mut l = Lathe::new(&prof, 8);
    l.phase = TAU / 16.0;
    l.faceted = true;
    b.geo.lathe(&l, Xf::ID, k.m("CONCRETE"))?;
    let slit = [h(0.0, 0.0), h(r * 0.93, 0.0), h(r * 0.9, ht * 0.15), h(0.0, ht * 0.15)];
    let mut sl = Lathe::new(&slit, 8);
    sl.phase = TAU / 16.0;
    sl.faceted = true;
    b.geo.lathe(&sl, Xf::at([0.0, 0.0, ht * 0.55]), k.m("WINDOW"))?;
    for g in 0..guns {
        let y = (g as f32 - (guns as f32 - 1.0) / 2.0) * 1.2;
        let xf = Xf::at([r * 0.8, y, ht * 0.62]).then(&Xf::rot_y(PI / 2.0));
        b.geo.cylinder(0.18, 0.15, 2.2, sides(lod, 8, 4), xf, k.m("HULL_DARK"))?;
    }
    one(b)
}

fn bunker_s(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    bunker(k, lod, 3.2, 2.0, 1)
}

fn bunker_m(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    bunker(k, lod, 4.6, 2.5, 1)
}

fn bunker_l(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    bunker(k, lod, 6.2, 3.2, 2)
}

fn tower(k: &mut Kit, lod: usize, half: f32, ht: f32, radar: bool) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    b.geo.hull([half, half], 0.0, ht, ht * 0.9, 0.55, Xf::ID, k.m("CONCRETE"))?;
    b.geo.hull([half * 0.9, half * 0.9], ht, ht + 1.8, 0.3, 0.9, Xf::ID, k.m("HULL_DARK"))?;
    b.geo.block([-half * 0.6, -half * 0.95, ht + 0.6], [half * 0.6, half * 0.95, ht + 1.2], Xf::ID, k.m("WINDOW"))?;
    let xf = Xf::at([half * 0.5, 0.0, ht + 1.0]).then(&Xf::rot_y(PI / 2.0));
    b.geo.cylinder(0.25, 0.2, half * 1.6, sides(lod, 8, 4), xf, k.m("HULL"))?;
    let mut nodes = vec![b];
    if radar {
        let mut r = Node::new("radar", Some(0), [0.0, 0.0, ht + 1.8]);
        r.spin = true;
        r.geo.cylinder(0.2, 0.2, 1.2, sides(lod, 8, 4), Xf::ID, k.m("HULL_DARK"))?;
        r.geo.block([-0.15, -2.0, 1.2], [0.15, 2.0, 2.0], Xf::rot_y(0.25), k.m("HAZARD"))?;
        nodes.push(r);
    }
    Ok(nodes)
}

fn tower_m(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    tower(k, lod, 2.6, 10.0, false)
}

fn tower_l(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    tower(k, lod, 3.5, 15.0, true)
}

fn wall(k: &mut Kit, _lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    b.geo.hull([6.0, 0.8], 0.0, 3.6, 0.4, 0.85, Xf::ID, k.m("CONCRETE"))?;
    for i in 0..5 {
        let x = -4.8 + i as f32 * 2.4;
        b.geo.block([x - 0.6, -0.55, 3.5], [x + 0.6, 0.55, 4.5], Xf::ID, k.m("CONCRETE"))?;
    }
    one(b)
}

fn gate(k: &mut Kit, _lod: usize) -> Result<Vec<Node>> {
    let mut b = Node::new("central", None, [0.0; 3]);
    for y in [-1.0, 1.0] {
        b.geo.hull([1.6, 1.6], 0.0, 6.5, 0.6, 0.8, Xf::at([0.0, y * 4.4, 0.0]), k.m("CONCRETE"))?;
    }
    b.geo.block([-1.0, -3.0, 5.0], [1.0, 3.0, 6.2], Xf::ID, k.m("HAZARD"))?;
    let mut door = Node::new("door", Some(0), [0.0; 3]);
    door.geo.block([-0.2, -2.75, 0.0], [0.2, 2.75, 4.9], Xf::ID, k.m("HULL_DARK"))?;
    Ok(vec![b, door])
}
