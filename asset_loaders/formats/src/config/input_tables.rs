//! The input layer's text files (`docs/reference/gameplay.md` §14): the descriptors
//! `ScanCode.dsc` and `Command.dsc` (a name and its label a line), the `.man` bindings
//! (a command, a modifier key and a key) and the `.tbl` rows (eleven fields, then the
//! row's name after `//`). Every file keeps its lines as stored, so a read file writes
//! back byte for byte; blank and `//` lines hold no entry. The names are checked against
//! the engine's tables by [`super::input_names`] where the callers need them resolved.

use super::text::{decode, lines, strip_comment, trim};
use crate::error::{Error, Result};

/// One entry kind of an input file.
pub trait InputEntry: Sized {
    /// The line's entry, `None` for a line holding none; an error names what is wrong.
    ///
    /// # Errors
    /// The line does not hold a well-formed entry.
    fn parse(line: &str) -> std::result::Result<Option<Self>, String>;

    /// The line that writes this entry.
    fn line(&self) -> String;
}

/// A file of entries `T`, its lines kept as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct InputFile<T> {
    lines: Vec<(Option<T>, Vec<u8>, Vec<u8>)>,
}

impl<T> Default for InputFile<T> {
    fn default() -> Self {
        Self { lines: Vec::new() }
    }
}

impl<T: InputEntry> InputFile<T> {
    /// Reads `data` (CP1251 text).
    ///
    /// # Errors
    /// A line that holds no well-formed entry, named by its number and offset.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut out = Vec::new();
        for (i, line) in lines(data).into_iter().enumerate() {
            let text = decode(line.content);
            let entry = T::parse(&text).map_err(|detail| {
                Error::invalid(line.offset as u64, "input_line", detail).via(format!("line {}", i + 1))
            })?;
            out.push((entry, line.content.to_vec(), line.eol.to_vec()));
        }
        Ok(Self { lines: out })
    }

    /// The entries in file order.
    pub fn entries(&self) -> impl Iterator<Item = &T> {
        self.lines.iter().filter_map(|(e, _, _)| e.as_ref())
    }

    /// The entries with their line numbers (from 1).
    pub fn numbered(&self) -> impl Iterator<Item = (usize, &T)> {
        self.lines.iter().enumerate().filter_map(|(i, (e, _, _))| e.as_ref().map(|e| (i + 1, e)))
    }

    /// Adds a line, a comment when `entry` is `None` (`//` and `comment`), with a CRLF.
    pub fn push(&mut self, entry: Option<T>, comment: &str) {
        let text = match &entry {
            Some(e) => e.line(),
            None => format!("// {comment}"),
        };
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
        self.lines.push((entry, bytes.into_owned(), b"\r\n".to_vec()));
    }

    /// The file's bytes: every line as stored.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.lines.iter().flat_map(|(_, text, eol)| text.iter().chain(eol)).copied().collect()
    }
}

/// The fields of a line before its `//`, or `None` for a blank or comment line.
fn fields(line: &str) -> Option<Vec<&str>> {
    let body = strip_comment(line.as_bytes());
    let body = std::str::from_utf8(trim(body)).unwrap_or_default();
    (!body.is_empty()).then(|| body.split_whitespace().collect())
}

/// A descriptor line: a name (`SCAN_ESC`, `CMD_ENTER_STATE`) and what the game prints
/// for it. A line whose first word is not a name (a heading) holds no entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The name.
    pub name: String,
    /// The label, as written after the name.
    pub label: String,
}

impl InputEntry for Label {
    fn parse(line: &str) -> std::result::Result<Option<Self>, String> {
        let text = line.trim();
        if text.starts_with("//") {
            return Ok(None);
        }
        let (name, label) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let named = ["SCAN_", "CMD_"].iter().any(|p| name.starts_with(p));
        Ok(named.then(|| Self { name: name.to_string(), label: label.trim().to_string() }))
    }

    fn line(&self) -> String {
        format!("{}\t{}", self.name, self.label)
    }
}

/// A `.man` binding: the command a key chord runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManBinding {
    /// The command (`CMD_*`).
    pub command: String,
    /// The chord's modifier key (`SCAN_NULL` for none).
    pub modifier: String,
    /// The key.
    pub key: String,
}

impl InputEntry for ManBinding {
    fn parse(line: &str) -> std::result::Result<Option<Self>, String> {
        let Some(f) = fields(line) else { return Ok(None) };
        match f[..] {
            [command, modifier, key] => {
                Ok(Some(Self { command: command.into(), modifier: modifier.into(), key: key.into() }))
            }
            _ => Err(format!("{} fields, a binding has 3 (command, modifier, key)", f.len())),
        }
    }

    fn line(&self) -> String {
        format!("{} {} {}", self.command, self.modifier, self.key)
    }
}

/// A `.tbl` row: what a key event sends to which class of component.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    /// `KEY` or `MOUSE`.
    pub device: String,
    /// The chord's modifier (`SCAN_NULL` for none).
    pub modifier: String,
    /// The key (a mouse axis is a key too).
    pub key: String,
    /// Sent as the key goes down (1) or comes up (0).
    pub pressed: bool,
    /// The class aimed at (`CICLS_*`).
    pub class: String,
    /// The movement command (`MCMD_*`).
    pub command: String,
    /// Its magnitude.
    pub magnitude: f32,
    /// A weapon number or a channel.
    pub index: i32,
    /// `0`, a `MAN_*` wrap flag or a `CIS_*` state.
    pub state: String,
    /// A ramp (six shipped rows set it).
    pub ramp: f32,
    /// The ramp's time.
    pub ramp_time: i32,
    /// The text after `//` (on a press row usually the command's name without `CMD_`).
    pub note: String,
}

/// The number of fields of a `.tbl` row.
pub const TABLE_FIELDS: usize = 11;

fn number<N: std::str::FromStr>(what: &str, text: &str) -> std::result::Result<N, String> {
    text.parse().map_err(|_| format!("{what} `{text}` is not a number"))
}

impl InputEntry for TableRow {
    fn parse(line: &str) -> std::result::Result<Option<Self>, String> {
        let Some(f) = fields(line) else { return Ok(None) };
        let [device, modifier, key, pressed, class, command, magnitude, index, state, ramp, ramp_time] = f[..] else {
            return Err(format!("{} fields, a row has {TABLE_FIELDS}", f.len()));
        };
        if !matches!(device, "KEY" | "MOUSE") {
            return Err(format!("device `{device}` is neither KEY nor MOUSE"));
        }
        let pressed = match pressed {
            "1" => true,
            "0" => false,
            other => return Err(format!("press field `{other}` is neither 1 nor 0")),
        };
        let note = line.split_once("//").map_or("", |(_, n)| n.trim());
        Ok(Some(Self {
            device: device.into(),
            modifier: modifier.into(),
            key: key.into(),
            pressed,
            class: class.into(),
            command: command.into(),
            magnitude: number("magnitude", magnitude)?,
            index: number("index", index)?,
            state: state.into(),
            ramp: number("ramp", ramp)?,
            ramp_time: number("ramp time", ramp_time)?,
            note: note.into(),
        }))
    }

    fn line(&self) -> String {
        let mut line = format!(
            "{} {} {} {} {} {} {:?} {} {} {:?} {}",
            self.device,
            self.modifier,
            self.key,
            u8::from(self.pressed),
            self.class,
            self.command,
            self.magnitude,
            self.index,
            self.state,
            self.ramp,
            self.ramp_time
        );
        if !self.note.is_empty() {
            line += &format!(" // {}", self.note);
        }
        line
    }
}

/// `ScanCode.dsc` or `Command.dsc`.
pub type Descriptor = InputFile<Label>;
/// A `.man` binding file.
pub type ManFile = InputFile<ManBinding>;
/// A `.tbl` input table.
pub type InputTable = InputFile<TableRow>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_reads_its_entries_and_writes_back_byte_for_byte() {
        let dsc = b"// keys\r\nSCAN_ESC\tEsc\r\nKeys of the game\r\n\r\nSCAN_W_1  1\r\n";
        let d = Descriptor::parse(dsc).unwrap();
        let names: Vec<_> = d.entries().map(|e| (e.name.as_str(), e.label.as_str())).collect();
        assert_eq!(names, [("SCAN_ESC", "Esc"), ("SCAN_W_1", "1")], "a heading holds no entry");
        assert_eq!(d.to_bytes(), dsc);

        let man = b"CMD_ENTER_STATE SCAN_NULL SCAN_W_ENTER\r\n\r\nCMD_TERMINAL SCAN_LSHIFT SCAN_T";
        let m = ManFile::parse(man).unwrap();
        assert_eq!(
            m.numbered().map(|(n, b)| (n, b.key.as_str())).collect::<Vec<_>>(),
            [(1, "SCAN_W_ENTER"), (3, "SCAN_T")]
        );
        assert_eq!(m.to_bytes(), man, "no terminator after the last line, as stored");

        let tbl = b"KEY   SCAN_NULL SCAN_G_PLUS 1 CICLS_UNKNOWN MCMD_FORWARD 1.0 0 0 0.05 1000  // OBJ_SPEED_MORE\r\n";
        let t = InputTable::parse(tbl).unwrap();
        let row = t.entries().next().unwrap();
        assert_eq!((row.command.as_str(), row.magnitude, row.ramp, row.ramp_time), ("MCMD_FORWARD", 1.0, 0.05, 1000));
        assert_eq!((row.pressed, row.note.as_str()), (true, "OBJ_SPEED_MORE"));
        assert_eq!(t.to_bytes(), tbl);
    }

    #[test]
    fn written_entries_read_back_as_they_were() {
        let row = TableRow {
            device: "MOUSE".into(),
            modifier: "SCAN_LSHIFT".into(),
            key: "SCAN_MOUSE_X".into(),
            pressed: true,
            class: "CICLS_CAMERA".into(),
            command: "MCMD_ANGLE_X".into(),
            magnitude: 0.1,
            index: 1,
            state: "MAN_WRAP".into(),
            ramp: 0.0,
            ramp_time: 0,
            note: "CAMERA_LEFT".into(),
        };
        let mut t = InputTable::default();
        t.push(None, "the camera");
        t.push(Some(row.clone()), "");
        let back = InputTable::parse(&t.to_bytes()).unwrap();
        assert_eq!(back.entries().collect::<Vec<_>>(), [&row]);
        assert_eq!(back.to_bytes(), t.to_bytes());
    }

    #[test]
    fn a_malformed_line_is_refused_naming_its_line_and_offset() {
        let e = ManFile::parse(b"CMD_HELP SCAN_NULL SCAN_F1\r\nCMD_HELP SCAN_F1\r\n").unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("offset 0x1c") && e.contains("2 fields"), "{e}");
        let e = InputTable::parse(b"KEY SCAN_NULL SCAN_A 2 CICLS_UNKNOWN MCMD_LEFT 1.0 0 0 0.0 0\n").unwrap_err();
        assert!(e.to_string().contains("press field `2`"), "{e}");
        let e = InputTable::parse(b"PAD SCAN_NULL SCAN_A 1 CICLS_UNKNOWN MCMD_LEFT 1.0 0 0 0.0 0\n").unwrap_err();
        assert!(e.to_string().contains("device `PAD`"), "{e}");
        let e = InputTable::parse(b"KEY SCAN_NULL SCAN_A 1 CICLS_UNKNOWN MCMD_LEFT one 0 0 0.0 0\n").unwrap_err();
        assert!(e.to_string().contains("magnitude `one`"), "{e}");
    }
}
