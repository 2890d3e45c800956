//! Placing a building (openparkan `docs/32-builder.md`, "Placing a building", read):
//! with one of the player's builders selected (its beam intact) a panel lists what its
//! clan can put up, each `BuildDat.lst` scheme with its cost or why it cannot be built.
//! A row starts a placement for the first selected builder: the site follows the cursor
//! over the ground, green where it passes the placement's test and red where it does
//! not (the one test the orders take, `iron3d_behavior::build::Placement`), drawn as the
//! original's model: the bare building of the scheme's first `.dat` in one flat colour
//! over everything (`iron3d_render::SiteModels`), the cost or the failing rule under it
//! (the project's); `,` and `.` turn it by 0.05 rad a press, starting
//! at 0; a left click on a green site gives the builder its construct order and ends
//! the placement, on a red one does nothing; the right button or Esc cancels ("Building
//! was cancelled by user", the original's string 6207).

use crate::ScreenSystems;
use crate::command::Battlefield;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use iron3d_behavior::build::Placement;
use iron3d_core::{
    AppState, BeamCondition, BuildingCategory, BuildingPrice, BuildingPrices, InterfaceClick, MineralLodes,
    ModelBounds, Order, OriginalObjectId, Pause, SimTransform, Site, UnitClass, UnitResponse, placement_radius,
};
use iron3d_formats::registry::BuildCategory;
use iron3d_input::{Actions, GameAction, PlayerCommands, Selection};
use iron3d_terrain::{BuildingCategories, NavMap};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Placing>()
        .register_type::<Placing>()
        .add_systems(
            Update,
            place.after(crate::command::command).after(crate::hud::toggle_pause).run_if(in_state(Pause::Running)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (builder_panel, draw).run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame),
        );
}

/// A building being placed: the builder, the scheme (its index in `BuildCategory::TABLE`)
/// and the turn in 0.05 rad steps; `None` while nothing is placed.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct Placing(pub Option<(u32, u8, i8)>);

/// The selection's first unit when it is one of the player's builders with an intact
/// beam (the builders' rows need one, read).
fn builder(scene: &Battlefield, selection: &Selection, beams: &Query<&BeamCondition>) -> Option<u32> {
    let first = *scene.own_units(&selection.units).first()?;
    let e = scene.entity(first)?;
    let intact = beams.get(e).is_ok_and(BeamCondition::intact);
    (scene.class_of(first) == Some(UnitClass::BUILDER) && intact).then_some(first)
}

/// The site under the cursor for the placement.
fn site(scene: &Battlefield, (_, scheme, turns): (u32, u8, i8)) -> Option<Site> {
    let at = scene.cursor_ground()?;
    Site::new(scheme, [at[0], at[1]], f32::from(turns) * Site::TURN).ok()
}

/// What the placement's test reads, from the scene.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Grounds<'w, 's> {
    prices: Res<'w, BuildingPrices>,
    lodes: Res<'w, MineralLodes>,
    nav: Option<Res<'w, NavMap>>,
    buildings: Query<
        'w,
        's,
        (&'static OriginalObjectId, &'static SimTransform, Option<&'static ModelBounds>),
        With<BuildingCategory>,
    >,
}

impl Grounds<'_, '_> {
    /// The test of `site` for `builder`: its cost, or the rule that refuses it.
    fn test(&self, scene: &Battlefield, builder: u32, site: Site) -> Result<f32, String> {
        let b = scene.object(builder).ok_or("the builder is gone")?;
        let buildings = self
            .buildings
            .iter()
            .map(|(id, t, bounds)| (id.0, [t.position[0], t.position[1]], placement_radius(bounds)))
            .collect();
        let placement = Placement {
            prices: &self.prices,
            lodes: &self.lodes,
            ground: scene.ground.as_deref(),
            nav: self.nav.as_deref(),
            buildings,
        };
        placement.test(b.2.clan, [b.1.position[0], b.1.position[1]], site)
    }
}

/// Turns, places or cancels the placement from the player's actions.
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn place(
    actions: Query<&Actions>,
    scene: Battlefield,
    grounds: Grounds,
    mut placing: ResMut<Placing>,
    mut player: ResMut<PlayerCommands>,
    mut respond: MessageWriter<UnitResponse>,
    hud: Option<ResMut<crate::hud::HudState>>,
    locale: Res<crate::locale::Locale>,
) {
    let (Some(p), Ok(a)) = (placing.0, actions.single()) else { return };
    if scene.object(p.0).is_none() || a.just_pressed(&GameAction::Order) || a.just_pressed(&GameAction::Pause) {
        placing.0 = None;
        if let Some(mut hud) = hud {
            hud.push(locale.t("site-cancelled"));
        }
        return;
    }
    let turn = i8::from(a.just_pressed(&GameAction::TurnLeft)) - i8::from(a.just_pressed(&GameAction::TurnRight));
    placing.0 = Some((p.0, p.1, p.2.saturating_add(turn)));
    if a.just_pressed(&GameAction::Select)
        && let Some(site) = site(&scene, p).filter(|s| grounds.test(&scene, p.0, *s).is_ok())
    {
        player.order(vec![p.0], Order::Construct(site), false);
        respond.write(UnitResponse { unit: OriginalObjectId(p.0) });
        placing.0 = None;
    }
}

/// The builders' panel: each scheme its clan can put up, with its cost.
pub(crate) fn builder_panel(
    mut contexts: EguiContexts,
    scene: Battlefield,
    selection: Res<Selection>,
    beams: Query<&BeamCondition>,
    prices: Res<BuildingPrices>,
    mut placing: ResMut<Placing>,
    (mut click, locale): (MessageWriter<InterfaceClick>, Res<crate::locale::Locale>),
) -> Result {
    let Some(unit) = builder(&scene, &selection, &beams) else { return Ok(()) };
    let clan = scene.player();
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(locale.tr("site-title", &[("builder", unit.into())]))
        .id("builder_panel".into())
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
        .resizable(false)
        .show(ctx, |ui| {
            for (index, (_, name, _)) in BuildCategory::TABLE.iter().enumerate() {
                let Some(price) = prices.0.get(&(clan, index as u8)) else { continue };
                let (label, why) = match price {
                    BuildingPrice::Ore { ore, .. } => {
                        (locale.tr("site-row", &[("name", (*name).into()), ("ore", (*ore as i64).into())]), None)
                    }
                    BuildingPrice::Refused(why) => (name.to_string(), Some(why.as_str())),
                };
                let button = ui.add_enabled(why.is_none(), egui::Button::new(label));
                let button = match why {
                    Some(why) => button.on_disabled_hover_text(why),
                    None => button,
                };
                if button.clicked() {
                    placing.0 = Some((unit, index as u8, 0));
                    click.write(InterfaceClick);
                }
            }
        });
    Ok(())
}

/// The site under the cursor: the scheme's bare building there, green or red
/// ([`iron3d_render::SiteModels`]), and under it the cost or the rule a red site fails
/// (the project's).
pub(crate) fn draw(
    mut contexts: EguiContexts,
    scene: Battlefield,
    grounds: Grounds,
    (placing, categories): (Res<Placing>, Option<Res<BuildingCategories>>),
    mut models: ResMut<iron3d_render::SiteModels>,
    locale: Res<crate::locale::Locale>,
) -> Result {
    let Some(p) = placing.0 else { return Ok(()) };
    let Some(site) = site(&scene, p) else { return Ok(()) };
    let verdict = grounds.test(&scene, p.0, site);
    let [x, y] = site.at();
    let z = scene.ground.as_ref().and_then(|g| g.height_at(x, y)).unwrap_or(0.0);
    let first = BuildCategory::TABLE.get(usize::from(p.1)).and_then(|c| categories.as_ref()?.ladder(c.0).first());
    if let Some(scheme) = first {
        let placeable = verdict.is_ok();
        models.show(iron3d_render::SiteAsk { scheme: scheme.clone(), at: [x, y, z], angle: site.angle(), placeable });
    }
    let ctx = contexts.ctx_mut()?;
    let zoom = ctx.zoom_factor();
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, "site".into()));
    let colour =
        if verdict.is_ok() { egui::Color32::from_rgb(40, 230, 60) } else { egui::Color32::from_rgb(240, 40, 40) };
    if let Some(centre) = scene.on_screen([x, y, z]).map(|s| egui::pos2(s.x / zoom, s.y / zoom)) {
        let text = match &verdict {
            Ok(ore) => locale.tr("site-ok", &[("ore", (*ore as i64).into())]),
            Err(why) => why.clone(),
        };
        painter.text(
            centre + egui::vec2(0.0, 14.0),
            egui::Align2::CENTER_TOP,
            text,
            egui::FontId::proportional(14.0),
            colour,
        );
    }
    Ok(())
}
