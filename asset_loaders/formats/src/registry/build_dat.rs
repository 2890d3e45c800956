//! `BuildDat.lst` (`docs/reference/registry.md` §3): building categories, each followed by
//! exactly `count` double-quoted unit `.dat` paths.

use crate::bytes::fold_path;
use crate::error::{Error, Result};

/// The building categories and their class masks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BuildCategory {
    /// `Bunker_Small`.
    BunkerSmall,
    /// `Bunker_Medium`.
    BunkerMedium,
    /// `Bunker_Large`.
    BunkerLarge,
    /// `Generator`.
    Generator,
    /// `Mine`.
    Mine,
    /// `Storage`.
    Storage,
    /// `Plant`.
    Plant,
    /// `Hangar`.
    Hangar,
    /// `MainTeleport`.
    MainTeleport,
    /// `Institute`.
    Institute,
    /// `Tower_Medium`.
    TowerMedium,
    /// `Tower_Large`.
    TowerLarge,
}

impl BuildCategory {
    /// Every category with its file name and mask.
    pub const TABLE: [(BuildCategory, &'static str, u32); 12] = [
        (Self::BunkerSmall, "Bunker_Small", 0x8001_0000),
        (Self::BunkerMedium, "Bunker_Medium", 0x8002_0000),
        (Self::BunkerLarge, "Bunker_Large", 0x8004_0000),
        (Self::Generator, "Generator", 0x8000_0002),
        (Self::Mine, "Mine", 0x8000_0004),
        (Self::Storage, "Storage", 0x8000_0008),
        (Self::Plant, "Plant", 0x8000_0010),
        (Self::Hangar, "Hangar", 0x8000_0040),
        (Self::MainTeleport, "MainTeleport", 0x8000_0200),
        (Self::Institute, "Institute", 0x8000_0400),
        (Self::TowerMedium, "Tower_Medium", 0x8010_0000),
        (Self::TowerLarge, "Tower_Large", 0x8020_0000),
    ];

    /// The category named exactly `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::TABLE.iter().find(|(_, n, _)| *n == name).map(|(c, _, _)| *c)
    }

    fn row(self) -> &'static (BuildCategory, &'static str, u32) {
        &Self::TABLE[self as usize]
    }

    /// The name as written in the file.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// The class mask.
    pub fn mask(self) -> u32 {
        self.row().2
    }
}

/// A parsed `BuildDat.lst`: sections in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BuildDat {
    /// Each category with its unit paths (as written, backslashes kept).
    pub sections: Vec<(BuildCategory, Vec<String>)>,
}

fn line_error(line: usize, rule: &'static str, detail: String) -> Error {
    Error::rule(rule, detail).via(format!("BuildDat.lst line {line}"))
}

fn valid_path(path: &str) -> bool {
    !path.is_empty() && path.bytes().all(|b| b.is_ascii_alphanumeric() || b"_./\\-".contains(&b))
}

impl BuildDat {
    /// Parses the text; unknown categories, duplicate sections, missing or malformed
    /// path lines and extra tokens are errors.
    pub fn parse(text: &[u8]) -> Result<Self> {
        let text = std::str::from_utf8(text)
            .map_err(|e| Error::invalid(e.valid_up_to() as u64, "build_dat_text", "not ASCII text".to_string()))?;
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with("//"));
        let mut out = BuildDat::default();
        while let Some((n, line)) = lines.next() {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            let [name, count] = tokens[..] else {
                return Err(line_error(
                    n,
                    "build_dat_section",
                    format!("expected `<Category> <count>`, found `{line}`"),
                ));
            };
            let category = BuildCategory::from_name(name)
                .ok_or_else(|| line_error(n, "build_dat_category", format!("unknown category `{name}`")))?;
            if out.sections.iter().any(|(c, _)| *c == category) {
                return Err(line_error(n, "build_dat_duplicate", format!("category `{name}` appears twice")));
            }
            let count: usize =
                count.parse().map_err(|_| line_error(n, "build_dat_count", format!("bad count `{count}`")))?;
            let mut paths = Vec::new();
            for _ in 0..count {
                let (pn, pline) = lines.next().ok_or_else(|| {
                    line_error(n, "build_dat_missing_path", format!("`{name}` declares {count} paths, file ends"))
                })?;
                let path =
                    pline.strip_prefix('"').and_then(|p| p.strip_suffix('"')).filter(|p| valid_path(p)).ok_or_else(
                        || line_error(pn, "build_dat_path", format!("expected a quoted path, found `{pline}`")),
                    )?;
                paths.push(path.to_string());
            }
            out.sections.push((category, paths));
        }
        Ok(out)
    }

    /// The mask of the category that lists `path` (case-insensitive, `\` or `/`), if any.
    pub fn mask_of(&self, path: &str) -> Option<u32> {
        let wanted = fold_path(path);
        self.sections.iter().find(|(_, paths)| paths.iter().any(|p| fold_path(p) == wanted)).map(|(c, _)| c.mask())
    }

    /// Where `path` stands (case-insensitive, `\\` or `/`): its category, its entry in
    /// the category's list (the scheme's upgrade ladder) and the list's length.
    pub fn rung_of(&self, path: &str) -> Option<(BuildCategory, usize, usize)> {
        let wanted = fold_path(path);
        self.sections
            .iter()
            .find_map(|(c, paths)| paths.iter().position(|p| fold_path(p) == wanted).map(|at| (*c, at, paths.len())))
    }

    /// The paths of `category` in file order (its upgrade ladder; empty when absent).
    pub fn ladder(&self, category: BuildCategory) -> &[String] {
        self.sections.iter().find(|(c, _)| *c == category).map_or(&[], |(_, paths)| paths.as_slice())
    }

    /// Writes the file (CRLF line ends).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (c, paths) in &self.sections {
            out.push_str(&format!("{} {}\r\n", c.name(), paths.len()));
            for p in paths {
                out.push_str(&format!("\"{p}\"\r\n"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    const SAMPLE: &str = "// buildings\r\nGenerator 2\r\n\"UNITS\\BUILDS\\gener01.dat\"\r\n  \"UNITS\\BUILDS\\gener02.dat\"  \r\n\r\nMine 0\r\nPlant 1\r\n\"UNITS/BUILDS/wor_l_n1.dat\"\r\n";

    #[test]
    fn parses_sections_and_masks() {
        let b = BuildDat::parse(SAMPLE.as_bytes()).unwrap();
        assert_eq!(b.sections.len(), 3);
        assert_eq!(b.sections[0].1[1], "UNITS\\BUILDS\\gener02.dat");
        assert_eq!(b.mask_of("units\\builds\\GENER01.DAT"), Some(0x8000_0002));
        assert_eq!(b.mask_of("units/builds/wor_l_n1.dat"), Some(0x8000_0010));
        assert_eq!(b.mask_of("other.dat"), None);
        assert_eq!(BuildDat::parse(b.to_text().as_bytes()).unwrap(), b);
    }

    fn rule(text: &str) -> &'static str {
        match BuildDat::parse(text.as_bytes()).unwrap_err().kind {
            ErrorKind::Invalid { rule, .. } => rule,
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn structural_errors_are_never_a_zero_mask() {
        assert_eq!(rule("Garage 1\n\"a.dat\"\n"), "build_dat_category");
        assert_eq!(rule("Mine 1\n\"a.dat\"\nMine 0\n"), "build_dat_duplicate");
        assert_eq!(rule("Mine 2\n\"a.dat\"\n"), "build_dat_missing_path");
        assert_eq!(rule("Mine 1\na.dat\n"), "build_dat_path");
        assert_eq!(rule("Mine 1\n\"a b.dat\"\n"), "build_dat_path");
        assert_eq!(rule("Mine 1 extra\n"), "build_dat_section");
        assert_eq!(rule("Mine x\n"), "build_dat_count");
        let e = BuildDat::parse(b"Mine 1\n\n\"\"\n").unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
    }
}
