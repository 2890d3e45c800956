//! Warbot designs as the original's factory designer makes them (openparkan
//! `docs/38-designs.md`, read and measured; `gameplay.md` §5.2):
//!
//! * **Fitting**: a chassis fills every labelled slot of its controller but brains
//!   (`i_brn_`) with the part `<label>_df` when the catalogue offers it; its turret
//!   goes on the first node labelled `e_tur_…` and must start with that label; the
//!   turret fills its slots (radar, deflector) the same way; a gun goes on a turret
//!   node labelled `central_<s>c` (it takes `e_gun_<s>c`), `universal_<s>l`
//!   (`e_gun_<s>l`), `universal_<s>r` (both, cannons first) or `universal_<s>s`
//!   (`e_gun_<s>s`), and fills its clip slot. A part chosen for a slot label (armour,
//!   an internal system, ammunition: it must start with the label) takes every slot of
//!   that label in place of the default. A part is offered when its research
//!   item is in the tree and researched (every part of the tree with `Iron_3D.ini`'s
//!   `FULL_RESEARCH_TREE`).
//! * **The file**: the original's `UNITS\*.dat`: `0xF0F1`, the Type (the turret's
//!   research role: battle `0x01008000`, transport `0x01002000`, builder
//!   `0x01004000`, HQ `0x01010000`, hero `0x01020000`), then 112-byte components depth
//!   first, each `objects.rlb`, the part id as the tree spells it, flags 1, its
//!   attachment (a slot's index, a socket's node), "name (code)", its class (0
//!   chassis, 1 turret, 2 armour, 3 internal part, radar or deflector, 4 gun, 5 clip)
//!   and its child count; children are slots first in slot order, then sockets in
//!   node order.
//! * **The unit box**: the design assembled as a unit loads; mass and spare payload,
//!   live top speed (its engines' drive, undamaged), Defence (the hull node's life ÷
//!   armour's keep, + the deflector's first coefficient × the shield's sector points
//!   with both), Offence (Σ guns' round damage × 1000 ÷ max(1, interval ms)), sensor
//!   range (the radar's), the two figures as percentages between `Iron_3D.ini`'s
//!   `[TEMP]` scales when `NORMALIZE` is set (0–6 550 and 0–24 400 shipped).
//! * **The price**: Σ `BuildOreCost` and Σ `BuildEnergyCost` of every part from the
//!   clan's tree, each researched and in the tree; the ore ÷ the factory's efficiency
//!   when above 0; 5 s. A design at or over its payload is not accepted.

use crate::research::{ItemLabel, ResearchTree};
use iron3d_core::{CombatSheet, Drive, MotionLimits, UnitClass};
use iron3d_formats::config::{IniFile, Iron3dIni};
use iron3d_formats::registry::unit_dat::{HEADER_SIZE, MAGIC, UnitDat, UnitRecord};
use iron3d_mission::{GameMissionBackend, PartLabels, names};
use iron3d_vfs::GameDir;

/// A paid robot's build time at a factory (seconds; read).
const BUILD_SECONDS: f32 = 5.0;

/// The roles of turret research items and the unit Type each gives (openparkan
/// `docs/30-turrets.md`, measured on every shipped assembly).
const TYPES: [(u8, u32); 5] = [
    (2, UnitClass::BATTLE_UNIT),
    (3, UnitClass::TRANSPORT),
    (4, UnitClass::BUILDER),
    (5, UnitClass::HQ),
    (6, UnitClass::HERO),
];

/// Why a design cannot be made: a part refused, or data that cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub enum DesignError {
    /// The designer or the factory refuses `part`.
    Refused {
        /// The part refused.
        part: String,
        /// Why.
        why: String,
    },
    /// The game's data could not be read.
    Data(String),
}

impl std::fmt::Display for DesignError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused { part, why } => write!(f, "{part}: {why}"),
            Self::Data(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for DesignError {}

fn refused(part: &str, why: impl Into<String>) -> DesignError {
    DesignError::Refused { part: part.to_string(), why: why.into() }
}

/// Where a part's labels come from (the game's data through the mission backend).
pub trait Parts {
    /// The labels of part `key`; `Ok(None)` when `objects.rlb` does not list it.
    ///
    /// # Errors
    /// Its data cannot be read.
    fn labels(&self, key: &str) -> Result<Option<PartLabels>, String>;

    /// The `ChassisType` of chassis `key` (1 flying, 2 walking, 3 wheeled, 4 tracked);
    /// `Ok(None)` when its data gives none.
    ///
    /// # Errors
    /// Its data cannot be read.
    fn chassis_type(&self, key: &str) -> Result<Option<u32>, String>;
}

impl Parts for GameMissionBackend {
    fn labels(&self, key: &str) -> Result<Option<PartLabels>, String> {
        self.part_labels(key).map_err(|e| e.to_string())
    }

    fn chassis_type(&self, key: &str) -> Result<Option<u32>, String> {
        GameMissionBackend::chassis_type(self, key).map_err(|e| e.to_string())
    }
}

/// What the designer offers: a clan's research tree, its items' labels, and whether
/// `FULL_RESEARCH_TREE` lifts the research gate.
pub struct Catalogue<'a> {
    /// The clan's tree.
    pub tree: &'a ResearchTree,
    /// Its items' labels, in item order.
    pub labels: &'a [ItemLabel],
    /// `FULL_RESEARCH_TREE`: every part the tree lists is offered.
    pub full: bool,
}

impl Catalogue<'_> {
    /// Whether the designer offers `key`.
    pub fn offers(&self, key: &str) -> bool {
        self.tree.item_of_part(key).is_some_and(|i| self.full || self.tree.researched(i))
    }

    /// The label of `key`'s research item: its name and code as the rows show them.
    pub fn label(&self, key: &str) -> Option<&ItemLabel> {
        self.labels.get(self.tree.item_of_part(key)? as usize)
    }

    /// `key` as the tree spells it (as given when the tree does not list it).
    fn spelling(&self, key: &str) -> String {
        self.tree.parts().find(|p| p.eq_ignore_ascii_case(key)).unwrap_or(key).to_string()
    }
}

/// The socket of a turret a gun goes on: its node, or its label when one socket has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Socket {
    /// The turret mesh's node index.
    Node(u32),
    /// The socket's label (`central_lc`).
    Label(String),
}

impl std::fmt::Display for Socket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Node(n) => write!(f, "on node {n}"),
            Self::Label(l) => write!(f, "labelled {l}"),
        }
    }
}

impl std::str::FromStr for Socket {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(s.parse().map_or_else(|_| Socket::Label(s.to_string()), Socket::Node))
    }
}

/// The parts asked for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Request {
    /// The chassis.
    pub chassis: String,
    /// The turret.
    pub turret: String,
    /// Guns by socket.
    pub guns: Vec<(Socket, String)>,
    /// Parts chosen for slots, by the slot's label (`i_arm_b`, `i_c15_b`): each slot of
    /// that label on the design takes it in place of its default.
    pub fits: Vec<(String, String)>,
}

/// One component of a design and what hangs on it.
#[derive(Debug, Clone, PartialEq)]
struct Fit {
    key: String,
    class: u32,
    link: i32,
    children: Vec<Fit>,
}

/// The slot class a `.dat` writes for a part fitted to a slot labelled `label`.
pub(crate) fn slot_class(label: &str) -> u32 {
    let l = label.to_ascii_lowercase();
    match l.strip_prefix("i_") {
        Some(rest) if rest.starts_with("arm_") => 2,
        Some(rest) if rest.starts_with('c') && rest[1..].starts_with(|c: char| c.is_ascii_digit()) => 5,
        _ => 3,
    }
}

/// The gun prefixes a socket label takes: `e_gun_` + its last two letters, both `<s>c`
/// and `<s>l` when the last is `r` (cannons first).
pub(crate) fn gun_prefixes(label: &str) -> Vec<String> {
    let l = label.to_ascii_lowercase();
    let tail: Vec<char> = l.chars().rev().take(2).collect();
    match tail.as_slice() {
        ['r', size] => vec![format!("e_gun_{size}c"), format!("e_gun_{size}l")],
        [kind, size] => vec![format!("e_gun_{size}{kind}")],
        _ => Vec::new(),
    }
}

/// Whether `key` starts with `prefix`, ASCII case ignored (by bytes: a key of any text
/// is compared, never cut inside a character).
pub(crate) fn starts_with(key: &str, prefix: &str) -> bool {
    key.as_bytes().get(..prefix.len()).is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// A design: the `.dat` the designer writes and its parts in tree order.
#[derive(Debug, Clone, PartialEq)]
pub struct Design {
    /// The unit file.
    pub dat: UnitDat,
    /// Every part, chassis first, in the file's order.
    pub parts: Vec<String>,
    /// Its name as the designer shows it ("LFW-X Warrior").
    pub name: String,
}

/// Fits `request` as the designer does (see the module docs).
///
/// # Errors
/// A part that is not in `objects.rlb` or the tree, not offered, or does not fit, or
/// data that cannot be read.
pub fn assemble(parts_source: &dyn Parts, catalogue: &Catalogue, request: &Request) -> Result<Design, DesignError> {
    let labels = |key: &str| -> Result<PartLabels, DesignError> {
        parts_source.labels(key).map_err(DesignError::Data)?.ok_or_else(|| refused(key, "not in objects.rlb"))
    };
    let offered = |key: &str| -> Result<(), DesignError> {
        match catalogue.offers(key) {
            true => Ok(()),
            false => Err(refused(key, format!("not researched or not in the tree ({})", catalogue.tree.path))),
        }
    };
    // What fills a part's labelled slots: the part chosen for the slot's label, else
    // its default when offered; brains never.
    let fill = |l: &PartLabels| -> Result<Vec<Fit>, DesignError> {
        let mut out = Vec::new();
        for (slot, label) in l.slots.iter().filter(|(_, label)| !starts_with(label, "i_brn_")) {
            let chosen = request.fits.iter().find(|(l, _)| l.eq_ignore_ascii_case(label)).map(|(_, p)| p);
            let key = match chosen {
                Some(part) if !starts_with(part, label) => {
                    return Err(refused(part, format!("does not fit slot {label}, which takes {label} parts")));
                }
                Some(part) => {
                    offered(part)?;
                    labels(part)?;
                    part.clone()
                }
                None => format!("{label}_df"),
            };
            if chosen.is_some() || (catalogue.offers(&key) && parts_source.labels(&key).is_ok_and(|p| p.is_some())) {
                out.push(Fit { key, class: slot_class(label), link: *slot as i32, children: Vec::new() });
            }
        }
        Ok(out)
    };
    let chassis = &request.chassis;
    if !["r_t", "r_l", "r_m", "r_b"].iter().any(|p| starts_with(chassis, p)) {
        return Err(refused(chassis, "not a chassis (the chassis page lists r_t, r_l, r_m and r_b parts)"));
    }
    offered(chassis)?;
    let chassis_labels = labels(chassis)?;
    let (socket, socket_label) = (0u32..)
        .zip(&chassis_labels.nodes)
        .find(|(_, l)| starts_with(l, "e_tur_"))
        .ok_or_else(|| refused(chassis, "no turret socket (no node labelled e_tur_)"))?;
    let turret = &request.turret;
    if !starts_with(turret, socket_label) {
        return Err(refused(turret, format!("does not fit {chassis}'s turret socket, which takes {socket_label}")));
    }
    offered(turret)?;
    let turret_labels = labels(turret)?;
    let mut guns = Vec::new();
    let mut slot_labels: Vec<(u32, String)> = [&chassis_labels.slots[..], &turret_labels.slots[..]].concat();
    for (socket, gun) in &request.guns {
        let sockets: Vec<(u32, &String)> = (0u32..)
            .zip(&turret_labels.nodes)
            .filter(|(_, l)| starts_with(l, "central_") || starts_with(l, "universal_"))
            .filter(|(n, l)| match socket {
                Socket::Node(at) => n == at,
                Socket::Label(name) => l.eq_ignore_ascii_case(name),
            })
            .collect();
        let [(node, label)] = sockets.as_slice() else {
            let why = match sockets.len() {
                0 => format!("{turret} has no gun socket {socket}"),
                n => format!("{turret} has {n} gun sockets {socket}: name one by its node"),
            };
            return Err(refused(gun, why));
        };
        let takes = gun_prefixes(label);
        if !takes.iter().any(|p| starts_with(gun, p)) {
            let takes = takes.join(" or ");
            return Err(refused(gun, format!("does not fit socket {node} ({label}) of {turret}, which takes {takes}")));
        }
        if guns.iter().any(|g: &Fit| g.link == *node as i32) {
            return Err(refused(gun, format!("socket {node} of {turret} already holds a gun")));
        }
        offered(gun)?;
        let gun_labels = labels(gun)?;
        guns.push(Fit { key: gun.clone(), class: 4, link: *node as i32, children: fill(&gun_labels)? });
        slot_labels.extend(gun_labels.slots);
    }
    guns.sort_by_key(|g| g.link);
    if let Some((label, part)) =
        request.fits.iter().find(|(l, _)| !slot_labels.iter().any(|s| s.1.eq_ignore_ascii_case(l)))
    {
        return Err(refused(part, format!("the design has no slot labelled {label}")));
    }
    let turret_fit = Fit {
        key: turret.clone(),
        class: 1,
        link: socket as i32,
        children: fill(&turret_labels)?.into_iter().chain(guns).collect(),
    };
    let root = Fit {
        key: chassis.clone(),
        class: 0,
        link: -1,
        children: fill(&chassis_labels)?.into_iter().chain([turret_fit]).collect(),
    };
    let role = catalogue.label(turret).map(|l| l.role);
    let class_word = TYPES
        .iter()
        .find(|t| Some(t.0) == role)
        .map(|t| t.1)
        .ok_or_else(|| refused(turret, format!("its research item's role {role:?} names no unit type")))?;
    let (dat, parts) = write(catalogue, &root, class_word)?;
    let chassis_type = parts_source.chassis_type(chassis).map_err(DesignError::Data)?;
    // The designer's title: the robot's name with `X` for its number (`docs/38-designs.md`, read).
    Ok(Design { dat, parts, name: names::robot_name(chassis, chassis_type, class_word, None) })
}

/// The `.dat` of a fitted tree.
fn write(catalogue: &Catalogue, root: &Fit, class_word: u32) -> Result<(UnitDat, Vec<String>), DesignError> {
    fn walk(catalogue: &Catalogue, fit: &Fit, out: &mut Vec<(String, UnitRecord)>) -> Result<(), DesignError> {
        let key = catalogue.spelling(&fit.key);
        let text = catalogue.label(&fit.key).map_or(String::new(), |l| format!("{} ({})", l.name, l.code));
        let (text, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
        let text = &text[..text.len().min(32)];
        let children = fit.children.len() as u32;
        let record = UnitRecord::new(&key, 1, fit.link, text, fit.class, children)
            .map_err(|e| DesignError::Data(format!("{key}: {e}")))?;
        out.push((key, record));
        fit.children.iter().try_for_each(|c| walk(catalogue, c, out))
    }
    let mut records = Vec::new();
    walk(catalogue, root, &mut records)?;
    let mut header = [0u8; HEADER_SIZE];
    header[..2].copy_from_slice(&MAGIC);
    header[4..].copy_from_slice(&class_word.to_le_bytes());
    let (parts, records) = records.into_iter().unzip();
    Ok((UnitDat { header, records }, parts))
}

/// The designer's scales for Defence and Offence (`Iron_3D.ini` `[TEMP]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scales {
    /// `NORMALIZE`: the figures are shown as percentages.
    pub normalize: bool,
    /// `OFFENCE_MIN`, `OFFENCE_MAX`.
    pub offence: [f32; 2],
    /// `DEFENCE_MIN`, `DEFENCE_MAX`.
    pub defence: [f32; 2],
}

impl Default for Scales {
    /// As the original ships them.
    fn default() -> Self {
        Self { normalize: true, offence: [0.0, 6550.0], defence: [0.0, 24400.0] }
    }
}

impl Scales {
    /// The scales `ini` sets (the shipped ones for keys it lacks).
    pub fn from_ini(ini: &Iron3dIni) -> Self {
        let d = Self::default();
        let f = |s: &Option<iron3d_formats::config::Setting<f64>>, or: f32| {
            s.as_ref().and_then(|s| s.value).map_or(or, |v| v as f32)
        };
        Self {
            normalize: ini.normalize.as_ref().and_then(|s| s.value).map_or(d.normalize, |v| v != 0),
            offence: [f(&ini.offence_min, d.offence[0]), f(&ini.offence_max, d.offence[1])],
            defence: [f(&ini.defence_min, d.defence[0]), f(&ini.defence_max, d.defence[1])],
        }
    }

    /// `value` as the unit box shows it: 0 at or below MIN, 100 at or above MAX, else
    /// round(100 ÷ (MAX − MIN) × (value − MIN)); the value itself without `NORMALIZE`.
    pub fn shown(&self, value: f32, [min, max]: [f32; 2]) -> f32 {
        match self.normalize {
            false => value,
            true if value <= min => 0.0,
            true if value >= max => 100.0,
            true => (100.0 / (max - min) * (value - min)).round(),
        }
    }
}

/// What the unit box shows of a design.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Rating {
    /// Total mass (kg).
    pub mass: f32,
    /// Spare payload (kg; 0 without a payload in the data).
    pub spare: f32,
    /// Live top speed (m/s).
    pub speed: f32,
    /// Defence, raw.
    pub defence: f32,
    /// Offence, raw.
    pub offence: f32,
    /// The radar's range (0 without one).
    pub sensor_range: f32,
}

impl Rating {
    /// The unit box of a design whose body and limits are `sheet` and `motion`, its
    /// chassis carrying `payload` (openparkan `docs/38-designs.md`, read).
    pub fn of(sheet: &CombatSheet, motion: &MotionLimits, payload: Option<f32>) -> Self {
        let f = &sheet.figures;
        let spare = payload.map_or(0.0, |p| (p + f.own_mass - f.mass).max(0.0));
        let drive = Drive { engines: sheet.engines.iter().map(|e| e.drive).sum(), left: 1.0, right: 1.0 };
        let speed = motion.live(Some(&drive)).top_speed.unwrap_or(0.0);
        let hull = sheet.hull.and_then(|n| sheet.nodes.get(usize::from(n))).map_or(0.0, |n| n.hit_points);
        let keep = if sheet.armour[0] > 0.0 { sheet.armour[0] } else { 1.0 };
        let deflected = sheet.shield.as_ref().map_or(0.0, |s| s.coefficients[0] * s.points);
        let round = |g: &iron3d_core::GunSheet| g.round.hit_points + g.round.hit.damage;
        let offence = sheet.guns.iter().map(|g| round(g) * 1000.0 / g.interval_ms.max(1.0)).sum();
        Self {
            mass: f.mass,
            spare,
            speed,
            defence: hull / keep + deflected,
            offence,
            sensor_range: sheet.radar.as_ref().map_or(0.0, |r| r.range),
        }
    }
}

/// A design fitted, rated as the unit box shows it and priced as the factory charges it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rated {
    /// The design.
    pub design: Design,
    /// Its unit box.
    pub rating: Rating,
    /// Its price.
    pub price: Price,
}

impl Rated {
    /// Whether the designer accepts it: only with spare payload above 0 (read; the
    /// turret [`assemble`] already asks for).
    ///
    /// # Errors
    /// The refusal, naming the chassis.
    pub fn acceptable(&self) -> Result<(), DesignError> {
        match self.rating.spare > 0.0 {
            true => Ok(()),
            false => Err(refused(
                self.design.parts.first().map_or("the chassis", String::as_str),
                format!(
                    "the design weighs {:.0} kg, leaving no spare payload: it cannot be accepted",
                    self.rating.mass
                ),
            )),
        }
    }
}

/// Fits `request` ([`assemble`]), assembles the design as a unit loads, and prices it
/// at a factory of `efficiency` (a design without spare payload is rated too; see
/// [`Rated::acceptable`]).
///
/// # Errors
/// A part refused (named), or data that cannot be read.
pub fn rate(
    backend: &GameMissionBackend,
    catalogue: &Catalogue,
    request: &Request,
    efficiency: f32,
) -> Result<Rated, DesignError> {
    let design = assemble(backend, catalogue, request)?;
    let (extras, payload) = backend.assemble_scheme(&design.dat).map_err(|e| DesignError::Data(e.to_string()))?;
    let sheet = extras.combat.ok_or_else(|| DesignError::Data("the design's parts carry no node table".into()))?;
    let rating = Rating::of(&sheet, &extras.motion.unwrap_or_default(), payload);
    let price = price(catalogue.tree, &design.parts, efficiency)?;
    Ok(Rated { design, rating, price })
}

/// A clan's catalogue held whole: its tree, its items' labels and `FULL_RESEARCH_TREE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    /// The clan's tree.
    pub tree: ResearchTree,
    /// Its items' labels.
    pub labels: Vec<ItemLabel>,
    /// `FULL_RESEARCH_TREE`.
    pub full: bool,
}

impl Offer {
    /// The offer of `tree` in `game`: its items' labels read from its file, the switch
    /// from `ini`.
    ///
    /// # Errors
    /// The tree's file cannot be read or its items' labels parsed.
    pub fn read(game: &GameDir, tree: ResearchTree, ini: &Iron3dIni) -> Result<Self, String> {
        let bytes = game.read_file(&tree.path).map_err(|e| format!("{}: {e}", tree.path))?;
        let labels = crate::research::item_labels(&tree.path, &bytes)?;
        let full = ini.full_research_tree.as_ref().and_then(|s| s.value).is_some_and(|v| v != 0);
        Ok(Self { tree, labels, full })
    }

    /// Its catalogue.
    pub fn catalogue(&self) -> Catalogue<'_> {
        Catalogue { tree: &self.tree, labels: &self.labels, full: self.full }
    }
}

/// `Iron_3D.ini` of `game`, when it has one (the defaults otherwise).
///
/// # Errors
/// The file cannot be read.
pub fn settings(game: &GameDir) -> Result<Iron3dIni, String> {
    const FILE: &str = "Iron_3D.ini";
    Ok(match game.resolve(FILE) {
        Some(_) => Iron3dIni::from_ini(&IniFile::parse(&game.read_file(FILE).map_err(|e| format!("{FILE}: {e}"))?)),
        None => Iron3dIni::default(),
    })
}

/// What a design costs at a factory.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Price {
    /// Ore: Σ `BuildOreCost` ÷ the factory's efficiency (when above 0).
    pub ore: f32,
    /// Power: Σ `BuildEnergyCost`.
    pub power: f32,
    /// Time (s).
    pub seconds: f32,
}

/// The price of `parts` from `tree` at a factory of `efficiency`.
///
/// # Errors
/// A part not researched or not in the tree (the factory's "Technology to create").
pub fn price(tree: &ResearchTree, parts: &[String], efficiency: f32) -> Result<Price, DesignError> {
    if let Some(part) = tree.locked_component(parts) {
        return Err(refused(part, format!("not researched or not in the tree ({})", tree.path)));
    }
    let (ore, power) = tree.build_price(parts).ok_or_else(|| DesignError::Data("a part left the tree".into()))?;
    Ok(Price { ore: per_efficiency(ore, efficiency), power, seconds: BUILD_SECONDS })
}

/// `ore` at a factory of `efficiency`: divided by it when above 0 (`NewfOreCost`, read).
pub fn per_efficiency(ore: f32, efficiency: f32) -> f32 {
    if efficiency > 0.0 { ore / efficiency } else { ore }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests: a failed unwrap is a failed test")]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn socket_labels_name_the_guns_they_take() {
        assert_eq!(gun_prefixes("central_lc"), ["e_gun_lc"]);
        assert_eq!(gun_prefixes("universal_bl"), ["e_gun_bl"]);
        assert_eq!(gun_prefixes("universal_mr"), ["e_gun_mc", "e_gun_ml"]);
        assert_eq!(gun_prefixes("universal_ls"), ["e_gun_ls"]);
        assert_eq!([slot_class("i_arm_b"), slot_class("i_c15_b"), slot_class("i_eng_l")], [2, 5, 3]);
        assert!(starts_with("E_GUN_LC_01", "e_gun_lc") && !starts_with("e_gun_l", "e_gun_lc"));
        assert!(!starts_with("éé_l", "r_l"), "a key is compared by bytes, never cut inside a character");
    }

    /// Parts with labelled slots and sockets, as the original's chassis, turrets and guns
    /// carry them.
    pub(crate) struct Labelled;

    impl Parts for Labelled {
        fn labels(&self, key: &str) -> Result<Option<PartLabels>, String> {
            let (nodes, slots): (&[&str], &[(u32, &str)]) = match key.to_ascii_lowercase().as_str() {
                "r_b_02" => (&["", "e_tur_bb"], &[(0, "i_eng_b"), (1, "i_brn_b"), (3, "i_arm_b")]),
                "e_tur_bb_01" => (&["", "universal_br", "", "central_bc"], &[(1, "i_rdr_b"), (3, "i_def_b")]),
                "e_gun_bl_15" | "e_gun_bc_06" => (&[""], &[(0, "i_c15_b")]),
                k if k.starts_with("i_") => (&[], &[]),
                _ => return Ok(None),
            };
            let nodes = nodes.iter().map(|s| s.to_string()).collect();
            let slots = slots.iter().map(|&(i, s)| (i, s.to_string())).collect();
            Ok(Some(PartLabels { nodes, slots }))
        }

        fn chassis_type(&self, key: &str) -> Result<Option<u32>, String> {
            Ok(key.eq_ignore_ascii_case("r_b_02").then_some(1))
        }
    }

    /// A tree of one item a part, `unresearched` left in the tree but not researched.
    pub(crate) fn tree(parts: &[&str], unresearched: &[&str]) -> (ResearchTree, Vec<ItemLabel>) {
        let node = |p: &&str| crate::research::ResearchNode {
            name: p.to_uppercase(),
            parts: vec![p.to_string()],
            research_energy: 0.0,
            research_ore: 0.0,
            build_energy: 1.0,
            build_ore: 2.0,
            state: if unresearched.contains(p) { 4 } else { 7 },
            active: false,
            prerequisites: Vec::new(),
            unlocks: Vec::new(),
        };
        let label = |p: &&str| ItemLabel {
            role: if p.starts_with("e_tur") { 2 } else { 255 },
            name: p.to_string(),
            code: "C".into(),
            stats: String::new(),
        };
        let tree = ResearchTree { path: "t.trf".into(), nodes: parts.iter().map(node).collect() };
        (tree, parts.iter().map(label).collect())
    }

    /// Defaults fill the labelled slots the tree offers, brains never; the file holds
    /// slots first in slot order, then sockets in node order, with the original's classes.
    #[test]
    fn a_design_fills_its_slots_with_their_defaults_and_writes_slots_before_sockets() {
        let parts = ["R_B_02", "e_tur_bb_01", "e_gun_bl_15", "e_gun_bc_06", "i_eng_b_df", "i_brn_b_df"];
        let (tree, labels) = tree(
            &[&parts[..], &["i_arm_b_df", "i_rdr_b_df", "i_def_b_df", "i_c15_b_df", "i_c15_b_02"]].concat(),
            &["i_def_b_df"],
        );
        let catalogue = Catalogue { tree: &tree, labels: &labels, full: false };
        let guns =
            vec![(Socket::Node(3), "e_gun_bc_06".into()), (Socket::Label("universal_br".into()), "E_GUN_BL_15".into())];
        let request = Request { chassis: "r_b_02".into(), turret: "e_tur_bb_01".into(), guns, fits: Vec::new() };
        let d = assemble(&Labelled, &catalogue, &request).unwrap();
        let c = d.dat.components().unwrap();
        let shape: Vec<_> = c.iter().map(|c| (c.key.as_str(), c.component_type, c.link, c.parent)).collect();
        assert_eq!(
            shape,
            [
                ("R_B_02", 0, -1, None),
                ("i_eng_b_df", 3, 0, Some(0)),
                ("i_arm_b_df", 2, 3, Some(0)),
                ("e_tur_bb_01", 1, 1, Some(0)),
                ("i_rdr_b_df", 3, 1, Some(3)),
                ("e_gun_bl_15", 4, 1, Some(3)),
                ("i_c15_b_df", 5, 0, Some(5)),
                ("e_gun_bc_06", 4, 3, Some(3)),
                ("i_c15_b_df", 5, 0, Some(7)),
            ],
            "no brain, no deflector (not researched); guns by node, as the tree spells them"
        );
        assert_eq!(d.dat.class_word(), 0x0100_8000);
        assert_eq!(d.dat.records[0].description(), "R_B_02 (C)");
        let on = |socket| Request { guns: vec![(socket, "e_gun_bc_06".into())], ..request.clone() };
        let no_socket = assemble(&Labelled, &catalogue, &on(Socket::Node(2))).unwrap_err().to_string();
        assert!(no_socket.ends_with("e_tur_bb_01 has no gun socket on node 2"), "{no_socket}");
        assert_eq!(d.name, "LFW-X Warrior", "the recording's L-2f with a battle turret");
        assert_eq!(names::robot_name("R_L_03", None, 0, None), "S??-X Unknown");
        let first = names::robot_name("R_B_02", Some(1), UnitClass::BATTLE_UNIT, Some(2));
        assert_eq!(first, "LFW-2 Warrior", "Mission 02's first bot");
        // With FULL_RESEARCH_TREE the deflector's default is offered too.
        let full = Catalogue { full: true, ..catalogue };
        let d = assemble(&Labelled, &full, &request).unwrap();
        assert!(d.parts.iter().any(|p| p == "i_def_b_df"));
        let price = price(&tree, &d.parts, 1.0);
        assert!(
            matches!(price, Err(DesignError::Refused { part, .. }) if part == "i_def_b_df"),
            "the factory still asks for research"
        );
        // A part chosen for a slot label takes every slot of it; one of another label,
        // one not offered, or a label the design lacks is refused naming the part.
        let chosen = |label: &str, part: &str| Request { fits: vec![(label.into(), part.into())], ..request.clone() };
        let d = assemble(&Labelled, &catalogue, &chosen("I_C15_B", "i_c15_b_02")).unwrap();
        assert_eq!(d.parts.iter().filter(|p| *p == "i_c15_b_02").count(), 2, "{:?}", d.parts);
        assert!(!d.parts.iter().any(|p| p == "i_c15_b_df"));
        let refusal = |r: &Request| match assemble(&Labelled, &catalogue, r) {
            Err(DesignError::Refused { part, why }) => (part, why),
            other => panic!("{other:?}"),
        };
        assert!(refusal(&chosen("i_arm_b", "i_eng_b_df")).1.contains("does not fit slot i_arm_b"));
        assert!(refusal(&chosen("i_def_b", "i_def_b_df")).1.contains("not researched"));
        let (part, why) = refusal(&chosen("i_arm_m", "i_arm_m_01"));
        assert_eq!(part, "i_arm_m_01");
        assert!(why.contains("no slot labelled i_arm_m"), "{why}");
    }

    /// The unit box's figures from a body (openparkan `docs/38-designs.md`).
    #[test]
    fn the_unit_box_rates_hull_armour_shield_guns_and_payload() {
        use iron3d_core::{Gear, GunSheet, HitSheet, NodeSheet, RoundSheet, ShieldSheet};
        let node = |hit_points| NodeSheet { hit_points, parent: None, vital: false, gear: Gear::None };
        let gun = |interval_ms, hit_points, damage| {
            let hit = HitSheet { kind: 2, damage, radius: 0.0 };
            let round = RoundSheet { speed: 100.0, range: 100.0, hit_points, flags: 0, hit, seeker: None };
            let (magazine, capacitor, shot_energy, barrels, volley, stroke_ms) = (-1, 0.0, 0.0, 1, false, None);
            GunSheet {
                node: 0,
                magazine,
                capacitor,
                shot_energy,
                interval_ms,
                barrels,
                volley,
                stroke_ms,
                arm: false,
                round,
            }
        };
        let shield = ShieldSheet {
            points: 300.0,
            recharge: 0.0,
            charge_per_point: 0.0,
            node: 0,
            coefficients: [0.5; 6],
            deflector_node: 0,
        };
        let mut sheet = CombatSheet {
            nodes: vec![node(0.0), node(1500.0)],
            hull: Some(1),
            armour: [0.51, 0.0],
            guns: vec![gun(1200.0, 200.0, 25.0), gun(0.0, 10.0, 0.0)],
            shield: Some(shield),
            engines: vec![iron3d_core::EngineSheet { drive: 0.8, node: 0 }],
            ..CombatSheet::default()
        };
        (sheet.figures.mass, sheet.figures.own_mass) = (26_000.0, 10_000.0);
        let motion = MotionLimits { top_speed: Some(30.0), load: 39.0 / 55.0, ..MotionLimits::default() };
        let r = Rating::of(&sheet, &motion, Some(55_000.0));
        assert_eq!(r.defence, 1500.0 / 0.51 + 0.5 * 300.0, "hull ÷ armour's keep + deflector × sector");
        assert_eq!(r.offence, 225.0 * 1000.0 / 1200.0 + 10.0 * 1000.0, "an interval under 1 ms counts as 1");
        assert_eq!(r.spare, 55_000.0 + 10_000.0 - 26_000.0);
        assert_eq!(r.speed, 30.0 * (0.8 * (1.0 + 39.0 / 55.0) / 2.0), "top × E × (1 + r) ÷ 2");
    }

    #[test]
    fn figures_show_as_the_original_normalises_them() {
        let s = Scales::default();
        // The recording's first unit box: 1 500 HP over mark-1 armour's 0.51.
        assert_eq!(s.shown(1500.0 / 0.51, s.defence), 12.0);
        assert_eq!([s.shown(-1.0, s.offence), s.shown(7000.0, s.offence)], [0.0, 100.0]);
        let raw = Scales { normalize: false, ..s };
        assert_eq!(raw.shown(2957.0, raw.defence), 2957.0);
    }
}
