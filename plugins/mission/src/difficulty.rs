//! `Iron_3D.ini` `[LEVEL_RATIO]` (`docs/reference/runtime.md` §2.4): the three difficulty
//! coefficients. The spec names no keys, so the project reads the section's first three
//! values in file order as easy, normal and hard; each must be a finite number > 0.

use iron3d_formats::config::IniFile;
use iron3d_vfs::GameDir;

/// The game's settings file.
const FILE: &str = "Iron_3D.ini";
/// Its section of difficulty coefficients.
const SECTION: &[u8] = b"LEVEL_RATIO";

/// The coefficients of `game`'s `Iron_3D.ini`; `None` (the original's values) when the
/// file or section is missing, or — with a located warning — malformed.
pub(crate) fn level_ratios(game: &GameDir) -> Option<[f32; 3]> {
    let bytes = game.read_file(FILE).ok()?;
    match read(&bytes) {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(target: "mission", "{FILE}: {e}; the original's coefficients are used");
            None
        }
    }
}

/// The section's coefficients: `Ok(None)` without a section.
fn read(bytes: &[u8]) -> Result<Option<[f32; 3]>, String> {
    let ini = IniFile::parse(bytes);
    let values: Vec<_> = ini.entries().into_iter().filter(|v| v.section.eq_ignore_ascii_case(SECTION)).collect();
    if values.is_empty() {
        return Ok(None);
    }
    let mut out = [0.0; 3];
    for (i, slot) in out.iter_mut().enumerate() {
        let v = values.get(i).ok_or(format!("[LEVEL_RATIO] has {} values, 3 are needed", values.len()))?;
        let at = format!("[LEVEL_RATIO] line {}", v.line + 1);
        let number = v.as_float().ok_or(format!("{at}: `{}` is not a number", v.as_text()))?;
        if !(number.is_finite() && number > 0.0) {
            return Err(format!("{at}: {number} is not a coefficient > 0"));
        }
        *slot = number as f32;
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn level_ratio_is_read_in_file_order_and_bad_values_are_located() {
        let ini = b"[CS]\r\nMOUSE_SENS = 100\r\n[LEVEL_RATIO]\r\nEASY = 0.5\r\nNORMAL = 0.7\r\nHARD = 1.0\r\n";
        assert_eq!(read(ini), Ok(Some([0.5, 0.7, 1.0])));
        assert_eq!(read(b"[CS]\r\nMOUSE_SENS = 100\r\n"), Ok(None), "no section: the original's values");
        let e = read(b"[LEVEL_RATIO]\r\nA = 0.5\r\nB = fast\r\nC = 1\r\n").unwrap_err();
        assert!(e.contains("line 3") && e.contains("fast"), "{e}");
        assert!(read(b"[LEVEL_RATIO]\r\nA = 0.5\r\nB = 0.7\r\n").unwrap_err().contains("2 values"));
        assert!(read(b"[LEVEL_RATIO]\r\nA = 0.5\r\nB = 0\r\nC = 1\r\n").unwrap_err().contains("> 0"));
    }
}
