//! A baker for MaSzyna's text sceneries (`.scn`, `.scm`, `.inc`): one text file becomes
//! one EU7B module, as MaSzyna's own bake does (branch `binary-format-und-streaming` of
//! MaSzyna-EU07/maszyna; the grammar is the simulator's text loader's).
//!
//! * Every `node` kind becomes its record: `track` → `TRAK`, `traction` → `TRAC`,
//!   `tractionpowersource` → `PWRS`, `model` → `MODL` (or the `PACK` sections with
//!   [`BakeOptions::pack`]), `triangles` / `triangle_strip` / `triangle_fan` → `MESH` (or
//!   `TERR`, §6.7.3), `lines` / `line_strip` / `line_loop` → `LINE`, `memcell` → `MEMC`,
//!   `eventlauncher` → `LAUN`, `sound` → `SOND`, `dynamic` → `DYNM`; and `trainset` →
//!   `TRSE`, `event` → `EVNT`, `FirstInit` → `FINT`.
//! * An `include` is not expanded: it becomes an `INCL` record (its line from 0, the path,
//!   the `.eu7` it bakes to, its parameters as written and the transform in force); a
//!   file whose first `origin` holds `(pN)` placeholders gets `PLAC`. [`tree`] bakes a
//!   file and every file it includes, each into its own module.
//! * `origin` / `endorigin` (accumulated), `rotate` (replaced) and `scale` / `endscale`
//!   place what follows, node kind by kind as the simulator does; `group` /
//!   `endgroup` number groups; each node keeps the transform context it was made in.
//! * The directives EU7B has no record for (`atmo`, `time`, `sky`, `camera`, `config`,
//!   `description`, `light`, `test`, `lua`, `isolated`, `area`, `terrain`,
//!   `editorterrain`, a trainset's `assignment`) are skipped to their end.
//! * A token the grammar does not expect is a [`Warning`] naming its line and the token;
//!   a file that ends inside a node or a block is an error naming the line it began on.
//!
//! The project's where the two readers differ (MaSzyna's bake and its simulator): the
//! simulator's reading is followed (names lowercased, `river` a normal track, a model's
//! `angles` replacing its rotation, one light colour per token, a global launcher's
//! radius −1, `nobody` driving no vehicle), a track's tail keeps its text order and
//! every repeated entry, a comma separates numbers (the 2009 sceneries write `x,y,z`),
//! a launcher's key code is not computed (0), and `--pack` sections the file's own
//! models (MaSzyna's root composes the models of its whole include tree).

mod nodes;
mod place;
mod tokens;
mod tree;

use place::Placement;
pub use tokens::{Token, tokenize};
pub use tree::{Tree, TreeFile, tree};

use crate::canonical::{Interner, PackOptions, PackOptionsEq, Scene};
use crate::error::{Error, Result};
use crate::logic::{Event, Include, Trainset};
use crate::node::{SlimNode, TransformContext, flags};
use crate::prim::Sid;
use crate::section::SectionFormat;
use std::collections::VecDeque;

/// How a bake is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BakeOptions {
    /// Models go into 1 km `PACK` sections with `PIDX` and `PROT` (not `MODL`).
    pub pack: bool,
    /// The file version (6 to 9; default 6, or 9 with `pack`).
    pub version: Option<u32>,
}

/// A token the grammar did not expect, skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Its line, from 1.
    pub line: u32,
    /// The token as written.
    pub token: String,
    /// What was wrong.
    pub message: String,
}

/// A baked text file: its records and what was skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct Baked {
    /// The records.
    pub scene: Scene,
    /// The tokens skipped, in file order.
    pub warnings: Vec<Warning>,
}

/// Bakes the text scenery `text` (`file` names it in errors).
///
/// # Errors
/// The file ends inside a node or a block (the error names the line it began on).
pub fn bake(text: &[u8], file: &str) -> Result<Baked> {
    let mut b = Baker::new(text);
    b.run().map_err(|e| e.in_file(file))?;
    let Baker { mut scene, int, warnings, .. } = b;
    scene.strings = int.table;
    Ok(Baked { scene, warnings })
}

impl Baked {
    /// The module's bytes, written by the canonical writer as `opts` asks.
    ///
    /// # Errors
    /// A version outside 6..=9 (7..=9 with `pack`), or a record the writer refuses.
    pub fn write(&self, opts: BakeOptions) -> Result<Vec<u8>> {
        let version = opts.version.unwrap_or(if opts.pack { 9 } else { 6 });
        let format = match (opts.pack, version) {
            (_, v) if !(6..=9).contains(&v) => return Err(Error::rule("bake_version", format!("version {v}: 6 to 9"))),
            (false, _) => None,
            (true, 7) => Some(SectionFormat::Flat),
            (true, 8) => Some(SectionFormat::V12),
            (true, 9) => Some(SectionFormat::V13),
            (true, v) => return Err(Error::rule("bake_version", format!("version {v} has no PACK: 7 to 9"))),
        };
        let pack = format.map(|format| PackOptionsEq(PackOptions { format, resolve_texture: None }));
        let mut module = Scene { pack, ..self.scene.clone() }.into_module()?;
        module.version = version;
        module.write()
    }
}

/// The tokens still to read: numbers a comma joined are handed out one by one.
struct Cursor {
    tokens: VecDeque<Token>,
}

impl Cursor {
    fn next(&mut self) -> Option<Token> {
        self.tokens.pop_front()
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.front()
    }

    /// Splits a token `a,b,c` into its parts (the first one returned).
    fn split_commas(&mut self, t: Token) -> Token {
        if !t.text.contains(&b',') {
            return t;
        }
        let parts =
            |s: &[u8]| s.split(|&c| c == b',').filter(|p| !p.is_empty()).map(<[u8]>::to_vec).collect::<Vec<_>>();
        let (texts, raws) = (parts(&t.text), parts(&t.raw));
        let mut pieces: Vec<Token> =
            texts.into_iter().zip(raws).map(|(text, raw)| Token { text, raw, line: t.line }).collect();
        if pieces.is_empty() {
            return t;
        }
        let first = pieces.remove(0);
        for p in pieces.into_iter().rev() {
            self.tokens.push_front(p);
        }
        first
    }
}

/// The baker's state while it reads one file.
struct Baker {
    cur: Cursor,
    int: Interner,
    scene: Scene,
    warnings: Vec<Warning>,
    place: Placement,
    /// Group nesting depth and the handle of the outermost open group.
    groups: (u8, u32),
    next_group: u32,
    /// The open trainset (its index in the scene).
    trainset: Option<usize>,
    /// Whether the first `origin` and the first `rotate` were read (`PLAC`).
    first: (bool, bool),
}

/// Blocks skipped to their end (`end` + their name): no EU7B record holds them.
const SKIPPED: [&[u8]; 12] = [
    b"atmo",
    b"time",
    b"sky",
    b"camera",
    b"config",
    b"description",
    b"light",
    b"test",
    b"isolated",
    b"area",
    b"editorterrain",
    b"assignment",
];

impl Baker {
    fn new(text: &[u8]) -> Self {
        Self {
            cur: Cursor { tokens: tokenize(text).into() },
            int: Interner::default(),
            scene: Scene::default(),
            warnings: Vec::new(),
            place: Placement::default(),
            groups: (0, 0),
            next_group: 0,
            trainset: None,
            first: (false, false),
        }
    }

    fn run(&mut self) -> Result<()> {
        while let Some(t) = self.cur.next() {
            match t.text.as_slice() {
                b"node" => self.node(&t)?,
                b"include" => self.include(&t)?,
                b"origin" | b"orgin" => self.origin(&t)?,
                b"endorigin" => {
                    if self.place.origins.pop().is_none() {
                        self.warn(&t, "endorigin without an origin");
                    }
                }
                b"rotate" => self.rotate(&t)?,
                b"scale" => {
                    let s = self.point(&t, "scale")?;
                    self.place.push_scale(s);
                }
                b"endscale" => {
                    if self.place.scales.pop().is_none() {
                        self.warn(&t, "endscale without a scale");
                    }
                }
                b"group" => {
                    if self.groups.0 == 0 {
                        self.next_group += 1;
                        self.groups.1 = self.next_group;
                    }
                    self.groups.0 = self.groups.0.saturating_add(1);
                }
                b"endgroup" => match self.groups.0 {
                    0 => self.warn(&t, "endgroup without a group"),
                    n => self.groups.0 = n - 1,
                },
                b"trainset" => self.trainset(&t)?,
                b"endtrainset" => {
                    if self.trainset.take().is_none() {
                        self.warn(&t, "endtrainset without a trainset");
                    }
                }
                b"event" => self.event(&t)?,
                b"firstinit" => self.scene.first_init += 1,
                b"lua" | b"terrain" => {
                    self.word(&t, "its file")?;
                }
                b"endterrain" => {}
                word if SKIPPED.contains(&word) => self.skip_to(&t, &[b"end", word].concat())?,
                _ => self.warn(&t, "unexpected token: skipped"),
            }
        }
        Ok(())
    }

    fn warn(&mut self, t: &Token, message: &str) {
        self.warnings.push(Warning { line: t.line, token: t.show(), message: message.to_string() });
    }

    /// The error of a file that ends inside `what`, begun at `head`.
    fn truncated(head: &Token, what: &str) -> Error {
        Error::rule("bake_truncated", format!("line {}: {what} ({}) ends with the file", head.line, head.show()))
    }

    /// The next token of `what` begun at `head`.
    fn word(&mut self, head: &Token, what: &str) -> Result<Token> {
        self.cur.next().ok_or_else(|| Self::truncated(head, what))
    }

    /// Whether the next token is `word` (not taken).
    fn peek_is(&self, words: &[&[u8]]) -> bool {
        self.cur.peek().is_some_and(|t| words.contains(&t.text.as_slice()))
    }

    /// The next number of `what` (a comma also separates numbers); a token that is not
    /// one reads as its longest numeric prefix, else 0, with a warning.
    fn number(&mut self, head: &Token, what: &str) -> Result<f64> {
        let t = self.word(head, what)?;
        let t = self.cur.split_commas(t);
        Ok(self.value(&t))
    }

    /// A token's number (its longest numeric prefix, else 0, with a warning).
    fn value(&mut self, t: &Token) -> f64 {
        let s = String::from_utf8_lossy(&t.text);
        if let Ok(v) = s.parse::<f64>() {
            return v;
        }
        let prefix = (1..=s.len()).rev().filter(|&n| s.is_char_boundary(n)).find_map(|n| s[..n].parse::<f64>().ok());
        self.warn(t, "not a number");
        prefix.unwrap_or(0.0)
    }

    /// Three numbers.
    fn point(&mut self, head: &Token, what: &str) -> Result<[f64; 3]> {
        Ok([self.number(head, what)?, self.number(head, what)?, self.number(head, what)?])
    }

    /// Skips to the token `end` (taken), warning of nothing: the block holds no record.
    fn skip_to(&mut self, head: &Token, end: &[u8]) -> Result<()> {
        let what = String::from_utf8_lossy(&head.text).into_owned();
        while self.word(head, &what)?.text != end {}
        Ok(())
    }

    /// Skips to the first of `ends` (taken), warning of every token before it.
    fn expect_end(&mut self, head: &Token, what: &str, ends: &[&[u8]]) -> Result<()> {
        loop {
            let t = self.word(head, what)?;
            if ends.contains(&t.text.as_slice()) {
                return Ok(());
            }
            self.warn(&t, &format!("unexpected in {what}: skipped"));
        }
    }

    /// Interns `s` (`none` stays as written: the caller decides).
    fn sid(&mut self, s: &[u8]) -> Sid {
        self.int.intern(s)
    }

    /// A node's slim node: its name (`none`: none), ranges, group and transform context.
    fn slim(&mut self, name: &Token, range_max: f64, range_min: f64) -> SlimNode {
        let mut node = SlimNode {
            name: if name.text == b"none" { Sid::EMPTY } else { self.sid(&name.text) },
            range_sq_min: (range_min * range_min) as f32,
            range_sq_max: if range_max < 0.0 { f32::INFINITY } else { (range_max * range_max) as f32 },
            transform: self.context(),
            ..SlimNode::default()
        };
        if !node.name.is_empty() {
            node.flags |= flags::NAME;
        }
        if self.groups.0 > 0 {
            node.group = self.groups.1;
            node.flags |= flags::GROUP;
        }
        node
    }

    /// The transform context in force.
    fn context(&self) -> TransformContext {
        let f = |p: &[f64; 3]| p.map(|v| v as f32);
        TransformContext {
            origins: self.place.origins.iter().map(f).collect(),
            scales: self.place.scales.iter().map(f).collect(),
            rotation: f(&self.place.rotation),
            group_depth: self.groups.0,
        }
    }

    /// Three coordinates of `what`, each a number or a `(pN)` placeholder (read as 0).
    fn coordinates(&mut self, head: &Token, what: &str) -> Result<[(f64, Option<u8>); 3]> {
        let mut out = [(0.0, None); 3];
        for c in &mut out {
            let t = self.word(head, what)?;
            *c = match placeholder(&t.text) {
                Some(n) => (0.0, Some(n)),
                None => {
                    let t = self.cur.split_commas(t);
                    (self.value(&t), None)
                }
            };
        }
        Ok(out)
    }

    /// `origin x y z`: pushed onto the accumulated stack; the file's first may hold
    /// `(pN)` placeholders (`PLAC`), which read as 0.
    fn origin(&mut self, head: &Token) -> Result<()> {
        let c = self.coordinates(head, "origin")?;
        if !std::mem::replace(&mut self.first.0, true) {
            for (k, (_, n)) in c.iter().enumerate() {
                self.scene.placement[k] = n.unwrap_or(0);
            }
        }
        self.place.push_origin(c.map(|c| c.0));
        Ok(())
    }

    /// `rotate x y z` (degrees) replaces the rotation; the file's first `rotate` may hold
    /// a `(pN)` heading (`PLAC`).
    fn rotate(&mut self, head: &Token) -> Result<()> {
        let c = self.coordinates(head, "rotate")?;
        if !std::mem::replace(&mut self.first.1, true) {
            self.scene.placement[3] = c[1].1.unwrap_or(0);
        }
        self.place.rotation = c.map(|c| c.0);
        Ok(())
    }

    /// `include FILE PARAMS… end` → an `INCL` record.
    fn include(&mut self, head: &Token) -> Result<()> {
        let file = self.word(head, "include")?;
        let mut params = Vec::new();
        loop {
            let t = self.word(head, "include")?;
            if t.text == b"end" {
                break;
            }
            params.push(self.sid(&t.raw));
        }
        let path = file.text.clone();
        let stem = match path.iter().rposition(|&c| c == b'.') {
            Some(dot) if !path[dot..].contains(&b'/') && !path[dot..].contains(&b'\\') => &path[..dot],
            _ => &path[..],
        };
        let binary = [stem, b".eu7"].concat();
        let include = Include {
            source_line: head.line.saturating_sub(1),
            source_path: self.sid(&path),
            binary_path: self.sid(&binary),
            params,
            site_transform: Some(self.context()),
        };
        self.scene.includes.push(include);
        Ok(())
    }

    /// `trainset NAME TRACK OFFSET VELOCITY`: the vehicles up to `endtrainset` join it.
    fn trainset(&mut self, head: &Token) -> Result<()> {
        if self.trainset.is_some() {
            self.warn(head, "a trainset inside a trainset: the open one ends here");
        }
        let name = self.word(head, "trainset")?;
        let track = self.word(head, "trainset")?;
        let (offset, velocity) = (self.number(head, "trainset")?, self.number(head, "trainset")?);
        let trainset = Trainset {
            name: self.sid(&name.text),
            track: self.sid(&track.text),
            offset: offset as f32,
            velocity: velocity as f32,
            driver_index: u32::MAX,
            ..Trainset::default()
        };
        self.trainset = Some(self.scene.trainsets.len());
        self.scene.trainsets.push(trainset);
        Ok(())
    }

    /// `event NAME TYPE DELAY TARGETS PARAMS… endevent` → an `EVNT` record: the targets
    /// split on `|` and `,` (`none` dropped), `randomdelay` and `departuredelay` read,
    /// every other parameter kept as written.
    fn event(&mut self, head: &Token) -> Result<()> {
        let name = self.word(head, "event")?;
        let kind = self.word(head, "event")?;
        let delay = self.number(head, "event")?;
        let targets = self.word(head, "event")?;
        let event_type = match EVENT_TYPES.iter().position(|t| *t == kind.text.as_slice()) {
            Some(i) => i as u8,
            None => {
                self.warn(&kind, "unknown event type");
                18
            }
        };
        let targets = targets
            .text
            .split(|&c| c == b'|' || c == b',')
            .filter(|t| !t.is_empty() && *t != b"none")
            .map(|t| self.int.intern(t))
            .collect();
        let mut event = Event {
            name: self.sid(&name.text),
            event_type,
            delay: delay as f32,
            targets,
            ignored: u8::from(name.text.starts_with(b"none_")),
            ..Event::default()
        };
        loop {
            let t = self.word(head, "event")?;
            match t.text.as_slice() {
                b"endevent" => break,
                b"randomdelay" => event.delay_random = self.number(head, "event")? as f32,
                b"departuredelay" => event.delay_departure = self.number(head, "event")? as f32,
                _ => {
                    if event_type == 4 && PASSIVE.iter().any(|p| t.text.starts_with(p)) {
                        event.passive = 1;
                    }
                    let value = self.sid(&t.raw);
                    event.payload.push((value, Sid::EMPTY));
                }
            }
        }
        self.scene.events.push(event);
        Ok(())
    }
}

/// The event types by their stored code (§6.16).
const EVENT_TYPES: [&[u8]; 18] = [
    b"addvalues",
    b"updatevalues",
    b"copyvalues",
    b"getvalues",
    b"putvalues",
    b"whois",
    b"logvalues",
    b"multiple",
    b"switch",
    b"trackvel",
    b"sound",
    b"texture",
    b"animation",
    b"lights",
    b"voltage",
    b"visible",
    b"friction",
    b"message",
];

/// The `putvalues` commands that make an event passive (the simulator's `Event.cpp`).
const PASSIVE: [&[u8]; 7] = [
    b"setvelocity",
    b"shuntvelocity",
    b"roadvelocity",
    b"sectionvelocity",
    b"outsidestation",
    b"cabsignal",
    b"passengerstoppoint:",
];

/// `(pN)` with N in 1..=255: N.
fn placeholder(text: &[u8]) -> Option<u8> {
    let n = text.strip_prefix(b"(p")?.strip_suffix(b")")?;
    std::str::from_utf8(n).ok()?.parse::<u8>().ok().filter(|&n| n > 0)
}

#[cfg(test)]
mod tests;
