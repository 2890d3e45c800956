//! MSH: parse in both modes; anything that parses saves byte for byte and builds a mesh
//! in every pose without panicking.
#![no_main]

use iron3d_formats::ReadOptions;
use iron3d_formats::model::mesh_build::{MeshOptions, Pose, build_mesh};
use iron3d_formats::model::msh::Msh;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for options in [ReadOptions::strict(), ReadOptions::compatible()] {
        if let Ok(m) = Msh::parse(data, options) {
            assert_eq!(m.to_bytes().expect("save"), data);
            for pose in [Pose::Unposed, Pose::Rest, Pose::Frame(1.5)] {
                let _ = build_mesh(&m, 0, 0, pose, MeshOptions::default());
            }
        }
    }
});
