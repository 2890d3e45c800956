//! The warbot designer's screen (openparkan `docs/37-designer.md`, read and seen),
//! opened from a factory's panel ("Warbot constructor", `docs/36-factory.md`): black
//! over the world, which is not drawn and goes on running; on the original's 640 × 480
//! layout, scaled, the source panel (x 0–183), the project (185–455) and the
//! destination panel (457–640).
//!
//! * Each panel has the six page tabs, its rows (the catalogue's parts offered for the
//!   selected place; the project's places and what they hold) and a part box. The
//!   project's editing is `iron3d_production::designer`'s: a double click on a source
//!   row adds the part, on a destination row takes a chassis, turret or gun off (the
//!   part box's add and remove buttons do the same: the project's).
//! * Each panel's preview shows its selected part and the project column the project
//!   (its design once a turret is in, its chassis before), each turning
//!   (`iron3d_render::ModelPreviews`); over the project's model the prompt and the
//!   project's parts (the project's), then the unit box: the
//!   design's name, Weight (mass / spare payload, t), Max. speed (kph), Defence and
//!   Offence (as `Iron_3D.ini` scales them), Sensor range, and the price at this
//!   factory (the project's row).
//! * Weight reads red without spare payload, when accept is refused (read).
//! * Five buttons: accept (with a turret and spare payload: the design becomes the
//!   first of the recent projects and the designer closes; it does not start
//!   production, read), clear, save (a name field of up to 16 printable characters,
//!   written to `units/<name>.dat` in the user's data directory: the project's, where
//!   the original writes the game directory), load (the game's `UNITS\*.dat` but
//!   `bld_unit_`, `view_unit_` and `temp_unit`, and the user's saved designs) and exit.
//!   Esc closes the name field or the load list, else the designer.
//! * The recent projects (five, the latest first) start with the mission's `prebuild`
//!   designs; the factory panel builds them ([`factory_rows`]).

use crate::ScreenSystems;
use crate::locale::Locale;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle, egui};
use iron3d_core::{AppState, Designs, InterfaceClick, ObjectTable, Order, Owner, SchemeNames};
use iron3d_formats::registry::UnitDat;
use iron3d_input::PlayerCommands;
use iron3d_mission::{LoadedMission, MissionBackend};
use iron3d_production::Production;
use iron3d_production::design::{self, Catalogue, DesignError, Offer, Rated, Scales};
use iron3d_production::designer::{Designer, Page, Place, Prompt};
use iron3d_render::{DESTINATION_PREVIEW, ModelPreviews, PROJECT_PREVIEW, SOURCE_PREVIEW, Subject};
use iron3d_vfs::GameDir;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DesignerScreen>()
        .register_type::<DesignerScreen>()
        .add_systems(Update, open_requested.run_if(in_state(AppState::InGame)))
        .add_systems(
            EguiPrimaryContextPass,
            screen.run_if(in_state(AppState::InGame)).in_set(ScreenSystems::InGame).after(crate::command::build_panel),
        )
        .add_systems(OnExit(AppState::InGame), |mut s: ResMut<DesignerScreen>| *s = DesignerScreen::default());
}

/// The most recent projects kept.
pub const RECENT: usize = 5;
/// The longest name the save field takes.
pub const NAME_CHARS: usize = 16;

/// A project: its name as the designer shows it and its unit file.
#[derive(Debug, Clone, PartialEq, Eq, Reflect)]
pub struct Project {
    /// "LFW-X Warrior", or the file's name when its parts do not fit.
    pub name: String,
    /// The unit file.
    pub dat: Vec<u8>,
}

/// The designer's screen and the recent projects.
#[derive(Resource, Default, Reflect)]
#[reflect(Resource)]
pub struct DesignerScreen {
    /// A factory whose constructor button was pressed: the designer opens for it.
    pub request: Option<u32>,
    /// The recent projects, the latest first (at most [`RECENT`]).
    pub recent: Vec<Project>,
    /// The mission's `prebuild` designs were pushed.
    seeded: bool,
    #[reflect(ignore)]
    session: Option<Session>,
}

impl DesignerScreen {
    /// Whether the designer is up.
    pub fn is_open(&self) -> bool {
        self.session.is_some()
    }

    /// Pushes `project` to the front of the recent projects (one equal to it leaves its
    /// old place; the sixth falls off).
    pub fn push(&mut self, project: Project) {
        self.recent.retain(|p| p.dat != project.dat);
        self.recent.insert(0, project);
        self.recent.truncate(RECENT);
    }
}

/// A row of the load list: its name and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    /// A unit file of the game's data, by game path.
    Game(String),
    /// A design the player saved, on disk.
    Disk(PathBuf),
}

impl Saved {
    /// The name the list shows (the file's, without `.dat`).
    pub fn name(&self) -> String {
        let full = match self {
            Saved::Game(p) => p.rsplit(['\\', '/']).next().unwrap_or(p).to_string(),
            Saved::Disk(p) => p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        };
        let cut = full.len() - if full.to_ascii_lowercase().ends_with(".dat") { 4 } else { 0 };
        full[..cut].to_string()
    }
}

/// Whether the load list shows unit file `name`: the factory's own files are left out.
pub fn listed(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".dat") && !["bld_unit_", "view_unit_", "temp_unit"].iter().any(|p| n.starts_with(p))
}

/// The load list: the game's `UNITS\*.dat` (not in subfolders) and the `.dat` files of
/// `user` (the player's saved designs), each as [`listed`] allows, by name.
pub fn load_list(game: &GameDir, user: Option<&std::path::Path>) -> Vec<Saved> {
    let mut out: Vec<Saved> = game
        .index()
        .files()
        .filter_map(|p| {
            let s = p.to_string_lossy().replace('\\', "/");
            let (dir, file) = s.split_once('/')?;
            (dir.eq_ignore_ascii_case("units") && !file.contains('/') && listed(file)).then(|| Saved::Game(s.clone()))
        })
        .collect();
    if let Some(Ok(entries)) = user.map(std::fs::read_dir) {
        let files = entries.filter_map(|e| e.ok().map(|e| e.path()));
        out.extend(files.filter(|p| p.file_name().is_some_and(|n| listed(&n.to_string_lossy()))).map(Saved::Disk));
    }
    out.sort_by_key(|s| s.name().to_ascii_lowercase());
    out
}

/// Whether `name` can name a saved design: 1 to [`NAME_CHARS`] printable ASCII
/// characters (the original's field takes `isprint`), none a path separator.
pub fn valid_name(name: &str) -> bool {
    (1..=NAME_CHARS).contains(&name.chars().count())
        && name.chars().all(|c| c.is_ascii_graphic() || c == ' ')
        && !name.contains(|c: char| "/\\:*?<>|\x22".contains(c))
        && name.trim() == name
}

/// The folder the player's designs are saved in (`units/` in the user's data directory).
fn user_units() -> Option<PathBuf> {
    iron3d_vfs::user_files::data_dir().map(|d| d.join("units"))
}

/// The open designer: its factory's catalogue and efficiency, its project, and what the screen shows.
struct Session {
    backend: Arc<dyn MissionBackend>,
    offer: Offer,
    efficiency: f32,
    scales: Scales,
    designer: Designer,
    /// The source panel's selected row.
    source_row: usize,
    /// The design as the unit box rates it (`None`: not yet for this project).
    rated: Option<Result<Rated, DesignError>>,
    /// Each part's box rows, once shown ([`iron3d_production::stats::part_box`]).
    boxes: BTreeMap<String, Result<Vec<(String, String)>, String>>,
    /// The save field, while it is up.
    name_field: Option<String>,
    /// The load list, while it is up.
    loads: Option<Vec<Saved>>,
    /// The last refusal or notice.
    note: Option<String>,
}

impl Session {
    fn game(&self) -> Option<&iron3d_mission::GameMissionBackend> {
        self.backend.game()
    }

    fn catalogue(&self) -> Catalogue<'_> {
        self.offer.catalogue()
    }

    /// The project as the unit box rates it, computed once a project.
    fn rate(&mut self) -> Option<&Result<Rated, DesignError>> {
        if self.rated.is_none() && !self.designer.project.turret.is_empty() {
            let game = self.backend.game()?;
            self.rated = Some(design::rate(game, &self.offer.catalogue(), &self.designer.project, self.efficiency));
        }
        self.rated.as_ref()
    }

    /// The rows of part `part`'s box, computed once a session.
    fn part_box(&mut self, part: &str) -> Result<Vec<(String, String)>, String> {
        if !self.boxes.contains_key(part) {
            let game = self.backend.game().ok_or("no game data")?;
            let rows = iron3d_production::stats::box_of(game, &self.offer.catalogue(), part);
            self.boxes.insert(part.to_string(), rows);
        }
        self.boxes[part].clone()
    }

    fn changed(&mut self) {
        self.rated = None;
        self.source_row = 0;
    }
}

/// The project a unit file holds, named as the designer names it (its file's name
/// when its parts do not fit the catalogue).
fn project(game: &iron3d_mission::GameMissionBackend, catalogue: &Catalogue, fallback: &str, dat: Vec<u8>) -> Project {
    let name = UnitDat::parse(&dat)
        .ok()
        .and_then(|d| Designer::load(game, &d, None).ok())
        .and_then(|d| design::assemble(game, catalogue, &d.project).ok())
        .map_or_else(|| fallback.to_string(), |d| d.name);
    Project { name, dat }
}

/// Opens the designer a factory asked for: the factory's clan's catalogue, its
/// efficiency, the scales; the first time, the mission's `prebuild` designs join the
/// recent projects. A failure is a HUD line.
fn open_requested(world: &mut World) {
    let Some(factory) = world.resource_mut::<DesignerScreen>().request.take() else { return };
    match session(world, factory) {
        Ok((session, prebuilt)) => {
            let mut screen = world.resource_mut::<DesignerScreen>();
            if !std::mem::replace(&mut screen.seeded, true) {
                prebuilt.into_iter().for_each(|p| screen.push(p));
            }
            screen.session = Some(session);
        }
        Err(e) => {
            let line = world.resource::<Locale>().tr("designer-refused", &[("why", e.into())]);
            world.resource_mut::<crate::hud::HudState>().push(line);
        }
    }
}

fn session(world: &World, factory: u32) -> Result<(Session, Vec<Project>), String> {
    let backend = iron3d_mission::running_backend(world).map_err(|e| e.to_string())?;
    let game = backend.game().ok_or("this mission's data is not a game directory")?;
    let entity = world.resource::<ObjectTable>().entity_of(factory).ok_or(format!("object {factory} is gone"))?;
    let clan = world.get::<Owner>(entity).ok_or(format!("object {factory} has no clan"))?.clan;
    // The factory's size class from its model's size letter.
    let model = world.get::<iron3d_mission::MissionObject>(entity).and_then(|o| o.components.first());
    let grade = model.and_then(|c| iron3d_production::grants::size(&c.key, true));
    let production = world.get_resource::<Production>().ok_or("no mission is running")?;
    let tree =
        production.clans.get(&clan).and_then(|c| c.tree.clone()).ok_or(format!("clan {clan} has no research tree"))?;
    let ini = design::settings(game.dir())?;
    let offer = Offer::read(game.dir(), tree, &ini)?;
    let mut prebuilt = Vec::new();
    if let Some(mission) = world.get_resource::<LoadedMission>().filter(|m| !m.folder.is_empty()) {
        let cfg = format!("{}/mission.cfg", mission.folder);
        if let Ok(bytes) = game.dir().read_file(&cfg) {
            for path in iron3d_production::options::prebuild_schemes(&cfg, &bytes)? {
                let dat = game.dir().read_file(&path).map_err(|e| format!("prebuild {path}: {e}"))?;
                let stem = Saved::Game(path.clone()).name();
                prebuilt.push(project(game, &offer.catalogue(), &stem, dat));
            }
        }
    }
    let session = Session {
        efficiency: iron3d_economy::efficiency(world, factory),
        scales: Scales::from_ini(&ini),
        backend: Arc::clone(&backend),
        offer,
        designer: Designer { grade, ..Designer::default() },
        source_row: 0,
        rated: None,
        boxes: BTreeMap::new(),
        name_field: None,
        loads: None,
        note: None,
    };
    Ok((session, prebuilt))
}

/// The locale keys of a page's tab: its tooltip and its short label.
fn page_keys(page: Page) -> (&'static str, &'static str) {
    match page {
        Page::Chassis => ("designer-chassis", "designer-chassis-short"),
        Page::Turrets => ("designer-turrets", "designer-turrets-short"),
        Page::Armour => ("designer-armour", "designer-armour-short"),
        Page::Systems => ("designer-systems", "designer-systems-short"),
        Page::Weapons => ("designer-weapons", "designer-weapons-short"),
        Page::Ammo => ("designer-ammo", "designer-ammo-short"),
    }
}

/// A part as a row shows it: its research item's "name (code)", else its id.
fn part_text(catalogue: &Catalogue, part: &str) -> String {
    catalogue.label(part).map_or_else(|| part.to_string(), |l| format!("{} ({})", l.name, l.code))
}

/// A rectangle of the 640 × 480 layout on `screen`.
fn layout(screen: egui::Rect, [x0, y0, x1, y1]: [f32; 4]) -> egui::Rect {
    let (sx, sy) = (screen.width() / 640.0, screen.height() / 480.0);
    egui::Rect::from_min_max(screen.min + egui::vec2(x0 * sx, y0 * sy), screen.min + egui::vec2(x1 * sx, y1 * sy))
}

/// The original's colours.
const GREEN: egui::Color32 = egui::Color32::from_rgb(0, 255, 0);
const YELLOW: egui::Color32 = egui::Color32::from_rgb(255, 255, 0);
const VALUE: egui::Color32 = egui::Color32::from_rgb(0xb4, 0xb4, 0xff);
const GROUND: egui::Color32 = egui::Color32::from_rgba_premultiplied(0x0b, 0x20, 0x0b, 0x3c);

/// What a click on the screen asked for, done after drawing.
enum Act {
    Tab(Page),
    Source(usize, bool),
    Destination(usize, bool),
    Accept,
    Clear,
    Save,
    Load,
    Exit,
    Recent(usize),
    Loaded(Saved),
}

/// The previews' images this frame (`None` while one draws nothing) and the subjects the
/// screen asks of them.
#[derive(Default)]
struct Previewing {
    images: [Option<egui::TextureId>; 3],
    asked: [Option<Subject>; 3],
}

impl Previewing {
    /// Lays preview `view`'s image over the layout rectangle `rect` and asks it to show
    /// `subject`.
    fn draw(&mut self, ui: &egui::Ui, full: egui::Rect, view: usize, rect: [f32; 4], subject: Option<Subject>) {
        if let Some(image) = self.images[view].filter(|_| subject.is_some()) {
            let whole = egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(1.0, 1.0));
            ui.painter().image(image, layout(full, rect), whole, egui::Color32::WHITE);
        }
        self.asked[view] = subject;
    }
}

/// Draws the designer while it is up and acts on its controls.
fn screen(
    mut contexts: EguiContexts,
    mut screen: ResMut<DesignerScreen>,
    (locale, mut previews): (Res<Locale>, ResMut<ModelPreviews>),
    mut click: MessageWriter<InterfaceClick>,
    keys: Res<ButtonInput<KeyCode>>,
) -> Result {
    let Some(mut s) = screen.session.take() else { return Ok(()) };
    let mut shown = Previewing::default();
    for view in [SOURCE_PREVIEW, DESTINATION_PREVIEW, PROJECT_PREVIEW] {
        let image = previews.images[view].id();
        shown.images[view] = previews.drawing(view).then(|| contexts.add_image(EguiTextureHandle::Weak(image)));
    }
    let ctx = contexts.ctx_mut()?;
    let mut acts = Vec::new();
    egui::Area::new("designer".into()).order(egui::Order::Foreground).fixed_pos(egui::Pos2::ZERO).show(ctx, |ui| {
        let full = ui.ctx().content_rect();
        ui.painter().rect_filled(full, 0.0, egui::Color32::BLACK);
        ui.set_clip_rect(full);
        for side in [Side::Source, Side::Destination] {
            panel(ui, full, &mut s, side, (&locale, &mut shown), &mut acts);
        }
        project_column(ui, full, &mut s, &screen.recent, (&locale, &mut shown), &mut acts);
    });
    for (view, subject) in shown.asked.into_iter().enumerate() {
        subject.into_iter().for_each(|subject| previews.show(view, subject));
    }
    if keys.just_pressed(KeyCode::Escape) {
        acts.push(Act::Exit);
    }
    let mut open = true;
    for act in acts {
        click.write(InterfaceClick);
        open &= act_on(&mut s, &mut screen, act);
    }
    if open {
        screen.session = Some(s);
    }
    Ok(())
}

/// Does `act`; whether the designer stays open.
fn act_on(s: &mut Session, screen: &mut DesignerScreen, act: Act) -> bool {
    let Some(game) = s.backend.game() else { return false };
    let catalogue = s.offer.catalogue();
    let result = match act {
        Act::Tab(page) => s.designer.turn_to(game, &catalogue, page).map(|_| false),
        Act::Source(row, add) => {
            s.source_row = row;
            let part = s.designer.source(game, &catalogue).ok().and_then(|list| list.get(row).cloned());
            match part.filter(|_| add) {
                Some(part) => s.designer.add(game, &catalogue, &part),
                None => Ok(false),
            }
        }
        Act::Destination(row, remove) => {
            let page = s.designer.page.up;
            s.designer.page.select(page, row);
            s.source_row = 0;
            if remove { s.designer.remove(game, &catalogue, row) } else { Ok(false) }
        }
        Act::Clear => {
            s.designer = Designer { grade: s.designer.grade, ..Designer::default() };
            Ok(true)
        }
        Act::Accept => match s.rated.as_ref() {
            Some(Ok(r)) if r.acceptable().is_ok() => {
                screen.push(Project { name: r.design.name.clone(), dat: r.design.dat.to_bytes() });
                return false;
            }
            _ => Ok(false),
        },
        Act::Save => match (s.name_field.take(), s.rated.as_ref()) {
            (None, _) => {
                s.name_field = Some(String::new());
                Ok(false)
            }
            (Some(name), Some(Ok(r))) if valid_name(&name) => {
                s.note = Some(save(&name, &r.design.dat.to_bytes()));
                Ok(false)
            }
            (Some(name), _) => {
                s.name_field = Some(name);
                Ok(false)
            }
        },
        Act::Load => {
            s.loads = match s.loads.take() {
                Some(_) => None,
                None => Some(load_list(game.dir(), user_units().as_deref())),
            };
            Ok(false)
        }
        Act::Loaded(saved) => {
            s.loads = None;
            let bytes = match &saved {
                Saved::Game(p) => game.dir().read_file(p).map_err(|e| e.to_string()),
                Saved::Disk(p) => std::fs::read(p).map_err(|e| e.to_string()),
            };
            bytes
                .and_then(|b| UnitDat::parse(&b).map_err(|e| e.to_string()))
                .and_then(|dat| Designer::load(game, &dat, s.designer.grade))
                .map(|d| {
                    s.designer = d;
                    true
                })
                .map_err(|e| format!("{}: {e}", saved.name()))
        }
        Act::Recent(i) => match screen.recent.get(i).map(|p| UnitDat::parse(&p.dat)) {
            Some(Ok(dat)) => Designer::load(game, &dat, s.designer.grade).map(|d| {
                s.designer = d;
                true
            }),
            Some(Err(e)) => Err(e.to_string()),
            None => Ok(false),
        },
        Act::Exit => match (s.name_field.take(), s.loads.take()) {
            (None, None) => return false,
            _ => Ok(false),
        },
    };
    match result {
        Ok(true) => s.changed(),
        Ok(false) => {}
        Err(e) => s.note = Some(e),
    }
    true
}

/// Writes a design named `name` to the user's designs; the notice to show.
fn save(name: &str, bytes: &[u8]) -> String {
    let Some(dir) = user_units() else { return "no user data directory (set IRON3D_USER_DIR or HOME)".into() };
    let file = dir.join(format!("{name}.dat"));
    match std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, bytes)) {
        Ok(()) => format!("saved {}", file.display()),
        Err(e) => format!("{}: {e}", file.display()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Source,
    Destination,
}

/// A panel: its title, tabs, rows and part box.
fn panel(
    ui: &mut egui::Ui,
    full: egui::Rect,
    s: &mut Session,
    side: Side,
    (locale, shown): (&Locale, &mut Previewing),
    acts: &mut Vec<Act>,
) {
    let Some(game) = s.game() else { return };
    let catalogue = s.catalogue();
    let x0 = if side == Side::Source { 0.0 } else { 457.0 };
    let at = |r: [f32; 4]| layout(full, [x0 + r[0], r[1], x0 + r[2], r[3]]);
    ui.painter().rect_filled(at([11.0, 61.0, 172.0, 228.0]), 0.0, GROUND);
    ui.painter().rect_filled(at([11.0, 244.0, 172.0, 396.0]), 0.0, GROUND);
    let title = if side == Side::Source { "designer-source" } else { "designer-destination" };
    let page = s.designer.page.up;
    // The rows, the selected one and the part it holds, listed once a frame.
    let (rows, selected, selected_part): (Vec<(String, bool)>, usize, Option<String>) = match side {
        Side::Source => {
            let list = s.designer.source(game, &catalogue).unwrap_or_default();
            let part = list.get(s.source_row).cloned();
            (list.iter().map(|p| (part_text(&catalogue, p), true)).collect(), s.source_row, part)
        }
        Side::Destination => {
            let rows = s.designer.rows(game, &catalogue, page).unwrap_or_default();
            let text = |r: &iron3d_production::designer::Row| match &r.part {
                Some(p) => (part_text(&catalogue, p), true),
                None => (format!("[{}]", place_text(&r.place, locale)), false),
            };
            let selected = s.designer.page.row(page);
            let part = rows.get(selected).and_then(|r| r.part.clone());
            (rows.iter().map(text).collect(), selected, part)
        }
    };
    let stats = selected_part.as_deref().map(|p| s.part_box(p));
    let (Some(game), catalogue) = (s.game(), s.catalogue()) else { return };
    ui.scope_builder(egui::UiBuilder::new().max_rect(at([10.0, 2.0, 180.0, 58.0])), |ui| {
        let empty = rows.is_empty();
        let colour = if empty { egui::Color32::from_rgb(0, 150, 0) } else { YELLOW };
        let text = if empty { locale.t("designer-no-items") } else { locale.t(title) };
        ui.label(egui::RichText::new(text).color(colour));
        ui.horizontal(|ui| {
            for (i, tab) in Page::DRAWN.into_iter().enumerate() {
                if i == 3 {
                    ui.add_space(8.0);
                }
                let open = s.designer.enabled(game, &catalogue, tab).unwrap_or(false);
                let (key, short) = page_keys(tab);
                let button = egui::Button::selectable(tab == page, locale.t(short));
                if ui.add_enabled(open, button).on_hover_text(locale.t(key)).clicked() {
                    acts.push(Act::Tab(tab));
                }
            }
        });
    });
    ui.scope_builder(egui::UiBuilder::new().max_rect(at([12.0, 63.0, 171.0, 227.0])), |ui| {
        egui::ScrollArea::vertical().id_salt(title).show(ui, |ui| {
            for (i, (text, filled)) in rows.iter().enumerate() {
                let colour = if *filled { egui::Color32::WHITE } else { egui::Color32::GRAY };
                let r = ui.add(egui::Button::selectable(i == selected, egui::RichText::new(text).color(colour)));
                let double = r.double_clicked();
                if r.clicked() || double {
                    acts.push(match side {
                        Side::Source => Act::Source(i, double),
                        Side::Destination => Act::Destination(i, double),
                    });
                }
            }
        });
    });
    let view = if side == Side::Source { SOURCE_PREVIEW } else { DESTINATION_PREVIEW };
    shown.draw(ui, full, view, [x0 + 12.0, 244.0, x0 + 172.0, 395.0], selected_part.clone().map(Subject::Part));
    ui.scope_builder(egui::UiBuilder::new().max_rect(at([15.0, 398.0, 168.0, 461.0])), |ui| {
        egui::ScrollArea::vertical().id_salt((title, "box")).show(ui, |ui| {
            (ui.spacing_mut().item_spacing.y, ui.spacing_mut().interact_size.y) = (0.0, 12.0);
            match &selected_part {
                None => {
                    ui.label(egui::RichText::new(locale.t("designer-no-data")).color(egui::Color32::RED));
                }
                Some(part) => part_box(ui, &catalogue, game, (part, stats.as_ref()), locale),
            }
        });
    });
    // The button stands at the box's foot whatever the box holds.
    ui.scope_builder(egui::UiBuilder::new().max_rect(at([15.0, 463.0, 168.0, 478.0])), |ui| {
        let (key, act) = match side {
            Side::Source => ("designer-add", Act::Source(selected, true)),
            Side::Destination => ("designer-remove", Act::Destination(selected, true)),
        };
        let usable = selected_part.is_some()
            && match side {
                Side::Source => true,
                Side::Destination => matches!(page, Page::Chassis | Page::Turrets | Page::Weapons),
            };
        if ui.add_enabled(usable, egui::Button::new(locale.t(key))).clicked() {
            acts.push(act);
        }
    });
}

/// A place as an empty row names it: the chassis page's name, a slot or socket by its
/// label (the data's own word), a gun socket with its node.
fn place_text(place: &Place, locale: &Locale) -> String {
    match place {
        Place::Chassis => locale.t("designer-chassis"),
        Place::Turret(l) | Place::Slot(l) => l.clone(),
        Place::Gun(node, l) => format!("{l} #{node}"),
    }
}

/// A part's box: its id, the rows of its item's stat template with the part's figures
/// (read; without rows, the project's: its build cost in the clan's tree), and what it
/// offers (the project's).
fn part_box(
    ui: &mut egui::Ui,
    catalogue: &Catalogue,
    game: &iron3d_mission::GameMissionBackend,
    (part, stats): (&str, Option<&Result<Vec<(String, String)>, String>>),
    locale: &Locale,
) {
    ui.label(egui::RichText::new(part).color(YELLOW));
    let node = catalogue.tree.item_of_part(part).and_then(|i| catalogue.tree.nodes.get(i as usize));
    let row = |ui: &mut egui::Ui, label: &str, value: String| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(label).color(GREEN).small());
            ui.label(egui::RichText::new(value).color(VALUE).small());
        });
    };
    match (stats, node) {
        (Some(Ok(rows)), _) if !rows.is_empty() => rows.iter().for_each(|(label, value)| row(ui, label, value.clone())),
        (Some(Err(e)), _) => {
            ui.label(egui::RichText::new(e).color(egui::Color32::RED).small());
        }
        (_, Some(n)) => {
            row(ui, &locale.t("designer-ore"), format!("{:6.1}", n.build_ore));
            row(ui, &locale.t("designer-power"), format!("{:6.1}", n.build_energy));
        }
        (_, None) => {}
    }
    if let Ok(Some(labels)) = game.part_labels(part) {
        let places: Vec<&str> = labels
            .nodes
            .iter()
            .map(String::as_str)
            .chain(labels.slots.iter().map(|(_, l)| l.as_str()))
            .filter(|l| !l.is_empty())
            .collect();
        if !places.is_empty() {
            ui.label(egui::RichText::new(places.join(", ")).color(egui::Color32::from_rgb(0, 150, 0)).small());
        }
    }
}

/// The project column: prompt or hint, the project's parts, recent projects, the unit
/// box (or the name field or the load list) and the five buttons.
fn project_column(
    ui: &mut egui::Ui,
    full: egui::Rect,
    s: &mut Session,
    recent: &[Project],
    (locale, shown): (&Locale, &mut Previewing),
    acts: &mut Vec<Act>,
) {
    let at = |r: [f32; 4]| layout(full, r);
    ui.painter().rect_filled(at([195.0, 10.0, 445.0, 301.0]), 0.0, GROUND);
    ui.painter().rect_filled(at([202.0, 310.0, 438.0, 440.0]), 0.0, GROUND);
    // The project's model: its design once it rates, its chassis before.
    let model = match s.rate() {
        Some(Ok(r)) => Some(Subject::Design(r.design.dat.to_bytes())),
        _ => s.designer.has_project().then(|| Subject::Part(s.designer.project.chassis.clone())),
    };
    shown.draw(ui, full, PROJECT_PREVIEW, [195.0, 10.0, 445.0, 300.0], model);
    let prompt = s.designer.prompt().map(|p| match p {
        Prompt::SelectChassis => "designer-select-chassis",
        Prompt::SelectTurret => "designer-select-turret",
        Prompt::SelectWeapon => "designer-select-weapon",
        Prompt::TuneUp => "designer-tune-up",
    });
    let catalogue = s.offer.catalogue();
    ui.scope_builder(egui::UiBuilder::new().max_rect(at([200.0, 12.0, 440.0, 265.0])), |ui| {
        ui.vertical_centered(|ui| {
            if let Some(key) = prompt {
                ui.label(egui::RichText::new(locale.t(key)).color(GREEN).strong());
            }
        });
        if s.designer.has_project() {
            let p = &s.designer.project;
            let line = |ui: &mut egui::Ui, depth: usize, text: String| {
                ui.label(
                    egui::RichText::new(format!("{}{text}", "  ".repeat(depth))).color(egui::Color32::LIGHT_GREEN),
                );
            };
            line(ui, 0, part_text(&catalogue, &p.chassis));
            if !p.turret.is_empty() {
                line(ui, 1, part_text(&catalogue, &p.turret));
            }
            for (socket, gun) in &p.guns {
                let at = match socket {
                    iron3d_production::design::Socket::Node(n) => format!("#{n}"),
                    iron3d_production::design::Socket::Label(l) => l.clone(),
                };
                line(ui, 2, format!("{at}: {}", part_text(&catalogue, gun)));
            }
            for (label, part) in &p.fits {
                line(ui, 1, format!("{label}: {}", part_text(&catalogue, part)));
            }
        } else if s.loads.is_none() {
            ui.add_space(150.0);
            ui.vertical_centered(|ui| {
                for key in ["designer-hint-1", "designer-hint-2", "designer-hint-3"] {
                    ui.label(egui::RichText::new(locale.t(key)).color(GREEN));
                }
            });
        }
    });
    if !recent.is_empty() {
        ui.scope_builder(egui::UiBuilder::new().max_rect(at([200.0, 268.0, 445.0, 298.0])), |ui| {
            ui.horizontal(|ui| {
                for (i, p) in recent.iter().enumerate() {
                    let b = egui::Button::new(
                        egui::RichText::new(format!("{}", i + 1)).color(egui::Color32::from_rgb(0x80, 0xff, 0x80)),
                    );
                    if ui.add(b).on_hover_text(format!("{} — {}", locale.t("designer-recent"), p.name)).clicked() {
                        acts.push(Act::Recent(i));
                    }
                }
            });
        });
    }
    let accept_ok = matches!(s.rate(), Some(Ok(r)) if r.acceptable().is_ok());
    ui.scope_builder(egui::UiBuilder::new().max_rect(at([215.0, 318.0, 435.0, 436.0])), |ui| {
        if let Some(field) = s.name_field.as_mut() {
            ui.vertical_centered(|ui| {
                ui.label(egui::RichText::new(locale.t("designer-type-name")).color(GREEN));
                let edit = ui.add(egui::TextEdit::singleline(field).char_limit(NAME_CHARS).desired_width(120.0));
                edit.request_focus();
                if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    acts.push(Act::Save);
                }
            });
        } else if let Some(loads) = &s.loads {
            egui::ScrollArea::vertical().id_salt("load list").show(ui, |ui| {
                if loads.is_empty() {
                    ui.label(egui::RichText::new(locale.t("designer-no-items")).color(GREEN));
                }
                for saved in loads {
                    if ui.button(saved.name()).clicked() {
                        acts.push(Act::Loaded(saved.clone()));
                    }
                }
            });
        } else {
            unit_box(ui, s, locale);
        }
    });
    ui.scope_builder(egui::UiBuilder::new().max_rect(at([194.0, 440.0, 446.0, 478.0])), |ui| {
        ui.horizontal(|ui| {
            let has = s.designer.has_project();
            let buttons = [
                ("designer-accept", "designer-accept-short", accept_ok, Act::Accept),
                ("designer-clear", "designer-clear-short", true, Act::Clear),
                ("designer-save", "designer-save-short", has && accept_ok, Act::Save),
                ("designer-load", "designer-load-short", true, Act::Load),
                ("designer-exit", "designer-exit-short", true, Act::Exit),
            ];
            for (key, short, enabled, act) in buttons {
                let button = egui::Button::new(locale.t(short));
                if ui.add_enabled(enabled, button).on_hover_text(locale.t(key)).clicked() {
                    acts.push(act);
                }
            }
        });
    });
}

/// The unit box: name, Weight, Max. speed, Defence, Offence, Sensor range, the price,
/// or why the design cannot be accepted.
fn unit_box(ui: &mut egui::Ui, s: &mut Session, locale: &Locale) {
    let scales = s.scales;
    let note = s.note.clone();
    let row = |ui: &mut egui::Ui, key: &str, value: String, unit: &str, red: bool| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(locale.t(key)).color(GREEN));
            let colour = if red { egui::Color32::RED } else { VALUE };
            ui.label(egui::RichText::new(value).color(colour));
            ui.label(egui::RichText::new(unit).color(GREEN));
        });
    };
    match s.rate() {
        Some(Ok(r)) => {
            let percent = if scales.normalize { "%" } else { "" };
            ui.label(egui::RichText::new(&r.design.name).color(YELLOW));
            let weight = format!("{:.0} / {:.0}", r.rating.mass * 0.001, r.rating.spare * 0.001);
            row(ui, "designer-weight", weight, &locale.t("designer-tonnes"), r.rating.spare <= 0.0);
            row(ui, "designer-speed", format!("{:.0}", r.rating.speed * 3.6), &locale.t("designer-kph"), false);
            row(ui, "designer-defence", format!("{}", scales.shown(r.rating.defence, scales.defence)), percent, false);
            row(ui, "designer-offence", format!("{}", scales.shown(r.rating.offence, scales.offence)), percent, false);
            row(ui, "designer-sensor", format!("{:.0}", r.rating.sensor_range), &locale.t("designer-metres"), false);
            let price = format!("{:.0} / {:.0} / {:.0}", r.price.ore, r.price.power, r.price.seconds);
            row(ui, "designer-price", price, &locale.t("designer-seconds"), false);
        }
        Some(Err(e)) => {
            ui.label(egui::RichText::new(e.to_string()).color(egui::Color32::RED));
        }
        None => {}
    }
    if let Some(note) = note {
        ui.label(egui::RichText::new(note).color(egui::Color32::from_rgb(0xc0, 0xc0, 0xff)).small());
    }
}

/// The factory panel's rows: the constructor's button, stop while the factory builds,
/// then each recent project with its build and batch buttons (openparkan
/// `docs/36-factory.md`). A build keeps the project's unit file in the game
/// ([`Designs`]) and orders the factory to build it, once or in batch.
pub(crate) fn factory_rows(
    ui: &mut egui::Ui,
    (factory, busy): (u32, bool),
    screen: &mut DesignerScreen,
    (names, designs): (&mut SchemeNames, &mut Designs),
    player: &mut PlayerCommands,
    locale: &Locale,
) -> bool {
    let mut clicked = false;
    ui.horizontal(|ui| {
        if ui.button(locale.t("designer-open")).clicked() {
            screen.request = Some(factory);
            clicked = true;
        }
        if busy && ui.button(locale.t("designer-stop")).clicked() {
            player.order(vec![factory], Order::StopBuild, false);
            clicked = true;
        }
    });
    for p in &screen.recent {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(&p.name).color(YELLOW));
            let build = ui.button(locale.t("designer-build")).clicked();
            let batch = ui.button(locale.t("designer-batch")).clicked();
            if (build || batch)
                && let Ok(r) = designs.add(names, p.dat.clone())
            {
                player.order(vec![factory], if batch { Order::Batch(r) } else { Order::Build(r) }, false);
                clicked = true;
            }
        });
    }
    clicked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_list_leaves_out_the_factorys_own_files_and_names_hold_sixteen_printable_characters() {
        assert!(listed("scout.dat") && listed("MY.DAT"));
        assert!(!listed("bld_unit_-2147483647.dat") && !listed("View_Unit_3.dat") && !listed("temp_unit.dat"));
        assert!(!listed("readme.txt"));
        assert_eq!(Saved::Game("UNITS\\Scout.DAT".into()).name(), "Scout");
        assert!(valid_name("LFW Warrior 2") && valid_name("x"));
        assert!(!valid_name("") && !valid_name("seventeen chars!!") && !valid_name("a/b") && !valid_name(" a"));
        assert!(!valid_name("é"), "printable ASCII only, as isprint in the C locale");
        let mut screen = DesignerScreen::default();
        for i in 0..7u8 {
            screen.push(Project { name: format!("{i}"), dat: vec![i] });
        }
        screen.push(Project { name: "again".into(), dat: vec![4] });
        let names: Vec<&str> = screen.recent.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["again", "6", "5", "3", "2"], "five, the latest first, one equal moved to the front");
    }
}
