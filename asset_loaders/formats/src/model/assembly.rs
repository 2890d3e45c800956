//! One object from several MSH files (`docs/reference/models.md` §1.12, inferred): the pieces of
//! every component's model in one flat list. The main model maps node `i` to piece
//! `first + i`; an attached model (turret, gun, …) skips its node 0 (a virtual attach
//! root) and maps node `i > 0` to piece `first + i − 1`, with parent 0 becoming the
//! piece it is attached to.

use crate::error::{Error, Result};

/// Where an attached component hangs: node `node` of the earlier component `component`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attach {
    /// Index of the parent component (must precede the attached one).
    pub component: usize,
    /// Node of the parent component's model.
    pub node: usize,
}

/// The node tree of one component's model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentNodes {
    /// Parent node of every node (`None` = root).
    pub parents: Vec<Option<usize>>,
    /// `None` for a main model, otherwise its attach point.
    pub attach: Option<Attach>,
}

/// One piece of the assembled object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// The component it comes from.
    pub component: usize,
    /// Its node in that component's model.
    pub node: usize,
    /// Parent piece (`None` = attached to the object root).
    pub parent: Option<usize>,
}

/// The flat piece list of an object.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Assembly {
    /// Pieces in load order.
    pub pieces: Vec<Piece>,
    /// Per component: false when its node tree is invalid (a parent not before its
    /// child, `docs/reference/models.md` §1.10), so its pieces hang unposed from its attach point.
    pub posed: Vec<bool>,
    bases: Vec<Base>,
}

/// Where a component's pieces are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Base {
    first: usize,
    count: usize,
    /// `Some(attach piece)` for an attached model (`Some(None)`: attached to the root).
    attached: Option<Option<usize>>,
}

impl Assembly {
    /// The piece of `node` of `component`; an attached model's node 0 is its attach piece.
    pub fn piece_of(&self, component: usize, node: usize) -> Option<usize> {
        let b = self.bases.get(component)?;
        match b.attached {
            Some(attach) if node == 0 => attach,
            Some(_) => (node <= b.count).then(|| b.first + node - 1),
            None => (node < b.count).then_some(b.first + node),
        }
    }
}

/// Assembles the components in order. An attach point naming a later component or a
/// node its model does not have is an error naming the component.
pub fn assemble(components: &[ComponentNodes]) -> Result<Assembly> {
    let mut out = Assembly::default();
    for (c, comp) in components.iter().enumerate() {
        let attach = match comp.attach {
            None => None,
            Some(a) => {
                let known = components.get(a.component).filter(|_| a.component < c);
                if known.is_none_or(|p| a.node >= p.parents.len()) {
                    return Err(Error::rule(
                        "assembly_attach",
                        format!(
                            "component {c} attaches to node {} of component {}, which is not an earlier model with that node",
                            a.node, a.component
                        ),
                    ));
                }
                Some(out.piece_of(a.component, a.node))
            }
        };
        let valid = comp.parents.iter().enumerate().all(|(i, p)| p.is_none_or(|p| p < i));
        let first = out.pieces.len();
        let skip = usize::from(attach.is_some());
        let base = attach.flatten();
        out.bases.push(Base { first, count: comp.parents.len().saturating_sub(skip), attached: attach });
        out.posed.push(valid);
        for (node, parent) in comp.parents.iter().enumerate().skip(skip) {
            let parent = match (valid, *parent) {
                (true, Some(p)) if p >= skip => Some(first + p - skip),
                _ => base,
            };
            out.pieces.push(Piece { component: c, node, parent });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(parents: &[Option<usize>], attach: Option<(usize, usize)>) -> ComponentNodes {
        ComponentNodes { parents: parents.to_vec(), attach: attach.map(|(component, node)| Attach { component, node }) }
    }

    #[test]
    fn attached_models_skip_their_virtual_root_and_remap_parents() {
        // chassis: body, mount; turret: root, turret, mount, radar(parent turret); gun: root, gun, barrel
        let a = assemble(&[
            nodes(&[None, Some(0)], None),
            nodes(&[None, Some(0), Some(1), Some(1)], Some((0, 1))),
            nodes(&[None, Some(0), Some(1)], Some((1, 2))),
        ])
        .unwrap();
        let shape: Vec<_> = a.pieces.iter().map(|p| (p.component, p.node, p.parent)).collect();
        assert_eq!(
            shape,
            [
                (0, 0, None),
                (0, 1, Some(0)),
                (1, 1, Some(1)),
                (1, 2, Some(2)),
                (1, 3, Some(2)),
                (2, 1, Some(3)),
                (2, 2, Some(5))
            ]
        );
        assert_eq!(a.piece_of(1, 0), Some(1), "a virtual root is its attach piece");
        assert_eq!(a.piece_of(2, 2), Some(6));
        assert_eq!(a.piece_of(2, 3), None);
        assert_eq!(a.posed, [true; 3]);
    }

    #[test]
    fn invalid_trees_hang_unposed_and_bad_attach_points_are_errors() {
        let a = assemble(&[nodes(&[Some(1), None], None), nodes(&[None, Some(0)], Some((0, 0)))]).unwrap();
        assert_eq!(a.posed, [false, true]);
        assert!(a.pieces[..2].iter().all(|p| p.parent.is_none()));
        assert_eq!(a.pieces[2].parent, Some(0));
        assert!(assemble(&[nodes(&[None], Some((0, 0)))]).is_err(), "attach to itself");
        assert!(assemble(&[nodes(&[None], None), nodes(&[None], Some((0, 4)))]).is_err(), "missing node");
        // attaching to the virtual root of an attached model lands on its attach piece
        let a = assemble(&[
            nodes(&[None, Some(0)], None),
            nodes(&[None], Some((0, 1))),
            nodes(&[None, Some(0)], Some((1, 0))),
        ])
        .unwrap();
        assert_eq!(a.pieces.last().unwrap().parent, Some(1));
    }
}
