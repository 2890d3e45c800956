//! Line handling shared by the text formats: split bytes into lines keeping each
//! line's own terminator (CRLF, LF or none), ASCII trimming, `//` comment split.

/// One line: content without terminator, and the terminator bytes as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// Content (no `\r\n` / `\n`).
    pub content: &'a [u8],
    /// The terminator as stored: `\r\n`, `\n` or empty (last line).
    pub eol: &'a [u8],
    /// Byte offset of the line start.
    pub offset: usize,
}

/// Splits `data` into lines; concatenating `content + eol` of all lines gives `data`.
pub fn lines(data: &[u8]) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < data.len() {
        let rest = &data[start..];
        let (content_len, eol_len) = match rest.iter().position(|&b| b == b'\n') {
            Some(n) if n > 0 && rest[n - 1] == b'\r' => (n - 1, 2),
            Some(n) => (n, 1),
            None => (rest.len(), 0),
        };
        out.push(Line { content: &rest[..content_len], eol: &rest[content_len..content_len + eol_len], offset: start });
        start += content_len + eol_len;
    }
    out
}

/// Joins stored lines (text, terminator) back into the file bytes.
pub fn join<'a>(lines: impl IntoIterator<Item = (&'a [u8], &'a [u8])>) -> Vec<u8> {
    let mut out = Vec::new();
    for (text, eol) in lines {
        out.extend_from_slice(text);
        out.extend_from_slice(eol);
    }
    out
}

/// Trims ASCII whitespace (space, tab, and a stray CR) at both ends.
pub fn trim(b: &[u8]) -> &[u8] {
    let is_ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\r' | 0x0B | 0x0C);
    let start = b.iter().position(|c| !is_ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !is_ws(c)).map_or(start, |e| e + 1);
    &b[start..end.max(start)]
}

/// The part of a line before a `//` comment.
pub fn strip_comment(b: &[u8]) -> &[u8] {
    match b.windows(2).position(|w| w == b"//") {
        Some(n) => &b[..n],
        None => b,
    }
}

/// Position of `needle` inside `hay` (both slices of the same buffer), as a range.
pub fn range_in(hay: &[u8], needle: &[u8]) -> std::ops::Range<usize> {
    let start = (needle.as_ptr() as usize).saturating_sub(hay.as_ptr() as usize).min(hay.len());
    start..(start + needle.len()).min(hay.len())
}

/// Decodes CP1251 bytes for display.
pub fn decode(b: &[u8]) -> String {
    let (t, _, _) = encoding_rs::WINDOWS_1251.decode(b);
    t.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_terminators_and_concatenate_back() {
        let data = b"a=1\r\nb\n\r\nlast";
        let ls = lines(data);
        assert_eq!(ls.len(), 4);
        assert_eq!((ls[0].content, ls[0].eol), (&b"a=1"[..], &b"\r\n"[..]));
        assert_eq!((ls[1].content, ls[1].eol), (&b"b"[..], &b"\n"[..]));
        assert_eq!((ls[2].content, ls[2].eol), (&b""[..], &b"\r\n"[..]));
        assert_eq!((ls[3].content, ls[3].eol, ls[3].offset), (&b"last"[..], &b""[..], 9));
        let back: Vec<u8> = ls.iter().flat_map(|l| l.content.iter().chain(l.eol)).copied().collect();
        assert_eq!(back, data);
        assert_eq!(trim(b" \tx y \r"), b"x y");
        assert_eq!(trim(b"   "), b"");
        assert_eq!(strip_comment(b"a = 1 // note"), b"a = 1 ");
    }
}
