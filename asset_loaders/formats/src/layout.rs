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
/// Spans must lie inside `[from, to]` and non-empty ones must not overlap; a
/// zero-length span may sit anywhere, also inside another span, and keeps its place
/// relative to the bytes around it. Returns the new bytes and each span's new
/// absolute start (in input order), computed as if the output is placed at `from`.
pub fn relayout(original: &[u8], from: usize, to: usize, spans: &[Span<'_>]) -> (Vec<u8>, Vec<usize>) {
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by_key(|&i| (spans[i].start, spans[i].len != 0, i));
    // Where the next non-empty span (or the region) starts, after each step of `order`:
    // old padding never reaches past it.
    let mut next_payload = vec![to; order.len()];
    for k in (1..order.len()).rev() {
        let next = spans[order[k]];
        next_payload[k - 1] = if next.len != 0 { next.start } else { next_payload[k] };
    }
    let mut out = Vec::with_capacity(to.saturating_sub(from));
    let mut new_starts = vec![0usize; spans.len()];
    // Original bytes before `pos` are emitted (or replaced).
    let mut pos = from;
    // Old zero padding after an edited payload, up to here, is dropped (new padding is
    // derived instead).
    let mut drop_until = from;
    // The last non-empty span emitted: original start, new start and new length.
    let mut enclosing = (from, from, 0usize);
    for (&i, &limit) in order.iter().zip(&next_payload) {
        let span = spans[i];
        if span.start >= pos {
            out.extend_from_slice(&original[pos.max(drop_until).min(span.start)..span.start]);
            pos = span.start;
        }
        let here = from + out.len();
        if span.len == 0 && span.payload.is_empty() {
            // Strictly inside the enclosing payload: the same offset into its new bytes.
            let (old_start, new_start, new_len) = enclosing;
            new_starts[i] = if span.start < pos { new_start + (span.start - old_start).min(new_len) } else { here };
            continue;
        }
        // Bytes given to an empty span inside a payload follow that payload.
        new_starts[i] = here;
        out.extend_from_slice(span.payload);
        if span.len != 0 {
            enclosing = (span.start, new_starts[i], span.payload.len());
            pos = span.start + span.len;
        }
        if span.repad {
            let old_end = (pos + (8 - pos % 8) % 8).min(limit);
            if original[pos..old_end].iter().all(|&b| b == 0) {
                drop_until = old_end;
            }
            let pad = (8 - (from + out.len()) % 8) % 8;
            out.resize(out.len() + pad, 0);
        }
    }
    if pos < to {
        out.extend_from_slice(&original[pos.max(drop_until).min(to)..to]);
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
        let edited = Span { start: 0, len: 5, payload: b"AA", repad: true };
        let next = Span { start: 8, len: 8, payload: b"bbbbbbbb", repad: false };
        let (out, starts) = relayout(original, 0, original.len(), &[edited, next]);
        assert_eq!(&out[..], b"AA\0\0\0\0\0\0bbbbbbbb");
        assert_eq!(starts, vec![0, 8]);
        // An empty span inside the old padding does not keep the rest of it.
        let empty = Span { start: 6, len: 0, payload: b"", repad: false };
        let (out, starts) = relayout(original, 0, original.len(), &[edited, empty, next]);
        assert_eq!(&out[..], b"AA\0\0\0\0\0\0bbbbbbbb");
        assert_eq!(starts, vec![0, 8, 8]);
    }

    #[test]
    fn empty_span_inside_a_payload_keeps_its_offset() {
        let original = b"aaaaaaaabb";
        let inner = Span { start: 4, len: 0, payload: b"", repad: false };
        let spans = [Span { start: 0, len: 8, payload: b"aaaaaaaa", repad: false }, inner];
        assert_eq!(relayout(original, 0, original.len(), &spans), (original.to_vec(), vec![0, 4]));
        // An edited enclosing payload keeps the offset, clamped to its new length.
        let shorter = [Span { start: 2, len: 8, payload: b"AAA", repad: false }, inner];
        let (out, starts) = relayout(original, 2, original.len(), &shorter);
        assert_eq!((&out[..], starts), (&b"AAA"[..], vec![2, 4]));
        let at_six = Span { start: 6, ..inner };
        let (_, starts) = relayout(original, 2, original.len(), &[shorter[0], at_six]);
        assert_eq!(starts, vec![2, 5]);
    }
}
