//! Deterministic trigonometry and small vector helpers shared by the layout and model
//! generators: only `+ - * /` and `sqrt`, so every platform produces identical bits.

/// pi.
pub const PI: f32 = std::f32::consts::PI;
/// 2 pi.
pub const TAU: f32 = std::f32::consts::TAU;

/// sin by range reduction to `[-pi/2, pi/2]` and a short Taylor series (about 1e-4).
pub fn sin_approx(a: f32) -> f32 {
    let mut x = a - TAU * (a / TAU).floor();
    if x > PI {
        x -= TAU;
    }
    let half_pi = PI / 2.0;
    if x > half_pi {
        x = PI - x;
    } else if x < -half_pi {
        x = -PI - x;
    }
    let x2 = x * x;
    x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0))))
}

/// cos, see [`sin_approx`].
pub fn cos_approx(a: f32) -> f32 {
    sin_approx(a + PI / 2.0)
}

/// A 3-vector.
pub type V3 = [f32; 3];

/// `a + b`.
pub fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a - b`.
pub fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a x b`.
pub fn cross(a: V3, b: V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `a . b`.
pub fn dot(a: V3, b: V3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Unit vector (`[0, 0, 1]` for a zero vector).
pub fn normalize(a: V3) -> V3 {
    let len = dot(a, a).sqrt();
    if len > 1e-12 { [a[0] / len, a[1] / len, a[2] / len] } else { [0.0, 0.0, 1.0] }
}

/// A rigid placement: rotation matrix (rows) then translation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Xf {
    /// Rotation rows.
    pub m: [V3; 3],
    /// Translation.
    pub t: V3,
}

impl Xf {
    /// Identity.
    pub const ID: Self = Self { m: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], t: [0.0; 3] };

    /// A translation.
    pub fn at(t: V3) -> Self {
        Self { t, ..Self::ID }
    }

    /// Rotation about Z by `a` radians.
    pub fn rot_z(a: f32) -> Self {
        let (s, c) = (sin_approx(a), cos_approx(a));
        Self { m: [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], t: [0.0; 3] }
    }

    /// Rotation about Y by `a` radians (`a = pi/2` turns +Z into +X).
    pub fn rot_y(a: f32) -> Self {
        let (s, c) = (sin_approx(a), cos_approx(a));
        Self { m: [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]], t: [0.0; 3] }
    }

    /// Rotation about X by `a` radians (`a = -pi/2` turns +Z into +Y).
    pub fn rot_x(a: f32) -> Self {
        let (s, c) = (sin_approx(a), cos_approx(a));
        Self { m: [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]], t: [0.0; 3] }
    }

    /// Rotates a direction.
    pub fn dir(&self, v: V3) -> V3 {
        [dot(self.m[0], v), dot(self.m[1], v), dot(self.m[2], v)]
    }

    /// Transforms a point.
    pub fn point(&self, v: V3) -> V3 {
        add(self.dir(v), self.t)
    }

    /// `self` after `inner` (apply `inner` first).
    pub fn then(&self, inner: &Xf) -> Xf {
        let col = |j: usize| [inner.m[0][j], inner.m[1][j], inner.m[2][j]];
        let m = [0, 1, 2].map(|i| [0, 1, 2].map(|j| dot(self.m[i], col(j))));
        Xf { m, t: self.point(inner.t) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trig_approximation_is_close() {
        for i in 0..64 {
            let a = i as f32 * 0.2 - 3.0;
            assert!((sin_approx(a) - a.sin()).abs() < 2e-3, "{a}");
            assert!((cos_approx(a) - a.cos()).abs() < 2e-3, "{a}");
        }
    }

    #[test]
    fn rotations_turn_axes_as_documented() {
        let x = Xf::rot_y(PI / 2.0).dir([0.0, 0.0, 1.0]);
        assert!((x[0] - 1.0).abs() < 1e-3 && x[2].abs() < 1e-3);
        let y = Xf::rot_x(-PI / 2.0).dir([0.0, 0.0, 1.0]);
        assert!((y[1] - 1.0).abs() < 1e-3 && y[2].abs() < 1e-3);
        let both = Xf::at([1.0, 0.0, 0.0]).then(&Xf::rot_z(PI / 2.0)).point([1.0, 0.0, 0.0]);
        assert!((both[0] - 1.0).abs() < 1e-3 && (both[1] - 1.0).abs() < 1e-3);
    }
}
