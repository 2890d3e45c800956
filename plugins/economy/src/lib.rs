//! The economy of Behavior (`docs/reference/runtime.md` §4): ore properties, the clans' resource
//! distributors and the ore production chain.
//!
//! * When the game starts (`OnEnter(AppState::InGame)`, after SuperAI filled the
//!   `GetSuperAI` table at scenario start) every object with a Unit DAT
//!   ([`UnitClass`]) gets its [`OreProperty`] from its mission properties and the class
//!   table, and the distributors are built ([`distributor::memberships`]).
//! * Each tick, in `SimSystems::Behavior`, every distributor runs its regular step
//!   ([`Distributor::step`]) with `dt` = one tick; producers answer through their
//!   tag-26 devices ([`OreDevices`], query `0x1002`), receivers are ore stores with
//!   room below their `MaximumOre`. The devices come from the CTLD tag-26 items and NDP
//!   rows the mission load read ([`iron3d_core::ProductionParts`]). They run in
//!   `BehaviorPhase::Economy`, after the orders due are taken and before units act.
//! * Each tick, in `ProductionPhase::Income` (before production pays), every mine digs
//!   and holds its running total ([`mining`], the original's rule).
//! * Every change of an object's ore goes through this crate: [`OreProperty`]'s
//!   methods (`set`, `add`, `transfer`), [`withdraw_ore`] and [`refund_ore`].
//! * After each tick (`FixedPostUpdate`) each clan's ore and power are published as
//!   [`iron3d_core::EconomyBoard`] ([`clan_summary`] per clan), in
//!   [`iron3d_core::SimSummaries`].

pub mod bars;
pub mod distributor;
pub mod mining;
pub mod ore;
pub mod ore_chain;

pub use distributor::{Distributor, Row, StepHost, StepReport};
pub use mining::{MineDig, MiningRate};
pub use ore::{OreProperty, class_defaults};
pub use ore_chain::{OreDevice, OreDevices, Transfer};

use bevy_app::{App, FixedPostUpdate, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_state::prelude::*;
use iron3d_core::{
    AppState, BehaviorPhase, EconomyBoard, Fnv1a, MissionLoadPhase, MissionStart, ObjectTable, OriginalObjectId, Owner,
    ProductionParts, ProductionPhase, PropertyBag, SimSummaries, SuperAiSlots, TICK_SECONDS, UnitClass,
};

/// Installs the economy (needs `iron3d_core::CorePlugin`).
#[derive(Debug, Clone, Copy, Default)]
pub struct EconomyPlugin {
    /// The `Transfer_*` values.
    pub transfer: Transfer,
    /// Ore a mine extracts per second ([`MiningRate`]; none by default).
    pub mine_ore_per_second: f32,
}

impl EconomyPlugin {
    /// The economy with the shipped rules file's mining rate.
    ///
    /// # Panics
    /// Never in a release: a test keeps the shipped rules valid.
    pub fn shipped() -> Self {
        #[expect(clippy::expect_used, reason = "the shipped rules are checked by a test")]
        let rules = iron3d_rules::Rules::shipped().expect("the shipped rules file is valid");
        Self { mine_ore_per_second: rules.production.mine_ore_per_second.value, ..Self::default() }
    }
}

/// The mission's distributors and transfer configuration.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Economy {
    /// One distributor per available `GetSuperAI` slot with members, by slot.
    pub distributors: Vec<Distributor>,
    /// `Transfer_Ore_OffBoard` / `Transfer_Power_Out`.
    pub transfer: Transfer,
}

impl Plugin for EconomyPlugin {
    fn build(&self, app: &mut App) {
        let transfer = self.transfer;
        app.insert_resource(Economy { distributors: Vec::new(), transfer })
            .insert_resource(MiningRate(self.mine_ore_per_second))
            .register_type::<Economy>()
            .register_type::<OreProperty>()
            .register_type::<OreDevices>()
            .register_type::<MineDig>()
            .add_systems(OnEnter(MissionLoadPhase::ScenarioStart), mining::adopt_rules)
            .add_systems(OnEnter(AppState::InGame), (setup, mining::survey).chain().in_set(MissionStart::Objects))
            .add_systems(OnExit(AppState::InGame), move |mut e: ResMut<Economy>, mut board: ResMut<EconomyBoard>| {
                *e = Economy { distributors: Vec::new(), transfer };
                *board = EconomyBoard::default();
            })
            .add_systems(FixedUpdate, mining::mine.in_set(ProductionPhase::Income))
            .add_systems(FixedUpdate, (adopt, step).chain().in_set(BehaviorPhase::Economy))
            .add_systems(FixedPostUpdate, publish.in_set(SimSummaries).run_if(in_state(AppState::InGame)));
    }
}

type SetupRow<'a> =
    (Entity, &'a OriginalObjectId, &'a Owner, &'a UnitClass, Option<&'a PropertyBag>, Option<&'a ProductionParts>);

fn setup(mut commands: Commands, slots: Res<SuperAiSlots>, objects: Query<SetupRow>, mut economy: ResMut<Economy>) {
    let mut candidates = Vec::new();
    for (entity, id, owner, class, bag, parts) in &objects {
        if let Some(parts) = parts {
            commands.entity(entity).insert(OreDevices::from_parts(parts));
        }
        commands.entity(entity).insert(initial_ore(*class, bag));
        candidates.push((id.0, owner.clan as u32, class.0));
    }
    economy.distributors = distributor::memberships(candidates, |s| slots.available(s));
}

/// Objects with a Unit DAT that joined a running mission (production's robots) get
/// their ore property as at game start (mission properties, then the class table).
/// They join no distributor: membership is decided at game start (`docs/reference/runtime.md` §4.1).
fn adopt(
    mut commands: Commands,
    new: Query<(Entity, &UnitClass, Option<&PropertyBag>), (With<iron3d_core::SimObject>, Without<OreProperty>)>,
) {
    for (entity, class, bag) in &new {
        commands.entity(entity).insert(initial_ore(*class, bag));
    }
}

/// The ore property of an object of `class` with the mission properties `bag`.
fn initial_ore(class: UnitClass, bag: Option<&PropertyBag>) -> OreProperty {
    let properties = bag.map(|b| b.0.as_slice()).unwrap_or_default();
    ore::initial(class.0, properties.iter().map(|p| (p.name.as_str(), p.raw_value)), &ore::DESCRIPTORS)
}

struct GameStep<'w, 's, 'a> {
    keys: &'a [(u32, u32)],
    table: &'a ObjectTable,
    objects: &'a mut Query<'w, 's, (Option<&'static mut OreProperty>, Option<&'static OreDevices>)>,
    transfer: Transfer,
}

impl StepHost for GameStep<'_, '_, '_> {
    fn lookup(&mut self, key: u32) -> Option<u32> {
        let (_, id) = self.keys.iter().find(|(k, _)| *k == key)?;
        self.table.entity_of(*id).map(|_| *id)
    }

    fn skips(&mut self, _object: u32) -> bool {
        false
    }

    fn output(&mut self, object: u32) -> f32 {
        let Some(e) = self.table.entity_of(object) else { return 0.0 };
        match self.objects.get(e) {
            Ok((_, Some(devices))) => devices.ore_offboard(self.transfer).unwrap_or(f32::NAN),
            _ => 0.0,
        }
    }

    fn room(&mut self, object: u32) -> f32 {
        let Some(e) = self.table.entity_of(object) else { return 0.0 };
        match self.objects.get(e) {
            Ok((Some(ore), _)) if ore.maximum > 0 => ore.room(),
            _ => 0.0,
        }
    }

    fn take(&mut self, _object: u32, _amount: f32) {}

    fn give(&mut self, object: u32, amount: f32) {
        let Some(e) = self.table.entity_of(object) else { return };
        if let Ok((Some(mut ore), _)) = self.objects.get_mut(e) {
            ore.add(amount);
        }
    }
}

fn step(
    mut economy: ResMut<Economy>,
    table: Res<ObjectTable>,
    mut objects: Query<(Option<&'static mut OreProperty>, Option<&'static OreDevices>)>,
) {
    let transfer = economy.transfer;
    let dt = TICK_SECONDS;
    for d in &mut economy.distributors {
        let keys: Vec<(u32, u32)> = d.rows.iter().map(|r| (r.key, r.object)).collect();
        let mut host = GameStep { keys: &keys, table: &table, objects: &mut objects, transfer };
        d.step(dt, &mut host);
    }
}

/// Feeds the economy state (distributor rows and carries, every ore property in
/// `OriginalObjectId` order) to `h` (the simulation's state hash).
pub fn hash_into(world: &mut World, h: &mut Fnv1a) {
    if let Some(e) = world.get_resource::<Economy>() {
        for d in &e.distributors {
            h.write(&d.slot.to_le_bytes());
            for r in &d.rows {
                for w in [r.key, r.object, r.weight.to_bits(), u32::from(r.pinned)].iter().chain(&r.tail) {
                    h.write(&w.to_le_bytes());
                }
            }
            h.write(&d.carry.to_bits().to_le_bytes());
        }
    }
    let mut q = world.query::<(&OriginalObjectId, &OreProperty, Option<&MineDig>)>();
    let mut rows: Vec<(u32, OreProperty, Option<MineDig>)> =
        q.iter(world).map(|(id, o, d)| (id.0, *o, d.copied())).collect();
    rows.sort_unstable_by_key(|r| r.0);
    for (id, o, dig) in rows {
        for w in [id, o.current_bits, o.maximum] {
            h.write(&w.to_le_bytes());
        }
        if let Some(d) = dig {
            for w in [d.to_mine.to_bits(), d.total.to_bits(), u32::from(d.done)] {
                h.write(&w.to_le_bytes());
            }
        }
    }
}

/// A clan's economy: `(ore, power)` — the ore held by the objects of GetSuperAI slot
/// `slot` and, by the project's reading, `Transfer_Power_Out` per generator member of
/// its distributor.
pub fn clan_summary(world: &mut World, slot: u32) -> (f32, f32) {
    let mut q = world.query::<(&Owner, &OreProperty)>();
    let ore = q.iter(world).filter(|(o, _)| o.clan as u32 == slot).fold(0.0f32, |s, (_, p)| s + p.current());
    let mut classes = world.query::<(&OriginalObjectId, &UnitClass)>();
    let Some(economy) = world.get_resource::<Economy>() else { return (ore, 0.0) };
    (ore, power(economy, slot, classes.iter(world).map(|(id, c)| (id.0, c.0))))
}

/// `Transfer_Power_Out` per generator member of slot `slot`'s distributor, among the
/// `(id, class)` of `classes`.
fn power(economy: &Economy, slot: u32, classes: impl Iterator<Item = (u32, u32)>) -> f32 {
    let members: Vec<u32> =
        economy.distributors.iter().filter(|d| d.slot == slot).flat_map(|d| d.rows.iter().map(|r| r.object)).collect();
    let per = ore_chain::power_out(economy.transfer).unwrap_or(0.0);
    per * classes.filter(|(id, c)| *c == UnitClass::GENERATOR && members.contains(id)).count() as f32
}

/// Publishes every clan's [`clan_summary`] (clan index = slot) and HUD bars
/// ([`bars`]) as [`EconomyBoard`].
fn publish(
    economy: Res<Economy>,
    holders: Query<(&Owner, &OreProperty, Option<&UnitClass>, Option<&MineDig>)>,
    classes: Query<(&OriginalObjectId, &UnitClass)>,
    mut board: ResMut<EconomyBoard>,
) {
    let mut clans = std::collections::BTreeMap::<i32, iron3d_core::ClanEconomy>::new();
    for (owner, ore, ..) in &holders {
        clans.entry(owner.clan).or_default().ore += ore.current();
    }
    for d in &economy.distributors {
        let slot = d.slot;
        let row = clans.entry(slot as i32).or_default();
        row.power = power(&economy, slot, classes.iter().map(|(id, c)| (id.0, c.0)));
    }
    let objects = holders.iter().filter_map(|(owner, ore, class, dig)| {
        let class = class?.0;
        Some(bars::Holding { clan: owner.clan, class, ore: ore.current(), digging: dig.is_some_and(MineDig::digging) })
    });
    bars::fill(&mut clans, objects);
    board.clans = clans;
}

/// The ore held by the objects of `clan` (`Owner::clan`): `(id, amount)` of every
/// holder with ore, in `OriginalObjectId` order.
fn holders(world: &mut World, clan: i32) -> Vec<(u32, f32)> {
    let mut q = world.query::<(&OriginalObjectId, &Owner, &OreProperty)>();
    let mut rows: Vec<(u32, f32)> = q
        .iter(world)
        .filter(|(_, o, p)| o.clan == clan && p.current() > 0.0)
        .map(|(id, _, p)| (id.0, p.current()))
        .collect();
    rows.sort_unstable_by_key(|r| r.0);
    rows
}

/// Takes `amount` ore from the stores of `clan` (the project's production rule): from
/// each holder in `OriginalObjectId` order as much as it has until the amount is paid.
/// Returns what was taken from whom (for [`refund_ore`]), or `None` (and takes
/// nothing) when the clan holds less than `amount`.
pub fn withdraw_ore(world: &mut World, clan: i32, amount: f32) -> Option<Vec<(u32, f32)>> {
    let rows = holders(world, clan);
    if !amount.is_finite() || amount < 0.0 || rows.iter().fold(0.0f32, |s, r| s + r.1) < amount {
        return None;
    }
    let mut rest = amount;
    let mut paid = Vec::new();
    for (id, have) in rows {
        if rest <= 0.0 {
            break;
        }
        let take = have.min(rest);
        rest -= take;
        paid.push((id, take));
    }
    adjust(world, &paid, -1.0);
    Some(paid)
}

/// Gives back what [`withdraw_ore`] took (to the same objects; an object gone since
/// keeps nothing).
pub fn refund_ore(world: &mut World, paid: &[(u32, f32)]) {
    adjust(world, paid, 1.0);
}

fn adjust(world: &mut World, rows: &[(u32, f32)], sign: f32) {
    for &(id, amount) in rows {
        let Some(e) = world.resource::<ObjectTable>().entity_of(id) else { continue };
        if let Some(mut ore) = world.get_mut::<OreProperty>(e) {
            let left = (ore.current() + sign * amount).max(0.0);
            ore.set(left);
        }
    }
}

#[cfg(test)]
mod tests;
