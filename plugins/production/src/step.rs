//! The production tick (`SimSystems::Production`): take the build and research orders
//! due, start queued jobs (paying ore, holding power), advance every job by one tick,
//! finish research (unlocks follow) and builds (the robot goes through the mission's
//! resolution, construction and registration; a failure spawns nothing and refunds).

use crate::design::{DesignError, Price};
use crate::research::ResearchTree;
use crate::state::{ClanResearch, Job, Production, ProductionRules, Scheme};
use bevy_ecs::prelude::*;
use iron3d_core::{
    ClanSetup, CollisionProxy, CommandQueue, CreationNodeCondition, DispatchPhase, GameClock, GameMessage,
    GameMessageKind, MissionClans, ModelBounds, Movable, ObjectTable, Order, OriginalObjectId, Owner, Places,
    ProductionEvent, PropertyBag, SchemeNames, SchemeRef, ScriptFiles, SimCommand, SimObject, SimTransform, UnitClass,
    world_point,
};
use iron3d_mission::{PlacedRecord, PreparedObject, resolve_object};
use iron3d_rules::Rules;
use iron3d_terrain::{Ground, NavMap};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Places tried around a producer for a new robot (evenly spaced, from its heading).
pub const PLACES_AROUND: u32 = 16;

/// Posts a production event.
pub(crate) fn report(world: &mut World, event: ProductionEvent, ids: Vec<u32>, detail: String) {
    let clock = *world.resource::<GameClock>();
    world.write_message(GameMessage::new(
        &clock,
        DispatchPhase::Production,
        GameMessageKind::Production { event, ids, detail },
    ));
}

/// The rules, or why there are none.
pub(crate) fn rules(world: &World) -> Result<Arc<Rules>, String> {
    match world.get_resource::<ProductionRules>().map(|r| &r.0) {
        Some(Ok(r)) => Ok(Arc::clone(r)),
        Some(Err(e)) => Err(e.clone()),
        None => Err("production is not installed".into()),
    }
}

/// The building `unit` and its clan, when its class passes `is`.
fn building(world: &World, unit: u32, is: impl Fn(u32) -> bool, what: &str) -> Result<i32, String> {
    let table = world.resource::<iron3d_core::ObjectTable>();
    let entity = table.entity_of(unit).ok_or(format!("no object with id {unit}"))?;
    let class = world.get::<UnitClass>(entity).map(|c| c.0);
    match (class, world.get::<Owner>(entity)) {
        (Some(class), Some(owner)) if is(class) => Ok(owner.clan),
        _ => Err(format!("object {unit} is not {what}")),
    }
}

/// The producer `unit`'s clan.
pub(crate) fn producer(world: &World, rules: &Rules, unit: u32) -> Result<i32, String> {
    building(world, unit, |c| rules.produces(c), "a production building")
}

/// The research building `unit`'s clan.
pub(crate) fn institute(world: &World, rules: &Rules, unit: u32) -> Result<i32, String> {
    building(world, unit, |c| rules.researches(c), "a research building")
}

/// The research tree of `clan`.
pub(crate) fn tree(world: &World, clan: i32) -> Result<&ResearchTree, String> {
    let production = world.get_resource::<Production>().ok_or("no mission is running")?;
    production.clans.get(&clan).and_then(|c| c.tree.as_ref()).ok_or(format!("clan {clan} has no research tree"))
}

/// A scheme resolved through the mission's backend (cached), with its cost.
pub(crate) fn scheme(world: &mut World, rules: &Rules, r: SchemeRef) -> Result<Scheme, String> {
    if let Some(s) = world.get_resource::<Production>().and_then(|p| p.schemes.get(&r.0)) {
        return Ok(s.clone());
    }
    let name = world.resource::<SchemeNames>().name(r).ok_or(format!("unknown scheme {:016x}", r.0))?.to_string();
    let mut object = PreparedObject::probe(u32::MAX, &name);
    resolve_object(world, &mut object).map_err(|e| format!("scheme {name}: {e}"))?;
    let class = object.extras.unit_class.ok_or(format!("scheme {name}: not a unit scheme (.dat)"))?;
    let component_types: Vec<u32> = object.components.iter().map(|c| c.component_type).collect();
    let cost = rules
        .robot_cost(class, &component_types)
        .ok_or(format!("scheme {name}: class {class:#010x} has no production cost (not a robot)"))?;
    let radius = object.components.iter().filter_map(|c| c.bounds.as_ref()).map(ModelBounds::reach).fold(0.0, f32::max);
    let scheme = Scheme {
        name,
        class,
        components: object.components.iter().map(|c| c.key.clone()).collect(),
        component_types,
        radius,
        ore: cost.ore,
        power: cost.power,
        seconds: cost.seconds,
    };
    if let Some(mut p) = world.get_resource_mut::<Production>() {
        p.schemes.insert(r.0, scheme.clone());
    }
    Ok(scheme)
}

/// Milliseconds of `seconds`, rounded up.
fn millis(seconds: f32) -> u32 {
    libm::ceilf(seconds * 1000.0).clamp(0.0, u32::MAX as f32) as u32
}

/// At game start: the next object id, every clan's research tree (names resolved
/// through the mission's registry); a tree that fails is reported and not used.
pub(crate) fn setup(world: &mut World) {
    let next_id = world.query::<&OriginalObjectId>().iter(world).map(|i| i.0.saturating_add(1)).max().unwrap_or(0);
    let (clans, files): (Vec<ClanSetup>, Option<Arc<dyn ScriptFiles>>) = match world.get_resource::<MissionClans>() {
        Some(m) => (m.clans.clone(), Some(Arc::clone(&m.files))),
        None => (Vec::new(), None),
    };
    let grants = crate::grants::placed(world);
    let mut named = BTreeMap::new();
    for owner in world.query_filtered::<&Owner, With<Movable>>().iter(world) {
        *named.entry(owner.clan).or_insert(0u32) += 1;
    }
    let mut production = Production { next_id, grants, named, ..Production::default() };
    let mut problems = Vec::new();
    for clan in clans {
        let mut research = ClanResearch::default();
        if let (false, Some(files)) = (clan.research_tree.is_empty(), &files) {
            match load_tree(world, files.as_ref(), &clan.research_tree) {
                Ok(tree) => research.tree = Some(tree),
                Err(e) => problems.push(format!("clan {} research tree: {e}", clan.index)),
            }
        }
        production.clans.insert(clan.index as i32, research);
    }
    world.insert_resource(production);
    for p in problems {
        report(world, ProductionEvent::Rejected, Vec::new(), p);
    }
}

fn load_tree(world: &World, files: &dyn ScriptFiles, path: &str) -> Result<ResearchTree, String> {
    let bytes = files.read(path)?.ok_or(format!("{path}: no such file"))?;
    let tree = ResearchTree::parse(path, &bytes)?;
    for (i, n) in tree.nodes.iter().enumerate() {
        for part in &n.parts {
            resolve_object(world, &mut PreparedObject::probe(u32::MAX, part))
                .map_err(|e| format!("{path}: node {i}: {e}"))?;
        }
    }
    Ok(tree)
}

/// The production tick.
pub(crate) fn run(world: &mut World) {
    if !world.contains_resource::<Production>() {
        return;
    }
    let tick = world.resource::<GameClock>().tick;
    let commands = world.resource_mut::<CommandQueue>().take_due_where(tick, Order::is_production);
    for c in commands {
        for &unit in &c.units {
            match c.order {
                Order::Build(s) if buildable(world, unit, s) => {
                    world.resource_mut::<Production>().producers.entry(unit).or_default().waiting.push(s);
                }
                // Its builds are queued as minds are free (`renew_batches`, this tick).
                Order::Batch(s) if buildable(world, unit, s) => {
                    let mut p = world.resource_mut::<Production>();
                    p.producers.entry(unit).or_default();
                    p.batch.insert(unit, s);
                }
                Order::StopBuild => stop_build(world, unit),
                Order::Research(node) => queue_research(world, unit, node),
                _ => {}
            }
        }
    }
    step_research(world);
    step_builds(world);
}

/// Whether `unit` is a producer and `s` a scheme it can build; a refusal is reported.
fn buildable(world: &mut World, unit: u32, s: SchemeRef) -> bool {
    let checked = rules(world).and_then(|rules| {
        producer(world, &rules, unit)?;
        scheme(world, &rules, s)
    });
    if let Err(e) = &checked {
        report(world, ProductionEvent::Rejected, vec![unit], format!("build: {e}"));
    }
    checked.is_ok()
}

/// Stops producer `unit`: no batch, nothing waiting, its build aborted with the ore it
/// had collected given back to its clan.
fn stop_build(world: &mut World, unit: u32) {
    let mut p = world.resource_mut::<Production>();
    p.batch.remove(&unit);
    let job = p.producers.get_mut(&unit).and_then(|q| {
        q.waiting.clear();
        q.active.take()
    });
    let clan = world.resource::<iron3d_core::ObjectTable>().entity_of(unit).and_then(|e| world.get::<Owner>(e));
    if let (Some(job), Some(owner)) = (job, clan.copied()) {
        iron3d_economy::deposit_ore(world, owner.clan, job.ore_got);
    }
}

/// A building captured this tick drops its tasks (`MBehaviour::Capture`, openparkan
/// `docs/27-ownership.md`, read): a producer its batch, queue and build, an institute
/// its research. What the dropped jobs had collected is lost with them (the project's:
/// the original's record of it is not read).
pub(crate) fn drop_captured(mut read: MessageReader<GameMessage>, production: Option<ResMut<Production>>) {
    let Some(mut p) = production else { return };
    for message in read.read() {
        let GameMessageKind::Production { event: ProductionEvent::Captured, ids, .. } = &message.kind else { continue };
        let Some(&building) = ids.first() else { continue };
        p.batch.remove(&building);
        p.producers.remove(&building);
        for clan in p.clans.values_mut() {
            clan.waiting.retain(|&(_, institute)| institute != building);
            if clan.active.as_ref().is_some_and(|(_, institute)| *institute == building) {
                clan.active = None;
            }
        }
    }
}

/// Gives every idle producer in batch its scheme again while its clan has a free mind
/// (the original walks the clan's factories every frame, read): each free mind goes to
/// one producer, in id order, so a second one never queues a build it cannot start.
fn renew_batches(world: &mut World, standing: &BTreeMap<u32, i32>) {
    let batches: Vec<(u32, SchemeRef)> = world.resource::<Production>().batch.iter().map(|(&u, &s)| (u, s)).collect();
    let mut free: BTreeMap<i32, u32> =
        crate::minds::board(world, standing).into_iter().map(|(clan, (_, free))| (clan, free)).collect();
    for (producer, s) in batches {
        let Some(clan) = standing.get(&producer) else {
            world.resource_mut::<Production>().batch.remove(&producer);
            continue;
        };
        let idle = world
            .resource::<Production>()
            .producers
            .get(&producer)
            .is_none_or(|q| q.active.is_none() && q.waiting.is_empty());
        // A clan without a mind cap (no mission clans) is never short.
        let mut mind = || free.get_mut(clan).map_or(Some(()), |n| n.checked_sub(1).map(|left| *n = left));
        if idle && mind().is_some() {
            world.resource_mut::<Production>().producers.entry(producer).or_default().waiting.push(s);
        }
    }
}

fn queue_research(world: &mut World, unit: u32, node: u32) {
    let checked = rules(world).and_then(|rules| {
        let clan = institute(world, &rules, unit)?;
        let tree = tree(world, clan)?;
        tree.nodes.get(node as usize).ok_or(format!("no node {node} in {}", tree.path))?;
        Ok(clan)
    });
    match checked {
        Ok(clan) => {
            world.resource_mut::<Production>().clans.entry(clan).or_default().waiting.push((node, unit));
            crate::ai_store::mark(world, clan);
        }
        Err(e) => report(world, ProductionEvent::Rejected, vec![unit], format!("research {node}: {e}")),
    }
}

/// A research centre's time for one research without its own `FreeResearchTime`
/// (seconds; read: the same for every technology it researches).
const RESEARCH_SECONDS: f32 = 2.0;

/// The research time of `institute`: its `FreeResearchTime` property, else 2 s.
fn research_seconds(world: &World, institute: u32) -> f32 {
    let entity = world.resource::<iron3d_core::ObjectTable>().entity_of(institute);
    let value = entity.and_then(|e| world.get::<PropertyBag>(e)).and_then(|b| b.first("FreeResearchTime"));
    match value.map(|p| p.value()) {
        Some(iron3d_formats::world::PropertyValue::Int(v)) if v >= 0 => v as f32,
        Some(iron3d_formats::world::PropertyValue::Float(v)) if v.is_finite() && v >= 0.0 => v,
        _ => RESEARCH_SECONDS,
    }
}

/// Why the research of `node` at `institute` for `clan` cannot start; on success it
/// is active and asks for its ore. Its budgets (the original's): the item's
/// `ResearchOreCost` and `ResearchEnergyCost`, and the centre's research time.
fn start_research(world: &mut World, clan: i32, node: u32, institute: u32) -> Result<Job, String> {
    let (ore, power) = {
        let t = tree(world, clan)?;
        if let Some(why) = t.refusal(node) {
            return Err(why);
        }
        let n = &t.nodes[node as usize];
        (n.research_ore, n.research_energy)
    };
    // A free technology: the centre's grant counted off now, no ore, no power.
    let free = world.resource_mut::<Production>().grants.get_mut(&institute).is_some_and(|g| {
        let free = g.technologies > 0;
        g.technologies -= u32::from(free);
        free
    });
    let (ore, power) = if free { (0.0, 0.0) } else { (ore, power) };
    let seconds = research_seconds(world, institute);
    iron3d_economy::request_ore(world, institute, ore);
    let mut p = world.resource_mut::<Production>();
    if let Some(n) = p.clans.get_mut(&clan).and_then(|c| c.tree.as_mut()).and_then(|t| t.nodes.get_mut(node as usize)) {
        n.active = true;
    }
    let what = SchemeRef(u64::from(node));
    Ok(Job { what, total_ms: millis(seconds), power, ore, free, ..Job::default() })
}

fn step_research(world: &mut World) {
    let Ok(rules) = rules(world) else { return };
    let clans: Vec<i32> = world.resource::<Production>().clans.keys().copied().collect();
    for clan in clans {
        loop {
            let head = {
                let c = &world.resource::<Production>().clans[&clan];
                if c.active.is_some() || c.waiting.is_empty() {
                    break;
                }
                c.waiting[0]
            };
            world.resource_mut::<Production>().clans.get_mut(&clan).map(|c| c.waiting.remove(0));
            let (node, institute) = head;
            let started = institute_alive(world, &rules, institute, clan)
                .and_then(|()| start_research(world, clan, node, institute));
            match started {
                Ok(job) => {
                    if let Some(c) = world.resource_mut::<Production>().clans.get_mut(&clan) {
                        c.active = Some((job, institute));
                    }
                }
                Err(e) => report(world, ProductionEvent::Rejected, vec![institute], format!("research {node}: {e}")),
            }
        }
        let active = world.resource::<Production>().clans[&clan].active.as_ref().map(|(j, c)| (*c, j.ore - j.ore_got));
        let Some((centre, missing)) = active else { continue };
        let rate = iron3d_economy::work_rate(world, centre);
        // Ore taken in at efficiency × Use_Ore a second (read); without a Use_Ore, all
        // that came (the project's).
        let intake = iron3d_economy::efficiency(world, centre) * iron3d_economy::profile(world, centre).use_ore;
        let up_to = if intake > 0.0 { intake * iron3d_core::TICK_SECONDS } else { missing };
        let arrived = iron3d_economy::take_ore(world, centre, up_to.min(missing));
        let (done, request, collecting) = {
            let mut p = world.resource_mut::<Production>();
            let Some(c) = p.clans.get_mut(&clan) else { continue };
            let Some((job, institute)) = c.active.as_mut() else { continue };
            let full = job.work(rate, arrived);
            let (request, collecting) = (job.research_request(), job.power_got < job.power);
            if !full {
                (None, request, collecting)
            } else {
                let (node, institute) = (job.what.0 as u32, *institute);
                c.active = None;
                let tree = c.tree.as_mut();
                (
                    tree.map(|t| {
                        t.complete(node);
                        (node, institute, t.nodes[node as usize].name.clone())
                    }),
                    0.0,
                    false,
                )
            }
        };
        iron3d_economy::request_ore(world, centre, request);
        draw_while(world, centre, collecting);
        if let Some((node, institute, name)) = done {
            report(world, ProductionEvent::Researched, vec![institute], format!("clan={clan} node={node} {name}"));
        }
    }
}

/// A building draws its profile's `Use_Power` while it collects a job's power, nothing
/// more once it has it (the original's `SetPowerUsage`).
fn draw_while(world: &mut World, building: u32, collecting: bool) {
    let draw = if collecting { iron3d_economy::profile(world, building).use_power } else { 0.0 };
    iron3d_economy::set_power_usage(world, building, draw);
}

/// The institute still stands and belongs to the clan.
fn institute_alive(world: &World, rules: &Rules, unit: u32, clan: i32) -> Result<(), String> {
    match institute(world, rules, unit)? {
        c if c == clan => Ok(()),
        c => Err(format!("object {unit} now belongs to clan {c}")),
    }
}

/// The clan of every producer with a queue that still stands (`None`: it is gone).
fn producer_owners(world: &World) -> BTreeMap<u32, Option<i32>> {
    let table = world.resource::<iron3d_core::ObjectTable>();
    world
        .resource::<Production>()
        .producers
        .keys()
        .map(|&id| (id, table.entity_of(id).and_then(|e| world.get::<Owner>(e)).map(|o| o.clan)))
        .collect()
}

/// The clan of every producer that still stands.
pub(crate) fn producer_clans(world: &World) -> BTreeMap<u32, i32> {
    producer_owners(world).into_iter().filter_map(|(id, c)| Some((id, c?))).collect()
}

/// Starts the head of `producer`'s queue: `Ok(true)` started, `Ok(false)` nothing
/// waits, `Err` refused (the head is dropped). With a research tree the clan's tree
/// prices the robot (the sum of its parts' `BuildOreCost` and `BuildEnergyCost`, 5 s:
/// the original's); without one the rules file's cost stands (the project's). The
/// power is a budget the factory collects while it builds ([`Job::work`]).
fn start_build(
    world: &mut World,
    rules: &Rules,
    producer: u32,
    clan: i32,
    owners: &BTreeMap<u32, i32>,
) -> Result<bool, String> {
    let Some(&head) = world.resource::<Production>().producers.get(&producer).and_then(|q| q.waiting.first()) else {
        return Ok(false);
    };
    let s = scheme(world, rules, head)?;
    // A factory whose creation node's joint is destroyed builds nothing (read).
    let entity = world.resource::<ObjectTable>().entity_of(producer);
    if entity.and_then(|e| world.get::<CreationNodeCondition>(e)).is_some_and(|c| !c.intact()) {
        return Err("Plant creation node destroyed".into());
    }
    // The factory's efficiency divides the ore (`NewfOreCost`, read).
    let kpd = iron3d_economy::efficiency(world, producer);
    let tree = world.resource::<Production>().clans.get(&clan).and_then(|c| c.tree.as_ref());
    let price = match tree.map(|t| (t, crate::design::price(t, &s.components, kpd))) {
        Some((t, Err(DesignError::Refused { part, .. }))) => {
            return Err(format!("{}: component {part} is not researched or not in the tree ({})", s.name, t.path));
        }
        Some((_, Err(e))) => return Err(format!("{}: {e}", s.name)),
        Some((_, Ok(p))) => p,
        None => Price { ore: crate::design::per_efficiency(s.ore, kpd), power: s.power, seconds: s.seconds },
    };
    if let Some(&(minds, 0)) = crate::minds::board(world, owners).get(&clan) {
        return Err(format!("{}: no free mind (the clan has {minds})", s.name));
    }
    let Price { ore, power, seconds } = price;
    // A free robot: no ore, 1 power, its time by the factory's and the chassis's sizes.
    let free = world.resource::<Production>().grants.get(&producer).is_some_and(|g| g.bots > 0);
    let (ore, power, seconds) = match free {
        true => (0.0, FREE_BOT_POWER, free_bot_time(world, producer, &s)?),
        false => (ore, power, seconds),
    };
    let mut p = world.resource_mut::<Production>();
    if let Some(q) = p.producers.get_mut(&producer) {
        q.waiting.remove(0);
        q.active = Some(Job { what: head, total_ms: millis(seconds), power, ore, free, ..Job::default() });
    }
    Ok(true)
}

fn step_builds(world: &mut World) {
    let Ok(rules) = rules(world) else { return };
    let owners = producer_owners(world);
    for (&producer, owner) in &owners {
        if owner.is_none() {
            let gone = world.resource_mut::<Production>().producers.remove(&producer);
            if gone.and_then(|q| q.active).is_some() {
                report(world, ProductionEvent::Rejected, vec![producer], "build: the producer is gone".into());
            }
        }
    }
    let standing = producer_clans(world);
    renew_batches(world, &standing);
    for (&producer, &clan) in &standing {
        loop {
            let idle = world.resource::<Production>().producers.get(&producer).is_some_and(|q| q.active.is_none());
            if !idle {
                break;
            }
            match start_build(world, &rules, producer, clan, &standing) {
                Ok(_) => break,
                Err(e) => {
                    if let Some(q) = world.resource_mut::<Production>().producers.get_mut(&producer) {
                        q.waiting.remove(0);
                    }
                    report(world, ProductionEvent::Rejected, vec![producer], format!("build: {e}"));
                }
            }
        }
        let Some(missing) = world
            .resource::<Production>()
            .producers
            .get(&producer)
            .and_then(|q| q.active.as_ref())
            .map(|j| j.ore - j.ore_got)
        else {
            continue;
        };
        let (rate, kpd) = (iron3d_economy::work_rate(world, producer), iron3d_economy::efficiency(world, producer));
        let arrived = iron3d_economy::take_ore(world, producer, missing);
        let (finished, request, collecting) = {
            let mut p = world.resource_mut::<Production>();
            let Some(job) = p.producers.get_mut(&producer).and_then(|q| q.active.as_mut()) else { continue };
            let full = job.work(rate, arrived);
            let (request, collecting) = (job.construction_request(kpd), job.power_got < job.power);
            (full.then(|| p.producers.get_mut(&producer).and_then(|q| q.active.take())).flatten(), request, collecting)
        };
        iron3d_economy::request_ore(world, producer, request);
        draw_while(world, producer, collecting);
        if let Some(job) = finished {
            finish_build(world, &rules, producer, clan, job);
        }
    }
}

/// What a free robot's power budget is (read).
const FREE_BOT_POWER: f32 = 1.0;

/// A free robot's time at `producer`: by its size and the chassis's
/// ([`crate::grants::free_bot_seconds`]); a chassis larger than the factory is refused.
fn free_bot_time(world: &World, producer: u32, s: &Scheme) -> Result<f32, String> {
    let entity = world.resource::<iron3d_core::ObjectTable>().entity_of(producer);
    let object = entity.and_then(|e| world.get::<iron3d_mission::MissionObject>(e));
    let factory = object.and_then(|o| o.components.first()).and_then(|c| crate::grants::size(&c.key, true));
    let chassis = s.components.first().and_then(|k| crate::grants::size(k, false));
    if let (Some(f), Some(c)) = (factory, chassis)
        && c > f
    {
        return Err(format!("{}: its chassis (size {c}) is larger than the factory (size {f})", s.name));
    }
    Ok(crate::grants::free_bot_seconds(factory, chassis))
}

/// A finished build: the robot joins the world (a free one counted off its factory's
/// grant), or nothing does and its ore goes back to the clan's stores (the project's,
/// [`iron3d_economy::deposit_ore`]).
fn finish_build(world: &mut World, rules: &Rules, producer: u32, clan: i32, job: Job) {
    let built = scheme(world, rules, job.what).and_then(|s| build_robot(world, producer, &s).map(|id| (id, s.name)));
    if built.is_ok()
        && job.free
        && let Some(g) = world.resource_mut::<Production>().grants.get_mut(&producer)
    {
        g.bots = g.bots.saturating_sub(1);
    }
    match built {
        Ok((id, name)) => report(world, ProductionEvent::Produced, vec![producer, id], name),
        Err(e) => {
            iron3d_economy::deposit_ore(world, clan, job.ore_got);
            report(world, ProductionEvent::Rejected, vec![producer], format!("build failed, refunded: {e}"));
        }
    }
}

/// Resolves, constructs and registers the robot `producer` built, and gives it the
/// escape (`ORDER_ROBOT_LEAVE`, no target, replacing: read); its id. It stands at the
/// producer's creation node (its first hall-way place with bit `0x800`, else `0x80`)
/// facing +x, as the original makes it, or, for a producer without one, beside it (the
/// project's).
fn build_robot(world: &mut World, producer: u32, s: &Scheme) -> Result<u32, String> {
    let rules = rules(world)?;
    let entity = world.resource::<iron3d_core::ObjectTable>().entity_of(producer).ok_or("the producer is gone")?;
    let t = *world.get::<SimTransform>(entity).ok_or("the producer has no transform")?;
    let clan = world.get::<Owner>(entity).map_or(0, |o| o.clan);
    let node = world.get::<Places>(entity).and_then(Places::creation_node).map(|n| world_point(&t, n.at));
    let (position, heading) = match node {
        Some(at) => (at, 0.0),
        None => {
            let own = world.get::<ModelBounds>(entity).map_or(0.0, ModelBounds::reach);
            let distance = own + s.radius + rules.production.spawn_gap.value;
            let beside = place(world, &t, distance, s.radius).ok_or("no free walkable ground beside the producer")?;
            (beside, t.heading())
        }
    };
    let id = world.resource::<Production>().next_id;
    let record = PlacedRecord {
        raw_kind: 1,
        resource_name: s.name.clone(),
        raw_after_resource: clan as u32,
        // The logical id scripts name it by: its own id (the project's rule).
        identity_or_clan_raw: id,
        position,
        orientation: [0.0, 0.0, heading],
        scale: [1.0; 3],
        ..PlacedRecord::default()
    };
    let mut object = PreparedObject { clan, record, ..PreparedObject::probe(id, &s.name) };
    resolve_object(world, &mut object).map_err(|e| e.to_string())?;
    // Named as the original names a built bot, from what it is made of (a chassis on a
    // battery of negative capacity makes a Tiny Tower): its clan's running count + 1.
    let number = world.resource::<Production>().named.get(&clan).copied().unwrap_or(0).saturating_add(1);
    object.name = iron3d_mission::names::unit_of(&object, number);
    iron3d_mission::spawn_resolved(world, object);
    let mut production = world.resource_mut::<Production>();
    production.next_id = id.saturating_add(1);
    production.named.insert(clan, number);
    let tick = world.resource::<GameClock>().tick;
    world.resource_mut::<CommandQueue>().push(SimCommand { tick, units: vec![id], order: Order::Leave, queued: false });
    Ok(id)
}

/// The first of [`PLACES_AROUND`] places `distance` from the producer (from its
/// heading on) that is walkable and clear of every other object.
fn place(world: &mut World, t: &SimTransform, distance: f32, radius: f32) -> Option<[f32; 3]> {
    let mut q =
        world.query_filtered::<(&SimTransform, Option<&CollisionProxy>, Option<&ModelBounds>), With<SimObject>>();
    let others: Vec<([f32; 2], f32)> = q
        .iter(world)
        .map(|(o, proxy, bounds)| {
            let r = proxy.map(|p| p.radius).or(bounds.map(ModelBounds::reach)).unwrap_or(0.0);
            ([o.position[0], o.position[1]], r)
        })
        .collect();
    let nav = world.get_resource::<NavMap>()?;
    let ground = world.get_resource::<Ground>();
    (0..PLACES_AROUND).find_map(|k| {
        let a = t.heading() + k as f32 * std::f32::consts::TAU / PLACES_AROUND as f32;
        let (x, y) = (t.position[0] + distance * libm::cosf(a), t.position[1] + distance * libm::sinf(a));
        let clear = others.iter().all(|(p, r)| {
            let (dx, dy) = (p[0] - x, p[1] - y);
            dx * dx + dy * dy >= (r + radius) * (r + radius)
        });
        (nav.walkable(x, y) && clear).then(|| [x, y, ground.and_then(|g| g.height_at(x, y)).unwrap_or(t.position[2])])
    })
}
