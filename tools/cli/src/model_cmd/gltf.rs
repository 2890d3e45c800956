//! Minimal glTF 2.0 binary (`.glb`) and Wavefront OBJ writers for built meshes. Model
//! space is converted from Iron3D's Z-up to the Y-up of both formats by
//! `(x, y, z) → (x, z, −y)` (`docs/reference/models.md` §7 step 9).

use iron3d_formats::model::mesh_build::BuiltMesh;
use serde_json::{Value, json};

fn y_up(p: [f32; 3]) -> [f32; 3] {
    [p[0], p[2], -p[1]]
}

struct Bin {
    data: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    fn push(&mut self, bytes: &[u8], target: u32, accessor: Value) -> usize {
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
        let view = json!({"buffer": 0, "byteOffset": self.data.len(), "byteLength": bytes.len(), "target": target});
        self.data.extend_from_slice(bytes);
        self.views.push(view);
        let mut accessor = accessor;
        accessor["bufferView"] = json!(self.views.len() - 1);
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    fn vec3(&mut self, values: &[[f32; 3]], with_bounds: bool) -> usize {
        let bytes: Vec<u8> = values.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let mut acc = json!({"componentType": 5126, "count": values.len(), "type": "VEC3"});
        if with_bounds {
            let mut lo = [f32::INFINITY; 3];
            let mut hi = [f32::NEG_INFINITY; 3];
            for v in values {
                for k in 0..3 {
                    lo[k] = lo[k].min(v[k]);
                    hi[k] = hi[k].max(v[k]);
                }
            }
            acc["min"] = json!(lo);
            acc["max"] = json!(hi);
        }
        self.push(&bytes, 34962, acc)
    }
}

/// Writes a `.glb`: one glTF node and mesh per part, one material per WEAR row.
pub fn write_glb(mesh: &BuiltMesh, name: &str) -> anyhow::Result<Vec<u8>> {
    let mut bin = Bin { data: Vec::new(), views: Vec::new(), accessors: Vec::new() };
    let (mut meshes, mut nodes, mut materials) = (Vec::new(), Vec::new(), Vec::new());
    for part in mesh.parts.iter().filter(|p| !p.indices.is_empty()) {
        let pos: Vec<[f32; 3]> = part.positions.iter().map(|&p| y_up(p)).collect();
        let nrm: Vec<[f32; 3]> = part.normals.iter().map(|&n| y_up(n)).collect();
        let p = bin.vec3(&pos, true);
        let n = bin.vec3(&nrm, false);
        let uv: Vec<u8> = part.uvs.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let t = bin.push(&uv, 34962, json!({"componentType": 5126, "count": part.uvs.len(), "type": "VEC2"}));
        let idx: Vec<u8> = part.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let i = bin.push(&idx, 34963, json!({"componentType": 5125, "count": part.indices.len(), "type": "SCALAR"}));
        materials.push(json!({
            "name": format!("wear_row_{}", part.material),
            "doubleSided": true,
            "pbrMetallicRoughness": {"metallicFactor": 0.0, "roughnessFactor": 1.0}
        }));
        meshes.push(json!({"name": format!("material_{}", part.material), "primitives": [{
            "attributes": {"POSITION": p, "NORMAL": n, "TEXCOORD_0": t},
            "indices": i, "material": materials.len() - 1, "mode": 4
        }]}));
        nodes.push(json!({"name": format!("{name}_material_{}", part.material), "mesh": meshes.len() - 1}));
    }
    while !bin.data.len().is_multiple_of(4) {
        bin.data.push(0);
    }
    let doc = json!({
        "asset": {"version": "2.0", "generator": "iron3d-cli"},
        "scene": 0,
        "scenes": [{"name": name, "nodes": (0..nodes.len()).collect::<Vec<_>>()}],
        "nodes": nodes, "meshes": meshes, "materials": materials,
        "buffers": [{"byteLength": bin.data.len()}],
        "bufferViews": bin.views, "accessors": bin.accessors,
    });
    let mut text = serde_json::to_vec(&doc)?;
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + bin.data.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&u32::try_from(total)?.to_le_bytes());
    out.extend_from_slice(&u32::try_from(text.len())?.to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&u32::try_from(bin.data.len())?.to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin.data);
    Ok(out)
}

/// Writes an OBJ text: one group per part (`usemtl wear_row_N`), V flipped to OBJ's
/// bottom-up convention.
pub fn write_obj(mesh: &BuiltMesh, name: &str) -> String {
    use std::fmt::Write;
    let mut s = format!("# iron3d-cli export of {name}\n");
    let mut base = 1usize;
    for part in &mesh.parts {
        let _ = writeln!(s, "g material_{}\nusemtl wear_row_{}", part.material, part.material);
        for p in &part.positions {
            let [x, y, z] = y_up(*p);
            let _ = writeln!(s, "v {x} {y} {z}");
        }
        for n in &part.normals {
            let [x, y, z] = y_up(*n);
            let _ = writeln!(s, "vn {x} {y} {z}");
        }
        for uv in &part.uvs {
            let _ = writeln!(s, "vt {} {}", uv[0], 1.0 - uv[1]);
        }
        for t in part.indices.chunks_exact(3) {
            let v = t.iter().map(|&i| base + i as usize).collect::<Vec<_>>();
            let _ = writeln!(s, "f {0}/{0}/{0} {1}/{1}/{1} {2}/{2}/{2}", v[0], v[1], v[2]);
        }
        base += part.positions.len();
    }
    s
}
