//! Game paths: `\` and `/` separators, ASCII case folding, `archive::entry` addresses.

pub use iron3d_formats::bytes::fold_path;

/// A resource address: a loose file, or an entry inside an archive (`archive::entry`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Address {
    /// The file path as written.
    pub file: String,
    /// The archive entry, when the address names one.
    pub entry: Option<String>,
}

impl Address {
    /// Parses `path` or `archive.rlb::entry`.
    pub fn parse(address: &str) -> Self {
        match address.split_once("::") {
            Some((file, entry)) => Self { file: file.to_string(), entry: Some(entry.to_string()) },
            None => Self { file: address.to_string(), entry: None },
        }
    }
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.entry {
            Some(e) => write!(f, "{}::{e}", self.file),
            None => write!(f, "{}", self.file),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_windows_paths() {
        assert_eq!(fold_path("UNITS\\Units\\HERO\\.\\hero_t.DAT"), "units/units/hero/hero_t.dat");
        assert_eq!(fold_path("/a//B/"), "a/b");
    }

    #[test]
    fn parses_archive_addresses() {
        let a = Address::parse("Textures.lib::GRASS01");
        assert_eq!((a.file.as_str(), a.entry.as_deref()), ("Textures.lib", Some("GRASS01")));
        assert_eq!(a.to_string(), "Textures.lib::GRASS01");
        assert_eq!(Address::parse("MISSIONS\\m1\\data.tma").entry, None);
    }
}
