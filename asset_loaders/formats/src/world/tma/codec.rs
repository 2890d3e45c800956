//! The `data.tma` reader and writer. Fields newer than a section's version are
//! skipped exactly as the engine's version gates do (`docs/reference/world.md` §1.2); retail files have the
//! newest layout everywhere.

use super::*;
use crate::error::ResultExt;

struct Reader<'a> {
    c: Cursor<'a>,
    options: ReadOptions,
    diagnostics: Vec<Diagnostic>,
    /// The offset of every relation word read, per clan.
    relation_words: Vec<Vec<u64>>,
}

impl Reader<'_> {
    fn version(&mut self, what: &'static str, expected: u32) -> Result<u32> {
        let at = self.c.offset();
        let v = self.c.u32()?;
        if v != expected {
            if self.options.strict {
                return Err(version_error(at, what, v, expected));
            }
            self.diagnostics.push(Diagnostic {
                offset: at,
                rule: "unknown_section_version",
                detail: format!("{what} {v} kept (expected {expected}); fields gated by the engine's version tests"),
            });
        }
        Ok(v)
    }

    fn count(&mut self, min_elem: u64, what: &'static str) -> Result<u32> {
        let n = self.c.u32()?;
        self.c.check_count(u64::from(n), min_elem, what)?;
        Ok(n)
    }
}

pub(super) fn parse(data: &[u8], options: ReadOptions) -> Result<Tma> {
    let mut r = Reader { c: Cursor::new(data), options, diagnostics: Vec::new(), relation_words: Vec::new() };
    let format_version = r.version("format_version", FORMAT_VERSION)?;
    let path_count = r.count(8, "paths")?;
    let mut paths = Vec::with_capacity(path_count as usize);
    for i in 0..path_count {
        paths.push(read_path(&mut r.c).via(format!("path {i}"))?);
    }
    let at = r.c.offset();
    let clan_section_version = r.version("clan_section_version", CLAN_VERSION)?;
    if !(1..=CLAN_VERSION).contains(&clan_section_version) {
        return Err(version_error(
            at,
            "clan_section_version (the loader accepts 1..6)",
            clan_section_version,
            CLAN_VERSION,
        ));
    }
    let clan_count = r.count(20, "clans")?;
    let mut clans = Vec::with_capacity(clan_count as usize);
    for i in 0..clan_count {
        clans.push(read_clan(&mut r, clan_section_version).via(format!("clan {i}"))?);
    }
    older_demo_relations(&clans, &r.relation_words, &mut r.diagnostics);
    let object_section_version = r.version("object_section_version", OBJECT_VERSION)?;
    let object_count = r.count(36, "objects")?;
    let mut objects = Vec::with_capacity(object_count as usize);
    for i in 0..object_count {
        objects.push(read_object(&mut r, object_section_version).via(format!("placed object {i}"))?);
    }
    let land_path = LpString::read(&mut r.c, "land_path")?;
    let mut tma = Tma {
        land_path,
        objects,
        clans,
        paths,
        object_section_version,
        clan_section_version,
        format_version,
        ..Tma::new("")
    };
    tma.extra_section_version = 0;
    if object_section_version > 1 {
        tma.mission_flag = r.c.u32()?;
        tma.description_raw = LpString::read(&mut r.c, "description")?;
    }
    if object_section_version > 4 {
        tma.extra_section_version = r.version("extra_section_version", EXTRA_VERSION)?;
        let n = r.count(28, "extra records")?;
        tma.extras.reserve(n as usize);
        for _ in 0..n {
            tma.extras
                .push(ExtraRecord28 { position: r.c.vec3()?, words: [r.c.u32()?, r.c.u32()?, r.c.u32()?, r.c.u32()?] });
        }
    }
    r.c.expect_end("the last extra record")?;
    tma.diagnostics = r.diagnostics;
    Ok(tma)
}

fn read_path(c: &mut Cursor<'_>) -> Result<PathRecord> {
    let path_id = c.i32()?;
    let n = c.u32()?;
    c.check_count(u64::from(n), 12, "path points")?;
    let mut points = Vec::with_capacity(n as usize);
    for _ in 0..n {
        points.push(c.vec3()?);
    }
    Ok(PathRecord { path_id, points })
}

fn read_clan(r: &mut Reader<'_>, version: u32) -> Result<Clan> {
    let name = LpString::read(&mut r.c, "clan name")?;
    let raw_id = r.c.i32()?;
    let anchor_x = r.c.f32()?;
    let anchor_y = r.c.f32()?;
    let mode_at = r.c.offset();
    let mode = r.c.u32()?;
    if mode > 3 {
        if r.options.strict {
            return Err(Error::invalid(mode_at, "clan_mode", format!("clan type {mode} is not 0..3")));
        }
        r.diagnostics.push(Diagnostic { offset: mode_at, rule: "clan_mode", detail: format!("clan type {mode} kept") });
    }
    let script = if version > 1 { LpString::read(&mut r.c, "script")? } else { LpString::default() };
    let mut zones = Vec::new();
    if version > 2 {
        let n = r.count(24, "zones")?;
        zones.reserve(n as usize);
        for _ in 0..n {
            zones.push(Zone { kind: r.c.u32()?, centre: r.c.vec3()?, inner: r.c.f32()?, outer: r.c.f32()? });
        }
    }
    let research_tree = if version > 3 { LpString::read(&mut r.c, "research tree")? } else { LpString::default() };
    let minds = if version > 4 { r.c.i32()? } else { 0 };
    let mut relations = Vec::new();
    if version > 5 {
        let n = r.count(8, "relations")?;
        relations.reserve(n as usize);
        let mut at = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let name = LpString::read(&mut r.c, "relation clan name")?;
            at.push(r.c.offset());
            relations.push((name, r.c.i32()?));
        }
        r.relation_words.push(at);
    }
    Ok(Clan { name, raw_id, anchor_x, anchor_y, mode, script, zones, research_tree, minds, relations })
}

/// A located `relation_convention` finding for each relation word 1 that an older
/// iron3d demo wrote for war: a player or enemy clan whose table names no record for
/// itself (the original's tables do) giving word 1 to another player or enemy clan.
/// The original reads 1 as neutral (0 hostile, 2 allied), so such clans never fight.
fn older_demo_relations(clans: &[Clan], words: &[Vec<u64>], out: &mut Vec<Diagnostic>) {
    let plays = |name: &LpString| {
        clans
            .iter()
            .any(|c| c.name.0.eq_ignore_ascii_case(&name.0) && matches!(c.mode, ClanType::PLAYER | ClanType::ENEMY))
    };
    for (clan, at) in clans.iter().zip(words) {
        let names_itself = clan.relations.iter().any(|(n, _)| n.0.eq_ignore_ascii_case(&clan.name.0));
        if names_itself || !plays(&clan.name) {
            continue;
        }
        for ((name, word), &offset) in clan.relations.iter().zip(at) {
            if *word == 1 && plays(name) {
                out.push(Diagnostic {
                    offset,
                    rule: "relation_convention",
                    detail: format!(
                        "clan {:?} gives {:?} word 1 and names no record for itself: an older iron3d demo wrote 1 for \
                         war, the original reads 1 as neutral (0 hostile, 2 allied)",
                        clan.name.display(),
                        name.display()
                    ),
                });
            }
        }
    }
}

fn read_object(r: &mut Reader<'_>, v: u32) -> Result<PlacedObject> {
    let c = &mut r.c;
    let raw_kind = c.u32()?;
    let flags_at = c.offset();
    let class_or_flags = c.u32()?;
    if r.options.strict && class_or_flags != OBJECT_CLASS_FLAGS {
        return Err(Error::invalid(
            flags_at,
            "object_class_flags",
            format!("{class_or_flags:#x} != {OBJECT_CLASS_FLAGS:#x}"),
        ));
    }
    let resource_name = LpString::read(c, "resource name")?;
    let mut o = PlacedObject::new(raw_kind, "", [0.0; 3]);
    o.class_or_flags = class_or_flags;
    o.resource_name = resource_name;
    o.link0 = 0;
    o.link1 = 0;
    o.property_schema_version = 0;
    if v > 2 {
        o.raw_after_resource = c.u32()?;
    }
    if v > 3 {
        o.identity_or_clan_raw = c.u32()?;
    }
    let v3 = c.vec3()?;
    o.position = finite(c, v3, "position")?;
    let v3 = c.vec3()?;
    o.orientation = finite(c, v3, "orientation")?;
    if v >= 10 {
        let v3 = c.vec3()?;
        o.scale = finite(c, v3, "scale")?;
    }
    if v > 6 {
        o.instance_name = LpString::read(c, "instance name")?;
    }
    if v > 7 {
        o.raw_after_name = c.u32()?;
    }
    if v > 8 {
        o.link0 = c.i32()?;
        o.link1 = c.i32()?;
    }
    if v > 5 {
        o.property_schema_version = r.version("property_schema_version", PROPERTY_SCHEMA_VERSION)?;
        let n = r.count(20, "properties")?;
        o.properties.reserve(n as usize);
        for i in 0..n {
            let c = &mut r.c;
            let raw_value = [c.u32()?, c.u32()?, c.u32()?, c.u32()?];
            let name = LpString::read(c, "property name").via(format!("property {i}"))?;
            o.properties.push(Property { raw_value, name });
        }
    }
    Ok(o)
}

pub(super) fn write(t: &Tma) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    out.put_u32(t.format_version);
    out.put_u32(count_u32(t.paths.len(), "paths")?);
    for p in &t.paths {
        out.put_i32(p.path_id);
        out.put_u32(count_u32(p.points.len(), "path points")?);
        for &pt in &p.points {
            out.put_vec3(pt);
        }
    }
    let cv = t.clan_section_version;
    out.put_u32(cv);
    out.put_u32(count_u32(t.clans.len(), "clans")?);
    for clan in &t.clans {
        write_clan(&mut out, clan, cv)?;
    }
    let ov = t.object_section_version;
    out.put_u32(ov);
    out.put_u32(count_u32(t.objects.len(), "objects")?);
    for o in &t.objects {
        write_object(&mut out, o, ov)?;
    }
    t.land_path.write(&mut out)?;
    if ov > 1 {
        out.put_u32(t.mission_flag);
        t.description_raw.write(&mut out)?;
    }
    if ov > 4 {
        out.put_u32(t.extra_section_version);
        out.put_u32(count_u32(t.extras.len(), "extras")?);
        for e in &t.extras {
            out.put_vec3(e.position);
            for w in e.words {
                out.put_u32(w);
            }
        }
    }
    Ok(out)
}

fn write_clan(out: &mut Vec<u8>, clan: &Clan, v: u32) -> Result<()> {
    clan.name.write(out)?;
    out.put_i32(clan.raw_id);
    out.put_f32(clan.anchor_x);
    out.put_f32(clan.anchor_y);
    out.put_u32(clan.mode);
    if v > 1 {
        clan.script.write(out)?;
    }
    if v > 2 {
        out.put_u32(count_u32(clan.zones.len(), "zones")?);
        for z in &clan.zones {
            out.put_u32(z.kind);
            out.put_vec3(z.centre);
            out.put_f32(z.inner);
            out.put_f32(z.outer);
        }
    }
    if v > 3 {
        clan.research_tree.write(out)?;
    }
    if v > 4 {
        out.put_i32(clan.minds);
    }
    if v > 5 {
        out.put_u32(count_u32(clan.relations.len(), "relations")?);
        for (name, value) in &clan.relations {
            name.write(out)?;
            out.put_i32(*value);
        }
    }
    Ok(())
}

fn write_object(out: &mut Vec<u8>, o: &PlacedObject, v: u32) -> Result<()> {
    out.put_u32(o.raw_kind);
    out.put_u32(o.class_or_flags);
    o.resource_name.write(out)?;
    if v > 2 {
        out.put_u32(o.raw_after_resource);
    }
    if v > 3 {
        out.put_u32(o.identity_or_clan_raw);
    }
    out.put_vec3(o.position);
    out.put_vec3(o.orientation);
    if v >= 10 {
        out.put_vec3(o.scale);
    }
    if v > 6 {
        o.instance_name.write(out)?;
    }
    if v > 7 {
        out.put_u32(o.raw_after_name);
    }
    if v > 8 {
        out.put_i32(o.link0);
        out.put_i32(o.link1);
    }
    if v > 5 {
        out.put_u32(o.property_schema_version);
        out.put_u32(count_u32(o.properties.len(), "properties")?);
        for p in &o.properties {
            p.raw_value.iter().for_each(|&w| out.put_u32(w));
            p.name.write(out)?;
        }
    }
    Ok(())
}

/// The four files the loader derives from a land path (`land.msh`, `land.map`,
/// `land1.wea`, `land2.wea`), spelled with the path's own separators.
pub fn land_file_paths(land_path: &str) -> [String; 4] {
    let p = land_path;
    [format!("{p}.msh"), format!("{p}.map"), format!("{p}1.wea"), format!("{p}2.wea")]
}
