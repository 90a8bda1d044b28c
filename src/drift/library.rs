//! Two snapshots compared beyond tools: prompts (their arguments added, removed, made
//! required), resources (by URI) and resource templates (by URI template), each change judged
//! for the clients it can break. Pure.

use super::compare::{Audience, Change, Kind, Verdict, by_key, shown, sorted};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

/// The changes to prompts, resources and templates, sorted by kind, then by item. A list a
/// snapshot lacks is empty: the server did not declare the capability, so it offered none.
pub fn changes(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    for kind in [Kind::Prompt, Kind::Resource, Kind::ResourceTemplate] {
        let (a, b) = (by_key(old, kind), by_key(new, kind));
        let mut found = Vec::new();
        items(kind, &a, &b, &mut found);
        sorted(&mut found);
        out.extend(found);
    }
    out
}

struct Out<'a> {
    kind: Kind,
    name: &'a str,
    audience: Audience,
    changes: &'a mut Vec<Change>,
}

impl Out<'_> {
    fn push(&mut self, pointer: &str, verdict: Verdict, what: String) {
        self.changes.push(Change {
            kind: self.kind,
            name: self.name.to_string(),
            audience: self.audience,
            pointer: pointer.to_string(),
            verdict,
            what,
        });
    }
}

/// Who a change to an item of `kind` breaks: a prompt's callers pass its arguments, a
/// resource's readers parse what it holds, a template is filled and read.
fn audience(kind: Kind) -> Audience {
    match kind {
        Kind::Prompt => Audience::Callers,
        Kind::Resource => Audience::Consumers,
        Kind::Tool | Kind::ResourceTemplate => Audience::Everyone,
    }
}

type Items<'a> = BTreeMap<String, &'a Map<String, Value>>;

fn items(kind: Kind, a: &Items<'_>, b: &Items<'_>, changes: &mut Vec<Change>) {
    // A template whose URI template changed under the same name was most likely rewritten,
    // not dropped: said with the removal (found by name, once each).
    let added_by_name: HashMap<&str, &str> = b
        .iter()
        .filter(|(key, _)| !a.contains_key(*key))
        .filter_map(|(key, item)| Some((item.get("name")?.as_str()?, key.as_str())))
        .collect();
    for (key, old_item) in a {
        let mut out = Out {
            kind,
            name: key,
            audience: audience(kind),
            changes,
        };
        match b.get(key) {
            Some(new_item) => item(&mut out, old_item, new_item),
            None => {
                let renamed = (kind == Kind::ResourceTemplate)
                    .then(|| old_item.get("name").and_then(Value::as_str))
                    .flatten()
                    .and_then(|n| added_by_name.get(n));
                let what = match renamed {
                    Some(to) => format!("{} removed (likely now `{}`)", kind.word(), shown(to)),
                    None => format!("{} removed", kind.word()),
                };
                out.push("/", Verdict::Breaking, what);
            }
        }
    }
    for key in b.keys().filter(|k| !a.contains_key(*k)) {
        Out {
            kind,
            name: key,
            audience: audience(kind),
            changes,
        }
        .push("/", Verdict::Compatible, format!("{} added", kind.word()));
    }
}

fn item(out: &mut Out<'_>, old: &Map<String, Value>, new: &Map<String, Value>) {
    if out.kind == Kind::Prompt {
        arguments(out, old, new);
    } else {
        mime_type(out, old, new);
    }
    // What people read, not what programs rely on. (A prompt is keyed by its name, so its
    // name never differs here.)
    for key in [
        "name",
        "title",
        "description",
        "size",
        "annotations",
        "icons",
    ] {
        if old.get(key) != new.get(key) {
            out.push(&format!("/{key}"), Verdict::Info, format!("{key} changed"));
        }
    }
}

/// A resource's readers parse by its MIME type: a type changed breaks them; one added or
/// dropped is said.
fn mime_type(out: &mut Out<'_>, old: &Map<String, Value>, new: &Map<String, Value>) {
    let (a, b) = (old.get("mimeType"), new.get("mimeType"));
    if a == b {
        return;
    }
    let word = |v: Option<&Value>| v.map_or("unset".into(), |v| crate::untrusted::json(v, false));
    let verdict = match (a, b) {
        (Some(_), Some(_)) => Verdict::Breaking,
        _ => Verdict::Info,
    };
    out.push(
        "/mimeType",
        verdict,
        format!("`mimeType` {} → {}", word(a), word(b)),
    );
}

/// A prompt's arguments by name: the index each stands at (for the pointer) and whether it is
/// required (the spec's default: not).
fn argument_list(prompt: &Map<String, Value>) -> BTreeMap<&str, (usize, bool, &Value)> {
    prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, arg)| {
            let name = arg.get("name")?.as_str()?;
            let required = arg.get("required").and_then(Value::as_bool) == Some(true);
            Some((name, (i, required, arg)))
        })
        .collect()
}

/// Callers fill a prompt's arguments: one they must now give (added required, or made
/// required) or one taken away breaks them; an optional one added or one made optional does
/// not.
fn arguments(out: &mut Out<'_>, old: &Map<String, Value>, new: &Map<String, Value>) {
    let (a, b) = (argument_list(old), argument_list(new));
    for (name, (i, required, old_arg)) in &a {
        let arg = shown(name);
        match b.get(name) {
            None => out.push(
                &format!("/arguments/{i}"),
                Verdict::Breaking,
                format!("argument `{arg}` removed"),
            ),
            Some((j, now_required, new_arg)) => {
                let pointer = format!("/arguments/{j}");
                match (required, now_required) {
                    (false, true) => out.push(
                        &pointer,
                        Verdict::Breaking,
                        format!("argument `{arg}` made required"),
                    ),
                    (true, false) => out.push(
                        &pointer,
                        Verdict::Compatible,
                        format!("argument `{arg}` no longer required"),
                    ),
                    _ => {}
                }
                for key in ["title", "description"] {
                    if old_arg.get(key) != new_arg.get(key) {
                        out.push(
                            &format!("{pointer}/{key}"),
                            Verdict::Info,
                            format!("argument `{arg}`: {key} changed"),
                        );
                    }
                }
            }
        }
    }
    for (name, (j, required, _)) in b.iter().filter(|(n, _)| !a.contains_key(*n)) {
        let (verdict, how) = match required {
            true => (Verdict::Breaking, "required"),
            false => (Verdict::Compatible, "optional"),
        };
        out.push(
            &format!("/arguments/{j}"),
            verdict,
            format!("argument `{}` added ({how})", shown(name)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn found(changes: &[Change]) -> Vec<(String, &'static str, String, String)> {
        changes
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    c.verdict.word(),
                    c.pointer.clone(),
                    c.what.clone(),
                )
            })
            .collect()
    }

    fn row(
        name: &str,
        verdict: &'static str,
        pointer: &str,
        what: &str,
    ) -> (String, &'static str, String, String) {
        (name.into(), verdict, pointer.into(), what.into())
    }

    #[test]
    fn a_prompt_that_asks_more_of_its_callers_breaks_them() {
        let old = json!({"prompts": [
            {"name": "greet", "arguments": [
                {"name": "who", "required": true},
                {"name": "tone"},
                {"name": "lang", "required": true},
                {"name": "gone"}
            ]},
            {"name": "old_one"}
        ]});
        let new = json!({"prompts": [
            {"name": "greet", "description": "now described", "arguments": [
                {"name": "who", "required": true},
                {"name": "tone", "required": true},
                {"name": "lang"},
                {"name": "style", "required": true},
                {"name": "extra"}
            ]},
            {"name": "new_one"}
        ]});
        let changes = changes(&old, &new);
        assert!(changes.iter().all(|c| c.kind == Kind::Prompt));
        assert_eq!(
            found(&changes),
            [
                row(
                    "greet",
                    "breaking",
                    "/arguments/3",
                    "argument `gone` removed"
                ),
                row(
                    "greet",
                    "breaking",
                    "/arguments/1",
                    "argument `tone` made required"
                ),
                row(
                    "greet",
                    "breaking",
                    "/arguments/3",
                    "argument `style` added (required)"
                ),
                row(
                    "greet",
                    "compatible",
                    "/arguments/2",
                    "argument `lang` no longer required"
                ),
                row(
                    "greet",
                    "compatible",
                    "/arguments/4",
                    "argument `extra` added (optional)"
                ),
                row("greet", "info", "/description", "description changed"),
                row("new_one", "compatible", "/", "prompt added"),
                row("old_one", "breaking", "/", "prompt removed"),
            ]
        );
    }

    #[test]
    fn resources_by_uri_and_templates_by_their_template() {
        let old = json!({
            "resources": [
                {"uri": "file:///a", "name": "a", "mimeType": "text/plain"},
                {"uri": "file:///b", "name": "b"}
            ],
            "resourceTemplates": [{"uriTemplate": "db://{table}", "name": "table"}]
        });
        let new = json!({
            "resources": [
                {"uri": "file:///a", "name": "a", "mimeType": "application/json"},
                {"uri": "file:///c", "name": "c"}
            ],
            "resourceTemplates": [{"uriTemplate": "db://{schema}/{table}", "name": "table"}]
        });
        assert_eq!(
            found(&changes(&old, &new)),
            [
                row(
                    "file:///a",
                    "breaking",
                    "/mimeType",
                    "`mimeType` \"text/plain\" → \"application/json\""
                ),
                row("file:///b", "breaking", "/", "resource removed"),
                row("file:///c", "compatible", "/", "resource added"),
                row(
                    "db://{schema}/{table}",
                    "compatible",
                    "/",
                    "resource template added"
                ),
                row(
                    "db://{table}",
                    "breaking",
                    "/",
                    "resource template removed (likely now `db://{schema}/{table}`)"
                ),
            ]
        );
    }

    #[test]
    fn a_list_a_snapshot_lacks_is_empty() {
        // The capability was dropped: every prompt it offered is gone.
        let old = json!({"tools": [], "prompts": [{"name": "p"}]});
        let new = json!({"tools": []});
        assert_eq!(
            found(&changes(&old, &new)),
            [row("p", "breaking", "/", "prompt removed")]
        );
        assert_eq!(
            found(&changes(&new, &old)),
            [row("p", "compatible", "/", "prompt added")]
        );
    }
}

#[cfg(test)]
mod hostile {
    use super::*;
    use serde_json::json;

    /// Names and arguments written to attack a terminal or a Markdown table reach no report
    /// raw.
    #[test]
    fn escapes_in_names_are_shown_escaped_in_every_report() {
        let evil = "p\u{1b}[2J\u{202e}|`x`\n";
        let old = json!({"prompts": [{"name": evil, "arguments": []}],
            "resources": [{"uri": evil, "mimeType": "a"}]});
        let new = json!({"prompts": [{"name": evil, "arguments": [{"name": evil, "required": true}]}],
            "resources": [{"uri": evil, "mimeType": evil}]});
        let changes = changes(&old, &new);
        assert_eq!(changes.len(), 2);
        let text = crate::drift::report::text(&changes).join("\n");
        let markdown = crate::drift::report::markdown(&changes);
        for line in text.lines().chain(markdown.lines()) {
            assert!(
                !line.chars().any(crate::untrusted::is_dangerous),
                "{line:?}"
            );
        }
        // The item's name and the argument's stay on their own lines.
        assert_eq!(text.lines().count(), 5, "{text}");
        assert!(!markdown.contains("|`x`"), "{markdown}");
    }
}
