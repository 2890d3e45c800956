//! `interface`: the cockpit's art as the engine reads it (openparkan `docs/35-hud.md`):
//! `ui/game_resources.cfg`'s `textures` block, every page it names in its library
//! decoded, the sprite files read, and every sprite cut from one of those pages inside it.

use super::{Check, Tree, file_of, guarded};
use iron3d_formats::config::InterfaceArt;
use iron3d_formats::config::ui_art::GAME_RESOURCES;

impl Tree {
    /// `interface`: one item per page and per sprite of a named page.
    pub(super) fn interface(&self) -> Check {
        let mut check = Check::new("interface", "interface pages and sprites read, each sprite on its page");
        let read = guarded(self, GAME_RESOURCES, || {
            InterfaceArt::read(|path| self.game.read(path))
                .map_err(|e| self.failure(file_of(&e).unwrap_or(GAME_RESOURCES).to_string().as_str(), &e))
        });
        let Some(art) = check.item(read) else { return check.done() };
        check.count += art.pages.len();
        for sprite in &art.sprites {
            let Some(page) = art.pages.iter().find(|p| p.name == sprite.texture) else { continue };
            let [x, y, w, h] = sprite.rect;
            let [pw, ph] = page.size.map(|v| v as f32);
            let inside = x >= 0.0 && y >= 0.0 && w > 0.0 && h > 0.0 && x + w <= pw && y + h <= ph;
            let off =
                format!("sprite {}: ({x}, {y}) {w} × {h} is not inside page {} ({pw} × {ph})", sprite.name, page.name);
            check.item(if inside { Ok(()) } else { Err(self.failure(GAME_RESOURCES, off)) });
        }
        check.done()
    }
}
