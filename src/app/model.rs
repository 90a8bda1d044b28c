//! Everything the TUI knows: the connection, the tools with their cached schema trees, the
//! filter, focus, per-tool view state, the log and overlays. Plain data; `update` changes it.

use crate::app::asked::state::AskPanel;
use crate::app::call::state::CallState;
use crate::app::keymap::{Keymap, Layer};
use crate::app::protocol::state::Protocol;
use crate::app::saved::state::Saved;
use crate::app::server::state::Session;
use crate::app::tabs::Tab;
use crate::app::theme::Theme;
use crate::app::tools::entry::ToolEntry;
use crate::app::tools::state::{ToolDetail, ToolView, Tools};
use ratatui::layout::Rect;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

/// Log lines kept; older ones are dropped (and counted).
pub const LOG_LINES: usize = 5_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Tools,
    Tool,
    /// The call panel of the selected tool: argument editor and results.
    Call,
    Server,
    Log,
    /// Every JSON-RPC message of the session (in place of the tool pane).
    Protocol,
    /// A library tab's list: the server's resources, templates or prompts (in place of the
    /// tools list).
    Library,
    /// What the last read or prompt gave (in place of the tool pane, beside a library tab).
    Opened,
    /// The last `verify` or `load` run on a tool (in place of the tool pane).
    Trial,
}

impl Pane {
    pub const ORDER: [Pane; 9] = [
        Pane::Tools,
        Pane::Tool,
        Pane::Call,
        Pane::Trial,
        Pane::Library,
        Pane::Opened,
        Pane::Server,
        Pane::Log,
        Pane::Protocol,
    ];

    /// Whether the pane is shown beside `tab`: a tool's panes beside the Tools tab, the
    /// library's beside its tabs, the rest beside any.
    pub fn beside(self, tab: Tab) -> bool {
        match self {
            Pane::Tools | Pane::Tool | Pane::Call | Pane::Trial => tab == Tab::Tools,
            Pane::Library | Pane::Opened => tab != Tab::Tools,
            Pane::Server | Pane::Log | Pane::Protocol => true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    Help,
    CopyMenu,
    /// The log level picker, its cursor on one of [`crate::mcp::session::logging::LEVELS`].
    LogLevel(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogKind {
    Stderr,
    Log(String),
    Event,
    Problem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub kind: LogKind,
    /// Already escaped for the terminal.
    pub text: String,
}

/// The log pane's lines, newest last, at most [`LOG_LINES`].
#[derive(Debug, Clone, Default)]
pub struct Log {
    pub lines: VecDeque<LogLine>,
    /// Lines dropped from the front to stay within the bound.
    pub dropped: u64,
    /// Lines scrolled up from the newest; 0 follows the tail.
    pub scroll: usize,
}

impl Log {
    pub fn push(&mut self, kind: LogKind, text: String) {
        if self.lines.len() >= LOG_LINES {
            self.lines.pop_front();
            self.dropped += 1;
        }
        self.lines.push_back(LogLine { kind, text });
    }
}

/// What one frame learned: each pane's height in rows and where it had to be scrolled to keep
/// its cursor in view. Drawing only reads the model and returns this; the model adopts it after
/// the frame, so every pane pages by its own height.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Viewport {
    pub list_rows: usize,
    pub list_scroll: usize,
    pub tree_rows: usize,
    /// The selected tool's tree scroll, by tool name.
    pub tree_scroll: Option<(String, usize)>,
    pub call_rows: usize,
    pub protocol_rows: usize,
    /// Rows of the library tab's list and of what was opened beside it.
    pub library_rows: usize,
    pub library_scroll: usize,
    pub opened_rows: usize,
    pub opened_scroll: usize,
    /// Rows of the trial pane's findings, and its scroll.
    pub trial_rows: usize,
    pub trial_scroll: usize,
    pub protocol_scroll: usize,
    /// The selected tool's call panel scroll, by tool name.
    pub call_scroll: Option<(String, usize)>,
    pub server_scroll: usize,
    pub help_rows: usize,
    pub help_scroll: usize,
    /// Where the rows a mouse can click were drawn (empty when the pane was not drawn).
    pub list_area: Rect,
    pub tree_area: Rect,
    pub call_area: Rect,
    /// The line of the call panel's result page where the value's rows begin.
    pub call_value_line: Option<usize>,
    pub protocol_area: Rect,
    /// Where each tab's name was drawn.
    pub tab_areas: Vec<(Rect, Tab)>,
    /// The library tab's list, and what was opened beside it.
    pub library_area: Rect,
    pub opened_area: Rect,
    pub log_area: Rect,
    /// The area the left and right panes share, and the column of the border between them
    /// (side by side only).
    pub divider: Option<(Rect, u16)>,
    /// Where the call panel's form drew its rows, and the first one's place among the visible.
    pub form_area: Rect,
    pub form_top: usize,
}

/// How the TUI looks and where the user is: the focused pane, the tab, what is in front, the
/// status line, the keys and colours, and what the last frame showed.
pub struct View {
    pub focus: Pane,
    /// The tab across the left pane.
    pub tab: Tab,
    pub overlay: Option<Overlay>,
    /// The focused pane alone fills the screen (`z`).
    pub zoomed: bool,
    /// Lines the help overlay is scrolled down.
    pub help_scroll: usize,
    /// What the help overlay is narrowed to (`/` there), and whether it is being typed.
    pub help_search: String,
    pub help_searching: bool,
    /// Lines the server pane is scrolled down (clamped when drawn).
    pub server_scroll: usize,
    pub status: Option<String>,
    pub keymap: Keymap,
    pub theme: Theme,
    /// What the last frame showed of each pane: its rows (for page keys) and scroll.
    pub viewport: Viewport,
    /// The filter line was just opened on text typed before: the first character typed
    /// replaces that text (Backspace edits it instead).
    pub filter_fresh: bool,
    /// The left pane's share of a wide screen, in percent (`<`/`>`, or its border dragged).
    pub left_percent: u16,
    /// The border between the left and right panes is being dragged.
    pub dragging: bool,
}

/// The left pane's share of a wide screen: at start, and its bounds.
pub const LEFT_PERCENT: (u16, u16, u16) = (32, 15, 70);

/// How the session ends.
#[derive(Debug, Clone, Copy, Default)]
pub struct Exit {
    pub quit: bool,
    /// The session ends to pick another server (`S`), not to quit.
    pub switch_server: bool,
    /// Quit was pressed once while a call ran; the next quit quits.
    pub quit_asked: bool,
}

/// Everything the TUI knows, in parts: each feature's state is one field, and a reducer that
/// changes one part borrows only that part.
pub struct Model {
    /// The connection and what the server said of itself.
    pub session: Session,
    /// The tools as listed, what is kept of each, the filter and the baseline's drift.
    pub tools: Tools,
    /// Requests the server put to the user, oldest first: the first is the open panel.
    pub asked: VecDeque<AskPanel>,
    /// An OAuth authorization under way (its panel is in front once it has a URL).
    pub authorizing: Option<crate::app::authorize::state::Authorizing>,
    pub library: crate::app::library::state::Library,
    /// The last `verify` or `load` run from the TUI.
    pub trial: crate::app::trial::state::Trial,
    pub protocol: Protocol,
    pub log: Log,
    pub view: View,
    pub saved: Saved,
    pub exit: Exit,
    /// The time now, set by the runtime before each update and frame: the app never reads the
    /// clock, so tests decide what time it is.
    pub now: Instant,
}

impl Model {
    pub fn new(target: String, keymap: Keymap, theme: Theme) -> Model {
        Model {
            session: Session::new(target),
            tools: Tools::default(),
            asked: VecDeque::new(),
            authorizing: None,
            library: Default::default(),
            trial: Default::default(),
            protocol: Protocol::default(),
            log: Log::default(),
            view: View {
                focus: Pane::Tools,
                tab: Tab::Tools,
                overlay: None,
                zoomed: false,
                help_scroll: 0,
                help_search: String::new(),
                help_searching: false,
                server_scroll: 0,
                status: None,
                keymap,
                theme,
                viewport: Viewport::default(),
                filter_fresh: false,
                left_percent: LEFT_PERCENT.0,
                dragging: false,
            },
            saved: Saved::default(),
            exit: Exit::default(),
            now: Instant::now(),
        }
    }

    /// The tool under the cursor in the (filtered) list.
    pub fn selected_entry(&self) -> Option<&Arc<ToolEntry>> {
        self.tools
            .filter
            .visible
            .get(self.tools.selected)
            .and_then(|m| self.tools.list.get(m.index))
    }

    /// The tool's schema trees, once built.
    pub fn detail(&self, tool: &str) -> Option<&ToolDetail> {
        self.tools.per_tool.get(tool)?.detail.as_ref()
    }

    /// How the tool's pane looks, once it was shown.
    pub fn tool_view(&self, tool: &str) -> Option<&ToolView> {
        self.tools.per_tool.get(tool).map(|p| &p.view)
    }

    /// The tool's call panel, once opened.
    pub fn call(&self, tool: &str) -> Option<&CallState> {
        self.tools.per_tool.get(tool)?.call.as_ref()
    }

    pub fn call_mut(&mut self, tool: &str) -> Option<&mut CallState> {
        self.tools.per_tool.get_mut(tool)?.call.as_mut()
    }

    /// `tool`'s call panel, created with the skeleton on first use.
    pub fn panel_of(&mut self, tool: &crate::mcp::surface::tool::Tool) -> &mut CallState {
        self.tools
            .per_tool
            .entry(tool.name.clone())
            .or_default()
            .call
            .get_or_insert_with(|| CallState::new(tool))
    }

    /// Every open call panel, with its tool's name.
    pub fn calls(&self) -> impl Iterator<Item = (&String, &CallState)> {
        self.tools
            .per_tool
            .iter()
            .filter_map(|(name, p)| p.call.as_ref().map(|c| (name, c)))
    }

    /// Whether time passing matters: a call or a verify/load run goes on, or completions wait
    /// for typing to pause.
    pub fn busy(&self) -> bool {
        self.calls().any(|(_, c)| c.in_flight.is_some())
            || self.trial.run.as_ref().is_some_and(|r| r.running())
            || self.asked.front().is_some_and(|p| p.complete_due.is_some())
    }

    /// The layer a key press belongs to, derived from state (never stored).
    pub fn active_layer(&self) -> Layer {
        if self.authorizing.as_ref().is_some_and(|a| a.shown()) {
            return Layer::Authorize;
        }
        if !self.asked.is_empty() {
            return Layer::Asked;
        }
        match self.view.overlay {
            Some(Overlay::Help) if self.view.help_searching => Layer::Filter,
            Some(Overlay::Help) => Layer::Help,
            Some(Overlay::CopyMenu) => Layer::Copy,
            Some(Overlay::LogLevel(_)) => Layer::Levels,
            None if self.tools.filter.editing
                || self.protocol.filter.editing
                || self.library.filtering =>
            {
                Layer::Filter
            }
            None => match self.view.focus {
                Pane::Tools => Layer::Tools,
                Pane::Tool => Layer::Tool,
                Pane::Log => Layer::Log,
                Pane::Protocol => Layer::Protocol,
                Pane::Library => Layer::Library,
                Pane::Opened => Layer::Opened,
                Pane::Server => Layer::Server,
                Pane::Trial => Layer::Trial,
                Pane::Call => match self.selected_entry() {
                    // No tool is selected (the filter hides them all): the list has the keys.
                    None => Layer::Tools,
                    Some(e) => match self.call(&e.tool.name) {
                        Some(c) if !c.editing => Layer::Result,
                        _ => Layer::Editor,
                    },
                },
            },
        }
    }

    /// Takes what the last frame showed (see [`Viewport`]).
    pub fn adopt(&mut self, viewport: Viewport) {
        self.tools.scroll = viewport.list_scroll;
        self.view.server_scroll = viewport.server_scroll;
        self.view.help_scroll = viewport.help_scroll;
        self.protocol.scroll = viewport.protocol_scroll;
        self.library.scroll = viewport.library_scroll;
        self.library.opened_scroll = viewport.opened_scroll;
        self.trial.scroll = viewport.trial_scroll;
        if let Some(json) = self.library.opened.as_mut().and_then(|o| o.json.as_mut()) {
            json.follow = false;
        }
        if let Some((tool, scroll)) = &viewport.tree_scroll
            && let Some(per) = self.tools.per_tool.get_mut(tool)
        {
            per.view.scroll = *scroll;
        }
        if let Some((tool, scroll)) = &viewport.call_scroll
            && let Some(state) = self.call_mut(tool)
        {
            state.scroll = *scroll;
            if let Some(view) = state.value.as_mut() {
                view.follow = false;
            }
        }
        self.view.viewport = viewport;
    }

    pub fn push_log(&mut self, kind: LogKind, text: String) {
        self.log.push(kind, text);
    }
}
