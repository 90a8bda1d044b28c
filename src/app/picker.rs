//! The server picker (`mcp-inspect` with no server, `--config FILE` without `--server`, or `S`
//! in the TUI): the taps running now (each attached to with Enter, to watch its host's
//! session), then the servers found in the user's client configs, filtered by `/`, one picked
//! with Enter. Keys from the keymap's `picker` layer. Pure.

use crate::app::command::Command;
use crate::app::keymap::{Key, Keymap, Layer, Route, typed_char};
use crate::app::theme::Theme;
use crate::config::client_configs::{Discovery, Found};
use crate::config::target::Target;
use crate::untrusted;
use crossterm::event::KeyEvent;

pub struct Picker {
    /// Taps running now (see `crate::tap`), listed first.
    pub taps: Vec<LiveTap>,
    pub found: Discovery,
    /// Where the servers came from, for the title: `your client configs` or a file.
    pub source: String,
    pub filter: String,
    /// True while the user types into the filter.
    pub filtering: bool,
    /// The taps and servers the filter lets through, taps first.
    pub shown: Vec<Entry>,
    /// Index into `shown`.
    pub selected: usize,
    pub scroll: usize,
    /// Why the last pick did not connect, or what a key cannot do.
    pub status: Option<String>,
    pub keymap: Keymap,
    pub theme: Theme,
}

/// A tap running now: its session's recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveTap {
    pub path: std::path::PathBuf,
    /// The recording's file name (the server's name and when the session began).
    pub name: String,
}

/// One row of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// An index into `taps`.
    Tap(usize),
    /// An index into `found.servers`.
    Server(usize),
}

/// What a key press decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked {
    Stay,
    Quit,
    /// Connect to this server (its index in `found.servers`).
    Connect(usize),
    /// Attach to this tap's session (its recording).
    Attach(std::path::PathBuf),
}

impl Picker {
    pub fn new(found: Discovery, source: String, keymap: Keymap, theme: Theme) -> Picker {
        // Whatever a listed entry carries that is secret stays out of every line drawn.
        for server in &found.servers {
            if let Ok(target) = &server.target {
                target.register_secrets();
            }
        }
        let mut picker = Picker {
            taps: Vec::new(),
            shown: Vec::new(),
            found,
            source,
            filter: String::new(),
            filtering: false,
            selected: 0,
            scroll: 0,
            status: None,
            keymap,
            theme,
        };
        picker.refilter();
        picker
    }

    /// The taps running now, as the list shows them (looked for again each time the picker
    /// is shown: a tap comes and goes with its host).
    pub fn set_taps(&mut self, taps: Vec<LiveTap>) {
        self.taps = taps;
        self.refilter();
    }

    pub fn selected(&self) -> Option<Entry> {
        self.shown.get(self.selected).copied()
    }

    pub fn selected_server(&self) -> Option<&Found> {
        match self.selected()? {
            Entry::Server(i) => self.found.servers.get(i),
            Entry::Tap(_) => None,
        }
    }

    /// An entry's line, as listed and as the filter matches it.
    pub fn line(&self, entry: Entry) -> String {
        match entry {
            Entry::Tap(i) => tap_line(&self.taps[i]),
            Entry::Server(i) => line(&self.found.servers[i]),
        }
    }

    fn refilter(&mut self) {
        let needle = self.filter.to_lowercase();
        let entries = (0..self.taps.len())
            .map(Entry::Tap)
            .chain((0..self.found.servers.len()).map(Entry::Server));
        self.shown = entries
            .filter(|&entry| self.line(entry).to_lowercase().contains(&needle))
            .collect();
        self.selected = self.selected.min(self.shown.len().saturating_sub(1));
    }

    pub fn key(&mut self, event: KeyEvent) -> Picked {
        let layer = if self.filtering {
            Layer::Filter
        } else {
            Layer::Picker
        };
        let typed = typed_char(&event);
        let route = self
            .keymap
            .route(layer, Key::from_event(&event), typed.is_some());
        self.status = None;
        let last = self.shown.len().saturating_sub(1);
        match route {
            Route::Run(Command::Quit) => return Picked::Quit,
            Route::Run(Command::FilterAccept) => self.filtering = false,
            Route::Run(Command::FilterCancel) => {
                self.filtering = false;
                self.filter.clear();
            }
            Route::Run(Command::FilterDelete) => {
                self.filter.pop();
            }
            Route::Type => self.filter.extend(typed),
            Route::Run(Command::Open) => return self.pick(),
            Route::Run(Command::Down) => self.selected = (self.selected + 1).min(last),
            Route::Run(Command::Up) => self.selected = self.selected.saturating_sub(1),
            Route::Run(Command::First) => self.selected = 0,
            Route::Run(Command::Last) => self.selected = last,
            Route::Run(Command::Filter) => self.filtering = true,
            Route::Run(Command::FilterClear) => self.filter.clear(),
            _ => {}
        }
        self.refilter();
        Picked::Stay
    }

    fn pick(&mut self) -> Picked {
        let index = match self.selected() {
            None => return Picked::Stay,
            Some(Entry::Tap(i)) => return Picked::Attach(self.taps[i].path.clone()),
            Some(Entry::Server(index)) => index,
        };
        match &self.found.servers[index].target {
            Ok(_) => Picked::Connect(index),
            Err(why) => {
                self.status = Some(format!("cannot connect: {}", untrusted::line(why, 300)));
                Picked::Stay
            }
        }
    }
}

/// A live tap's line: what it is, and its session (escaped).
pub fn tap_line(tap: &LiveTap) -> String {
    untrusted::line(
        &format!("● live tap  {}  (Enter watches it)", tap.name),
        1_000,
    )
    .into_owned()
}

/// What the pane below the list says of a live tap.
pub fn tap_details(tap: &LiveTap) -> Vec<String> {
    vec![
        "a tap running now: its host's session with the server as it happens, every message in the protocol pane and each host call judged; mcp-inspect only watches (mcp-inspect attach does the same)".into(),
        format!(
            "recording: {}",
            untrusted::line(&tap.path.display().to_string(), 500)
        ),
    ]
}

/// A server's line: its name, its client, and the command or URL (escaped).
pub fn line(server: &Found) -> String {
    let reach = match &server.target {
        Ok(target) => target.describe(),
        Err(_) => "(cannot be used: see below)".into(),
    };
    untrusted::line(
        &format!("{}  {}  {reach}", server.name, server.client),
        1_000,
    )
    .into_owned()
}

/// What the pane below the list says of a server: where it came from and all it takes to
/// reach it, secret values left out (escaped lines).
pub fn details(server: &Found) -> Vec<String> {
    let mut lines = vec![
        format!("client: {}", untrusted::line(&server.client, 100)),
        format!(
            "file: {}",
            untrusted::line(&server.file.display().to_string(), 500)
        ),
    ];
    lines.extend(server.warnings.iter().map(|w| format!("⚠ {w}")));
    match &server.target {
        Err(why) => lines.push(format!("cannot be used: {}", untrusted::line(why, 500))),
        Ok(Target::Stdio {
            command,
            args,
            env,
            cwd,
        }) => {
            let mut words = vec![command.as_str()];
            words.extend(args.iter().map(String::as_str));
            lines.push(format!(
                "stdio: {}",
                untrusted::line(&words.join(" "), 2_000)
            ));
            if !env.is_empty() {
                let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
                lines.push(format!(
                    "environment: {} (values not shown)",
                    untrusted::line(&names.join(", "), 500)
                ));
            }
            if let Some(cwd) = cwd {
                let cwd = cwd.display().to_string();
                lines.push(format!("directory: {}", untrusted::line(&cwd, 500)));
            }
        }
        Ok(Target::Http {
            url,
            transport,
            headers,
        }) => {
            let kind = match transport {
                crate::config::target::HttpTransport::Streamable => "Streamable HTTP",
                crate::config::target::HttpTransport::Sse => "legacy HTTP+SSE",
            };
            lines.push(format!("{kind}: {}", untrusted::line(url, 2_000)));
            if !headers.is_empty() {
                let names: Vec<&str> = headers.iter().map(|h| h.name.as_str()).collect();
                lines.push(format!(
                    "headers: {} (values not shown)",
                    untrusted::line(&names.join(", "), 500)
                ));
            }
        }
    }
    lines
}
