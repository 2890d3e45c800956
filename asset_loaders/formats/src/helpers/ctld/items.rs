//! CTLD typed item records and command lists (`docs/reference/registry.md` §5.5).

use crate::bytes::{Cursor, display_name, fixed_str};
use crate::error::{Error, ErrorKind, Result};
use crate::helpers::{count_u32, float, put_name, word};

/// Fixed item header size, including the tag and the binding count at `+0xAC`.
pub const ITEM_FIXED: usize = 0xB0;
/// Values of a component record.
pub const VALUES: usize = 16;
/// Where the values start.
const VALUES_AT: usize = 0x2C;
/// Where the emitted resource's archive name starts.
const EMITS_AT: usize = 0x6C;

/// One typed item record: the fixed header raw, the binding indices and the name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemRecord {
    /// `+0x00..+0xAC` raw (the count at `+0xAC` is derived from `bindings`).
    pub fixed: [u8; 0xAC],
    /// Piece-binding indices (*confirmed*).
    pub bindings: Vec<u32>,
    /// Name bytes without the terminating NUL (empty = length 0, no bytes stored).
    pub name: Vec<u8>,
}

impl ItemRecord {
    pub(super) fn read(c: &mut Cursor<'_>) -> Result<Self> {
        let fixed: [u8; 0xAC] = c.array()?;
        let count = c.u32()?;
        c.check_count(u64::from(count), 4, "binding indices")?;
        let mut bindings = Vec::with_capacity(count as usize);
        for _ in 0..count {
            bindings.push(c.u32()?);
        }
        let len = c.u32()?;
        let name = if len == 0 {
            Vec::new()
        } else {
            let at = c.offset();
            let n = c.check_count(u64::from(len), 1, "item name")?;
            let bytes = c.take(n)?.to_vec();
            if bytes.contains(&0) || c.u8()? != 0 {
                return Err(Error::invalid(at, "ctld_item_name", "name must be `length` non-NUL bytes and a NUL"));
            }
            bytes
        };
        Ok(Self { fixed, bindings, name })
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        if self.name.contains(&0) {
            return Err(Error::invalid(0, "ctld_item_name", "embedded NUL"));
        }
        out.extend_from_slice(&self.fixed);
        out.extend_from_slice(&count_u32(self.bindings.len(), "bindings")?.to_le_bytes());
        for b in &self.bindings {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out.extend_from_slice(&count_u32(self.name.len(), "name bytes")?.to_le_bytes());
        if !self.name.is_empty() {
            out.extend_from_slice(&self.name);
            out.push(0);
        }
        Ok(())
    }

    /// A record of `tag` on node `key` whose first values (`+0x2C` on, openparkan
    /// `docs/13-control.md`) are `values` (at most 16), every other word 0, no
    /// bindings and no name.
    pub fn with_values(tag: u32, key: u32, values: &[f32]) -> Self {
        let mut fixed = [0u8; 0xAC];
        fixed[0..4].copy_from_slice(&tag.to_le_bytes());
        fixed[4..8].copy_from_slice(&key.to_le_bytes());
        for (i, v) in values.iter().take(VALUES).enumerate() {
            fixed[VALUES_AT + 4 * i..VALUES_AT + 4 * i + 4].copy_from_slice(&v.to_bits().to_le_bytes());
        }
        Self { fixed, bindings: Vec::new(), name: Vec::new() }
    }

    /// Authoring: names what the component emits (a gun's round: an `objects.rlb` key
    /// in `member`, `archive` usually `objects.rlb`; cut to 31 bytes each).
    pub fn set_emits(&mut self, archive: &str, member: &str) {
        put_name(&mut self.fixed, EMITS_AT, archive);
        put_name(&mut self.fixed, EMITS_AT + 32, member);
    }

    /// Sets the node the component sits on (`+0x04`): a fitted part keeps its slot's.
    pub fn set_key(&mut self, key: u32) {
        self.fixed[4..8].copy_from_slice(&key.to_le_bytes());
    }

    /// Authoring: the part's mass (kg, `+0x1C`) and power a second (`+0x20`).
    pub fn set_figures(&mut self, mass: f32, power: f32) {
        self.fixed[0x1C..0x20].copy_from_slice(&mass.to_bits().to_le_bytes());
        self.fixed[0x20..0x24].copy_from_slice(&power.to_bits().to_le_bytes());
    }

    /// The component's sixteen values (`+0x2C`; their meaning is the class's:
    /// openparkan `docs/13-control.md`, read and measured on all shipped files).
    pub fn values(&self) -> [f32; VALUES] {
        std::array::from_fn(|i| float(&self.fixed, VALUES_AT + 4 * i))
    }

    /// `+0x1C` the part's mass in kg (read).
    pub fn mass(&self) -> f32 {
        float(&self.fixed, 0x1C)
    }

    /// `+0x20` power: the idle draw a second (a battery's output) (read).
    pub fn power(&self) -> f32 {
        float(&self.fixed, 0x20)
    }

    /// What the component emits (`+0x6C` archive, `+0x8C` member): a gun's round, a
    /// shield's hit effect (read).
    pub fn emits(&self) -> (&[u8], &[u8]) {
        (fixed_str(&self.fixed[EMITS_AT..EMITS_AT + 32]), fixed_str(&self.fixed[EMITS_AT + 32..EMITS_AT + 64]))
    }

    /// Encoded size.
    pub fn encoded_len(&self) -> usize {
        ITEM_FIXED + 4 * self.bindings.len() + 4 + if self.name.is_empty() { 0 } else { self.name.len() + 1 }
    }

    /// `+0x00` tag — *confirmed*.
    pub fn tag(&self) -> u32 {
        word(&self.fixed, 0)
    }

    /// `+0x04` the node the component sits on: its row of the part's `.ndp`, whose life
    /// fraction is the component's condition (read).
    pub fn key(&self) -> u32 {
        word(&self.fixed, 4)
    }

    /// `+0x08` flags — *inferred*.
    pub fn flags(&self) -> u32 {
        word(&self.fixed, 8)
    }

    /// `+0x18` link index, −1 = none — *inferred*.
    pub fn link_index(&self) -> i32 {
        word(&self.fixed, 0x18) as i32
    }

    /// `+0x2C` coefficient word ("fixed word 11") — *inferred* for tag 26, raw bits.
    pub fn coefficient_raw(&self) -> u32 {
        word(&self.fixed, 0x2C)
    }

    /// Classifies the tag.
    pub fn kind(&self) -> ItemKind {
        ItemKind::from_tag(self.tag(), self)
    }

    /// Name decoded for display.
    pub fn display_name(&self) -> String {
        display_name(&self.name)
    }
}

/// The typed reading of an item tag. Names are *inferred*; tags 2 and 5 are
/// *confirmed* to share the common record reader.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ItemKind {
    /// Tag 2: projectile weapon (common reader).
    Weapon,
    /// Tag 5: engine (common reader).
    Engine,
    /// Tag 19: power supply / battery (override keeps key and multiplier, copies
    /// coefficients; `+0x18 != -1` updates the link).
    PowerSupply {
        /// Link index (`+0x18`).
        link: i32,
    },
    /// Tag 26: resource multiplier (ore mining).
    ResourceMultiplier {
        /// Coefficient (`+0x2C`) read as f32.
        coefficient: f32,
    },
    /// Another tag named by the spec (1, 3, 4, 8, 9, 10, 15, 20, 21, 27, 30): known
    /// to exist, fields kept raw.
    KnownRaw(u32),
    /// A tag the spec does not name.
    Unsupported(u32),
}

impl ItemKind {
    fn from_tag(tag: u32, item: &ItemRecord) -> Self {
        match tag {
            2 => ItemKind::Weapon,
            5 => ItemKind::Engine,
            19 => ItemKind::PowerSupply { link: item.link_index() },
            26 => ItemKind::ResourceMultiplier { coefficient: float(&item.fixed, 0x2C) },
            1 | 3 | 4 | 8 | 9 | 10 | 15 | 20 | 21 | 27 | 30 => ItemKind::KnownRaw(tag),
            other => ItemKind::Unsupported(other),
        }
    }
}

/// The typed list of a CTLD: all items classified, or an explicit unsupported section.
#[derive(Debug, Clone, PartialEq)]
pub enum TypedItems {
    /// Every tag is named by the spec.
    Supported(Vec<ItemKind>),
    /// The list contains an unknown tag; the raw items stay available.
    Unsupported {
        /// Index of the first item with an unknown tag.
        index: usize,
        /// That tag.
        tag: u32,
    },
}

impl TypedItems {
    /// As a result: an unknown tag becomes [`ErrorKind::Unsupported`].
    pub fn into_result(self) -> Result<Vec<ItemKind>> {
        match self {
            TypedItems::Supported(v) => Ok(v),
            TypedItems::Unsupported { index, tag } => {
                Err(Error::new(ErrorKind::Unsupported(format!("CTLD typed item {index} has unknown tag {tag:#x}"))))
            }
        }
    }
}

pub(super) fn typed_items(items: &[ItemRecord]) -> TypedItems {
    let kinds: Vec<ItemKind> = items.iter().map(ItemRecord::kind).collect();
    match kinds.iter().position(|k| matches!(k, ItemKind::Unsupported(_))) {
        Some(index) => TypedItems::Unsupported { index, tag: items[index].tag() },
        None => TypedItems::Supported(kinds),
    }
}

/// One 100-byte command, kept raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Command {
    /// The command bytes.
    pub raw: [u8; 100],
}

impl Command {
    /// A command from its fields (authoring).
    pub fn new(condition: [u32; 3], opcode: u32, args: [u32; 5], archive: &str, resource: &str) -> Result<Self> {
        let mut raw = [0u8; 100];
        for (k, w) in condition.iter().chain(std::iter::once(&opcode)).chain(args.iter()).enumerate() {
            raw[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
        }
        raw[0x24..0x44].copy_from_slice(&crate::bytes::fixed_field::<32>(archive.as_bytes())?);
        raw[0x44..0x64].copy_from_slice(&crate::bytes::fixed_field::<32>(resource.as_bytes())?);
        Ok(Self { raw })
    }

    /// `+0x00/+0x04/+0x08` condition flags, mask, invert mask.
    pub fn condition(&self) -> [u32; 3] {
        [word(&self.raw, 0), word(&self.raw, 4), word(&self.raw, 8)]
    }

    /// `+0x0C` opcode (meanings inferred: 3, 4, 0x0A, 0x0B, 0x12, 0x13, 0x16).
    pub fn opcode(&self) -> u32 {
        word(&self.raw, 0x0C)
    }

    /// `+0x10` five argument words (int or float bits, opcode-specific; kept raw).
    pub fn args(&self) -> [u32; 5] {
        [0x10, 0x14, 0x18, 0x1C, 0x20].map(|o| word(&self.raw, o))
    }

    /// `+0x24` archive name.
    pub fn archive(&self) -> &[u8] {
        fixed_str(&self.raw[0x24..0x44])
    }

    /// `+0x44` resource name.
    pub fn resource(&self) -> &[u8] {
        fixed_str(&self.raw[0x44..0x64])
    }
}

/// A command list: `u32 count` then `count` commands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommandList {
    /// Commands in order.
    pub commands: Vec<Command>,
}

impl CommandList {
    pub(super) fn read(c: &mut Cursor<'_>) -> Result<Self> {
        let n = c.u32()?;
        c.check_count(u64::from(n), 100, "commands")?;
        let mut commands = Vec::with_capacity(n as usize);
        for _ in 0..n {
            commands.push(Command { raw: c.array()? });
        }
        Ok(Self { commands })
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        out.extend_from_slice(&count_u32(self.commands.len(), "commands")?.to_le_bytes());
        for cmd in &self.commands {
            out.extend_from_slice(&cmd.raw);
        }
        Ok(())
    }
}

/// An opcode-4 command ("type-4 effect row"): oriented effect from three CPT points.
/// Which of the five argument words hold the selector and the three CPT offsets is not
/// fixed by the spec, so the arguments stay raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EffectRow<'a> {
    /// Command-list index (the "table").
    pub list: usize,
    /// Row inside the list.
    pub row: usize,
    /// The command.
    pub command: &'a Command,
}

pub(super) fn effect_rows(lists: &[CommandList]) -> Vec<EffectRow<'_>> {
    let mut out = Vec::new();
    for (list, l) in lists.iter().enumerate() {
        for (row, command) in l.commands.iter().enumerate() {
            if command.opcode() == 4 {
                out.push(EffectRow { list, row, command });
            }
        }
    }
    out
}
