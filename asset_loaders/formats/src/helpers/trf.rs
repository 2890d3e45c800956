//! TRF research trees (`.trf`; `gameplay.md` §4 from openparkan `docs/16-research.md`,
//! read and measured, correcting `docs/reference/registry.md` §5.7): an NRes archive with
//! entries typed `TRF0`…`TRFB`. The archive bytes are kept (lossless by construction);
//! typed views read the 40-byte `TRF0` items, the `TRF1` states, the part map `TRFB`
//! over `TRF6` and the string pools `TRF6`…`TRFA`.

use super::{float, word};
use crate::bytes::fixed_str;
use crate::error::{Error, Result};
use crate::nres::Nres;
use crate::options::ReadOptions;

/// Node size in `TRF0`.
pub const NODE_SIZE: usize = 40;

/// NRes type id of table `TRF<d>` (`d` = `'0'..='9'`, `'A'`, `'B'`).
pub const fn type_id(digit: u8) -> u32 {
    u32::from_le_bytes([b'T', b'R', b'F', digit])
}

/// An item's four costs (`TRF0` `+0x00..+0x10`, named by `objects.dlb`; read, measured).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TrfCosts {
    /// `ResearchEnergyCost`.
    pub research_energy: f32,
    /// `ResearchOreCost`.
    pub research_ore: f32,
    /// `BuildEnergyCost`.
    pub build_energy: f32,
    /// `BuildOreCost`.
    pub build_ore: f32,
}

/// One research item (raw 40 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrfNode {
    /// Item bytes.
    pub raw: [u8; NODE_SIZE],
}

impl TrfNode {
    /// `+0x00..+0x10`: the research and build costs.
    pub fn costs(&self) -> TrfCosts {
        TrfCosts {
            research_energy: float(&self.raw, 0),
            research_ore: float(&self.raw, 4),
            build_energy: float(&self.raw, 8),
            build_ore: float(&self.raw, 12),
        }
    }
    /// `+0x10..+0x20`: byte offsets into `TRF7` (short code), `TRF8` (display name),
    /// `TRF9` (description) and `TRFA` (stat template).
    pub fn string_offsets(&self) -> [u32; 4] {
        [0x10, 0x14, 0x18, 0x1C].map(|o| word(&self.raw, o))
    }
    /// `+0x20`: the item's own `TRFB` entry.
    pub fn part_entry(&self) -> u16 {
        u16::from_le_bytes([self.raw[0x20], self.raw[0x21]])
    }
    /// `+0x22..+0x28`: role, kind, sub-kind, second sub-kind, size, upgrade level.
    pub fn type_bytes(&self) -> [u8; 6] {
        [self.raw[0x22], self.raw[0x23], self.raw[0x24], self.raw[0x25], self.raw[0x26], self.raw[0x27]]
    }
}

/// A research tree: the archive bytes plus decoded nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trf {
    /// The NRes archive, kept byte for byte.
    pub archive: Vec<u8>,
    /// `TRF0` nodes.
    pub nodes: Vec<TrfNode>,
}

impl Trf {
    /// Parses the archive and the `TRF0` node table (size must be a multiple of 40).
    pub fn parse(data: &[u8], options: ReadOptions) -> Result<Self> {
        let nres = Nres::parse(data, options)?;
        let mut nodes = Vec::new();
        if let Some((i, e)) = nres.entries().iter().enumerate().find(|(_, e)| e.type_id == type_id(b'0')) {
            let payload = nres.payload(i).unwrap_or_default();
            if payload.len() % NODE_SIZE != 0 {
                return Err(Error::invalid(
                    u64::from(e.data_offset),
                    "trf_node_size",
                    format!("{} bytes of TRF0", payload.len()),
                )
                .in_entry(e.display_name()));
            }
            for chunk in payload.chunks_exact(NODE_SIZE) {
                let mut raw = [0u8; NODE_SIZE];
                raw.copy_from_slice(chunk);
                nodes.push(TrfNode { raw });
            }
        }
        Ok(Self { archive: data.to_vec(), nodes })
    }

    /// The archive bytes (unchanged).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.archive.clone()
    }

    /// The NUL-terminated string at `offset` of pool `TRF<digit>` (`7`..`A`).
    pub fn string(&self, digit: u8, offset: u32, options: ReadOptions) -> Option<Vec<u8>> {
        let nres = Nres::parse(&self.archive, options).ok()?;
        let i = nres.entries().iter().position(|e| e.type_id == type_id(digit))?;
        let pool = nres.payload(i)?;
        Some(fixed_str(pool.get(offset as usize..)?).to_vec())
    }

    /// A per-node relation: `TRF<counts>` holds one `u32` count per node and
    /// `TRF<list>` the flat `u32` node indices (`TRF2`/`TRF3` prerequisites, `TRF4`/`TRF5`
    /// unlocks). A missing pair is no relation (`Some` of empty lists); `None` when the
    /// counts do not match the node count or the list length (read leniently: the
    /// caller decides).
    pub fn relation(&self, counts: u8, list: u8, options: ReadOptions) -> Option<Vec<Vec<u32>>> {
        let nres = Nres::parse(&self.archive, options).ok()?;
        let table = |digit: u8| {
            let i = nres.entries().iter().position(|e| e.type_id == type_id(digit))?;
            let bytes = nres.payload(i)?;
            (bytes.len() % 4 == 0).then(|| bytes.chunks_exact(4).map(|c| word(c, 0)).collect::<Vec<u32>>())
        };
        let (Some(counts), Some(flat)) = (table(counts), table(list)) else {
            let absent = nres.entries().iter().all(|e| e.type_id != type_id(counts) && e.type_id != type_id(list));
            return absent.then(|| vec![Vec::new(); self.nodes.len()]);
        };
        if counts.len() != self.nodes.len() || counts.iter().map(|&c| u64::from(c)).sum::<u64>() != flat.len() as u64 {
            return None;
        }
        let mut rest = flat.as_slice();
        let mut out = Vec::with_capacity(counts.len());
        for &c in &counts {
            let (head, tail) = rest.split_at(c as usize);
            out.push(head.to_vec());
            rest = tail;
        }
        Some(out)
    }

    /// The part map: each `TRFB` entry (two `u16`: an offset into `TRF6`, the item that
    /// researches the part) as `(part id, item)`, in entry order. `Some` of empty when
    /// there is no `TRFB`; `None` when it is not whole entries or an offset is outside
    /// `TRF6` (read leniently: the caller decides).
    pub fn parts(&self, options: ReadOptions) -> Option<Vec<(Vec<u8>, u16)>> {
        let nres = Nres::parse(&self.archive, options).ok()?;
        let table = |digit: u8| {
            let i = nres.entries().iter().position(|e| e.type_id == type_id(digit))?;
            nres.payload(i)
        };
        let Some(map) = table(b'B') else { return Some(Vec::new()) };
        let ids = table(b'6').unwrap_or_default();
        if map.len() % 4 != 0 {
            return None;
        }
        map.chunks_exact(4)
            .map(|e| {
                let (offset, item) = (u16::from_le_bytes([e[0], e[1]]), u16::from_le_bytes([e[2], e[3]]));
                Some((fixed_str(ids.get(usize::from(offset)..)?).to_vec(), item))
            })
            .collect()
    }

    /// `TRF1` starting states (bits: 4 in the tree, 2 researched, 1 available).
    pub fn initial_states(&self, options: ReadOptions) -> Option<Vec<u8>> {
        let nres = Nres::parse(&self.archive, options).ok()?;
        let i = nres.entries().iter().position(|e| e.type_id == type_id(b'1'))?;
        nres.payload(i).map(<[u8]>::to_vec)
    }
}
