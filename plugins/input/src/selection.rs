//! The player's selection and control groups (by `OriginalObjectId`, kept sorted):
//! click and box selection replace it or add to it, Ctrl+digit stores it in a group,
//! the digit recalls the group; destroyed units drop out of both.

use bevy::prelude::*;

/// The number of control groups.
pub const GROUPS: usize = 9;

/// Selected units and control groups.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct Selection {
    /// Selected objects, ascending ids.
    pub units: Vec<u32>,
    /// Control groups 1 to 9, ascending ids each.
    pub groups: [Vec<u32>; GROUPS],
}

fn sorted(mut ids: Vec<u32>) -> Vec<u32> {
    ids.sort_unstable();
    ids.dedup();
    ids
}

impl Selection {
    /// The lowest selected id.
    pub fn first(&self) -> Option<u32> {
        self.units.first().copied()
    }

    /// Whether `id` is selected.
    pub fn contains(&self, id: u32) -> bool {
        self.units.binary_search(&id).is_ok()
    }

    /// Selects `ids`, replacing the selection or (`add`) adding to it; adding a lone
    /// selected unit again deselects it.
    pub fn select(&mut self, ids: Vec<u32>, add: bool) {
        if add {
            if let [id] = ids[..]
                && self.contains(id)
            {
                self.units.retain(|&u| u != id);
                return;
            }
            self.units.extend(ids);
            self.units = sorted(std::mem::take(&mut self.units));
        } else {
            self.units = sorted(ids);
        }
    }

    /// Stores the selection as group `group` (0-based).
    pub fn assign(&mut self, group: usize) {
        if let Some(g) = self.groups.get_mut(group) {
            g.clone_from(&self.units);
        }
    }

    /// Selects group `group` (0-based); an empty group leaves the selection alone.
    /// Returns whether it selected anything.
    pub fn recall(&mut self, group: usize) -> bool {
        match self.groups.get(group) {
            Some(g) if !g.is_empty() => {
                self.units.clone_from(g);
                true
            }
            _ => false,
        }
    }

    /// Drops the objects that are gone from the selection and the groups.
    pub fn retain(&mut self, alive: impl Fn(u32) -> bool) {
        self.units.retain(|&u| alive(u));
        for g in &mut self.groups {
            g.retain(|&u| alive(u));
        }
    }
}

/// Whether screen point `p` lies in the box spanned by corners `a` and `b`.
pub fn in_box(p: Vec2, a: Vec2, b: Vec2) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    p.cmpge(lo).all() && p.cmple(hi).all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selecting_adding_toggling_and_groups() {
        let mut s = Selection::default();
        s.select(vec![5, 3, 5], false);
        assert_eq!(s.units, [3, 5]);
        s.select(vec![4], true);
        assert_eq!(s.units, [3, 4, 5]);
        s.select(vec![4], true);
        assert_eq!(s.units, [3, 5], "adding a selected unit again deselects it");
        s.assign(2);
        s.select(vec![9], false);
        assert!(s.recall(2));
        assert_eq!(s.units, [3, 5]);
        assert!(!s.recall(0), "an empty group changes nothing");
        assert_eq!(s.units, [3, 5]);
        s.retain(|id| id != 3);
        assert_eq!((s.units.as_slice(), s.groups[2].as_slice()), ([5].as_slice(), [5].as_slice()));
    }

    #[test]
    fn boxes_work_from_any_corner() {
        let (a, b) = (Vec2::new(10.0, 50.0), Vec2::new(40.0, 20.0));
        assert!(in_box(Vec2::new(20.0, 30.0), a, b));
        assert!(in_box(Vec2::new(20.0, 30.0), b, a));
        assert!(!in_box(Vec2::new(5.0, 30.0), a, b));
    }
}
