//! Where a node's coordinates land (the simulator's `simulationstateserializer.cpp`):
//! `origin`s accumulate on a stack, `rotate` replaces one rotation (degrees), `scale`s
//! multiply on theirs. A model, memory cell, launcher, sound or power source is turned
//! about Y by the rotation's heading, scaled and moved by the top origin; a shape's or a
//! line's vertices are turned about Z, then X, then Y by the whole rotation (normals too)
//! and moved, never scaled; a track's and a wire's points are only moved.

/// The transform in force.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placement {
    /// Accumulated origins, the innermost last.
    pub origins: Vec<[f64; 3]>,
    /// Accumulated scales, the innermost last.
    pub scales: Vec<[f64; 3]>,
    /// Euler angles (degrees).
    pub rotation: [f64; 3],
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `(sin, cos)` of `degrees`.
fn sin_cos(degrees: f64) -> (f64, f64) {
    let r = degrees.to_radians();
    (libm::sin(r), libm::cos(r))
}

/// `p` turned about Y (x′ = x cos + z sin, z′ = −x sin + z cos).
fn about_y(p: [f64; 3], degrees: f64) -> [f64; 3] {
    let (s, c) = sin_cos(degrees);
    [p[0] * c + p[2] * s, p[1], -p[0] * s + p[2] * c]
}

/// `p` turned about X.
fn about_x(p: [f64; 3], degrees: f64) -> [f64; 3] {
    let (s, c) = sin_cos(degrees);
    [p[0], p[1] * c - p[2] * s, p[1] * s + p[2] * c]
}

/// `p` turned about Z.
fn about_z(p: [f64; 3], degrees: f64) -> [f64; 3] {
    let (s, c) = sin_cos(degrees);
    [p[0] * c - p[1] * s, p[0] * s + p[1] * c, p[2]]
}

impl Placement {
    /// The top origin.
    pub fn origin(&self) -> [f64; 3] {
        self.origins.last().copied().unwrap_or_default()
    }

    /// The top scale.
    pub fn scale(&self) -> [f64; 3] {
        self.scales.last().copied().unwrap_or([1.0; 3])
    }

    /// `origin p`: the parent's plus `p`.
    pub fn push_origin(&mut self, p: [f64; 3]) {
        self.origins.push(add(self.origin(), p));
    }

    /// `scale s`: the parent's times `s`.
    pub fn push_scale(&mut self, s: [f64; 3]) {
        let t = self.scale();
        self.scales.push([t[0] * s[0], t[1] * s[1], t[2] * s[2]]);
    }

    /// A model's (memory cell's, launcher's, sound's, power source's) position.
    pub fn point(&self, p: [f64; 3]) -> [f32; 3] {
        let r = about_y(p, self.rotation[1]);
        let s = self.scale();
        add([r[0] * s[0], r[1] * s[1], r[2] * s[2]], self.origin()).map(|v| v as f32)
    }

    /// A shape's or a line's vertex.
    pub fn vertex(&self, p: [f64; 3]) -> [f32; 3] {
        add(self.turn(p), self.origin()).map(|v| v as f32)
    }

    /// A shape's normal.
    pub fn normal(&self, n: [f64; 3]) -> [f32; 3] {
        self.turn(n).map(|v| v as f32)
    }

    /// A track's or a wire's point.
    pub fn offset(&self, p: [f64; 3]) -> [f32; 3] {
        add(p, self.origin()).map(|v| v as f32)
    }

    fn turn(&self, p: [f64; 3]) -> [f64; 3] {
        let [x, y, z] = self.rotation;
        about_y(about_x(about_z(p, z), x), y)
    }
}
