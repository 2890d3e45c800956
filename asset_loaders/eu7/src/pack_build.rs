//! Canonical sectioning of models into PIDX/PROT/PACK (§7.4, §8.1, §8.2), as the baking
//! tool does it: grouping by section, prototype selection, in-section order, solo/instance
//! split, chunking, unique mesh and texture lists.

use std::collections::BTreeMap;
use std::collections::HashMap;

use crate::error::Result;
use crate::model::{InstRecord, ModelRecord, PidxEntry, ProtTail, Prototype};
use crate::module::resolve;
use crate::node::{TransformContext, flags};
use crate::pack::{cell_id, section_centre, section_of_clamped};
use crate::prim::Sid;
use crate::section::{Section, SectionChunk, SectionFormat, SectionHeader, SoloV13};

/// True if a model path names a loadable mesh (non-empty and not `notload`).
pub fn is_loadable(path: &[u8]) -> bool {
    !path.is_empty() && !path.eq_ignore_ascii_case(b"notload")
}

/// The *pack texture* test of §7.4 (ASCII case-insensitive).
pub fn is_pack_texture(path: &[u8]) -> bool {
    let p = path.to_ascii_lowercase();
    let starts = [&b"*"[..], b"make:", b"@", b"none|"];
    let ends = [&b".e3d"[..], b".t3d", b"/none", b"/"];
    !(p.is_empty()
        || p == b"none"
        || starts.iter().any(|s| p.starts_with(s))
        || ends.iter().any(|s| p.ends_with(s))
        || p.windows(7).any(|w| w == b"tr/none")
        || p.contains(&b'#'))
}

/// Prototype key (§8.1) with exact float comparison (bit patterns).
type ProtoKey = (Sid, Sid, u32, u32, bool, u8, u8);

fn proto_key(m: &ModelRecord) -> ProtoKey {
    (
        m.model_file,
        m.texture_file,
        m.node.range_sq_min.to_bits(),
        m.node.range_sq_max.to_bits(),
        m.node.is_visible(),
        m.is_terrain,
        m.transition,
    )
}

fn instanceable(m: &ModelRecord, strings: &[Vec<u8>]) -> bool {
    m.is_terrain == 0
        && m.light_states.is_empty()
        && m.light_colors.is_empty()
        && is_loadable(resolve(strings, m.model_file))
}

/// Sections of `models` grouped by clamped key, sorted by Z then X; values are model
/// indices in input order.
pub fn group(models: &[ModelRecord]) -> BTreeMap<(u16, u16), Vec<usize>> {
    let mut g: BTreeMap<(u16, u16), Vec<usize>> = BTreeMap::new();
    for (i, m) in models.iter().enumerate() {
        let key = (section_of_clamped(f64::from(m.location[2])), section_of_clamped(f64::from(m.location[0])));
        g.entry(key).or_default().push(i);
    }
    g
}

/// Selects prototypes (§8.1). Returns the prototypes (without v9 tails) and the key → id map.
pub fn select_prototypes(
    models: &[ModelRecord],
    groups: &BTreeMap<(u16, u16), Vec<usize>>,
    strings: &[Vec<u8>],
) -> (Vec<Prototype>, HashMap<ProtoKey, u32>) {
    let mut counts: HashMap<ProtoKey, u32> = HashMap::new();
    for m in models.iter().filter(|m| instanceable(m, strings)) {
        *counts.entry(proto_key(m)).or_default() += 1;
    }
    let mut ids: HashMap<ProtoKey, u32> = HashMap::new();
    let mut protos = Vec::new();
    for idx in groups.values() {
        for m in idx.iter().filter_map(|&i| models.get(i)) {
            let key = proto_key(m);
            if !instanceable(m, strings) || counts.get(&key).copied().unwrap_or(0) < 2 || ids.contains_key(&key) {
                continue;
            }
            ids.insert(key, protos.len() as u32);
            let mut node = m.node.clone();
            node.flags &= !flags::TRANSFORM;
            node.transform = TransformContext::default();
            protos.push(Prototype {
                node,
                is_terrain: m.is_terrain,
                transition: m.transition,
                model_file: m.model_file,
                texture_file: m.texture_file,
                light_states: Vec::new(),
                light_colors: Vec::new(),
                tail: None,
            });
        }
    }
    (protos, ids)
}

/// Fills the v9 tail of each prototype; `resolved` gives its resolved-texture id.
pub fn add_v9_tails(protos: &mut [Prototype], mut resolved: impl FnMut(&Prototype) -> Sid) {
    for p in protos.iter_mut() {
        let min = f64::from(p.node.range_sq_min).max(0.0).sqrt() as f32;
        let max_sq = f64::from(p.node.range_sq_max);
        let max = if max_sq >= f64::MAX / 2.0 { -1.0 } else { max_sq.sqrt() as f32 };
        p.tail = Some(ProtTail {
            resolved_texture: resolved(p),
            pack_flags: p.canonical_pack_flags(),
            reserved: 0,
            baked_range_min: min,
            baked_range_max: max,
        });
    }
}

/// Sorted unique list: by frequency (descending) then path bytes (ascending).
fn unique_sorted(freq: &HashMap<Sid, u32>, strings: &[Vec<u8>]) -> Vec<Sid> {
    let mut v: Vec<(Sid, u32)> = freq.iter().map(|(s, n)| (*s, *n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| resolve(strings, a.0).cmp(resolve(strings, b.0))));
    v.into_iter().map(|(s, _)| s).collect()
}

/// Builds the sections. Returns PIDX entries and the PACK payload.
pub fn build_sections(
    format: SectionFormat,
    models: &[ModelRecord],
    groups: &BTreeMap<(u16, u16), Vec<usize>>,
    protos: &[Prototype],
    proto_ids: &HashMap<ProtoKey, u32>,
    strings: &[Vec<u8>],
) -> Result<(Vec<PidxEntry>, Vec<u8>)> {
    let uses_inst = matches!(format, SectionFormat::V8 | SectionFormat::V9 | SectionFormat::V12 | SectionFormat::V13);
    let mut pidx = Vec::with_capacity(groups.len());
    let mut pack = Vec::new();
    for (&(row, col), idx) in groups {
        let sec: Vec<&ModelRecord> = idx.iter().filter_map(|&i| models.get(i)).collect();
        let mut mesh_freq: HashMap<Sid, u32> = HashMap::new();
        let mut tex_freq: HashMap<Sid, u32> = HashMap::new();
        for m in &sec {
            if is_loadable(resolve(strings, m.model_file)) {
                *mesh_freq.entry(m.model_file).or_default() += 1;
            }
            if is_pack_texture(resolve(strings, m.texture_file)) {
                *tex_freq.entry(m.texture_file).or_default() += 1;
            }
        }
        let (cx, cz) = (section_centre(col), section_centre(row));
        let dist = |m: &ModelRecord| {
            let (dx, dz) = (f64::from(m.location[0]) - cx, f64::from(m.location[2]) - cz);
            dx * dx + dz * dz
        };
        let freq_of = |m: &ModelRecord| mesh_freq.get(&m.model_file).copied().unwrap_or(0);
        let mut order: Vec<&ModelRecord> = sec.clone();
        order.sort_by(|a, b| freq_of(b).cmp(&freq_of(a)).then_with(|| dist(a).total_cmp(&dist(b))));
        let cell = |m: &ModelRecord| cell_id(f64::from(m.location[0]), f64::from(m.location[2]), row, col);
        if format == SectionFormat::V13 {
            order.sort_by_key(|m| cell(m));
        }
        let mut umes = unique_sorted(&mesh_freq, strings);
        if matches!(format, SectionFormat::V12 | SectionFormat::V13) {
            let mut extra: Vec<Sid> = protos.iter().map(|p| p.model_file).filter(|s| !umes.contains(s)).collect();
            extra.sort_by(|a, b| resolve(strings, *a).cmp(resolve(strings, *b)));
            extra.dedup();
            umes.extend(extra);
        }
        let utex = unique_sorted(&tex_freq, strings);
        let proto_of = |m: &ModelRecord| -> Option<u32> {
            if !uses_inst || !instanceable(m, strings) {
                return None;
            }
            proto_ids.get(&proto_key(m)).copied()
        };
        let run = if order.len() > 1024 { 256 } else { 512 };
        let runs: Vec<&[&ModelRecord]> = match format {
            SectionFormat::V10 | SectionFormat::V11 | SectionFormat::V12 | SectionFormat::V13 => {
                order.chunks(run).collect()
            }
            _ => vec![&order[..]],
        };
        let mut s = Section::empty(format, SectionHeader::default());
        for r in &runs {
            let mut ch = SectionChunk::default();
            for m in r.iter().filter(|m| proto_of(m).is_none()) {
                let mut solo = (*m).clone();
                solo.node.flags &= !flags::TRANSFORM;
                solo.node.transform = TransformContext::default();
                if format == SectionFormat::V13 {
                    let index = |list: &[Sid], s: Sid| list.iter().position(|x| *x == s).map_or(0xFFFF, |i| i as u16);
                    s.solo_v13.push(SoloV13 {
                        node: solo.node,
                        is_terrain: solo.is_terrain,
                        transition: solo.transition,
                        location: solo.location,
                        angles: solo.angles,
                        scale: solo.scale,
                        mesh_index: index(&umes, solo.model_file),
                        texture_index: index(&utex, solo.texture_file),
                        light_states: solo.light_states,
                        light_colors: solo.light_colors,
                        cell_id: cell(m),
                    });
                } else {
                    s.solo.push(solo);
                }
                ch.solo_count += 1;
            }
            for m in r.iter() {
                if let Some(proto_id) = proto_of(m) {
                    s.inst.push(InstRecord {
                        proto_id,
                        location: m.location,
                        angles: m.angles,
                        scale: m.scale,
                        name: m.node.name,
                        cell_id: (format == SectionFormat::V13).then(|| cell(m)),
                    });
                    ch.inst_count += 1;
                }
            }
            s.header.chunks.push(ch);
        }
        if !format.chunked() {
            s.header.chunks.clear();
        }
        s.header.solo_count = (s.solo.len() + s.solo_v13.len()) as u32;
        s.header.inst_count = s.inst.len() as u32;
        s.header.unique_meshes =
            if matches!(format, SectionFormat::Flat | SectionFormat::V8) { Vec::new() } else { umes };
        s.header.unique_textures = if matches!(format, SectionFormat::V11 | SectionFormat::V12 | SectionFormat::V13) {
            utex
        } else {
            Vec::new()
        };
        pidx.push(PidxEntry { row, column: col, model_count: sec.len() as u32, pack_offset: pack.len() as u64 });
        pack.extend(s.encode()?);
    }
    Ok((pidx, pack))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_texture_test() {
        for bad in [
            &b""[..],
            b"none",
            b"*sky",
            b"make:x",
            b"@a",
            b"none|b",
            b"a.e3d",
            b"a.t3d",
            b"x/none",
            b"dir/",
            b"tr/none/a",
            b"a#b",
        ] {
            assert!(!is_pack_texture(bad), "{:?}", String::from_utf8_lossy(bad));
        }
        assert!(is_pack_texture(b"textures/brick"));
        assert!(!is_loadable(b"notload"));
        assert!(!is_loadable(b""));
        assert!(is_loadable(b"tree.e3d"));
    }
}
