//! The simulation's replicated components: those a crate declared
//! `Hashing::replicated` in the state registry ([`iron3d_core::SimState`]) travel in one
//! component per object, [`NetState`], holding each one's encoded bytes (the save's
//! encoding). The host writes it after every tick where the bytes changed; a joined game
//! puts the values on its mirror. Adding a replicated component is its declaration: net
//! names no type of another crate.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use iron3d_core::SimState;
use serde::{Deserialize, Serialize};

/// An object's replicated components, in the registry's order: per component it has, its
/// [`column`] id (two bytes), its length (LEB128) and its bytes. A game whose plugins
/// declare fewer replicated types (a bot without combat) skips the entries it does not
/// know.
#[derive(Component, Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Default, Reflect)]
#[reflect(Component)]
pub struct NetState(pub Vec<u8>);

impl NetState {
    /// Its entries: `(column id, encoded bytes)`, or where the bytes break off.
    pub fn entries(&self) -> Result<Vec<(u16, &[u8])>, String> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < self.0.len() {
            let id = self.0.get(at..at + 2).ok_or_else(|| format!("entry at byte {at}: no column id"))?;
            let column = u16::from_le_bytes([id[0], id[1]]);
            let (len, used) = leb128(&self.0[at + 2..]).ok_or_else(|| format!("entry at byte {at}: no length"))?;
            let start = at + 2 + used;
            let bytes = self.0.get(start..start.saturating_add(len)).ok_or_else(|| {
                format!("entry at byte {at}: {len} bytes, {} left", self.0.len().saturating_sub(start))
            })?;
            out.push((column, bytes));
            at = start + len;
        }
        Ok(out)
    }

    /// The value of replicated component `T` it holds, if it holds one that decodes.
    pub fn value<T: Clone + 'static>(&self, state: &SimState) -> Option<T> {
        let id = std::any::TypeId::of::<T>();
        let c = state.replicated().find(|c| c.type_id == id)?;
        let entries = self.entries().ok()?;
        let (_, bytes) = entries.into_iter().find(|(i, _)| *i == column(c.tag))?;
        let values = (c.read)(bytes, 1).ok()?.downcast::<Vec<T>>().ok()?;
        values.first().cloned()
    }

    /// Each replicated component as text, `(tag, value)` (`none` where it holds none).
    pub fn describe(&self, state: &SimState) -> Vec<(&'static str, String)> {
        let entries = match self.entries() {
            Ok(entries) => entries,
            Err(e) => return vec![("NetState", e)],
        };
        state
            .replicated()
            .map(|c| {
                let value = entries.iter().find(|(i, _)| *i == column(c.tag));
                (c.tag, value.map_or("none".into(), |(_, bytes)| (c.describe)(bytes)))
            })
            .collect()
    }

    fn push(&mut self, column: u16, bytes: &[u8]) {
        self.0.extend_from_slice(&column.to_le_bytes());
        let mut len = bytes.len();
        while len >= 0x80 {
            self.0.push(len as u8 | 0x80);
            len >>= 7;
        }
        self.0.push(len as u8);
        self.0.extend_from_slice(bytes);
    }
}

/// The id a replicated component travels under: its tag's FNV-1a hash folded to 16 bits
/// (stable across builds and plugin sets; the tags of one game never share one, tested).
pub fn column(tag: &str) -> u16 {
    let h = iron3d_core::fnv1a(tag.as_bytes());
    (h ^ (h >> 16) ^ (h >> 32) ^ (h >> 48)) as u16
}

/// A LEB128 length at the front of `bytes` and the bytes it took.
fn leb128(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut value = 0usize;
    for (k, b) in bytes.iter().take(4).enumerate() {
        value |= usize::from(b & 0x7f) << (7 * k);
        if b & 0x80 == 0 {
            return Some((value, k + 1));
        }
    }
    None
}

/// The host, after a tick: every published object's [`NetState`] from the registry,
/// changed only where its bytes changed (replicon sends only those).
pub(crate) fn publish(world: &mut World) {
    let mut published = world.query_filtered::<Entity, With<NetState>>();
    let entities: Vec<Entity> = published.iter(world).collect();
    let mut built = vec![NetState::default(); entities.len()];
    if let Some(state) = world.get_resource::<SimState>() {
        for c in state.replicated() {
            let id = column(c.tag);
            let filled = (c.each)(world, &entities, &mut |k, bytes| built[k].push(id, bytes));
            if let Err(e) = filled {
                tracing::warn!(target: "resnet", "{} is not replicated this tick: {e}", c.tag);
            }
        }
    }
    for (e, now) in entities.into_iter().zip(built) {
        if let Some(mut s) = world.get_mut::<NetState>(e) {
            s.set_if_neq(now);
        }
    }
}

/// A joined game: puts the replicated components of each changed [`NetState`] on its
/// mirror (and takes away those the host's object no longer has).
pub(crate) fn apply(world: &mut World) {
    let mut changed =
        world.query_filtered::<(Entity, &NetState), (Changed<NetState>, Without<crate::DuplicateMirror>)>();
    let states: Vec<(Entity, NetState)> = changed.iter(world).map(|(e, s)| (e, s.clone())).collect();
    if states.is_empty() || !world.contains_resource::<SimState>() {
        return;
    }
    world.resource_scope(|world, registry: Mut<SimState>| {
        for (e, state) in states {
            if let Err(err) = put(world, &registry, e, &state) {
                tracing::warn!(target: "netwatch", "mirror {e}: replicated state not applied: {err}");
            }
        }
    });
}

fn put(world: &mut World, registry: &SimState, e: Entity, state: &NetState) -> Result<(), String> {
    let entries = state.entries()?;
    for c in registry.replicated() {
        let bytes = entries.iter().find(|(i, _)| *i == column(c.tag)).map(|(_, b)| *b);
        let value = (c.read)(bytes.unwrap_or_default(), usize::from(bytes.is_some()))
            .map_err(|(at, e)| format!("{} at byte {at}: {e}", c.tag))?;
        (c.put)(world, &[(e, bytes.is_some())], value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_a_cut_entry_is_named() {
        let long = vec![7u8; 300];
        let mut s = NetState::default();
        s.push(0, &[1, 2, 3]);
        s.push(1, &long);
        assert_eq!(s.entries().unwrap(), vec![(0, &[1u8, 2, 3][..]), (1, &long[..])]);
        s.0.truncate(s.0.len() - 1);
        assert_eq!(s.entries().unwrap_err(), "entry at byte 6: 300 bytes, 299 left");
    }
}
