//! An object's [`CombatSheet`] from its parts' data (openparkan `docs/26-damage.md`,
//! `docs/28-chassis.md`, `docs/29-weapons.md`; read and measured): one node per `.ndp`
//! row, an attached part's row 0 skipped (its mesh is merged without its node 0, which
//! is the socket it sits in), parents from the mesh's tree, vital nodes by mesh flag
//! `0x200`; armour from the last class-27 component; guns from the class-2 components
//! (a builder's class-30 beam is not one: it never fires), each with the round it names (`objects.rlb` key → the round's controller,
//! node table and explosion); the shield from the last fight shield (9) and deflector
//! (21), the repair system from the last class-15 component, the radar from the last
//! class-8 and the detection shield from the last class-10 one, every class-19 battery
//! and class-5 engine, the class-26 efficiency parts (value 0 and node), the running gear by `.ndp` flag (`docs/24-motion.md`);
//! the class-24 arms, the *n*-th carrying the *n*-th gun or beam (`docs/29-weapons.md`);
//! and what the object gives away to radars (`docs/25-sensors.md`, `docs/28-chassis.md`): its mass, the
//! area and volume of its nodes' level-0 mesh slots, and its parts' power by channel.

use crate::ObjectComponent;
use crate::game_backend::GameMissionBackend;
use iron3d_core::{
    BatterySheet, CombatSheet, EfficiencySheet, EngineSheet, FigureSheet, Gear, GunSheet, HitSheet, NodeSheet,
    RadarSheet, RepairSheet, RoundSheet, SeekerSheet, ShieldSheet, StealthSheet, power_channel,
};
use iron3d_formats::helpers::ctld::ItemRecord;
use iron3d_formats::helpers::ndpr::{GEAR_LEFT, GEAR_RIGHT, NdprRecord};
use iron3d_formats::helpers::{Expl, Ndpr};
use iron3d_formats::registry::{Prototype, PrototypeResolver};
use iron3d_formats::{Error, Result, ResultExt};
use std::sync::Arc;

/// Mesh node flag of a vital node (read).
const VITAL: u16 = 0x200;
/// Component classes: turret (1), guns (2) and builders' beams (30), engine (5), radar
/// (8), fight shield (9), detection shield (10), repair (15), battery (19), deflector
/// (21), arm (24), efficiency (26), armour (27).
const TURRET: u32 = 1;
const GUN: u32 = 2;
const ENGINE: u32 = 5;
const RADAR: u32 = 8;
const DETECT_SHIELD: u32 = 10;
const BATTERY: u32 = 19;
const BUILDER_GUN: u32 = 30;
const FIGHT_SHIELD: u32 = 9;
const REPAIR: u32 = 15;
const DEFLECTOR: u32 = 21;
/// A round's seeker.
const SEEKER: u32 = 17;
const ARM: u32 = 24;
const ARMOUR: u32 = 27;
const EFFICIENCY: u32 = 26;
/// Gun record flag: every barrel at once (read).
const VOLLEY: u32 = 0x0200_0000;
/// Mesh "no parent" marker.
const ROOT: u16 = 0xFFFF;

/// One component's share of the body: where its nodes start and whether its row 0 is
/// skipped.
#[derive(Clone, Copy)]
struct Span {
    first: usize,
    rows: usize,
    skips_root: bool,
}

/// The running gear a node's flags name (left first when a node names both).
fn gear(r: &NdprRecord) -> Gear {
    match r.flags() {
        f if f & GEAR_LEFT != 0 => Gear::Left,
        f if f & GEAR_RIGHT != 0 => Gear::Right,
        _ => Gear::None,
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl GameMissionBackend {
    /// The combat sheet of an object whose components are resolved to `protos`;
    /// `None` when no part carries a node table. `slots[i]` is the device of its parent
    /// a fitted part (an internal part, armour or clip) takes over: openparkan
    /// `docs/28-chassis.md` (read and measured), such a part brings no nodes and no
    /// device of its own, its record replaces the slot's, keeping the slot's node and
    /// entries. The original tells a fitted part by its `objects.rlb` tag (`INTO`); the
    /// project by its `.dat` type, every type but the turret's and the gun's (a guess:
    /// the doc's fitted parts are the internal parts, armour and clips).
    pub(crate) fn combat_sheet(
        &self,
        resolver: &PrototypeResolver<'_>,
        components: &[ObjectComponent],
        protos: &[Prototype],
        slots: &[Option<u32>],
    ) -> Result<Option<CombatSheet>> {
        let mut spans = Vec::with_capacity(components.len());
        let mut nodes: Vec<NodeSheet> = Vec::new();
        let mut meshes = Vec::with_capacity(components.len());
        let mut figures = FigureSheet::default();
        let mut hull = None;
        for (i, (c, p)) in components.iter().zip(protos).enumerate() {
            if fitted(slots, i).is_some() {
                spans.push(Span { first: nodes.len(), rows: 0, skips_root: false });
                meshes.push(None);
                continue;
            }
            let rows = self.node_table(p)?;
            let mesh = self.mesh_facts(p)?;
            let skips_root = c.parent.is_some() && !rows.is_empty();
            let kept = rows.len() - usize::from(skips_root);
            spans.push(Span { first: nodes.len(), rows: kept, skips_root });
            for (local, r) in rows.iter().enumerate().skip(usize::from(skips_root)) {
                nodes.push(NodeSheet { hit_points: r.hit_points(), parent: None, vital: false, gear: gear(r) });
                let slot = mesh.as_ref().and_then(|m| m.nodes.get(local)).copied().unwrap_or_default();
                if hull.is_none() && slot.area > 0.0 {
                    hull = Some(nodes.len() - 1);
                }
                figures.mass += r.density() * slot.volume;
                // The root part's (component 0's) own body.
                if i == 0 {
                    figures.own_mass += r.density() * slot.volume;
                }
                figures.area += slot.area;
                figures.volume += slot.volume;
            }
            meshes.push(mesh);
        }
        if nodes.is_empty() {
            return Ok(None);
        }
        if nodes.len() > usize::from(u16::MAX) {
            return Err(Error::rule("node_count", format!("{} nodes, at most 65535", nodes.len())));
        }
        for (i, mesh) in meshes.iter().enumerate() {
            let span = spans[i];
            for k in 0..span.rows {
                let local = k + usize::from(span.skips_root);
                let Some(at) = global(components, &spans, i, local) else { continue };
                let node = mesh.as_ref().and_then(|m| m.nodes.get(local)).copied().unwrap_or_default();
                let (flags, parent) = (node.flags, node.parent);
                let parent = match (local, parent) {
                    (0, _) => None,
                    (_, ROOT) => global(components, &spans, i, 0),
                    (_, p) => global(components, &spans, i, usize::from(p)),
                };
                let node = &mut nodes[at];
                node.vital = flags & VITAL != 0;
                node.parent = parent.and_then(|p| u16::try_from(p).ok()).filter(|&p| usize::from(p) != at);
            }
        }
        let hull = hull.and_then(|n| u16::try_from(n).ok());
        let pieces = spans
            .iter()
            .enumerate()
            .map(|(i, span)| {
                (0..span.rows + usize::from(span.skips_root))
                    .map(|local| global(components, &spans, i, local).and_then(|n| u16::try_from(n).ok()))
                    .collect()
            })
            .collect();
        let mut sheet = CombatSheet { nodes, armour: [1.0, 0.0], hull, pieces, ..CombatSheet::default() };
        let (mut shield, mut deflector, mut armour_weight) = (None, None, 0.0);
        // The turret's followers pair the n-th gun or beam with the n-th arm (read); the
        // project pairs them in the order the object's components list them, as every
        // follower of the shipped assemblies finds its gun (measured).
        let (mut arms, mut mounts, mut places) = (0, 0, Vec::new());
        let devices = self.devices(components, protos, slots)?;
        for (i, (p, items)) in protos.iter().zip(&devices).enumerate() {
            for item in items {
                let v = item.values();
                let node = || {
                    let at = global(components, &spans, i, item.key() as usize)
                        .or_else(|| global_root(components, &spans, i));
                    u16::try_from(at.unwrap_or(0)).unwrap_or(0)
                };
                figures.mass += item.mass();
                match item.tag() {
                    ENGINE => figures.engine += item.power(),
                    BATTERY => {}
                    class => figures.asks[power_channel(class)] += item.power(),
                }
                match item.tag() {
                    ARMOUR => (armour_weight, sheet.armour) = (v[0], [v[1], v[2]]),
                    ENGINE => sheet.engines.push(EngineSheet { drive: v[0], node: node() }),
                    TURRET => sheet.turret_yaw_rate = self.yaw_rate(p, item)?.or(sheet.turret_yaw_rate),
                    RADAR => {
                        sheet.radar = Some(RadarSheet {
                            sensitivity: [v[0], v[1], v[2]],
                            range: v[3],
                            period_ms: v[4],
                            node: node(),
                        });
                    }
                    BATTERY => {
                        sheet.batteries.push(BatterySheet { capacity: v[0], output: item.power(), node: node() });
                    }
                    DETECT_SHIELD => {
                        sheet.stealth = Some(StealthSheet {
                            cuts: [v[0], v[1], v[2]],
                            camouflage: v[3],
                            camouflage_power: v[4],
                            power: item.power(),
                            node: node(),
                        });
                    }
                    FIGHT_SHIELD => shield = Some((v[0], v[1], v[2], node())),
                    DEFLECTOR => deflector = Some(([v[0], v[1], v[2], v[3], v[4], v[5]], node())),
                    REPAIR => sheet.repair = Some(RepairSheet { rate: v[0], charge_per_point: v[1], node: node() }),
                    EFFICIENCY => {
                        // A key outside its part's node table never answers.
                        let node =
                            global(components, &spans, i, item.key() as usize).and_then(|n| u16::try_from(n).ok());
                        sheet.efficiency.push(EfficiencySheet { value: v[0], node });
                    }
                    ARM => arms += 1,
                    BUILDER_GUN => {
                        sheet.beam = Some(node());
                        mounts += 1;
                    }
                    GUN => {
                        let gun = self.gun(resolver, p, item, node()).via(format!("gun of {}", p.key))?;
                        sheet.guns.push(gun);
                        places.push(mounts);
                        mounts += 1;
                    }
                    _ => {}
                }
            }
        }
        for (gun, place) in sheet.guns.iter_mut().zip(places) {
            gun.arm = place < arms;
        }
        if let (Some((points, recharge, charge_per_point, node)), Some((coefficients, deflector_node))) =
            (shield, deflector)
        {
            sheet.shield = Some(ShieldSheet { points, recharge, charge_per_point, node, coefficients, deflector_node });
        }
        // Armour's first value is a weight per unit of area, over every node.
        figures.mass += armour_weight * figures.area;
        sheet.figures = figures;
        Ok(Some(sheet))
    }

    /// Each component's devices: its `.ctl` records, those of a fitted part's parent
    /// with the slot it takes over replaced by the part's one record (the slot's node
    /// and entries kept); a fitted part has none of its own.
    fn devices(
        &self,
        components: &[ObjectComponent],
        protos: &[Prototype],
        slots: &[Option<u32>],
    ) -> Result<Vec<Vec<ItemRecord>>> {
        let records = |p: &Prototype| -> Result<Vec<ItemRecord>> {
            Ok(match p.first(".ctl") {
                Some(ctl) => self.control(ctl)?.items.clone(),
                None => Vec::new(),
            })
        };
        let mut devices = Vec::with_capacity(protos.len());
        for (i, p) in protos.iter().enumerate() {
            devices.push(if fitted(slots, i).is_some() { Vec::new() } else { records(p)? });
        }
        for (i, (c, p)) in components.iter().zip(protos).enumerate() {
            let (Some(slot), Some(parent)) = (fitted(slots, i), c.parent) else { continue };
            let fit = format!("fitted part {} into device {slot} of {}", p.key, components[parent].key);
            let mut record = records(p)?
                .into_iter()
                .next()
                .ok_or_else(|| Error::rule("fitted_part_record", format!("{fit}: the part's .ctl has no record")))?;
            let n = devices.get(parent).map_or(0, Vec::len);
            let Some(target) = devices.get_mut(parent).and_then(|d| d.get_mut(slot as usize)) else {
                return Err(Error::rule("fitted_part_slot", format!("{fit}: the part fitted to has {n} devices")));
            };
            // The slot keeps its node and its entries (a gun's barrels); the part's follow.
            record.set_key(target.key());
            record.bindings.splice(0..0, target.bindings.iter().copied());
            *target = record;
        }
        Ok(devices)
    }

    /// A turret component's yaw rate (rad/s): its first channel's rate × span, from its
    /// part's control description; `None` without a channel.
    fn yaw_rate(&self, p: &Prototype, item: &ItemRecord) -> Result<Option<f32>> {
        Ok(self.first_channel(p, item)?.map(|(rate, span)| rate * span).filter(|r| r.is_finite() && *r > 0.0))
    }

    /// The `(rate, span)` of the first channel `item` of prototype `p` names (`None`
    /// without one).
    fn first_channel(&self, p: &Prototype, item: &ItemRecord) -> Result<Option<(f32, f32)>> {
        let (Some(ctl), Some(&first)) = (p.first(".ctl"), item.bindings.first()) else { return Ok(None) };
        let ctld = self.control(ctl)?;
        Ok(ctld.rows.get(first as usize).and_then(|row| row.channel(ctld.layout)))
    }

    /// A gun component of prototype `p`, its barrel stroke and its round.
    fn gun(&self, resolver: &PrototypeResolver<'_>, p: &Prototype, item: &ItemRecord, node: u16) -> Result<GunSheet> {
        let v = item.values();
        let key = text(item.emits().1);
        let round = match resolver.resolve(&key).as_ref() {
            Ok(p) => self.round(p).via(format!("round {key}"))?,
            Err(e) => return Err(e.clone().via(format!("round {key}"))),
        };
        Ok(GunSheet {
            node,
            magazine: v[0] as i32,
            capacitor: v[1],
            shot_energy: v[2],
            interval_ms: v[3],
            barrels: u16::try_from(item.bindings.len().max(1)).unwrap_or(u16::MAX),
            volley: item.flags() & VOLLEY != 0,
            stroke_ms: self
                .first_channel(p, item)?
                .map(|(rate, _)| 1000.0 / rate)
                .filter(|s| s.is_finite() && *s > 0.0),
            arm: false,
            round,
        })
    }

    /// A round: speed and range from its controller, and its seeker, the last class-17
    /// component of it; hit points and explosion from its node 0.
    fn round(&self, p: &Prototype) -> Result<RoundSheet> {
        let ctl = p.first(".ctl").ok_or_else(|| Error::rule("round_controller", "the round has no .ctl"))?;
        let control = self.control(ctl)?;
        let ((speed, range), flags) = (control.round_flight(), control.round_flags());
        let seeker = control.items.iter().rfind(|i| i.tag() == SEEKER).map(|i| {
            let v = i.values();
            SeekerSheet { cone: v[0], reach: v[1], lock_ms: v[2] }
        });
        let ndp = p.first(".ndp").ok_or_else(|| Error::rule("round_nodes", "the round has no .ndp"))?;
        let rows = self.node_table(p)?;
        let row = rows.first().ok_or_else(|| Error::rule("round_nodes", "the round's .ndp is empty"))?;
        let (archive, member) = (text(row.archive()), text(row.resource()));
        let hit = if member.is_empty() {
            HitSheet { kind: 1, damage: 0.0, radius: 0.0 }
        } else {
            let bytes = self.game.read_entry(&archive, &member).via(format!("{} row 0", ndp.resource))?;
            let e = Expl::parse(&bytes).in_entry(member.clone()).in_file(archive)?;
            HitSheet { kind: e.kind().word(), damage: e.damage(), radius: e.radius() }
        };
        Ok(RoundSheet { speed, range, hit_points: row.hit_points(), flags, hit, seeker })
    }

    /// A prototype's `.ndp` rows (none without one), parsed once per file.
    pub(crate) fn node_table(&self, p: &Prototype) -> Result<Arc<Vec<iron3d_formats::helpers::ndpr::NdprRecord>>> {
        let Some(r) = p.first(".ndp") else { return Ok(Arc::new(Vec::new())) };
        self.game.parsed(&format!("ndpr:{}::{}", r.archive, r.resource), || {
            let bytes = self.game.read_entry(&r.archive, &r.resource)?;
            Ok(Ndpr::parse(&bytes).in_entry(r.resource.clone()).in_file(r.archive.clone())?.records)
        })
    }
}

/// The device of its parent component `i` takes over when it is a fitted part.
fn fitted(slots: &[Option<u32>], i: usize) -> Option<u32> {
    slots.get(i).copied().flatten()
}

/// The body index of node `local` of component `i`: its own row, or for an attached
/// part's skipped node 0 the node of its parent it sits on.
fn global(components: &[ObjectComponent], spans: &[Span], i: usize, local: usize) -> Option<usize> {
    let span = spans.get(i)?;
    if span.skips_root && local == 0 {
        return global_root(components, spans, i);
    }
    let k = local - usize::from(span.skips_root);
    (k < span.rows).then_some(span.first + k)
}

/// The node an attached component sits on (its parent's attach node); `None` for the
/// root component.
fn global_root(components: &[ObjectComponent], spans: &[Span], i: usize) -> Option<usize> {
    let c = &components[i];
    let parent = c.parent.filter(|&p| p < i)?;
    global(components, spans, parent, c.attach_node as usize)
}
