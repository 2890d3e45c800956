//! The economy of Behavior (`docs/reference/runtime.md` §4, gameplay.md §3, dragonee/openparkan
//! `docs/23-economy.md`): ore properties, the clans' resource distributors, efficiency,
//! the behaviour profiles' numbers and mining.
//!
//! * When the game starts (`OnEnter(AppState::InGame)`, after SuperAI filled the
//!   `GetSuperAI` table at scenario start) every object with a Unit DAT
//!   ([`UnitClass`]) gets its [`OreProperty`] from its mission properties and the class
//!   table, and the distributors are built ([`distributor::memberships`]).
//! * Each clan's distributor steps every 192 to 255 ms ([`Distributor::step`], in
//!   `BehaviorPhase::Economy`, after the orders due are taken and before units act):
//!   mines and storages offer ore at their efficiency ([`kpd`]: what combat
//!   publishes of their efficiency parts) × their profile's `Transfer_Ore_OffBoard`, and
//!   the members that ask (a factory building, a centre researching: [`request_ore`])
//!   share it; the generators' power tops up the other members' batteries
//!   ([`iron3d_core::Power`], which combat's power tick spends) by their share of what
//!   they lack.
//! * Each tick, in `ProductionPhase::Economy` (before production pays), every mine digs
//!   and holds its running total ([`mining`], the original's rule).
//! * Every change of an object's ore goes through this crate: [`OreProperty`]'s
//!   methods (`set`, `add`, `transfer`), [`request_ore`], [`take_ore`] and
//!   [`deposit_ore`].
//! * After each tick (`FixedPostUpdate`) each clan's ore and power are published as
//!   [`iron3d_core::EconomyBoard`] ([`clan_summary`] per clan), in
//!   [`iron3d_core::SimSummaries`].

pub mod bars;
pub mod distributor;
pub mod kpd;
pub mod mining;
pub mod ore;
pub mod profiles;

pub use distributor::{Distributor, Row, StepHost, StepReport};
pub use mining::{MineDig, MiningRate};
pub use ore::{OreProperty, class_defaults};
pub use profiles::{EconomyProfiles, Profile};

use bevy_app::{App, FixedPostUpdate, FixedUpdate, Plugin};
use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;
use bevy_state::prelude::*;
use iron3d_core::{
    AppState, BehaviorPhase, EconomyBoard, Efficiency, Fnv1a, GameClock, Hashing, MissionLoadPhase, MissionStart,
    ObjectTable, OriginalObjectId, Owner, Power, PowerUsage, ProductionPhase, PropertyBag, SimRandom, SimSummaries,
    StateApp, SuperAiSlots, UnitClass,
};

/// Installs the economy (needs `iron3d_core::CorePlugin`).
#[derive(Debug, Clone, Copy, Default)]
pub struct EconomyPlugin {
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
        Self { mine_ore_per_second: rules.production.mine_ore_per_second.value }
    }
}

/// The mission's distributors.
#[derive(Resource, Debug, Clone, Default, PartialEq, Reflect, serde::Serialize, serde::Deserialize)]
#[reflect(Resource)]
pub struct Economy {
    /// One distributor per available `GetSuperAI` slot with members, by slot.
    pub distributors: Vec<Distributor>,
}

impl Plugin for EconomyPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Economy>()
            .init_resource::<EconomyProfiles>()
            .insert_resource(MiningRate(self.mine_ore_per_second))
            .register_type::<Economy>()
            .register_type::<OreProperty>()
            .register_type::<MineDig>()
            .save_component::<OreProperty>("economy.ore", Hashing::By("economy"))
            .save_component::<MineDig>("economy.mine_dig", Hashing::By("economy"))
            .save_component::<PowerUsage>("economy.power_usage", Hashing::Bytes)
            .save_resource::<Economy>("economy.distributors", Hashing::By("economy"))
            .hash_state("economy", hash)
            .add_systems(OnEnter(MissionLoadPhase::ScenarioStart), (mining::adopt_rules, profiles::adopt))
            .add_systems(OnEnter(AppState::InGame), (setup, mining::survey).chain().in_set(MissionStart::Objects))
            .add_systems(OnExit(AppState::InGame), move |mut e: ResMut<Economy>, mut board: ResMut<EconomyBoard>| {
                *e = Economy::default();
                *board = EconomyBoard::default();
            })
            .add_systems(FixedUpdate, (mining::survey, mining::mine).chain().in_set(ProductionPhase::Economy))
            .add_systems(FixedUpdate, (adopt, step).chain().in_set(BehaviorPhase::Economy))
            .add_systems(FixedPostUpdate, publish.in_set(SimSummaries).run_if(in_state(AppState::InGame)));
    }
}

type SetupRow<'a> = (Entity, &'a OriginalObjectId, &'a Owner, &'a UnitClass, Option<&'a PropertyBag>);

fn setup(mut commands: Commands, slots: Res<SuperAiSlots>, objects: Query<SetupRow>, mut economy: ResMut<Economy>) {
    let mut candidates = Vec::new();
    for (entity, id, owner, class, bag) in &objects {
        commands.entity(entity).insert(initial_ore(*class, bag));
        if class.registers() {
            commands.entity(entity).insert(PowerUsage::default());
        }
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

type StepRow = (
    Option<&'static mut OreProperty>,
    Option<&'static Efficiency>,
    Option<&'static UnitClass>,
    Option<&'static mut Power>,
);

struct GameStep<'w, 's, 'a> {
    keys: &'a [(u32, u32)],
    table: &'a ObjectTable,
    objects: &'a mut Query<'w, 's, StepRow>,
    profiles: &'a EconomyProfiles,
}

impl StepHost for GameStep<'_, '_, '_> {
    fn lookup(&mut self, key: u32) -> Option<u32> {
        let (_, id) = self.keys.iter().find(|(k, _)| *k == key)?;
        self.table.entity_of(*id).map(|_| *id)
    }

    fn offer(&mut self, object: u32, dt: f32) -> Option<f32> {
        let e = self.table.entity_of(object)?;
        let (ore, efficiency, class, _) = self.objects.get(e).ok()?;
        let class = class.map(|c| c.0).filter(|c| matches!(*c, UnitClass::MINE | UnitClass::STORAGE))?;
        let kpd = kpd::of(efficiency).unwrap_or(f32::NAN);
        let held = ore.map_or(0.0, |o| o.current());
        Some(held.min(dt * kpd * self.profiles.of(class).ore_offboard))
    }

    fn want(&mut self, object: u32) -> f32 {
        let Some(e) = self.table.entity_of(object) else { return 0.0 };
        match self.objects.get(e) {
            Ok((Some(ore), ..)) => ore.room(),
            _ => 0.0,
        }
    }

    fn take(&mut self, object: u32, amount: f32) {
        self.give(object, -amount);
    }

    fn give(&mut self, object: u32, amount: f32) {
        let Some(e) = self.table.entity_of(object) else { return };
        if let Ok((Some(mut ore), ..)) = self.objects.get_mut(e) {
            ore.add(amount);
        }
    }

    fn generate(&mut self, object: u32, dt: f32) -> Option<f32> {
        let e = self.table.entity_of(object)?;
        let (.., class, power) = self.objects.get_mut(e).ok()?;
        let class = class.map(|c| c.0).filter(|c| profiles::SUPPLIERS.contains(c))?;
        if let Some(mut power) = power.filter(|p| p.charge < 1.0) {
            power.charge = 1.0;
        }
        Some(self.profiles.of(class).power_out * dt)
    }

    fn lacks(&mut self, object: u32) -> f32 {
        let Some(e) = self.table.entity_of(object) else { return 0.0 };
        self.objects.get(e).ok().and_then(|(.., power)| power).map_or(0.0, Power::lacks)
    }

    fn charge(&mut self, object: u32, amount: f32) {
        let Some(e) = self.table.entity_of(object) else { return };
        if let Ok((.., Some(mut power))) = self.objects.get_mut(e) {
            power.top_up(amount);
        }
    }
}

/// Steps each distributor whose time has come (`dt` its seconds since its last step)
/// and draws its next step 192 + 0..63 ms on, from the `distribution` stream.
fn step(
    mut economy: ResMut<Economy>,
    table: Res<ObjectTable>,
    profiles: Res<EconomyProfiles>,
    clock: Res<GameClock>,
    mut random: ResMut<SimRandom>,
    mut objects: Query<StepRow>,
) {
    let now = clock.time_ms;
    for d in economy.distributors.iter_mut().filter(|d| clock.reached(d.next_ms)) {
        let keys: Vec<(u32, u32)> = d.rows.iter().map(|r| (r.key, r.object)).collect();
        let mut host = GameStep { keys: &keys, table: &table, objects: &mut objects, profiles: &profiles };
        d.step(now.wrapping_sub(d.last_ms) as f32 / 1000.0, &mut host);
        d.last_ms = now;
        let wait = distributor::PERIOD_MS.0 + random.stream("distribution").below(distributor::PERIOD_MS.1);
        d.next_ms = now.wrapping_add(wait);
    }
}

/// The economy's hasher: distributor rows and step times, then every ore property (and a
/// mine's dig) in `OriginalObjectId` order.
fn hash(world: &World, _: &[(u32, Entity)], h: &mut Fnv1a) {
    if let Some(e) = world.get_resource::<Economy>() {
        h.word(e.distributors.len() as u32);
        for d in &e.distributors {
            [d.slot, d.last_ms, d.next_ms].into_iter().for_each(|w| h.word(w));
            for r in &d.rows {
                [r.key, r.object, r.weight.to_bits(), u32::from(r.pinned)]
                    .iter()
                    .chain(&r.tail)
                    .for_each(|w| h.word(*w));
            }
        }
    }
    // Its own sparse query, sorted: most objects of a large world hold no ore.
    let q =
        world.try_query_filtered::<(&OriginalObjectId, &OreProperty, Option<&MineDig>), With<iron3d_core::SimObject>>();
    let mut rows: Vec<_> = q.map(|q| q.iter_manual(world).collect()).unwrap_or_default();
    rows.sort_unstable_by_key(|r| *r.0);
    for (id, o, dig) in rows {
        [id.0, o.current_bits, o.maximum.to_bits()].into_iter().for_each(|w| h.word(w));
        if let Some(d) = dig {
            [d.to_mine.to_bits(), d.total.to_bits(), u32::from(d.done)].into_iter().for_each(|w| h.word(w));
        }
    }
}

/// A clan's economy: `(ore, power)` — the ore held by the objects of GetSuperAI slot
/// `slot` and the power its distributor's suppliers give per second (each its
/// profile's `Transfer_Power_Out`).
pub fn clan_summary(world: &mut World, slot: u32) -> (f32, f32) {
    let ore = holders(world, slot as i32).into_iter().fold(0.0f32, |s, (_, ore)| s + ore);
    let mut classes = world.query::<(&OriginalObjectId, &UnitClass)>();
    let classes: Vec<(u32, u32)> = classes.iter(world).map(|(id, c)| (id.0, c.0)).collect();
    let (Some(economy), Some(profiles)) = (world.get_resource::<Economy>(), world.get_resource::<EconomyProfiles>())
    else {
        return (ore, 0.0);
    };
    (ore, power(economy, profiles, slot, classes.into_iter()))
}

/// The power slot `slot`'s distributor's suppliers give per second, among the
/// `(id, class)` of `classes` (summed in id order: the same bits however the world
/// lists them).
fn power(economy: &Economy, profiles: &EconomyProfiles, slot: u32, classes: impl Iterator<Item = (u32, u32)>) -> f32 {
    let members: Vec<u32> =
        economy.distributors.iter().filter(|d| d.slot == slot).flat_map(|d| d.rows.iter().map(|r| r.object)).collect();
    let mut suppliers: Vec<(u32, u32)> =
        classes.filter(|(id, c)| profiles::SUPPLIERS.contains(c) && members.contains(id)).collect();
    suppliers.sort_unstable();
    suppliers.into_iter().fold(0.0, |s, (_, c)| s + profiles.of(c).power_out)
}

/// Publishes every clan's [`clan_summary`] (clan index = slot) and HUD bars
/// ([`bars`]) as [`EconomyBoard`].
fn publish(
    economy: Res<Economy>,
    profiles: Res<EconomyProfiles>,
    holders: Query<(&OriginalObjectId, &Owner, &OreProperty, Option<&UnitClass>, Option<&PowerUsage>)>,
    classes: Query<(&OriginalObjectId, &UnitClass)>,
    mut board: ResMut<EconomyBoard>,
) {
    // Summed in id order: the same bits however the world lists the objects.
    let mut holders: Vec<_> = holders.iter().collect();
    holders.sort_unstable_by_key(|h| h.0);
    let mut clans = std::collections::BTreeMap::<i32, iron3d_core::ClanEconomy>::new();
    for (_, owner, ore, ..) in &holders {
        clans.entry(owner.clan).or_default().ore += ore.current();
    }
    for d in &economy.distributors {
        let slot = d.slot;
        let row = clans.entry(slot as i32).or_default();
        row.power = power(&economy, &profiles, slot, classes.iter().map(|(id, c)| (id.0, c.0)));
    }
    let objects = holders.iter().filter_map(|&(_, owner, ore, class, usage)| {
        let class = class?.0;
        Some(bars::Holding { clan: owner.clan, class, ore: ore.current(), usage: usage.map_or(0.0, |u| u.0) })
    });
    bars::fill(&mut clans, &profiles, objects);
    board.clans = clans;
}

/// Building `id`'s efficiency (KPD, gameplay.md §3.2, [`kpd::of`]: its efficiency
/// parts by their nodes' condition at its power level); 0 when it is gone or the sum is
/// not finite.
pub fn efficiency(world: &World, id: u32) -> f32 {
    let Some(e) = world.resource::<ObjectTable>().entity_of(id) else { return 0.0 };
    kpd::of(world.get::<Efficiency>(e)).unwrap_or(0.0)
}

/// The behaviour profile building `id` runs (by its Type; [`Profile::COMPILED`] when
/// it is gone or has none).
pub fn profile(world: &World, id: u32) -> Profile {
    let class =
        world.resource::<ObjectTable>().entity_of(id).and_then(|e| world.get::<UnitClass>(e)).map_or(0, |c| c.0);
    world.get_resource::<EconomyProfiles>().map_or(Profile::COMPILED, |p| p.of(class))
}

/// Building `id`'s task draws `amount` power per second (`SetPowerUsage`; 0: none).
pub fn set_power_usage(world: &mut World, id: u32, amount: f32) {
    let Some(e) = world.resource::<ObjectTable>().entity_of(id) else { return };
    if let Some(mut usage) = world.get_mut::<PowerUsage>(e).filter(|u| u.0 != amount) {
        usage.0 = amount;
    }
}

/// What building `id` collects per second of a power budget while it works (a factory
/// building, a centre researching): efficiency × its profile's `Use_Power`
/// (openparkan `docs/23-economy.md`, read); 0 when the object is gone.
pub fn work_rate(world: &World, id: u32) -> f32 {
    efficiency(world, id) * profile(world, id).use_power
}

/// What object `id`'s ore property holds and asks for (`None`: gone or none).
fn ore_of(world: &mut World, id: u32) -> Option<Mut<'_, OreProperty>> {
    let e = world.resource::<ObjectTable>().entity_of(id)?;
    world.get_mut::<OreProperty>(e)
}

/// Object `id` asks its distributor for ore: its ore maximum becomes `amount`, so the
/// next step offers it the room below (`amount` less what it holds); 0 withdraws the
/// request. The original's construction and research tasks ask so (openparkan
/// `docs/23-economy.md`, read).
pub fn request_ore(world: &mut World, id: u32, amount: f32) {
    if let Some(mut ore) = ore_of(world, id) {
        ore.maximum = amount.max(0.0);
    }
}

/// Takes up to `up_to` of the ore object `id` holds (what its requests brought);
/// returns what was taken.
pub fn take_ore(world: &mut World, id: u32, up_to: f32) -> f32 {
    let Some(mut ore) = ore_of(world, id) else { return 0.0 };
    let taken = ore.current().min(up_to).max(0.0);
    if taken > 0.0 {
        ore.add(-taken);
    }
    taken
}

/// Charges object `id` `amount` ore, without a floor: a builder pays for the building
/// it puts up with what it holds and goes into debt for the rest (read: the original's
/// property setter stores the negative result).
pub fn charge_ore(world: &mut World, id: u32, amount: f32) {
    if let Some(mut ore) = ore_of(world, id) {
        ore.add(-amount);
    }
}

/// Puts `amount` ore back into the stores of `clan` (`Owner::clan`): its mines and
/// storages with room, lowest `OriginalObjectId` first, each up to its maximum (the
/// project's, for a build that failed after collecting its ore). Returns what did not
/// fit.
pub fn deposit_ore(world: &mut World, clan: i32, amount: f32) -> f32 {
    let mut q = world.query::<(&OriginalObjectId, &Owner, &UnitClass, &mut OreProperty)>();
    let mut stores: Vec<_> = q
        .iter_mut(world)
        .filter(|(_, o, c, _)| o.clan == clan && matches!(c.0, UnitClass::MINE | UnitClass::STORAGE))
        .collect();
    stores.sort_unstable_by_key(|s| *s.0);
    let mut rest = amount.max(0.0);
    for (.., mut ore) in stores {
        let put = rest.min(ore.room());
        ore.add(put);
        rest -= put;
    }
    rest
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

#[cfg(test)]
mod tests;
