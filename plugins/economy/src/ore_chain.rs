//! A building's efficiency (KPD; `docs/reference/runtime.md` §4.5, its terms read by
//! dragonee/openparkan `docs/23-economy.md`):
//!
//! * a Control device of type `0x1A` (26, a CTLD tag-26 item) answers
//!   `value = (condition × coefficient) × multiplier`, in this order, where `condition`
//!   is the life left in the model node the device names (its NDP row keyed by the
//!   item's `fixed_words[1]`: life over its maximum, 1 intact, 0 destroyed),
//!   `coefficient` the item's `+0x2C` word (`fixed_words[11]`, the `.ctl` record's first
//!   float) and `multiplier` the device's `+0x4C`: its power level, the building's
//!   channel-3 level at its last power tick ([`iron3d_core::Power`]; 1 while its
//!   batteries cover its draw, lower once they hold less than a power tick of it);
//! * the building's KPD is the sum of its devices' answers (query `0xe00` over its
//!   class-26 parts), and its ore offer rate (query `0x1002`) is KPD × its profile's
//!   `Transfer_Ore_OffBoard`;
//! * only finite normal (or zero) inputs, intermediates and results are accepted; any
//!   other value is an error, not an emulation of the 80-bit accumulator.
//!
//! Project readings (not yet modelled): every node stays intact (condition 1: the
//! building's node lives are combat's and not yet published to the economy); a building
//! without batteries in its data works at level 1.

use crate::distributor::finite;
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::{Power, ProductionParts};
use iron3d_formats::helpers::ctld::Ctld;

/// CTLD item tag of the resource multiplier device.
pub const TAG_ORE_DEVICE: u32 = 0x1A;

/// One tag-26 device.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct OreDevice {
    /// Device `+0x04`: the NDP row key (item `fixed_words[1]`) of its node.
    pub provider_key: u32,
    /// Device `+0x54`: the coefficient (item `fixed_words[11]`, IEEE bits).
    pub coefficient: f32,
}

/// An object's tag-26 devices and the condition of its NDP rows' nodes.
#[derive(Component, Debug, Clone, PartialEq, Default, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct OreDevices {
    /// Devices in CTLD record order.
    pub devices: Vec<OreDevice>,
    /// Each NDP row's node's condition, life over its maximum (indexed by row key).
    pub provider: Vec<f32>,
}

/// A value the numeric policy rejects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonFinite {
    /// Which step produced it.
    pub at: &'static str,
    /// The value.
    pub value: f32,
}

fn check(at: &'static str, value: f32) -> Result<f32, NonFinite> {
    finite(value).ok_or(NonFinite { at, value })
}

/// The tag-26 devices of a control description, in record order.
pub fn devices(ctld: &Ctld) -> Vec<OreDevice> {
    ctld.items
        .iter()
        .filter(|i| i.tag() == TAG_ORE_DEVICE)
        .map(|i| OreDevice { provider_key: i.key(), coefficient: f32::from_bits(i.coefficient_raw()) })
        .collect()
}

impl OreDevices {
    /// The devices of the parts the mission load read: each component's devices use
    /// that component's NDP rows (a key outside them never answers), every node intact.
    pub fn from_parts(parts: &ProductionParts) -> Self {
        let mut out = Self::default();
        for part in &parts.0 {
            let offset = out.provider.len() as u32;
            for &(key, bits) in &part.devices {
                let provider_key = if (key as usize) < part.rows.len() { offset + key } else { u32::MAX };
                out.devices.push(OreDevice { provider_key, coefficient: f32::from_bits(bits) });
            }
            out.provider.extend(part.rows.iter().map(|_| 1.0));
        }
        out
    }
}

impl OreDevice {
    /// Control's answer (selector `0x300`): `(condition × coefficient) × multiplier`.
    ///
    /// # Errors
    /// A non-finite input, intermediate or result.
    pub fn value(&self, condition: f32, multiplier: f32) -> Result<f32, NonFinite> {
        let p = check("condition", condition)?;
        let c = check("coefficient", self.coefficient)?;
        let m = check("multiplier", multiplier)?;
        let first = check("condition × coefficient", p * c)?;
        check("× multiplier", first * m)
    }
}

impl OreDevices {
    /// The KPD at power `level`: Behavior's sum over the devices whose query succeeds (a
    /// device without its NDP row does not answer).
    ///
    /// # Errors
    /// A non-finite value or sum.
    pub fn sum(&self, level: f32) -> Result<f32, NonFinite> {
        let mut sum = 0.0f32;
        for d in &self.devices {
            let Some(current) = self.provider.get(d.provider_key as usize) else { continue };
            sum = check("sum", sum + d.value(*current, level)?)?;
        }
        Ok(sum)
    }
}

/// The KPD of an object with `devices` and `power`: their sum at its channel-3 level
/// ([`OreDevices::sum`]); 1 for an object without efficiency parts (the project's).
///
/// # Errors
/// A non-finite value or sum.
pub fn kpd(devices: Option<&OreDevices>, power: Option<&Power>) -> Result<f32, NonFinite> {
    let level = power.map_or(1.0, |p| p.levels[3]);
    devices.filter(|d| !d.devices.is_empty()).map_or(Ok(1.0), |d| d.sum(level))
}
