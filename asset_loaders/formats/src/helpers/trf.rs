//! TRF research trees (`.trf`, `docs/reference/registry.md` §5.7) — *inferred layout*: an NRes
//! archive with entries typed `TRF0`…`TRFB`. The archive bytes are kept (lossless by
//! construction); typed views read the 40-byte `TRF0` nodes, `TRF1` states and the
//! string pools `TRF7`…`TRFA`.

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

/// One research node (raw 40 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrfNode {
    /// Node bytes.
    pub raw: [u8; NODE_SIZE],
}

impl TrfNode {
    /// `+0x00` cost, `+0x04` time — *inferred*.
    pub fn cost_time(&self) -> (f32, f32) {
        (float(&self.raw, 0), float(&self.raw, 4))
    }
    /// `+0x08/+0x0C` position in the tree view — *inferred*.
    pub fn view(&self) -> (f32, f32) {
        (float(&self.raw, 8), float(&self.raw, 12))
    }
    /// `+0x10..+0x1C` byte offsets into `TRF7` (short name), `TRF8` (long name), `TRF9`
    /// (help), `TRFA` (description) — *inferred*.
    pub fn string_offsets(&self) -> [u32; 4] {
        [0x10, 0x14, 0x18, 0x1C].map(|o| word(&self.raw, o))
    }
    /// `+0x22..+0x27`: turret type, main type, sub type, build subsystem, size class,
    /// upgrade level — *inferred*.
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

    /// `TRF1` initial states (bits: 1 available, 2 researched, 4 active).
    pub fn initial_states(&self, options: ReadOptions) -> Option<Vec<u8>> {
        let nres = Nres::parse(&self.archive, options).ok()?;
        let i = nres.entries().iter().position(|e| e.type_id == type_id(b'1'))?;
        nres.payload(i).map(<[u8]>::to_vec)
    }
}
