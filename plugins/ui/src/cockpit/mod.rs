//! The cockpit HUD (openparkan `docs/35-hud.md`, read): while the player drives a unit
//! (the hero on foot, a bot he boarded, telepresence, or piloting in the free view) the
//! original's widgets are drawn on its 640 × 480 layout: the weapons list at the top
//! right, the reticle, the radar with its altitude and speed gauges and the indicators
//! under it at the bottom, the target panel at the bottom left and the driven unit's at
//! the bottom right. The art is the data's: `ui/game_resources.cfg`'s pages of
//! `ui/ui.lib` and the sprites of `ui/compaund.cfg` and `ui/hq.cfg`, read once at
//! start-up; without them (or with a file that does not read, a warning naming it) the
//! widgets draw their figures and fills alone. The landing warning's indicator is red
//! for 3 s after the hero's landing was refused (read). The objectives screen, while up, hides
//! the cockpit, and the satellite map (the minimap, M) the weapons list, as the
//! original's do. The panels name a unit as the original does (the hero *Human*, any
//! other by the name the load or its factory gave it, `iron3d_mission::names`); the
//! radar marks a flyer with a cross; the guided lock beeps and the radar pings
//! (`cockpit::sounds`).
//!
//! The project's parts: text is egui's font (the original's `GAME_FONT` in
//! `gamefont.rlb` is not read); a gun is named by the hero's four names or *NONAME* (the
//! research code of its part is not looked up); the water level is the original's −1 of
//! a map without water (iron3d reads no water plane). The panels show the unit and its
//! target through cameras of their own (`iron3d_render::UnitViews`). The auto-driver's indicators light by the driven unit's level (read).

mod layout;
mod message_box;
pub(crate) mod satellite;
mod sounds;
mod voices;
mod widgets;

use crate::command::Battlefield;
use crate::hud::describe;
use crate::locale::Locale;
use crate::views::{View, Views};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle, egui};
use iron3d_assets::GameData;
use iron3d_combat::{Guns, Repair, Sensor, Shield, Stealth};
use iron3d_core::{
    AppState, ChassisType, ClanRelations, GameClock, Kinematics, MotionLimits, Movable, OriginalObjectId, Owner, Power,
    Radar, SimTransform, SoundCue, Supply, TICK_MS, UnitClass,
};
use iron3d_formats::config::ui_art::GAME_RESOURCES;
use iron3d_formats::config::{InterfaceArt, Sprite};
use iron3d_input::PlayerCommands;
use iron3d_render::{OWN_VIEW, TARGET_VIEW, UnitViews};
pub use layout::{Cut, Ink, Layout, Pin};
pub use sounds::CockpitSounds;
pub use widgets::{Art, Contact, GunRow, Lamp, Lock, Mark, Panel, Sight, Words, frame};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CockpitArt>()
        .init_resource::<CockpitSounds>()
        .init_resource::<voices::GunLatches>()
        .register_type::<voices::GunLatches>()
        .init_resource::<voices::PanelVoices>()
        .register_type::<voices::PanelVoices>()
        .add_systems(Update, voices::speak.run_if(in_state(AppState::InGame)))
        .add_systems(Startup, load_art)
        .add_systems(
            EguiPrimaryContextPass,
            (cockpit, message_box)
                .run_if(in_state(AppState::InGame))
                .in_set(crate::ScreenSystems::InGame)
                .before(crate::hud::hud),
        );
}

/// Draws the message box over every in-game view.
pub fn message_box(
    mut contexts: EguiContexts,
    mut art: ResMut<CockpitArt>,
    hud: Res<crate::hud::HudState>,
    views: Res<Views>,
    (locale, bindings): (Res<Locale>, Res<iron3d_input::Bindings>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let help = crate::help::help_key(&bindings);
    message_box::draw(ctx, art.art(ctx), &hud, &views, &locale, help.as_deref());
    Ok(())
}

/// The water level the altitude is measured from: the original's for a map without
/// water (iron3d reads no water plane).
const WATER: f32 = -1.0;
/// A gun whose rounds hit this hard or more makes a foreign unit *Dangerous!* (read).
const DANGEROUS: f32 = 10_000.0;
/// The hero's four guns' names (`iron3d.dll` strings 3071–3074), in gun order.
const HERO_GUNS: [&str; 4] = ["cockpit-hero-gun-1", "cockpit-hero-gun-2", "cockpit-hero-gun-3", "cockpit-hero-gun-4"];

/// The cockpit's art: the pages and sprites read from the data, uploaded to egui on
/// first use.
#[derive(Resource, Default)]
pub struct CockpitArt {
    /// Pages read and not yet uploaded: name and image.
    pending: Vec<(String, egui::ColorImage)>,
    /// The sprites read.
    sprites: Vec<Sprite>,
    /// The uploaded pages (kept alive) and the art cut from them.
    uploaded: Option<(Vec<egui::TextureHandle>, Art)>,
}

/// Reads the art and the sounds' names at start-up: none without
/// `ui/game_resources.cfg`, a warning naming the file when it does not read.
pub fn load_art(game: Option<Res<GameData>>, mut art: ResMut<CockpitArt>, mut sounds: ResMut<CockpitSounds>) {
    let Some(game) = game else { return };
    if game.0.resolve(GAME_RESOURCES).is_none() {
        info!("{GAME_RESOURCES}: not in the data; the cockpit draws without art");
        return;
    }
    match InterfaceArt::read(|path| game.0.read(path)) {
        Ok(read) => {
            let pending = read
                .pages
                .into_iter()
                .map(|p| (p.name, egui::ColorImage::from_rgba_unmultiplied(p.size.map(|v| v as usize), &p.rgba)))
                .collect();
            *art = CockpitArt { pending, sprites: read.sprites, uploaded: None };
            sounds.names = read.sounds;
        }
        Err(e) => warn!("the cockpit's art: {e}; the cockpit draws without it"),
    }
}

impl CockpitArt {
    /// The art, its pages uploaded to `ctx` on first use.
    pub(crate) fn art(&mut self, ctx: &egui::Context) -> &Art {
        let (pending, sprites) = (std::mem::take(&mut self.pending), &self.sprites);
        &self
            .uploaded
            .get_or_insert_with(|| {
                let mut art = Art::default();
                let mut handles = Vec::new();
                for (name, image) in pending {
                    let handle = ctx.load_texture(format!("cockpit/{name}"), image, egui::TextureOptions::NEAREST);
                    art.pages.insert(name, handle.id());
                    handles.push(handle);
                }
                for s in sprites {
                    if let Some(&texture) = art.pages.get(&s.texture) {
                        art.sprites.insert(s.name.clone(), Cut { texture, rect: s.rect, turns: s.turns });
                    }
                }
                (handles, art)
            })
            .1
    }
}

/// The unit the player drives, when a view drives one (or he pilots in the free view).
pub fn driven(views: &Views, player: &PlayerCommands) -> Option<u32> {
    match views.front() {
        Some(view) => view.driven(),
        None => player.piloted(),
    }
}

type Body<'a> = (
    &'a OriginalObjectId,
    &'a SimTransform,
    &'a Owner,
    &'a Name,
    Option<&'a UnitClass>,
    Option<&'a Kinematics>,
    Option<&'a MotionLimits>,
    Option<&'a Supply>,
    Option<&'a Power>,
    Has<Movable>,
    Option<&'a ChassisType>,
);

type Sensing<'a> = (Option<&'a Radar>, Option<&'a Sensor>, Option<&'a Repair>, Option<&'a Stealth>);

/// The colour the original marks an object of `clan` in for the player's clan `viewer`
/// (`iron3d.dll:0x10065440`, read): his own light blue, a nature clan's yellow, a neutral
/// clan's grey, then by the clan's word towards him: neutral magenta, allied cyan,
/// hostile red, any other yellow.
pub fn mark_colour(relations: &ClanRelations, viewer: i32, clan: i32) -> egui::Color32 {
    let yellow = egui::Color32::from_rgb(255, 255, 0);
    if clan == viewer {
        return egui::Color32::from_rgb(128, 128, 255);
    }
    match (relations.kind(clan), relations.word(clan, viewer)) {
        (Some(0), _) => yellow,
        (Some(3), _) => egui::Color32::from_gray(160),
        (_, Some(1)) => egui::Color32::from_rgb(255, 0, 255),
        (_, Some(2)) => egui::Color32::from_rgb(0, 255, 255),
        (_, Some(0)) => egui::Color32::from_rgb(255, 0, 0),
        _ => yellow,
    }
}

/// A unit's panel: its life, batteries, shields, name and status line (`0x10040f30`).
fn panel_of(
    body: bevy::ecs::query::QueryItem<'_, '_, Body<'static>>,
    guns: Option<&Guns>,
    shield: Option<&Shield>,
    mine: i32,
    nav: Option<&iron3d_behavior::Navigator>,
    locale: &Locale,
) -> Panel {
    let (_, _, owner, name, class, _, _, supply, power, movable, _) = body;
    let hero = class.is_some_and(|c| c.is_hero());
    let status = if hero || !movable {
        None
    } else if owner.clan == mine {
        Some((format!("[{}]", describe(nav.map(|n| n.order), None, locale)), layout::argb(0xffc8_c8c8)))
    } else if guns.is_some_and(|g| g.0.iter().any(|gun| gun.round_damage() >= DANGEROUS)) {
        Some((locale.t("cockpit-dangerous"), layout::argb(0xffc8_0000)))
    } else {
        None
    };
    Panel {
        name: if hero { locale.t("cockpit-human") } else { name.as_str().to_string() },
        status,
        life: supply.map_or(1.0, |s| s.life),
        battery: power.filter(|p| !p.batteries.is_empty()).map(|p| p.charge),
        shields: shield.map(|s| s.sectors.map(|v| if s.max > 0.0 { v / s.max * s.level } else { 0.0 })),
        distance: None,
        view: None,
        too_big: false,
    }
}

/// A gun's row: its lamp by its state (black while not selected; its arm not out is the
/// original's report 7, as a target beyond its gate, `target` its reach
/// ([`iron3d_combat::reach`]); a guided gun with no target is report 2 and one counting
/// its lock report 1), its charge, its rounds (`docs/35-hud.md`, the weapons list).
fn gun_row(gun: &iron3d_combat::GunState, name: String, target: Option<f32>) -> GunRow {
    let lock = gun.sheet.round.lock_seconds().is_some();
    let beyond = target.is_some_and(|d| d > gun.sheet.round.gate());
    // A gun not selected reads its name (the recording of Mission 01, seen).
    let out_of_range = gun.selected && (gun.arm < 1.0 || beyond || (lock && target.is_none()));
    let locking = lock && target.is_some() && gun.lock > 0.0;
    let lamp = if !gun.selected {
        Lamp::Black
    } else if gun.magazine == 0 {
        Lamp::Red
    } else if gun.release_ms.is_some() {
        Lamp::Yellow2
    } else if gun.wait_ms > 0.0 || (gun.sheet.capacitor > 0.0 && gun.charge < gun.sheet.shot_energy) {
        Lamp::Yellow1
    } else if out_of_range || locking {
        Lamp::Yellow2
    } else {
        Lamp::Green
    };
    GunRow {
        name,
        rounds: (gun.magazine >= 0).then_some(gun.magazine),
        charge: (gun.sheet.capacitor > 0.0).then(|| gun.charge / gun.sheet.capacitor),
        lamp,
        out_of_range,
    }
}

/// Draws the cockpit over the driven unit's view.
#[allow(clippy::too_many_arguments, reason = "the cockpit shows the driven unit, its target and its radar")]
pub fn cockpit(
    mut contexts: EguiContexts,
    mut art: ResMut<CockpitArt>,
    (views, player, objectives, clock, chosen): (
        Res<Views>,
        Res<PlayerCommands>,
        Res<crate::objectives::ObjectivesScreen>,
        Res<GameClock>,
        Res<crate::target::PlayerTarget>,
    ),
    scene: Battlefield,
    bodies: Query<Body>,
    arms: Query<(Option<&Guns>, Option<&Shield>, Option<&iron3d_behavior::Navigator>)>,
    sensing: Query<Sensing>,
    (cameras, proxies, minimap, hud, locale): (
        Query<&iron3d_camera::GameCamera>,
        Query<&iron3d_core::CollisionProxy>,
        Res<crate::minimap::Minimap>,
        Res<crate::hud::HudState>,
        Res<Locale>,
    ),
    (mut sounds, mut cues, real): (ResMut<CockpitSounds>, MessageWriter<SoundCue>, Res<Time<Real>>),
    (levels, mut unit_views): (Query<&iron3d_core::AutoDriver>, ResMut<UnitViews>),
) -> Result {
    let now_ms = clock.tick * TICK_MS;
    let Some(unit) = driven(&views, &player) else { return Ok(()) };
    let Some(entity) = scene.entity(unit).filter(|_| !objectives.shown(now_ms)) else { return Ok(()) };
    let (Ok(body), Ok((guns, shield, nav)), Ok((radar, sensor, repair, stealth))) =
        (bodies.get(entity), arms.get(entity), sensing.get(entity))
    else {
        return Ok(());
    };
    let mine = scene.player();
    let at = body.1.position;
    // The player's target and its list, once kept for this unit.
    let (listed, current) =
        if chosen.unit == Some(unit) { (&chosen.listed[..], chosen.current) } else { (&[][..], None) };
    // The panels' views of the unit and its target (`iron3d_render::UnitViews`).
    let target = current.and_then(|t| scene.entity(t)).and_then(|e| Some((e, bodies.get(e).ok()?)));
    unit_views.show(OWN_VIEW, entity);
    if let Some((e, _)) = target {
        unit_views.show(TARGET_VIEW, e);
    }
    let mut view_of = |view: usize| {
        let image = unit_views.images[view].id();
        unit_views.drawing(view).then(|| contexts.add_image(EguiTextureHandle::Weak(image)))
    };
    let views_drawn = [view_of(TARGET_VIEW), view_of(OWN_VIEW)];
    let ctx = contexts.ctx_mut()?;
    let art = art.art(ctx);
    let target_distance = target.map(|(_, b)| {
        let p = b.1.position;
        ((p[0] - at[0]).powi(2) + (p[1] - at[1]).powi(2) + (p[2] - at[2]).powi(2)).sqrt()
    });
    // The guns' gate takes the reach across the ground less the target's radius.
    let target_reach =
        target.map(|(e, b)| iron3d_combat::reach(at, b.1.position, proxies.get(e).ok().map(|p| p.radius)));
    let hero = body.4.is_some_and(|c| c.is_hero());
    let gun_list = guns.map(|g| &g.0[..]).unwrap_or_default();
    let rows: Vec<GunRow> = gun_list
        .iter()
        .enumerate()
        .map(|(i, gun)| {
            let name = if hero && i < HERO_GUNS.len() { locale.t(HERO_GUNS[i]) } else { locale.t("cockpit-noname") };
            gun_row(gun, name, target_reach)
        })
        .collect();
    // A selected guided gun with rounds, ready, whose lock has begun, closes its corners
    // on the target's point (read).
    let layout = Layout { screen: ctx.content_rect() };
    let target_point = target.and_then(|(_, b)| scene.on_screen(b.1.position)).map(|p| egui::pos2(p.x, p.y));
    let locks: Vec<Lock> = gun_list
        .iter()
        .filter(|g| g.sheet.round.guided() && g.selected && g.magazine != 0 && g.ready() && g.lock_share() > 0.0)
        .filter_map(|g| Some(Lock { at: layout.unpoint(target_point?, Pin::CENTRE), share: g.lock_share() }))
        .collect();
    let range = crate::target::sensor_range(radar, sensor);
    let contacts = listed
        .iter()
        .filter_map(|&id| {
            let (_, t, owner, _, _, _, _, _, _, movable, chassis) = bodies.get(scene.entity(id)?).ok()?;
            let mark = match (movable, chassis.is_some_and(|c| c.flies())) {
                (false, _) => Mark::Building,
                (true, true) => Mark::Cross,
                (true, false) => Mark::Unit,
            };
            Some(Contact {
                offset: [t.position[0] - at[0], t.position[1] - at[1]],
                colour: mark_colour(&scene.relations, mine, owner.clan),
                mark,
                current: current == Some(id),
            })
        })
        .collect();
    let sight = Sight {
        heading: body.1.heading(),
        range,
        contacts,
        altitude: (at[2] - WATER).round() as i32,
        speed: body.5.map_or(0, |k| (k.speed.abs() * 3.6).round() as i32),
        top: body.6.and_then(|l| l.top_speed).map_or(0, |v| (v * 3.6).round() as i32),
        sweep: sensor.map(|s| {
            let period = s.sheet.period_ms * 0.002;
            ((now_ms as f32 / 1000.0) % period.max(0.001), period)
        }),
    };
    let mut due = sounds.locks(real.elapsed_secs_f64(), locks.iter().map(|l| l.share));
    if let Some((t, _)) = sight.sweep
        && sounds.swept(unit, t)
    {
        due.push(sounds::RADAR);
    }
    due.into_iter().filter_map(|name| sounds.cue(name)).for_each(|cue| _ = cues.write(cue));
    let infrared = cameras.iter().any(|c| c.infrared);
    // The auto-driver's level lights the palm (0), then slots 6 and 7; the hero's is 0.
    let level = if hero { 0 } else { levels.get(entity).map_or(0, |l| l.0) };
    let on_board = matches!(views.front(), None | Some(View::OnFoot(_) | View::Driving(_)));
    let indicators = [
        u8::from(repair.is_some_and(|r| r.on)),
        u8::from(infrared),
        u8::from(stealth.is_some_and(|s| s.camouflaged)),
        u8::from(on_board),
        if hud.risk.is_some() { 2 } else { 0 },
        u8::from(level == 0),
        u8::from(level == 1),
        u8::from(level == 2),
    ];
    let own = Panel {
        view: views_drawn[OWN_VIEW],
        too_big: unit_views.too_big(OWN_VIEW),
        ..panel_of(body, guns, shield, mine, nav, &locale)
    };
    let target_panel = target.map(|(e, b)| {
        let (guns, shield, nav) = arms.get(e).unwrap_or((None, None, None));
        let shown = panel_of(b, guns, shield, mine, nav, &locale);
        let too_big = unit_views.too_big(TARGET_VIEW);
        Panel { distance: target_distance, view: views_drawn[TARGET_VIEW], too_big, ..shown }
    });
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("cockpit")));
    let mut ink = Ink { layout, pin: Pin::CENTRE, painter: &painter };
    widgets::reticle(&mut ink, art);
    widgets::locks(&mut ink, art, &locks);
    let words = Words {
        inf: locale.t("cockpit-inf"),
        out_of_range: locale.t("cockpit-out-of-range"),
        metres: locale.t("cockpit-metres"),
    };
    // No rows while the satellite map is up (read).
    if minimap.hidden {
        widgets::weapons(&mut ink, art, &rows, &words);
    }
    widgets::radar(&mut ink, art, &sight);
    widgets::indicators(&mut ink, art, indicators);
    widgets::panel(&mut ink, art, &words, false, target_panel.as_ref());
    widgets::panel(&mut ink, art, &words, true, Some(&own));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_combat::GunState;
    use iron3d_core::{GunSheet, HitSheet, RoundSheet};

    fn gun(magazine: i32, capacitor: f32) -> GunState {
        let round = RoundSheet {
            speed: 100.0,
            range: 200.0,
            hit_points: 5.0,
            flags: 0,
            hit: HitSheet { kind: 2, damage: 0.0, radius: 0.0 },
            seeker: None,
        };
        let sheet = GunSheet {
            node: 0,
            magazine,
            capacitor,
            shot_energy: 10.0,
            interval_ms: 500.0,
            barrels: 1,
            volley: false,
            stroke_ms: None,
            arm: false,
            round,
        };
        GunState::new(sheet, 250.0, 1.0)
    }

    /// The lamp follows the gun's report: ready green, a stroke or a target beyond its
    /// reach yellow 2 (*OUT OF RANGE*), its interval or a short capacitor yellow 1, no
    /// rounds red; the rounds read *INF* for an unlimited magazine, the bar its charge.
    #[test]
    fn marks_take_the_originals_colours_by_clan_type_then_word() {
        // Clan 0 nature, 1 the player, 2 an enemy, 3 neutral, 4 and 5 type 2.
        let mut r = ClanRelations::uniform(vec![0, 1, 2, 3, 2, 2], 0);
        r.words[4][1] = 1;
        r.words[5][1] = 2;
        assert_eq!(mark_colour(&r, 1, 1), egui::Color32::from_rgb(128, 128, 255), "his own");
        assert_eq!(mark_colour(&r, 1, 0), egui::Color32::from_rgb(255, 255, 0), "nature");
        assert_eq!(mark_colour(&r, 1, 3), egui::Color32::from_gray(160), "a neutral clan, whatever its word");
        assert_eq!(mark_colour(&r, 1, 2), egui::Color32::from_rgb(255, 0, 0), "word 0: hostile");
        assert_eq!(mark_colour(&r, 1, 4), egui::Color32::from_rgb(255, 0, 255), "word 1");
        assert_eq!(mark_colour(&r, 1, 5), egui::Color32::from_rgb(0, 255, 255), "word 2");
        assert_eq!(mark_colour(&r, 1, 9), egui::Color32::from_rgb(255, 255, 0), "no clan of the mission");
    }

    #[test]
    fn a_guns_row_shows_its_state_rounds_and_charge() {
        let ready = gun_row(&gun(150, 100.0), "G".into(), Some(150.0));
        assert_eq!(
            (ready.lamp, ready.rounds, ready.charge, ready.out_of_range),
            (Lamp::Green, Some(150), Some(1.0), false)
        );
        let far = gun_row(&gun(-1, 0.0), "G".into(), Some(250.0));
        assert_eq!((far.lamp, far.rounds, far.charge, far.out_of_range), (Lamp::Yellow2, None, None, true));
        let mut firing = gun(150, 100.0);
        assert_eq!(firing.trigger(), 0, "a stroke starts");
        assert_eq!(gun_row(&firing, "G".into(), None).lamp, Lamp::Yellow2);
        let mut waiting = gun(150, 100.0);
        waiting.wait_ms = 300.0;
        assert_eq!(gun_row(&waiting, "G".into(), None).lamp, Lamp::Yellow1);
        let mut short = gun(150, 100.0);
        short.charge = 5.0;
        let row = gun_row(&short, "G".into(), None);
        assert_eq!((row.lamp, row.charge), (Lamp::Yellow1, Some(0.05)));
        assert_eq!(gun_row(&gun(0, 100.0), "G".into(), None).lamp, Lamp::Red);
        let mut folding = gun(150, 100.0);
        folding.arm = 0.5;
        let row = gun_row(&folding, "G".into(), None);
        assert_eq!((row.lamp, row.out_of_range), (Lamp::Yellow2, true), "an arm not out is report 7");
        folding.selected = false;
        let row = gun_row(&folding, "G".into(), None);
        assert_eq!((row.lamp, row.out_of_range), (Lamp::Black, false), "not selected: its name");
        // A guided gun with a lock: no target is report 2, counting the lock report 1.
        let mut plasma = gun(150, 100.0);
        plasma.sheet.round.seeker = Some(iron3d_core::SeekerSheet { cone: 0.25, reach: 100.0, lock_ms: 250.0 });
        plasma.lock = 0.25;
        let row = gun_row(&plasma, "G".into(), None);
        assert_eq!((row.lamp, row.out_of_range), (Lamp::Yellow2, true), "no target for its lock");
        let row = gun_row(&plasma, "G".into(), Some(150.0));
        assert_eq!((row.lamp, row.out_of_range), (Lamp::Yellow2, true), "beyond its seeker's reach");
        let row = gun_row(&plasma, "G".into(), Some(90.0));
        assert_eq!((row.lamp, row.out_of_range), (Lamp::Yellow2, false), "locking");
        plasma.lock = 0.0;
        assert_eq!(gun_row(&plasma, "G".into(), Some(90.0)).lamp, Lamp::Green, "locked");
    }

    /// The guided lock's corners (`docs/35-hud.md`): from the layout's (30, 30)–(630, 450)
    /// to a 40-unit square about the target, a second lock 4 further out; the target's
    /// window point comes back to the layout.
    #[test]
    fn a_lock_closes_from_the_screens_edges_on_a_square_about_its_target() {
        let lock = |share| Lock { at: [300.0, 200.0], share };
        assert_eq!(widgets::lock_edges(&lock(0.0), 0), [30.0, 30.0, 630.0, 450.0]);
        assert_eq!(widgets::lock_edges(&lock(1.0), 0), [280.0, 180.0, 320.0, 220.0]);
        assert_eq!(widgets::lock_edges(&lock(1.0), 1), [276.0, 176.0, 324.0, 224.0], "a second lock");
        assert_eq!(widgets::lock_edges(&lock(0.5), 0), [155.0, 105.0, 475.0, 335.0]);
        let layout = Layout { screen: egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(1280.0, 720.0)) };
        let back = layout.unpoint(layout.point([100.0, 50.0], Pin::CENTRE), Pin::CENTRE);
        assert!((back[0] - 100.0).abs() < 1e-3 && (back[1] - 50.0).abs() < 1e-3, "{back:?}");
    }
}
