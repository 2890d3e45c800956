//! `data.tma` missions (`docs/reference/world.md` §1): paths, clans, placed objects with their
//! ordered property bags, the land path, the epilogue and the extra records. Read with
//! a bounded sequential cursor that must end exactly at end of file; written back
//! byte for byte.

use super::{Diagnostic, PutLe, count_u32};
use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::options::ReadOptions;

/// Known `format_version`.
pub const FORMAT_VERSION: u32 = 1;
/// Known clan section version (valid range 1…6).
pub const CLAN_VERSION: u32 = 6;
/// Known object section version.
pub const OBJECT_VERSION: u32 = 10;
/// Known property schema version.
pub const PROPERTY_SCHEMA_VERSION: u32 = 1;
/// Known extra section version.
pub const EXTRA_VERSION: u32 = 1;
/// `class_or_flags` of every retail placed object.
pub const OBJECT_CLASS_FLAGS: u32 = 0x8000_0002;

/// An LP string (`u32` length + bytes, no terminator). Raw bytes are canonical
/// (confirmed); [`LpString::display`] decodes CP1251 for display only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct LpString(pub Vec<u8>);

impl LpString {
    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// CP1251 decoding of every byte (NULs included), for display only.
    pub fn display(&self) -> String {
        encoding_rs::WINDOWS_1251.decode_without_bom_handling(&self.0).0.into_owned()
    }

    /// True for an empty string.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn read(c: &mut Cursor<'_>, what: &'static str) -> Result<Self> {
        let len = c.u32()?;
        c.check_count(u64::from(len), 1, what)?;
        Ok(Self(c.take(len as usize)?.to_vec()))
    }

    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        out.put_u32(count_u32(self.0.len(), "LP string length")?);
        out.extend_from_slice(&self.0);
        Ok(())
    }
}

impl From<&str> for LpString {
    fn from(s: &str) -> Self {
        Self(s.as_bytes().to_vec())
    }
}

/// A path (confirmed): `path_id` is referenced by scripts and is NOT the array index.
#[derive(Debug, Clone, PartialEq)]
pub struct PathRecord {
    /// Script-visible id.
    pub path_id: i32,
    /// World points.
    pub points: Vec<[f32; 3]>,
}

/// The clan type word of a clan record (`gameplay.md` §1.1, openparkan
/// `docs/04-missions.md` and `docs/27-ownership.md`: read and measured).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClanType;

impl ClanType {
    /// Nature: the animals.
    pub const NATURE: u32 = 0;
    /// The player's clan.
    pub const PLAYER: u32 = 1;
    /// An enemy (computer) clan.
    pub const ENEMY: u32 = 2;
    /// A neutral clan: it never fights and nobody's radar lists it.
    pub const NEUTRAL: u32 = 3;

    /// The type's name (`nature`, `player`, `enemy`, `neutral`; `type N` for a word
    /// the original does not use).
    pub fn name(word: u32) -> String {
        match word {
            Self::NATURE => "nature".into(),
            Self::PLAYER => "player".into(),
            Self::ENEMY => "enemy".into(),
            Self::NEUTRAL => "neutral".into(),
            other => format!("type {other}"),
        }
    }
}

/// One zone of a clan record: a nature clan's migration areal (pasture), not a
/// script area (`gameplay.md` §1.1 and §1.4; read, measured: 12 of 15 nature clans
/// carry any).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zone {
    /// Zone kind (the word the older reading took for a record count).
    pub kind: u32,
    /// Centre (game units).
    pub centre: [f32; 3],
    /// Inner radius.
    pub inner: f32,
    /// Outer radius.
    pub outer: f32,
}

/// A clan record (openparkan `docs/04-missions.md`, read and measured; corrects
/// `docs/reference/world.md` §1.4's mode-dependent body: every clan type carries the
/// same fields).
#[derive(Debug, Clone, PartialEq)]
pub struct Clan {
    /// Clan name.
    pub name: LpString,
    /// Raw id (−1 in every shipped record).
    pub raw_id: i32,
    /// Base anchor X.
    pub anchor_x: f32,
    /// Base anchor Y.
    pub anchor_y: f32,
    /// The clan type: 0 nature, 1 player, 2 enemy, 3 neutral (`gameplay.md` §1.1; read, measured).
    pub mode: u32,
    /// Script base path, e.g. `MISSIONS\SCRIPTS\default` (clan table version > 1).
    pub script: LpString,
    /// Zones (version > 2).
    pub zones: Vec<Zone>,
    /// Research tree path or empty (version > 3).
    pub research_tree: LpString,
    /// The clan's minds: its robot cap (version > 4; `gameplay.md` §1.1, read, measured 2..17).
    pub minds: i32,
    /// Relation table in physical order: other clan name and word (0 hostile, 1 neutral,
    /// 2 allied; version > 5; `gameplay.md` §1.2, read and measured).
    pub relations: Vec<(LpString, i32)>,
}

impl Clan {
    /// A clan of type `mode` with a script base, a research tree path (or empty) and
    /// its minds; no zones, no relations.
    pub fn new(name: &str, mode: u32, anchor: [f32; 2], script: &str, trf: &str, minds: i32) -> Self {
        Self {
            name: name.into(),
            raw_id: -1,
            anchor_x: anchor[0],
            anchor_y: anchor[1],
            mode,
            script: script.into(),
            zones: Vec::new(),
            research_tree: trf.into(),
            minds,
            relations: Vec::new(),
        }
    }

    /// The clan's minds; a negative word reads as none.
    pub fn minds(&self) -> u32 {
        u32::try_from(self.minds).unwrap_or(0)
    }
}

/// A typed property value (inferred: `raw_value[0]` is the type, `raw_value[1]` the value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PropertyValue {
    /// Type 0: a float.
    Float(f32),
    /// Type 1: an integer.
    Int(i32),
    /// Another type word: the raw type and first value word.
    Raw {
        /// `raw_value[0]`.
        kind: u32,
        /// `raw_value[1]`.
        value: u32,
    },
}

/// One property: four raw words and a name (confirmed framing, inferred typing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    /// The 16 raw value bytes as four words, kept exactly.
    pub raw_value: [u32; 4],
    /// Property name (case-sensitive match).
    pub name: LpString,
}

impl Property {
    /// A float property (type 0).
    pub fn float(name: &str, value: f32) -> Self {
        Self { raw_value: [0, value.to_bits(), 0, 0], name: name.into() }
    }

    /// An integer property (type 1).
    pub fn int(name: &str, value: i32) -> Self {
        Self { raw_value: [1, value as u32, 0, 0], name: name.into() }
    }

    /// The typed reading of the first value word (inferred).
    pub fn value(&self) -> PropertyValue {
        match self.raw_value[0] {
            0 => PropertyValue::Float(f32::from_bits(self.raw_value[1])),
            1 => PropertyValue::Int(self.raw_value[1] as i32),
            kind => PropertyValue::Raw { kind, value: self.raw_value[1] },
        }
    }
}

/// A placed object (confirmed framing, `docs/reference/world.md` §1.5).
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedObject {
    /// Inferred: 0 building, 1 warbot, 2 tree, 3 stone.
    pub raw_kind: u32,
    /// `0x80000002` for every retail object (strict check).
    pub class_or_flags: u32,
    /// Prototype key or unit `.dat` path.
    pub resource_name: LpString,
    /// Clan / SuperAI slot index (inferred; version > 2).
    pub raw_after_resource: u32,
    /// Inferred "order" (version > 3).
    pub identity_or_clan_raw: u32,
    /// World position.
    pub position: [f32; 3],
    /// Euler angles in radians, `R = Rz·Ry·Rx`.
    pub orientation: [f32; 3],
    /// Scale (version ≥ 10; `(1,1,1)` otherwise).
    pub scale: [f32; 3],
    /// Instance name (version > 6), may be empty.
    pub instance_name: LpString,
    /// Opaque (version > 7).
    pub raw_after_name: u32,
    /// Opaque link (version > 8).
    pub link0: i32,
    /// Opaque link (version > 8).
    pub link1: i32,
    /// Property schema version (= 1; version > 5 with the property block).
    pub property_schema_version: u32,
    /// The ordered property bag: order, duplicates and raw values kept.
    pub properties: Vec<Property>,
}

impl PlacedObject {
    /// A new object with retail defaults (class flags, unit scale, schema version 1).
    pub fn new(raw_kind: u32, resource_name: &str, position: [f32; 3]) -> Self {
        Self {
            raw_kind,
            class_or_flags: OBJECT_CLASS_FLAGS,
            resource_name: resource_name.into(),
            raw_after_resource: 0,
            identity_or_clan_raw: 0,
            position,
            orientation: [0.0; 3],
            scale: [1.0; 3],
            instance_name: LpString::default(),
            raw_after_name: 0,
            link0: -1,
            link1: -1,
            property_schema_version: PROPERTY_SCHEMA_VERSION,
            properties: Vec::new(),
        }
    }

    /// Appends a property (builder style).
    #[must_use]
    pub fn with_property(mut self, property: Property) -> Self {
        self.properties.push(property);
        self
    }

    /// Sets the orientation (radians, `R = Rz·Ry·Rx`).
    #[must_use]
    pub fn with_orientation(mut self, orientation: [f32; 3]) -> Self {
        self.orientation = orientation;
        self
    }

    /// Sets the scale.
    #[must_use]
    pub fn with_scale(mut self, scale: [f32; 3]) -> Self {
        self.scale = scale;
        self
    }

    /// Sets the instance name.
    #[must_use]
    pub fn with_instance_name(mut self, name: &str) -> Self {
        self.instance_name = name.into();
        self
    }

    /// Sets the clan / SuperAI slot word (`raw_after_resource`).
    #[must_use]
    pub fn with_clan_slot(mut self, slot: u32) -> Self {
        self.raw_after_resource = slot;
        self
    }

    /// The first property whose name matches exactly (case-sensitive), as the loader does.
    pub fn first_property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name.0 == name.as_bytes())
    }

    /// True when the resource name is a unit `.dat` path (ASCII case-insensitive).
    pub fn is_unit_reference(&self) -> bool {
        let r = &self.resource_name.0;
        r.len() >= 4 && r[r.len() - 4..].eq_ignore_ascii_case(b".dat")
    }

    /// `CurrentOre` (proven name; docs/reference/runtime.md §3.3).
    pub fn current_ore(&self) -> Option<PropertyValue> {
        self.first_property("CurrentOre").map(Property::value)
    }

    /// `MaximumOre` (proven name).
    pub fn maximum_ore(&self) -> Option<PropertyValue> {
        self.first_property("MaximumOre").map(Property::value)
    }

    /// `LogicalID` (proven name).
    pub fn logical_id(&self) -> Option<PropertyValue> {
        self.first_property("LogicalID").map(Property::value)
    }

    /// `ClanID` (proven name).
    pub fn clan_id(&self) -> Option<PropertyValue> {
        self.first_property("ClanID").map(Property::value)
    }
}

/// A mineral lode record of the trailer (28 bytes; `gameplay.md` §3.4, read and
/// measured, correcting `docs/reference/world.md` §1.7): position and four raw words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExtraRecord28 {
    /// Position.
    pub position: [f32; 3],
    /// Four raw words: found, type (`0x10001000`), amount (a float), unused.
    pub words: [u32; 4],
}

impl ExtraRecord28 {
    /// The four words read as the lode: `(found, type, amount, unused)`.
    pub fn lode(&self) -> (i32, u32, f32, i32) {
        (self.words[0] as i32, self.words[1], f32::from_bits(self.words[2]), self.words[3] as i32)
    }
}

/// A parsed mission.
#[derive(Debug, Clone, PartialEq)]
pub struct Tma {
    /// `format_version` (1).
    pub format_version: u32,
    /// Paths in file order.
    pub paths: Vec<PathRecord>,
    /// Clan section version (1…6; 6 in retail).
    pub clan_section_version: u32,
    /// Clans.
    pub clans: Vec<Clan>,
    /// Object section version (10 in retail); gates object fields and the epilogue.
    pub object_section_version: u32,
    /// Placed objects.
    pub objects: Vec<PlacedObject>,
    /// Map base path without extension, e.g. `DATA\MAPS\Tut_1\land`.
    pub land_path: LpString,
    /// Raw flag (opaque; object version > 1).
    pub mission_flag: u32,
    /// Raw description bytes (service bytes included; object version > 1).
    pub description_raw: LpString,
    /// Extra section version (object version > 4).
    pub extra_section_version: u32,
    /// Extra records.
    pub extras: Vec<ExtraRecord28>,
    /// Findings of compatible reading (not written).
    pub diagnostics: Vec<Diagnostic>,
}

mod codec;
pub use codec::land_file_paths;

impl Tma {
    /// An empty mission with the retail section versions.
    pub fn new(land_path: &str) -> Self {
        Self {
            format_version: FORMAT_VERSION,
            paths: Vec::new(),
            clan_section_version: CLAN_VERSION,
            clans: Vec::new(),
            object_section_version: OBJECT_VERSION,
            objects: Vec::new(),
            land_path: land_path.into(),
            mission_flag: 0,
            description_raw: LpString::default(),
            extra_section_version: EXTRA_VERSION,
            extras: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Parses a mission; the cursor must end exactly at end of file.
    pub fn parse(data: &[u8], options: ReadOptions) -> Result<Self> {
        codec::parse(data, options)
    }

    /// Serialises the mission (byte-identical to the input for an unedited parse).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        codec::write(self)
    }

    /// The description decoded from CP1251 for display (raw bytes stay canonical).
    pub fn description_text(&self) -> String {
        self.description_raw.display()
    }
}

pub(crate) fn version_error(offset: u64, what: &str, found: u32, expected: u32) -> Error {
    Error::at(offset, ErrorKind::UnsupportedVersion(found.into())).via(format!("{what} (expected {expected})"))
}

pub(crate) fn finite(c: &Cursor<'_>, v: [f32; 3], what: &'static str) -> Result<[f32; 3]> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(v)
    } else {
        Err(Error::invalid(c.offset() - 12, "non_finite_transform", format!("{what} {v:?}")))
    }
}

#[cfg(test)]
mod tests;
