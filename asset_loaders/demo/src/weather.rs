//! Mission weather (spec `runtime.md` §8, `world.md` §5.1): every mission folder gets
//! `sky.wea`, a WEAR table naming the rain, snow and lightning materials of
//! `Material.lib`. The spec does not give the row order; the demo follows its wording
//! (rain, snow, lightning).
//!
//! Not written, because the spec does not document them:
//! * `sky.ske`, the schedule of when each kind of weather is active and how strong —
//!   its layout is opaque (`registry.md` §5.8), so no bytes are invented;
//! * weather phases anywhere else: `mission.cfg` has no documented weather keys
//!   (`runtime.md` §2.6).

use crate::missions::MISSIONS;
use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::model::wear::Wear;
use iron3d_formats::world::mission_graph::SKY_TABLE;

/// The rows of `sky.wea`.
pub const SKY_ROWS: [&str; 3] = ["RAIN", "SNOW", "LIGHTNING"];

/// Writes `sky.wea` into every mission folder.
pub fn write(tree: &mut DemoTree) -> Result<()> {
    let rows: Vec<&[u8]> = SKY_ROWS.iter().map(|r| r.as_bytes()).collect();
    let table = Wear::new(&rows, &[])?.to_bytes();
    for spec in MISSIONS {
        tree.add(&format!("MISSIONS/{}/{SKY_TABLE}", spec.name), table.clone())?;
    }
    Ok(())
}
