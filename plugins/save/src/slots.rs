//! Save slots and the replays folder in the user's data directory (`saves/`,
//! `replays/`). A slot is a payload `NAME.sav` (`NAME.rpl` for a replay) and its
//! metadata `NAME.sav.slot` kept beside it, as the original keeps `saveslots.cfg` apart
//! from the saves: the menu lists slots from the metadata, and a slot whose files are
//! both absent is empty, while one with a file missing, unreadable metadata or a payload
//! that does not verify is damaged, with the reason. A thumbnail `NAME.sav.png` may
//! sit beside them.

use crate::file::{slot_path, write_file};
use crate::format::{Container, FileKind};
use crate::record::Record;
use crate::resume::check_compatible;
use iron3d_core::{DataLayers, TICK_MS};
use std::path::{Path, PathBuf};

/// The quick-save slot (F5, F9).
pub const QUICKSAVE: &str = "quicksave";
/// The autosave slots are `autosave-1` .. `autosave-N`.
pub const AUTOSAVE: &str = "autosave";
/// The longest slot name.
pub const MAX_NAME: usize = 40;

/// The file extension of a kind's payload.
pub const fn extension(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Save => "sav",
        FileKind::Replay => "rpl",
    }
}

/// A slot's metadata (`FILE.slot`, `key=value` lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotMeta {
    /// Save or replay.
    pub kind: FileKind,
    /// The mission.
    pub mission: String,
    /// The tick the file ends at (game time: tick × 64 ms).
    pub tick: u32,
    /// The engine version that wrote it.
    pub engine: String,
    /// The format version.
    pub format: u16,
    /// When it was written, seconds since 1970 (UTC).
    pub date: u64,
}

impl SlotMeta {
    /// The metadata of `record` written at `date`.
    pub fn of(record: &Record, date: u64) -> Self {
        Self {
            kind: record.kind,
            mission: record.mission.clone(),
            tick: record.tick,
            engine: record.engine_version.clone(),
            format: record.format_version(),
            date,
        }
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        format!(
            "kind={}\nmission={}\ntick={}\nengine={}\nformat={}\ndate={}\n",
            self.kind.name(),
            self.mission,
            self.tick,
            self.engine,
            self.format,
            self.date
        )
    }

    /// Reads the file's text.
    ///
    /// # Errors
    /// A line without `=`, an unknown or repeated key, a missing key or a bad number,
    /// naming the line.
    pub fn parse(text: &str) -> Result<Self, String> {
        const KEYS: [&str; 6] = ["kind", "mission", "tick", "engine", "format", "date"];
        let mut fields: [Option<&str>; 6] = [None; 6];
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let (key, value) = line.split_once('=').ok_or_else(|| format!("line {}: no `=`", n + 1))?;
            let i =
                KEYS.iter().position(|k| *k == key).ok_or_else(|| format!("line {}: unknown key `{key}`", n + 1))?;
            if fields[i].replace(value).is_some() {
                return Err(format!("line {}: `{key}` repeated", n + 1));
            }
        }
        let get = |i: usize| fields[i].ok_or_else(|| format!("`{}` is missing", KEYS[i]));
        let number = |i: usize| get(i)?.parse::<u64>().map_err(|_| format!("`{}` is not a number", KEYS[i]));
        let kind = match get(0)? {
            "save" => FileKind::Save,
            "replay" => FileKind::Replay,
            k => return Err(format!("kind `{k}` is not save or replay")),
        };
        let small = |i: usize, max: u64| {
            number(i).and_then(|v| (v <= max).then_some(v).ok_or(format!("`{}` too large", KEYS[i])))
        };
        Ok(Self {
            kind,
            mission: get(1)?.to_string(),
            tick: small(2, u64::from(u32::MAX))? as u32,
            engine: get(3)?.to_string(),
            format: small(4, u64::from(u16::MAX))? as u16,
            date: number(5)?,
        })
    }

    /// The game time, `M:SS` or `H:MM:SS`.
    pub fn game_time(&self) -> String {
        game_time(self.tick)
    }

    /// The date, `YYYY-MM-DD HH:MM` (UTC).
    pub fn date_text(&self) -> String {
        date_text(self.date)
    }
}

/// Game time of `tick`: `M:SS`, or `H:MM:SS` from an hour.
pub fn game_time(tick: u32) -> String {
    let s = u64::from(tick) * u64::from(TICK_MS) / 1000;
    match s / 3600 {
        0 => format!("{}:{:02}", s / 60, s % 60),
        h => format!("{h}:{:02}:{:02}", s / 60 % 60, s % 60),
    }
}

/// `YYYY-MM-DD HH:MM` of `seconds` since 1970 (UTC; the civil calendar from days).
pub fn date_text(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let minutes = seconds % 86_400 / 60;
    // Days since 1970-01-01 to year, month, day (proleptic Gregorian, eras of 400 years).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}", minutes / 60, minutes % 60)
}

/// Seconds since 1970 now.
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// What a slot holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotState {
    /// Nothing saved.
    Empty,
    /// A file that verifies, with its metadata.
    Saved(SlotMeta),
    /// Files that do not, and why.
    Damaged(String),
}

/// A slot of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// The name (the file stem).
    pub name: String,
    /// The payload's path.
    pub path: PathBuf,
    /// What it holds.
    pub state: SlotState,
}

/// The payload of slot `name` of `kind` in `dir`.
pub fn slot_file(dir: &Path, name: &str, kind: FileKind) -> PathBuf {
    dir.join(format!("{name}.{}", extension(kind)))
}

/// The thumbnail beside a payload.
pub fn thumbnail_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".png");
    path.with_file_name(name)
}

/// A slot name as typed: trimmed, 1 to [`MAX_NAME`] letters, digits, spaces, `-`, `_`.
///
/// # Errors
/// Empty, too long, or another character (named).
pub fn slot_name(typed: &str) -> Result<String, String> {
    let name = typed.trim();
    if name.is_empty() {
        return Err("the slot name is empty".into());
    }
    if name.chars().count() > MAX_NAME {
        return Err(format!("the slot name is longer than {MAX_NAME} characters"));
    }
    match name.chars().find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))) {
        Some(c) => Err(format!("the slot name may not hold `{c}`")),
        None => Ok(name.to_string()),
    }
}

/// The state of the slot at `path` (a payload of `kind`): its metadata and header are
/// read and checked against each other, every chunk's checksum verified.
pub fn inspect(path: &Path, kind: FileKind) -> SlotState {
    let meta_path = slot_path(path);
    let text = std::fs::read_to_string(&meta_path);
    let bytes = std::fs::read(path);
    let missing = |r: &std::io::Error| r.kind() == std::io::ErrorKind::NotFound;
    let (text, bytes) = match (text, bytes) {
        (Err(t), Err(b)) if missing(&t) && missing(&b) => return SlotState::Empty,
        (Err(e), _) => return SlotState::Damaged(format!("{}: {e}", meta_path.display())),
        (_, Err(e)) => return SlotState::Damaged(format!("{}: {e}", path.display())),
        (Ok(t), Ok(b)) => (t, b),
    };
    let meta = match SlotMeta::parse(&text) {
        Ok(m) => m,
        Err(e) => return SlotState::Damaged(format!("{}: {e}", meta_path.display())),
    };
    let header = match Container::decode(&bytes, kind) {
        Ok(c) => c.header,
        Err(e) => return SlotState::Damaged(format!("{}: {e}", path.display())),
    };
    if (meta.kind, meta.mission.as_str(), meta.tick) != (kind, header.mission.as_str(), header.tick) {
        return SlotState::Damaged(format!(
            "{}: the metadata names {} at tick {}, the file holds {} at tick {}",
            meta_path.display(),
            meta.mission,
            meta.tick,
            header.mission,
            header.tick
        ));
    }
    SlotState::Saved(meta)
}

/// The slots of `kind` in `dir`: every payload's or metadata file's slot and the `fixed`
/// names (empty when absent); the saved newest first, then the damaged, then the empty.
pub fn list(dir: &Path, kind: FileKind, fixed: &[String]) -> Vec<Slot> {
    let ext = format!(".{}", extension(kind));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".slot").unwrap_or(&f).strip_suffix(&ext).map(str::to_string))
        .chain(fixed.iter().cloned())
        .collect();
    names.sort();
    names.dedup();
    let mut slots: Vec<Slot> = names
        .into_iter()
        .map(|name| {
            let path = slot_file(dir, &name, kind);
            Slot { state: inspect(&path, kind), path, name }
        })
        .collect();
    let rank = |s: &Slot| match &s.state {
        SlotState::Saved(m) => (0, u64::MAX - m.date),
        SlotState::Damaged(_) => (1, 0),
        SlotState::Empty => (2, 0),
    };
    slots.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.name.cmp(&b.name)));
    slots
}

/// The autosave slot names, `autosave-1` .. `autosave-keep`.
pub fn autosave_names(keep: u32) -> Vec<String> {
    (1..=keep.max(1)).map(|k| format!("{AUTOSAVE}-{k}")).collect()
}

/// The autosave slot to write next: the first empty or damaged one, else the oldest.
pub fn next_autosave(dir: &Path, keep: u32) -> String {
    let names = autosave_names(keep);
    let rank = |name: &String| match inspect(&slot_file(dir, name, FileKind::Save), FileKind::Save) {
        SlotState::Saved(m) => (1, m.date),
        _ => (0, 0),
    };
    names.iter().min_by_key(|n| rank(n)).cloned().unwrap_or_default()
}

/// Writes `record` to `path` with its metadata, creating the folder.
///
/// # Errors
/// The record does not encode, or a step of the write fails (the previous file then
/// stays).
pub fn write_slot(path: &Path, record: &Record, date: u64) -> Result<SlotMeta, String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let bytes = record.encode().map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = SlotMeta::of(record, date);
    write_file(path, &bytes, record.kind, &meta.to_text())?;
    Ok(meta)
}

/// Reads the file at `path` as `kind` and refuses one made for other data layers or (a
/// replay) by another engine version, before anything touches a running game.
///
/// # Errors
/// The file cannot be read, does not decode (the part and offset named), or does not
/// fit this game ([`check_compatible`]); every message names the file.
pub fn read_checked(path: &Path, kind: FileKind, layers: &DataLayers) -> Result<Record, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let record = Record::decode(&bytes, kind).map_err(|e| format!("{}: {e}", path.display()))?;
    check_compatible(&record, layers, None).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(record)
}
