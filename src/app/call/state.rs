//! Tool calls in the TUI: per tool, the argument draft (checked live against the input schema),
//! the call in flight with its progress, and every past result with its verdict. Pure.

use crate::app::call::result_text::ResultText;
use crate::app::form::draft::Draft;
use crate::app::outline::Part;
use crate::app::value_tree::ValueTree;
use crate::mcp::RequestError;
use crate::mcp::surface::result::CallResult;
use crate::mcp::surface::tool::{Schema, Tool};
use crate::schema::judge::Judge;
use crate::schema::refs::escape_segment;
use crate::schema::{Compiled, Verdict, Violation};
use ratatui_textarea::TextArea;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A result with its verdict, judged where it cannot hold up the keyboard.
#[derive(Debug, Clone)]
pub struct Judged {
    pub result: CallResult,
    pub verdict: Verdict,
    /// Its text and pictures as drawn, made here, off the UI thread.
    pub text: ResultText,
}

impl Judged {
    /// Judges `result` (blocking: up to the validation budget).
    pub fn new(result: CallResult, output: Option<&Judge>, era: crate::schema::Era) -> Judged {
        let verdict = result.verdict(output.map(Judge::parts), era);
        let text = ResultText::new(&result);
        Judged {
            result,
            verdict,
            text,
        }
    }

    /// The result as a panel's history holds it.
    pub fn into_outcome(self) -> Outcome {
        Outcome::Result {
            result: Box::new(self.result),
            verdict: Box::new(self.verdict),
            text: Box::new(self.text),
        }
    }
}

/// Said while the arguments' validator is compiled (a few hundred ms for the largest schemas).
pub const NOT_CHECKED_YET: &str = "arguments not checked yet: the inputSchema is being compiled";

/// Wall time for checking the draft as it is typed: a hostile input schema may not make
/// typing slow.
pub const LIVE_CHECK_BUDGET: Duration = Duration::from_millis(100);

/// Past results kept per tool.
pub const HISTORY: usize = 50;
/// Bytes of past results (as JSON) kept per tool; the oldest go first. The newest is always
/// kept, whatever its size (it is at most one message).
pub const HISTORY_BYTES: usize = 64 * 1024 * 1024;

/// What a send needs confirmed first, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    /// Every client of this era must leave the tool out (a broken `x-mcp-header`).
    Excluded,
    InvalidArguments,
    Destructive,
}

impl Confirm {
    /// What it asks, for a draft that breaks its schema in `places` places.
    pub fn question(self, places: usize) -> String {
        match self {
            Confirm::Excluded => {
                "clients of the 2026-07-28 era exclude this tool (its reason is in the tool pane): press send again to call it anyway".into()
            }
            Confirm::InvalidArguments => format!(
                "the arguments break the input schema in {}: press send again to send them anyway",
                crate::plural::count(places, "place")
            ),
            Confirm::Destructive => {
                "the server marks this tool destructive: press send again to call it".into()
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct InFlight {
    pub id: u64,
    /// What was sent (the draft may change while the call runs).
    pub arguments: Value,
    pub started: Instant,
    /// The last progress: value, total, message; and when it came.
    pub progress: Option<(f64, Option<f64>, Option<String>)>,
    pub last_activity: Instant,
    pub token: Option<String>,
    /// The JSON-RPC id of the request once it went (the protocol pane's `#`).
    pub request: Option<String>,
    pub cancelling: bool,
}

#[derive(Debug, Clone)]
pub enum Outcome {
    Result {
        result: Box<CallResult>,
        verdict: Box<Verdict>,
        /// Its text as drawn, escaped and cut once.
        text: Box<ResultText>,
    },
    Failed(RequestError),
    Cancelled,
}

#[derive(Debug, Clone)]
pub struct Record {
    /// The session's call number (0 for a result kept from an earlier session).
    pub id: u64,
    pub arguments: Value,
    pub elapsed: Duration,
    pub outcome: Outcome,
    pub made: Made,
}

/// A call the host of a tapped session made (the TUI attached to a tap), and the server's
/// answer judged here as a call made here is.
#[derive(Debug, Clone)]
pub struct HostCall {
    pub tool: String,
    /// The request's id, as sent.
    pub request: String,
    pub arguments: Value,
    /// From the call to its answer, as the tap saw it.
    pub took: Duration,
    pub outcome: Result<Box<Judged>, crate::mcp::RequestError>,
}

/// Who made a call whose result is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Made {
    /// This session, from a call panel.
    Here,
    /// An earlier session with this server (see `app::saved`): its result judged again now.
    Earlier,
    /// The host of a tapped session the TUI is attached to; the request's id as sent.
    ByHost(String),
}

/// The shown result's value as a tree: which rows are open, where the cursor is.
#[derive(Debug, Clone)]
pub struct ValueView {
    pub record: u64,
    pub raw: bool,
    pub tree: ValueTree,
    pub open: HashSet<usize>,
    pub cursor: usize,
    /// Set when the cursor moved, so the next frame scrolls it into view.
    pub follow: bool,
}

impl ValueView {
    /// The value as an outline part.
    pub fn part(&self) -> Part<'_> {
        self.tree.part(&self.open)
    }
}

/// A tool's call panel.
pub struct CallState {
    /// The arguments: a form from the input schema, or JSON text.
    pub draft: Draft,
    /// Validators compiled once, when the panel opens: arguments and results. The arguments'
    /// may follow the panel (see [`CallState::drafted`]): until then the draft is not checked.
    input: Option<Compiled>,
    input_schema: Schema,
    output: Option<Arc<Judge>>,
    /// The draft's JSON error, or its schema violations.
    pub parse_error: Option<String>,
    pub violations: Vec<Violation>,
    /// The JSON text's line of each violation, in order (none in the form, which marks rows).
    pub violation_lines: Vec<Option<usize>>,
    /// The draft's value at its last check, when it parsed: what a frame compares with the
    /// shown result's arguments without parsing the draft again.
    pub draft_value: Option<Value>,
    pub confirm: Option<Confirm>,
    pub in_flight: Option<InFlight>,
    pub history: Vec<Record>,
    /// Index into `history` of the record shown; `None` shows the newest.
    pub shown: Option<usize>,
    /// Show the raw structuredContent instead of the unboxed value.
    pub raw_value: bool,
    pub scroll: usize,
    /// Resource links of the results read so far with `o` (the next press reads the next).
    pub links_read: usize,
    /// The editor has the keyboard (else the result view does).
    pub editing: bool,
    pub value: Option<ValueView>,
    /// Send it as a task: chosen for a tool whose `execution.taskSupport` is `optional`
    /// (one that requires it always goes so).
    pub as_task: bool,
    /// The values the input schema names for the value on the cursor's line (an enum, a
    /// const, a boolean): its path and the values, for `ctrl-n`.
    pub choices: Option<(String, Vec<Value>)>,
}

impl CallState {
    pub fn new(tool: &Tool) -> CallState {
        let mut state = CallState::drafted(tool);
        state.set_input(Compiled::new(&tool.input_schema));
        state
    }

    /// The panel without its arguments' validator, which [`CallState::set_input`] hands it
    /// later: a 30,000-property schema's panel shows while its validator is compiled.
    pub fn drafted(tool: &Tool) -> CallState {
        let mut state = CallState {
            draft: Draft::for_schema(&tool.input_schema),
            input: None,
            input_schema: tool.input_schema.clone(),
            output: tool.output_schema.as_ref().map(|s| Arc::new(Judge::new(s))),
            parse_error: None,
            violations: Vec::new(),
            violation_lines: Vec::new(),
            draft_value: None,
            confirm: None,
            in_flight: None,
            history: Vec::new(),
            shown: None,
            raw_value: false,
            scroll: 0,
            links_read: 0,
            editing: true,
            value: None,
            as_task: tool.task_support() == Some("required"),
            choices: None,
        };
        state.check();
        state.refresh_choices();
        state
    }

    /// The arguments as JSON text.
    pub fn text(&self) -> String {
        self.draft.text()
    }

    /// Back to the schema's defaults, the form or the JSON text as it was shown.
    pub fn reset(&mut self, tool: &Tool) {
        let in_form = self.draft.in_form;
        self.draft = Draft::for_schema(&tool.input_schema);
        // The JSON draft starts from the skeleton, its first placeholder selected.
        if !in_form {
            self.draft.show_skeleton();
        }
        self.check();
        self.refresh_choices();
    }

    pub fn set_text(&mut self, text: &str) {
        self.draft.set_text(text);
        self.check();
        self.refresh_choices();
    }

    /// Finds what the input schema names for the value on the cursor's line (JSON text only:
    /// a form's rows offer their own).
    pub fn refresh_choices(&mut self) {
        if self.draft.in_form {
            self.choices = None;
            return;
        }
        let row = self.draft.editor.cursor().0 + 1;
        let lines = crate::app::call::draft_lines::value_lines(&self.text());
        // The innermost value starting on the cursor's line.
        let path = lines.into_iter().rev().find(|(_, line)| *line == row);
        self.choices = path.and_then(|(path, _)| {
            let values = crate::schema::choices::at(&self.input_schema, &path)?;
            Some((path, values))
        });
    }

    /// Puts the next of the named values into the cursor's line (the first when the value
    /// there is none of them). Says why not when it cannot.
    pub fn put_next_choice(&mut self) -> Result<(), String> {
        if let Some(form) = self.draft.shown_form_mut() {
            let right = crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Right);
            let choosing = form.row().is_some_and(|r| {
                use crate::app::form::fields::Kind;
                matches!(
                    r.spec.kind,
                    Kind::Choice(_) | Kind::Boolean | Kind::Variants(_)
                )
            });
            if !choosing {
                return Err(
                    "this row names no values (an enum, a const, a boolean, a shape)".into(),
                );
            }
            crate::app::form::update::key(form, right);
            self.check();
            return Ok(());
        }
        let Some((_, values)) = self.choices.clone().filter(|(_, v)| !v.is_empty()) else {
            return Err("the schema names no values here (enum, const or boolean)".into());
        };
        let editor = &self.draft.editor;
        let row = editor.cursor().0;
        let line = editor.lines().get(row).cloned().unwrap_or_default();
        let now = crate::app::call::draft_lines::scalar_on(&line);
        let at = now.and_then(|v| values.iter().position(|c| *c == v));
        let next = &values[at.map_or(0, |i| (i + 1) % values.len())];
        let text = crate::untrusted::json(next, false);
        let replaced = crate::app::call::draft_lines::with_value(&line, &text)
            .ok_or("the value here is not a single-line value")?;
        let mut lines = self.draft.editor.lines().to_vec();
        lines[row] = replaced;
        let column = lines[row].trim_end_matches(',').chars().count();
        self.draft.editor = TextArea::new(lines);
        let at = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        let jump = ratatui_textarea::CursorMove::Jump(at(row), at(column));
        self.draft.editor.move_cursor(jump);
        self.check();
        self.refresh_choices();
        Ok(())
    }

    /// Re-checks the draft: JSON first, then the input schema, within [`LIVE_CHECK_BUDGET`]
    /// (it runs on every key press, on the UI thread).
    pub fn check(&mut self) {
        self.confirm = None;
        self.violations.clear();
        self.draft_value = None;
        match self.draft.value() {
            Err(e) => self.parse_error = Some(format!("not JSON: {e}")),
            Ok(v) if !v.is_object() => {
                self.parse_error = Some("arguments must be a JSON object".into())
            }
            Ok(v) => {
                self.parse_error = None;
                let Some(input) = &self.input else {
                    self.parse_error = Some(NOT_CHECKED_YET.into());
                    self.draft_value = Some(v);
                    return;
                };
                match input.check_within(&v, LIVE_CHECK_BUDGET) {
                    Ok(checked) => {
                        if let (Some(why), true) =
                            (&checked.incomplete, checked.violations.is_empty())
                        {
                            self.parse_error = Some(format!("arguments not checked: {why}"));
                        } else if let Some(why) = checked.unchecked.first() {
                            self.parse_error = Some(format!("arguments partly checked: {why}"));
                        }
                        self.violations = checked.violations;
                    }
                    Err(unusable) => {
                        self.parse_error =
                            Some(format!("input schema unusable: {}", unusable.describe()))
                    }
                }
                self.draft_value = Some(v);
            }
        }
        let violations = std::mem::take(&mut self.violations);
        self.draft.mark(&violations);
        self.violation_lines = if self.draft.in_form || violations.is_empty() {
            Vec::new()
        } else {
            let map = crate::app::call::draft_lines::value_lines(&self.draft.text());
            violations
                .iter()
                .map(|v| crate::app::call::draft_lines::line_of(&map, &v.instance_path))
                .collect()
        };
        self.violations = violations;
    }

    /// Follows the tool's definition when it changed (a list change), so a draft and later
    /// results are never judged by a stale schema: a new output schema gets a new judge
    /// (compiled when it first judges, off the UI thread); a new inputSchema a new draft,
    /// unchecked until its validator comes (true: it is to be compiled, see
    /// `Effect::CompileInput`).
    pub fn refresh(&mut self, tool: &Tool) -> bool {
        if self.output.as_ref().map(|o| &o.schema) != tool.output_schema.as_deref() {
            self.output = tool.output_schema.as_ref().map(|s| Arc::new(Judge::new(s)));
        }
        if self.input_schema == tool.input_schema {
            return false;
        }
        self.input = None;
        self.input_schema = tool.input_schema.clone();
        // The form follows the new schema; the value typed so far is kept.
        let (text, in_form) = (self.text(), self.draft.in_form);
        self.draft = Draft::for_schema(&tool.input_schema);
        if !in_form && self.draft.in_form {
            let _ = self.draft.toggle();
        }
        self.draft.set_text(&text);
        self.check();
        true
    }

    /// Hands the panel its arguments' validator (compiled apart for `schema`); the draft is
    /// checked at once. Ignored when the tool's inputSchema has changed since.
    pub fn set_input(&mut self, input: Compiled) {
        self.input = Some(input);
        self.check();
    }

    /// Whether the arguments' validator is still to come.
    pub fn awaits_input(&self, schema: &Value) -> bool {
        self.input.is_none() && *self.input_schema == *schema
    }

    /// The output schema and its validator, when the tool declares one.
    pub fn output(&self) -> Option<&Arc<Judge>> {
        self.output.as_ref()
    }

    /// The draft as arguments, when it parses.
    pub fn arguments(&self) -> Option<Value> {
        self.draft.value().ok().filter(Value::is_object)
    }

    pub fn is_valid(&self) -> bool {
        self.parse_error.is_none() && self.violations.is_empty()
    }

    /// The record on screen: the one chosen, else the newest.
    pub fn shown_record(&self) -> Option<&Record> {
        match self.shown {
            Some(i) => self.history.get(i),
            None => self.history.last(),
        }
    }

    /// The value tree of the shown result (built when the shown result or the raw flag changes).
    pub fn value_view(&mut self) -> Option<&mut ValueView> {
        // Checked before anything is cloned: a result can be megabytes, and this runs per key.
        let shown = self.shown_record()?.id;
        if self
            .value
            .as_ref()
            .is_some_and(|v| v.record == shown && v.raw == self.raw_value)
        {
            return self.value.as_mut();
        }
        let (id, value, base) = {
            let record = self.shown_record()?;
            let Outcome::Result {
                result, verdict, ..
            } = &record.outcome
            else {
                return None;
            };
            let boxed = verdict
                .value
                .as_ref()
                .zip(verdict.boxing.as_ref())
                .filter(|_| !self.raw_value);
            match boxed {
                Some((inner, b)) => (
                    record.id,
                    inner.clone(),
                    format!("/{}", escape_segment(&b.field)),
                ),
                None => (record.id, result.structured.clone()?, String::new()),
            }
        };
        let tree = ValueTree::build(&value, &base);
        let open = tree.default_open();
        self.value = Some(ValueView {
            record: id,
            raw: self.raw_value,
            tree,
            open,
            cursor: 0,
            follow: false,
        });
        self.value.as_mut()
    }

    /// Puts results kept from an earlier session before this session's, as the oldest.
    pub fn restore(&mut self, records: Vec<Record>) {
        self.history.splice(0..0, records);
        self.shown = None;
    }

    /// Keeps a result; drops the oldest past [`HISTORY`] records or [`HISTORY_BYTES`] bytes.
    /// Returns how many were dropped.
    pub fn record(&mut self, record: Record) -> usize {
        self.history.push(record);
        self.shown = None;
        self.scroll = 0;
        let size = |r: &Record| match &r.outcome {
            Outcome::Result { result, .. } => result.bytes,
            _ => 0,
        };
        let mut total: usize = self.history.iter().map(size).sum();
        let mut dropped = 0;
        while self.history.len() > 1 && (self.history.len() > HISTORY || total > HISTORY_BYTES) {
            total -= size(&self.history.remove(0));
            dropped += 1;
        }
        dropped
    }
}
