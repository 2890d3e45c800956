//! Levels of detail of model parts. An MSH node may carry geometry for slot rows 1 and 2
//! (coarser levels, reading A of `docs/reference/models.md` §1.4); the distances at which the
//! renderer switches are the project's own (the original's are not documented): a
//! level takes over where the model, by the radius of its bounding sphere, would cover
//! about as many pixels as the finer level was made for, and each level is a Bevy
//! [`VisibilityRange`] with an abrupt switch.

use bevy::camera::visibility::VisibilityRange;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LodDistances>().register_type::<LodDistances>();
}

/// The switch distances (the project's own numbers).
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource)]
pub struct LodDistances {
    /// Distance at which level 1 and level 2 begin, in bounding-sphere radii.
    pub radii: [f32; 2],
    /// The smallest radius distances are computed from (tiny models keep detail near
    /// the camera).
    pub min_radius: f32,
}

impl Default for LodDistances {
    fn default() -> Self {
        Self { radii: [12.0, 36.0], min_radius: 2.0 }
    }
}

impl LodDistances {
    /// Where level `level` (1 or 2) of a model of bounding radius `radius` begins.
    pub fn start(&self, level: usize, radius: f32) -> f32 {
        let per_radius = level.checked_sub(1).and_then(|i| self.radii.get(i)).copied().unwrap_or(0.0);
        per_radius * radius.max(self.min_radius)
    }

    /// The visibility range of each of a node's levels (ascending, level 0 first);
    /// `None` for all when the node has level 0 only (always drawn). Each level ends
    /// where the next present one begins; the last is drawn to any distance.
    pub fn ranges(&self, levels: &[usize], radius: f32) -> Vec<Option<VisibilityRange>> {
        if levels.len() < 2 {
            return vec![None; levels.len()];
        }
        let starts: Vec<f32> = levels.iter().map(|&l| self.start(l, radius)).collect();
        (0..levels.len())
            .map(|i| Some(VisibilityRange::abrupt(starts[i], starts.get(i + 1).copied().unwrap_or(f32::INFINITY))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(r: &Option<VisibilityRange>) -> (f32, f32) {
        let r = r.as_ref().expect("a range");
        (r.start_margin.start, r.end_margin.end)
    }

    #[test]
    fn levels_hand_over_at_their_distances_and_the_last_never_ends() {
        let lod = LodDistances { radii: [10.0, 30.0], min_radius: 1.0 };
        let all = lod.ranges(&[0, 1, 2], 2.0);
        assert_eq!(all.iter().map(bounds).collect::<Vec<_>>(), [(0.0, 20.0), (20.0, 60.0), (60.0, f32::INFINITY)]);
        // Without level 1, level 0 lasts until level 2 takes over.
        let gap = lod.ranges(&[0, 2], 2.0);
        assert_eq!(gap.iter().map(bounds).collect::<Vec<_>>(), [(0.0, 60.0), (60.0, f32::INFINITY)]);
        assert!(lod.ranges(&[0], 2.0).iter().all(Option::is_none));
    }

    #[test]
    fn small_models_switch_at_the_smallest_radius() {
        let lod = LodDistances { radii: [10.0, 30.0], min_radius: 1.5 };
        assert_eq!(lod.start(1, 0.1), 15.0);
        assert_eq!(lod.start(2, 3.0), 90.0);
        assert_eq!(lod.start(0, 3.0), 0.0);
    }
}
