//! Where the game finds its data: `--data`, else `IRON3D_DATA`, else a `demo/` directory
//! shipped beside the executable or installed under `../share/iron3d/demo`, else the demo
//! tree of the source checkout the binary was built from (so `cargo run` works). A
//! location given explicitly (`--data`, `IRON3D_DATA`) is the only one tried; the error
//! when nothing is found names every place tried. The directory found is opened as the
//! game layer of the stack `iron3d_vfs::layer::standard_stack` builds: the project's own
//! data below it, the `--mod` directories above it ([`open`]).

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// Environment variable naming the game data directory when `--data` is not given.
pub const DATA_ENV: &str = "IRON3D_DATA";

/// The demo tree of the source checkout (compiled in; tried last).
pub const CHECKOUT_DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo");

/// Where a candidate data directory comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The `--data` option.
    Flag,
    /// The [`DATA_ENV`] environment variable.
    Env,
    /// `demo/` beside the executable (an unpacked release archive).
    BesideExecutable,
    /// `../share/iron3d/demo` from the executable's directory (an installed release).
    Installed,
    /// The source checkout the binary was built from.
    Checkout,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Flag => "--data",
            Origin::Env => DATA_ENV,
            Origin::BesideExecutable => "beside the executable",
            Origin::Installed => "install data directory",
            Origin::Checkout => "source checkout",
        })
    }
}

/// The places to look, in order.
#[derive(Debug, Clone, Default)]
pub struct Lookup {
    /// `--data DIR`.
    pub flag: Option<PathBuf>,
    /// The value of [`DATA_ENV`] (ignored when empty).
    pub env: Option<OsString>,
    /// The running executable.
    pub exe: Option<PathBuf>,
    /// The source checkout's demo tree.
    pub checkout: Option<PathBuf>,
}

impl Lookup {
    /// The lookup of this process: its `--data`, environment, executable and checkout.
    pub fn from_process(flag: Option<PathBuf>) -> Self {
        Self {
            flag,
            env: std::env::var_os(DATA_ENV),
            exe: std::env::current_exe().ok(),
            checkout: Some(PathBuf::from(CHECKOUT_DEMO)),
        }
    }

    /// The candidate directories in the order they are tried.
    pub fn candidates(&self) -> Vec<(Origin, PathBuf)> {
        if let Some(flag) = &self.flag {
            return vec![(Origin::Flag, flag.clone())];
        }
        if let Some(env) = self.env.as_ref().filter(|e| !e.is_empty()) {
            return vec![(Origin::Env, PathBuf::from(env))];
        }
        let mut out = Vec::new();
        if let Some(dir) = self.exe.as_deref().and_then(Path::parent) {
            out.push((Origin::BesideExecutable, dir.join("demo")));
            out.push((Origin::Installed, dir.join("../share/iron3d/demo")));
        }
        if let Some(checkout) = &self.checkout {
            out.push((Origin::Checkout, checkout.clone()));
        }
        out
    }

    /// The first candidate that is a directory.
    pub fn find(&self) -> Result<(Origin, PathBuf), NotFound> {
        let tried = self.candidates();
        match tried.iter().find(|(_, path)| path.is_dir()) {
            Some(found) => Ok(found.clone()),
            None => Err(NotFound { tried }),
        }
    }
}

/// Opens the layers: the project's own data, the game directory `game`, then `mods` in
/// order.
///
/// # Errors
/// A layer that does not exist or cannot be read, named.
pub fn open(game: &Path, mods: &[PathBuf]) -> iron3d_formats::Result<iron3d_vfs::GameDir> {
    let stack = iron3d_vfs::layer::standard_stack(game, mods)?;
    iron3d_vfs::GameDir::open_layers(&stack, iron3d_formats::ReadOptions::compatible())
}

/// No candidate data directory exists.
#[derive(Debug, Clone)]
pub struct NotFound {
    /// Every place tried, in order.
    pub tried: Vec<(Origin, PathBuf)>,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no game data directory found; tried")?;
        for (origin, path) in &self.tried {
            write!(f, "\n  {} ({origin})", path.display())?;
        }
        write!(f, "\npass --data DIR or set {DATA_ENV}=DIR (an installed copy of the original game, or the demo tree)")
    }
}

impl std::error::Error for NotFound {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system temporary directory.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("iron3d-data-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        dir
    }

    fn lookup(root: &Path) -> Lookup {
        Lookup {
            flag: None,
            env: None,
            exe: Some(root.join("bin/iron3d")),
            checkout: Some(root.join("checkout/assets/demo")),
        }
    }

    #[test]
    fn an_explicit_location_is_the_only_one_tried() {
        let root = scratch("explicit");
        std::fs::create_dir_all(root.join("bin/demo")).expect("demo");
        let flag = Lookup { flag: Some(root.join("given")), env: Some("elsewhere".into()), ..lookup(&root) };
        assert_eq!(flag.candidates(), vec![(Origin::Flag, root.join("given"))]);
        let err = flag.find().expect_err("--data does not exist");
        assert_eq!(err.tried.len(), 1);
        let env = Lookup { env: Some(root.join("bin/demo").into()), ..lookup(&root) };
        assert_eq!(env.find().expect("env"), (Origin::Env, root.join("bin/demo")));
        let empty = Lookup { env: Some(OsString::new()), ..lookup(&root) };
        assert_eq!(empty.find().expect("an empty variable is not set").0, Origin::BesideExecutable);
    }

    #[test]
    fn beside_the_executable_then_installed_then_checkout() {
        let root = scratch("order");
        std::fs::create_dir_all(root.join("bin")).expect("the executable's directory");
        let l = lookup(&root);
        let order: Vec<Origin> = l.candidates().into_iter().map(|(o, _)| o).collect();
        assert_eq!(order, [Origin::BesideExecutable, Origin::Installed, Origin::Checkout]);
        std::fs::create_dir_all(root.join("checkout/assets/demo")).expect("checkout");
        assert_eq!(l.find().expect("checkout").0, Origin::Checkout);
        std::fs::create_dir_all(root.join("share/iron3d/demo")).expect("installed");
        assert_eq!(l.find().expect("installed"), (Origin::Installed, root.join("bin/../share/iron3d/demo")));
        std::fs::create_dir_all(root.join("bin/demo")).expect("beside");
        assert_eq!(l.find().expect("beside"), (Origin::BesideExecutable, root.join("bin/demo")));
    }

    #[test]
    fn a_mod_that_does_not_exist_is_an_error_naming_it() {
        let root = scratch("mods");
        let given = root.join("my-mod");
        let e = open(&root, std::slice::from_ref(&given)).expect_err("the mod does not exist").to_string();
        assert!(e.contains("mod:my-mod") && e.contains(&given.display().to_string()), "{e}");
        std::fs::create_dir_all(&given).expect("mod");
        let game = open(&root, &[given]).expect("opens");
        let names: Vec<String> = game.layers().iter().map(iron3d_vfs::Layer::name).collect();
        assert_eq!(names, ["project", "game", "mod:my-mod"]);
    }

    #[test]
    fn the_error_names_every_place_tried() {
        let root = scratch("missing");
        let err = lookup(&root).find().expect_err("nothing exists");
        let text = err.to_string();
        for (origin, path) in &err.tried {
            assert!(text.contains(&path.display().to_string()), "{text}");
            assert!(text.contains(&origin.to_string()), "{text}");
        }
        assert!(text.contains("--data") && text.contains(DATA_ENV), "{text}");
    }
}
