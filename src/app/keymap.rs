//! The keymap as data: `assets/keymap.toml` compiled in, a user file layered on top, and the
//! lookup from a key press in a layer to a [`Command`]. Every `run` and key is checked when the
//! file loads; the help overlay and the hints are generated from this. Pure.

use super::command::Command;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;
use std::collections::BTreeMap;

pub const DEFAULT_KEYMAP: &str = include_str!("../../assets/keymap.toml");

/// The layers as the help overlay and `docs/keys.md` show them, each with its heading.
pub const SECTIONS: &[(Layer, &str)] = &[
    (Layer::Global, "Everywhere"),
    (Layer::Tools, "Tools pane"),
    (Layer::Filter, "While filtering"),
    (Layer::Tool, "Tool pane (schema trees)"),
    (Layer::Log, "Log pane"),
    (Layer::Protocol, "Protocol pane"),
    (
        Layer::Library,
        "A library tab's list (resources, templates, prompts)",
    ),
    (Layer::Opened, "Beside it: what was read or got"),
    (Layer::Server, "Server pane"),
    (Layer::Trial, "Trial pane: verify (V) or load (M) on a tool"),
    (Layer::Editor, "Call panel: editing arguments (a opens it)"),
    (Layer::Result, "Call panel: results"),
    (Layer::Asked, "A request from the server (its panel)"),
    (Layer::Authorize, "OAuth authorization (its panel)"),
    (Layer::Copy, "Copy menu (y)"),
    (Layer::Levels, "Log level picker (L)"),
    (
        Layer::Picker,
        "Server picker (S, or mcp-inspect with no server)",
    ),
];

/// The layers a key press can belong to, derived from the model's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    Global,
    Tools,
    Filter,
    Tool,
    Log,
    Protocol,
    Library,
    /// What a library tab's item gave, beside its list.
    Opened,
    Server,
    /// The last verify or load run.
    Trial,
    /// Typing into the argument editor.
    Editor,
    /// The call panel's results.
    Result,
    Copy,
    /// The log level picker (`L`).
    Levels,
    Help,
    /// A request the server put to the user.
    Asked,
    /// The server picker (before connecting, or `S`).
    Picker,
    /// An OAuth authorization waiting for the browser.
    Authorize,
}

impl Layer {
    pub const ALL: [Layer; 18] = [
        Layer::Authorize,
        Layer::Asked,
        Layer::Editor,
        Layer::Result,
        Layer::Global,
        Layer::Tools,
        Layer::Filter,
        Layer::Tool,
        Layer::Log,
        Layer::Protocol,
        Layer::Library,
        Layer::Opened,
        Layer::Server,
        Layer::Trial,
        Layer::Copy,
        Layer::Levels,
        Layer::Help,
        Layer::Picker,
    ];

    /// What this layer does with a key it does not bind itself.
    pub fn unbound(self) -> Unbound {
        match self {
            Layer::Filter | Layer::Editor | Layer::Asked | Layer::Authorize => Unbound::Text,
            // Backspace or a letter no key binds, typed while reading a result: the user is in
            // the "change a value, send again" loop and means the arguments.
            Layer::Result => Unbound::GlobalThenText,
            Layer::Global | Layer::Copy | Layer::Levels | Layer::Help => Unbound::Nothing,
            _ => Unbound::Global,
        }
    }

    /// Whether a key this layer does not bind runs the global layer's command (the editor,
    /// the filter and the overlays keep every key to themselves).
    pub fn falls_through(self) -> bool {
        matches!(self.unbound(), Unbound::Global | Unbound::GlobalThenText)
    }

    pub fn name(self) -> &'static str {
        match self {
            Layer::Global => "global",
            Layer::Tools => "tools",
            Layer::Filter => "filter",
            Layer::Tool => "tool",
            Layer::Log => "log",
            Layer::Protocol => "protocol",
            Layer::Library => "library",
            Layer::Opened => "opened",
            Layer::Server => "server",
            Layer::Trial => "trial",
            Layer::Editor => "editor",
            Layer::Result => "result",
            Layer::Copy => "copy",
            Layer::Levels => "levels",
            Layer::Help => "help",
            Layer::Asked => "asked",
            Layer::Picker => "picker",
            Layer::Authorize => "authorize",
        }
    }
}

/// The character `event` types: a character key without ctrl or alt.
pub fn typed_char(event: &KeyEvent) -> Option<char> {
    match event.code {
        KeyCode::Char(c)
            if !event
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(c)
        }
        _ => None,
    }
}

/// What a layer does with a key it does not bind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unbound {
    /// The global layer's binding runs.
    Global,
    /// The global layer's binding runs; a key that edits text and binds nothing is typed.
    GlobalThenText,
    /// The layer takes it as text (nothing global, but the quit key).
    Text,
    /// Nothing happens (an overlay keeps its keys; the quit key still quits).
    Nothing,
}

/// Who gets a key press: decided by [`Keymap::route`] only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Run(Command),
    /// The layer in front takes the key as text.
    Type,
    Ignore,
}

/// One key (with modifiers) as written in the keymap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Key {
    /// The key that quits from every layer that does not bind it itself, whatever the user's
    /// keymap does with the global `quit`: the way out that always works.
    pub const CTRL_C: Key = Key {
        code: KeyCode::Char('c'),
        ctrl: true,
        alt: false,
    };

    pub fn parse(text: &str) -> Result<Key, String> {
        let (mut ctrl, mut alt, mut rest) = (false, false, text);
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-").filter(|r| !r.is_empty()) {
                ctrl = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("alt-").filter(|r| !r.is_empty()) {
                alt = true;
                rest = r;
            } else {
                break;
            }
        }
        let code = match rest {
            "enter" => KeyCode::Enter,
            "esc" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "space" => KeyCode::Char(' '),
            "backspace" => KeyCode::Backspace,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            s if s.chars().count() == 1 => KeyCode::Char(s.chars().next().unwrap_or(' ')),
            other => return Err(format!("unknown key `{other}`")),
        };
        Ok(Key { code, ctrl, alt })
    }

    /// The key a terminal event stands for (shift is part of the character itself).
    pub fn from_event(event: &KeyEvent) -> Key {
        Key {
            code: event.code,
            ctrl: event.modifiers.contains(KeyModifiers::CONTROL),
            alt: event.modifiers.contains(KeyModifiers::ALT),
        }
    }

    /// How the help overlay writes the key.
    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "enter".into(),
            KeyCode::Esc => "esc".into(),
            KeyCode::Tab => "tab".into(),
            KeyCode::BackTab => "shift-tab".into(),
            KeyCode::Backspace => "backspace".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "pgup".into(),
            KeyCode::PageDown => "pgdn".into(),
            KeyCode::Home => "home".into(),
            KeyCode::End => "end".into(),
            other => format!("{other:?}"),
        };
        format!(
            "{}{}{base}",
            if self.ctrl { "ctrl-" } else { "" },
            if self.alt { "alt-" } else { "" }
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub keys: Vec<Key>,
    pub run: Command,
    pub desc: String,
}

#[derive(Deserialize)]
struct RawBinding {
    on: Vec<toml::Spanned<String>>,
    run: toml::Spanned<String>,
    #[serde(default)]
    desc: String,
}

/// "line N: …" for a value of the file at `span`.
fn at_line(text: &str, span: std::ops::Range<usize>, problem: String) -> String {
    let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
    format!("line {line}: {problem}")
}

#[derive(Debug, Clone, Default)]
pub struct Keymap {
    layers: BTreeMap<Layer, Vec<Binding>>,
}

impl Keymap {
    /// The built-in keymap.
    pub fn default_map() -> Keymap {
        Keymap::parse(DEFAULT_KEYMAP).unwrap_or_default()
    }

    pub fn parse(text: &str) -> Result<Keymap, String> {
        let raw: BTreeMap<String, Vec<RawBinding>> =
            toml::from_str(text).map_err(|e| e.to_string())?;
        let mut layers = BTreeMap::new();
        for (name, bindings) in raw {
            let layer = Layer::ALL
                .into_iter()
                .find(|l| l.name() == name)
                .ok_or_else(|| format!("unknown layer `{name}`"))?;
            let mut list = Vec::new();
            for b in bindings {
                let keys =
                    b.on.iter()
                        .map(|k| Key::parse(k.get_ref()).map_err(|e| at_line(text, k.span(), e)))
                        .collect::<Result<Vec<_>, _>>()?;
                let run = Command::parse(b.run.get_ref()).ok_or_else(|| {
                    at_line(
                        text,
                        b.run.span(),
                        format!(
                            "unknown command `{}` (see the built-in keymap for the names)",
                            crate::untrusted::label(b.run.get_ref())
                        ),
                    )
                })?;
                list.push(Binding {
                    keys,
                    run,
                    desc: b.desc,
                });
            }
            layers.insert(layer, list);
        }
        Ok(Keymap { layers })
    }

    /// Layers `user` on top of `self`: user bindings win, and a default bound to a key the user
    /// rebound loses that key.
    pub fn overlay(mut self, user: Keymap) -> Keymap {
        for (layer, user_bindings) in user.layers {
            let defaults = self.layers.remove(&layer).unwrap_or_default();
            let taken: Vec<Key> = user_bindings.iter().flat_map(|b| b.keys.clone()).collect();
            let mut merged = user_bindings;
            for mut d in defaults {
                d.keys.retain(|k| !taken.contains(k));
                if !d.keys.is_empty() {
                    merged.push(d);
                }
            }
            self.layers.insert(layer, merged);
        }
        self
    }

    /// The built-in keymap with the user's file on top, and a warning if that file is broken.
    pub fn load() -> (Keymap, Option<String>) {
        let base = Keymap::default_map();
        let Some(path) = user_file() else {
            return (base, None);
        };
        match std::fs::read_to_string(&path) {
            Err(_) => (base, None),
            Ok(text) => match Keymap::parse(&text) {
                Ok(user) => (base.overlay(user), None),
                Err(e) => (base, Some(format!("ignored {}: {e}", path.display()))),
            },
        }
    }

    /// Who gets `key` while `layer` is in front, front to back: the layer's own binding, then
    /// [`Key::CTRL_C`], then what the layer does with keys it does not bind. `edits_text`: the
    /// key is Backspace, Delete or a typed character.
    pub fn route(&self, layer: Layer, key: Key, edits_text: bool) -> Route {
        if let Some(command) = self.command(layer, key) {
            return Route::Run(command);
        }
        if key == Key::CTRL_C {
            return Route::Run(Command::Quit);
        }
        let global = || self.command(Layer::Global, key).map(Route::Run);
        match layer.unbound() {
            Unbound::Global => global().unwrap_or(Route::Ignore),
            Unbound::GlobalThenText => global().unwrap_or(if edits_text {
                Route::Type
            } else {
                Route::Ignore
            }),
            Unbound::Text => Route::Type,
            Unbound::Nothing => Route::Ignore,
        }
    }

    /// The command bound to `key` in `layer`.
    pub fn command(&self, layer: Layer, key: Key) -> Option<Command> {
        self.layers
            .get(&layer)?
            .iter()
            .find(|b| b.keys.contains(&key))
            .map(|b| b.run)
    }

    /// Every binding as Markdown tables, one per section (`docs/keys.md` is this text; a test
    /// fails when they differ).
    pub fn markdown(&self) -> String {
        let mut out = String::from(
            "# Keys\n\nGenerated from `assets/keymap.toml` (the defaults; a user keymap overrides them).\nDo not edit: `UPDATE_DOCS=1 cargo test --test logic docs` writes it again.\n",
        );
        for &(layer, title) in SECTIONS {
            out.push_str(&format!("\n## {title}\n\n| keys | does |\n| --- | --- |\n"));
            for b in self.bindings(layer) {
                let keys: Vec<String> = b
                    .keys
                    .iter()
                    .map(|k| format!("`{}`", k.label().replace('|', "\\|")))
                    .collect();
                let desc = b.desc.replace('|', "\\|");
                out.push_str(&format!("| {} | {desc} |\n", keys.join(" ")));
            }
        }
        out
    }

    pub fn bindings(&self, layer: Layer) -> &[Binding] {
        self.layers.get(&layer).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The first key bound to `command` in `layer`, for hints.
    pub fn key_for(&self, layer: Layer, command: Command) -> Option<String> {
        self.bindings(layer)
            .iter()
            .find(|b| b.run == command)
            .and_then(|b| b.keys.first())
            .map(Key::label)
    }
}

impl Keymap {
    /// A key that runs `command` when `active` is the layer: its own binding, or a global one
    /// the layer lets through. `None` when no key there does, so hints never show a dead key.
    pub fn reachable_key(&self, active: Layer, command: Command) -> Option<String> {
        let own = |key: &Key| self.command(active, *key);
        self.bindings(active)
            .iter()
            .filter(|b| b.run == command)
            .flat_map(|b| b.keys.first())
            .chain(
                self.bindings(Layer::Global)
                    .iter()
                    .filter(|b| active.falls_through() && b.run == command)
                    .flat_map(|b| b.keys.iter().filter(|k| own(k).is_none())),
            )
            .next()
            .map(Key::label)
    }
}

fn user_file() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config"))
        })?;
    Some(base.join("mcp-inspect").join("keymap.toml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> Key {
        Key::parse(text).expect("key")
    }

    #[test]
    fn ctrl_c_quits_from_every_layer_that_does_not_bind_it_whatever_the_user_rebinds() {
        let user = Keymap::parse("[[global]]\non = [\"Q\"]\nrun = \"quit\"\n").expect("user");
        let map = Keymap::default_map().overlay(user);
        for layer in Layer::ALL {
            assert_eq!(
                map.route(layer, Key::CTRL_C, false),
                Route::Run(Command::Quit),
                "{}",
                layer.name()
            );
        }
        assert_eq!(Key::CTRL_C, key("ctrl-c"));
        // A layer that binds ctrl-c itself keeps it.
        let editor =
            Keymap::parse("[[editor]]\non = [\"ctrl-c\"]\nrun = \"undo\"\n").expect("user");
        let map = Keymap::default_map().overlay(editor);
        assert_eq!(
            map.route(Layer::Editor, Key::CTRL_C, false),
            Route::Run(Command::Undo)
        );
    }

    #[test]
    fn a_key_goes_to_the_front_layer_then_global_or_text_as_the_layer_says() {
        let map = Keymap::default_map();
        // Panes let unbound keys through to the global layer.
        assert_eq!(
            map.route(Layer::Tools, key("q"), true),
            Route::Run(Command::Quit)
        );
        // Text layers type them: `q` in the editor, the filter, a server's form is a letter.
        for layer in [Layer::Editor, Layer::Filter, Layer::Asked, Layer::Authorize] {
            assert_eq!(
                map.route(layer, key("q"), true),
                Route::Type,
                "{}",
                layer.name()
            );
        }
        // Overlays keep their keys: a letter the copy menu does not bind, bound globally, does nothing.
        let global_only = ('a'..='z')
            .map(|c| key(&c.to_string()))
            .find(|&k| {
                map.command(Layer::Copy, k).is_none() && map.command(Layer::Global, k).is_some()
            })
            .expect("a global letter");
        assert_eq!(map.route(Layer::Copy, global_only, true), Route::Ignore);
        // Reading a result: a global key runs, an unbound letter goes back to the arguments.
        assert_eq!(
            map.route(Layer::Result, key("q"), true),
            Route::Run(Command::Quit)
        );
        let unbound = ('a'..='z')
            .chain('A'..='Z')
            .map(|c| key(&c.to_string()))
            .find(|&k| {
                map.command(Layer::Result, k).is_none() && map.command(Layer::Global, k).is_none()
            })
            .expect("a letter nothing binds");
        assert_eq!(map.route(Layer::Result, unbound, true), Route::Type);
        assert_eq!(
            map.route(
                Layer::Result,
                Key {
                    code: KeyCode::F(5),
                    ctrl: false,
                    alt: false
                },
                false
            ),
            Route::Ignore
        );
    }

    #[test]
    fn default_keymap_parses_and_binds_the_basics() {
        let map = Keymap::parse(DEFAULT_KEYMAP).expect("default keymap");
        assert_eq!(map.command(Layer::Global, key("q")), Some(Command::Quit));
        assert_eq!(
            map.command(Layer::Global, key("ctrl-c")),
            Some(Command::Quit)
        );
        assert_eq!(map.command(Layer::Tools, key("j")), Some(Command::Down));
        assert_eq!(
            map.command(Layer::Tool, key("enter")),
            Some(Command::Toggle)
        );
        assert_eq!(map.command(Layer::Copy, key("i")), Some(Command::CopyInput));
        for layer in Layer::ALL {
            for b in map.bindings(layer) {
                assert!(
                    !b.desc.is_empty(),
                    "{} {} has no description",
                    layer.name(),
                    b.run.name()
                );
            }
        }
    }

    #[test]
    fn user_bindings_win_and_take_their_keys() {
        let user = Keymap::parse("[[tools]]\non = [\"j\"]\nrun = \"last\"\ndesc = \"mine\"\n")
            .expect("user");
        let map = Keymap::default_map().overlay(user);
        assert_eq!(map.command(Layer::Tools, key("j")), Some(Command::Last));
        assert_eq!(
            map.command(Layer::Tools, key("down")),
            Some(Command::Down),
            "other keys of the default stay"
        );
        assert_eq!(
            map.command(Layer::Global, key("q")),
            Some(Command::Quit),
            "other layers untouched"
        );
    }

    #[test]
    fn bad_files_are_reported() {
        assert!(Keymap::parse("[[nowhere]]\non = [\"x\"]\nrun = \"quit\"\n").is_err());
        assert_eq!(
            Keymap::parse("[[global]]\non = [\"hyper-x\"]\nrun = \"quit\"\n").err(),
            Some("line 2: unknown key `hyper-x`".into())
        );
        assert_eq!(
            Keymap::parse("[[global]]\non = [\"x\"]\n\nrun = \"qiut\"\n").err(),
            Some("line 4: unknown command `qiut` (see the built-in keymap for the names)".into()),
            "a typo in a command is an error naming its line, not a dead key"
        );
        assert_eq!(
            key("ctrl-d"),
            Key {
                code: KeyCode::Char('d'),
                ctrl: true,
                alt: false
            }
        );
        assert_eq!(key("G").label(), "G");
    }
}
