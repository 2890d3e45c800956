//! Sync reports (the project's own, after OpenRA's): when a checkpoint's hashes differ,
//! the client sends the host a digest of each object it held at that checkpoint
//! (`IRON3D_SYNC_DIGESTS`); the host, which keeps its replicated values of its last
//! [`KEPT`] checkpoints, finds the objects whose digests differ (or that one side lacks),
//! writes its side of the report and answers with its values of the first
//! [`REPORTED`] of them (`IRON3D_SYNC_ROWS`); the client then writes its side: the tick
//! and, per differing object, each component that differs with both values. Only a
//! client's first mismatch is reported (the later ones are counted); files go to
//! [`SyncReports::dir`] as `sync-client-pN-tT.txt` and `sync-host-pN-tT.txt`.

use crate::replicated::{NetAnimation, NetBlend, NetObject, NetPose, NetTilt, NetTurret, ReplicatedRow};
use crate::schema::{Reader, Writer};
use crate::state::NetState;
use bevy_ecs::prelude::*;
use iron3d_core::SimState;
use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Checkpoints whose values the host keeps.
pub const KEPT: usize = 4;
/// Differing objects a report names at most.
pub const REPORTED: usize = 16;
/// Object digests a client sends at most (the rest of a larger world is not compared).
pub const MAX_DIGESTS: usize = 7_000;

/// Where sync reports are written (default: `iron3d-sync` in the system's temporary
/// directory).
#[derive(Resource, Debug, Clone)]
pub struct SyncReports {
    /// The directory (created when the first report is written).
    pub dir: PathBuf,
}

impl Default for SyncReports {
    fn default() -> Self {
        Self { dir: std::env::temp_dir().join("iron3d-sync") }
    }
}

/// `IRON3D_SYNC_DIGESTS`: a client's object digests at a checkpoint that differed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Digests {
    /// Game tick of the checkpoint.
    pub tick: u32,
    /// Its replication tick.
    pub replicated: u32,
    /// More objects were held than [`MAX_DIGESTS`]: ids past the last are not compared.
    pub truncated: bool,
    /// `(id, digest)` in id order.
    pub digests: Vec<(u32, u32)>,
}

/// `IRON3D_SYNC_ROWS`: the host's values of the objects that differed (`None`: the
/// host has no such object).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HostRows {
    /// Replication tick of the checkpoint.
    pub replicated: u32,
    /// The host still kept that checkpoint's values.
    pub kept: bool,
    /// `(id, the host's values)`, at most [`REPORTED`].
    pub rows: Vec<(u32, Option<ReplicatedRow>)>,
}

impl Digests {
    pub(crate) fn write(&self, w: &mut Writer) {
        w.u32(self.tick);
        w.u32(self.replicated);
        w.u8(u8::from(self.truncated));
        w.len(self.digests.len(), "digests");
        for (id, d) in &self.digests {
            w.u32(*id);
            w.u32(*d);
        }
    }

    pub(crate) fn read(r: &mut Reader) -> Result<Self, String> {
        let (tick, replicated, truncated) = (r.u32()?, r.u32()?, r.flag()?);
        let n = usize::from(r.u16()?);
        if n > MAX_DIGESTS {
            return Err(format!("{n} digests exceed {MAX_DIGESTS}"));
        }
        r.need(n * 8)?;
        let digests = (0..n).map(|_| Ok((r.u32()?, r.u32()?))).collect::<Result<_, String>>()?;
        Ok(Self { tick, replicated, truncated, digests })
    }
}

impl HostRows {
    pub(crate) fn write(&self, w: &mut Writer) {
        w.u32(self.replicated);
        w.u8(u8::from(self.kept));
        w.len(self.rows.len(), "rows");
        for (id, row) in &self.rows {
            w.u32(*id);
            w.u8(u8::from(row.is_some()));
            if let Some(row) = row {
                write_row(w, row);
            }
        }
    }

    pub(crate) fn read(r: &mut Reader) -> Result<Self, String> {
        let (replicated, kept) = (r.u32()?, r.flag()?);
        let n = usize::from(r.u16()?);
        if n > REPORTED {
            return Err(format!("{n} rows exceed {REPORTED}"));
        }
        let rows = (0..n)
            .map(|_| {
                let id = r.u32()?;
                let row = if r.flag()? { Some(read_row(r, id)?) } else { None };
                Ok((id, row))
            })
            .collect::<Result<_, String>>()?;
        Ok(Self { replicated, kept, rows })
    }
}

fn write_row(w: &mut Writer, row: &ReplicatedRow) {
    w.u32(row.object.kind);
    w.str(&row.object.key);
    w.str(&row.object.name);
    row.pose.position.iter().for_each(|v| w.u32(*v as u32));
    w.u16(row.pose.heading);
    w.bytes(&row.state.0);
    w.u8(u8::from(row.tilt.is_some()));
    if let Some(t) = row.tilt {
        w.u16(t.pitch as u16);
        w.u16(t.roll as u16);
    }
    w.u8(u8::from(row.turret.is_some()));
    if let Some(t) = row.turret {
        w.u16(t.heading);
    }
    w.u8(u8::from(row.object.animation.is_some()));
    if let Some(a) = &row.object.animation {
        w.u32(a.tick);
        w.len(a.blends.len(), "piece bindings");
        for b in &a.blends {
            w.u32(b.blend as u32);
            w.u32(b.rate);
        }
    }
}

fn read_row(r: &mut Reader, id: u32) -> Result<ReplicatedRow, String> {
    let (kind, key, name) = (r.u32()?, r.str()?, r.str()?);
    let position = [r.u32()? as i32, r.u32()? as i32, r.u32()? as i32];
    let pose = NetPose { position, heading: r.u16()? };
    let state = NetState(r.bytes()?);
    let tilt = if r.flag()? { Some(NetTilt { pitch: r.u16()? as i16, roll: r.u16()? as i16 }) } else { None };
    let turret = if r.flag()? { Some(NetTurret { heading: r.u16()? }) } else { None };
    let animation = if r.flag()? { Some(read_animation(r)?) } else { None };
    Ok(ReplicatedRow { object: NetObject { id, kind, key, name, animation }, pose, state, tilt, turret })
}

fn read_animation(r: &mut Reader) -> Result<NetAnimation, String> {
    let tick = r.u32()?;
    let n = usize::from(r.u16()?);
    // Counted before anything is allocated.
    r.need(n * 8)?;
    let blends =
        (0..n).map(|_| Ok(NetBlend { blend: r.u32()? as i32, rate: r.u32()? })).collect::<Result<_, String>>()?;
    Ok(NetAnimation { tick, blends })
}

/// The host's replicated values at its last [`KEPT`] checkpoints, and the reports it wrote.
#[derive(Resource, Debug, Default)]
pub struct HostSyncState {
    /// `(replication tick, game tick, hash, rows)`, newest last.
    pub(crate) kept: VecDeque<(u32, u32, u64, Vec<ReplicatedRow>)>,
    /// Reports written, by player number.
    pub written: BTreeMap<u16, PathBuf>,
}

impl HostSyncState {
    /// Keeps a checkpoint's values, dropping the oldest beyond [`KEPT`].
    pub(crate) fn keep(&mut self, replicated: u32, tick: u32, hash: u64, rows: Vec<ReplicatedRow>) {
        self.kept.push_back((replicated, tick, hash, rows));
        while self.kept.len() > KEPT {
            self.kept.pop_front();
        }
    }
}

/// The ids whose digests differ, or that one side lacks, in id order (ids past a
/// truncated list's last are not compared).
fn differing(host: &[ReplicatedRow], client: &Digests) -> Vec<u32> {
    let last = client.truncated.then(|| client.digests.last().map_or(0, |d| d.0));
    let theirs: BTreeMap<u32, u32> = client.digests.iter().copied().collect();
    let ours: BTreeMap<u32, u32> =
        host.iter().filter(|r| last.is_none_or(|l| r.object.id <= l)).map(|r| (r.object.id, r.digest())).collect();
    let mut ids: Vec<u32> = ours.keys().chain(theirs.keys()).copied().collect();
    ids.sort_unstable();
    ids.dedup();
    ids.retain(|id| ours.get(id) != theirs.get(id));
    ids
}

/// A client's digests arrived: the host writes its side and answers with its values.
pub(crate) fn host_side(world: &mut World, player: u16, name: &str, digests: &Digests) -> HostRows {
    let dir = world.get_resource::<SyncReports>().cloned().unwrap_or_default().dir;
    let registry = world.get_resource::<SimState>();
    let state = world.resource::<HostSyncState>();
    let kept = state.kept.iter().find(|k| k.0 == digests.replicated);
    let mut text = format!(
        "iron3d sync report, host side\nplayer {player} '{name}', game tick {}, replication tick {}\n",
        digests.tick, digests.replicated
    );
    let answer = match kept {
        None => {
            text.push_str("the host no longer keeps this checkpoint's values\n");
            HostRows { replicated: digests.replicated, kept: false, rows: Vec::new() }
        }
        Some((_, _, hash, rows)) => {
            let ids = differing(rows, digests);
            let theirs: BTreeMap<u32, u32> = digests.digests.iter().copied().collect();
            let _ = writeln!(text, "host hash {hash:016x}; {} objects differ, the first {REPORTED} follow", ids.len());
            let by_id: BTreeMap<u32, &ReplicatedRow> = rows.iter().map(|r| (r.object.id, r)).collect();
            let reported: Vec<(u32, Option<ReplicatedRow>)> =
                ids.iter().take(REPORTED).map(|id| (*id, by_id.get(id).map(|r| (*r).clone()))).collect();
            for (id, row) in &reported {
                let client = theirs.get(id).map_or("absent".into(), |d| format!("digest {d:08x}"));
                let host = row
                    .as_ref()
                    .map_or("absent".into(), |r| format!("{} (digest {:08x})", describe(r, registry), r.digest()));
                let _ = writeln!(text, "object {id}: host {host}; client {client}");
            }
            HostRows { replicated: digests.replicated, kept: true, rows: reported }
        }
    };
    let path = dir.join(format!("sync-host-p{player}-t{}.txt", digests.tick));
    match write(&path, &text) {
        Ok(()) => {
            tracing::error!(target: "resnet", "player {player}: checkpoint mismatch; host's sync report {}", path.display());
            world.resource_mut::<HostSyncState>().written.insert(player, path);
        }
        Err(e) => tracing::error!(target: "resnet", "player {player}: sync report not written: {e}"),
    }
    answer
}

/// A client's own mismatch: what it held, kept until the host's rows arrive.
#[derive(Debug, Clone, Default)]
pub(crate) struct OwnCase {
    pub(crate) tick: u32,
    pub(crate) replicated: u32,
    pub(crate) hashes: (u64, u64),
    /// The client's values, and the replication tick they are of (the checkpoint's,
    /// or a later one when that tick's were no longer held).
    pub(crate) rows: Vec<ReplicatedRow>,
    pub(crate) rows_at: u32,
}

impl OwnCase {
    /// The digests the host compares.
    pub(crate) fn digests(&self) -> Digests {
        let truncated = self.rows.len() > MAX_DIGESTS;
        let digests = self.rows.iter().take(MAX_DIGESTS).map(|r| (r.object.id, r.digest())).collect();
        Digests { tick: self.tick, replicated: self.replicated, truncated, digests }
    }

    /// The client's report, from the host's rows; returns its path.
    pub(crate) fn write_report(
        &self,
        dir: &Path,
        player: u16,
        host: &HostRows,
        registry: Option<&SimState>,
    ) -> Result<PathBuf, String> {
        let (mine, theirs) = self.hashes;
        let mut text = format!(
            "iron3d sync report, client side\nplayer {player}, game tick {}, replication tick {}\nhash: client {mine:016x}, host {theirs:016x}\n",
            self.tick, self.replicated
        );
        if self.rows_at != self.replicated {
            let _ = writeln!(
                text,
                "client values of replication tick {} (the checkpoint's were no longer held)",
                self.rows_at
            );
        }
        if !host.kept {
            text.push_str("the host no longer kept this checkpoint's values\n");
        }
        let by_id: BTreeMap<u32, &ReplicatedRow> = self.rows.iter().map(|r| (r.object.id, r)).collect();
        for (id, row) in &host.rows {
            let _ = writeln!(text, "object {id}:");
            match (row.as_ref(), by_id.get(id)) {
                (Some(h), Some(c)) => {
                    for (component, host, client) in components(h, c, registry).into_iter().filter(|c| c.1 != c.2) {
                        let _ = writeln!(text, "  {component}: host {host}; client {client}");
                    }
                }
                (Some(h), None) => _ = writeln!(text, "  host {}; client absent", describe(h, registry)),
                (None, Some(c)) => _ = writeln!(text, "  host absent; client {}", describe(c, registry)),
                (None, None) => _ = writeln!(text, "  absent on both sides"),
            }
        }
        let path = dir.join(format!("sync-client-p{player}-t{}.txt", self.tick));
        write(&path, &text).map(|()| path)
    }
}

/// Each replicated component of a row as text: `(name, host's, client's)`; the declared
/// ones by their tags, decoded as the registry reads them.
fn components(
    h: &ReplicatedRow,
    c: &ReplicatedRow,
    registry: Option<&SimState>,
) -> Vec<(&'static str, String, String)> {
    let declared = |r: &ReplicatedRow| match registry {
        Some(registry) => r.state.describe(registry),
        None => vec![("NetState", format!("{:02x?}", r.state.0))],
    };
    let object = |r: &ReplicatedRow| format!("kind {:#x} key {:?}", r.object.kind, r.object.key);
    let pose = |r: &ReplicatedRow| format!("position {:?} heading {}", r.pose.position, r.pose.heading);
    let tilt = |r: &ReplicatedRow| r.tilt.map_or("none".into(), |t| format!("pitch {} roll {}", t.pitch, t.roll));
    let turret = |r: &ReplicatedRow| r.turret.map_or("none".into(), |t| format!("heading {}", t.heading));
    let animation = |r: &ReplicatedRow| {
        r.object.animation.as_ref().map_or("none".into(), |a| {
            let blends: Vec<String> = a.blends.iter().map(|b| format!("{}+{}", b.blend, b.rate)).collect();
            format!("tick {} blend+rate {}", a.tick, blends.join(" "))
        })
    };
    let mut rows = vec![("NetObject", object(h), object(c)), ("NetPose", pose(h), pose(c))];
    rows.extend(declared(h).into_iter().zip(declared(c)).map(|((tag, host), (_, client))| (tag, host, client)));
    rows.extend([
        ("NetTilt", tilt(h), tilt(c)),
        ("NetTurret", turret(h), turret(c)),
        ("NetAnimation", animation(h), animation(c)),
    ]);
    rows
}

fn describe(r: &ReplicatedRow, registry: Option<&SimState>) -> String {
    let parts: Vec<String> = components(r, r, registry).into_iter().map(|(name, v, _)| format!("{name} {v}")).collect();
    parts.join(", ")
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
