//! MaSzyna's text scenery tokens as the simulator reads them (`utilities/parser.cpp` of
//! MaSzyna-EU07/maszyna): tokens are separated by spaces, tabs, line breaks and `;`;
//! `//` comments run to the end of the line and `/* */` comments to their close, both
//! ending the token they interrupt; a `"` opens a quoted run kept as written, separators
//! included; ASCII letters are lowercased outside quotes; a UTF-8 byte order mark at the
//! start is dropped. Each token keeps its text as written beside it (memory cells,
//! include parameters and skins keep their case) and its line.

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Lowercased outside quotes.
    pub text: Vec<u8>,
    /// As written (quotes removed).
    pub raw: Vec<u8>,
    /// Its line, from 1.
    pub line: u32,
}

impl Token {
    /// Its text as a string (bytes outside UTF-8 replaced).
    pub fn show(&self) -> String {
        String::from_utf8_lossy(&self.raw).into_owned()
    }
}

fn separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b';')
}

/// Splits `text` into tokens.
pub fn tokenize(text: &[u8]) -> Vec<Token> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut out = Vec::new();
    let (mut i, mut line) = (0usize, 1u32);
    let mut current: Option<Token> = None;
    let end = |current: &mut Option<Token>, out: &mut Vec<Token>| {
        if let Some(t) = current.take().filter(|t| !t.raw.is_empty()) {
            out.push(t);
        }
    };
    while i < text.len() {
        let b = text[i];
        if text[i..].starts_with(b"//") {
            end(&mut current, &mut out);
            while i < text.len() && text[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with(b"/*") {
            end(&mut current, &mut out);
            i += 2;
            while i < text.len() && !text[i..].starts_with(b"*/") {
                line += u32::from(text[i] == b'\n');
                i += 1;
            }
            i += 2;
            continue;
        }
        if separator(b) {
            end(&mut current, &mut out);
            line += u32::from(b == b'\n');
            i += 1;
            continue;
        }
        let token = current.get_or_insert_with(|| Token { text: Vec::new(), raw: Vec::new(), line });
        if b == b'"' {
            i += 1;
            while i < text.len() && text[i] != b'"' {
                if text[i] == b'\\' && i + 1 < text.len() {
                    i += 1;
                }
                line += u32::from(text[i] == b'\n');
                token.text.push(text[i]);
                token.raw.push(text[i]);
                i += 1;
            }
            i += 1;
            continue;
        }
        token.text.push(b.to_ascii_lowercase());
        token.raw.push(b);
        i += 1;
    }
    end(&mut current, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        tokenize(src.as_bytes()).iter().map(|t| String::from_utf8_lossy(&t.text).into_owned()).collect()
    }

    #[test]
    fn separators_comments_quotes_case_and_lines() {
        assert_eq!(texts("Node;1000 0\tT1//a comment\ntrack"), ["node", "1000", "0", "t1", "track"]);
        assert_eq!(texts("a/*x\ny*/b abc//x\nc"), ["a", "b", "abc", "c"]);
        assert_eq!(texts("\u{feff}FirstInit"), ["firstinit"], "the byte order mark is dropped");
        let t = tokenize(b"x \"Hello World\" Skin.TGA\n\n end");
        assert_eq!(t[1].raw, b"Hello World", "a quoted run keeps its case and its spaces");
        assert_eq!((t[2].text.as_slice(), t[2].raw.as_slice()), (&b"skin.tga"[..], &b"Skin.TGA"[..]));
        assert_eq!(t.iter().map(|t| t.line).collect::<Vec<_>>(), [1, 1, 1, 3]);
        assert_eq!(texts("include;f.scm;1;;end"), ["include", "f.scm", "1", "end"], "no empty tokens");
    }
}
