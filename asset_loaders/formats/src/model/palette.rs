//! Palettes (`palettes.lib`, `.PAL`; `docs/reference/models.md` §5, inferred) and the palette slot
//! rule of texture names (§4.6).

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};

/// Payload size of a PAL entry.
pub const PAL_SIZE: usize = 66_564;
/// Number of palette slots (26 letters × 11 variants).
pub const SLOT_COUNT: usize = 286;

/// A `.PAL` payload: 256 colours, the `Ipol` tag and a 256 × 256 table (probably an
/// index-blending lookup; opaque).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    /// 256 × 4 colour bytes as stored (read as B, G, R, A by a public reader — inferred).
    pub colors: Vec<u8>,
    /// The 4-byte tag (`Ipol`).
    pub tag: [u8; 4],
    /// The 65 536-byte table, opaque.
    pub table: Vec<u8>,
}

impl Palette {
    /// Parses a PAL payload (exact size, `Ipol` tag).
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        if bytes.len() != PAL_SIZE {
            return Err(Error::invalid(0, "pal_size", format!("{} bytes, expected {PAL_SIZE}", bytes.len())));
        }
        let mut c = Cursor::new(bytes);
        let colors = c.take(1024)?.to_vec();
        let tag = c.array()?;
        if &tag != b"Ipol" {
            return Err(Error::at(1024, ErrorKind::BadMagic { expected: "Ipol", found: tag.to_vec() }));
        }
        Ok(Self { colors, tag, table: c.take(65_536)?.to_vec() })
    }

    /// Serialises the payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        [&self.colors[..], &self.tag, &self.table].concat()
    }

    /// The colours as a 1024-byte RGBA palette (B, G, R, A → R, G, B, A).
    pub fn rgba(&self) -> Vec<u8> {
        self.colors.chunks_exact(4).flat_map(|c| [c[2], c[1], c[0], c[3]]).collect()
    }

    /// Authoring: a palette from RGBA colours with an identity-like table (each row
    /// `i` holds `i`).
    pub fn from_rgba(rgba: &[u8]) -> Result<Self> {
        if rgba.len() != 1024 {
            return Err(Error::invalid(0, "pal_size", "a palette needs 256 RGBA colours"));
        }
        let colors = rgba.chunks_exact(4).flat_map(|c| [c[2], c[1], c[0], c[3]]).collect();
        let table = (0..65_536u32).map(|i| (i >> 8) as u8).collect();
        Ok(Self { colors, tag: *b"Ipol", table })
    }
}

/// The palette slot a texture name selects: `(L − 'A') × 11 + (D ? D − '0' + 1 : 0)`
/// with `L`, `D` the characters after the dot (L upper-cased). `Ok(None)` = no palette
/// (negative index). A name without `.` in its first 17 characters is `Bad texture
/// name.`; an index ≥ 286 is rejected (the engine does not check it).
pub fn palette_slot(texture_name: &[u8]) -> Result<Option<usize>> {
    let name = crate::bytes::fixed_str(texture_name);
    let dot = name
        .iter()
        .take(17)
        .position(|&b| b == b'.')
        .ok_or_else(|| Error::invalid(0, "texture_name", "Bad texture name."))?;
    let letter = i32::from(name.get(dot + 1).map_or(0, u8::to_ascii_uppercase));
    let index = (letter - i32::from(b'A')) * 11 + name.get(dot + 2).map_or(0, |&d| i32::from(d) - i32::from(b'0') + 1);
    match usize::try_from(index) {
        Err(_) => Ok(None),
        Ok(i) if i >= SLOT_COUNT => {
            Err(Error::invalid(0, "palette_index", format!("palette index {i} >= {SLOT_COUNT}")))
        }
        Ok(i) => Ok(Some(i)),
    }
}

/// The `.PAL` entry name of slot `slot` (`A.PAL`, `A0.PAL` … `Z9.PAL`).
pub fn slot_name(slot: usize) -> Option<String> {
    (slot < SLOT_COUNT).then(|| {
        let letter = char::from(b'A' + (slot / 11) as u8);
        match slot % 11 {
            0 => format!("{letter}.PAL"),
            v => format!("{letter}{}.PAL", v - 1),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_round_trips_and_converts_bgra() {
        let mut bytes = vec![0u8; PAL_SIZE];
        bytes[..4].copy_from_slice(&[1, 2, 3, 4]);
        bytes[1024..1028].copy_from_slice(b"Ipol");
        bytes[PAL_SIZE - 1] = 9;
        let p = Palette::parse(&bytes).unwrap();
        assert_eq!(&p.rgba()[..4], &[3, 2, 1, 4]);
        assert_eq!(p.to_bytes(), bytes);
        assert_eq!(Palette::from_rgba(&p.rgba()).unwrap().colors, p.colors);
        assert!(Palette::parse(&bytes[..PAL_SIZE - 1]).is_err());
        bytes[1024] = b'X';
        assert!(matches!(Palette::parse(&bytes).unwrap_err().kind, ErrorKind::BadMagic { .. }));
    }

    #[test]
    fn texture_names_select_slots() {
        assert_eq!(palette_slot(b"tree.a").unwrap(), Some(0));
        assert_eq!(palette_slot(b"TREE.B3\0xx").unwrap(), Some(11 + 4));
        assert_eq!(palette_slot(b"x.Z9").unwrap(), Some(285));
        assert_eq!(palette_slot(b"NAME.0").unwrap(), None);
        assert_eq!(palette_slot(b"NAME.").unwrap(), None);
        assert!(palette_slot(b"no_dot_in_the_first_17").is_err());
        assert!(palette_slot(b"x.Zz").is_err()); // 'z' digit -> index far above 286
        assert_eq!(slot_name(0).as_deref(), Some("A.PAL"));
        assert_eq!(slot_name(15).as_deref(), Some("B3.PAL"));
        assert_eq!(slot_name(286), None);
    }
}
