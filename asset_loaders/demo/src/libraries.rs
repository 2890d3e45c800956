//! RsLi libraries: a `gamefont.rlb`-like LZSS font library, a `sprites.lib`-like raw
//! Deflate sprite library, and a `system.rlb` that exercises every other storage method.

use crate::tree::DemoTree;
use iron3d_formats::Result;
use iron3d_formats::rng::SplitMix64;
use iron3d_formats::rsli::{Method, NewEntry, RsliWriter};

/// An 8x8 bitmap font: one byte per row, 256 glyphs, drawn from the seed.
fn font(rng: &mut SplitMix64, rows: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 * rows);
    for glyph in 0..256u32 {
        for row in 0..rows {
            // Printable glyphs get strokes; control codes stay blank (compressible).
            let stroke = if (32..128).contains(&glyph) { rng.next_u64() as u8 & 0x7E } else { 0 };
            out.push(if row == 0 || row + 1 == rows { 0 } else { stroke });
        }
    }
    out
}

/// A `w x h` 8-bit sprite: a framed gradient with a seeded pattern.
fn sprite(rng: &mut SplitMix64, w: usize, h: usize) -> Vec<u8> {
    let tint = rng.below(64) as usize;
    let mut out = Vec::with_capacity(w * h + 4);
    out.extend_from_slice(&(w as u16).to_le_bytes());
    out.extend_from_slice(&(h as u16).to_le_bytes());
    for y in 0..h {
        for x in 0..w {
            let edge = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
            out.push(if edge { 255 } else { ((x * 3 + y * 5 + tint) % 192) as u8 });
        }
    }
    out
}

/// Writes the three libraries.
pub fn write(tree: &mut DemoTree, seed: u64) -> Result<()> {
    let mut rng = SplitMix64::stream(seed, "libraries");
    let mut fonts = RsliWriter::new(0x5A17);
    fonts.add(NewEntry { name: b"FONT8X8".to_vec(), method: Method::Lzss, data: font(&mut rng, 8) });
    fonts.add(NewEntry { name: b"FONT8X12".to_vec(), method: Method::Lzss, data: font(&mut rng, 12) });
    tree.add("gamefont.rlb", fonts.to_bytes()?)?;

    let mut sprites = RsliWriter::new(0x2B0C);
    for i in 1..=8 {
        let name = format!("INTERF{i}.TEX").into_bytes();
        sprites.add(NewEntry { name, method: Method::Deflate, data: sprite(&mut rng, 32 * i, 24) });
    }
    tree.add("sprites.lib", sprites.to_bytes()?)?;

    let mut system = RsliWriter::new(0x0F0F);
    let methods = [Method::Stored, Method::Xor, Method::XorLzss, Method::Huffman, Method::XorHuffman];
    for (i, method) in methods.into_iter().enumerate() {
        let name = format!("CURSOR{i}.TEX").into_bytes();
        system.add(NewEntry { name, method, data: sprite(&mut rng, 16, 16) });
    }
    tree.add("system.rlb", system.to_bytes()?)?;
    Ok(())
}
