//! The streaming core, free of Bevy: which PACK sections to request, keep and unload for a
//! camera position and velocity, with bounded in-flight and ready queues (back-pressure).
//!
//! Geometry: the *wanted* area is a capsule of `radius` sections around the segment from
//! the camera to the camera plus `lookahead` sections along the horizontal direction of
//! travel (a disc when the camera is slow). The *keep* area is the same capsule widened by
//! `keep_margin` sections; tracked sections outside it are cancelled or unloaded, so the
//! number of tracked sections never exceeds [`Planner::tracked_bound`]. Every list this
//! module returns is ordered by distance to the camera and then by [`SectionId`] (row, then
//! column), never by hash order, so the same inputs always give the same plan.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use iron3d_eu7::pack::{SECTION_SIZE, section_of};

/// A PACK section key: `row` along Z, `col` along X (docs/reference/eu7.md §7.1). Orders by row, then
/// column, like PIDX.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SectionId {
    /// Section index along Z.
    pub row: u16,
    /// Section index along X.
    pub col: u16,
}

impl SectionId {
    /// The section (`row`, `col`).
    pub fn new(row: u16, col: u16) -> Self {
        Self { row, col }
    }

    /// The section holding world point (`x`, `z`), `None` outside the 16-bit key range.
    pub fn containing(x: f64, z: f64) -> Option<Self> {
        let row = u16::try_from(section_of(z)).ok()?;
        let col = u16::try_from(section_of(x)).ok()?;
        Some(Self { row, col })
    }

    /// World (`x`, `z`) of the section centre (docs/reference/eu7.md §7.2).
    pub fn centre(self) -> [f64; 2] {
        let c = |s: u16| (f64::from(s) - 250.0 + 0.5) * SECTION_SIZE;
        [c(self.col), c(self.row)]
    }
}

impl std::fmt::Display for SectionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.row, self.col)
    }
}

/// Streaming tunables. The default is the seed's (`docs/reference/eu7.md` §10.1);
/// [`StreamingConfig::compact`] is the project's lighter set for small machines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StreamingConfig {
    /// Sections whose centre lies within this many sections of the start position are
    /// decoded and applied before the first frame (0: no bootstrap).
    pub bootstrap_radius: u32,
    /// Longest wait for the blocking bootstrap, in milliseconds; sections not decoded by
    /// then keep streaming normally.
    pub bootstrap_timeout_ms: u64,
    /// Sections whose centre lies within this many sections of the camera path are wanted.
    pub radius: u32,
    /// How many sections ahead along the direction of travel the wanted area reaches.
    pub lookahead: u32,
    /// Extra sections beyond the wanted area that stay loaded (hysteresis).
    pub keep_margin: u32,
    /// Most decode tasks running or finished-but-not-harvested at once.
    pub max_in_flight: usize,
    /// Most decoded sections waiting to be applied.
    pub max_ready: usize,
    /// Horizontal speed (m/s) below which there is no lookahead.
    pub min_speed: f64,
}

impl Default for StreamingConfig {
    /// The seed's numbers: bootstrap 3, stream radius 9, lookahead 4, 72 in flight, 36
    /// ready, 120 s bootstrap timeout (the keep margin of 2 is ours).
    fn default() -> Self {
        Self {
            bootstrap_radius: 3,
            bootstrap_timeout_ms: 120_000,
            radius: 9,
            lookahead: 4,
            keep_margin: 2,
            max_in_flight: 72,
            max_ready: 36,
            min_speed: 0.5,
        }
    }
}

impl StreamingConfig {
    /// The project's lighter set (before the seed's numbers were adopted): bootstrap 1,
    /// radius 4, lookahead 4, 8 in flight, 4 ready.
    pub fn compact() -> Self {
        Self { bootstrap_radius: 1, radius: 4, max_in_flight: 8, max_ready: 4, ..Self::default() }
    }
}

/// Where a tracked section is in its life cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionState {
    /// A decode task was requested and not yet harvested.
    InFlight,
    /// Decoded, waiting in the ready queue to be applied.
    Ready,
    /// Applied (its entities exist).
    Resident,
}

/// What the caller must do after [`Planner::update`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Start decoding these, in this order (nearest first).
    pub request: Vec<SectionId>,
    /// Drop the decode task or ready data of these (they left the keep area).
    pub cancel: Vec<SectionId>,
    /// Despawn these resident sections.
    pub unload: Vec<SectionId>,
}

/// Result of offering a finished decode to the ready queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Harvest {
    /// Moved to the ready queue.
    Accepted,
    /// The ready queue is full: keep the result and offer it again later.
    QueueFull,
    /// The section is not in flight (cancelled): drop the result.
    Unknown,
}

/// The camera's horizontal position and travel direction, as a capsule axis.
#[derive(Debug, Clone, Copy)]
struct Axis {
    start: [f64; 2],
    end: [f64; 2],
}

impl Axis {
    fn new(pos: [f64; 2], vel: [f64; 2], cfg: &StreamingConfig) -> Self {
        let speed = vel[0].hypot(vel[1]);
        let len =
            if speed.is_finite() && speed >= cfg.min_speed { f64::from(cfg.lookahead) * SECTION_SIZE } else { 0.0 };
        let end = if len > 0.0 { [pos[0] + vel[0] / speed * len, pos[1] + vel[1] / speed * len] } else { pos };
        Self { start: pos, end }
    }

    /// Distance from `p` to the segment.
    fn distance(&self, p: [f64; 2]) -> f64 {
        let d = [self.end[0] - self.start[0], self.end[1] - self.start[1]];
        let rel = [p[0] - self.start[0], p[1] - self.start[1]];
        let len2 = d[0] * d[0] + d[1] * d[1];
        let t = if len2 > 0.0 { ((rel[0] * d[0] + rel[1] * d[1]) / len2).clamp(0.0, 1.0) } else { 0.0 };
        (rel[0] - d[0] * t).hypot(rel[1] - d[1] * t)
    }

    /// Inclusive section index box (rows, cols) covering the capsule of `reach` metres.
    fn bounds(&self, reach: f64) -> Option<([u16; 2], [u16; 2])> {
        let lo = |a: f64, b: f64| section_of(a.min(b) - reach).clamp(0, i64::from(u16::MAX));
        let hi = |a: f64, b: f64| section_of(a.max(b) + reach).clamp(0, i64::from(u16::MAX));
        let rows = [lo(self.start[1], self.end[1]), hi(self.start[1], self.end[1])];
        let cols = [lo(self.start[0], self.end[0]), hi(self.start[0], self.end[0])];
        let to16 = |v: [i64; 2]| Some([u16::try_from(v[0]).ok()?, u16::try_from(v[1]).ok()?]);
        Some((to16(rows)?, to16(cols)?))
    }
}

/// The streaming state machine. Owns no section data: the caller keeps decode tasks and
/// decoded sections keyed by [`SectionId`] and follows the returned [`Plan`]s.
#[derive(Debug, Clone, Default)]
pub struct Planner {
    config: StreamingConfig,
    available: Vec<SectionId>,
    states: BTreeMap<SectionId, SectionState>,
    ready: VecDeque<SectionId>,
    failed: BTreeSet<SectionId>,
}

impl Planner {
    /// A planner over the sections that exist (PIDX entries with models); order and
    /// duplicates of `available` do not matter.
    pub fn new(config: StreamingConfig, available: impl IntoIterator<Item = SectionId>) -> Self {
        let mut available: Vec<SectionId> = available.into_iter().collect();
        available.sort_unstable();
        available.dedup();
        Self { config, available, ..Self::default() }
    }

    /// The configuration.
    pub fn config(&self) -> &StreamingConfig {
        &self.config
    }

    /// Sections that exist, sorted.
    pub fn available(&self) -> &[SectionId] {
        &self.available
    }

    /// State of `id`, `None` if untracked.
    pub fn state(&self, id: SectionId) -> Option<SectionState> {
        self.states.get(&id).copied()
    }

    /// Tracked sections and their states, sorted by id.
    pub fn states(&self) -> impl Iterator<Item = (SectionId, SectionState)> + '_ {
        self.states.iter().map(|(&k, &v)| (k, v))
    }

    /// Number of tracked sections in `state`.
    pub fn count(&self, state: SectionState) -> usize {
        match state {
            SectionState::Ready => self.ready.len(),
            _ => self.states.values().filter(|&&s| s == state).count(),
        }
    }

    /// Sections whose decode failed (never requested again).
    pub fn failed(&self) -> &BTreeSet<SectionId> {
        &self.failed
    }

    /// Upper bound of tracked sections (in flight + ready + resident) after any update:
    /// the section-index box around the keep capsule.
    pub fn tracked_bound(&self) -> usize {
        let k = (self.config.radius + self.config.keep_margin) as usize;
        let side = 2 * k + 2;
        side * (side + self.config.lookahead as usize + 1)
    }

    /// Available sections within `reach` metres of the axis, nearest to the camera first.
    fn within(&self, axis: &Axis, reach: f64) -> Vec<(f64, SectionId)> {
        let Some((rows, cols)) = axis.bounds(reach) else { return Vec::new() };
        let mut out = Vec::new();
        for row in rows[0]..=rows[1] {
            let lo = self.available.partition_point(|s| *s < SectionId::new(row, cols[0]));
            let hi = self.available.partition_point(|s| *s <= SectionId::new(row, cols[1]));
            for &id in self.available.get(lo..hi).unwrap_or(&[]) {
                let c = id.centre();
                if axis.distance(c) <= reach {
                    let d = (c[0] - axis.start[0]).hypot(c[1] - axis.start[1]);
                    out.push((d, id));
                }
            }
        }
        out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        out
    }

    /// The blocking bootstrap's sections (`preload_section_stream`, docs/reference/eu7.md §10.1): available
    /// sections within `bootstrap_radius` sections of `pos`, nearest first, not yet tracked;
    /// they become in flight regardless of `max_in_flight` and are applied with
    /// [`Planner::preloaded`].
    pub fn bootstrap(&mut self, pos: [f64; 2]) -> Vec<SectionId> {
        if self.config.bootstrap_radius == 0 {
            return Vec::new();
        }
        let axis = Axis::new(pos, [0.0; 2], &self.config);
        let reach = f64::from(self.config.bootstrap_radius) * SECTION_SIZE;
        let ids: Vec<SectionId> = self
            .within(&axis, reach)
            .into_iter()
            .map(|(_, id)| id)
            .filter(|id| !self.states.contains_key(id))
            .collect();
        for &id in &ids {
            self.states.insert(id, SectionState::InFlight);
        }
        ids
    }

    /// A bootstrap section decoded and applied at once (skipping the ready queue); false if
    /// it was not in flight.
    pub fn preloaded(&mut self, id: SectionId) -> bool {
        match self.states.get_mut(&id) {
            Some(s @ SectionState::InFlight) => {
                *s = SectionState::Resident;
                true
            }
            _ => false,
        }
    }

    /// Re-plans for camera position `pos` = (x, z) and horizontal velocity `vel` (m/s).
    /// Tracked sections outside the keep area are cancelled/unloaded; missing wanted
    /// sections are requested nearest first while fewer than `max_in_flight` are in flight.
    pub fn update(&mut self, pos: [f64; 2], vel: [f64; 2]) -> Plan {
        let axis = Axis::new(pos, vel, &self.config);
        let keep_reach = f64::from(self.config.radius + self.config.keep_margin) * SECTION_SIZE;
        let want_reach = f64::from(self.config.radius) * SECTION_SIZE;
        let mut plan = Plan::default();
        let mut leaving: Vec<(f64, SectionId, SectionState)> = self
            .states
            .iter()
            .filter(|(id, _)| axis.distance(id.centre()) > keep_reach)
            .map(|(&id, &s)| {
                let c = id.centre();
                ((c[0] - pos[0]).hypot(c[1] - pos[1]), id, s)
            })
            .collect();
        leaving.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, id, state) in leaving {
            self.states.remove(&id);
            match state {
                SectionState::Resident => plan.unload.push(id),
                SectionState::Ready => {
                    self.ready.retain(|r| *r != id);
                    plan.cancel.push(id);
                }
                SectionState::InFlight => plan.cancel.push(id),
            }
        }
        let mut in_flight = self.count(SectionState::InFlight);
        for (_, id) in self.within(&axis, want_reach) {
            if in_flight >= self.config.max_in_flight {
                break;
            }
            if self.states.contains_key(&id) || self.failed.contains(&id) {
                continue;
            }
            self.states.insert(id, SectionState::InFlight);
            plan.request.push(id);
            in_flight += 1;
        }
        plan
    }

    /// Offers a finished decode of `id` to the ready queue.
    pub fn finished(&mut self, id: SectionId) -> Harvest {
        match self.states.get_mut(&id) {
            Some(s @ SectionState::InFlight) => {
                if self.ready.len() >= self.config.max_ready {
                    return Harvest::QueueFull;
                }
                *s = SectionState::Ready;
                self.ready.push_back(id);
                Harvest::Accepted
            }
            _ => Harvest::Unknown,
        }
    }

    /// Records a failed decode of `id`: untracked and never requested again.
    pub fn failed_decode(&mut self, id: SectionId) {
        if self.states.get(&id) == Some(&SectionState::InFlight) {
            self.states.remove(&id);
        }
        self.failed.insert(id);
    }

    /// Takes the oldest ready section to apply now and marks it resident.
    pub fn pop_ready(&mut self) -> Option<SectionId> {
        let id = self.ready.pop_front()?;
        self.states.insert(id, SectionState::Resident);
        Some(id)
    }
}

/// Outcome of [`simulate_flight`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlightReport {
    /// Frames simulated.
    pub frames: u64,
    /// Sections requested.
    pub requested: u64,
    /// Sections applied.
    pub applied: u64,
    /// Resident sections unloaded.
    pub unloaded: u64,
    /// In-flight or ready sections cancelled.
    pub cancelled: u64,
    /// Most resident sections at once.
    pub peak_resident: usize,
    /// Most sections in flight at once.
    pub peak_in_flight: usize,
    /// Most sections in the ready queue at once.
    pub peak_ready: usize,
    /// Most tracked sections (all states) at once.
    pub peak_tracked: usize,
    /// Bytes reported by the decode callback, summed over all decodes.
    pub decoded_bytes: u64,
    /// Most bytes held by resident and ready sections at once.
    pub peak_resident_bytes: u64,
    /// The planner's [`Planner::tracked_bound`].
    pub tracked_bound: usize,
}

/// A straight flight for tests and benches: the camera moves from `from` to `to` (x, z)
/// at `speed` m/s with `dt` seconds per frame; each decode finishes `latency` frames after
/// its request and reports `decode(id)` bytes; one ready section is applied per frame.
pub fn simulate_flight(
    planner: &mut Planner,
    from: [f64; 2],
    to: [f64; 2],
    speed: f64,
    dt: f64,
    latency: u64,
    mut decode: impl FnMut(SectionId) -> u64,
) -> FlightReport {
    let mut r = FlightReport { tracked_bound: planner.tracked_bound(), ..FlightReport::default() };
    let dist = (to[0] - from[0]).hypot(to[1] - from[1]);
    let vel =
        if dist > 0.0 { [(to[0] - from[0]) / dist * speed, (to[1] - from[1]) / dist * speed] } else { [0.0, 0.0] };
    let frames = if speed > 0.0 && dt > 0.0 { (dist / (speed * dt)).ceil() as u64 } else { 0 };
    // Pending decodes in request order: (id, frame it finishes).
    let mut pending: Vec<(SectionId, u64)> = Vec::new();
    let mut held: BTreeMap<SectionId, u64> = BTreeMap::new();
    let mut resident_bytes = 0u64;
    for frame in 0..=frames {
        let t = (frame as f64 * speed * dt).min(dist);
        let pos = if dist > 0.0 { [from[0] + vel[0] / speed * t, from[1] + vel[1] / speed * t] } else { from };
        let plan = planner.update(pos, if frame < frames { vel } else { [0.0, 0.0] });
        for id in plan.cancel.iter().chain(&plan.unload) {
            pending.retain(|(p, _)| p != id);
            resident_bytes -= held.remove(id).unwrap_or(0);
        }
        r.cancelled += plan.cancel.len() as u64;
        r.unloaded += plan.unload.len() as u64;
        r.requested += plan.request.len() as u64;
        pending.extend(plan.request.iter().map(|&id| (id, frame + latency)));
        let mut still = Vec::with_capacity(pending.len());
        for (id, done) in pending.drain(..) {
            if done > frame {
                still.push((id, done));
                continue;
            }
            match planner.finished(id) {
                Harvest::QueueFull => still.push((id, done)),
                Harvest::Unknown => {}
                Harvest::Accepted => {
                    let bytes = decode(id);
                    r.decoded_bytes += bytes;
                    resident_bytes += bytes;
                    held.insert(id, bytes);
                }
            }
        }
        pending = still;
        if planner.pop_ready().is_some() {
            r.applied += 1;
        }
        r.peak_resident = r.peak_resident.max(planner.count(SectionState::Resident));
        r.peak_in_flight = r.peak_in_flight.max(planner.count(SectionState::InFlight));
        r.peak_ready = r.peak_ready.max(planner.count(SectionState::Ready));
        r.peak_tracked = r.peak_tracked.max(planner.states.len());
        r.peak_resident_bytes = r.peak_resident_bytes.max(resident_bytes);
        r.frames = frame + 1;
    }
    r
}

#[cfg(test)]
mod tests;
