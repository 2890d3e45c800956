//! Compiled script packages (`.scr`, `/work/shared/spec/gameplay.md` §2.1 after
//! dragonee/openparkan `docs/15-behaviour.md`; the framing is `docs/reference/runtime.md`
//! §3.2's, whose word meanings this replaces). All integers little-endian:
//!
//! ```text
//! u32 function_count (73: the length of the function table); u32 handler_count;
//! Handler: u32 name_len; u8 name[name_len + 1] (last byte 0); u32 index (= position);
//!          u32 node_count; Node[node_count]
//! Node:    i32 head0 function | -1; i32 head1 destination variable | -1;
//!          i32 head2 source variable | number | -1; i32 head3 kind -1..6;
//!          i32 relation 0..5 (an `if`) else 6; u32 op_count; i32 ops[op_count];
//!          i32 trailer formula | -1
//! trailing bytes (kept)
//! ```
//!
//! The reader is lossless: every word is kept as read, whatever its value; the typed
//! views ([`Record::kind`], [`Record::function`], ...) give the original's meaning.

use crate::bytes::{Cursor, display_name};
use crate::error::{Error, ErrorKind, Result};
use crate::helpers::count_u32;
use crate::options::ReadOptions;

/// The length of the function table of the original's `ai.dll` (function ids 0..=72).
pub const FUNCTION_COUNT: u32 = 73;
/// The null word (`-1`): no function, no destination, no source, no formula.
pub const NONE: u32 = 0xFFFF_FFFF;
/// The relation word of every node that is not an `if`.
pub const NO_RELATION: u32 = 6;
/// Hard limit on handlers per package (retail maximum is far lower).
pub const MAX_EVENTS: u32 = 4096;
/// Hard limit on nodes per handler.
pub const MAX_RECORDS: u32 = 65_536;
/// Hard limit on operands per node.
pub const MAX_REFS: u32 = 1024;
/// Hard limit on handler-name length.
pub const MAX_NAME: u32 = 4096;

/// What a node is (`head3`, gameplay.md §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// `-1`: a call (`head0`), `dest = variable` (`head2`) or `dest = formula` (trailer).
    Statement,
    /// `0`: compare two operands by the relation and open a block.
    If,
    /// `1`: close the innermost block.
    End,
    /// `2`: a jump target, does nothing.
    Label,
    /// `3`: continue at the node the operand numbers.
    Goto,
    /// `4`: continue in the handler the operand numbers, at its node 0.
    Switch,
    /// `5`: stop the handler.
    Return,
    /// `6`: `dest = head2` as a number.
    Constant,
    /// Any other word, kept.
    Unknown(u32),
}

impl NodeKind {
    /// The kind of a `head3` word.
    pub fn from_word(w: u32) -> Self {
        match w as i32 {
            -1 => Self::Statement,
            0 => Self::If,
            1 => Self::End,
            2 => Self::Label,
            3 => Self::Goto,
            4 => Self::Switch,
            5 => Self::Return,
            6 => Self::Constant,
            _ => Self::Unknown(w),
        }
    }

    /// The `head3` word of this kind.
    pub fn word(self) -> u32 {
        match self {
            Self::Statement => NONE,
            Self::If => 0,
            Self::End => 1,
            Self::Label => 2,
            Self::Goto => 3,
            Self::Switch => 4,
            Self::Return => 5,
            Self::Constant => 6,
            Self::Unknown(w) => w,
        }
    }

    /// Lower-case name (dumps, reports).
    pub fn name(self) -> &'static str {
        match self {
            Self::Statement => "statement",
            Self::If => "if",
            Self::End => "end",
            Self::Label => "label",
            Self::Goto => "goto",
            Self::Switch => "switch",
            Self::Return => "return",
            Self::Constant => "constant",
            Self::Unknown(_) => "unknown",
        }
    }
}

/// An `if`'s comparison (the relation word 0..5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// 0 `<`.
    Less,
    /// 1 `==`.
    Equal,
    /// 2 `>`.
    Greater,
    /// 3 `<=`.
    LessEqual,
    /// 4 `>=`.
    GreaterEqual,
    /// 5 `!=`.
    NotEqual,
}

impl Relation {
    /// The relation of word `w` (`None` outside 0..5).
    pub fn from_word(w: u32) -> Option<Self> {
        Some(match w {
            0 => Self::Less,
            1 => Self::Equal,
            2 => Self::Greater,
            3 => Self::LessEqual,
            4 => Self::GreaterEqual,
            5 => Self::NotEqual,
            _ => return None,
        })
    }

    /// Its word.
    pub fn word(self) -> u32 {
        self as u32
    }

    /// Its operator (`<`, `==`, ...).
    pub fn symbol(self) -> &'static str {
        ["<", "==", ">", "<=", ">=", "!="][self as usize]
    }

    /// Whether `a` and `b` stand in this relation.
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Self::Less => a < b,
            Self::Equal => a == b,
            Self::Greater => a > b,
            Self::LessEqual => a <= b,
            Self::GreaterEqual => a >= b,
            Self::NotEqual => a != b,
        }
    }
}

/// One node; every word kept in disk order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// `head0` function, `head1` destination, `head2` source or number, `head3` kind.
    pub head: [u32; 4],
    /// An `if`'s relation (0..5), else 6.
    pub relation: u32,
    /// Operands: a call's arguments and an `if`'s two variables (variable indices), a
    /// goto's node or a switch's handler (numbers).
    pub ops: Vec<u32>,
    /// Formula index into the bundle's `.fml`, or `-1`.
    pub trailer: u32,
}

fn some(w: u32) -> Option<u32> {
    (w != NONE).then_some(w)
}

impl Record {
    /// A node of `kind` with no function, destination, source or formula (authoring).
    pub fn of_kind(kind: NodeKind, ops: Vec<u32>) -> Self {
        Self { head: [NONE, NONE, NONE, kind.word()], relation: NO_RELATION, ops, trailer: NONE }
    }

    /// `dest = fn<function>(args)` (`dest` `None`: the result is dropped).
    pub fn call(function: u32, dest: Option<u32>, args: Vec<u32>) -> Self {
        let mut r = Self::of_kind(NodeKind::Statement, args);
        r.head[0] = function;
        r.head[1] = dest.unwrap_or(NONE);
        r
    }

    /// `dest = source` (a variable).
    pub fn copy(dest: u32, source: u32) -> Self {
        let mut r = Self::of_kind(NodeKind::Statement, Vec::new());
        r.head[1] = dest;
        r.head[2] = source;
        r
    }

    /// `dest = formula <formula>` of the bundle's `.fml`.
    pub fn formula_into(dest: u32, formula: u32) -> Self {
        let mut r = Self::of_kind(NodeKind::Statement, Vec::new());
        r.head[1] = dest;
        r.trailer = formula;
        r
    }

    /// `if a <relation> b`.
    pub fn compare(a: u32, relation: Relation, b: u32) -> Self {
        let mut r = Self::of_kind(NodeKind::If, vec![a, b]);
        r.relation = relation.word();
        r
    }

    /// `dest = number` (a constant node).
    pub fn constant(dest: u32, number: u32) -> Self {
        let mut r = Self::of_kind(NodeKind::Constant, Vec::new());
        r.head[1] = dest;
        r.head[2] = number;
        r
    }

    /// The kind (`head3`).
    pub fn kind(&self) -> NodeKind {
        NodeKind::from_word(self.head[3])
    }

    /// The function called (`head0`), if any.
    pub fn function(&self) -> Option<u32> {
        some(self.head[0])
    }

    /// The destination variable (`head1`), if any.
    pub fn dest(&self) -> Option<u32> {
        some(self.head[1])
    }

    /// `head2`: a statement's source variable or a constant's number, if any.
    pub fn source(&self) -> Option<u32> {
        some(self.head[2])
    }

    /// The formula index (the trailer), if any.
    pub fn formula(&self) -> Option<u32> {
        some(self.trailer)
    }

    /// An `if`'s relation (`None` when the word is outside 0..5).
    pub fn relation(&self) -> Option<Relation> {
        Relation::from_word(self.relation)
    }

    /// Encoded size `7·4 + 4·op_count`.
    pub fn encoded_len(&self) -> usize {
        28 + 4 * self.ops.len()
    }
}

/// A named handler and its nodes (the project calls a handler an *event*: it runs on
/// the engine's events, by name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Raw name bytes (`name_len` bytes, without the final NUL; may hold inner NULs).
    pub name: Vec<u8>,
    /// The handler's index word (its position in every shipped file).
    pub index: u32,
    /// Nodes in order.
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
    /// The length of the function table the package was compiled against (73).
    pub function_count: u32,
    /// Handlers in order.
    pub events: Vec<Event>,
    /// Bytes after the last handler (none in the retail corpus).
    pub trailing: Vec<u8>,
}

fn limit(c: &Cursor<'_>, value: u32, max: u32, what: &'static str) -> Result<()> {
    if value > max {
        return Err(Error::invalid(c.offset() - 4, "scr_limit", format!("{what} {value} exceeds the limit {max}")));
    }
    Ok(())
}

impl ScrPackage {
    /// A new empty package for the 73-function table (authoring).
    pub fn new() -> Self {
        Self { function_count: FUNCTION_COUNT, events: Vec::new(), trailing: Vec::new() }
    }

    /// Parses a package. Strict mode also rejects a `head0` that is neither `-1` nor a
    /// function of the package's table; compatible mode keeps it (the VM reports it
    /// when the node runs).
    pub fn parse(data: &[u8], options: ReadOptions) -> Result<Self> {
        let mut c = Cursor::new(data);
        let function_count = c.u32()?;
        let event_count = c.u32()?;
        limit(&c, event_count, MAX_EVENTS, "handler count")?;
        c.check_count(u64::from(event_count), 13, "handlers")?;
        let mut events = Vec::with_capacity(event_count as usize);
        for e in 0..event_count {
            events.push(
                Self::read_event(&mut c, function_count, options).map_err(|err| err.via(format!("handler {e}")))?,
            );
        }
        let trailing = c.take(c.remaining())?.to_vec();
        Ok(Self { function_count, events, trailing })
    }

    fn read_event(c: &mut Cursor<'_>, function_count: u32, options: ReadOptions) -> Result<Event> {
        let name_len = c.u32()?;
        limit(c, name_len, MAX_NAME, "name length")?;
        let name = c.take(name_len as usize)?.to_vec();
        let at = c.offset();
        if c.u8()? != 0 {
            return Err(Error::invalid(at, "scr_event_name_nul", "handler name is not NUL-terminated"));
        }
        let index = c.u32()?;
        let record_count = c.u32()?;
        limit(c, record_count, MAX_RECORDS, "node count")?;
        c.check_count(u64::from(record_count), 28, "nodes")?;
        let mut records = Vec::with_capacity(record_count as usize);
        for r in 0..record_count {
            let at = c.offset();
            let head = [c.u32()?, c.u32()?, c.u32()?, c.u32()?];
            if options.strict && head[0] != NONE && head[0] >= function_count {
                return Err(Error::invalid(
                    at,
                    "scr_function",
                    format!("node {r}: function {} ≥ function count {function_count}", head[0]),
                ));
            }
            let relation = c.u32()?;
            let n = c.u32()?;
            limit(c, n, MAX_REFS, "operand count")?;
            c.check_count(u64::from(n) + 1, 4, "operands")?;
            let ops = (0..n).map(|_| c.u32()).collect::<Result<Vec<_>>>()?;
            records.push(Record { head, relation, ops, trailer: c.u32()? });
        }
        Ok(Event { name, index, records })
    }

    /// Serialises byte for byte.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.function_count.to_le_bytes());
        out.extend_from_slice(&count_u32(self.events.len(), "handlers")?.to_le_bytes());
        for e in &self.events {
            out.extend_from_slice(&count_u32(e.name.len(), "name bytes")?.to_le_bytes());
            out.extend_from_slice(&e.name);
            out.push(0);
            out.extend_from_slice(&e.index.to_le_bytes());
            out.extend_from_slice(&count_u32(e.records.len(), "nodes")?.to_le_bytes());
            for r in &e.records {
                for w in r.head.iter().chain([&r.relation]) {
                    out.extend_from_slice(&w.to_le_bytes());
                }
                out.extend_from_slice(&count_u32(r.ops.len(), "operands")?.to_le_bytes());
                for x in &r.ops {
                    out.extend_from_slice(&x.to_le_bytes());
                }
                out.extend_from_slice(&r.trailer.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.trailing);
        Ok(out)
    }

    /// The table-length check: the original compares the first word with 73 and, on a
    /// mismatch, only logs "Scripts are not up to date" and carries on (gameplay.md
    /// §2.1); the caller decides what to do with the error.
    ///
    /// # Errors
    /// The word differs from `expected` ([`ErrorKind::UnsupportedVersion`]).
    pub fn check_version(&self, expected: u32) -> Result<()> {
        if self.function_count == expected {
            Ok(())
        } else {
            Err(Error::at(0, ErrorKind::UnsupportedVersion(u64::from(self.function_count))))
        }
    }

    /// The first handler whose C-string name equals `name` exactly (case-sensitive).
    pub fn event(&self, name: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.c_name() == name.as_bytes())
    }

    /// Adds a handler with index word = its position (authoring).
    ///
    /// # Errors
    /// The name holds a NUL.
    pub fn add_event(&mut self, name: &str, records: Vec<Record>) -> Result<()> {
        if name.as_bytes().contains(&0) {
            return Err(Error::invalid(0, "scr_event_name_nul", "embedded NUL"));
        }
        let index = count_u32(self.events.len(), "handlers")?;
        self.events.push(Event { name: name.as_bytes().to_vec(), index, records });
        Ok(())
    }
}

impl Default for ScrPackage {
    fn default() -> Self {
        Self::new()
    }
}
