//! The warbot designer's project as its screen edits it (openparkan
//! `docs/37-designer.md`, read and seen): six pages, the project's places on each
//! (the destination panel's rows), the parts the catalogue offers for the selected
//! place (the source panel's), what a double click adds or removes, which pages are
//! open and the prompt. What a design is, fits and costs is [`crate::design`]'s.
//!
//! * **Pages**, in the panel's numbering (0 Chassis, 1 Turrets, 2 Armour, 3 Internal
//!   systems, 4 Weapons, 5 Ammo). Only Chassis is open at first; a chassis opens
//!   Turrets, Armour and Internal systems where it gives them places and turns to
//!   Turrets; a turret opens Internal systems, and Weapons where it has a gun socket,
//!   turning there; a gun opens Ammo. Each page keeps its own selected place; a fit
//!   steps its page to the next place, wrapping round.
//! * **Places**: the chassis; its turret socket (the first node labelled `e_tur_`); the
//!   turret's gun sockets by node; and one place a slot label for armour (`i_arm_`),
//!   ammunition (a gun's clip, `i_c<n>`) and the other slots (internal systems; brains
//!   never: the designer leaves them empty). A part chosen for a slot label takes every
//!   slot of it ([`crate::design`]'s reading, the project's where the original keeps a
//!   row a slot).
//! * **Double click**: from the source, a chassis into an empty project, a turret or a
//!   gun into its empty place, a slot's part in place of what it holds; from the
//!   destination, a chassis, turret or gun comes off (a chassis clears the project, a
//!   turret takes its guns and their clips with it).

use crate::design::{Catalogue, Parts, Request, Socket, gun_prefixes, starts_with};
use iron3d_formats::registry::UnitDat;

/// A page of the designer, in the panel's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Page {
    /// 0: chassis, up at first.
    #[default]
    Chassis,
    /// 1: turrets.
    Turrets,
    /// 2: armour (optional).
    Armour,
    /// 3: internal systems (optional).
    Systems,
    /// 4: weapons.
    Weapons,
    /// 5: ammunition (optional).
    Ammo,
}

impl Page {
    /// The six as the panels' headers draw them, left to right.
    pub const DRAWN: [Page; 6] = [Page::Chassis, Page::Turrets, Page::Weapons, Page::Armour, Page::Systems, Page::Ammo];

    fn index(self) -> usize {
        self as usize
    }
}

/// A place of the project: a destination row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The chassis.
    Chassis,
    /// The chassis's turret socket, by its label.
    Turret(String),
    /// A turret's gun socket: its node and label.
    Gun(u32, String),
    /// Every slot of a label (armour, an internal system, a clip).
    Slot(String),
}

/// A destination row: a place and the part it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The place.
    pub place: Place,
    /// Its part (a slot's default when nothing was chosen and the catalogue offers it).
    pub part: Option<String>,
}

/// The designer's prompt over the project (the original's strings 1107, 3054, 3055,
/// 6242).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prompt {
    /// No project: *SELECT CHASSIS*.
    SelectChassis,
    /// *SELECT TURRET*.
    SelectTurret,
    /// *SELECT WEAPON*.
    SelectWeapon,
    /// *TUNE UP OR ACCEPT TO PRODUCTION*.
    TuneUp,
}

/// The parts the chassis page lists (`r_t`, `r_l`, `r_m`, `r_b`).
pub const CHASSIS_PREFIXES: [&str; 4] = ["r_t", "r_l", "r_m", "r_b"];

/// The chassis prefixes a factory of size class `grade` offers: `r_t` up to its own
/// size (small 2 `r_t`, `r_l`; medium 3 adds `r_m`; large 4 `r_b`; openparkan
/// `docs/38-designs.md`, derived); all four for a factory whose size is not known (the
/// project's).
pub fn chassis_prefixes(grade: Option<u8>) -> &'static [&'static str] {
    &CHASSIS_PREFIXES[..grade.map_or(4, |g| usize::from(g).clamp(1, 4))]
}

/// The designer: its project, its page and each page's selected place, and the size
/// class of the factory it was opened at.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Designer {
    /// The project (an empty chassis: none).
    pub project: Request,
    /// The page both panels show.
    pub page: PageState,
    /// The factory's size class ([`chassis_prefixes`]).
    pub grade: Option<u8>,
}

/// Which page is up and each page's selected place.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageState {
    /// The page up (Chassis at first).
    pub up: Page,
    /// Each page's selected row, by the panel's numbering.
    pub rows: [usize; 6],
}

impl PageState {
    /// The selected row of `page`.
    pub fn row(&self, page: Page) -> usize {
        self.rows[page.index()]
    }

    /// Selects row `row` of `page`.
    pub fn select(&mut self, page: Page, row: usize) {
        self.rows[page.index()] = row;
    }

    fn step(&mut self, page: Page, rows: usize) {
        let r = &mut self.rows[page.index()];
        *r = if rows == 0 { 0 } else { (*r + 1) % rows };
    }
}

/// The page a slot of `label` is on, by the class the unit file gives its part: armour,
/// clips, the rest (brains never).
fn slot_page(label: &str) -> Option<Page> {
    match crate::design::slot_class(label) {
        _ if starts_with(label, "i_brn_") => None,
        2 => Some(Page::Armour),
        5 => Some(Page::Ammo),
        _ => Some(Page::Systems),
    }
}

impl Designer {
    /// Whether there is a project (a chassis).
    pub fn has_project(&self) -> bool {
        !self.project.chassis.is_empty()
    }

    /// The rows of `page`: the project's places on it and what each holds.
    ///
    /// # Errors
    /// A fitted part's data cannot be read.
    pub fn rows(&self, parts: &dyn Parts, catalogue: &Catalogue, page: Page) -> Result<Vec<Row>, String> {
        let p = &self.project;
        if page == Page::Chassis {
            return Ok(vec![Row { place: Place::Chassis, part: self.has_project().then(|| p.chassis.clone()) }]);
        }
        if !self.has_project() {
            return Ok(Vec::new());
        }
        let labels = |key: &str| parts.labels(key).map(Option::unwrap_or_default);
        let chassis = labels(&p.chassis)?;
        let turret = match p.turret.is_empty() {
            true => None,
            false => Some(labels(&p.turret)?),
        };
        let mut hosts = vec![chassis.clone()];
        hosts.extend(turret.clone());
        for (_, gun) in &p.guns {
            hosts.push(labels(gun)?);
        }
        Ok(match page {
            Page::Chassis => unreachable!("answered above"),
            Page::Turrets => chassis
                .nodes
                .iter()
                .find(|l| starts_with(l, "e_tur_"))
                .map(|l| Row {
                    place: Place::Turret(l.clone()),
                    part: (!p.turret.is_empty()).then(|| p.turret.clone()),
                })
                .into_iter()
                .collect(),
            Page::Weapons => (0u32..)
                .zip(turret.iter().flat_map(|t| &t.nodes))
                .filter(|(_, l)| starts_with(l, "central_") || starts_with(l, "universal_"))
                .map(|(node, l)| Row {
                    place: Place::Gun(node, l.clone()),
                    part: self.gun_at(node).map(str::to_string),
                })
                .collect(),
            page => {
                let mut seen: Vec<String> = Vec::new();
                for host in &hosts {
                    for (_, label) in &host.slots {
                        if slot_page(label) == Some(page) && !seen.iter().any(|s| s.eq_ignore_ascii_case(label)) {
                            seen.push(label.clone());
                        }
                    }
                }
                seen.into_iter()
                    .map(|label| Row { part: self.slot_part(catalogue, &label), place: Place::Slot(label) })
                    .collect()
            }
        })
    }

    fn gun_at(&self, node: u32) -> Option<&str> {
        self.project.guns.iter().find(|(s, _)| *s == Socket::Node(node)).map(|(_, g)| g.as_str())
    }

    /// What the slots of `label` hold: the part chosen, else the default when offered.
    fn slot_part(&self, catalogue: &Catalogue, label: &str) -> Option<String> {
        let chosen = self.project.fits.iter().find(|(l, _)| l.eq_ignore_ascii_case(label));
        match chosen {
            Some((_, part)) => Some(part.clone()),
            None => Some(format!("{label}_df")).filter(|d| catalogue.offers(d)),
        }
    }

    /// Whether `page` is open.
    ///
    /// # Errors
    /// A fitted part's data cannot be read.
    pub fn enabled(&self, parts: &dyn Parts, catalogue: &Catalogue, page: Page) -> Result<bool, String> {
        Ok(match page {
            Page::Chassis => true,
            Page::Ammo if self.project.guns.is_empty() => false,
            _ => !self.rows(parts, catalogue, page)?.is_empty(),
        })
    }

    /// The parts the source panel lists for the place selected on the page up: offered
    /// by the catalogue, in the tree's order.
    ///
    /// # Errors
    /// A fitted part's data cannot be read.
    pub fn source(&self, parts: &dyn Parts, catalogue: &Catalogue) -> Result<Vec<String>, String> {
        let prefixes = self.takes(parts, catalogue)?;
        let mut out: Vec<String> = Vec::new();
        for part in catalogue.tree.parts() {
            let fits = prefixes.iter().any(|p| starts_with(part, p));
            if fits && catalogue.offers(part) && !out.iter().any(|o| o.eq_ignore_ascii_case(part)) {
                out.push(part.to_string());
            }
        }
        Ok(out)
    }

    /// The prefixes of the parts the place selected on the page up takes.
    fn takes(&self, parts: &dyn Parts, catalogue: &Catalogue) -> Result<Vec<String>, String> {
        let page = self.page.up;
        Ok(match page {
            Page::Chassis => chassis_prefixes(self.grade).iter().map(|p| (*p).to_string()).collect(),
            page => match self.rows(parts, catalogue, page)?.get(self.page.row(page)).map(|r| &r.place) {
                Some(Place::Turret(label) | Place::Slot(label)) => vec![label.clone()],
                Some(Place::Gun(_, label)) => gun_prefixes(label),
                Some(Place::Chassis) | None => Vec::new(),
            },
        })
    }

    /// A double click on source part `part`: added where the page's selected place
    /// takes it. Whether the project changed.
    ///
    /// # Errors
    /// A part's data cannot be read.
    pub fn add(&mut self, parts: &dyn Parts, catalogue: &Catalogue, part: &str) -> Result<bool, String> {
        let page = self.page.up;
        if !self.takes(parts, catalogue)?.iter().any(|p| starts_with(part, p)) {
            return Ok(false);
        }
        if page == Page::Chassis {
            if self.has_project() {
                return Ok(false);
            }
            self.project = Request { chassis: part.to_string(), ..Request::default() };
            self.page.rows = [0; 6];
            let turrets = self.enabled(parts, catalogue, Page::Turrets)?;
            self.page.up = if turrets { Page::Turrets } else { Page::Chassis };
            return Ok(true);
        }
        let rows = self.rows(parts, catalogue, page)?;
        let Some(row) = rows.get(self.page.row(page)) else { return Ok(false) };
        match &row.place {
            Place::Turret(_) if row.part.is_none() => {
                self.project.turret = part.to_string();
                self.page.rows[Page::Weapons.index()] = 0;
                self.page.rows[Page::Systems.index()] = 0;
                if self.enabled(parts, catalogue, Page::Weapons)? {
                    self.page.up = Page::Weapons;
                }
            }
            Place::Gun(node, _) if row.part.is_none() => {
                self.project.guns.push((Socket::Node(*node), part.to_string()));
                self.project.guns.sort_by_key(|(s, _)| match s {
                    Socket::Node(n) => *n,
                    Socket::Label(_) => u32::MAX,
                });
                self.page.rows[Page::Ammo.index()] = 0;
                self.page.step(page, rows.len());
            }
            Place::Slot(label) => {
                self.project.fits.retain(|(l, _)| !l.eq_ignore_ascii_case(label));
                self.project.fits.push((label.clone(), part.to_string()));
                self.page.step(page, rows.len());
            }
            Place::Chassis | Place::Turret(_) | Place::Gun(..) => return Ok(false),
        }
        Ok(true)
    }

    /// A double click on destination row `row` of the page up: a chassis, turret or
    /// gun comes off. Whether the project changed.
    ///
    /// # Errors
    /// A part's data cannot be read.
    pub fn remove(&mut self, parts: &dyn Parts, catalogue: &Catalogue, row: usize) -> Result<bool, String> {
        let page = self.page.up;
        let rows = self.rows(parts, catalogue, page)?;
        let Some(Row { place, part: Some(_) }) = rows.get(row) else { return Ok(false) };
        match place {
            Place::Chassis => *self = Designer { grade: self.grade, ..Designer::default() },
            Place::Turret(_) => {
                self.project.turret.clear();
                self.project.guns.clear();
                self.drop_orphan_fits(parts, catalogue)?;
                self.page.step(page, rows.len());
            }
            Place::Gun(node, _) => {
                self.project.guns.retain(|(s, _)| *s != Socket::Node(*node));
                self.drop_orphan_fits(parts, catalogue)?;
                self.page.step(page, rows.len());
            }
            Place::Slot(_) => return Ok(false),
        }
        Ok(true)
    }

    /// Drops chosen slot parts whose label no fitted part gives any more.
    fn drop_orphan_fits(&mut self, parts: &dyn Parts, catalogue: &Catalogue) -> Result<(), String> {
        let mut labels = Vec::new();
        for page in [Page::Armour, Page::Systems, Page::Ammo] {
            labels.extend(self.rows(parts, catalogue, page)?.into_iter().map(|r| r.place));
        }
        self.project
            .fits
            .retain(|(l, _)| labels.iter().any(|p| matches!(p, Place::Slot(s) if s.eq_ignore_ascii_case(l))));
        Ok(())
    }

    /// Turns both panels to `page` when it is open. Whether it turned.
    ///
    /// # Errors
    /// A part's data cannot be read.
    pub fn turn_to(&mut self, parts: &dyn Parts, catalogue: &Catalogue, page: Page) -> Result<bool, String> {
        let open = self.enabled(parts, catalogue, page)?;
        if open {
            self.page.up = page;
        }
        Ok(open)
    }

    /// The prompt over the project; `None` on the chassis page of a project.
    pub fn prompt(&self) -> Option<Prompt> {
        match (self.has_project(), self.page.up) {
            (false, _) => Some(Prompt::SelectChassis),
            (true, Page::Chassis) => None,
            (true, Page::Turrets) => Some(Prompt::SelectTurret),
            (true, Page::Weapons) => Some(Prompt::SelectWeapon),
            (true, _) => Some(Prompt::TuneUp),
        }
    }

    /// The project a unit file holds, as loading it puts it back: the root is the
    /// chassis, its class-1 child the turret, the turret's class-4 children the guns by
    /// node, and every slot part that is not its slot's default a chosen part.
    ///
    /// # Errors
    /// The file is not a chassis with its parts, or a part's data cannot be read.
    pub fn load(parts: &dyn Parts, dat: &UnitDat, grade: Option<u8>) -> Result<Self, String> {
        let components = dat.components().map_err(|e| e.to_string())?;
        let root = components.first().filter(|c| c.parent.is_none()).ok_or("the file holds no chassis")?;
        let mut project = Request { chassis: root.key.clone(), ..Request::default() };
        for c in components.iter().skip(1) {
            let Some(host) = c.parent.and_then(|p| components.get(p)) else { continue };
            match c.component_type {
                1 => project.turret = c.key.clone(),
                4 => project.guns.push((Socket::Node(c.link.max(0) as u32), c.key.clone())),
                _ => {
                    let labels = parts.labels(&host.key)?.unwrap_or_default();
                    let label = labels.slots.iter().find(|(s, _)| i64::from(*s) == i64::from(c.link)).map(|(_, l)| l);
                    if let Some(label) = label
                        && !c.key.eq_ignore_ascii_case(&format!("{label}_df"))
                        && !project.fits.iter().any(|(l, _)| l.eq_ignore_ascii_case(label))
                    {
                        project.fits.push((label.clone(), c.key.clone()));
                    }
                }
            }
        }
        let up = if project.turret.is_empty() { Page::Turrets } else { Page::Weapons };
        Ok(Self { project, page: PageState { up, rows: [0; 6] }, grade })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests: a failed unwrap is a failed test")]
mod tests {
    use super::*;
    use crate::design::tests::{Labelled, tree};
    use crate::design::{Catalogue, assemble};

    const PARTS: [&str; 11] = [
        "R_B_02",
        "e_tur_bb_01",
        "e_gun_bl_15",
        "e_gun_bc_06",
        "i_eng_b_df",
        "i_arm_b_df",
        "i_rdr_b_df",
        "i_def_b_df",
        "i_c15_b_df",
        "i_c15_b_02",
        "i_brn_b_df",
    ];

    fn places(d: &Designer, c: &Catalogue, page: Page) -> Vec<(Place, Option<String>)> {
        d.rows(&Labelled, c, page).unwrap().into_iter().map(|r| (r.place, r.part)).collect()
    }

    fn open(d: &Designer, c: &Catalogue) -> Vec<Page> {
        Page::DRAWN.into_iter().filter(|p| d.enabled(&Labelled, c, *p).unwrap()).collect()
    }

    /// A design built as the screen builds it: a chassis turns the panels to Turrets,
    /// a turret to Weapons, each fit steps its page; what is not offered is not listed.
    #[test]
    fn the_pages_open_and_turn_as_parts_are_fitted() {
        let (tree, labels) = tree(&PARTS, &["i_def_b_df"]);
        let c = Catalogue { tree: &tree, labels: &labels, full: false };
        let mut d = Designer::default();
        assert_eq!((open(&d, &c), d.prompt()), (vec![Page::Chassis], Some(Prompt::SelectChassis)));
        assert_eq!(d.source(&Labelled, &c).unwrap(), ["R_B_02"], "the chassis page lists chassis only");
        assert!(d.add(&Labelled, &c, "R_B_02").unwrap());
        assert!(!d.add(&Labelled, &c, "R_B_02").unwrap(), "a chassis does not go in a turret's place");
        assert_eq!((d.page.up, d.prompt()), (Page::Turrets, Some(Prompt::SelectTurret)));
        assert_eq!(open(&d, &c), [Page::Chassis, Page::Turrets, Page::Armour, Page::Systems]);
        assert_eq!(places(&d, &c, Page::Turrets), [(Place::Turret("e_tur_bb".into()), None)]);
        assert_eq!(places(&d, &c, Page::Armour), [(Place::Slot("i_arm_b".into()), Some("i_arm_b_df".into()))]);
        assert_eq!(
            places(&d, &c, Page::Systems),
            [(Place::Slot("i_eng_b".into()), Some("i_eng_b_df".into()))],
            "no brain's place"
        );
        assert_eq!(d.source(&Labelled, &c).unwrap(), ["e_tur_bb_01"]);
        assert!(d.add(&Labelled, &c, "e_tur_bb_01").unwrap());
        assert_eq!((d.page.up, d.prompt()), (Page::Weapons, Some(Prompt::SelectWeapon)));
        assert_eq!(
            places(&d, &c, Page::Weapons),
            [(Place::Gun(1, "universal_br".into()), None), (Place::Gun(3, "central_bc".into()), None)]
        );
        assert_eq!(
            places(&d, &c, Page::Systems)[1..],
            [(Place::Slot("i_rdr_b".into()), Some("i_rdr_b_df".into())), (Place::Slot("i_def_b".into()), None)],
            "the turret's slots join; a default not researched leaves its place empty"
        );
        assert_eq!(d.source(&Labelled, &c).unwrap(), ["e_gun_bl_15", "e_gun_bc_06"], "a universal_r takes both");
        assert!(d.add(&Labelled, &c, "e_gun_bl_15").unwrap());
        assert_eq!(d.page.row(Page::Weapons), 1, "the fit stepped to the next socket");
        assert_eq!(d.source(&Labelled, &c).unwrap(), ["e_gun_bc_06"]);
        assert!(d.add(&Labelled, &c, "e_gun_bc_06").unwrap());
        assert_eq!(d.page.row(Page::Weapons), 0, "and wrapped round");
        assert!(!d.add(&Labelled, &c, "e_gun_bc_06").unwrap(), "a full socket takes nothing");
        assert!(d.turn_to(&Labelled, &c, Page::Ammo).unwrap());
        assert_eq!(d.prompt(), Some(Prompt::TuneUp));
        assert_eq!(d.source(&Labelled, &c).unwrap(), ["i_c15_b_df", "i_c15_b_02"]);
        assert!(d.add(&Labelled, &c, "i_c15_b_02").unwrap());
        assert_eq!(places(&d, &c, Page::Ammo), [(Place::Slot("i_c15_b".into()), Some("i_c15_b_02".into()))]);
        let design = assemble(&Labelled, &c, &d.project).unwrap();
        assert_eq!(design.parts.iter().filter(|p| *p == "i_c15_b_02").count(), 2, "both guns' clips");
        // Loading the written file gives the project back.
        let loaded = Designer::load(&Labelled, &design.dat, None).unwrap();
        assert_eq!(assemble(&Labelled, &c, &loaded.project).unwrap().dat, design.dat);
        // The turret off takes its guns and their clips' choice; the chassis off, all.
        d.turn_to(&Labelled, &c, Page::Turrets).unwrap();
        assert!(d.remove(&Labelled, &c, 0).unwrap());
        assert!(d.project.turret.is_empty() && d.project.guns.is_empty() && d.project.fits.is_empty());
        assert_eq!(open(&d, &c), [Page::Chassis, Page::Turrets, Page::Armour, Page::Systems]);
        d.turn_to(&Labelled, &c, Page::Chassis).unwrap();
        assert!(d.remove(&Labelled, &c, 0).unwrap());
        assert_eq!(d, Designer::default());
        // A medium factory offers chassis up to medium: not the large R_B_02.
        let medium = Designer { grade: Some(3), ..Designer::default() };
        assert_eq!(chassis_prefixes(Some(3)), ["r_t", "r_l", "r_m"]);
        assert_eq!(medium.source(&Labelled, &c).unwrap(), Vec::<String>::new());
        assert_eq!(Designer { grade: Some(4), ..medium }.source(&Labelled, &c).unwrap(), ["R_B_02"]);
    }
}
