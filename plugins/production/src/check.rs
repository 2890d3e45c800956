//! Static checks of production orders (the CLI refuses a bad orders file with exit
//! status 2 before running): the building exists and builds (or researches), the
//! scheme resolves through the mission's backend to a robot the rules can cost, the
//! research node exists in the clan's tree. What only the run can tell (a scheme
//! locked by research at that tick, ore, power, a failed construction) is a
//! `rejected` event at run time.

use crate::step::{institute, producer, rules, scheme, tree};
use bevy_ecs::prelude::*;
use iron3d_core::{Order, SimCommand};

/// Checks a build or research command against the running mission (other orders pass).
///
/// # Errors
/// What is wrong, naming the object, scheme or node.
pub fn check_command(world: &mut World, command: &SimCommand) -> Result<(), String> {
    if !command.order.is_production() {
        return Ok(());
    }
    let rules = rules(world)?;
    for &unit in &command.units {
        match command.order {
            Order::Build(s) | Order::Batch(s) => {
                producer(world, &rules, unit)?;
                scheme(world, &rules, s)?;
            }
            Order::StopBuild => {
                producer(world, &rules, unit)?;
            }
            Order::Research(node) => {
                let clan = institute(world, &rules, unit)?;
                let t = tree(world, clan)?;
                t.nodes.get(node as usize).ok_or(format!("no node {node} in {}", t.path))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The node of the research tree of `unit`'s clan named `name` (the node's short name,
/// case-insensitive), for orders that name nodes.
///
/// # Errors
/// `unit` is not a research building, its clan has no tree, or no node has that name.
pub fn research_node(world: &World, unit: u32, name: &str) -> Result<u32, String> {
    let rules = rules(world)?;
    let clan = institute(world, &rules, unit)?;
    let t = tree(world, clan)?;
    t.node_named(name).ok_or(format!("no node named {name} in {}", t.path))
}
