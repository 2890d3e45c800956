//! Points of a mission that must stand on walkable ground (`docs/reference/world.md` §1, §3: a
//! point outside every areal of `Land.map` is not walkable): every point of every path
//! (units are sent along them), the base anchor of every clan that has one (mode not
//! 0, the environment), and every placed unit (raw kind 1, the kind that moves). The
//! check is the project's own; a point off the map is reported, it does not stop a load
//! (Behavior then refuses the orders that need it).

use super::areal_query::ArealQuery;
use super::land_map::ArealMap;
use super::tma::Tma;

/// TMA raw kind of a unit (a warbot: the kind that moves).
pub const UNIT_KIND: u32 = 1;

/// A point outside every areal.
#[derive(Debug, Clone, PartialEq)]
pub struct OffMap {
    /// What stands there (`path 100 point 3`, `clan Player anchor`, `placed object 12
    /// (UNITS\ROBOTS\scout.dat)`).
    pub what: String,
    /// Where, XY.
    pub position: [f32; 2],
}

impl std::fmt::Display for OffMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at ({:.1}, {:.1}) is outside every areal", self.what, self.position[0], self.position[1])
    }
}

/// Every point of `tma` that must be walkable and is not on `map`, in file order
/// (paths, clans, objects).
pub fn off_map(tma: &Tma, map: &ArealMap) -> Vec<OffMap> {
    let query = ArealQuery::new(map);
    let mut out = Vec::new();
    let mut check = |what: &dyn Fn() -> String, x: f32, y: f32| {
        if !query.covered(x, y) {
            out.push(OffMap { what: what(), position: [x, y] });
        }
    };
    for path in &tma.paths {
        for (i, p) in path.points.iter().enumerate() {
            check(&|| format!("path {} point {i}", path.path_id), p[0], p[1]);
        }
    }
    for clan in tma.clans.iter().filter(|c| c.mode != 0) {
        check(&|| format!("clan {} anchor", clan.name.display()), clan.anchor_x, clan.anchor_y);
    }
    for (i, o) in tma.objects.iter().enumerate().filter(|(_, o)| o.raw_kind == UNIT_KIND) {
        let name = if o.instance_name.is_empty() { o.resource_name.display() } else { o.instance_name.display() };
        check(&|| format!("placed object {i} ({name})"), o.position[0], o.position[1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{ArealMapBuilder, Clan, PathRecord, PlacedObject};

    #[test]
    fn points_outside_every_areal_are_named() {
        let mut b = ArealMapBuilder::new();
        b.add_polygon(vec![[0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [10.0, 10.0, 0.0], [0.0, 10.0, 0.0]], 1, 0).unwrap();
        let map = b.build(16, 16).unwrap();
        let mut tma = Tma::new("DATA\\MAPS\\x\\land");
        tma.paths.push(PathRecord { path_id: 7, points: vec![[5.0, 5.0, 0.0], [15.0, 5.0, 0.0]] });
        tma.clans.push(Clan::new("Nature", 0, [0.0; 2], "n", "", 0));
        tma.clans.push(Clan::new("Far", 1, [20.0, 20.0], "s", "t", 5));
        tma.objects.push(PlacedObject::new(UNIT_KIND, "UNITS\\ROBOTS\\scout.dat", [-3.0, 4.0, 0.0]));
        tma.objects.push(PlacedObject::new(0, "b_gen_01", [30.0, 30.0, 0.0]));
        tma.objects.push(PlacedObject::new(UNIT_KIND, "UNITS\\ROBOTS\\tank.dat", [2.0, 2.0, 0.0]));
        let off: Vec<String> = off_map(&tma, &map).iter().map(ToString::to_string).collect();
        assert_eq!(
            off,
            [
                "path 7 point 1 at (15.0, 5.0) is outside every areal",
                "clan Far anchor at (20.0, 20.0) is outside every areal",
                "placed object 0 (UNITS\\ROBOTS\\scout.dat) at (-3.0, 4.0) is outside every areal",
            ]
        );
    }
}
