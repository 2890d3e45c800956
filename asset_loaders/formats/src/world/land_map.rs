//! `Land.map` areal map (`docs/reference/world.md` §3): an NRes archive with exactly one type-12
//! entry holding the areals (prefix, vertices, edge links, polygon blocks) and the
//! candidate grid. Every reference is range-checked; the payload is parsed to its
//! exact end and written back byte for byte.

use super::{PutLe, StreamEntry, count_u32, save_container};
use crate::bytes::Cursor;
use crate::error::{Error, Result, ResultExt};
use crate::nres::{DirEntry, Nres, NresDocument};
use crate::options::ReadOptions;

mod builder;
pub use builder::ArealMapBuilder;

/// The entry type of the areal map.
pub const AREAL_TYPE: u32 = 12;
/// Largest hit count of a grid cell (10 bits).
pub const MAX_CELL_HITS: usize = 1023;
/// Largest pool start of a grid cell (22 bits).
pub const MAX_POOL_START: usize = (1 << 22) - 1;

/// The 56-byte areal prefix without its two counts (`vertex_count`, `poly_count`),
/// which are derived from [`Areal::vertices`] and [`Areal::polys`] (confirmed layout).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArealPrefix56 {
    /// `+0x00` anchor.
    pub anchor: [f32; 3],
    /// `+0x0C` reserved (0 in the corpus; raw bits preserved).
    pub reserved_12: u32,
    /// `+0x10` area metric.
    pub area_metric: f32,
    /// `+0x14` unit normal.
    pub normal: [f32; 3],
    /// `+0x20` logic flag (meaning open).
    pub logic_flag: u32,
    /// `+0x24` reserved (preserved).
    pub reserved_36: u32,
    /// `+0x28` class id (meaning open).
    pub class_id: u32,
    /// `+0x2C` reserved (preserved).
    pub reserved_44: u32,
}

/// An edge link: `(-1, -1)` = no neighbour, otherwise an areal and one of its links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EdgeLink8 {
    /// Target areal.
    pub area_ref: i32,
    /// Link index inside the target areal.
    pub edge_ref: i32,
}

impl EdgeLink8 {
    /// The "no neighbour" link.
    pub const NONE: Self = Self { area_ref: -1, edge_ref: -1 };

    /// The target areal, if any.
    pub fn target(&self) -> Option<usize> {
        usize::try_from(self.area_ref).ok()
    }
}

/// A polygon block (code-only framing: `u32 n` then `4 × (3n + 1)` raw bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolyBlock {
    /// `n`.
    pub n: u32,
    /// The raw block.
    pub block: Vec<u8>,
}

/// One areal.
#[derive(Debug, Clone, PartialEq)]
pub struct Areal {
    /// The prefix.
    pub prefix: ArealPrefix56,
    /// Boundary vertices.
    pub vertices: Vec<[f32; 3]>,
    /// `vertex_count + 3 × poly_count` links; link `k < vertex_count` belongs to the
    /// edge from vertex `k` to vertex `k + 1` (inferred).
    pub links: Vec<EdgeLink8>,
    /// Polygon blocks (never seen in data).
    pub polys: Vec<PolyBlock>,
}

/// A parsed areal map; the grid is packed as at runtime: one `u32` per cell
/// (`hit_count << 22 | pool_start`) into one concatenated candidate pool.
#[derive(Debug, Clone)]
pub struct ArealMap {
    /// Areals in file order.
    pub areals: Vec<Areal>,
    /// Grid width.
    pub cells_x: u32,
    /// Grid height.
    pub cells_y: u32,
    cells: Vec<u32>,
    pool: Vec<u16>,
    /// The directory row (name and raw `attr2`/`attr3`), when read from a file.
    pub row: Option<DirEntry>,
    doc: Option<NresDocument>,
}

fn check_link(link: EdgeLink8, count: usize, target_links: impl Fn(usize) -> usize) -> std::result::Result<(), String> {
    if link == EdgeLink8::NONE {
        return Ok(());
    }
    let (Ok(area), Ok(edge)) = (usize::try_from(link.area_ref), usize::try_from(link.edge_ref)) else {
        return Err(format!("invalid negative link ({}, {})", link.area_ref, link.edge_ref));
    };
    if area >= count {
        return Err(format!("area_ref {area} >= {count} areals"));
    }
    let n = target_links(area);
    if edge >= n {
        return Err(format!("edge_ref {edge} >= {n} links of areal {area}"));
    }
    Ok(())
}

impl ArealMap {
    /// Parses and validates an areal map archive.
    pub fn parse(data: &[u8], options: ReadOptions) -> Result<Self> {
        let nres = Nres::parse(data, options)?;
        let [row] = nres.entries() else {
            return Err(Error::invalid(
                nres.directory_offset() as u64,
                "land_map_entries",
                format!("{} entries, expected exactly one", nres.len()),
            ));
        };
        if row.type_id != AREAL_TYPE {
            return Err(Error::invalid(
                nres.directory_offset() as u64,
                "land_map_type",
                format!("entry type {} != 12", row.type_id),
            ));
        }
        let payload = nres.payload(0).unwrap_or_default();
        let mut map =
            Self::parse_payload(payload, u64::from(row.data_offset), row.attr1).in_entry(row.display_name())?;
        map.row = Some(*row);
        map.doc = Some(NresDocument::from_archive(&nres));
        Ok(map)
    }

    /// Parses the type-12 payload (`base` = its absolute offset, `count` = `attr1`).
    pub fn parse_payload(payload: &[u8], base: u64, count: u32) -> Result<Self> {
        let mut c = Cursor::with_base(payload, base);
        c.check_count(u64::from(count), 56, "areals")?;
        let mut areals = Vec::with_capacity(count as usize);
        let mut link_offsets = Vec::with_capacity(count as usize);
        for i in 0..count {
            let (areal, at) = read_areal(&mut c).via(format!("areal {i}"))?;
            areals.push(areal);
            link_offsets.push(at);
        }
        let n = areals.len();
        for (i, a) in areals.iter().enumerate() {
            for (k, &link) in a.links.iter().enumerate() {
                check_link(link, n, |t| areals[t].links.len()).map_err(|detail| {
                    Error::invalid(link_offsets[i] + 8 * k as u64, "edge_link", detail)
                        .via(format!("areal {i} link {k}"))
                })?;
            }
        }
        let grid_at = c.offset();
        let (cells_x, cells_y) = (c.u32()?, c.u32()?);
        let total = u64::from(cells_x) * u64::from(cells_y);
        if total == 0 {
            return Err(Error::invalid(grid_at, "grid_size", format!("{cells_x} x {cells_y} grid is empty")));
        }
        c.check_count(total, 2, "grid cells")?;
        let mut cells = Vec::with_capacity(total as usize);
        let mut pool = Vec::new();
        for cell in 0..total {
            let at = c.offset();
            let hits = usize::from(c.u16()?);
            if hits > MAX_CELL_HITS || pool.len() > MAX_POOL_START {
                return Err(Error::invalid(
                    at,
                    "grid_pack",
                    format!("cell {cell}: {hits} hits at pool {} do not pack into 10/22 bits", pool.len()),
                ));
            }
            c.check_count(hits as u64, 2, "cell hits")?;
            cells.push(((hits as u32) << 22) | pool.len() as u32);
            for _ in 0..hits {
                let at = c.offset();
                let id = c.u16()?;
                if usize::from(id) >= n {
                    return Err(Error::invalid(at, "grid_area_id", format!("cell {cell} names areal {id} of {n}")));
                }
                pool.push(id);
            }
        }
        c.expect_end("the areal grid")?;
        Ok(Self { areals, cells_x, cells_y, cells, pool, row: None, doc: None })
    }

    /// The packed cell word (`hit_count << 22 | pool_start`) of linear cell `i`.
    pub fn packed_cell(&self, i: usize) -> Option<u32> {
        self.cells.get(i).copied()
    }

    /// The candidate areal ids of linear cell `i` (file order).
    pub fn cell(&self, i: usize) -> &[u16] {
        let Some(&w) = self.cells.get(i) else { return &[] };
        let (start, n) = ((w & 0x3F_FFFF) as usize, (w >> 22) as usize);
        self.pool.get(start..start + n).unwrap_or(&[])
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Largest candidate count of any cell.
    pub fn max_candidates(&self) -> usize {
        self.cells.iter().map(|w| (w >> 22) as usize).max().unwrap_or(0)
    }

    /// Total areal vertices.
    pub fn vertex_count(&self) -> usize {
        self.areals.iter().map(|a| a.vertices.len()).sum()
    }

    /// Replaces the grid (`cells_x × cells_y` candidate lists in linear order).
    pub fn set_grid(&mut self, cells_x: u32, cells_y: u32, lists: &[Vec<u16>]) -> Result<()> {
        if u64::from(cells_x) * u64::from(cells_y) != lists.len() as u64 || lists.is_empty() {
            return Err(Error::invalid(
                0,
                "grid_size",
                format!("{cells_x} x {cells_y} grid with {} lists", lists.len()),
            ));
        }
        let mut cells = Vec::with_capacity(lists.len());
        let mut pool = Vec::new();
        for (i, l) in lists.iter().enumerate() {
            if l.len() > MAX_CELL_HITS || pool.len() > MAX_POOL_START {
                return Err(Error::invalid(0, "grid_pack", format!("cell {i} does not pack into 10/22 bits")));
            }
            if let Some(bad) = l.iter().find(|&&id| usize::from(id) >= self.areals.len()) {
                return Err(Error::invalid(0, "grid_area_id", format!("cell {i} names areal {bad}")));
            }
            cells.push(((l.len() as u32) << 22) | pool.len() as u32);
            pool.extend_from_slice(l);
        }
        (self.cells_x, self.cells_y, self.cells, self.pool) = (cells_x, cells_y, cells, pool);
        Ok(())
    }

    /// Serialises the type-12 payload.
    pub fn payload_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for a in &self.areals {
            let p = &a.prefix;
            out.put_vec3(p.anchor);
            out.put_u32(p.reserved_12);
            out.put_f32(p.area_metric);
            out.put_vec3(p.normal);
            for w in [p.logic_flag, p.reserved_36, p.class_id, p.reserved_44] {
                out.put_u32(w);
            }
            out.put_u32(count_u32(a.vertices.len(), "areal vertices")?);
            out.put_u32(count_u32(a.polys.len(), "areal polygons")?);
            a.vertices.iter().for_each(|&v| out.put_vec3(v));
            for l in &a.links {
                out.put_i32(l.area_ref);
                out.put_i32(l.edge_ref);
            }
            for p in &a.polys {
                out.put_u32(p.n);
                out.extend_from_slice(&p.block);
            }
        }
        out.put_u32(self.cells_x);
        out.put_u32(self.cells_y);
        for i in 0..self.cells.len() {
            let list = self.cell(i);
            out.put_u16(list.len() as u16);
            list.iter().for_each(|&id| out.put_u16(id));
        }
        Ok(out)
    }

    /// Serialises the archive (byte-identical to the input for an unedited parse).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let row = self.row.as_ref();
        let entry = StreamEntry {
            type_id: AREAL_TYPE,
            attrs: [count_u32(self.areals.len(), "areals")?, row.map_or(0, |r| r.attr2), row.map_or(0, |r| r.attr3)],
            name: row.map_or_else(|| b"Land.map".to_vec(), |r| r.name().to_vec()),
            payload: self.payload_bytes()?,
        };
        save_container(self.doc.as_ref(), &[entry])
    }
}

fn read_areal(c: &mut Cursor<'_>) -> Result<(Areal, u64)> {
    let prefix = ArealPrefix56 {
        anchor: c.vec3()?,
        reserved_12: c.u32()?,
        area_metric: c.f32()?,
        normal: c.vec3()?,
        logic_flag: c.u32()?,
        reserved_36: c.u32()?,
        class_id: c.u32()?,
        reserved_44: c.u32()?,
    };
    let (vertex_count, poly_count) = (u64::from(c.u32()?), u64::from(c.u32()?));
    c.check_count(vertex_count, 12, "areal vertices")?;
    let vertices = (0..vertex_count).map(|_| c.vec3()).collect::<Result<Vec<_>>>()?;
    let link_count = vertex_count + 3 * poly_count;
    let links_at = c.offset();
    c.check_count(link_count, 8, "edge links")?;
    let links = (0..link_count)
        .map(|_| Ok(EdgeLink8 { area_ref: c.i32()?, edge_ref: c.i32()? }))
        .collect::<Result<Vec<_>>>()?;
    c.check_count(poly_count, 4, "polygon blocks")?;
    let mut polys = Vec::with_capacity(poly_count as usize);
    for _ in 0..poly_count {
        let n = c.u32()?;
        let len = (u64::from(n) * 3 + 1) * 4;
        let len = c.check_count(len, 1, "polygon block")?;
        polys.push(PolyBlock { n, block: c.take(len)?.to_vec() });
    }
    Ok((Areal { prefix, vertices, links, polys }, links_at))
}

#[cfg(test)]
mod tests;
