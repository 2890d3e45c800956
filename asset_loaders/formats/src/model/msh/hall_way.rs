//! Stream 17, a building's *hall way* (openparkan `docs/07-objects.md` and
//! `docs/27-ownership.md`, measured and read): its inside as a path graph, `nodes`
//! records of 20 bytes (position `x, y, z`, a flag word, one more word) then `links`
//! records of 40 bytes (start node, end node, eight more words), the two counts taken
//! from the stream's directory entry (`attr1` and `attr2`). A node's flags make it a
//! *place*: a control pod, a dock, an ore place, a teleport place, a factory's
//! creation node ([`place`]). Every word is kept; the writer puts back the bytes read.

use crate::bytes::Cursor;
use crate::error::{Error, Result};
use crate::model::Put;

/// Node record size (measured on all 29 shipped hall ways).
pub const NODE_SIZE: usize = 20;
/// Link record size (measured).
pub const LINK_SIZE: usize = 40;

/// A node's place flags (openparkan `docs/27-ownership.md`, read).
pub mod place {
    /// The control pod, where a capturer stands.
    pub const POD: u32 = 0x40;
    /// A dock: charges, repairs and rearms who stands in it (any of the bits).
    pub const DOCK: u32 = 0x20 | 0x200 | 0x400;
    /// A mine's loading place.
    pub const MINE_LOADING: u32 = 0x8;
    /// A storage's unloading place.
    pub const STORAGE_UNLOADING: u32 = 0x10;
    /// A factory's creation node (any of the bits).
    pub const CREATION: u32 = 0x80 | 0x800;
    /// A main teleport's in, out and exit places (any of the bits).
    pub const TELEPORT: u32 = 0x8000 | 0x4000 | 0x10000;
    /// Ground level: a place 10 wide and 12 high instead of 5 and 3.
    pub const GROUND: u32 = 0x1000_0000;
}

/// One node of the graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HallNode {
    /// Position (model space).
    pub position: [f32; 3],
    /// Place flags ([`place`]).
    pub flags: u32,
    /// The record's second word: the model node the place moves with, its joint
    /// (openparkan `docs/36-factory.md`, read).
    pub word: u32,
}

impl HallNode {
    /// Whether it carries any bit of `mask`.
    pub fn is(&self, mask: u32) -> bool {
        self.flags & mask != 0
    }
}

/// One link between two nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HallLink {
    /// Start node.
    pub start: u32,
    /// End node.
    pub end: u32,
    /// The other eight words (`0xFFFFFFFF` on every shipped link).
    pub rest: [u32; 8],
}

/// A parsed hall way.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HallWay {
    /// Nodes in file order.
    pub nodes: Vec<HallNode>,
    /// Links in file order.
    pub links: Vec<HallLink>,
}

impl HallWay {
    /// Parses a stream of `nodes` and `links` records (its directory entry's counts): the
    /// size must be exactly theirs and every link must join two of its nodes.
    pub fn parse(payload: &[u8], nodes: u32, links: u32) -> Result<Self> {
        let mut c = Cursor::new(payload);
        let node_bytes = c.check_count(u64::from(nodes), NODE_SIZE as u64, "hall-way nodes")?;
        let link_bytes = (links as usize).checked_mul(LINK_SIZE);
        if link_bytes.and_then(|l| l.checked_add(node_bytes)) != Some(payload.len()) {
            return Err(Error::invalid(
                0,
                "hall_way_size",
                format!(
                    "{nodes} nodes and {links} links need {} bytes, the stream has {}",
                    { (nodes as u64) * NODE_SIZE as u64 + (links as u64) * LINK_SIZE as u64 },
                    payload.len()
                ),
            ));
        }
        let mut out = Self { nodes: Vec::with_capacity(nodes as usize), links: Vec::with_capacity(links as usize) };
        for _ in 0..nodes {
            let position = [c.f32()?, c.f32()?, c.f32()?];
            out.nodes.push(HallNode { position, flags: c.u32()?, word: c.u32()? });
        }
        for i in 0..links {
            let at = c.offset();
            let (start, end) = (c.u32()?, c.u32()?);
            let mut rest = [0u32; 8];
            for w in &mut rest {
                *w = c.u32()?;
            }
            if start >= nodes || end >= nodes {
                return Err(Error::invalid(
                    at,
                    "hall_way_link",
                    format!("link {i} joins nodes {start} and {end}, the hall way has {nodes}"),
                ));
            }
            out.links.push(HallLink { start, end, rest });
        }
        Ok(out)
    }

    /// The stream's bytes (its counts go to the directory entry).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.nodes.len() * NODE_SIZE + self.links.len() * LINK_SIZE);
        for n in &self.nodes {
            n.position.iter().for_each(|&v| out.put_f32(v));
            out.put_u32(n.flags);
            out.put_u32(n.word);
        }
        for l in &self.links {
            out.put_u32(l.start);
            out.put_u32(l.end);
            l.rest.iter().for_each(|&w| out.put_u32(w));
        }
        out
    }

    /// The places carrying any bit of `mask`, in node order.
    pub fn places(&self, mask: u32) -> impl Iterator<Item = &HallNode> {
        self.nodes.iter().filter(move |n| n.is(mask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> HallWay {
        let node = |x: f32, flags| HallNode { position: [x, 1.0, 0.5], flags, word: 7 };
        HallWay {
            nodes: vec![node(0.0, 0), node(2.0, place::POD), node(4.0, 0x620), node(6.0, 0x1000_0400)],
            links: vec![
                HallLink { start: 0, end: 1, rest: [u32::MAX; 8] },
                HallLink { start: 1, end: 3, rest: [9; 8] },
            ],
        }
    }

    #[test]
    fn a_hall_way_round_trips_and_names_its_places() {
        let hall = sample();
        let bytes = hall.to_bytes();
        assert_eq!(bytes.len(), 4 * NODE_SIZE + 2 * LINK_SIZE);
        let back = HallWay::parse(&bytes, 4, 2).unwrap();
        assert_eq!(back, hall);
        assert_eq!(back.to_bytes(), bytes);
        let docks: Vec<f32> = back.places(place::DOCK).map(|n| n.position[0]).collect();
        assert_eq!(docks, [4.0, 6.0], "0x620 indoors, 0x10000400 on the ground");
        assert_eq!(back.places(place::POD).count(), 1);
        assert!(back.nodes[3].is(place::GROUND) && !back.nodes[2].is(place::GROUND));
    }

    #[test]
    fn a_hall_way_of_the_wrong_size_or_a_link_to_no_node_is_refused() {
        let bytes = sample().to_bytes();
        let e = HallWay::parse(&bytes, 4, 3).unwrap_err();
        assert!(e.to_string().contains("4 nodes and 3 links need 200 bytes, the stream has 160"), "{e}");
        assert!(HallWay::parse(&bytes[..bytes.len() - 1], 4, 2).is_err());
        assert!(HallWay::parse(&bytes, u32::MAX, 0).is_err(), "a count past the bytes, before allocating");
        let mut bad = sample();
        bad.links[1].end = 4;
        let e = HallWay::parse(&bad.to_bytes(), 4, 2).unwrap_err();
        assert!(e.to_string().contains("link 1 joins nodes 1 and 4, the hall way has 4"), "{e}");
    }

    /// A model built with a hall way writes it as stream 17 with its counts, and reads
    /// it back; a link to no node is refused by the builder.
    #[test]
    fn a_built_model_carries_its_hall_way() {
        use crate::model::msh::{ModelBuilder, Msh};
        let mut b = ModelBuilder::new();
        b.add_node("Root", None, 0).unwrap();
        assert!(b.clone().build().unwrap().hall_way().unwrap().unwrap().nodes.is_empty(), "none set: empty");
        b.set_hall_way(sample()).unwrap();
        let bytes = b.build().unwrap().to_bytes().unwrap();
        let back = Msh::parse(&bytes, crate::ReadOptions::strict()).unwrap();
        assert_eq!(back.hall_way().unwrap().unwrap(), sample());
        let mut bad = sample();
        bad.links[0].start = 9;
        assert!(b.set_hall_way(bad).unwrap_err().to_string().contains("link 9 - 1 of a hall way of 4 nodes"));
    }
}
