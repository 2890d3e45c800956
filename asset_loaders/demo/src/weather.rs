//! Mission weather (`docs/reference/runtime.md` §8, `docs/reference/world.md` §5.1): every mission folder gets
//! `sky.wea`, a WEAR table naming the mission's sky material and the rain, snow and
//! lightning materials of `Material.lib`. The spec does not give the row order; the demo
//! puts the sky first (the project reads the first row as the sky object's material,
//! `plugins/weather/src/sky.rs`), then follows the spec's wording (rain, snow, lightning). The
//! missions' skies differ: `tutorial.01` a clear day, `single.01` dusk (a night sky for
//! the music), `single.02` a warm haze; any other mission gets the clear day.
//!
//! Beside it goes `weather.ron`, the iron3d project's own weather schedule (version 1,
//! read by `plugins/weather/src/schedule.rs`): keys over mission time with rain, snow and
//! lightning intensity, the sample names, the lightning bounds (the whole map) and the
//! look. Every mission has weather from its first second: `tutorial.01` a thunderstorm
//! that eases off, `single.01` snow, `single.02` drizzle with distant lightning.
//!
//! Not written, because the spec does not document them:
//! * `sky.ske`, the original's schedule — its layout is opaque (`docs/reference/registry.md` §5.8), so
//!   no bytes are invented and no file of that name is written;
//! * weather phases anywhere else: `mission.cfg` has no documented weather keys
//!   (`docs/reference/runtime.md` §2.6).

use crate::missions::{MISSIONS, MissionSpec};
use crate::sounds::{RAIN_LOOP, THUNDER};
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::model::wear::Wear;
use iron3d_formats::world::mission_graph::SKY_TABLE;

/// The weather rows of `sky.wea`, after the sky's.
pub const SKY_ROWS: [&str; 3] = ["RAIN", "SNOW", "LIGHTNING"];

/// The sky material of a mission (a material of [`crate::materials::MATERIALS`]).
pub fn sky_material(mission: &str) -> &'static str {
    match mission {
        "single.01" => "SKY_DUSK",
        "single.02" | "campaign.01/mission.02" => "SKY_HAZE",
        "campaign.01/mission.03" => "SKY_DUSK",
        _ => "SKY_DAY",
    }
}

/// The schedule's file name beside `sky.wea`.
pub const SCHEDULE: &str = "weather.ron";

/// One schedule key: seconds, then rain, snow and lightning intensity in thousandths
/// (integers, so the text never depends on float formatting).
type Key = (u32, u32, u32, u32);

/// The keys of each mission, in [`MISSIONS`] order.
const KEYS: [&[Key]; MISSIONS.len()] = [
    // tutorial.01: a thunderstorm from the start, easing off, then a second squall.
    &[(0, 850, 0, 900), (150, 600, 0, 600), (300, 150, 0, 0), (420, 0, 0, 0), (540, 700, 0, 800)],
    // single.01: snow, thinning out and thickening again.
    &[(0, 0, 700, 0), (240, 0, 250, 0), (480, 0, 900, 0)],
    // single.02: drizzle with distant lightning, drying up, then rain.
    &[(0, 300, 0, 200), (300, 0, 0, 0), (600, 600, 0, 500)],
    // campaign.01/mission.01: a drizzle clearing up, a shower late on.
    &[(0, 200, 0, 0), (240, 0, 0, 0), (540, 500, 0, 0)],
    // campaign.01/mission.02: rain from the start.
    &[(0, 600, 0, 300), (360, 200, 0, 0)],
    // campaign.01/mission.03: light snow.
    &[(0, 0, 400, 0), (300, 0, 600, 0)],
];

/// The look shared by every demo mission (linear RGBA; the bolt is emissive).
const LOOK: &str = "(
        rain: (0.72, 0.77, 0.88, 0.55),
        snow: (0.95, 0.97, 1.0, 0.85),
        streak_max: 1.6,
        bolt: (6.0, 7.0, 10.0, 1.0),
        bolt_width: 3.0,
        flash_seconds: 0.4,
        flash_lumens: 20000000000.0,
        flash_range: 5000.0,
        overcast: (sky: (0.22, 0.25, 0.30), light: 0.2),
    )";

fn thousandths(v: u32) -> String {
    format!("{}.{:03}", v / 1000, v % 1000)
}

/// The `weather.ron` text of one mission.
fn schedule(spec: &MissionSpec, keys: &[Key]) -> String {
    let side = spec.terrain.side() as u32;
    let mut text = format!(
        "// iron3d weather schedule: the project's own format (not an original file; the\n\
         // original keeps its schedule in sky.ske, whose layout is undocumented).\n\
         (\n    version: 1,\n    origin: Project,\n    \
         sounds: (rain: \"{RAIN_LOOP}\", thunder: \"{THUNDER}\"),\n    \
         lightning_bounds: (min: (0.0, 0.0), max: ({side}.0, {side}.0), z: 0.0),\n    \
         look: {LOOK},\n    keys: [\n"
    );
    for &(t, rain, snow, lightning) in keys {
        text += &format!(
            "        (time: {t}.0, rain: {}, snow: {}, lightning: {}),\n",
            thousandths(rain),
            thousandths(snow),
            thousandths(lightning)
        );
    }
    text + "    ],\n)\n"
}

/// Writes `sky.wea` and `weather.ron` into every mission folder.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    for (spec, keys) in MISSIONS.iter().zip(KEYS) {
        let rows: Vec<&[u8]> = std::iter::once(sky_material(spec.name)).chain(SKY_ROWS).map(|r| r.as_bytes()).collect();
        let table = Wear::new(&rows, &[])?.to_bytes();
        tree.add(&format!("{}/{SKY_TABLE}", spec.folder()), table)?;
        tree.add(&format!("{}/{SCHEDULE}", spec.folder()), schedule(spec, keys).into_bytes())?;
    }
    Ok(())
}
