//! CTLD control descriptions (`.ctl`, `docs/reference/registry.md` §5.5): a count-driven
//! composite. Header `S, M, T, I, C` (*confirmed*), 108 bytes of root parameters
//! (*confirmed size*, fields *inferred*, kept raw; the movement limits are read and
//! written through [`MotionParameters`]), `S` state records of `156 + 16·M`
//! bytes (*opaque body*), an `S × S` f32 matrix, `T` piece-binding rows (36 bytes,
//! **disputed**: 48, see [`RowLayout`]), `I` typed item records, a 21-entry command
//! hook table and `C` command lists of 100-byte commands. The parser ends exactly at
//! the end of the payload.

mod items;
mod pose;
mod root;
#[cfg(test)]
mod tests;

pub use items::{Command, CommandList, EffectRow, ItemKind, ItemRecord, TypedItems};
pub use pose::{
    BindingRow, FLAG_CONDITIONAL, FLAG_INVERT, FLAG_ITEM_REF, FLAG_SKIP_POSE, FLAG_WRAP, PoseEntry, frame_at, normalise,
};
pub use root::MotionParameters;

use super::count_u32;
use crate::bytes::Cursor;
use crate::error::{Error, Result};

/// Header size (five counts).
pub const HEADER_SIZE: usize = 20;
/// Root parameter block size.
pub const ROOT_SIZE: usize = 108;
/// Fixed part of a state record.
pub const STATE_FIXED: u64 = 156;
/// Number of command hook slots.
pub const HOOKS: usize = 21;
/// Command size.
pub const COMMAND_SIZE: usize = 100;

/// Size of a piece-binding row — **disputed** between two readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowLayout {
    /// 36-byte rows read by the native Control code (spec's recommended reading; the
    /// `fr_l_plant.ctl` arithmetic supports it).
    #[default]
    Native36,
    /// 48-byte rows of a public decompilation.
    Decompiled48,
}

impl RowLayout {
    /// Row size in bytes.
    pub const fn size(self) -> usize {
        match self {
            RowLayout::Native36 => 36,
            RowLayout::Decompiled48 => 48,
        }
    }
}

/// `row_start = 128 + S·(156 + 16·M) + 4·S²`, overflow-checked.
pub fn row_start(s: u32, m: u32) -> Option<u64> {
    let state = u64::from(m).checked_mul(16)?.checked_add(STATE_FIXED)?;
    let states = u64::from(s).checked_mul(state)?;
    let matrix = u64::from(s).checked_mul(u64::from(s))?.checked_mul(4)?;
    128u64.checked_add(states)?.checked_add(matrix)
}

/// A parsed control description. The state and matrix regions are kept raw.
#[derive(Debug, Clone, PartialEq)]
pub struct Ctld {
    /// Header counts `[S, M, T, I, C]` as stored (T, I, C must match the lists on write).
    pub counts: [u32; 5],
    /// Root parameters (108 bytes, fields inferred, opaque for writing).
    pub root: [u8; ROOT_SIZE],
    /// `S` state records and the `S × S` matrix, raw (`S·(156 + 16·M) + 4·S²` bytes).
    pub states_raw: Vec<u8>,
    /// Row layout used to split the binding table.
    pub layout: RowLayout,
    /// Piece-binding rows.
    pub rows: Vec<BindingRow>,
    /// Typed item records.
    pub items: Vec<ItemRecord>,
    /// Command hook table: −1 = none, otherwise a command-list index.
    pub hooks: [i32; HOOKS],
    /// Command lists.
    pub lists: Vec<CommandList>,
}

impl Ctld {
    /// Parses with the recommended 36-byte rows.
    pub fn parse(data: &[u8]) -> Result<Self> {
        Self::parse_with(data, RowLayout::Native36)
    }

    /// Parses with an explicit row layout.
    pub fn parse_with(data: &[u8], layout: RowLayout) -> Result<Self> {
        let mut c = Cursor::new(data);
        let mut counts = [0u32; 5];
        for n in counts.iter_mut() {
            *n = c.u32()?;
        }
        let [s, m, t, i, n_lists] = counts;
        let root: [u8; ROOT_SIZE] = c.array()?;
        let start =
            row_start(s, m).ok_or_else(|| Error::invalid(0, "count_overflow", format!("S={s} M={m} overflow")))?;
        let states_len = c.check_count(start - 128, 1, "state records and matrix")?;
        let states_raw = c.take(states_len)?.to_vec();
        c.check_count(u64::from(t), layout.size() as u64, "piece-binding rows")?;
        let mut rows = Vec::with_capacity(t as usize);
        for _ in 0..t {
            rows.push(BindingRow { raw: c.take(layout.size())?.to_vec() });
        }
        // An item is at least 0xB0 + 4 bytes.
        c.check_count(u64::from(i), items::ITEM_FIXED as u64 + 4, "typed item records")?;
        let mut item_list = Vec::with_capacity(i as usize);
        for k in 0..i {
            item_list.push(ItemRecord::read(&mut c).map_err(|e| e.via(format!("typed item {k}")))?);
        }
        let mut hooks = [0i32; HOOKS];
        for h in hooks.iter_mut() {
            *h = c.i32().map_err(|e| e.via("command hook table"))?;
        }
        c.check_count(u64::from(n_lists), 4, "command lists")?;
        let mut lists = Vec::with_capacity(n_lists as usize);
        for k in 0..n_lists {
            lists.push(CommandList::read(&mut c).map_err(|e| e.via(format!("command list {k}")))?);
        }
        c.expect_end("CTLD")?;
        let out = Self { counts, root, states_raw, layout, rows, items: item_list, hooks, lists };
        out.check_hooks()?;
        Ok(out)
    }

    fn check_hooks(&self) -> Result<()> {
        for (slot, &h) in self.hooks.iter().enumerate() {
            if h != -1 && (h < 0 || h as usize >= self.lists.len()) {
                return Err(Error::invalid(
                    self.hook_table_offset() + 4 * slot as u64,
                    "ctld_hook_index",
                    format!("hook slot {slot} = {h}, {} command lists", self.lists.len()),
                ));
            }
        }
        Ok(())
    }

    /// Offset of the piece-binding table.
    pub fn row_start(&self) -> u64 {
        128 + self.states_raw.len() as u64
    }

    /// Offset of the command hook table.
    pub fn hook_table_offset(&self) -> u64 {
        self.row_start()
            + (self.rows.len() * self.layout.size()) as u64
            + self.items.iter().map(|i| i.encoded_len() as u64).sum::<u64>()
    }

    /// Serialises the file; `T`, `I` and `C` must match the lists (`S`, `M` are kept and
    /// must match the raw state region).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let [s, m, t, i, n] = self.counts;
        if row_start(s, m) != Some(128 + self.states_raw.len() as u64) {
            return Err(Error::invalid(
                0,
                "ctld_state_region",
                format!("S={s} M={m} do not match {} state bytes", self.states_raw.len()),
            ));
        }
        let lens = [self.rows.len(), self.items.len(), self.lists.len()];
        if [t, i, n] != [count_u32(lens[0], "rows")?, count_u32(lens[1], "items")?, count_u32(lens[2], "lists")?] {
            return Err(Error::invalid(0, "ctld_counts", format!("header T/I/C {t}/{i}/{n}, lists {lens:?}")));
        }
        self.check_hooks()?;
        let mut out = Vec::with_capacity(self.hook_table_offset() as usize + 84);
        for w in self.counts {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.root);
        out.extend_from_slice(&self.states_raw);
        for r in &self.rows {
            if r.raw.len() != self.layout.size() {
                return Err(Error::invalid(
                    0,
                    "ctld_row_size",
                    format!("row of {} bytes in a {:?} table", r.raw.len(), self.layout),
                ));
            }
            out.extend_from_slice(&r.raw);
        }
        for item in &self.items {
            item.write(&mut out)?;
        }
        for h in self.hooks {
            out.extend_from_slice(&h.to_le_bytes());
        }
        for l in &self.lists {
            l.write(&mut out)?;
        }
        Ok(out)
    }

    /// Authoring: a control description holding only an initial pose (no states,
    /// items or command lists; zero root parameters; every hook −1).
    pub fn with_pose(rows: Vec<BindingRow>) -> Result<Self> {
        let t = count_u32(rows.len(), "rows")?;
        if rows.iter().any(|r| r.raw.len() != RowLayout::Native36.size()) {
            return Err(Error::invalid(0, "ctld_row_size", "authoring uses 36-byte rows"));
        }
        Ok(Self {
            counts: [0, 0, t, 0, 0],
            root: [0; ROOT_SIZE],
            states_raw: Vec::new(),
            layout: RowLayout::Native36,
            rows,
            items: Vec::new(),
            hooks: [-1; HOOKS],
            lists: Vec::new(),
        })
    }

    /// Header count names (inferred): control states `S`.
    pub fn state_count(&self) -> u32 {
        self.counts[0]
    }

    /// Link slots per state `M` (inferred name).
    pub fn links_per_state(&self) -> u32 {
        self.counts[1]
    }

    /// The typed device list: every item's kind, or an explicit `Unsupported` section
    /// naming the first unknown tag (never a silent skip).
    pub fn typed_items(&self) -> TypedItems {
        items::typed_items(&self.items)
    }

    /// Every opcode-4 command ("type-4 effect rows"), with list and row indices.
    pub fn effect_rows(&self) -> Vec<EffectRow<'_>> {
        items::effect_rows(&self.lists)
    }

    /// The static initial pose: per node, the frame of the last enabled row (see
    /// [`BindingRow::initial_frame`]), in first-appearance order of the nodes.
    pub fn initial_pose(&self) -> Vec<PoseEntry> {
        pose::initial_pose(&self.rows, self.layout)
    }
}
