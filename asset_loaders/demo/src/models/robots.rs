//! Robot components: four chassis (wheeled scout, tracked tank, four-legged walker, the
//! hero's biped),
//! three turrets and three weapons. X is forward, Z up. Turrets and weapons start with
//! an empty virtual root node (they are attached meshes); chassis and turrets carry an
//! empty socket node where the next component attaches ([`CHASSIS_MOUNT`],
//! [`TURRET_MOUNT`], named by `parent_or_link` in the unit schemes), labelled in mesh
//! stream 10 with the part prefix it takes, as the original's are (openparkan
//! `docs/38-designs.md`).

use super::shapes::{Geo, Lathe, h};
use super::{Kit, ModelSpec, Node, Point, sides};
use crate::geometry::{PI, Xf};
use iron3d_formats::Result;
use iron3d_formats::helpers::ctld::MotionParameters;

/// Node of every chassis where its turret attaches (at `TurretCenter`).
pub const CHASSIS_MOUNT: usize = 1;
/// Node of every turret where its weapon attaches (at `TurretDirect`).
pub const TURRET_MOUNT: usize = 2;

/// Heights of the chassis tops (turret mounts), by chassis: scout, tank, walker, hero.
const TOPS: [f32; 4] = [1.6, 1.7, 3.3, 2.4];
/// Heights of the weapon mounts, by turret.
const WEAPON_Z: [f32; 3] = [0.7, 0.8, 0.9];
/// Forward offset of the weapon mounts.
const WEAPON_X: f32 = 0.8;
/// The coarsest level of detail (a robot a few pixels tall): small parts are left out
/// and running gear becomes one block per side, so an army costs a software renderer
/// a fraction of its triangles.
const FAR: usize = 2;

/// The movement limits a chassis's control description carries (CTLD root parameters
/// in the original's machine frame, y forward: openparkan `docs/24-motion.md`): authored
/// forward top speed (units/s) and acceleration (units/s², doubled live), turn rate
/// (rad/s), slope limit (rad) and payload (kg). The scout is fast and nimble but climbs
/// least, the tank slow but climbs most, the walker between. A loaded robot runs at
/// (1 + r) ÷ 2 of its authored top, r its spare payload's share, and turns at 1.5 r +
/// 0.5 of its authored rate, so the authored figures stand above what a fitted robot
/// reaches, as the original's do: fitted, the scout (r ≈ 0.41) runs at about 14 and
/// turns at 3.2, the tank (0.30) at 7 and 1.6, the walker (0.36) at 9 and 2.4. Turrets
/// and weapons carry none (they do not limit the robot).
pub fn motion(stem: &str) -> Option<MotionParameters> {
    let (speed, acceleration, turn, slope, payload) = match stem {
        "r_ch_01" => (20.0, 6.0, 2.9, 0.52, 3_400.0),
        "r_ch_02" => (10.8, 2.5, 1.7, 0.79, 3_300.0),
        "r_ch_03" => (13.3, 3.5, 2.3, 0.70, 3_400.0),
        // The hero runs at the original's 14 m/s fitted and turns quickly.
        "r_ch_04" => (20.0, 8.0, 6.0, 0.80, 3_400.0),
        _ => return None,
    };
    Some(MotionParameters {
        max_acceleration: [0.0, acceleration, 0.0],
        max_speed: [0.0, speed, 0.0],
        max_angular_speed: [0.0, 0.0, turn],
        slope_limit: slope,
        payload,
    })
}

/// The locomotion profile (a `behpsp.res` member) a chassis's record names: the scout
/// runs on wheels, the tank on tracks, the walker walks.
pub fn chassis_profile(stem: &str) -> Option<&'static str> {
    match stem {
        "r_ch_01" => Some("chas_wel"),
        "r_ch_02" => Some("chas_trk"),
        "r_ch_03" | "r_ch_04" => Some("chas_wlk"),
        _ => None,
    }
}

/// The running gear a chassis node is, by its name: `.ndp` flag
/// [`iron3d_formats::helpers::ndpr::GEAR_LEFT`] or `GEAR_RIGHT`, 0 for any other node
/// (the left side is +Y, the demo's models facing +X).
pub fn gear_flags(node: &str) -> u32 {
    use iron3d_formats::helpers::ndpr::{GEAR_LEFT, GEAR_RIGHT};
    match node {
        "wheels_l" | "track_l" | "leg_fl" | "leg_bl" | "leg_l" => GEAR_LEFT,
        "wheels_r" | "track_r" | "leg_fr" | "leg_br" | "leg_r" => GEAR_RIGHT,
        _ => 0,
    }
}

/// The spec of a robot stem.
pub fn spec(stem: &str) -> Option<ModelSpec> {
    let (generator, points): (super::Generator, Vec<Point>) = match stem {
        "r_ch_01" => (scout, chassis_points(TOPS[0])),
        "r_ch_02" => (tank, chassis_points(TOPS[1])),
        "r_ch_03" => (walker, chassis_points(TOPS[2])),
        "r_ch_04" => (hero, chassis_points(TOPS[3])),
        "r_tu_01" => (turret_light, turret_points(WEAPON_Z[0])),
        "r_tu_02" => (turret_heavy, turret_points(WEAPON_Z[1])),
        "r_tu_03" => (turret_pods, turret_points(WEAPON_Z[2])),
        "r_we_01" | "r_we_05" => (gun_light, Vec::new()),
        "r_we_02" => (cannon, Vec::new()),
        "r_we_03" => (launcher, Vec::new()),
        "r_we_04" => (gun_light, Vec::new()),
        _ => return None,
    };
    Some(ModelSpec { generator, points, footprint: [2.0, 1.5], lightmap: false, places: Vec::new() })
}

fn chassis_points(top: f32) -> Vec<Point> {
    vec![
        ("Root", 0, [0.0; 3], [1.0, 0.0, 0.0]),
        ("TurretCenter", 0, [0.0, 0.0, top], [1.0, 0.0, 0.0]),
        ("CameraCenter", 0, [-1.0, 0.0, top + 1.5], [1.0, 0.0, 0.0]),
        ("Sfx_1", 0, [-1.8, 0.0, top * 0.6], [-1.0, 0.0, 0.0]),
    ]
}

fn turret_points(weapon_z: f32) -> Vec<Point> {
    vec![
        ("Root", 1, [0.0; 3], [1.0, 0.0, 0.0]),
        ("TurretDirect", 1, [WEAPON_X, 0.0, weapon_z], [1.0, 0.0, 0.0]),
        ("TargetDirect", 1, [4.0, 0.0, weapon_z], [1.0, 0.0, 0.0]),
        ("Sfx_1", 1, [0.0, 0.0, weapon_z], [0.0, 0.0, 1.0]),
    ]
}

/// Running gear seen from afar: one block of `material` along a side, `y` its centre
/// line, `half` its half extents (x, y) and `top` its height.
fn side_block(g: &mut Geo, y: f32, half: [f32; 2], top: f32, material: u8) -> Result<()> {
    g.block([-half[0], y - half[1], 0.0], [half[0], y + half[1], top], Xf::ID, material)
}

/// A wheel with its hub, axis along Y, centred at `at`.
fn wheel(g: &mut Geo, k: &mut Kit, lod: usize, at: [f32; 3], r: f32, w: f32) -> Result<()> {
    let n = sides(lod, 14, 6);
    let axis = Xf::at([at[0], at[1] - w / 2.0, at[2]]).then(&Xf::rot_x(-PI / 2.0));
    g.cylinder(r, r, w, n, axis, k.m("RUBBER"))?;
    let hub =
        Xf::at([at[0], at[1] + if at[1] > 0.0 { w / 2.0 } else { -w / 2.0 - 0.08 }, at[2]]).then(&Xf::rot_x(-PI / 2.0));
    g.cylinder(r * 0.45, r * 0.35, 0.08, n, hub, k.m("HULL_DARK"))
}

fn scout(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut body = Node::new("body", None, [0.0; 3]);
    let g = &mut body.geo;
    g.hull([2.0, 1.0], 0.55, 1.45, 0.35, 0.7, Xf::ID, k.m("CAMO"))?;
    g.hull([0.7, 0.6], 1.45, 1.75, 0.15, 0.8, Xf::at([-0.9, 0.0, 0.0]), k.m("HULL_DARK"))?;
    g.block([1.6, -0.5, 1.05], [2.05, 0.5, 1.3], Xf::ID, k.m("WINDOW"))?;
    let mut nodes = vec![body, turret_socket([0.0, 0.0, TOPS[0]])];
    for (name, y) in [("wheels_l", 1.05), ("wheels_r", -1.05)] {
        let mut side = Node::new(name, Some(0), [0.0; 3]);
        if lod >= FAR {
            side_block(&mut side.geo, y, [1.85, 0.2], 1.1, k.m("RUBBER"))?;
        } else {
            for x in [-1.3, 0.0, 1.3] {
                wheel(&mut side.geo, k, lod, [x, y, 0.55], 0.55, 0.4)?;
            }
        }
        nodes.push(side);
    }
    Ok(nodes)
}

fn tank(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut body = Node::new("body", None, [0.0; 3]);
    body.geo.hull([2.3, 1.0], 0.6, 1.6, 0.4, 0.75, Xf::ID, k.m("CAMO_SAND"))?;
    body.geo.block([-2.4, -0.6, 1.0], [-2.2, 0.6, 1.3], Xf::ID, k.m("HAZARD"))?;
    let mut nodes = vec![body, turret_socket([0.0, 0.0, TOPS[1]])];
    for (name, y) in [("track_l", 1.35), ("track_r", -1.35)] {
        let mut tracks = Node::new(name, Some(0), [0.0; 3]);
        if lod >= FAR {
            side_block(&mut tracks.geo, y, [2.5, 0.35], 1.4, k.m("RUBBER"))?;
            nodes.push(tracks);
            continue;
        }
        let prof = [h(0.0, 0.0), h(0.7, 0.0), h(0.7, 0.7), h(0.0, 0.7)];
        let mut l = Lathe::new(&prof, sides(lod, 20, 8));
        l.scale = [3.6, 1.0];
        let xf = Xf::at([0.0, y - 0.35, 0.7]).then(&Xf::rot_x(-PI / 2.0));
        tracks.geo.lathe(&l, xf, k.m("RUBBER"))?;
        for x in [-1.6, -0.55, 0.55, 1.6] {
            let side = if y > 0.0 { y + 0.35 } else { y - 0.35 - 0.1 };
            let hub = Xf::at([x, side, 0.7]).then(&Xf::rot_x(-PI / 2.0));
            tracks.geo.cylinder(0.42, 0.42, 0.1, sides(lod, 10, 5), hub, k.m("HULL_DARK"))?;
        }
        nodes.push(tracks);
    }
    Ok(nodes)
}

fn walker(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut body = Node::new("body", None, [0.0; 3]);
    let n = sides(lod, 16, 6);
    body.geo.sphere(1.6, 0.55, sides(lod, 10, 4), n, Xf::at([0.0, 0.0, 2.7]), k.m("HULL"))?;
    body.geo.cylinder(1.0, 0.9, 0.5, n, Xf::at([0.0, 0.0, 3.0]), k.m("HULL_DARK"))?;
    if lod < FAR {
        body.geo.sphere(0.35, 1.0, sides(lod, 6, 3), sides(lod, 8, 4), Xf::at([1.45, 0.0, 2.75]), k.m("LAMP"))?;
    }
    let mut nodes = vec![body, turret_socket([0.0, 0.0, TOPS[2]])];
    for (i, (x, y)) in [(1.0f32, 1.0f32), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)].into_iter().enumerate() {
        let name = ["leg_fl", "leg_fr", "leg_bl", "leg_br"][i];
        let mut leg = Node::new(name, Some(0), [x * 0.9, y * 0.9, 2.5]);
        let m = k.m("HULL_DARK");
        // Thigh: from the hip outwards and up to the knee.
        let out = Xf::rot_z(
            if y > 0.0 { PI / 2.0 } else { -PI / 2.0 } + if x > 0.0 { -0.5 * y.signum() } else { 0.5 * y.signum() },
        );
        if lod < FAR {
            leg.geo.sphere(0.35, 1.0, sides(lod, 6, 3), sides(lod, 8, 4), Xf::ID, k.m("HULL"))?;
        }
        leg.geo.block([0.0, -0.18, -0.18], [1.3, 0.18, 0.18], out.then(&Xf::rot_y(-0.5)), m)?;
        // Shin: from the knee straight down to the foot.
        let knee = out.then(&Xf::at([1.35, 0.0, 0.65]));
        leg.geo.cylinder(0.16, 0.12, 3.0, sides(lod, 8, 4), knee.then(&Xf::rot_x(PI)), m)?;
        if lod < FAR {
            leg.geo.cylinder(0.4, 0.3, 0.2, sides(lod, 10, 5), knee.then(&Xf::at([0.0, 0.0, -3.15])), k.m("RUBBER"))?;
        }
        nodes.push(leg);
    }
    Ok(nodes)
}

/// The hero: a striding biped, his torso the turret's seat.
fn hero(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut body = Node::new("body", None, [0.0; 3]);
    let n = sides(lod, 12, 5);
    body.geo.hull([0.45, 0.55], 1.3, 2.3, 0.3, 0.7, Xf::ID, k.m("CAMO"))?;
    body.geo.cylinder(0.3, 0.35, 0.15, n, Xf::at([0.0, 0.0, 2.25]), k.m("HULL_DARK"))?;
    if lod < FAR {
        body.geo.block([0.35, -0.3, 1.8], [0.5, 0.3, 2.05], Xf::ID, k.m("WINDOW"))?;
    }
    let mut nodes = vec![body, turret_socket([0.0, 0.0, TOPS[3]])];
    for (name, y) in [("leg_l", 0.3f32), ("leg_r", -0.3)] {
        let mut leg = Node::new(name, Some(0), [0.0, y, 1.3]);
        let stride = Xf::rot_y(if y > 0.0 { 0.25 } else { -0.25 });
        leg.geo.cylinder(0.14, 0.18, 1.25, n, stride.then(&Xf::rot_x(PI)), k.m("HULL_DARK"))?;
        leg.geo.block([-0.2, -0.14, -1.35], [0.35, 0.14, -1.2], stride, k.m("RUBBER"))?;
        nodes.push(leg);
    }
    Ok(nodes)
}

fn root() -> Node {
    Node::new("root", None, [0.0; 3])
}

/// An empty attach node under `parent`.
/// A chassis's turret socket at `at` (under its body), labelled with the turrets it
/// takes: small upright ones (openparkan `docs/38-designs.md`, measured on the
/// original's meshes).
fn turret_socket(at: [f32; 3]) -> Node {
    Node::new("e_tur_lt", Some(0), at)
}

/// The labels of the turrets' gun sockets (mesh stream 10): the light turret takes
/// small guns (`e_gun_lc_*`), the other two small guns or launchers (`e_gun_lc_*`,
/// `e_gun_ll_*`), as the original's `central_<s>c` and `universal_<s>r` do.
const GUN_SOCKETS: [&str; 3] = ["central_lc", "universal_lr", "universal_lr"];

/// The gun socket of turret `i` (under the turret node).
fn weapon_mount(i: usize) -> Node {
    Node::new(GUN_SOCKETS[i], Some(1), [WEAPON_X, 0.0, WEAPON_Z[i]])
}

fn turret_light(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut t = Node::new("turret", Some(0), [0.0; 3]);
    let n = sides(lod, 16, 6);
    t.geo.cylinder(1.0, 0.8, 0.6, n, Xf::ID, k.m("CAMO"))?;
    t.geo.sphere(0.5, 0.6, sides(lod, 6, 3), n, Xf::at([-0.2, 0.0, 0.6]), k.m("WINDOW"))?;
    if lod < FAR {
        t.geo.cylinder(0.06, 0.06, 0.9, sides(lod, 6, 3), Xf::at([-0.6, 0.0, 0.5]), k.m("HULL_DARK"))?;
    }
    let mut radar = Node::new("radar", Some(1), [-0.6, 0.0, 1.4]);
    radar.spin = true;
    radar.geo.block([-0.08, -0.5, 0.0], [0.08, 0.5, 0.35], Xf::ID, k.m("HULL"))?;
    Ok(vec![root(), t, weapon_mount(0), radar])
}

fn turret_heavy(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut t = Node::new("turret", Some(0), [0.0; 3]);
    let prof = [h(0.0, 0.0), h(1.0, 0.0), h(1.0, 0.4), h(0.8, 0.9), h(0.0, 0.9)];
    let mut l = Lathe::new(&prof, 6);
    l.scale = [1.5, 1.15];
    l.faceted = true;
    t.geo.lathe(&l, Xf::ID, k.m("CAMO_SAND"))?;
    if lod < FAR {
        t.geo.cylinder(0.35, 0.3, 0.25, sides(lod, 12, 5), Xf::at([-0.4, 0.4, 0.9]), k.m("HULL_DARK"))?;
    }
    Ok(vec![root(), t, weapon_mount(1)])
}

fn turret_pods(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut t = Node::new("turret", Some(0), [0.0; 3]);
    t.geo.cylinder(0.8, 0.8, 0.3, sides(lod, 16, 6), Xf::ID, k.m("HULL_DARK"))?;
    t.geo.hull([0.9, 0.6], 0.3, 1.3, 0.3, 0.7, Xf::ID, k.m("HULL"))?;
    for y in [-0.95, 0.95] {
        t.geo.hull([0.8, 0.3], 0.5, 1.2, 0.1, 0.8, Xf::at([0.1, y, 0.0]), k.m("HAZARD"))?;
    }
    Ok(vec![root(), t, weapon_mount(2)])
}

/// A barrel along +X from `x0` of `len`, radius `r`, optional muzzle.
fn barrel(g: &mut Geo, k: &mut Kit, lod: usize, at: [f32; 3], len: f32, r: f32, muzzle: bool) -> Result<()> {
    let xf = Xf::at(at).then(&Xf::rot_y(PI / 2.0));
    let n = sides(lod, 10, 4);
    g.cylinder(r, r * 0.85, len, n, xf, k.m("HULL_DARK"))?;
    if muzzle && lod < FAR {
        g.cylinder(r * 1.5, r * 1.5, len * 0.12, n, xf.then(&Xf::at([0.0, 0.0, len * 0.9])), k.m("HULL"))?;
    }
    Ok(())
}

fn gun_light(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut gun = Node::new("gun", Some(0), [0.0; 3]);
    gun.geo.block([-0.4, -0.18, -0.15], [0.4, 0.18, 0.2], Xf::ID, k.m("HULL"))?;
    let mut b = Node::new("barrel", Some(1), [0.4, 0.0, 0.02]);
    barrel(&mut b.geo, k, lod, [0.0; 3], 1.2, 0.07, false)?;
    Ok(vec![root(), gun, b])
}

fn cannon(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut gun = Node::new("gun", Some(0), [0.0; 3]);
    gun.geo.hull([0.35, 0.45], -0.3, 0.3, 0.1, 0.8, Xf::ID, k.m("CAMO_SAND"))?;
    let mut b = Node::new("barrel", Some(1), [0.3, 0.0, 0.0]);
    barrel(&mut b.geo, k, lod, [0.0; 3], 3.0, 0.14, true)?;
    Ok(vec![root(), gun, b])
}

fn launcher(k: &mut Kit, lod: usize) -> Result<Vec<Node>> {
    let mut gun = Node::new("gun", Some(0), [0.0; 3]);
    gun.geo.block([-0.6, -0.55, -0.35], [0.5, 0.55, 0.4], Xf::ID, k.m("HULL"))?;
    let mut tubes = Node::new("tubes", Some(1), [0.5, 0.0, 0.0]);
    if lod >= FAR {
        tubes.geo.block([0.0, -0.42, -0.27], [0.25, 0.42, 0.32], Xf::ID, k.m("LAMP"))?;
        return Ok(vec![root(), gun, tubes]);
    }
    for y in [-0.3, 0.0, 0.3] {
        for z in [-0.15, 0.2] {
            let xf = Xf::at([0.0, y, z]).then(&Xf::rot_y(PI / 2.0));
            tubes.geo.cylinder(0.12, 0.12, 0.25, sides(lod, 8, 4), xf, k.m("LAMP"))?;
        }
    }
    Ok(vec![root(), gun, tubes])
}
