//! Compiled script packages (`.scr`, `docs/reference/runtime.md` §3.2) — framing *confirmed*,
//! most word meanings *opaque*. All integers `u32` little-endian:
//!
//! ```text
//! u32 handler_count; u32 event_count; Event[event_count]; trailing bytes (kept)
//! Event:  u32 name_len; u8 name[name_len + 1] (last byte 0); u32 event_word;
//!         u32 record_count; Record[record_count]
//! Record: u32 w0 (selector) w1 w2 w3 w4; u32 ref_count; u32 refs[ref_count]; u32 w6
//! ```

use crate::bytes::{Cursor, display_name};
use crate::error::{Error, ErrorKind, Result};
use crate::helpers::count_u32;
use crate::options::ReadOptions;

/// Handler-table size of the GOG corpus (selectors 0..=72).
pub const HANDLER_COUNT: u32 = 73;
/// Sentinel selector.
pub const SENTINEL: u32 = 0xFFFF_FFFF;
/// Hard limit on events per package (retail maximum is far lower).
pub const MAX_EVENTS: u32 = 4096;
/// Hard limit on records per event.
pub const MAX_RECORDS: u32 = 65_536;
/// Hard limit on references per record.
pub const MAX_REFS: u32 = 1024;
/// Hard limit on event-name length.
pub const MAX_NAME: u32 = 4096;

/// The dispatch selector `w0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selector {
    /// Handler table entry `0..=72`.
    Handler(u32),
    /// `0xFFFFFFFF`.
    Sentinel,
    /// Anything else, kept (an unknown handler must stop execution as unsupported).
    Unknown(u32),
}

/// One instruction record; all words kept in disk order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Header words `w0..w4` (`w0` = selector; the rest *opaque*).
    pub words: [u32; 5],
    /// Reference list (varset declaration indices for the analysed handlers).
    pub refs: Vec<u32>,
    /// Trailing header word `w6` (*opaque*).
    pub w6: u32,
}

impl Record {
    /// A record for handler `selector` with `refs`; opaque words zero (authoring).
    pub fn new(selector: u32, refs: Vec<u32>) -> Self {
        Self { words: [selector, 0, 0, 0, 0], refs, w6: 0 }
    }

    /// Handler(19) writing ClanBaseX, ClanBaseY, ClanID (shared varset 224, 225, 226).
    pub fn handler19(x_ref: u32, y_ref: u32, clan_ref: u32) -> Self {
        Self::new(19, vec![x_ref, y_ref, clan_ref])
    }

    /// The typed selector.
    pub fn selector(&self) -> Selector {
        match self.words[0] {
            SENTINEL => Selector::Sentinel,
            n if n < HANDLER_COUNT => Selector::Handler(n),
            n => Selector::Unknown(n),
        }
    }

    /// Encoded size `7·4 + 4·ref_count`.
    pub fn encoded_len(&self) -> usize {
        28 + 4 * self.refs.len()
    }
}

/// A named event and its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Raw name bytes (`name_len` bytes, without the final NUL; may hold inner NULs).
    pub name: Vec<u8>,
    /// `event_word` (*opaque*).
    pub event_word: u32,
    /// Records in order.
    pub records: Vec<Record>,
}

impl Event {
    /// The C-string name (up to the first NUL), compared case-sensitively by the engine.
    pub fn c_name(&self) -> &[u8] {
        crate::bytes::fixed_str(&self.name)
    }

    /// Name for display (CP1251).
    pub fn display_name(&self) -> String {
        display_name(&self.name)
    }
}

/// A compiled script package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScrPackage {
    /// Number of opcode handlers the package expects (73 GOG, 59 another edition).
    pub handler_count: u32,
    /// Events in order.
    pub events: Vec<Event>,
    /// Bytes after the last event (none in the retail corpus).
    pub trailing: Vec<u8>,
}

fn limit(c: &Cursor<'_>, value: u32, max: u32, what: &'static str) -> Result<()> {
    if value > max {
        return Err(Error::invalid(c.offset() - 4, "scr_limit", format!("{what} {value} exceeds the limit {max}")));
    }
    Ok(())
}

impl ScrPackage {
    /// A new empty package for the GOG handler table (authoring).
    pub fn new() -> Self {
        Self { handler_count: HANDLER_COUNT, events: Vec::new(), trailing: Vec::new() }
    }

    /// Parses a package. Strict mode also rejects selectors outside
    /// `0..handler_count` that are not the sentinel; compatible mode keeps them as
    /// [`Selector::Unknown`].
    pub fn parse(data: &[u8], options: ReadOptions) -> Result<Self> {
        let mut c = Cursor::new(data);
        let handler_count = c.u32()?;
        let event_count = c.u32()?;
        limit(&c, event_count, MAX_EVENTS, "event count")?;
        c.check_count(u64::from(event_count), 13, "events")?;
        let mut events = Vec::with_capacity(event_count as usize);
        for e in 0..event_count {
            events.push(Self::read_event(&mut c, handler_count, options).map_err(|err| err.via(format!("event {e}")))?);
        }
        let trailing = c.take(c.remaining())?.to_vec();
        Ok(Self { handler_count, events, trailing })
    }

    fn read_event(c: &mut Cursor<'_>, handler_count: u32, options: ReadOptions) -> Result<Event> {
        let name_len = c.u32()?;
        limit(c, name_len, MAX_NAME, "name length")?;
        let name = c.take(name_len as usize)?.to_vec();
        let at = c.offset();
        if c.u8()? != 0 {
            return Err(Error::invalid(at, "scr_event_name_nul", "event name is not NUL-terminated"));
        }
        let event_word = c.u32()?;
        let record_count = c.u32()?;
        limit(c, record_count, MAX_RECORDS, "record count")?;
        c.check_count(u64::from(record_count), 28, "records")?;
        let mut records = Vec::with_capacity(record_count as usize);
        for r in 0..record_count {
            let at = c.offset();
            let mut words = [0u32; 5];
            for w in words.iter_mut() {
                *w = c.u32()?;
            }
            if options.strict && words[0] != SENTINEL && words[0] >= handler_count {
                return Err(Error::invalid(
                    at,
                    "scr_selector",
                    format!("record {r}: selector {} ≥ handler count {handler_count}", words[0]),
                ));
            }
            let n = c.u32()?;
            limit(c, n, MAX_REFS, "reference count")?;
            c.check_count(u64::from(n) + 1, 4, "references")?;
            let refs = (0..n).map(|_| c.u32()).collect::<Result<Vec<_>>>()?;
            records.push(Record { words, refs, w6: c.u32()? });
        }
        Ok(Event { name, event_word, records })
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.handler_count.to_le_bytes());
        out.extend_from_slice(&count_u32(self.events.len(), "events")?.to_le_bytes());
        for e in &self.events {
            out.extend_from_slice(&count_u32(e.name.len(), "name bytes")?.to_le_bytes());
            out.extend_from_slice(&e.name);
            out.push(0);
            out.extend_from_slice(&e.event_word.to_le_bytes());
            out.extend_from_slice(&count_u32(e.records.len(), "records")?.to_le_bytes());
            for r in &e.records {
                for w in r.words {
                    out.extend_from_slice(&w.to_le_bytes());
                }
                out.extend_from_slice(&count_u32(r.refs.len(), "refs")?.to_le_bytes());
                for x in &r.refs {
                    out.extend_from_slice(&x.to_le_bytes());
                }
                out.extend_from_slice(&r.w6.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.trailing);
        Ok(out)
    }

    /// A version check: the handler count must equal `expected` (a mismatch is its own
    /// error, distinct from an unknown command).
    pub fn check_version(&self, expected: u32) -> Result<()> {
        if self.handler_count == expected {
            Ok(())
        } else {
            Err(Error::at(0, ErrorKind::UnsupportedVersion(u64::from(self.handler_count))))
        }
    }

    /// The first event whose C-string name equals `name` exactly (case-sensitive).
    pub fn event(&self, name: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.c_name() == name.as_bytes())
    }

    /// Adds an event (authoring).
    pub fn add_event(&mut self, name: &str, event_word: u32, records: Vec<Record>) -> Result<()> {
        if name.as_bytes().contains(&0) {
            return Err(Error::invalid(0, "scr_event_name_nul", "embedded NUL"));
        }
        self.events.push(Event { name: name.as_bytes().to_vec(), event_word, records });
        Ok(())
    }
}

impl Default for ScrPackage {
    fn default() -> Self {
        Self::new()
    }
}
