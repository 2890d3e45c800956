//! LZSS of RsLi method `0x040` (`docs/reference/containers.md` §2.7): 4 KiB ring pre-filled with
//! spaces, start position `0xFEE`, matches of 3..=18 bytes, flag bits LSB first.

use crate::error::{Error, ErrorKind, Result};

const RING: usize = 4096;
const RING_START: usize = 0xFEE;
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 18;

/// A byte source for decoders: plain bytes, optionally XOR-decrypted as they are pulled.
pub(crate) struct Input<'a> {
    data: &'a [u8],
    pos: usize,
    xor: Option<super::cipher::XorStream>,
}

impl<'a> Input<'a> {
    pub(crate) fn new(data: &'a [u8], xor: Option<super::cipher::XorStream>) -> Self {
        Self { data, pos: 0, xor }
    }

    #[inline]
    pub(crate) fn next(&mut self) -> Result<u8> {
        let b = *self
            .data
            .get(self.pos)
            .ok_or_else(|| Error::at(self.pos as u64, ErrorKind::Corrupt("compressed stream ends early".into())))?;
        self.pos += 1;
        Ok(match &mut self.xor {
            Some(x) => x.apply(b),
            None => b,
        })
    }
}

/// Decodes exactly `size` bytes.
pub(crate) fn decode(input: &mut Input<'_>, size: usize) -> Result<Vec<u8>> {
    let mut ring = [0x20u8; RING];
    let mut r = RING_START;
    let mut out = Vec::with_capacity(size);
    let mut ctrl = 0u32;
    while out.len() < size {
        ctrl >>= 1;
        if ctrl & 0x100 == 0 {
            ctrl = u32::from(input.next()?) | 0xFF00;
        }
        if ctrl & 1 != 0 {
            let b = input.next()?;
            out.push(b);
            ring[r] = b;
            r = (r + 1) & (RING - 1);
        } else {
            let lo = usize::from(input.next()?);
            let hi = usize::from(input.next()?);
            let pos = lo | ((hi & 0xF0) << 4);
            let len = (hi & 0x0F) + MIN_MATCH;
            for k in 0..len {
                if out.len() == size {
                    break;
                }
                let b = ring[(pos + k) & (RING - 1)];
                out.push(b);
                ring[r] = b;
                r = (r + 1) & (RING - 1);
            }
        }
    }
    Ok(out)
}

/// Compresses `data` (greedy matching with hash chains over the ring window).
pub fn encode(data: &[u8]) -> Vec<u8> {
    const HASH: usize = 1 << 13;
    const CHAIN: usize = 48;
    // Distances are limited so a copy never reads a ring cell it already overwrote.
    const MAX_DIST: usize = RING - MAX_MATCH;
    let hash = |i: usize| -> usize {
        let v = (usize::from(data[i]) << 10) ^ (usize::from(data[i + 1]) << 5) ^ usize::from(data[i + 2]);
        v & (HASH - 1)
    };
    let mut head = vec![usize::MAX; HASH];
    let mut prev = vec![usize::MAX; data.len()];
    let mut out = Vec::with_capacity(data.len() + data.len() / 8 + 1);
    let (mut flag_at, mut bit) = (0usize, 8u8);
    let mut i = 0;
    let insert = |i: usize, head: &mut Vec<usize>, prev: &mut Vec<usize>| {
        if i + MIN_MATCH <= data.len() {
            let h = hash(i);
            prev[i] = head[h];
            head[h] = i;
        }
    };
    while i < data.len() {
        if bit == 8 {
            flag_at = out.len();
            out.push(0);
            bit = 0;
        }
        let (mut best_len, mut best_pos) = (0, 0);
        if i + MIN_MATCH <= data.len() {
            let max = MAX_MATCH.min(data.len() - i);
            let mut cand = head[hash(i)];
            let mut steps = 0;
            while cand != usize::MAX && i - cand <= MAX_DIST && steps < CHAIN {
                let len = (0..max).take_while(|&k| data[cand + k] == data[i + k]).count();
                if len > best_len {
                    (best_len, best_pos) = (len, cand);
                    if len == max {
                        break;
                    }
                }
                cand = prev[cand];
                steps += 1;
            }
        }
        if best_len >= MIN_MATCH {
            let ring_pos = (RING_START + best_pos) & (RING - 1);
            out.push((ring_pos & 0xFF) as u8);
            out.push((((ring_pos >> 4) & 0xF0) | (best_len - MIN_MATCH)) as u8);
            for k in 0..best_len {
                insert(i + k, &mut head, &mut prev);
            }
            i += best_len;
        } else {
            out[flag_at] |= 1 << bit;
            out.push(data[i]);
            insert(i, &mut head, &mut prev);
            i += 1;
        }
        bit += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(bytes: &[u8], size: usize) -> Result<Vec<u8>> {
        decode(&mut Input::new(bytes, None), size)
    }

    #[test]
    fn spec_test_vectors() {
        assert_eq!(dec(&[0x07, 0x41, 0x42, 0x43], 3).unwrap(), b"ABC");
        assert_eq!(dec(&[0x00, 0xFF, 0xF1], 4).unwrap(), b"    ");
    }

    #[test]
    fn stops_mid_match_at_unpacked_size() {
        assert_eq!(dec(&[0x00, 0xFF, 0xF1], 2).unwrap(), b"  ");
    }

    #[test]
    fn overlapping_reference_repeats_pattern() {
        // literal 'a','b' at ring 0xFEE, 0xFEF; then copy 6 from 0xFEE (overlaps itself).
        let out = dec(&[0b0000_0011, b'a', b'b', 0xEE, 0xF3], 8).unwrap();
        assert_eq!(out, b"abababab");
    }

    #[test]
    fn truncated_stream_is_an_error() {
        assert!(matches!(dec(&[0x07, 0x41], 3).unwrap_err().kind, ErrorKind::Corrupt(_)));
        assert!(dec(&[], 1).is_err());
    }

    #[test]
    fn encoder_round_trips_and_compresses_repetitive_data() {
        let text: Vec<u8> = b"Parkan: Iron Strategy. ".iter().copied().cycle().take(10_000).collect();
        let packed = encode(&text);
        assert!(packed.len() < text.len() / 5);
        assert_eq!(dec(&packed, text.len()).unwrap(), text);
        let noise: Vec<u8> = (0..5000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        assert_eq!(dec(&encode(&noise), noise.len()).unwrap(), noise);
        assert_eq!(dec(&encode(b""), 0).unwrap(), b"");
    }
}
