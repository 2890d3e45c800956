//! A part's box in the warbot designer (openparkan `docs/38-designs.md`, "A part's box",
//! read; `docs/19-descriptions.md`): the rows of the part's research item's stat template
//! (`TRFA`), each `@G@<label>@B,<field>,G,<unit>,<width>,<decimals>@`, with the figure
//! the field names taken from the part alone, assembled as a unit loads. A quoted field
//! prints as written; every number prints with one decimal, whatever the template says
//! (seen). A field whose figure iron3d does not keep (`Epower`, `Adfactor`, `capacity`,
//! `throughput`, `shotnum`, `effic`, `density`, a non-gun's `wattage`: their properties
//! are not traced or not carried) prints no number.

use crate::design::Catalogue;
use iron3d_core::{CombatSheet, MotionLimits};
use iron3d_mission::GameMissionBackend;

/// One row of a stat template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatRow {
    /// What the panel prints before the figure.
    pub label: String,
    /// The field behind the figure (`weight`, `Frate`, …), or a quoted text.
    pub field: String,
    /// Its unit (`t`, `1/s`, …).
    pub unit: String,
}

/// The rows of stat template `template`, in order; text between rows is passed over.
///
/// # Errors
/// A row that does not close, or whose field part lacks its `G` and unit, named by
/// its byte offset.
pub fn stat_rows(template: &str) -> Result<Vec<StatRow>, String> {
    let mut rows = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("@G@") {
        let at = template.len() - rest.len() + start;
        let body = &rest[start + 3..];
        let malformed = || format!("stat template: the row at byte {at} is not `@G@label@B,field,G,unit,…@`");
        let (label, tail) = body.split_once("@B,").ok_or_else(malformed)?;
        let (spec, after) = tail.split_once('@').ok_or_else(malformed)?;
        let mut parts = spec.split(',');
        let (field, g, unit) = (parts.next(), parts.next(), parts.next());
        let (Some(field), Some("G"), Some(unit)) = (field, g, unit) else { return Err(malformed()) };
        rows.push(StatRow { label: label.trim().to_string(), field: field.to_string(), unit: unit.to_string() });
        rest = after;
    }
    Ok(rows)
}

/// A part alone, as the designer rates it: its body and arms, its limits and the
/// payload its chassis carries (kg).
#[derive(Debug, Clone, Copy)]
pub struct PartAlone<'a> {
    /// Its body and arms.
    pub sheet: &'a CombatSheet,
    /// Its limits.
    pub motion: &'a MotionLimits,
    /// Its payload, a chassis's.
    pub payload: Option<f32>,
}

/// The figure `field` names for `part` (read), in the template's units; `None` when
/// iron3d keeps no such figure for it.
pub fn figure(field: &str, part: PartAlone) -> Option<f32> {
    let gun = part.sheet.guns.first();
    let round = gun.map(|g| &g.round);
    match field {
        "weight" => Some(part.sheet.figures.mass * 0.001),
        "payload" => part.payload.map(|p| p * 0.001),
        "maxspeed" => part.motion.top_speed.map(|v| v * 3.6),
        "wattage" => gun.map(|g| g.shot_energy),
        "Frate" => gun.map(|g| 1000.0 / g.interval_ms.max(1.0)),
        "range" => round.map(|r| r.range),
        "damage" => round.map(|r| r.hit_points + r.hit.damage),
        "blast" => round.map(|r| r.hit.radius),
        "sensrange" => part.sheet.radar.as_ref().map(|r| r.range),
        "regener" => (part.sheet.shield.as_ref().map(|s| s.recharge)).or(part.sheet.repair.as_ref().map(|r| r.rate)),
        "Spower" => part.sheet.shield.as_ref().map(|s| s.points),
        "Peffic" | "Eeffic" | "fastness" | "Pincrease" | "experience" => Some(0.0),
        _ => None,
    }
}

/// The rows of `template` as the part's box prints them: each label and its figure
/// with one decimal and its unit (a quoted field as written, an unknown figure `—`).
///
/// # Errors
/// The template's rows do not read ([`stat_rows`]).
pub fn part_box(template: &str, part: PartAlone) -> Result<Vec<(String, String)>, String> {
    let shown = |row: StatRow| {
        let value = match row.field.strip_prefix('"').and_then(|f| f.strip_suffix('"')) {
            Some(text) => text.to_string(),
            None => figure(&row.field, part).map_or_else(|| "—".to_string(), |v| format!("{v:.1}")),
        };
        (row.label, format!("{value} {}", row.unit).trim_end().to_string())
    };
    Ok(stat_rows(template)?.into_iter().map(shown).collect())
}

/// The box of part `part`: its item's template in `catalogue` (none: no rows) over the
/// part alone as `game` assembles it.
///
/// # Errors
/// The part's data cannot be read, or its template's rows do not read.
pub fn box_of(game: &GameMissionBackend, catalogue: &Catalogue, part: &str) -> Result<Vec<(String, String)>, String> {
    let template = catalogue.label(part).map(|l| l.stats.as_str()).unwrap_or_default();
    let (extras, payload) = game.assemble_part(part).map_err(|e| format!("part {part}: {e}"))?;
    let (sheet, motion) = (extras.combat.unwrap_or_default(), extras.motion.unwrap_or_default());
    part_box(template, PartAlone { sheet: &sheet, motion: &motion, payload })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use iron3d_core::{GunSheet, HitSheet, RadarSheet, RoundSheet};

    #[test]
    fn a_template_reads_as_its_rows() {
        let template =
            "@G@Weight       @B,weight,G,t,5,1@\r\n@G@Rate of fire @B,Frate,G,1/s,5,@\r\n@G@Slots@B,\"2\",G,,3,0@";
        let rows = stat_rows(template).unwrap();
        let fields: Vec<_> = rows.iter().map(|r| (r.label.as_str(), r.field.as_str(), r.unit.as_str())).collect();
        assert_eq!(fields, [("Weight", "weight", "t"), ("Rate of fire", "Frate", "1/s"), ("Slots", "\"2\"", "")]);
        assert_eq!(stat_rows("no rows here").unwrap(), []);
        let e = stat_rows("@G@Weight@B,weight,t,5,1@ @G@Range @B,range,G,m,5,1@").unwrap_err();
        assert!(e.contains("byte 0"), "{e}");
        let e = stat_rows("ab@G@Weight @B,weight,G").unwrap_err();
        assert!(e.contains("byte 2"), "{e}");
    }

    #[test]
    fn the_box_prints_the_parts_figures_with_one_decimal() {
        let mut sheet = CombatSheet::default();
        sheet.figures.mass = 2_800.0;
        let hit = HitSheet { kind: 3, damage: 200.0, radius: 4.0 };
        let round = RoundSheet { speed: 60.0, range: 250.0, hit_points: 25.0, flags: 0, hit, seeker: None };
        let (capacitor, stroke_ms) = (1.0, None);
        let gun = GunSheet {
            node: 0,
            magazine: 36,
            capacitor,
            shot_energy: 0.24,
            interval_ms: 750.0,
            barrels: 1,
            volley: false,
            stroke_ms,
            arm: false,
            round,
        };
        sheet.guns.push(gun);
        sheet.radar = Some(RadarSheet { sensitivity: [0.0; 3], range: 400.0, period_ms: 750.0, node: 0 });
        let motion = MotionLimits { top_speed: Some(110.0 / 3.6), ..MotionLimits::default() };
        let part = PartAlone { sheet: &sheet, motion: &motion, payload: Some(55_000.0) };
        let template = "@G@Weight @B,weight,G,t,5,1@@G@Payload @B,payload,G,t,5,1@@G@Speed @B,maxspeed,G,kmph,5,1@\
            @G@Wattage @B,wattage,G,MWt,5,1@@G@Rate @B,Frate,G,1/s,5,@@G@Range @B,range,G,m,5,1@\
            @G@Damage @B,damage,G,HP,5,@@G@Blast @B,blast,G,m,5,1@@G@Sensor @B,sensrange,G,m,5,1@\
            @G@Power @B,Epower,G,MWt,5,1@\
            @G@Slots @B,\"2\",G,,3,0@";
        let shown: Vec<String> =
            part_box(template, part).unwrap().into_iter().map(|(l, v)| format!("{l}: {v}")).collect();
        assert_eq!(
            shown,
            [
                "Weight: 2.8 t",
                "Payload: 55.0 t",
                "Speed: 110.0 kmph",
                "Wattage: 0.2 MWt",
                "Rate: 1.3 1/s",
                "Range: 250.0 m",
                "Damage: 225.0 HP",
                "Blast: 4.0 m",
                "Sensor: 400.0 m",
                "Power: — MWt",
                "Slots: 2",
            ]
        );
    }
}
