//! Adaptive Huffman + LZSS ("LZHUF") of RsLi methods `0x080`/`0x0A0` (spec
//! `docs/reference/containers.md` §2.8): literals and match lengths use a self-adjusting Huffman
//! tree, match positions a fixed 6-bit prefix code plus 6 raw bits.

use super::lzss::Input;
use crate::error::Result;

const N: usize = 4096;
const F: usize = 60;
const THRESHOLD: usize = 2;
const NCHAR: usize = 256 - THRESHOLD + F;
const T: usize = NCHAR * 2 - 1;
const R: usize = T - 1;
const MAX_FREQ: u16 = 0x8000;

/// The self-adjusting Huffman tree shared by encoder and decoder.
struct Tree {
    freq: [u16; T + 1],
    son: [usize; T],
    parent: [usize; T + NCHAR],
}

impl Tree {
    fn new() -> Box<Self> {
        let mut t = Box::new(Self { freq: [0; T + 1], son: [0; T], parent: [0; T + NCHAR] });
        for s in 0..NCHAR {
            t.freq[s] = 1;
            t.son[s] = s + T;
            t.parent[s + T] = s;
        }
        let mut i = 0;
        for j in NCHAR..=R {
            t.freq[j] = t.freq[i] + t.freq[i + 1];
            t.son[j] = i;
            t.parent[i] = j;
            t.parent[i + 1] = j;
            i += 2;
        }
        t.freq[T] = 0xFFFF;
        t.parent[R] = 0;
        t
    }

    fn reconstruct(&mut self) {
        let mut j = 0;
        for i in 0..T {
            if self.son[i] >= T {
                self.freq[j] = self.freq[i].div_ceil(2);
                self.son[j] = self.son[i];
                j += 1;
            }
        }
        let mut i = 0;
        for j in NCHAR..T {
            let f = self.freq[i] + self.freq[i + 1];
            let mut k = j;
            while k > 0 && f < self.freq[k - 1] {
                k -= 1;
            }
            self.freq.copy_within(k..j, k + 1);
            self.son.copy_within(k..j, k + 1);
            self.freq[k] = f;
            self.son[k] = i;
            i += 2;
        }
        for i in 0..T {
            let k = self.son[i];
            self.parent[k] = i;
            if k < T {
                self.parent[k + 1] = i;
            }
        }
        self.freq[T] = 0xFFFF;
        self.parent[R] = 0;
    }

    fn update(&mut self, sym: usize) {
        if self.freq[R] == MAX_FREQ {
            self.reconstruct();
        }
        let mut c = self.parent[sym + T];
        loop {
            self.freq[c] += 1;
            let k = self.freq[c];
            if k > self.freq[c + 1] {
                let mut l = c + 1;
                while k > self.freq[l + 1] {
                    l += 1;
                }
                self.freq[c] = self.freq[l];
                self.freq[l] = k;
                let i = self.son[c];
                let j = self.son[l];
                self.son[c] = j;
                self.son[l] = i;
                self.parent[i] = l;
                if i < T {
                    self.parent[i + 1] = l;
                }
                self.parent[j] = c;
                if j < T {
                    self.parent[j + 1] = c;
                }
                c = l;
            }
            c = self.parent[c];
            if c == 0 {
                break;
            }
        }
    }
}

/// Position prefix tables: for each 8-bit look-ahead, the upper 6 bits of the position
/// and the prefix code length in bits.
fn position_tables() -> ([u8; 256], [u8; 256]) {
    let mut code = [0u8; 256];
    let mut len = [0u8; 256];
    let runs: [(usize, usize, u8); 6] = [(1, 32, 3), (3, 16, 4), (8, 8, 5), (12, 4, 6), (24, 2, 7), (16, 1, 8)];
    let (mut at, mut value) = (0usize, 0u8);
    for (values, repeat, bits) in runs {
        for _ in 0..values {
            for _ in 0..repeat {
                code[at] = value;
                len[at] = bits;
                at += 1;
            }
            value += 1;
        }
    }
    (code, len)
}

struct BitReader<'a, 'b> {
    input: &'b mut Input<'a>,
    buf: u32,
    left: u32,
}

impl BitReader<'_, '_> {
    fn bit(&mut self) -> Result<usize> {
        if self.left == 0 {
            self.buf = u32::from(self.input.next()?);
            self.left = 8;
        }
        self.left -= 1;
        Ok(((self.buf >> self.left) & 1) as usize)
    }

    fn bits(&mut self, n: u32) -> Result<usize> {
        let mut v = 0;
        for _ in 0..n {
            v = (v << 1) | self.bit()?;
        }
        Ok(v)
    }
}

/// Decodes exactly `size` bytes. `alternate_position` selects the disputed variant of
/// position decoding (see the spec); the classic form is the default.
pub(crate) fn decode(input: &mut Input<'_>, size: usize, alternate_position: bool) -> Result<Vec<u8>> {
    let (pcode, plen) = position_tables();
    let mut tree = Tree::new();
    let mut bits = BitReader { input, buf: 0, left: 0 };
    let mut text = [0x20u8; N];
    let mut r = N - F;
    let mut out = Vec::with_capacity(size);
    while out.len() < size {
        let mut node = tree.son[R];
        while node < T {
            node = tree.son[node + bits.bit()?];
        }
        let sym = node - T;
        tree.update(sym);
        if sym < 256 {
            out.push(sym as u8);
            text[r] = sym as u8;
            r = (r + 1) & (N - 1);
            continue;
        }
        let first = bits.bits(8)?;
        let hi6 = usize::from(pcode[first]);
        let extra = u32::from(plen[first]) - 2;
        let position = if alternate_position {
            (hi6 << 6) | bits.bits(extra)? | (first & 0x3F)
        } else {
            let mut b = first;
            for _ in 0..extra {
                b = (b << 1) | bits.bit()?;
            }
            (hi6 << 6) | (b & 0x3F)
        };
        let start = (r + N - position - 1) & (N - 1);
        let len = sym - 253;
        for k in 0..len {
            if out.len() == size {
                break;
            }
            let b = text[(start + k) & (N - 1)];
            out.push(b);
            text[r] = b;
            r = (r + 1) & (N - 1);
        }
    }
    Ok(out)
}

struct BitWriter {
    out: Vec<u8>,
    acc: u32,
    used: u32,
}

impl BitWriter {
    fn put(&mut self, value: usize, n: u32) {
        for i in (0..n).rev() {
            self.acc = (self.acc << 1) | ((value >> i) & 1) as u32;
            self.used += 1;
            if self.used == 8 {
                self.out.push(self.acc as u8);
                (self.acc, self.used) = (0, 0);
            }
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.out.push((self.acc << (8 - self.used)) as u8);
        }
        self.out
    }
}

/// Compresses `data` with the classic position coding (greedy matching).
pub fn encode(data: &[u8]) -> Vec<u8> {
    let (pcode, plen) = position_tables();
    // Encoder tables: for each 6-bit value, its prefix (left-aligned in 8 bits) and length.
    let mut enc = [(0usize, 0u32); 64];
    for b in (0..256).rev() {
        enc[usize::from(pcode[b])] = (b, u32::from(plen[b]));
    }
    let mut tree = Tree::new();
    let mut w = BitWriter { out: Vec::new(), acc: 0, used: 0 };
    let put_symbol = |tree: &mut Tree, w: &mut BitWriter, sym: usize| {
        let mut path = Vec::with_capacity(24);
        let mut k = tree.parent[sym + T];
        loop {
            path.push(k & 1);
            k = tree.parent[k];
            if k == R {
                break;
            }
        }
        for &b in path.iter().rev() {
            w.put(b, 1);
        }
        tree.update(sym);
    };
    let mut i = 0;
    while i < data.len() {
        // Distances up to N - F keep every copied cell intact during the copy.
        let max_len = F.min(data.len() - i);
        let (mut best_len, mut best_dist) = (0, 0);
        let lowest = i.saturating_sub(N - F);
        for cand in (lowest..i).rev().take(256) {
            let len = (0..max_len).take_while(|&k| data[cand + k] == data[i + k]).count();
            if len > best_len {
                (best_len, best_dist) = (len, i - cand);
                if len == max_len {
                    break;
                }
            }
        }
        if best_len > THRESHOLD {
            put_symbol(&mut tree, &mut w, best_len + 253);
            let position = best_dist - 1;
            let (prefix, bits) = enc[position >> 6];
            w.put(prefix >> (8 - bits), bits);
            w.put(position & 0x3F, 6);
            i += best_len;
        } else {
            put_symbol(&mut tree, &mut w, usize::from(data[i]));
            i += 1;
        }
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::super::cipher::XorStream;
    use super::*;

    #[test]
    fn spec_test_vectors() {
        let out = decode(&mut Input::new(&[0x00], None), 1, false).unwrap();
        assert_eq!(out, b"t");
        let out = decode(&mut Input::new(&[0x02], Some(XorStream::new(1))), 1, false).unwrap();
        assert_eq!(out, b"t");
    }

    #[test]
    fn position_tables_follow_the_run_layout() {
        let (code, len) = position_tables();
        assert_eq!((code[0], code[31], code[32], code[47], code[48]), (0, 0, 1, 1, 2));
        assert_eq!((code[255], len[0], len[32], len[80], len[144], len[192], len[240]), (63, 3, 4, 5, 6, 7, 8));
    }

    #[test]
    fn round_trips_text_noise_and_long_runs() {
        let text: Vec<u8> = b"The Iron3D engine streams worlds. ".iter().copied().cycle().take(20_000).collect();
        let packed = encode(&text);
        assert!(packed.len() < text.len() / 5);
        assert_eq!(decode(&mut Input::new(&packed, None), text.len(), false).unwrap(), text);
        let noise: Vec<u8> = (0..40_000u32).map(|i| (i.wrapping_mul(2654435761) >> 11) as u8).collect();
        let packed = encode(&noise);
        assert_eq!(decode(&mut Input::new(&packed, None), noise.len(), false).unwrap(), noise);
    }

    #[test]
    fn tree_survives_reconstruction() {
        // More than MAX_FREQ symbols force at least one rebuild of the tree.
        let data: Vec<u8> = (0..70_000u32).map(|i| (i % 7) as u8 * 31).collect();
        let packed = encode(&data);
        assert_eq!(decode(&mut Input::new(&packed, None), data.len(), false).unwrap(), data);
    }

    #[test]
    fn alternate_position_reading_agrees_only_on_literal_streams() {
        let data = b"abcabcabcabc xyz xyz abcabc".repeat(3);
        let packed = encode(&data);
        assert_eq!(decode(&mut Input::new(&packed, None), data.len(), false).unwrap(), data);
        let alternate = decode(&mut Input::new(&packed, None), data.len(), true);
        assert!(alternate.map_or(true, |v| v != data));
        let literal = encode(b"q");
        assert_eq!(decode(&mut Input::new(&literal, None), 1, true).unwrap(), b"q");
    }

    #[test]
    fn truncated_stream_is_an_error() {
        let packed = encode(b"hello hello hello");
        assert!(decode(&mut Input::new(&packed[..2], None), 17, false).is_err());
    }
}
