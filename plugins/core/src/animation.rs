//! CTLD piece bindings as simulation state (`docs/reference/registry.md` §5.5). The mission
//! load creates them from each component's control description, Control advances the
//! cycling ones every tick, and presentation only reads them to pose model pieces.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_formats::helpers::ctld::{FLAG_WRAP, frame_at};

/// One piece binding: the node of a component's model it poses and its blend.
#[derive(Debug, Clone, Copy, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
pub struct PieceBinding {
    /// Component index in the object's component list.
    pub component: u16,
    /// MSH node of that component's model.
    pub node: u32,
    /// Animation frames at blend 0 and blend 1.
    pub endpoints: [f32; 2],
    /// Raw blend value (normalised by the flags when posing).
    pub blend: f32,
    /// Binding flags (`0x1` wrap, `0x2` invert).
    pub flags: u32,
}

impl PieceBinding {
    /// The animation frame the piece shows now.
    pub fn frame(&self) -> f32 {
        let [a, b] = self.endpoints;
        frame_at((a, b), self.blend, self.flags)
    }

    /// Whether the binding cycles (a wrapping binding over a non-empty finite range,
    /// such as a radar or a rotor).
    pub fn cycles(&self) -> bool {
        let [a, b] = self.endpoints;
        self.flags & FLAG_WRAP != 0 && a != b && a.is_finite() && b.is_finite()
    }

    /// The blend change of an advance by `frames` animation frames (0 for a binding that
    /// does not cycle).
    pub fn rate(&self, frames: f32) -> f32 {
        let [a, b] = self.endpoints;
        if self.cycles() { frames / (b - a).abs() } else { 0.0 }
    }

    /// Advances a cycling binding by `frames` animation frames (the blend wraps in
    /// [0, 1)); other bindings keep their pose. The remainder is taken only beyond one
    /// cycle: below it, it is the blend itself or the blend less one, exactly (IEEE
    /// `fmod` is exact), so the bits are the same either way.
    pub fn advance(&mut self, frames: f32) {
        if self.cycles() {
            let blend = self.blend + self.rate(frames);
            self.blend = if (0.0..1.0).contains(&blend) {
                blend
            } else if (1.0..2.0).contains(&blend) {
                blend - 1.0
            } else {
                blend.rem_euclid(1.0)
            };
        }
    }
}

/// The piece bindings of an object, in component then CTLD pose order (one per node).
#[derive(Component, Debug, Clone, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Component)]
pub struct PieceAnimation {
    /// The bindings.
    pub bindings: Vec<PieceBinding>,
}
