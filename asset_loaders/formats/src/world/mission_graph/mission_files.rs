//! Mission-level edges that start at no placed object: each clan's research tree (the
//! TRF path of its second resource, `docs/reference/world.md` §1.4) and the weather table
//! `sky.wea`, which the engine loads after the clan scripts (`docs/reference/world.md` §5.1,
//! `docs/reference/runtime.md` §8). `sky.ske` has no documented layout: only its presence is noted.

use super::walk::{Origin, Walk};
use super::{LinkKind, MaterialCounts, WeatherFiles};
use crate::error::ResultExt;
use crate::helpers::Trf;
use crate::world::tma::Clan;

/// File name of a mission's weather material table (a WEAR table).
pub const SKY_TABLE: &str = "sky.wea";
/// File name of a mission's weather schedule (layout opaque).
pub const SKY_SCHEDULE: &str = "sky.ske";

impl Walk<'_, '_> {
    /// Every clan that names a research tree needs it as a loose file that parses as
    /// TRF; one request per clan.
    pub(super) fn research_trees(&mut self, clans: &[Clan]) {
        for clan in clans {
            let path = clan.research_tree.display();
            if path.is_empty() {
                continue;
            }
            self.stats.research_trees += 1;
            let source = format!("clan {}", clan.name.display());
            let options = self.graph.options;
            let parsed = self.graph.files.load_file(&path).and_then(|b| Trf::parse(&b, options).in_file(path.clone()));
            if let Err(e) = parsed {
                self.fail(Origin::mission(&source), &path, "", LinkKind::ResearchTree, e);
            }
        }
    }

    /// Notes the weather files of mission directory `dir` and follows the materials of
    /// `sky.wea` when it is present (failures name `sky.wea` as their source).
    pub(super) fn weather(&mut self, dir: &str) -> WeatherFiles {
        let files = self.graph.files;
        let table_path = format!("{dir}/{SKY_TABLE}");
        let mut weather = WeatherFiles {
            table: files.has_archive(&table_path),
            schedule: files.has_archive(&format!("{dir}/{SKY_SCHEDULE}")),
            requests: MaterialCounts::default(),
        };
        if !weather.table {
            return weather;
        }
        let at = Origin::mission(&table_path);
        match files.load_file(&table_path).and_then(|b| self.graph.links.wear_links(&b)).in_file(table_path.clone()) {
            Ok(Some(wear)) => weather.requests = self.expand(at, &wear),
            Ok(None) => {}
            Err(e) => self.fail(at, &table_path, "", LinkKind::Weather, e),
        }
        weather
    }
}
