//! `controls`: the input layer as the engine resolves it (`docs/reference/gameplay.md` §14):
//! the two descriptors, the four binding files the original loads in play and its three
//! tables read, and every name they use known to the engine and listed in its descriptor.

use super::{Check, Failure, Tree, guarded};
use iron3d_formats::config::input_names::{self, NO_MODIFIER};
use iron3d_formats::config::{InputEntry, InputFile, Label, ManBinding, TableRow};
use std::collections::BTreeSet;

/// The descriptors, and whether the engine resolves a name of each.
const DESCRIPTORS: [(&str, fn(&str) -> bool); 2] =
    [("ScanCode.dsc", |n| input_names::scan_code(n).is_some()), ("Command.dsc", |n| input_names::command(n).is_some())];
/// The binding files the original loads in play (openparkan `docs/40-command-mode.md`).
const BINDINGS: [&str; 4] = ["table_1.man", "table_2.man", "hero.man", "addition.man"];
/// The input tables.
const TABLES: [&str; 3] = ["hero.tbl", "m1.tbl", "m2.tbl"];

impl Tree {
    /// One input file, read and parsed; a missing one fails (the original ships it).
    fn input_file<T: InputEntry>(&self, file: &str) -> Result<InputFile<T>, Failure> {
        guarded(self, file, || {
            let bytes = self.read(file, "the original ships it")?;
            InputFile::parse(&bytes).map_err(|e| self.failure(file, e))
        })
    }

    /// `controls`, one item per file.
    pub(super) fn controls(&self) -> Check {
        let mut check = Check::new("controls", "input files read, every name known to the engine");
        let mut listed: Vec<Option<BTreeSet<String>>> = Vec::new();
        for (file, known) in DESCRIPTORS {
            let read = self.input_file::<Label>(file);
            let names: Option<BTreeSet<String>> =
                check.item(read.map(|d| d.entries().map(|e| e.name.clone()).collect()));
            let unknown: Vec<Failure> = names
                .iter()
                .flat_map(|set| set.iter())
                .filter(|n| !known(n))
                .map(|n| self.failure(file, format!("the engine knows no `{n}`")))
                .collect();
            check.failures.extend(unknown);
            listed.push(names);
        }
        let [keys, commands] = [&listed[0], &listed[1]];
        let key = |file: &str, line: usize, name: &str| -> Option<Failure> {
            let at = |why: &str| Some(self.failure(file, format!("line {line}: {why}")));
            if input_names::scan_code(name).is_none() {
                at(&format!("the engine knows no key `{name}`"))
            } else if keys.as_ref().is_some_and(|k| !k.contains(name) && name != NO_MODIFIER) {
                at(&format!("`{name}` is not in ScanCode.dsc"))
            } else {
                None
            }
        };
        for file in BINDINGS {
            let Some(man) = check.item(self.input_file::<ManBinding>(file)) else { continue };
            for (line, b) in man.numbered() {
                let command = if input_names::command(&b.command).is_none() {
                    Some(self.failure(file, format!("line {line}: the engine knows no command `{}`", b.command)))
                } else if commands.as_ref().is_some_and(|c| !c.contains(&b.command)) {
                    Some(self.failure(file, format!("line {line}: `{}` is not in Command.dsc", b.command)))
                } else {
                    None
                };
                check
                    .failures
                    .extend([command, key(file, line, &b.modifier), key(file, line, &b.key)].into_iter().flatten());
            }
        }
        for file in TABLES {
            let Some(table) = check.item(self.input_file::<TableRow>(file)) else { continue };
            for (line, r) in table.numbered() {
                let at = |why: String| Some(self.failure(file, format!("line {line}: {why}")));
                let command = match input_names::move_command(&r.command) {
                    None => at(format!("the engine knows no command `{}`", r.command)),
                    Some(_) => None,
                };
                let state = match input_names::state(&r.state) {
                    None => at(format!("the engine knows no state `{}`", r.state)),
                    Some(_) => None,
                };
                let found = [command, state, key(file, line, &r.modifier), key(file, line, &r.key)];
                check.failures.extend(found.into_iter().flatten());
            }
        }
        check.done()
    }
}
