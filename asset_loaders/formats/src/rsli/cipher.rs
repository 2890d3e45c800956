//! The RsLi two-byte-state XOR stream cipher (`docs/reference/containers.md` §2.3). The same
//! transform encrypts and decrypts; its state runs continuously over a stream.

/// Cipher state.
#[derive(Debug, Clone, Copy)]
pub struct XorStream {
    lo: u8,
    hi: u8,
}

impl XorStream {
    /// A stream keyed with the low 16 bits of `key`.
    pub fn new(key: u16) -> Self {
        let [lo, hi] = key.to_le_bytes();
        Self { lo, hi }
    }

    /// Transforms one byte and advances the state.
    #[inline]
    pub fn apply(&mut self, b: u8) -> u8 {
        self.lo = self.hi ^ (self.lo << 1);
        let out = b ^ self.lo;
        self.hi = self.lo ^ (self.hi >> 1);
        out
    }

    /// Transforms a buffer in place.
    pub fn apply_all(&mut self, buf: &mut [u8]) {
        for b in buf {
            *b = self.apply(*b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_test_vector() {
        let mut buf = [0x00, 0x01, 0x02, 0x03];
        XorStream::new(0x1234).apply_all(&mut buf);
        assert_eq!(buf, [0x7A, 0x86, 0xB2, 0x8C]);
    }

    #[test]
    fn state_runs_continuously_and_is_an_involution() {
        let plain: Vec<u8> = (0..=255).collect();
        let mut whole = plain.clone();
        XorStream::new(0xBEEF).apply_all(&mut whole);
        let mut split = plain.clone();
        let mut s = XorStream::new(0xBEEF);
        let (a, b) = split.split_at_mut(100);
        s.apply_all(a);
        s.apply_all(b);
        assert_eq!(whole, split);
        XorStream::new(0xBEEF).apply_all(&mut whole);
        assert_eq!(whole, plain);
    }
}
