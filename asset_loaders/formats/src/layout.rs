//! Lossless re-layout of a data region: active payloads are replaced (possibly with new
//! lengths) while every byte that belongs to no payload — gaps, padding, unindexed
//! regions — is re-emitted verbatim. Shared by the NRes and RsLi editors.

/// One active payload of the original region.
#[derive(Debug, Clone, Copy)]
pub struct Span<'a> {
    /// Original absolute start.
    pub start: usize,
    /// Original length.
    pub len: usize,
    /// New payload bytes.
    pub payload: &'a [u8],
    /// True when the payload was edited, so its trailing zero padding (< 8 bytes) is
    /// re-derived for 8-byte alignment instead of being copied.
    pub repad: bool,
}

/// Re-emits `original[from..to]` with each span's bytes replaced by its new payload.
/// Spans must lie inside `[from, to)` and must not overlap (zero-length spans may sit
/// anywhere). Returns the new bytes and each span's new absolute start (in input order),
/// computed as if the output is placed at `from`.
pub fn relayout(original: &[u8], from: usize, to: usize, spans: &[Span<'_>]) -> (Vec<u8>, Vec<usize>) {
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by_key(|&i| (spans[i].start, spans[i].len != 0, i));
    let mut out = Vec::with_capacity(to.saturating_sub(from));
    let mut new_starts = vec![0usize; spans.len()];
    let mut pos = from;
    // Old zero padding after an edited payload is dropped; new padding is derived.
    let mut old_padding = 0usize;
    let emit_gap = |out: &mut Vec<u8>, gap: &[u8], old_padding: usize| {
        let pad = old_padding.min(gap.len());
        let skip = if gap[..pad].iter().all(|&b| b == 0) { pad } else { 0 };
        out.extend_from_slice(&gap[skip..]);
    };
    for &i in &order {
        let span = spans[i];
        if span.start >= pos {
            emit_gap(&mut out, &original[pos..span.start], old_padding);
            old_padding = 0;
            pos = span.start;
        }
        new_starts[i] = from + out.len();
        if span.len == 0 && span.payload.is_empty() {
            continue;
        }
        out.extend_from_slice(span.payload);
        pos = span.start + span.len;
        old_padding = 0;
        if span.repad {
            old_padding = (8 - pos % 8) % 8;
            let pad = (8 - (from + out.len()) % 8) % 8;
            out.resize(out.len() + pad, 0);
        }
    }
    if pos < to {
        emit_gap(&mut out, &original[pos..to], old_padding);
    }
    (out, new_starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_spans_reproduce_region_with_gaps() {
        let original = b"HDR-aaaa\x07\x07bbbb\0\0\0\0cc";
        let spans = [
            Span { start: 10, len: 4, payload: b"bbbb", repad: false },
            Span { start: 4, len: 4, payload: b"aaaa", repad: false },
            Span { start: 18, len: 2, payload: b"cc", repad: false },
        ];
        let (out, starts) = relayout(original, 4, original.len(), &spans);
        assert_eq!(&out[..], &original[4..]);
        assert_eq!(starts, vec![10, 4, 18]);
    }

    #[test]
    fn edited_span_shifts_followers_and_keeps_foreign_gap_bytes() {
        let original = b"aaaa\x07\x07bbbb";
        let spans = [
            Span { start: 0, len: 4, payload: b"AAAAAA", repad: false },
            Span { start: 6, len: 4, payload: b"bbbb", repad: false },
        ];
        let (out, starts) = relayout(original, 0, original.len(), &spans);
        assert_eq!(&out[..], b"AAAAAA\x07\x07bbbb");
        assert_eq!(starts, vec![0, 8]);
    }

    #[test]
    fn edited_span_rederives_zero_padding() {
        let original = b"aaaaa\0\0\0bbbbbbbb";
        let spans = [
            Span { start: 0, len: 5, payload: b"AA", repad: true },
            Span { start: 8, len: 8, payload: b"bbbbbbbb", repad: false },
        ];
        let (out, starts) = relayout(original, 0, original.len(), &spans);
        assert_eq!(&out[..], b"AA\0\0\0\0\0\0bbbbbbbb");
        assert_eq!(starts, vec![0, 8]);
    }
}
