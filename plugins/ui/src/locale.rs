//! The project's own interface text (menus, HUD, settings, messages) in English and
//! Russian, from Fluent files (`assets/locales/<tag>/iron3d.ftl`, as OpenRA keeps its
//! strings) embedded in the binary so it runs from anywhere. The language is a setting;
//! by default it follows the system's (`LC_ALL`, then `LC_MESSAGES`, then `LANG`, the
//! POSIX order: a value starting `ru` chooses Russian, anything else English; on
//! systems without these variables, English). A key missing from a language falls back
//! to English, then to the key itself; the tests check that every key the code uses
//! exists in both files. The game's own text (briefings, `TextRes.cfg`) is not here:
//! it comes from the game data ([`crate::game_text`]).

use crate::settings::UserSettings;
use bevy::prelude::*;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use iron3d_core::{MissionLoadPhase, NavState, Outcome};
use iron3d_input::GameAction;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Locale>().add_systems(Update, apply);
}

/// A language of the interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflect, Serialize, Deserialize)]
pub enum Language {
    /// English (the fallback of every key).
    English,
    /// Russian.
    Russian,
}

impl Language {
    /// Every language, in the order the settings list them.
    pub const ALL: [Self; 2] = [Self::English, Self::Russian];

    /// The language tag (and folder under `assets/locales`).
    pub fn tag(self) -> &'static str {
        match self {
            Self::English => "en",
            Self::Russian => "ru",
        }
    }

    /// The language's Fluent file.
    pub fn source(self) -> &'static str {
        match self {
            Self::English => include_str!("../../../assets/locales/en/iron3d.ftl"),
            Self::Russian => include_str!("../../../assets/locales/ru/iron3d.ftl"),
        }
    }

    /// The language of a locale value such as `ru_RU.UTF-8` (`None` when empty).
    pub fn from_locale(value: &str) -> Option<Self> {
        let value = value.trim();
        if value.is_empty() {
            return None;
        }
        Some(if value.to_ascii_lowercase().starts_with("ru") { Self::Russian } else { Self::English })
    }

    /// The system's language from the environment variables `var` reads (`LC_ALL`,
    /// `LC_MESSAGES`, `LANG`; the first set one decides).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Self {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|name| var(name).as_deref().and_then(Self::from_locale))
            .unwrap_or(Self::English)
    }

    /// The system's language (this process's environment).
    pub fn system() -> Self {
        Self::from_env(|name| std::env::var(name).ok())
    }
}

/// The language setting: the system's, or a chosen one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect, Serialize, Deserialize)]
pub enum LanguageSetting {
    /// Follow the system's language.
    #[default]
    System,
    /// Always this language.
    Fixed(Language),
}

impl LanguageSetting {
    /// The language in effect.
    pub fn resolve(self) -> Language {
        match self {
            Self::System => Language::system(),
            Self::Fixed(l) => l,
        }
    }
}

type Bundle = FluentBundle<FluentResource>;

/// One language's messages (parse problems are logged; what parsed is kept).
fn bundle(language: Language) -> Bundle {
    let resource = FluentResource::try_new(language.source().to_string()).unwrap_or_else(|(partial, errors)| {
        warn!("locale {}: {} syntax errors in iron3d.ftl: {errors:?}", language.tag(), errors.len());
        partial
    });
    let tag = language.tag().parse().unwrap_or_default();
    let mut bundle = Bundle::new_concurrent(vec![tag]);
    // egui draws the Unicode isolation marks Fluent puts around arguments as boxes.
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        warn!("locale {}: {errors:?}", language.tag());
    }
    bundle
}

/// The interface text in the language in effect.
#[derive(Resource)]
pub struct Locale {
    language: Language,
    bundle: Bundle,
    english: Bundle,
    /// Each language's own name (`language-name`), in [`Language::ALL`] order.
    names: Vec<String>,
}

impl std::fmt::Debug for Locale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Locale").field("language", &self.language).field("names", &self.names).finish_non_exhaustive()
    }
}

impl Default for Locale {
    fn default() -> Self {
        Self::new(Language::system())
    }
}

impl Locale {
    /// The messages of `language`.
    pub fn new(language: Language) -> Self {
        let names = Language::ALL.iter().map(|&l| format(&[&bundle(l)], LANGUAGE_NAME, None)).collect();
        Self { language, bundle: bundle(language), english: bundle(Language::English), names }
    }

    /// `language`'s name in that language.
    pub fn name_of(&self, language: Language) -> &str {
        let i = Language::ALL.iter().position(|&l| l == language).unwrap_or_default();
        self.names.get(i).map_or("", String::as_str)
    }

    /// The text of `key`.
    pub fn t(&self, key: &str) -> String {
        self.format(key, None)
    }

    /// The text of `key` with named arguments (`{ $name }` in the file).
    pub fn tr(&self, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        let mut fluent = FluentArgs::new();
        for (name, value) in args {
            fluent.set(*name, value.clone());
        }
        self.format(key, Some(&fluent))
    }

    fn format(&self, key: &str, args: Option<&FluentArgs<'_>>) -> String {
        format(&[&self.bundle, &self.english], key, args)
    }
}

/// The key of a language's own name.
const LANGUAGE_NAME: &str = "language-name";

/// `key` of the first of `bundles` that has it, else the key itself.
fn format(bundles: &[&Bundle], key: &str, args: Option<&FluentArgs<'_>>) -> String {
    for bundle in bundles {
        if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
            let mut errors = Vec::new();
            return bundle.format_pattern(pattern, args, &mut errors).into_owned();
        }
    }
    key.to_string()
}

/// The key of a button action's name (`action-<variant>`).
pub fn action_key(action: GameAction) -> String {
    format!("action-{action:?}")
}

/// The key of a loading phase's name (`phase-<variant>`).
pub fn phase_key(phase: MissionLoadPhase) -> String {
    format!("phase-{phase:?}")
}

/// The key of an outcome's name (`outcome-<name>`).
pub fn outcome_key(outcome: Outcome) -> String {
    format!("outcome-{}", outcome.name())
}

/// The key of a unit's navigation state (`nav-<name>`).
pub fn nav_key(state: NavState) -> String {
    format!("nav-{}", state.name())
}

/// Follows the language setting.
pub fn apply(settings: Res<UserSettings>, mut locale: ResMut<Locale>) {
    if settings.is_changed() {
        let language = settings.language.resolve();
        if locale.language != language {
            *locale = Locale::new(language);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Whether `language`'s own file has `key`.
    fn has(language: Language, key: &str) -> bool {
        bundle(language).has_message(key)
    }

    /// The message ids of a Fluent file.
    fn keys(source: &str) -> BTreeSet<String> {
        source
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
            .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim().to_string()))
            .collect()
    }

    /// The keys built at run time from a value.
    fn dynamic() -> BTreeSet<String> {
        let actions = GameAction::BUTTONS.map(action_key);
        let phases = MissionLoadPhase::ALL.map(phase_key);
        let outcomes = [Outcome::Completed, Outcome::Failed, Outcome::Defeated].map(outcome_key);
        let nav = [NavState::Idle, NavState::Moving, NavState::Arrived, NavState::Blocked].map(nav_key);
        let fixed = [LANGUAGE_NAME.to_string()];
        actions.into_iter().chain(phases).chain(outcomes).chain(nav).chain(fixed).collect()
    }

    /// The key sections of the Fluent files (the words before the first `-`).
    const SECTIONS: [&str; 22] = [
        "menu",
        "loading",
        "briefing",
        "hud",
        "order",
        "nav",
        "build",
        "pause",
        "outcome",
        "settings",
        "overlay",
        "mp",
        "save",
        "replay",
        "chat",
        "designer",
        "wingman",
        "hq",
        "commander",
        "objectives",
        "cockpit",
        "help",
    ];

    /// Every key this crate's sources name outside their tests: the literal of each
    /// `.t("…")` / `.tr("…"` call and every string literal shaped like a key of a
    /// section (keys chosen in a `match` before the call).
    fn used_keys() -> BTreeSet<String> {
        let mut files = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
        let mut used = BTreeSet::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            let file = std::fs::read_to_string(path).unwrap();
            // Tests may name missing keys on purpose.
            let text = file.split("#[cfg(test)]").next().unwrap();
            for call in [".t(\"", ".tr(\""] {
                for (at, _) in text.match_indices(call) {
                    let rest = &text[at + call.len()..];
                    used.insert(rest[..rest.find('"').unwrap()].to_string());
                }
            }
            // Between quotes: every odd piece of a split on `"` (no key holds a quote).
            for literal in text.split('"').skip(1).step_by(2) {
                let key_like = literal.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
                if key_like && literal.split_once('-').is_some_and(|(section, _)| SECTIONS.contains(&section)) {
                    used.insert(literal.to_string());
                }
            }
        }
        used
    }

    #[test]
    fn both_languages_have_the_same_keys_and_every_key_used() {
        let (en, ru) = (keys(Language::English.source()), keys(Language::Russian.source()));
        assert_eq!(en.symmetric_difference(&ru).collect::<Vec<_>>(), Vec::<&String>::new());
        let used = used_keys();
        assert!(used.len() > 50, "the scan finds the calls ({} keys)", used.len());
        let dynamic = dynamic();
        for key in used.iter().chain(&dynamic) {
            for language in Language::ALL {
                assert!(has(language, key), "{key} missing from {}", language.tag());
            }
        }
        for key in &en {
            assert!(used.contains(key) || dynamic.contains(key), "{key} is never used");
        }
    }

    #[test]
    fn the_system_language_comes_from_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        assert_eq!(Language::from_env(env(&[("LANG", "ru_RU.UTF-8")])), Language::Russian);
        assert_eq!(Language::from_env(env(&[("LC_ALL", "en_GB.UTF-8"), ("LANG", "ru_RU")])), Language::English);
        assert_eq!(Language::from_env(env(&[("LC_ALL", ""), ("LC_MESSAGES", "ru"), ("LANG", "C")])), Language::Russian);
        assert_eq!(Language::from_env(env(&[])), Language::English);
    }

    #[test]
    fn arguments_and_plurals_are_formatted() {
        let en = Locale::new(Language::English);
        let ru = Locale::new(Language::Russian);
        assert_eq!(en.tr("hud-units", &[("count", 1.into())]), "1 unit");
        assert_eq!(en.tr("hud-units", &[("count", 5.into())]), "5 units");
        assert_eq!(ru.tr("hud-units", &[("count", 1.into())]), "1 робот");
        assert_eq!(ru.tr("hud-units", &[("count", 3.into())]), "3 робота");
        assert_eq!(ru.tr("hud-units", &[("count", 5.into())]), "5 роботов");
        assert_eq!(en.t("no-such-key"), "no-such-key", "a missing key shows itself");
    }

    #[test]
    fn the_language_setting_switches_the_strings() {
        let mut app = App::new();
        let fixed = |l| UserSettings { language: LanguageSetting::Fixed(l), ..default() };
        app.insert_resource(fixed(Language::Russian)).insert_resource(Locale::new(Language::English));
        app.add_systems(Update, apply);
        app.update();
        assert_eq!(app.world().resource::<Locale>().t("menu-settings"), "Настройки");
        app.insert_resource(fixed(Language::English));
        app.update();
        assert_eq!(app.world().resource::<Locale>().t("menu-settings"), "Settings");
    }
}
