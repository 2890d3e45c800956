//! The cockpit's drawing surface: the original's 640 × 480 layout on the window, and the
//! pieces of art drawn on it (openparkan `docs/35-hud.md`, "Everything is drawn on a 640
//! × 480 screen", read). A sprite is cut from its 256 × 256 page from half a texel in,
//! and drawn on a quad whose first corner takes the sprite's top left, so a quad given
//! x₁ < x₀ mirrors it; a sprite's quarter turns turn its corners.
//!
//! The original stretches the layout to the display mode (its width ÷ 640 across, its
//! height ÷ 480 down); iron3d scales it by the smaller of the two and pins each element
//! to its side of the window, so a wide window keeps the radar and the reticle round
//! (the project's).

use bevy_egui::egui;
use iron3d_formats::config::ui_art::PAGE_SIDE;

/// The layout's size.
pub const LAYOUT: [f32; 2] = [640.0, 480.0];

/// Where an element stays on a window of another shape: the share of the layout (0 left
/// or top, 1 right or bottom) that sits on the same share of the window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pin(pub f32, pub f32);

impl Pin {
    /// The top right corner (the weapons list).
    pub const TOP_RIGHT: Pin = Pin(1.0, 0.0);
    /// The top's middle (the message box).
    pub const TOP: Pin = Pin(0.5, 0.0);
    /// The middle (the reticle, the lock).
    pub const CENTRE: Pin = Pin(0.5, 0.5);
    /// The bottom's middle (the radar, the indicators).
    pub const BOTTOM: Pin = Pin(0.5, 1.0);
    /// The bottom left corner (the target panel).
    pub const BOTTOM_LEFT: Pin = Pin(0.0, 1.0);
    /// The bottom right corner (the own panel).
    pub const BOTTOM_RIGHT: Pin = Pin(1.0, 1.0);
}

/// The layout on a window's rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// The window's rectangle (egui points).
    pub screen: egui::Rect,
}

impl Layout {
    /// The scale of a layout unit.
    pub fn scale(&self) -> f32 {
        (self.screen.width() / LAYOUT[0]).min(self.screen.height() / LAYOUT[1])
    }

    /// The layout point (pinned by `pin`) of a point of the window: [`Self::point`]'s
    /// inverse.
    pub fn unpoint(&self, at: egui::Pos2, Pin(px, py): Pin) -> [f32; 2] {
        let s = self.scale();
        let r = self.screen;
        [
            (at.x - r.left() - px * r.width()) / s + px * LAYOUT[0],
            (at.y - r.top() - py * r.height()) / s + py * LAYOUT[1],
        ]
    }

    /// A layout point, pinned, on the window.
    pub fn point(&self, [x, y]: [f32; 2], Pin(px, py): Pin) -> egui::Pos2 {
        let s = self.scale();
        let r = self.screen;
        egui::pos2(
            r.left() + px * r.width() + (x - px * LAYOUT[0]) * s,
            r.top() + py * r.height() + (y - py * LAYOUT[1]) * s,
        )
    }
}

/// A sprite: its page's texture and its rectangle there (x, y, width, height), with its
/// quarter turns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cut {
    /// The page.
    pub texture: egui::TextureId,
    /// The rectangle on the page.
    pub rect: [f32; 4],
    /// Quarter turns of its corners.
    pub turns: u8,
}

impl Cut {
    /// The texture coordinates of its four corners (top left, top right, bottom right,
    /// bottom left), from half a texel in (`iron3d.dll:0x1008f830`), turned.
    pub fn uvs(&self) -> [egui::Pos2; 4] {
        let side = PAGE_SIDE as f32;
        let [x, y, w, h] = self.rect;
        let (u0, v0, u1, v1) = ((x + 0.5) / side, (y + 0.5) / side, (x + w) / side, (y + h) / side);
        let corners = [egui::pos2(u0, v0), egui::pos2(u1, v0), egui::pos2(u1, v1), egui::pos2(u0, v1)];
        let turns = usize::from(self.turns % 4);
        std::array::from_fn(|i| corners[(i + 4 - turns) % 4])
    }
}

/// What the cockpit draws with: the layout, the pin of what is drawn now, and egui's
/// painter.
pub struct Ink<'a> {
    /// The layout.
    pub layout: Layout,
    /// Where what is drawn now is pinned.
    pub pin: Pin,
    /// The painter.
    pub painter: &'a egui::Painter,
}

/// An ARGB colour as the original writes them.
pub fn argb(c: u32) -> egui::Color32 {
    let [a, r, g, b] = c.to_be_bytes();
    egui::Color32::from_rgba_unmultiplied(r, g, b, a)
}

impl Ink<'_> {
    fn at(&self, p: [f32; 2]) -> egui::Pos2 {
        self.layout.point(p, self.pin)
    }

    /// `cut` over the quad (x₀, y₀)–(x₁, y₁), tinted.
    pub fn cut(&self, cut: Cut, [x0, y0, x1, y1]: [f32; 4], tint: egui::Color32) {
        let corners = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        let mut mesh = egui::Mesh::with_texture(cut.texture);
        for (corner, uv) in corners.into_iter().zip(cut.uvs()) {
            mesh.vertices.push(egui::epaint::Vertex { pos: self.at(corner), uv, color: tint });
        }
        mesh.indices.extend([0, 1, 2, 0, 2, 3]);
        self.painter.add(mesh);
    }

    /// The whole of `texture` over the rectangle (x₀, y₀)–(x₁, y₁), tinted.
    pub fn image(&self, texture: egui::TextureId, [x0, y0, x1, y1]: [f32; 4], tint: egui::Color32) {
        let rect = egui::Rect::from_two_pos(self.at([x0, y0]), self.at([x1, y1]));
        let whole = egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(1.0, 1.0));
        self.painter.image(texture, rect, whole, tint);
    }

    /// A triangle of `texture` (its corners at the page pixels `uvs`), tinted.
    pub fn triangle(&self, texture: egui::TextureId, corners: [[f32; 2]; 3], uvs: [[f32; 2]; 3], tint: egui::Color32) {
        let side = PAGE_SIDE as f32;
        let mut mesh = egui::Mesh::with_texture(texture);
        for (corner, [u, v]) in corners.into_iter().zip(uvs) {
            mesh.vertices.push(egui::epaint::Vertex {
                pos: self.at(corner),
                uv: egui::pos2(u / side, v / side),
                color: tint,
            });
        }
        mesh.indices.extend([0, 1, 2]);
        self.painter.add(mesh);
    }

    /// A filled rectangle (x₀, y₀)–(x₁, y₁).
    pub fn fill(&self, [x0, y0, x1, y1]: [f32; 4], colour: egui::Color32) {
        self.painter.rect_filled(egui::Rect::from_two_pos(self.at([x0, y0]), self.at([x1, y1])), 0.0, colour);
    }

    /// A rectangle's outline (x₀, y₀)–(x₁, y₁).
    pub fn outline(&self, [x0, y0, x1, y1]: [f32; 4], colour: egui::Color32) {
        let rect = egui::Rect::from_two_pos(self.at([x0, y0]), self.at([x1, y1]));
        self.painter.rect_stroke(rect, 0.0, egui::Stroke::new(1.0, colour), egui::StrokeKind::Inside);
    }

    /// A circle's outline about `centre`, `radius` layout units.
    pub fn circle(&self, centre: [f32; 2], radius: f32, colour: egui::Color32) {
        let s = self.layout.scale();
        self.painter.circle_stroke(self.at(centre), radius * s, egui::Stroke::new(1.0, colour));
    }

    /// `text` from `at` (its top left), `size` layout units high, with a black shadow.
    pub fn text_left(&self, at: [f32; 2], text: &str, colour: egui::Color32, size: f32) {
        let font = egui::FontId::proportional(size * self.layout.scale());
        let p = self.at(at);
        self.painter.text(p + egui::vec2(1.0, 1.0), egui::Align2::LEFT_TOP, text, font.clone(), egui::Color32::BLACK);
        self.painter.text(p, egui::Align2::LEFT_TOP, text, font, colour);
    }

    /// `text` centred in the span `x0..x1` with its top at `y`, with a black shadow (the
    /// GUI server's text; egui's font stands in for `GAME_FONT`, the project's).
    pub fn text(&self, [x0, x1]: [f32; 2], y: f32, text: &str, colour: egui::Color32) {
        let font = egui::FontId::monospace(9.0 * self.layout.scale());
        let centre = self.at([(x0 + x1) / 2.0, y]);
        let shadow = centre + egui::vec2(1.0, 1.0);
        self.painter.text(shadow, egui::Align2::CENTER_TOP, text, font.clone(), egui::Color32::BLACK);
        self.painter.text(centre, egui::Align2::CENTER_TOP, text, font, colour);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_scales_by_the_smaller_side_and_each_element_keeps_its_pin() {
        let square = Layout { screen: egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 960.0)) };
        assert_eq!(square.point([640.0, 480.0], Pin(0.0, 0.0)), egui::pos2(1280.0, 960.0));
        let wide = Layout { screen: egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 720.0)) };
        assert_eq!(wide.scale(), 1.5);
        assert_eq!(wide.point([640.0, 0.0], Pin::TOP_RIGHT), egui::pos2(1280.0, 0.0), "the weapons' right edge");
        assert_eq!(wide.point([0.0, 306.0], Pin::BOTTOM_LEFT), egui::pos2(0.0, 720.0 - 174.0 * 1.5));
        assert_eq!(wide.point([320.0, 240.0], Pin::CENTRE), egui::pos2(640.0, 360.0), "the reticle's centre");
    }

    #[test]
    fn a_cut_starts_half_a_texel_in_and_its_quarter_turns_turn_its_corners() {
        let cut = Cut { texture: egui::TextureId::default(), rect: [0.0, 32.0, 9.0, 9.0], turns: 0 };
        let side = PAGE_SIDE as f32;
        assert_eq!(cut.uvs()[0], egui::pos2(0.5 / side, 32.5 / side));
        assert_eq!(cut.uvs()[2], egui::pos2(9.0 / side, 41.0 / side));
        let turned = Cut { turns: 1, ..cut };
        assert_eq!(turned.uvs()[1], cut.uvs()[0], "a quarter turn: the top right corner takes the top left's art");
    }

    #[test]
    fn the_originals_argb_colours_read_alpha_first() {
        assert_eq!(argb(0x8080_0000), egui::Color32::from_rgba_unmultiplied(0x80, 0, 0, 0x80));
        assert_eq!(argb(0xff19_ffaf), egui::Color32::from_rgb(0x19, 0xff, 0xaf));
    }
}
