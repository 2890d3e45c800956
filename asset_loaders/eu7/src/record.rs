//! The codec trait shared by all record kinds, and helpers for count-prefixed lists.

use crate::cursor::{Cursor, CursorExt, Writer};
use crate::error::Result;
use crate::node::VisitSids;
use crate::prim::Sid;

/// A record that can be read from and written to its on-disk form.
pub trait Record: Sized + VisitSids {
    /// Smallest possible encoded size, used to check counts before allocating.
    const MIN_SIZE: usize;
    /// Reads one record of a file of `version`.
    fn read(c: &mut Cursor<'_>, version: u32) -> Result<Self>;
    /// Writes one record for a file of `version`.
    fn write(&self, w: &mut Writer, version: u32) -> Result<()>;
}

/// Reads a `u32 count` followed by `count` records.
/// Errors name the record's index.
pub fn read_records<T: Record>(c: &mut Cursor<'_>, version: u32) -> Result<Vec<T>> {
    let mut index = 0;
    c.list(T::MIN_SIZE, |c| {
        let record = T::read(c, version).map_err(|e| e.in_record("record", index));
        index += 1;
        record
    })
}

/// Writes a `u32 count` followed by the records.
pub fn write_records<T: Record>(w: &mut Writer, items: &[T], version: u32) -> Result<()> {
    w.list(items, |w, r| r.write(w, version))
}

/// Reads a `sid`.
pub fn sid(c: &mut Cursor<'_>) -> Result<Sid> {
    Ok(Sid(c.u32()?))
}

/// Reads a count-prefixed `sid` list.
pub fn sids(c: &mut Cursor<'_>) -> Result<Vec<Sid>> {
    c.list(4, sid)
}

/// Writes a count-prefixed `sid` list.
pub fn write_sids(w: &mut Writer, v: &[Sid]) -> Result<()> {
    w.list(v, |w, s| {
        w.u32(s.0);
        Ok(())
    })
}

/// Reads a count-prefixed list of `sid` pairs (key, value).
pub fn sid_pairs(c: &mut Cursor<'_>) -> Result<Vec<(Sid, Sid)>> {
    c.list(8, |c| Ok((sid(c)?, sid(c)?)))
}

/// Writes a count-prefixed list of `sid` pairs.
pub fn write_sid_pairs(w: &mut Writer, v: &[(Sid, Sid)]) -> Result<()> {
    w.list(v, |w, (k, val)| {
        w.u32(k.0);
        w.u32(val.0);
        Ok(())
    })
}

/// Visits a list of `sid` pairs in order.
pub fn visit_pairs(v: &mut [(Sid, Sid)], f: &mut dyn FnMut(&mut Sid)) {
    for (k, val) in v {
        f(k);
        f(val);
    }
}

/// Reads a count-prefixed `f32` list.
pub fn f32s(c: &mut Cursor<'_>) -> Result<Vec<f32>> {
    c.list(4, |c| Ok(c.f32()?))
}

/// Reads a count-prefixed `u32` list.
pub fn u32s(c: &mut Cursor<'_>) -> Result<Vec<u32>> {
    c.list(4, |c| Ok(c.u32()?))
}

/// Writes a count-prefixed `f32` list.
pub fn write_f32s(w: &mut Writer, v: &[f32]) -> Result<()> {
    w.list(v, |w, x| {
        w.f32(*x);
        Ok(())
    })
}

/// Writes a count-prefixed `u32` list.
pub fn write_u32s(w: &mut Writer, v: &[u32]) -> Result<()> {
    w.list(v, |w, x| {
        w.u32(*x);
        Ok(())
    })
}
