//! Model checks: strict MSH validation, closed and outward-wound meshes at every level
//! of detail, WEAR rows for every batch, and the helper resources.

use super::*;
use crate::geometry::{cross, dot, normalize, sub};
use iron3d_formats::ReadOptions;
use iron3d_formats::model::mesh_build::{MeshOptions, Pose, build_mesh};
use iron3d_formats::model::msh::Msh;
use iron3d_formats::nres::Nres;
use std::collections::HashMap;

fn tree() -> DemoTree {
    crate::build(crate::DEFAULT_SEED).unwrap()
}

/// Directed edges between welded positions must pair up: for every edge `a -> b` there
/// is exactly one `b -> a` (closed, consistently wound; touching shells may share
/// edges, so counts are compared rather than required to be 1).
fn check_closed(what: &str, positions: &[[f32; 3]], indices: &[u32]) {
    let key = |p: [f32; 3]| p.map(|c| (c * 1000.0).round() as i64);
    let mut ids: HashMap<[i64; 3], usize> = HashMap::new();
    let weld: Vec<usize> = positions
        .iter()
        .map(|&p| {
            let n = ids.len();
            *ids.entry(key(p)).or_insert(n)
        })
        .collect();
    let mut edges: HashMap<(usize, usize), i32> = HashMap::new();
    for t in indices.chunks_exact(3) {
        let v = [t[0], t[1], t[2]].map(|i| weld[i as usize]);
        for k in 0..3 {
            let (a, b) = (v[k], v[(k + 1) % 3]);
            if a == b {
                continue;
            }
            *edges.entry((a, b)).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &edges {
        let back = edges.get(&(b, a)).copied().unwrap_or(0);
        assert_eq!(n, back, "{what}: edge {a}->{b} used {n} times, {b}->{a} {back} times (open or flipped)");
    }
}

fn check_normals(what: &str, positions: &[[f32; 3]], normals: &[[f32; 3]], indices: &[u32]) {
    let mut bad = 0;
    for t in indices.chunks_exact(3) {
        let p = [t[0], t[1], t[2]].map(|i| positions[i as usize]);
        let face = cross(sub(p[1], p[0]), sub(p[2], p[0]));
        if dot(face, face) < 1e-10 {
            continue;
        }
        let face = normalize(face);
        bad += t.iter().filter(|&&i| dot(normals[i as usize], face) <= 0.0).count();
    }
    assert_eq!(bad, 0, "{what}: vertex normals facing away from their triangle");
}

#[test]
fn every_model_validates_strictly_and_is_closed_with_outward_normals() {
    let tree = tree();
    let mut models = 0;
    let mut animated = 0;
    for archive in ["units.rlb", "bases.rlb", "fortif.rlb", "static.rlb"] {
        let nres = Nres::parse(tree.get(archive).unwrap(), ReadOptions::strict()).unwrap();
        for (i, e) in nres.entries().iter().enumerate() {
            let name = e.display_name();
            if !name.ends_with(".msh") {
                continue;
            }
            models += 1;
            let msh = Msh::parse(nres.payload(i).unwrap(), ReadOptions::strict()).unwrap();
            msh.validate(ReadOptions::strict()).unwrap();
            if msh.frame_count() > 0 {
                animated += 1;
                let rest = build_mesh(&msh, 0, 0, Pose::Rest, MeshOptions::default()).unwrap();
                let turned = build_mesh(&msh, 0, 0, Pose::Frame(SPIN_FRAMES / 4.0), MeshOptions::default()).unwrap();
                assert_ne!(rest.parts, turned.parts, "{name}: a quarter of the spin moves the spinning node");
            }
            for lod in 0..3 {
                let built = build_mesh(&msh, lod, 0, Pose::Rest, MeshOptions::default()).unwrap();
                assert!(built.triangle_count() > 0, "{name} lod {lod} is empty");
                for (p, part) in built.parts.iter().enumerate() {
                    let what = format!("{archive}::{name} lod {lod} part {p}");
                    check_closed(&what, &part.positions, &part.indices);
                    check_normals(&what, &part.positions, &part.normals, &part.indices);
                    let v = shapes::signed_volume(&part.positions, &part.indices);
                    assert!(v > 0.0, "{what}: signed volume {v}");
                }
            }
            let lod0 = build_mesh(&msh, 0, 0, Pose::Rest, MeshOptions::default()).unwrap().triangle_count();
            let lod2 = build_mesh(&msh, 2, 0, Pose::Rest, MeshOptions::default()).unwrap().triangle_count();
            assert!(lod2 <= lod0, "{name}: lod 2 ({lod2}) is not lighter than lod 0 ({lod0})");
        }
    }
    assert_eq!(models, 12 + 12 + 2 + 12, "one model per geometric prototype");
    assert!(animated >= 3, "{animated} animated models");
}

#[test]
fn helper_resources_parse_and_wear_tables_cover_every_batch() {
    use iron3d_formats::helpers::{Base, Ctld, Ctpt};
    use iron3d_formats::model::wear::Wear;
    let tree = tree();
    let mut poses = 0;
    for proto in PROTOTYPES {
        let Some(bytes) = tree.get(proto.archive) else { continue };
        let nres = Nres::parse(bytes, ReadOptions::strict()).unwrap();
        let entry = |ext: &str| nres.get(format!("{}.{ext}", proto.stem).as_bytes()).map(|(_, p)| p);
        let refs = crate::registry::refs(proto).unwrap();
        for r in refs.iter().filter(|r| !r.is_parent()) {
            // A chassis's profile lives in behpsp.res, the rest in the part's archive.
            let archive = tree.get(&String::from_utf8_lossy(r.archive())).unwrap();
            assert!(
                Nres::parse(archive, ReadOptions::strict()).unwrap().find(r.resource()).is_some(),
                "{}: {} missing",
                proto.key,
                String::from_utf8_lossy(r.resource())
            );
        }
        if let (Some(msh), Some(wea)) = (entry("msh"), entry("wea")) {
            let msh = Msh::parse(msh, ReadOptions::strict()).unwrap();
            let wear = Wear::parse(wea, ReadOptions::strict()).unwrap();
            for b in &msh.batches {
                assert!(
                    wear.material(usize::from(b.material_lo)).is_some(),
                    "{}: batch row {}",
                    proto.key,
                    b.material_lo
                );
            }
        }
        if let Some(cpt) = entry("cpt") {
            let points = Ctpt::parse(cpt).unwrap();
            if proto.role == Role::Chassis {
                assert!(points.find("TurretCenter").is_some() && points.find("CameraCenter").is_some());
            }
            assert!(points.find("Root").is_some());
        }
        if let Some(ctl) = entry("ctl") {
            let ctld = Ctld::parse(ctl).unwrap();
            assert_eq!(Ctld::parse(&ctld.to_bytes().unwrap()).unwrap(), ctld);
            poses += usize::from(ctld.initial_pose().len() > 1);
        }
        if let Some(bas) = entry("bas") {
            assert!(!Base::parse(bas).unwrap().inner[0].points.is_empty());
        }
    }
    assert!(poses >= 2, "models with spinning nodes carry a pose row for them");
}

#[test]
fn chassis_control_descriptions_carry_distinct_movement_limits() {
    use iron3d_formats::helpers::Ctld;
    let tree = tree();
    let motion = |stem: &str| {
        let nres = Nres::parse(tree.get("units.rlb").unwrap(), ReadOptions::strict()).unwrap();
        // A component without a control description has no limits either.
        nres.get(format!("{stem}.ctl").as_bytes())
            .map(|(_, payload)| Ctld::parse(payload).unwrap().motion())
            .unwrap_or_default()
    };
    let (scout, tank, walker) = (motion("r_ch_01"), motion("r_ch_02"), motion("r_ch_03"));
    assert!(
        scout.max_speed[1] > walker.max_speed[1] && walker.max_speed[1] > tank.max_speed[1],
        "a scout outruns a tank"
    );
    assert!(tank.slope_limit > walker.slope_limit && walker.slope_limit > scout.slope_limit, "a tank climbs most");
    for m in [scout, tank, walker] {
        assert!(m.max_acceleration[1] > 0.0 && m.max_angular_speed[2] > 0.0 && m.payload > 0.0);
    }
    assert_eq!(motion("r_tu_01"), Default::default(), "turrets do not limit the robot");
}
