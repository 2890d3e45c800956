//! The Save and Load pages (pause menu, main menu) and the replays page: the slots with
//! mission, game time, date and thumbnail, an empty slot as empty and a damaged one
//! with its error; saving asks before overwriting.

use crate::locale::Locale;
use crate::saves::OpenFile;
use bevy::ecs::system::SystemParam;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;
use bevy_egui::egui;
use iron3d_save::slots::{self, QUICKSAVE, Slot, SlotState, autosave_names, thumbnail_path};
use iron3d_save::{Autosave, FileKind, SaveFolders, SaveRequests, SaveStatus, SaveWritten};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveBrowser>().add_systems(Update, relist);
}

/// The listed slots and replays, their thumbnails and the save page's input.
#[derive(Resource, Default)]
pub struct SaveBrowser {
    /// The save slots (the quick save and the autosaves first).
    saves: Vec<Slot>,
    /// The recorded replays, newest first.
    replays: Vec<Slot>,
    /// Listed since the folders last changed.
    fresh: bool,
    /// Thumbnails by payload, with the thumbnail file's time (`None`: none or
    /// unreadable).
    thumbs: BTreeMap<PathBuf, (Option<SystemTime>, Option<egui::TextureHandle>)>,
    /// The slot name typed on the save page.
    typed: String,
    /// The slot waiting for an overwrite confirmation.
    confirm: Option<String>,
}

impl SaveBrowser {
    /// Lists the folders again when next shown.
    pub fn invalidate(&mut self) {
        self.fresh = false;
        self.confirm = None;
    }

    fn refresh(&mut self, folders: &SaveFolders, keep: u32) {
        if self.fresh {
            return;
        }
        let fixed: Vec<String> = std::iter::once(QUICKSAVE.to_string()).chain(autosave_names(keep)).collect();
        self.saves = folders.saves.as_deref().map_or_else(Vec::new, |d| slots::list(d, FileKind::Save, &fixed));
        self.replays = folders.replays.as_deref().map_or_else(Vec::new, |d| slots::list(d, FileKind::Replay, &[]));
        self.fresh = true;
    }

    /// A slot's thumbnail, read again when its file changes (it is written a frame or
    /// two after the save).
    fn thumbnail(&mut self, ctx: &egui::Context, slot: &Slot) -> Option<egui::TextureHandle> {
        let path = thumbnail_path(&slot.path);
        let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        match self.thumbs.get(&slot.path) {
            Some((at, texture)) if *at == stamp => texture.clone(),
            _ => {
                let texture = stamp.and_then(|_| load_thumbnail(ctx, &path));
                self.thumbs.insert(slot.path.clone(), (stamp, texture.clone()));
                texture
            }
        }
    }
}

/// Reads a thumbnail PNG into a texture.
fn load_thumbnail(ctx: &egui::Context, path: &Path) -> Option<egui::TextureHandle> {
    let bytes = std::fs::read(path).ok()?;
    let image = Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        bevy::asset::RenderAssetUsages::default(),
    )
    .ok()?;
    let rgba = image.try_into_dynamic().ok()?.to_rgba8();
    let size = [rgba.width() as usize, rgba.height() as usize];
    let color = egui::ColorImage::from_rgba_unmultiplied(size, rgba.as_raw());
    Some(ctx.load_texture(path.display().to_string(), color, egui::TextureOptions::LINEAR))
}

/// What the save pages read and change.
#[derive(SystemParam)]
pub struct SavePages<'w> {
    /// The listing.
    pub browser: ResMut<'w, SaveBrowser>,
    /// The folders.
    pub folders: Res<'w, SaveFolders>,
    /// The autosave's rotation.
    pub autosave: Res<'w, Autosave>,
    /// Saves asked for.
    pub requests: ResMut<'w, SaveRequests>,
}

/// One slot: thumbnail, name, mission, game time, date; empty or damaged said so.
fn slot_row(ui: &mut egui::Ui, slot: &Slot, thumb: Option<&egui::TextureHandle>, locale: &Locale) {
    let [w, h] = crate::saves::THUMBNAIL.map(|v| v as f32 * 0.6);
    match thumb {
        Some(t) => ui.add(egui::Image::new(t).fit_to_exact_size(egui::vec2(w, h))),
        None => {
            let (rect, response) = ui.allocate_exact_size(egui::vec2(w, h), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, egui::Color32::from_gray(40));
            response
        }
    };
    ui.vertical(|ui| {
        ui.set_min_width(300.0);
        ui.strong(&slot.name);
        match &slot.state {
            SlotState::Empty => {
                ui.weak(locale.t("save-empty"));
            }
            SlotState::Saved(m) => {
                ui.label(m.mission.as_str());
                ui.label(locale.tr("save-details", &[("time", m.game_time().into()), ("date", m.date_text().into())]));
            }
            SlotState::Damaged(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, locale.t("save-damaged"));
                ui.small(e);
            }
        }
    });
}

/// The Load page: every slot; a saved one can be loaded (the whole file is checked
/// first), a damaged one shows why it cannot.
pub fn load_page(ui: &mut egui::Ui, pages: &mut SavePages, locale: &Locale) -> Option<OpenFile> {
    pages.browser.refresh(&pages.folders, pages.autosave.keep);
    let mut chosen = None;
    ui.label(egui::RichText::new(locale.t("save-load-title")).size(20.0));
    egui::ScrollArea::vertical().max_height(420.0).id_salt("load_slots").show(ui, |ui| {
        for slot in pages.browser.saves.clone() {
            let thumb = pages.browser.thumbnail(ui.ctx(), &slot);
            ui.horizontal(|ui| {
                slot_row(ui, &slot, thumb.as_ref(), locale);
                if matches!(slot.state, SlotState::Saved(_)) && ui.button(locale.t("save-load")).clicked() {
                    chosen = Some(OpenFile::Save(slot.path.clone()));
                }
            });
            ui.separator();
        }
    });
    chosen
}

/// The Save page: a new slot by name, or an existing one overwritten after a
/// confirmation.
pub fn save_page(ui: &mut egui::Ui, pages: &mut SavePages, status: &mut SaveStatus, locale: &Locale) {
    pages.browser.refresh(&pages.folders, pages.autosave.keep);
    let mut save = None;
    ui.label(egui::RichText::new(locale.t("save-save-title")).size(20.0));
    ui.horizontal(|ui| {
        ui.label(locale.t("save-name"));
        ui.text_edit_singleline(&mut pages.browser.typed);
        if ui.button(locale.t("save-save")).clicked() {
            save = Some(pages.browser.typed.clone());
        }
    });
    if let Some(name) = pages.browser.confirm.clone() {
        ui.horizontal(|ui| {
            ui.colored_label(egui::Color32::YELLOW, locale.tr("save-overwrite", &[("name", name.clone().into())]));
            if ui.button(locale.t("save-yes")).clicked() {
                pages.requests.0.push(name);
                pages.browser.confirm = None;
            }
            if ui.button(locale.t("save-no")).clicked() {
                pages.browser.confirm = None;
            }
        });
    }
    egui::ScrollArea::vertical().max_height(360.0).id_salt("save_slots").show(ui, |ui| {
        for slot in pages.browser.saves.clone() {
            let thumb = pages.browser.thumbnail(ui.ctx(), &slot);
            ui.horizontal(|ui| {
                slot_row(ui, &slot, thumb.as_ref(), locale);
                if ui.button(locale.t("save-here")).clicked() {
                    save = Some(slot.name.clone());
                }
            });
            ui.separator();
        }
    });
    let Some(typed) = save else { return };
    match slots::slot_name(&typed) {
        Err(e) => status.fail(e),
        Ok(name) => match pages.browser.saves.iter().find(|s| s.name == name).map(|s| &s.state) {
            Some(SlotState::Saved(_) | SlotState::Damaged(_)) => pages.browser.confirm = Some(name),
            _ => pages.requests.0.push(name),
        },
    }
}

/// The replays page: every recorded replay with mission, date and length.
pub fn replays_page(ui: &mut egui::Ui, pages: &mut SavePages, locale: &Locale) -> Option<OpenFile> {
    pages.browser.refresh(&pages.folders, pages.autosave.keep);
    let mut chosen = None;
    ui.label(egui::RichText::new(locale.t("replay-list-title")).size(20.0));
    if pages.browser.replays.is_empty() {
        ui.label(locale.t("replay-none"));
    }
    egui::ScrollArea::vertical().max_height(420.0).id_salt("replays").show(ui, |ui| {
        egui::Grid::new("replay_grid").striped(true).show(ui, |ui| {
            for slot in pages.browser.replays.clone() {
                match &slot.state {
                    SlotState::Saved(m) => {
                        ui.label(m.mission.as_str());
                        ui.label(m.date_text());
                        ui.monospace(m.game_time());
                        if ui.button(locale.t("replay-watch")).clicked() {
                            chosen = Some(OpenFile::Replay(slot.path.clone()));
                        }
                    }
                    state => {
                        ui.label(&slot.name);
                        let e = if let SlotState::Damaged(e) = state { e.as_str() } else { "" };
                        ui.colored_label(egui::Color32::LIGHT_RED, locale.t("save-damaged")).on_hover_text(e);
                        ui.label("");
                        ui.label("");
                    }
                }
                ui.end_row();
            }
        });
    });
    chosen
}

/// A file written changes the listing.
pub fn relist(mut written: MessageReader<SaveWritten>, mut browser: ResMut<SaveBrowser>) {
    if written.read().count() > 0 {
        browser.invalidate();
    }
}
