//! A request the server put to the user (`elicitation/create`, `sampling/createMessage`) as a
//! panel: what is asked, a draft answer in an editor (a form starts from its fields' defaults
//! and is checked live against the requested schema), and the answers the user can give. Pure.

use crate::app::form::draft::Draft;
use crate::schema::Compiled;
use crate::schema::generate::skeleton;
use ratatui_textarea::TextArea;
use serde_json::{Value, json};
use std::time::Duration;

/// Requests waiting for the user at most; more are declined at once (a server could flood).
pub const MAX_WAITING: usize = 16;
/// Time a live check of the draft may take per key press.
const CHECK_BUDGET: Duration = Duration::from_millis(100);
/// JSON values of a requested schema the panel compiles and checks against, on the UI's
/// thread (a few milliseconds); a larger form (a server's 100,000 fields) is not checked, and
/// can only be declined or cancelled.
pub const MAX_FORM_VALUES: usize = 20_000;

/// What kind of request a panel answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// A form: the user fills the requested fields.
    Form,
    /// A URL the user is asked to open (shown, never opened by us).
    Url,
    /// A model's reply the user writes by hand.
    Sampling,
}

/// How the user answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// Accept the form or URL, or send the written reply.
    Send,
    /// Decline (a sampling request: reject).
    Decline,
    /// Dismiss without deciding (a sampling request: reject).
    Cancel,
}

impl Reply {
    /// The answer `command` gives to a request the server put to the user, if it is one.
    pub fn of(command: crate::app::command::Command) -> Option<Reply> {
        use crate::app::command::Command;
        match command {
            Command::AnswerSend => Some(Reply::Send),
            Command::AnswerDecline => Some(Reply::Decline),
            Command::AnswerCancel => Some(Reply::Cancel),
            _ => None,
        }
    }
}

pub struct AskPanel {
    pub id: u64,
    pub method: String,
    pub params: Value,
    pub kind: Asked,
    /// The answer: a form from the requested schema, or JSON text.
    pub draft: Draft,
    /// Why the draft cannot be sent as it is (not JSON, or breaks the requested schema).
    pub problem: Option<String>,
    schema: Option<Compiled>,
    /// Why the requested schema is not checked at all (too large to check on the UI's thread).
    oversized: Option<String>,
    /// Not the server's request but our own form (see [`OwnForm`]).
    pub own: Option<OwnForm>,
    /// The server's completions for one of the form's fields, and which one is in the draft.
    pub completions: Option<Completions>,
    /// Completions to ask for once typing pauses: when, and for which field (see
    /// `update_completions::typed`).
    pub complete_due: Option<(std::time::Instant, String)>,
    /// The field and value completions were last asked for, and whether typing asked (an
    /// answer for another value is stale and dropped).
    pub asked_for: Option<(String, String, bool)>,
    /// For a template's form: what its values expand to (`read URI`), or why they do not.
    pub preview: Option<String>,
    /// For the roots form: the entries last checked off the UI thread, and why one is not a
    /// directory (see `server::roots`). A problem only while the entries are still these.
    pub roots_checked: Option<(Vec<String>, Option<String>)>,
}

/// A form of our own in the request panel, and what its answer is for.
#[derive(Debug, Clone, PartialEq)]
pub enum OwnForm {
    /// The arguments of a prompt or the variables of a resource template about to be opened.
    Open(crate::app::library::state::Item),
    /// Where to write a read's content: its bytes.
    Save(std::sync::Arc<Vec<u8>>),
    /// A request to send, composed in the protocol pane.
    Request,
    /// Where to keep a call as a test: the call.
    KeepTest(std::sync::Arc<crate::app::saved::state::KeepTest>),
    /// The roots handed to the server (`R` in the server pane).
    Roots,
    /// How a verify or load run from the TUI goes (`e` in the trial pane).
    Trial(crate::app::trial::state::Kind),
}

/// Completions the server gave for a field of a form.
#[derive(Debug, Clone, PartialEq)]
pub struct Completions {
    pub argument: String,
    pub values: Vec<String>,
    /// The one put in the draft (the next key press puts the next); none yet while typing.
    pub at: Option<usize>,
    /// `total` and `hasMore` as the server said them.
    pub more: Option<String>,
}

impl AskPanel {
    pub fn new(id: u64, method: String, params: Value) -> AskPanel {
        let kind = match (method.as_str(), params.get("mode").and_then(Value::as_str)) {
            ("sampling/createMessage", _) => Asked::Sampling,
            (_, Some("url")) => Asked::Url,
            _ => Asked::Form,
        };
        let requested = params
            .get("requestedSchema")
            .filter(|_| kind == Asked::Form);
        let values = requested.map_or(0, |s| {
            crate::schema::budget::count_values(s, MAX_FORM_VALUES + 1)
        });
        let oversized = (values > MAX_FORM_VALUES).then(|| {
            format!("not checked: the requested schema holds more than {MAX_FORM_VALUES} JSON values; decline or cancel")
        });
        let requested_checked = requested.filter(|_| oversized.is_none());
        let draft = match kind {
            Asked::Form => requested.map(skeleton).unwrap_or_else(|| json!({})),
            Asked::Url => json!({}),
            Asked::Sampling => json!({
                "role": "assistant",
                "content": {"type": "text", "text": ""},
                "model": "typed-by-hand-in-mcp-inspect"
            }),
        };
        // A form the panel checks is a form of rows; one too large to check is JSON text.
        let draft = match requested_checked {
            Some(schema) => Draft::for_schema(schema),
            None => Draft::text_only(&crate::untrusted::json(&draft, true)),
        };
        let mut panel = AskPanel {
            id,
            method,
            kind,
            draft,
            problem: None,
            schema: requested_checked.map(Compiled::new),
            oversized,
            params,
            own: None,
            roots_checked: None,
            completions: None,
            complete_due: None,
            asked_for: None,
            preview: None,
        };
        if kind == Asked::Sampling {
            // The reply's text is where typing begins.
            let editor = &mut panel.draft.editor;
            let line = editor
                .lines()
                .iter()
                .position(|l| l.contains("\"text\": \"\""));
            if let Some(row) = line {
                let column = editor.lines()[row].find("\"\"").map_or(0, |c| c + 1);
                let at = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
                editor.move_cursor(ratatui_textarea::CursorMove::Jump(at(row), at(column)));
            }
        }
        panel.check();
        panel
    }

    /// A form for what opening `item` needs (`form`: its schema), answered by us, not sent.
    pub fn for_item(item: crate::app::library::state::Item, form: Value) -> AskPanel {
        let what = match item.kind {
            crate::app::library::state::Kind::Prompt => "the prompt's arguments",
            _ => "the template's variables",
        };
        let message = format!("{what}, then {} opens it:\n{}", "ctrl-s", item.line());
        let params = json!({"message": message, "requestedSchema": form});
        let mut panel = AskPanel::new(0, "arguments".into(), params);
        panel.own = Some(OwnForm::Open(item));
        panel.check();
        panel
    }

    /// A form asking where to write `bytes` (a read's content), suggesting `name`.
    pub fn for_save(bytes: Vec<u8>, name: &str, about: &str) -> AskPanel {
        let form = json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "minLength": 1, "default": name,
                         "description": "A file to create (relative to the working directory)"},
                "overwrite": {"type": "boolean", "default": false,
                              "description": "Replace the file if it exists"}
            },
            "required": ["path"]
        });
        let message = format!("where to write {about}, then ctrl-s writes it");
        let params = json!({"message": message, "requestedSchema": form});
        let mut panel = AskPanel::new(0, "save".into(), params);
        panel.own = Some(OwnForm::Save(std::sync::Arc::new(bytes)));
        panel
    }

    /// A form asking which test file keeps `keep` (and this server's later ones).
    pub fn for_test_file(keep: crate::app::saved::state::KeepTest, suggested: &str) -> AskPanel {
        let form = json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "minLength": 1, "default": suggested,
                         "description": "The test file (TOML) to add the call to, created if missing; kept for this server's next calls"}
            },
            "required": ["path"]
        });
        let message = format!(
            "which test file keeps `{}` and its result (mcp-inspect test runs it), then ctrl-s",
            crate::untrusted::line(&keep.tool, 80)
        );
        let params = json!({"message": message, "requestedSchema": form});
        let mut panel = AskPanel::new(0, "test file".into(), params);
        panel.own = Some(OwnForm::KeepTest(std::sync::Arc::new(keep)));
        panel
    }

    /// A form of the roots handed to the server: directories, or `file://` URIs.
    pub fn for_roots(roots: &[String]) -> AskPanel {
        let form = json!({
            "type": "object",
            "properties": {
                "roots": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": roots,
                          "description": "Directories the server may see (each must exist), or file:// URIs; none hands it nothing"}
            }
        });
        let message =
            "the roots handed to the server when it asks; ctrl-s hands them over and tells it";
        let params = json!({"message": message, "requestedSchema": form});
        let mut panel = AskPanel::new(0, "roots".into(), params);
        panel.own = Some(OwnForm::Roots);
        panel
    }

    /// A form for a request of the user's own (the protocol pane's `n`): its method and params.
    pub fn for_request() -> AskPanel {
        let form = json!({
            "type": "object",
            "properties": {
                "method": {"type": "string", "minLength": 1,
                           "description": "The JSON-RPC method: tools/list, logging/setLevel, a method of the server's own"},
                "params": {"description": "A JSON object (left out: no params)"}
            },
            "required": ["method"]
        });
        let message =
            "a request to send; ctrl-s sends it, and the protocol pane shows the exchange";
        let params = json!({"message": message, "requestedSchema": form});
        let mut panel = AskPanel::new(0, "request".into(), params);
        panel.own = Some(OwnForm::Request);
        panel
    }

    /// The prompt or template this form opens, if it is such a form.
    pub fn item(&self) -> Option<&crate::app::library::state::Item> {
        match &self.own {
            Some(OwnForm::Open(item)) => Some(item),
            _ => None,
        }
    }

    /// The field being typed into: the form's selected top row, or the field on the JSON
    /// text's cursor line (`"name": "value",`): its name and value.
    pub fn field_at_cursor(&self) -> Option<(String, String)> {
        if let Some(form) = self.draft.shown_form() {
            let row = form.row().filter(|r| r.depth == 0)?;
            return Some((row.key.clone(), form.shown_text(form.selected)));
        }
        let editor = &self.draft.editor;
        let row = editor.cursor().0;
        let line = editor.lines().get(row)?.trim().trim_end_matches(',');
        let (name, value) = line.split_once(':')?;
        let name: String = serde_json::from_str(name.trim()).ok()?;
        let value: String = serde_json::from_str(value.trim()).unwrap_or_default();
        Some((name, value))
    }

    /// Puts `value` in the draft as the value of the field being typed into.
    pub fn set_field_at_cursor(&mut self, value: &str) {
        if let Some(form) = self.draft.shown_form_mut() {
            crate::app::form::update::replace_text(form, value);
            self.check();
            return;
        }
        let editor = &mut self.draft.editor;
        let row = editor.cursor().0;
        let mut lines = editor.lines().to_vec();
        let Some(line) = lines.get_mut(row) else {
            return;
        };
        let Some((name, rest)) = line.split_once(':') else {
            return;
        };
        let comma = if rest.trim_end().ends_with(',') {
            ","
        } else {
            ""
        };
        let quoted = serde_json::to_string(value).unwrap_or_default();
        *line = format!("{name}: {quoted}{comma}");
        let column = line.len().saturating_sub(comma.len() + 1);
        *editor = TextArea::new(lines);
        editor.move_cursor(ratatui_textarea::CursorMove::Jump(
            row as u16,
            column as u16,
        ));
        self.check();
    }

    /// Checks the draft: JSON, and for a form, the requested schema (within a key's budget).
    pub fn check(&mut self) {
        let draft = self.draft.value();
        // A template's form shows the URI its values expand to, before it is read.
        self.preview = match (self.item(), draft.as_ref().ok().and_then(Value::as_object)) {
            (Some(item), Some(values))
                if item.kind == crate::app::library::state::Kind::Template =>
            {
                Some(match item.request(values) {
                    Ok(open) => open.title,
                    Err(why) => why,
                })
            }
            _ => None,
        };
        self.problem = match draft {
            _ if self.oversized.is_some() => self.oversized.clone(),
            Err(e) => Some(format!("not JSON: {e}")),
            Ok(draft) => self.schema.as_ref().and_then(|schema| {
                match schema.check_within(&draft, CHECK_BUDGET) {
                    Err(unusable) => Some(format!("not checked: {}", unusable.describe())),
                    Ok(checked) => {
                        self.draft.mark(&checked.violations);
                        if let Some(said) = self.draft.shown_form().and_then(first_problem) {
                            return Some(said);
                        }
                        checked.violations.first().map(|v| {
                            let at = if v.instance_path.is_empty() {
                                "/"
                            } else {
                                &v.instance_path
                            };
                            format!("{at}: {}", v.message)
                        })
                    }
                }
            }),
        };
        if self.problem.is_none() {
            self.problem = self.roots_problem();
        }
    }

    /// For the roots form: why an entry is not a directory, as the last check of exactly
    /// these entries found.
    fn roots_problem(&self) -> Option<String> {
        let (entries, problem) = self.roots_checked.as_ref()?;
        let now = root_entries(&self.draft.value().ok()?);
        (&now == entries).then(|| problem.clone()).flatten()
    }

    /// The result to send for `reply`, or why it cannot be sent yet.
    pub fn answer(&self, reply: Reply) -> Result<Result<Value, String>, String> {
        let draft = || self.draft.value();
        Ok(match (self.kind, reply) {
            (Asked::Sampling, Reply::Send) => {
                Ok(draft().map_err(|e| format!("the reply is not JSON: {e}"))?)
            }
            (Asked::Sampling, _) => Err("the user rejected the sampling request".into()),
            (Asked::Form, Reply::Send) => {
                if let Some(problem) = &self.problem {
                    return Err(format!("not sent: {problem}"));
                }
                let content = draft().map_err(|e| format!("not JSON: {e}"))?;
                Ok(json!({"action": "accept", "content": content}))
            }
            (Asked::Url, Reply::Send) => Ok(json!({"action": "accept"})),
            (_, Reply::Decline) => Ok(json!({"action": "decline"})),
            (_, Reply::Cancel) => Ok(json!({"action": "cancel"})),
        })
    }
}

/// The entries of a roots form's value: trimmed, empty ones left out.
pub fn root_entries(value: &Value) -> Vec<String> {
    value
        .get("roots")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(String::from)
        .collect()
}

/// A form's first problem, at its row (`/name: required`), or of the whole.
fn first_problem(form: &crate::app::form::state::Form) -> Option<String> {
    let row = form.rows.iter().find(|r| r.problem.is_some() && !r.folded);
    match row {
        Some(r) => Some(format!(
            "{}: {}",
            r.pointer,
            r.problem.as_deref().unwrap_or("")
        )),
        None => form.problems.first().map(|p| format!("/: {p}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> AskPanel {
        AskPanel::new(
            7,
            "elicitation/create".into(),
            json!({"message": "Who?", "requestedSchema": {"type": "object",
                "properties": {"name": {"type": "string", "default": "Ada"}, "age": {"type": "integer", "minimum": 0}},
                "required": ["name"]}}),
        )
    }

    #[test]
    fn a_form_too_wide_to_check_is_bounded_and_can_only_be_declined() {
        let names: Vec<String> = (0..100_000).map(|i| format!("f{i}")).collect();
        let props: serde_json::Map<String, Value> = names
            .iter()
            .map(|n| (n.clone(), json!({"type": "string"})))
            .collect();
        let panel = AskPanel::new(
            1,
            "elicitation/create".into(),
            json!({"message": "wide", "requestedSchema": {"type": "object", "properties": props, "required": names}}),
        );
        // The draft stops at the skeleton's budget; the schema is neither compiled nor checked.
        assert!(!panel.draft.in_form, "no form of 100,000 rows");
        assert!(
            panel.draft.editor.lines().len() < 2_100,
            "{}",
            panel.draft.editor.lines().len()
        );
        assert!(panel.schema.is_none());
        let problem = panel.problem.clone().expect("said");
        assert!(problem.contains("more than 20000 JSON values"), "{problem}");
        assert!(panel.answer(Reply::Send).is_err());
        assert_eq!(
            panel.answer(Reply::Decline),
            Ok(Ok(json!({"action": "decline"})))
        );
    }

    #[test]
    fn a_form_starts_from_its_defaults_and_is_checked_live() {
        let mut panel = form();
        assert_eq!(panel.kind, Asked::Form);
        assert!(panel.draft.in_form);
        assert_eq!(panel.problem, None, "{:?}", panel.draft.text());
        assert_eq!(
            panel.answer(Reply::Send),
            Ok(Ok(json!({"action": "accept", "content": {"name": "Ada"}})))
        );
        panel.draft.set_text(r#"{"name": "Ada", "age": -1}"#);
        panel.check();
        let age = panel
            .draft
            .form
            .as_ref()
            .expect("present")
            .rows
            .iter()
            .find(|r| r.key == "age");
        assert!(
            age.expect("present")
                .problem
                .as_deref()
                .unwrap_or("")
                .contains("minimum"),
            "marked in its row"
        );
        assert!(
            panel.problem.as_deref().unwrap_or("").starts_with("/age"),
            "{:?}",
            panel.problem
        );
        assert!(
            panel.answer(Reply::Send).is_err(),
            "a broken form is not sent"
        );
        assert_eq!(
            panel.answer(Reply::Decline),
            Ok(Ok(json!({"action": "decline"})))
        );
        assert_eq!(
            panel.answer(Reply::Cancel),
            Ok(Ok(json!({"action": "cancel"})))
        );
    }

    #[test]
    fn a_sampling_reply_is_written_by_hand_or_rejected() {
        let panel = AskPanel::new(1, "sampling/createMessage".into(), json!({"messages": []}));
        assert_eq!(panel.kind, Asked::Sampling);
        let sent = panel
            .answer(Reply::Send)
            .expect("sendable")
            .expect("a result");
        assert_eq!(sent["role"], "assistant");
        assert!(panel.answer(Reply::Cancel).expect("answer").is_err());
    }
}
