//! Two snapshots of a server compared tool by tool: every change with its JSON Pointer, what it
//! is, and its verdict for the audience it concerns: callers (the input schema, the tool's
//! existence), consumers (the output schema, boxing). Pure.

use super::schema_diff::{self, Effect};
use crate::schema::boxing;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

/// Who a change can break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    /// Those who call the tool: its name, its input schema.
    Callers,
    /// Those who read its results: its output schema, boxing.
    Consumers,
    /// Both, or neither in particular (annotations, descriptions).
    Everyone,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Breaking,
    Unknown,
    Compatible,
    Info,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Breaking => "breaking",
            Verdict::Unknown => "unknown",
            Verdict::Compatible => "compatible",
            Verdict::Info => "info",
        }
    }
}

/// What a change is about: the lists a snapshot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    Tool,
    Prompt,
    Resource,
    ResourceTemplate,
}

impl Kind {
    /// The snapshot's list of this kind, and the key that names an item in it.
    pub fn list_and_key(self) -> (&'static str, &'static str) {
        match self {
            Kind::Tool => ("tools", "name"),
            Kind::Prompt => ("prompts", "name"),
            Kind::Resource => ("resources", "uri"),
            Kind::ResourceTemplate => ("resourceTemplates", "uriTemplate"),
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
            Kind::ResourceTemplate => "resource template",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub kind: Kind,
    /// The item's name (a resource's URI, a template's URI template).
    pub name: String,
    pub audience: Audience,
    /// Where: `/inputSchema/properties/limit`, `/annotations/destructiveHint`, or `/` for the tool.
    pub pointer: String,
    pub verdict: Verdict,
    pub what: String,
}

/// Every change from the `old` snapshot's tools to the `new` one's, sorted by tool, then by
/// verdict (breaking first).
pub fn tools(old: &Value, new: &Value) -> Vec<Change> {
    let (a, b) = (by_key(old, Kind::Tool), by_key(new, Kind::Tool));
    // The added tools by their input schema's text: a removed tool whose schema reappears
    // under a new name was most likely renamed (found once each, not by comparing all pairs).
    let added: HashMap<String, &String> = b
        .iter()
        .filter(|(n, _)| !a.contains_key(*n))
        .filter_map(|(n, t)| Some((t.get("inputSchema")?.to_string(), n)))
        .collect();
    let mut out = Vec::new();
    for (name, old_tool) in &a {
        match b.get(name) {
            Some(new_tool) => tool(name, old_tool, new_tool, &mut out),
            None => {
                let renamed = old_tool
                    .get("inputSchema")
                    .and_then(|s| added.get(&s.to_string()));
                let what = match renamed {
                    Some(to) => format!("tool removed (likely renamed to `{}`)", shown(to)),
                    None => "tool removed".into(),
                };
                out.push(change(
                    name,
                    Audience::Callers,
                    "/",
                    Verdict::Breaking,
                    what,
                ));
            }
        }
    }
    for name in b.keys().filter(|n| !a.contains_key(*n)) {
        out.push(change(
            name,
            Audience::Callers,
            "/",
            Verdict::Compatible,
            "tool added".into(),
        ));
    }
    sorted(&mut out);
    out
}

/// By item, then verdict (breaking first).
pub(super) fn sorted(changes: &mut [Change]) {
    changes.sort_by(|x, y| (&x.name, x.verdict).cmp(&(&y.name, y.verdict)));
}

/// A snapshot's items of `kind` by the key that names them.
pub(super) fn by_key(snapshot: &Value, kind: Kind) -> BTreeMap<String, &Map<String, Value>> {
    let (list, key) = kind.list_and_key();
    snapshot
        .get(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| Some((t.get(key)?.as_str()?.to_string(), t.as_object()?)))
        .collect()
}

pub(super) fn shown(text: &str) -> String {
    crate::untrusted::line(text, 120).into_owned()
}

fn change(tool: &str, audience: Audience, pointer: &str, verdict: Verdict, what: String) -> Change {
    Change {
        kind: Kind::Tool,
        name: tool.to_string(),
        audience,
        pointer: pointer.to_string(),
        verdict,
        what,
    }
}

fn tool<'a>(
    name: &str,
    old: &'a Map<String, Value>,
    new: &'a Map<String, Value>,
    out: &mut Vec<Change>,
) {
    let schema = |m: &'a Map<String, Value>, key: &str| m.get(key);
    if let (Some(a), Some(b)) = (schema(old, "inputSchema"), schema(new, "inputSchema")) {
        judged(name, "/inputSchema", a, b, Audience::Callers, out);
    }
    match (schema(old, "outputSchema"), schema(new, "outputSchema")) {
        (Some(a), Some(b)) => {
            let (box_a, box_b) = (boxing::detect(a, None), boxing::detect(b, None));
            if box_a.as_ref().map(|b| &b.field) != box_b.as_ref().map(|b| &b.field) {
                let words = |b: &Option<boxing::Boxing>| {
                    b.as_ref()
                        .map_or("not boxed".to_string(), boxing::Boxing::describe)
                };
                out.push(change(
                    name,
                    Audience::Consumers,
                    "/outputSchema",
                    Verdict::Breaking,
                    format!("boxing changed: {} → {}", words(&box_a), words(&box_b)),
                ));
            }
            judged(name, "/outputSchema", a, b, Audience::Consumers, out);
        }
        (Some(_), None) => out.push(change(
            name,
            Audience::Consumers,
            "/outputSchema",
            Verdict::Breaking,
            "output schema removed (structuredContent no longer promised)".into(),
        )),
        (None, Some(_)) => out.push(change(
            name,
            Audience::Consumers,
            "/outputSchema",
            Verdict::Compatible,
            "output schema added".into(),
        )),
        (None, None) => {}
    }
    annotations(name, old, new, out);
    for key in ["title", "description"] {
        if old.get(key) != new.get(key) {
            out.push(change(
                name,
                Audience::Everyone,
                &format!("/{key}"),
                Verdict::Info,
                format!("{key} changed"),
            ));
        }
    }
}

/// The changes from schema `a` to `b` (at `place` in the tool), judged for `audience`.
fn judged(
    name: &str,
    place: &str,
    a: &Value,
    b: &Value,
    audience: Audience,
    out: &mut Vec<Change>,
) {
    for c in schema_diff::diff(a, b) {
        let verdict = match audience {
            Audience::Consumers => for_consumers(c.effect),
            _ => for_callers(c.effect),
        };
        let pointer = format!("{place}{}", tail(&c.pointer));
        out.push(change(name, audience, &pointer, verdict, c.what));
    }
}

/// `""` for the root pointer `/`, else the pointer.
fn tail(pointer: &str) -> &str {
    if pointer == "/" { "" } else { pointer }
}

/// A hint that makes the tool riskier breaks the policies clients built on it (auto-approval
/// of read-only tools, confirmation of destructive ones); the rest is said.
fn annotations(
    name: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    let hint =
        |m: &Map<String, Value>, key: &str| m.get("annotations").and_then(|a| a.get(key)).cloned();
    // With the value that makes the tool riskier; `None`: never breaking, only said.
    for (key, riskier) in [
        ("readOnlyHint", Some(Value::Bool(false))),
        ("destructiveHint", Some(Value::Bool(true))),
        ("idempotentHint", Some(Value::Bool(false))),
        ("openWorldHint", None),
        ("title", None),
    ] {
        let (a, b) = (hint(old, key), hint(new, key));
        if a == b {
            continue;
        }
        // Each of these hints is risky when unset (the spec's defaults: not read-only, maybe
        // destructive, not idempotent), so a hint removed is breaking whatever it said: losing
        // `destructiveHint: true` takes away the warning a client (and `--rerun`) asked on.
        let verdict = match &riskier {
            Some(risky) if b.is_none() || b.as_ref() == Some(risky) => Verdict::Breaking,
            _ => Verdict::Info,
        };
        let shown = |v: &Option<Value>| {
            v.as_ref()
                .map_or("unset".into(), |v| crate::untrusted::json(v, false))
        };
        out.push(change(
            name,
            Audience::Everyone,
            &format!("/annotations/{key}"),
            verdict,
            format!("`{key}` {} → {}", shown(&a), shown(&b)),
        ));
    }
}

/// Callers send instances: what lets fewer through breaks them.
fn for_callers(effect: Effect) -> Verdict {
    match effect {
        Effect::Narrows | Effect::Changes | Effect::Removed | Effect::AddedRequired => {
            Verdict::Breaking
        }
        Effect::Widens | Effect::AddedOptional => Verdict::Compatible,
        Effect::Unknown => Verdict::Unknown,
        Effect::Info => Verdict::Info,
    }
}

/// Consumers receive instances: what lets more through (or takes away what they read) breaks
/// them.
fn for_consumers(effect: Effect) -> Verdict {
    match effect {
        Effect::Widens | Effect::Changes | Effect::Removed => Verdict::Breaking,
        Effect::Narrows | Effect::AddedOptional | Effect::AddedRequired => Verdict::Compatible,
        Effect::Unknown => Verdict::Unknown,
        Effect::Info => Verdict::Info,
    }
}
