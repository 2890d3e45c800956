//! Riding the track network, free of Bevy: a position on a track's Bézier path moved by
//! arc length, across the joints between paths and between tracks (ends within
//! [`JOINT_TOLERANCE`]), a switch (`TRAK` type 2) taken along the path its state selects.
//! Direction on a path is kept, so a track entered at its end is ridden backwards.

use crate::data::WorldTrack;

/// Largest gap between two path ends that still counts as a joint, in metres.
pub const JOINT_TOLERANCE: f32 = 0.5;

/// Pieces each path is sampled into for arc length.
const PIECES: usize = 64;

/// `TRAK` type of a switch (docs/reference/eu7.md §6.4).
pub const SWITCH: u8 = 2;

/// The network: world tracks, per-path arc-length tables and switch states.
#[derive(Debug, Clone, Default)]
pub struct Network {
    /// The tracks.
    pub tracks: Vec<WorldTrack>,
    /// Cumulative lengths (`PIECES + 1` entries) per track and path.
    lengths: Vec<Vec<Vec<f32>>>,
    /// Path index each switch leads to (0 for other tracks).
    pub switch_state: Vec<usize>,
}

/// Where the rider is: `s` metres from the start of path `path` of track `track`, moving
/// towards the path's end if `forward`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RidePosition {
    /// Track index.
    pub track: usize,
    /// Path index within the track.
    pub path: usize,
    /// Arc length from the path start.
    pub s: f32,
    /// Towards the path end.
    pub forward: bool,
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

impl Network {
    /// A network over `tracks`, every switch in state 0.
    pub fn new(tracks: Vec<WorldTrack>) -> Self {
        let lengths = tracks
            .iter()
            .map(|t| {
                t.paths
                    .iter()
                    .map(|p| {
                        let mut acc = 0.0;
                        let mut out = vec![0.0];
                        for k in 1..=PIECES {
                            let (a, b) = (p.point((k - 1) as f32 / PIECES as f32), p.point(k as f32 / PIECES as f32));
                            acc += dist(a, b);
                            out.push(acc);
                        }
                        out
                    })
                    .collect()
            })
            .collect();
        let switch_state = vec![0; tracks.len()];
        Self { tracks, lengths, switch_state }
    }

    /// Length of a path.
    pub fn path_length(&self, track: usize, path: usize) -> f32 {
        self.lengths.get(track).and_then(|t| t.get(path)).and_then(|l| l.last()).copied().unwrap_or(0.0)
    }

    /// The paths of `track` ridden, in order: a switch only its selected path.
    fn ridden_paths(&self, track: usize) -> Vec<usize> {
        let Some(t) = self.tracks.get(track) else { return Vec::new() };
        if t.track_type == SWITCH {
            let state = self.switch_state.get(track).copied().unwrap_or(0).min(t.paths.len().saturating_sub(1));
            vec![state]
        } else {
            (0..t.paths.len()).collect()
        }
    }

    /// A start on `track`: the beginning of its first ridden path, forwards.
    pub fn start(&self, track: usize) -> Option<RidePosition> {
        let path = *self.ridden_paths(track).first()?;
        Some(RidePosition { track, path, s: 0.0, forward: true })
    }

    /// Point and unit direction of travel at `p`.
    pub fn pose(&self, p: &RidePosition) -> Option<([f32; 3], [f32; 3])> {
        let path = self.tracks.get(p.track)?.paths.get(p.path)?;
        let table = self.lengths.get(p.track)?.get(p.path)?;
        let k = table.partition_point(|&l| l < p.s).clamp(1, PIECES);
        let (l0, l1) = (table[k - 1], table[k]);
        let frac = if l1 > l0 { ((p.s - l0) / (l1 - l0)).clamp(0.0, 1.0) } else { 0.0 };
        let t = ((k - 1) as f32 + frac) / PIECES as f32;
        let at = path.point(t);
        let (a, b) = (path.point((t - 0.01).max(0.0)), path.point((t + 0.01).min(1.0)));
        let len = dist(a, b).max(1e-6);
        let sign = if p.forward { 1.0 } else { -1.0 };
        Some((at, std::array::from_fn(|i| sign * (b[i] - a[i]) / len)))
    }

    /// The position after the end `at` of the current path, leaving `from`: the next
    /// ridden path of the same track, else a path of another track with an end at `at`
    /// (a switch's selected path first); `None` at a dead end.
    fn next(&self, from: &RidePosition, at: [f32; 3]) -> Option<RidePosition> {
        let own = self.ridden_paths(from.track);
        let i = own.iter().position(|&p| p == from.path)?;
        let step = if from.forward { own.get(i + 1) } else { i.checked_sub(1).and_then(|k| own.get(k)) };
        if let Some(&path) = step {
            let s = if from.forward { 0.0 } else { self.path_length(from.track, path) };
            return Some(RidePosition { track: from.track, path, s, forward: from.forward });
        }
        let mut best: Option<(f32, RidePosition)> = None;
        for (k, t) in self.tracks.iter().enumerate() {
            if k == from.track {
                continue;
            }
            let ridden = self.ridden_paths(k);
            let others = (0..t.paths.len()).filter(|p| !ridden.contains(p));
            let candidates: Vec<usize> = ridden.iter().copied().chain(others).collect();
            for (rank, &path) in candidates.iter().enumerate() {
                let Some(p) = t.paths.get(path) else { continue };
                for (end, forward) in [(p.p_start, true), (p.p_end, false)] {
                    let d = dist(end, at);
                    let key = d + rank as f32 * JOINT_TOLERANCE * 4.0;
                    if d <= JOINT_TOLERANCE && best.is_none_or(|(b, _)| key < b) {
                        let s = if forward { 0.0 } else { self.path_length(k, path) };
                        best = Some((key, RidePosition { track: k, path, s, forward }));
                    }
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// The first switch ahead of `p` within `reach` metres along the ride, with the
    /// distance to it; the track being ridden does not count (it is already taken).
    pub fn next_switch(&self, p: &RidePosition, reach: f32) -> Option<(usize, f32)> {
        let mut probe = *p;
        let mut travelled = 0.0;
        while travelled <= reach {
            if probe.track != p.track && self.tracks.get(probe.track).is_some_and(|t| t.track_type == SWITCH) {
                return Some((probe.track, travelled));
            }
            // Step to the start of the next path (a hair past the current path's end).
            let len = self.path_length(probe.track, probe.path);
            let rest = if probe.forward { len - probe.s } else { probe.s } + 1e-3;
            let before = (probe.track, probe.path);
            if !self.advance(&mut probe, rest) || (probe.track, probe.path) == before {
                return None;
            }
            travelled += rest;
        }
        None
    }

    /// Throws switch `track` over to its next path (after the last, back to the first);
    /// false if `track` is not a switch with two paths or more.
    pub fn throw(&mut self, track: usize) -> bool {
        let Some(t) = self.tracks.get(track).filter(|t| t.track_type == SWITCH && t.paths.len() > 1) else {
            return false;
        };
        let paths = t.paths.len();
        match self.switch_state.get_mut(track) {
            Some(state) => {
                *state = (*state + 1) % paths;
                true
            }
            None => false,
        }
    }

    /// Moves `p` by `distance` metres along the network; returns false (stopping at the
    /// end) at a dead end.
    pub fn advance(&self, p: &mut RidePosition, mut distance: f32) -> bool {
        for _ in 0..10_000 {
            let len = self.path_length(p.track, p.path);
            let target = if p.forward { p.s + distance } else { p.s - distance };
            if (0.0..=len).contains(&target) {
                p.s = target;
                return true;
            }
            let (end_s, at_end) = if p.forward { (len, 1.0) } else { (0.0, 0.0) };
            distance -= (end_s - p.s).abs();
            p.s = end_s;
            let Some(at) = self.tracks.get(p.track).and_then(|t| t.paths.get(p.path)).map(|x| x.point(at_end)) else {
                return false;
            };
            match self.next(p, at) {
                Some(n) => *p = n,
                None => return false,
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_eu7::track::SegmentPath;

    fn straight(a: [f32; 3], b: [f32; 3]) -> SegmentPath {
        let lerp = |t: f32| std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t);
        SegmentPath { p_start: a, cp_out: lerp(1.0 / 3.0), cp_in: lerp(2.0 / 3.0), p_end: b, ..SegmentPath::default() }
    }

    fn track(track_type: u8, paths: Vec<SegmentPath>) -> WorldTrack {
        WorldTrack { name: String::new(), track_type, category: 1, width: 1.435, paths, module: 0, index: 0 }
    }

    fn near(a: [f32; 3], b: [f32; 3]) -> bool {
        dist(a, b) < 0.05
    }

    /// A two-segment track: 100 m east, then a quarter curve of radius ~100 m to the north;
    /// riding 150 m crosses the joint onto the curve; the end is a dead end.
    #[test]
    fn rides_along_a_two_segment_track() {
        let k = 0.552_284_8 * 100.0;
        let curve = SegmentPath {
            p_start: [100.0, 0.0, 0.0],
            cp_out: [100.0 + k, 0.0, 0.0],
            cp_in: [200.0, 0.0, -100.0 + k],
            p_end: [200.0, 0.0, -100.0],
            ..SegmentPath::default()
        };
        let net = Network::new(vec![track(1, vec![straight([0.0; 3], [100.0, 0.0, 0.0]), curve])]);
        let mut p = net.start(0).unwrap();
        assert!(net.advance(&mut p, 60.0));
        let (at, dir) = net.pose(&p).unwrap();
        assert!(near(at, [60.0, 0.0, 0.0]) && near(dir, [1.0, 0.0, 0.0]), "{at:?} {dir:?}");
        assert!(net.advance(&mut p, 90.0));
        assert_eq!((p.track, p.path), (0, 1));
        assert!((p.s - 50.0).abs() < 1e-3, "{p:?}");
        let (at, dir) = net.pose(&p).unwrap();
        // Half way along the quarter circle (length ~157 m, 50 m ≈ 0.32 of it): north-east.
        assert!(at[0] > 140.0 && at[0] < 150.0 && at[2] < -5.0 && at[2] > -20.0, "{at:?}");
        assert!(dir[0] > 0.7 && dir[2] < -0.3, "{dir:?}");
        assert!(!net.advance(&mut p, 1000.0), "dead end");
        assert!(near(net.pose(&p).unwrap().0, [200.0, 0.0, -100.0]));
    }

    /// Onto a switch by its state, and into a track entered at its end (ridden backwards).
    #[test]
    fn takes_switches_by_state_and_reverses_into_reversed_tracks() {
        let switch = track(
            SWITCH,
            vec![straight([10.0, 0.0, 0.0], [30.0, 0.0, 0.0]), straight([10.0, 0.0, 0.0], [30.0, 0.0, 5.0])],
        );
        let tracks = vec![
            track(1, vec![straight([0.0; 3], [10.0, 0.0, 0.0])]),
            switch,
            track(1, vec![straight([50.0, 0.0, 5.0], [30.0, 0.0, 5.0])]),
        ];
        let mut net = Network::new(tracks);
        let mut p = net.start(0).unwrap();
        assert!(!net.advance(&mut p, 35.0), "state 0: straight on to a dead end at x = 30");
        assert_eq!(net.next_switch(&net.start(0).unwrap(), 5.0), None, "10 m to the switch");
        assert_eq!(net.next_switch(&net.start(0).unwrap(), 50.0).map(|(t, _)| t), Some(1));
        assert!(!net.throw(0), "not a switch");
        assert!(net.throw(1));
        assert_eq!(net.switch_state[1], 1);
        let mut p = net.start(0).unwrap();
        assert!(net.advance(&mut p, 45.0));
        assert_eq!((p.track, p.forward), (2, false));
        let (at, dir) = net.pose(&p).unwrap();
        assert!((at[0] - 44.4).abs() < 0.2 && near(dir, [1.0, 0.0, 0.0]), "{at:?} {dir:?}");
        assert!(net.throw(1));
        assert_eq!(net.switch_state[1], 0, "two paths: thrown back to the first");
    }
}
