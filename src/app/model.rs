//! Everything the TUI knows: the connection, the tools with their cached schema trees, the
//! filter, focus, per-tool view state, the log and overlays. Plain data; `update` changes it.

use crate::app::asked::state::AskPanel;
use crate::app::call::state::CallState;
use crate::app::keymap::{Keymap, Layer};
use crate::app::protocol::state::Protocol;
use crate::app::tabs::Tab;
use crate::app::theme::Theme;
pub use crate::app::tools::entry::ToolEntry;
use crate::app::tools::filter::Filter;
use crate::mcp::ServerSummary;
use crate::schema::signature::signature;
use crate::schema::{NodeId, SchemaTree};
use ratatui::layout::Rect;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
}

impl Pane {
    pub const ORDER: [Pane; 8] = [
        Pane::Tools,
        Pane::Tool,
        Pane::Call,
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
            Pane::Tools | Pane::Tool | Pane::Call => tab == Tab::Tools,
            Pane::Library | Pane::Opened => tab != Tab::Tools,
            Pane::Server | Pane::Log | Pane::Protocol => true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Connection {
    Connecting,
    Connected,
    /// An open connection ended (why).
    Lost(String),
    /// The connection could not be made (why).
    Failed(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    Help,
    CopyMenu,
    /// The log level picker, its cursor on one of [`crate::mcp::session::logging::LEVELS`].
    LogLevel(usize),
}

/// Which of a tool's two schema trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Which {
    Input,
    Output,
}

/// A tool's schema trees and signature, built when the tool is first shown.
#[derive(Debug, Clone)]
pub struct ToolDetail {
    pub input: SchemaTree,
    pub output: Option<SchemaTree>,
    pub signature: String,
    /// What `check` finds in this tool (its `x-mcp-header` rules aside: the pane says those
    /// with the era that makes them matter).
    pub findings: Vec<crate::schema::lint::Finding>,
}

impl ToolDetail {
    pub fn build(entry: &ToolEntry) -> ToolDetail {
        let input = SchemaTree::build(&entry.tool.input_schema);
        let output = entry.tool.output_schema.as_deref().map(SchemaTree::build);
        let signature = signature(
            &entry.tool.name,
            &input,
            output.as_ref().map(|t| (t, entry.boxing())),
        );
        let tool = &entry.tool;
        let schemas = crate::schema::lint::ToolSchemas {
            name: &tool.name,
            description: tool.description.as_deref(),
            input: &tool.input_schema,
            output: tool.output_schema.as_deref(),
        };
        let header: Vec<String> = crate::schema::headers::header_problems(&tool.input_schema)
            .into_iter()
            .map(|(_, why)| why)
            .collect();
        let findings = crate::schema::lint::lint(&[schemas], crate::schema::Era::Legacy)
            .into_iter()
            .filter(|f| !header.contains(&f.message))
            .collect();
        ToolDetail {
            input,
            output,
            signature,
            findings,
        }
    }

    pub fn tree(&self, which: Which) -> Option<&SchemaTree> {
        match which {
            Which::Input => Some(&self.input),
            Which::Output => self.output.as_ref(),
        }
    }
}

/// The open rows of a tool's two trees.
#[derive(Debug, Clone, Default)]
pub struct Opened {
    input: HashSet<NodeId>,
    output: HashSet<NodeId>,
}

impl Opened {
    pub fn get(&self, which: Which) -> &HashSet<NodeId> {
        match which {
            Which::Input => &self.input,
            Which::Output => &self.output,
        }
    }

    pub fn get_mut(&mut self, which: Which) -> &mut HashSet<NodeId> {
        match which {
            Which::Input => &mut self.input,
            Which::Output => &mut self.output,
        }
    }
}

/// How one tool's pane looks: open rows per tree, the cursor, raw or unboxed output, scroll.
#[derive(Debug, Clone, Default)]
pub struct ToolView {
    pub open: Opened,
    pub cursor: Option<(Which, NodeId)>,
    pub raw_output: bool,
    pub scroll: usize,
    /// Set once the default rows were opened.
    pub initialised: bool,
    /// The header shown alone over the pane: the whole description.
    pub whole_description: bool,
}

/// What the TUI keeps of one tool, by name, while it is listed: its trees, how its pane looks,
/// its call panel. A re-listing keeps the trees and the look only when the schemas are the same.
#[derive(Default)]
pub struct PerTool {
    /// The schema trees, built when the tool is first shown.
    pub detail: Option<ToolDetail>,
    /// A large tool's trees are being built off the UI thread.
    pub building: bool,
    pub view: ToolView,
    /// The call panel: drafts and results survive switching tools.
    pub call: Option<CallState>,
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
}

/// How long a call may wait: for any sign of life (`--timeout`, restarted by progress), and in
/// all (`--max-time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallLimits {
    pub timeout: Duration,
    pub max_time: Duration,
}

pub struct Model {
    pub target: String,
    /// The connection as command-line words (`--url …` or `-- command …`), for copied commands.
    /// Header values and environment are never included.
    pub connection_args: Vec<String>,
    pub connection: Connection,
    pub server: Option<ServerSummary>,
    /// Shared with the builders of large trees, which answer for the entry they were given.
    pub tools: Vec<Arc<ToolEntry>>,
    /// What is kept of each tool, by name: trees, pane look, call panel.
    pub per_tool: HashMap<String, PerTool>,
    pub next_call_id: u64,
    /// The timeouts, for the countdown of a call in flight.
    pub limits: CallLimits,
    /// The time now, set by the runtime before each update and frame: the app never reads the
    /// clock, so tests decide what time it is.
    pub now: Instant,
    pub filter: Filter,
    /// Index into `filter.visible`.
    pub selected: usize,
    pub list_scroll: usize,
    pub focus: Pane,
    /// The tab across the left pane.
    pub tab: Tab,
    pub overlay: Option<Overlay>,
    /// The focused pane alone fills the screen (`z`).
    pub zoomed: bool,
    /// The log level asked of the server (`--log-level`, or picked with `L`).
    pub log_level: Option<&'static str>,
    /// The last ping's round trip and the method it used.
    pub last_ping: Option<(Duration, &'static str)>,
    /// Lines the help overlay is scrolled down.
    pub help_scroll: usize,
    pub log: Log,
    pub protocol: Protocol,
    pub library: crate::app::library::state::Library,
    /// Lines the server pane is scrolled down (clamped when drawn).
    pub server_scroll: usize,
    pub status: Option<String>,
    pub keymap: Keymap,
    pub theme: Theme,
    /// What the last frame showed of each pane: its rows (for page keys) and scroll.
    pub viewport: Viewport,
    pub quit: bool,
    /// The session ends to pick another server (`S`), not to quit.
    pub switch_server: bool,
    /// Call panels are kept between sessions with this server (the real TUI, not tests).
    pub saving: bool,
    /// What earlier sessions kept, until the tools are listed (see `update_saved`).
    pub to_restore: Option<Vec<crate::app::saved::state::SavedTool>>,
    /// Quit was pressed once while a call ran; the next quit quits.
    pub quit_asked: bool,
    /// Requests the server put to the user, oldest first: the first is the open panel.
    pub asked: VecDeque<AskPanel>,
    /// An OAuth authorization under way (its panel is in front once it has a URL).
    pub authorizing: Option<crate::app::authorize::state::Authorizing>,
    /// The snapshot given with `--baseline`, which listed tools are compared with.
    pub baseline: Option<std::sync::Arc<serde_json::Value>>,
    /// The changes against the baseline, by tool.
    pub drift: HashMap<String, Vec<crate::drift::compare::Change>>,
}

impl Model {
    pub fn new(target: String, keymap: Keymap, theme: Theme) -> Model {
        Model {
            target,
            connection_args: Vec::new(),
            connection: Connection::Connecting,
            server: None,
            tools: Vec::new(),
            per_tool: HashMap::new(),
            next_call_id: 1,
            limits: CallLimits {
                timeout: Duration::from_secs(30),
                max_time: Duration::from_secs(600),
            },
            now: Instant::now(),
            filter: Filter::default(),
            tab: Tab::Tools,
            selected: 0,
            list_scroll: 0,
            focus: Pane::Tools,
            overlay: None,
            zoomed: false,
            log_level: None,
            last_ping: None,
            help_scroll: 0,
            log: Log::default(),
            protocol: Protocol::default(),
            library: Default::default(),
            server_scroll: 0,
            status: None,
            keymap,
            theme,
            viewport: Viewport::default(),
            quit: false,
            switch_server: false,
            saving: false,
            to_restore: None,
            quit_asked: false,
            asked: VecDeque::new(),
            authorizing: None,
            baseline: None,
            drift: HashMap::new(),
        }
    }

    /// The tool under the cursor in the (filtered) list.
    pub fn selected_entry(&self) -> Option<&Arc<ToolEntry>> {
        self.filter
            .visible
            .get(self.selected)
            .and_then(|m| self.tools.get(m.index))
    }

    /// The tool's schema trees, once built.
    pub fn detail(&self, tool: &str) -> Option<&ToolDetail> {
        self.per_tool.get(tool)?.detail.as_ref()
    }

    /// How the tool's pane looks, once it was shown.
    pub fn view(&self, tool: &str) -> Option<&ToolView> {
        self.per_tool.get(tool).map(|p| &p.view)
    }

    /// The tool's call panel, once opened.
    pub fn call(&self, tool: &str) -> Option<&CallState> {
        self.per_tool.get(tool)?.call.as_ref()
    }

    pub fn call_mut(&mut self, tool: &str) -> Option<&mut CallState> {
        self.per_tool.get_mut(tool)?.call.as_mut()
    }

    /// Every open call panel, with its tool's name.
    pub fn calls(&self) -> impl Iterator<Item = (&String, &CallState)> {
        self.per_tool
            .iter()
            .filter_map(|(name, p)| p.call.as_ref().map(|c| (name, c)))
    }

    /// Whether time passing matters: a call runs, or completions wait for typing to pause.
    pub fn busy(&self) -> bool {
        self.calls().any(|(_, c)| c.in_flight.is_some())
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
        match self.overlay {
            Some(Overlay::Help) => Layer::Help,
            Some(Overlay::CopyMenu) => Layer::Copy,
            Some(Overlay::LogLevel(_)) => Layer::Levels,
            None if self.filter.editing
                || self.protocol.filter.editing
                || self.library.filtering =>
            {
                Layer::Filter
            }
            None => match self.focus {
                Pane::Tools => Layer::Tools,
                Pane::Tool => Layer::Tool,
                Pane::Log => Layer::Log,
                Pane::Protocol => Layer::Protocol,
                Pane::Library => Layer::Library,
                Pane::Opened => Layer::Opened,
                Pane::Server => Layer::Server,
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
        self.list_scroll = viewport.list_scroll;
        self.server_scroll = viewport.server_scroll;
        self.help_scroll = viewport.help_scroll;
        self.protocol.scroll = viewport.protocol_scroll;
        self.library.scroll = viewport.library_scroll;
        self.library.opened_scroll = viewport.opened_scroll;
        if let Some(json) = self.library.opened.as_mut().and_then(|o| o.json.as_mut()) {
            json.follow = false;
        }
        if let Some((tool, scroll)) = &viewport.tree_scroll
            && let Some(per) = self.per_tool.get_mut(tool)
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
        self.viewport = viewport;
    }

    pub fn push_log(&mut self, kind: LogKind, text: String) {
        self.log.push(kind, text);
    }
}
