//! Unit `.dat` schemes (`docs/reference/registry.md` §2): an 8-byte header (`F1 F0`, opaque
//! word, class word) and 112-byte component records forming a pre-order tree.

use crate::bytes::{Cursor, display_name, fixed_str};
use crate::error::{Error, ErrorKind, Result};

/// Header size.
pub const HEADER_SIZE: usize = 8;
/// Record size.
pub const RECORD_SIZE: usize = 112;
/// Magic bytes.
pub const MAGIC: [u8; 2] = [0xF1, 0xF0];
/// Class-word bit selecting the building factory.
pub const BUILDING_BIT: u32 = 0x8000_0000;

/// One component record, kept as raw bytes with typed views.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitRecord {
    /// The 112 record bytes.
    pub raw: [u8; RECORD_SIZE],
}

impl UnitRecord {
    fn word(&self, at: usize) -> u32 {
        u32::from_le_bytes([self.raw[at], self.raw[at + 1], self.raw[at + 2], self.raw[at + 3]])
    }

    /// A record from its fields (description may fill all 32 bytes).
    pub fn new(
        resource: &str,
        kind: u32,
        link: i32,
        description: &[u8],
        component_type: u32,
        child_count: u32,
    ) -> Result<Self> {
        let mut raw = [0u8; RECORD_SIZE];
        raw[..32].copy_from_slice(&crate::bytes::fixed_field::<32>(b"objects.rlb")?);
        raw[32..64].copy_from_slice(&crate::bytes::fixed_field::<32>(resource.as_bytes())?);
        raw[0x40..0x44].copy_from_slice(&kind.to_le_bytes());
        raw[0x44..0x48].copy_from_slice(&link.to_le_bytes());
        if description.len() > 32 {
            return Err(Error::rule("name_too_long", "description longer than 32 bytes"));
        }
        raw[0x48..0x48 + description.len()].copy_from_slice(description);
        raw[0x68..0x6C].copy_from_slice(&component_type.to_le_bytes());
        raw[0x6C..0x70].copy_from_slice(&child_count.to_le_bytes());
        Ok(Self { raw })
    }

    /// Archive name (`objects.rlb` in every retail record).
    pub fn archive(&self) -> &[u8] {
        fixed_str(&self.raw[..32])
    }

    /// Component prototype key.
    pub fn resource(&self) -> &[u8] {
        fixed_str(&self.raw[32..64])
    }

    /// Kind; 0 skips the node and its subtree.
    pub fn kind(&self) -> u32 {
        self.word(0x40)
    }

    /// Attach index / parent link (inferred).
    pub fn parent_or_link(&self) -> i32 {
        self.word(0x44) as i32
    }

    /// Description (CP1251; a full 32-byte field without NUL is valid).
    pub fn description(&self) -> String {
        display_name(&self.raw[0x48..0x68])
    }

    /// Component type (inferred): 0 chassis, 1 turret, 2 armour, 3 part, 4 cannon, 5 ammo.
    pub fn component_type(&self) -> u32 {
        self.word(0x68)
    }

    /// Number of immediate children (inferred).
    pub fn child_count(&self) -> u32 {
        self.word(0x6C)
    }
}

/// A node of the component tree: record index and children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitNode {
    /// Index of the record.
    pub record: usize,
    /// Child nodes in order.
    pub children: Vec<UnitNode>,
}

/// A parsed unit scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitDat {
    /// Header bytes (magic, opaque word, class word).
    pub header: [u8; HEADER_SIZE],
    /// Records in file order.
    pub records: Vec<UnitRecord>,
}

impl UnitDat {
    /// Parses a scheme; `file_size == 8 + n * 112` must hold exactly.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data);
        let header: [u8; HEADER_SIZE] = c.array()?;
        if header[..2] != MAGIC {
            return Err(Error::at(0, ErrorKind::BadMagic { expected: "F1 F0", found: header[..2].to_vec() }));
        }
        if !c.remaining().is_multiple_of(RECORD_SIZE) {
            return Err(Error::invalid(
                HEADER_SIZE as u64,
                "unit_dat_size",
                format!("{} bytes after the header are not a multiple of {RECORD_SIZE}", c.remaining()),
            ));
        }
        let mut records = Vec::with_capacity(c.remaining() / RECORD_SIZE);
        while !c.is_empty() {
            records.push(UnitRecord { raw: c.array()? });
        }
        Ok(Self { header, records })
    }

    /// Serialises the scheme byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.header.to_vec();
        for r in &self.records {
            out.extend_from_slice(&r.raw);
        }
        out
    }

    /// The class word (inferred meaning).
    pub fn class_word(&self) -> u32 {
        u32::from_le_bytes([self.header[4], self.header[5], self.header[6], self.header[7]])
    }

    /// True when the class word selects the building factory.
    pub fn is_building(&self) -> bool {
        self.class_word() & BUILDING_BIT != 0
    }

    /// Builds the pre-order tree from the child counts. Fails when the counts do not
    /// cover exactly the records (the raw list stays usable).
    pub fn tree(&self) -> Result<UnitNode> {
        if self.records.is_empty() {
            return Err(Error::invalid(HEADER_SIZE as u64, "unit_tree", "scheme has no records"));
        }
        let mut next = 0;
        let root = self.build(&mut next, 0)?;
        if next != self.records.len() {
            return Err(Error::invalid(
                (HEADER_SIZE + next * RECORD_SIZE) as u64,
                "unit_tree",
                format!("child counts cover {next} of {} records", self.records.len()),
            ));
        }
        Ok(root)
    }

    fn build(&self, next: &mut usize, depth: usize) -> Result<UnitNode> {
        let index = *next;
        let record = self.records.get(index).ok_or_else(|| {
            Error::invalid((HEADER_SIZE + index * RECORD_SIZE) as u64, "unit_tree", "child counts exceed the records")
        })?;
        if depth > self.records.len() {
            return Err(Error::rule("unit_tree", "tree deeper than its record count"));
        }
        *next += 1;
        let mut children = Vec::new();
        for _ in 0..record.child_count() {
            if *next >= self.records.len() {
                return Err(Error::invalid(
                    (HEADER_SIZE + index * RECORD_SIZE + 0x6C) as u64,
                    "unit_tree",
                    format!("record {index} claims {} children beyond the last record", record.child_count()),
                ));
            }
            children.push(self.build(next, depth + 1)?);
        }
        Ok(UnitNode { record: index, children })
    }

    /// The components in tree order, skipping kind-0 nodes and their subtrees; each
    /// names its parent by position in the returned list.
    pub fn components(&self) -> Result<Vec<UnitComponent>> {
        fn walk(dat: &UnitDat, node: &UnitNode, parent: Option<usize>, out: &mut Vec<UnitComponent>) {
            let r = &dat.records[node.record];
            if r.kind() == 0 {
                return;
            }
            let me = out.len();
            out.push(UnitComponent {
                key: display_name(r.resource()),
                parent,
                link: r.parent_or_link(),
                component_type: r.component_type(),
            });
            for c in &node.children {
                walk(dat, c, Some(me), out);
            }
        }
        let tree = self.tree()?;
        let mut out = Vec::new();
        walk(self, &tree, None, &mut out);
        Ok(out)
    }

    /// Component keys in tree order, skipping kind-0 nodes and their subtrees.
    pub fn component_keys(&self) -> Result<Vec<String>> {
        Ok(self.components()?.into_iter().map(|c| c.key).collect())
    }
}

/// Component type of a turret (inferred, `docs/reference/registry.md` §2.3).
pub const TYPE_TURRET: u32 = 1;
/// Component type of a cannon (inferred, `docs/reference/registry.md` §2.3).
pub const TYPE_CANNON: u32 = 4;

/// One component of an expanded scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitComponent {
    /// Component prototype key.
    pub key: String,
    /// Position of the parent component in the list (`None` for the root).
    pub parent: Option<usize>,
    /// `parent_or_link` as stored.
    pub link: i32,
    /// Component type as stored.
    pub component_type: u32,
}

impl UnitComponent {
    /// The parent's MSH node this component's mesh attaches to: `parent_or_link` for a
    /// turret or cannon (`docs/reference/registry.md` §2.3, inferred); the parent's root node (0) otherwise
    /// (for parts, armour and ammo the link names a CTL item slot, not a piece).
    pub fn attach_node(&self) -> u32 {
        match self.component_type {
            TYPE_TURRET | TYPE_CANNON => u32::try_from(self.link).unwrap_or(0),
            _ => 0,
        }
    }

    /// For a fitted part (an internal part, armour or a clip under a parent: every
    /// type but the turret and the cannon), the device of its parent it takes over,
    /// its `parent_or_link` (openparkan `docs/28-chassis.md`, read); `None` otherwise.
    pub fn fitted_slot(&self) -> Option<u32> {
        match self.component_type {
            TYPE_TURRET | TYPE_CANNON => None,
            _ => self.parent.and(u32::try_from(self.link).ok()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scheme() -> Vec<u8> {
        let mut f = vec![0xF1, 0xF0, 0, 0];
        f.extend_from_slice(&0x0102_0000u32.to_le_bytes());
        let rec = |name: &[u8], kind: u32, link: i32, desc: &[u8], ty: u32, kids: u32| {
            let mut r = [0u8; 112];
            r[..11].copy_from_slice(b"objects.rlb");
            r[32..32 + name.len()].copy_from_slice(name);
            r[32 + name.len() + 1] = 0xCC; // tail byte after the NUL
            r[64..68].copy_from_slice(&kind.to_le_bytes());
            r[68..72].copy_from_slice(&link.to_le_bytes());
            r[72..72 + desc.len()].copy_from_slice(desc);
            r[104..108].copy_from_slice(&ty.to_le_bytes());
            r[108..112].copy_from_slice(&kids.to_le_bytes());
            r
        };
        f.extend(rec(b"hero_ch", 1, -1, &[b'D'; 32], 0, 2));
        f.extend(rec(b"hero_tur", 1, 0, b"turret", 1, 1));
        f.extend(rec(b"hero_gun", 1, 1, b"gun", 4, 0));
        f.extend(rec(b"hero_arm", 0, 2, b"armour", 2, 1));
        f.extend(rec(b"hidden", 1, 0, b"under skipped", 3, 0));
        f
    }

    #[test]
    fn reads_records_tree_and_keeps_tails() {
        let bytes = scheme();
        let dat = UnitDat::parse(&bytes).unwrap();
        assert_eq!(dat.class_word(), 0x0102_0000);
        assert!(!dat.is_building());
        assert_eq!(dat.records.len(), 5);
        let r = &dat.records[1];
        assert_eq!((r.resource(), r.kind(), r.parent_or_link()), (&b"hero_tur"[..], 1, 0));
        assert_eq!((r.component_type(), r.child_count()), (1, 1));
        assert_eq!(dat.records[0].description(), "D".repeat(32));
        let tree = dat.tree().unwrap();
        assert_eq!(tree.children.len(), 2);
        assert_eq!(tree.children[0].children[0].record, 2);
        assert_eq!(dat.component_keys().unwrap(), ["hero_ch", "hero_tur", "hero_gun"]);
        assert_eq!(dat.to_bytes(), bytes);
    }

    #[test]
    fn components_name_their_parent_and_attach_node() {
        let dat = UnitDat::parse(&scheme()).unwrap();
        let c = dat.components().unwrap();
        let shape: Vec<_> = c.iter().map(|c| (c.key.as_str(), c.parent, c.attach_node())).collect();
        assert_eq!(shape, [("hero_ch", None, 0), ("hero_tur", Some(0), 0), ("hero_gun", Some(1), 1)]);
        let armour = UnitComponent { key: "a".into(), parent: Some(0), link: 3, component_type: 2 };
        assert_eq!(armour.attach_node(), 0, "an armour link names an item slot, not a piece");
        let detached = UnitComponent { key: "t".into(), parent: Some(0), link: -1, component_type: TYPE_TURRET };
        assert_eq!(detached.attach_node(), 0);
    }

    #[test]
    fn size_magic_and_tree_errors() {
        let bytes = scheme();
        assert!(matches!(
            UnitDat::parse(&bytes[..bytes.len() - 1]).unwrap_err().kind,
            ErrorKind::Invalid { rule: "unit_dat_size", .. }
        ));
        let mut bad = bytes.clone();
        bad[0] = 0;
        assert!(matches!(UnitDat::parse(&bad).unwrap_err().kind, ErrorKind::BadMagic { .. }));
        let mut lying = bytes.clone();
        lying[8 + 108..8 + 112].copy_from_slice(&u32::MAX.to_le_bytes());
        let dat = UnitDat::parse(&lying).unwrap();
        assert!(matches!(dat.tree().unwrap_err().kind, ErrorKind::Invalid { rule: "unit_tree", .. }));
        let mut short = bytes.clone();
        short[8 + 108] = 1;
        assert!(UnitDat::parse(&short).unwrap().tree().is_err(), "counts covering too few records");
        for n in 0..8 {
            assert!(UnitDat::parse(&bytes[..n]).is_err());
        }
    }
}
