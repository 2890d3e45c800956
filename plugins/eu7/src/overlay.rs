//! egui overlay: file and record counts, streaming stats, the section grid around the
//! camera (resident / ready / in flight / available / absent), and labels over
//! placeholder models near the camera.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SceneryInfo;
use crate::camera::FlyCamera;
use crate::models::{ModelLibrary, PlaceholderModel};
use crate::planner::{SectionId, SectionState};
use crate::streaming::{SectionStreamer, StreamingStats};

/// Draws the overlay in `EguiPrimaryContextPass`.
#[derive(Debug, Clone, Copy, Default)]
pub struct OverlayPlugin;

impl Plugin for OverlayPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, draw_overlay);
    }
}

const RESIDENT: egui::Color32 = egui::Color32::from_rgb(70, 190, 90);
const READY: egui::Color32 = egui::Color32::from_rgb(230, 210, 60);
const IN_FLIGHT: egui::Color32 = egui::Color32::from_rgb(235, 130, 40);
const AVAILABLE: egui::Color32 = egui::Color32::from_rgb(90, 90, 100);
const ABSENT: egui::Color32 = egui::Color32::from_rgb(35, 35, 40);

fn section_grid(ui: &mut egui::Ui, streamer: &SectionStreamer, cam: Option<Vec3>) {
    let planner = streamer.planner();
    let cfg = planner.config();
    let half = (cfg.radius + cfg.keep_margin + cfg.lookahead).min(20) as i32;
    let n = 2 * half + 1;
    let size = 240.0;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(120));
    let Some(cam) = cam else { return };
    let Some(focus) = SectionId::containing(f64::from(cam.x), f64::from(cam.z)) else { return };
    let cell = size / n as f32;
    for dr in -half..=half {
        for dc in -half..=half {
            let (row, col) = (i32::from(focus.row) + dr, i32::from(focus.col) + dc);
            let (Ok(row), Ok(col)) = (u16::try_from(row), u16::try_from(col)) else { continue };
            let id = SectionId::new(row, col);
            let color = match planner.state(id) {
                Some(SectionState::Resident) => RESIDENT,
                Some(SectionState::Ready) => READY,
                Some(SectionState::InFlight) => IN_FLIGHT,
                None if planner.available().binary_search(&id).is_ok() => AVAILABLE,
                None => ABSENT,
            };
            let min = rect.min + egui::vec2((dc + half) as f32 * cell, (dr + half) as f32 * cell);
            painter.rect_filled(egui::Rect::from_min_size(min, egui::vec2(cell - 1.0, cell - 1.0)), 0.0, color);
        }
    }
    // The camera inside its section (X right, Z down).
    let c = focus.centre();
    let frac = egui::vec2(((f64::from(cam.x) - c[0]) / 1000.0) as f32, ((f64::from(cam.z) - c[1]) / 1000.0) as f32);
    let at = rect.center() + frac * cell;
    painter.circle_filled(at, 3.0, egui::Color32::WHITE);
}

fn legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        for (c, label) in [
            (RESIDENT, "resident"),
            (READY, "ready"),
            (IN_FLIGHT, "in flight"),
            (AVAILABLE, "not loaded"),
            (ABSENT, "empty"),
        ] {
            ui.label(egui::RichText::new("■").color(c));
            ui.small(label);
        }
    });
}

fn draw_overlay(
    mut contexts: EguiContexts,
    info: Res<SceneryInfo>,
    stats: Res<StreamingStats>,
    streamer: Res<SectionStreamer>,
    (library, textures): (Res<ModelLibrary>, Res<crate::textures::TextureLibrary>),
    cams: Query<(&Camera, &GlobalTransform, &FlyCamera)>,
    placeholders: Query<(&GlobalTransform, &PlaceholderModel)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let cam = cams.iter().next();
    let mut screen = egui::Ui::new(
        ctx.clone(),
        "eu7_overlay".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let frame = egui::Frame::new().fill(egui::Color32::from_rgba_unmultiplied(12, 14, 18, 235)).inner_margin(8.0);
    egui::Panel::left("eu7_panel").frame(frame).resizable(false).default_size(260.0).show_inside(&mut screen, |ui| {
        ui.visuals_mut().override_text_color = Some(egui::Color32::from_gray(235));
        ui.heading("EU7 scenery");
        ui.small(&info.file);
        if let Some(e) = &info.error {
            ui.colored_label(egui::Color32::LIGHT_RED, e);
            return;
        }
        ui.label(format!("version {} · {} sections · {} models", info.version, info.sections, info.section_models));
        ui.label(format!(
            "terrain {} tris · {} tracks · {} wires · {} shapes · {} lines · {} MODL",
            info.terrain_triangles, info.tracks, info.traction, info.shapes, info.lines, info.static_models
        ));
        ui.label(format!("modules: {} (root + includes)", info.modules));
        for w in &info.include_warnings {
            ui.colored_label(egui::Color32::LIGHT_RED, w);
        }
        ui.separator();
        ui.label(format!(
            "sections: {} resident · {} ready · {} in flight (peak {})",
            stats.resident, stats.ready, stats.in_flight, stats.peak_resident
        ));
        ui.label(format!(
            "instances resident: {} · bootstrap {} sections in {:.0} ms",
            stats.resident_instances, stats.bootstrapped, stats.bootstrap_ms
        ));
        ui.label(format!(
            "requested {} · applied {} · unloaded {} · cancelled {} · failed {}",
            stats.requested, stats.applied, stats.unloaded, stats.cancelled, stats.failed
        ));
        ui.label(format!(
            "decoded {:.1} MiB PACK · held {:.1} MiB (peak {:.1})",
            stats.decoded_pack_bytes as f64 / 1048576.0,
            stats.held_bytes as f64 / 1048576.0,
            stats.peak_held_bytes as f64 / 1048576.0
        ));
        ui.label(format!(
            "models: {} meshes · {} missing (magenta) · {} textures missing (checker)",
            library.loaded,
            library.missing.len(),
            textures.missing.len()
        ));
        if let Some(e) = &stats.last_error {
            ui.colored_label(egui::Color32::LIGHT_RED, e);
        }
        ui.separator();
        section_grid(ui, &streamer, cam.map(|c| c.1.translation()));
        legend(ui);
        if let Some((_, t, fly)) = cam {
            let p = t.translation();
            let section = stats.focus_section.map_or("-".to_string(), |(r, c)| format!("{r},{c}"));
            ui.label(format!("camera ({:.0}, {:.0}, {:.0}) · section {section} · {:.0} m/s", p.x, p.y, p.z, fly.speed));
        }
        ui.small("R ride · +/- speed · T throws the next switch · click a marker · WASD move · E/Q up/down · Shift fast · wheel speed · right mouse look · F12 inspector");
    });
    if let Some((camera, cam_t, _)) = cam {
        let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("eu7_labels")));
        let eye = cam_t.translation();
        let mut near: Vec<(f32, Vec3, &PlaceholderModel)> = placeholders
            .iter()
            .map(|(t, p)| (t.translation().distance(eye), t.translation(), p))
            .filter(|(d, _, _)| *d < 400.0)
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (_, at, p) in near.into_iter().take(40) {
            if let Ok(at) = camera.world_to_viewport(cam_t, at + Vec3::Y * 2.5) {
                painter.text(
                    egui::pos2(at.x, at.y),
                    egui::Align2::CENTER_BOTTOM,
                    &p.model,
                    egui::FontId::proportional(12.0),
                    egui::Color32::from_rgb(255, 120, 255),
                );
            }
        }
    }
    Ok(())
}
