//! The library's data (tabs across the left pane, key `6`): the server's resources, resource
//! templates, prompts and skills (each kind only when the server declares it), one kind's tab
//! shown at a time, and what the last read, prompt or skill gave, as lines. Pure.

use crate::app::outline::Part;
use crate::app::value_tree::ValueTree;
use crate::mcp::session::requests::OpenRequest;
use crate::mcp::surface::library;
use serde_json::{Map, Value, json};
use std::collections::{BTreeSet, HashSet};

/// Lines of one text content shown before the rest is counted.
const TEXT_LINES: usize = 5_000;
/// Lines of the result as sent shown before the rest is counted.
const SENT_LINES: usize = 20_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Resource,
    Template,
    Prompt,
    /// A skill (SEP-2640), listed from its entry: nothing of it is read until it is opened.
    Skill,
}

impl Kind {
    /// Its tab's name.
    pub fn heading(self) -> &'static str {
        match self {
            Kind::Resource => "Resources",
            Kind::Template => "Templates",
            Kind::Prompt => "Prompts",
            Kind::Skill => "Skills",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One listed resource, template or prompt, as the server sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub kind: Kind,
    pub json: Value,
}

impl Item {
    /// Its line in the list (escaped). A resource's or template's name comes first: in a
    /// narrow pane URIs cut after their shared start would all look alike.
    pub fn line(&self) -> String {
        let mut parts = match self.kind {
            Kind::Resource => library::resource_parts(&self.json, false),
            Kind::Template => library::resource_parts(&self.json, true),
            Kind::Prompt => return library::prompt_line(&self.json),
            Kind::Skill => return skill_line(&self.json),
        };
        parts.swap(0, 1);
        parts.join("  ")
    }

    /// What the pane beside the list says of it before it is opened: every field it has, its
    /// whole description, its arguments or variables (escaped lines).
    pub fn about(&self) -> Vec<String> {
        if self.kind == Kind::Skill {
            return skill_about(&self.json);
        }
        let mut lines = Vec::new();
        let mut field = |label: &str, key: &str| {
            if let Some(text) = self.text(key) {
                lines.push(format!("{label}: {}", crate::untrusted::line(text, 2_000)));
            }
        };
        match self.kind {
            Kind::Resource => field("uri", "uri"),
            Kind::Template => field("uri template", "uriTemplate"),
            Kind::Prompt | Kind::Skill => {}
        }
        field("name", "name");
        field("title", "title");
        field("MIME type", "mimeType");
        if let Some(size) = self.json.get("size").and_then(Value::as_u64) {
            lines.push(format!(
                "size: {}",
                crate::plural::count(size as usize, "byte")
            ));
        }
        if let Some(annotations) = self.json.get("annotations").filter(|a| a.is_object()) {
            lines.push(format!(
                "annotations: {}",
                crate::untrusted::line(&annotations.to_string(), 2_000)
            ));
        }
        if let Some(description) = self.text("description") {
            lines.push(String::new());
            lines.extend(crate::untrusted::first_lines(description, 200).0);
        }
        let form = self.form();
        let fields = form.as_ref().and_then(|f| f["properties"].as_object());
        if let Some(fields) = fields {
            lines.push(String::new());
            lines.push(match self.kind {
                Kind::Template => "variables:".into(),
                _ => "arguments (* required):".into(),
            });
            let required = form.as_ref().and_then(|f| f["required"].as_array());
            for (name, schema) in fields {
                let starred = required.is_some_and(|r| r.contains(&json!(name)));
                let star = if starred && self.kind == Kind::Prompt {
                    "*"
                } else {
                    ""
                };
                let about = schema["description"].as_str().unwrap_or_default();
                let about = crate::untrusted::line(about, 300);
                let name = crate::untrusted::line(name, 100);
                lines.push(format!("  {name}{star}  {about}").trim_end().to_string());
            }
        }
        lines
    }

    /// What Enter does with it.
    pub fn action(&self) -> &'static str {
        match (self.kind, self.form().is_some()) {
            (Kind::Resource, _) => "enter reads it",
            (Kind::Template, _) => "enter asks for its variables, then reads it",
            (Kind::Prompt, true) => "enter asks for its arguments, then gets it",
            (Kind::Prompt, false) => "enter gets it",
            (Kind::Skill, _) => "enter loads it: SKILL.md, verified against this entry first",
        }
    }

    /// A resource's URI (not a template's).
    pub fn uri(&self) -> Option<&str> {
        (self.kind == Kind::Resource).then(|| self.text("uri"))?
    }

    fn text(&self, key: &str) -> Option<&str> {
        self.json.get(key).and_then(Value::as_str)
    }

    /// What the user fills before it can be opened: a prompt's arguments or a template's
    /// variables, as a form's schema (every value a string; required ones marked).
    pub fn form(&self) -> Option<Value> {
        // (name, description, required) for each field.
        let fields: Vec<(String, Option<&str>, bool)> = match self.kind {
            Kind::Resource | Kind::Skill => return None,
            Kind::Prompt => self
                .json
                .get("arguments")
                .and_then(Value::as_array)?
                .iter()
                .filter_map(|a| {
                    let name = a.get("name")?.as_str()?.to_string();
                    let about = a.get("description").and_then(Value::as_str);
                    Some((name, about, a.get("required") == Some(&json!(true))))
                })
                .collect(),
            Kind::Template => library::variables(self.text("uriTemplate").unwrap_or_default())
                .into_iter()
                .map(|name| (name, None, true))
                .collect(),
        };
        if fields.is_empty() {
            return None;
        }
        let required: Vec<&str> = fields
            .iter()
            .filter(|f| f.2)
            .map(|f| f.0.as_str())
            .collect();
        let properties: Map<String, Value> = fields
            .iter()
            .map(|(name, about, required)| {
                let mut schema = json!({"type": "string", "default": ""});
                // A required value cannot be left empty: the form says so before sending.
                if *required {
                    schema["minLength"] = json!(1);
                }
                if let Some(about) = about {
                    schema["description"] = json!(about);
                }
                (name.clone(), schema)
            })
            .collect();
        Some(json!({"type": "object", "properties": properties, "required": required}))
    }

    /// The request that opens it with the form's `values`: `resources/read` or `prompts/get`.
    pub fn request(&self, values: &Map<String, Value>) -> Result<Open, String> {
        match self.kind {
            Kind::Resource => {
                let uri = self.text("uri").ok_or("the resource has no uri")?;
                Ok(Open::read(uri))
            }
            Kind::Template => {
                let template = self.text("uriTemplate").ok_or("the template has no uri")?;
                Ok(Open::read(&library::expand(template, values)?))
            }
            Kind::Prompt => {
                let name = self.text("name").ok_or("the prompt has no name")?;
                let arguments: Map<String, Value> = values
                    .iter()
                    .filter(|(_, v)| v.as_str() != Some(""))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                Ok(Open {
                    title: format!("prompt {name}"),
                    request: OpenRequest::GetPrompt {
                        name: name.to_string(),
                        arguments,
                    },
                })
            }
            Kind::Skill => {
                let name = self
                    .json
                    .pointer("/frontmatter/name")
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                Ok(Open {
                    title: format!("skill {}", crate::untrusted::line(name, 80)),
                    request: OpenRequest::LoadSkill {
                        entry: self.json.clone(),
                    },
                })
            }
        }
    }
}

/// A skill's line: its name, its files, its description (or why it cannot be loaded).
fn skill_line(json: &Value) -> String {
    match crate::skills::decode(json) {
        Ok(entry) => format!(
            "{}  {}  {}",
            crate::untrusted::line(entry.name(), 80),
            entry.files_said(),
            crate::untrusted::line(entry.description().lines().next().unwrap_or_default(), 160)
        ),
        Err(why) => {
            let uri = json
                .get("uri")
                .and_then(Value::as_str)
                .unwrap_or("(no uri)");
            format!(
                "{}  not loadable: {}",
                crate::untrusted::line(uri, 120),
                crate::untrusted::line(&why, 200)
            )
        }
    }
}

/// What the pane says of a skill before it is loaded: its URI, every frontmatter field, every
/// file with its size and digest (or why the entry cannot be loaded).
fn skill_about(json: &Value) -> Vec<String> {
    let entry = match crate::skills::decode(json) {
        Ok(entry) => entry,
        Err(why) => {
            return vec![format!(
                "not loadable: {}",
                crate::untrusted::line(&why, 2_000)
            )];
        }
    };
    let mut lines = vec![format!(
        "uri: {}",
        crate::untrusted::line(&entry.uri, 2_000)
    )];
    lines.push(String::new());
    lines.push("frontmatter:".into());
    for (key, value) in &entry.frontmatter {
        let value = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        lines.push(format!(
            "  {}: {}",
            crate::untrusted::line(key, 100),
            crate::untrusted::line(&value, 2_000)
        ));
    }
    lines.push(String::new());
    match &entry.files {
        crate::skills::Files::Dynamic => {
            lines.push("files: dynamic (nothing to verify them against)".into());
        }
        crate::skills::Files::Listed(files) => {
            lines.push(format!("files ({}):", entry.files_said()));
            for file in files {
                let path = crate::skills::file_path(&entry, &file.uri).unwrap_or("SKILL.md");
                lines.push(format!(
                    "  {}  {}",
                    crate::untrusted::line(path, 200),
                    crate::plural::count(file.size as usize, "byte"),
                ));
                lines.push(format!("    {}", crate::skills::digest_text(&file.digest)));
            }
        }
    }
    lines
}

/// A request that opens an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Open {
    pub request: OpenRequest,
    /// What the pane calls it: `read URI`, `prompt NAME`.
    pub title: String,
}

impl Open {
    pub fn read(uri: &str) -> Open {
        Open {
            request: OpenRequest::Read {
                uri: uri.to_string(),
            },
            title: format!("read {uri}"),
        }
    }
}

/// What opening an item gave, as lines: a read's contents or a prompt's messages, then the
/// result as the server sent it. The first content whose text is a JSON object or array is a
/// value tree instead of its text lines, placed after the lines before it.
pub fn result_lines(open: &Open, result: &Value) -> (Vec<String>, Option<JsonContent>) {
    let mut lines = Vec::new();
    let mut json = None;
    if let Some(description) = result.get("description").and_then(Value::as_str) {
        lines.push(crate::untrusted::line(description, 300).into_owned());
    }
    let contents = result.get("contents").and_then(Value::as_array);
    for (i, content) in contents.into_iter().flatten().enumerate() {
        let mut said = library::content_lines(i, content, TEXT_LINES);
        if json.is_none()
            && let Some(value) = json_text(content)
        {
            said.truncate(1);
            lines.extend(said);
            json = Some(JsonContent::new(&value, i, lines.len()));
            continue;
        }
        lines.extend(said);
    }
    let messages = result.get("messages").and_then(Value::as_array);
    for message in messages.into_iter().flatten() {
        let role = message.get("role").and_then(Value::as_str).unwrap_or("?");
        let content = message.get("content").unwrap_or(&Value::Null);
        let described = library::describe_content(content);
        let mut said = described.lines();
        lines.push(format!(
            "{}: {}",
            crate::untrusted::line(role, 40),
            said.next().unwrap_or_default()
        ));
        lines.extend(said.map(|l| format!("  {l}")));
    }
    if lines.is_empty() {
        lines.push(format!("{} gave nothing to show", open.request.method()));
    }
    // A skill's load is ours, made of verified reads: there is no one answer as sent.
    if matches!(open.request, OpenRequest::LoadSkill { .. }) {
        return (lines, json);
    }
    lines.push(String::new());
    lines.push(AS_SENT.into());
    let sent = crate::untrusted::json(result, true);
    let (shown, more) = crate::untrusted::first_lines(&sent, SENT_LINES);
    lines.extend(shown);
    if more > 0 {
        lines.push(format!("… {more} more lines"));
    }
    (lines, json)
}

/// The line before the result as the server sent it: what is said of the contents (and their
/// images) comes above it.
pub const AS_SENT: &str = "as sent:";

/// A content's text as JSON when it is an object or an array (a JSON MIME type, or text that
/// reads as one).
fn json_text(content: &Value) -> Option<Value> {
    let text = content.get("text")?.as_str()?.trim_start();
    if !text.starts_with(['{', '[']) {
        return None;
    }
    serde_json::from_str::<Value>(text)
        .ok()
        .filter(|v| v.is_object() || v.is_array())
}

/// A content's JSON text as a value tree: which rows are open, where the cursor is.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonContent {
    /// Which content it is.
    pub index: usize,
    /// How many of the opened lines come before the tree.
    pub at_line: usize,
    pub tree: ValueTree,
    pub open: HashSet<usize>,
    pub cursor: usize,
    /// Set when the cursor moved, so the next frame scrolls it into view.
    pub follow: bool,
}

impl JsonContent {
    fn new(value: &Value, index: usize, at_line: usize) -> JsonContent {
        let jq = format!("(.contents[{index}].text | fromjson)");
        let tree = ValueTree::build_rooted(value, "", &jq);
        JsonContent {
            index,
            at_line,
            open: tree.default_open(),
            tree,
            cursor: 0,
            follow: false,
        }
    }

    pub fn part(&self) -> Part<'_> {
        self.tree.part(&self.open)
    }
}

/// What the pane shows on the right: the last thing opened.
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    pub title: String,
    /// The result's lines, or why there is none.
    pub lines: Result<Vec<String>, String>,
    /// A content that is JSON, as a tree among the lines.
    pub json: Option<JsonContent>,
    /// The result as the server sent it (for a copy).
    pub result: Option<Value>,
    /// Its images with their captions, drawn after what is said of the contents.
    pub pictures: Vec<(
        String,
        Result<crate::mcp::surface::picture::Picture, String>,
    )>,
}

#[derive(Debug, Clone)]
pub struct Library {
    pub items: Vec<Item>,
    /// A listing was asked for (once per connection, and on `r`).
    pub asked: bool,
    /// A listing came (its items may since have changed on the server).
    pub listed: bool,
    /// Why a list could not be had, one line each.
    pub problems: Vec<String>,
    /// The kind whose tab is shown; only its items are listed.
    pub kind: Kind,
    pub selected: usize,
    /// The item selected in each kind's tab when it was last left.
    left_at: [Option<usize>; 4],
    pub scroll: usize,
    /// What is being opened now.
    pub opening: Option<String>,
    pub opened: Option<Opened>,
    /// The item the last opening was of: beside it the pane shows what it gave, beside any
    /// other, what that other one is.
    pub opened_for: Option<usize>,
    pub opened_scroll: usize,
    /// The resources subscribed to (on this connection).
    pub subscribed: BTreeSet<String>,
    /// Those the server said changed since they were last read.
    pub updated: BTreeSet<String>,
    /// The filter (`/`): items whose line holds it, ASCII case ignored.
    pub filter: String,
    /// True while the user types into the filter.
    pub filtering: bool,
    /// The items the filter lets through, in order (all when it is empty).
    pub shown: Vec<usize>,
}

impl Default for Library {
    fn default() -> Library {
        Library {
            items: Vec::new(),
            asked: false,
            listed: false,
            problems: Vec::new(),
            kind: Kind::Resource,
            selected: 0,
            left_at: [None; 4],
            scroll: 0,
            opening: None,
            opened: None,
            opened_for: None,
            opened_scroll: 0,
            subscribed: BTreeSet::new(),
            updated: BTreeSet::new(),
            filter: String::new(),
            filtering: false,
            shown: Vec::new(),
        }
    }
}

impl Library {
    pub fn selected_item(&self) -> Option<&Item> {
        self.shown
            .contains(&self.selected)
            .then(|| self.items.get(self.selected))?
    }

    pub fn listed(&mut self, items: Vec<Item>, problems: Vec<String>) {
        self.items = items;
        self.listed = true;
        self.opened_for = None;
        self.problems = problems;
        self.refilter();
    }

    /// Sets the filter's text and keeps the selection on a shown item.
    pub fn set_filter(&mut self, text: String) {
        self.filter = text;
        self.refilter();
    }

    /// Whether the pane beside the list shows what was opened (else the selected item).
    pub fn shows_opened(&self) -> bool {
        self.opening.is_some() || (self.opened.is_some() && self.opened_for == Some(self.selected))
    }

    /// Shows `kind`'s tab, on the item selected when it was last shown.
    pub fn show(&mut self, kind: Kind) {
        if kind == self.kind {
            return;
        }
        self.left_at[self.kind.index()] = Some(self.selected);
        self.kind = kind;
        self.selected = self.left_at[kind.index()].unwrap_or(usize::MAX);
        self.scroll = 0;
        self.refilter();
    }

    /// How many items of `kind` were listed.
    pub fn count(&self, kind: Kind) -> usize {
        self.items.iter().filter(|i| i.kind == kind).count()
    }

    fn refilter(&mut self) {
        let needle = self.filter.to_ascii_lowercase();
        let kind = self.kind;
        self.shown = (0..self.items.len())
            .filter(|&i| {
                let item = &self.items[i];
                item.kind == kind
                    && (needle.is_empty() || item.line().to_ascii_lowercase().contains(&needle))
            })
            .collect();
        if !self.shown.contains(&self.selected) {
            self.selected = self.shown.first().copied().unwrap_or(0);
        }
    }

    /// Moves the selection among the shown items: `step` rows on, or to an end.
    pub fn select(&mut self, to: Selection) {
        let at = self
            .shown
            .iter()
            .position(|&i| i == self.selected)
            .unwrap_or(0);
        let last = self.shown.len().saturating_sub(1);
        let next = match to {
            Selection::Next => (at + 1).min(last),
            Selection::Previous => at.saturating_sub(1),
            Selection::First => 0,
            Selection::Last => last,
        };
        if let Some(&i) = self.shown.get(next) {
            self.selected = i;
        }
    }
}

/// Where [`Library::select`] moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    Next,
    Previous,
    First,
    Last,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_with_arguments_asks_for_them_and_sends_the_filled_ones() {
        let prompt = Item {
            kind: Kind::Prompt,
            json: json!({"name": "review", "arguments": [
                {"name": "code", "required": true, "description": "The code"},
                {"name": "language"}]}),
        };
        let form = prompt.form().expect("a form");
        assert_eq!(form["required"], json!(["code"]));
        assert_eq!(form["properties"]["code"]["description"], "The code");
        let values = json!({"code": "x", "language": ""});
        let open = prompt
            .request(values.as_object().expect("an object"))
            .expect("a request");
        let arguments = json!({"code": "x"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        assert_eq!(
            open.request,
            OpenRequest::GetPrompt {
                name: "review".into(),
                arguments
            }
        );
        let plain = Item {
            kind: Kind::Prompt,
            json: json!({"name": "hello"}),
        };
        assert_eq!(plain.form(), None, "nothing to ask");
    }
}
