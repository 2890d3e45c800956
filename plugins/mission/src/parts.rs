//! What the warbot designer asks of the game's data (openparkan `docs/38-designs.md`,
//! read and measured): a part's labelled sockets and slots, and a design's or a part's
//! body and limits, assembled exactly as the mission load assembles a placed unit.

use crate::game_backend::{GameMissionBackend, scheme_components};
use crate::{ObjectComponent, ObjectExtras};
use iron3d_core::PropertyBag;
use iron3d_formats::bytes::display_name;
use iron3d_formats::registry::{Prototype, UnitDat};
use iron3d_formats::{Result, ResultExt};

/// A part's labels: what its sockets and slots take.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PartLabels {
    /// Each mesh node's label (stream 10; empty: none): a chassis's turret socket
    /// `e_tur_lt`, a turret's gun socket `central_lc`, `universal_lr`.
    pub nodes: Vec<String>,
    /// Its controller's labelled components, as (index, label): the slots fitted parts
    /// take over (`i_eng_l`, `i_rdr_l`, `i_c15_b`).
    pub slots: Vec<(u32, String)>,
}

impl GameMissionBackend {
    /// The labels of part `key`'s mesh nodes and controller components; `None` when
    /// `objects.rlb` does not resolve it (case-insensitive).
    ///
    /// # Errors
    /// The registry, or the part's mesh or controller, cannot be read.
    pub fn part_labels(&self, key: &str) -> Result<Option<PartLabels>> {
        self.with_resolver(|resolver| {
            let resolved = resolver.resolve(key);
            let Ok(p) = resolved.as_ref() else { return Ok(None) };
            let nodes = self.mesh_facts(p)?.map(|f| f.labels.clone()).unwrap_or_default();
            let slots = match p.first(".ctl") {
                Some(ctl) => (0u32..)
                    .zip(&self.control(ctl)?.items)
                    .filter(|(_, item)| !item.name.is_empty())
                    .map(|(i, item)| (i, display_name(&item.name)))
                    .collect(),
                None => Vec::new(),
            };
            Ok(Some(PartLabels { nodes, slots }))
        })
    }

    /// The `ChassisType` of chassis `key`: its record's behaviour profile (the reference
    /// into `behpsp.res`) gives it, 1 flying, 2 walking, 3 wheeled, 4 tracked (openparkan
    /// `docs/28-chassis.md`, measured); `None` when it names no profile or the profile
    /// no type.
    ///
    /// # Errors
    /// The key is not in `objects.rlb`, or `behpsp.res` cannot be read.
    pub fn chassis_type(&self, key: &str) -> Result<Option<u32>> {
        let p = self.with_resolver(|resolver| resolver.resolve(key).as_ref().clone().via(format!("part {key}")))?;
        self.profile_chassis_type(&p)
    }

    /// The `ChassisType` of a resolved chassis (see [`Self::chassis_type`]); the
    /// profiles are read once per game directory.
    pub(crate) fn profile_chassis_type(&self, p: &Prototype) -> Result<Option<u32>> {
        let Some(profile) = p.first(".var").map(|r| r.resource.to_ascii_lowercase()) else { return Ok(None) };
        let profiles = self.game.parsed(crate::profiles::FILE, || crate::profiles::read(&self.game))?;
        let name = profile.strip_suffix(".var").unwrap_or(&profile);
        Ok(profiles.value(name, "ChassisType").map(|v| v as u32))
    }

    /// The body, arms and limits of a unit built from `dat`, as the mission load
    /// assembles a placed unit from its scheme (no placed properties), and the payload
    /// its chassis carries (kg).
    ///
    /// # Errors
    /// The scheme's tree, a part or its data cannot be read.
    pub fn assemble_scheme(&self, dat: &UnitDat) -> Result<(ObjectExtras, Option<f32>)> {
        let (mut components, slots) = scheme_components(dat)?;
        self.with_resolver(|resolver| {
            self.assemble(resolver, &mut components, &slots, Some(dat.class_word()), &PropertyBag::default())
        })
    }

    /// The body, arms and limits of part `key` alone, as the designer's part box rates
    /// it (openparkan `docs/38-designs.md`, read: over a preview of the part alone), and
    /// the payload it carries as a chassis (kg).
    ///
    /// # Errors
    /// The part is not in `objects.rlb`, or its data cannot be read.
    pub fn assemble_part(&self, key: &str) -> Result<(ObjectExtras, Option<f32>)> {
        let mut components = [ObjectComponent::root(key)];
        self.with_resolver(|resolver| self.assemble(resolver, &mut components, &[None], None, &PropertyBag::default()))
    }
}
