//! The honest verdict on one tool result: one pure function of the output schema, the result and
//! the protocol era. The result itself is never hidden or altered; this only judges it. Pure.

use super::boxing::{self, Boxing};
use super::validate::{Compiled, Violation};
use serde::Serialize;
use serde_json::Value;

/// Which protocol era the result came from: legacy requires object structuredContent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    Legacy,
    Modern,
}

impl Era {
    /// The era of a negotiated protocol version: 2026-07-28 and later are modern.
    pub fn of(protocol_version: &str) -> Era {
        match protocol_version >= "2026-07-28" {
            true => Era::Modern,
            false => Era::Legacy,
        }
    }
}

/// What the verdict needs to know about a result.
#[derive(Debug, Clone, Copy)]
pub struct ResultView<'a> {
    pub is_error: bool,
    /// `None` when the field is absent; `Some(Value::Null)` when the server sent `null`.
    pub structured: Option<&'a Value>,
    /// The text of each `text` content block, in order.
    pub texts: &'a [&'a str],
    pub meta: Option<&'a Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Conforms,
    Violations,
    NotChecked,
    ToolError,
    MissingStructuredContent,
    UnexpectedStructuredContent,
}

/// Whether a JSON text block mirrors the structured value (information only, never an alarm).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mirror {
    Matches,
    /// The text carries the unboxed value (fastmcp and the Python SDK write it so).
    MatchesUnboxed,
    Differs,
    NoJsonText,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    pub status: Status,
    /// The dialect used to validate, when a schema was present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<String>,
    /// Why nothing was checked, for `not_checked`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub violations: Vec<Violation>,
    /// Violations found past the kept ones.
    #[serde(skip_serializing_if = "is_zero")]
    pub more_violations: usize,
    pub boxing: Option<Boxing>,
    /// The unboxed value, when the result is boxed. Otherwise structuredContent itself is the
    /// natural value (see [`Verdict::natural_value`]); it is not copied here, it may be huge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_mirror: Option<Mirror>,
    /// Information a careful reader would want: era rules, boxing mismatches, budget cuts.
    pub notes: Vec<String>,
    /// `format` mismatches where `format` is an annotation (2019-09, 2020-12 without the
    /// format-assertion vocabulary or `--assert-formats`): shown beside the verdict, not in it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub format_findings: Vec<Violation>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Verdict {
    /// The value a person wants to see: unboxed when boxed, structuredContent as sent otherwise.
    pub fn natural_value<'a>(&'a self, structured: Option<&'a Value>) -> Option<&'a Value> {
        self.value.as_ref().or(structured)
    }

    /// Why a result that has an outputSchema to answer to could not be judged (an unknown
    /// dialect, a schema that does not compile, a budget that ran out, an answer too costly to
    /// parse): never to be counted as fine. `None` when it was judged, or there is nothing to
    /// judge it by (no outputSchema).
    pub fn unjudged(&self) -> Option<&str> {
        match (self.status, &self.dialect) {
            (Status::NotChecked, Some(_)) => {
                Some(self.reason.as_deref().unwrap_or("unknown reason"))
            }
            _ => None,
        }
    }

    /// One line for a person: `conforms (2020-12)`, `3 violations (draft-07)`, `not checked: …`.
    pub fn headline(&self) -> String {
        let dialect = self
            .dialect
            .as_deref()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default();
        match self.status {
            Status::Conforms => format!("conforms{dialect}"),
            Status::Violations => {
                let n = self.violations.len() + self.more_violations;
                format!("{n} violation{}{dialect}", if n == 1 { "" } else { "s" })
            }
            Status::NotChecked => format!(
                "not checked: {}",
                self.reason.as_deref().unwrap_or("unknown reason")
            ),
            // The outputSchema describes successes: a tool error is not judged by it (and a
            // tool without one has nothing to say of it).
            Status::ToolError => match self.dialect {
                Some(_) => "tool error (isError): not judged by the outputSchema".into(),
                None => "tool error (isError)".into(),
            },
            Status::MissingStructuredContent => {
                "outputSchema declared but no structuredContent".into()
            }
            Status::UnexpectedStructuredContent => {
                "structuredContent without an outputSchema (not validated)".into()
            }
        }
    }
}

/// The heading of the `format` mismatches shown beside a verdict, headless and in the TUI.
pub const FORMAT_FINDINGS: &str = "format findings (an annotation in this dialect, not a violation; --assert-formats makes them one):";

/// The `_meta` key of a tool result the client made of an answer too costly to parse: its
/// value says why, and the result's one text block is the answer as sent.
pub const UNPARSED: &str = "io.github.mcp-inspect/unparsed";

/// Judges one result against the tool's output schema (`compiled` is `None` when there is none).
pub fn verdict(schema: Option<(&Value, &Compiled)>, result: ResultView<'_>, era: Era) -> Verdict {
    let mut v = Verdict {
        status: Status::NotChecked,
        dialect: schema.map(|(_, c)| c.dialect.name()),
        reason: None,
        violations: Vec::new(),
        more_violations: 0,
        boxing: None,
        value: None,
        text_mirror: None,
        notes: Vec::new(),
        format_findings: Vec::new(),
    };
    if let Some(why) = result
        .meta
        .and_then(|m| m.get(UNPARSED))
        .and_then(Value::as_str)
    {
        v.reason = Some(format!(
            "the answer was too costly to parse ({}): shown as the text it was sent as",
            crate::untrusted::line(why, 300)
        ));
        return v;
    }
    if let (Some((raw, _)), Some(sc)) = (schema, result.structured) {
        unbox(&mut v, raw, sc, result.meta);
    }
    v.text_mirror = result.structured.map(|sc| {
        let unboxed = v.boxing.as_ref().and(v.value.as_ref());
        mirror(sc, unboxed, result.texts)
    });
    let era_violation = era_rules(
        era,
        schema.map(|(raw, _)| raw),
        result.structured,
        &mut v.notes,
    );
    if result.is_error {
        v.status = Status::ToolError;
        if let (Some((_, c)), Some(sc)) = (schema, result.structured)
            && let Ok(checked) = c.check(sc)
            && !checked.violations.is_empty()
        {
            v.notes.push(format!(
                "information only: the error's structuredContent differs from the success schema in {}",
                crate::plural::count(checked.violations.len() + checked.more, "place")
            ));
        }
        return v;
    }
    match (schema, result.structured) {
        (None, None) => {
            v.reason = Some("the tool declares no outputSchema".into());
        }
        (None, Some(_)) => v.status = Status::UnexpectedStructuredContent,
        (Some(_), None) => v.status = Status::MissingStructuredContent,
        (Some((_, compiled)), Some(sc)) => judge(&mut v, compiled, sc),
    }
    if let Some(violation) = era_violation
        && matches!(
            v.status,
            Status::Conforms | Status::Violations | Status::NotChecked
        )
    {
        v.status = Status::Violations;
        v.reason = None;
        v.violations.insert(0, violation);
    }
    v
}

/// The legacy era's rules: structuredContent is an object (a violation of the result when it
/// is not, under `--strict` too) and so is the outputSchema's root (a note: the schema's fault).
fn era_rules(
    era: Era,
    schema: Option<&Value>,
    structured: Option<&Value>,
    notes: &mut Vec<String>,
) -> Option<Violation> {
    if era != Era::Legacy {
        return None;
    }
    if schema.is_some_and(|raw| raw.get("type") != Some(&Value::from("object"))) {
        notes.push("legacy protocol requires the outputSchema root to be `type: object`".into());
    }
    let sc = structured.filter(|s| !s.is_object())?;
    Some(Violation {
        instance_path: String::new(),
        keyword: "structuredContent".into(),
        schema_path: String::new(),
        evaluation_path: String::new(),
        message: format!(
            "the protocol (2025-11-25 and before) requires structuredContent to be an object; \
             got {}",
            kind_of(sc)
        ),
        format: false,
    })
}

/// A boxed schema's value taken out of its box; a box the schema is sure of but the result
/// lacks is said.
fn unbox(v: &mut Verdict, raw: &Value, sc: &Value, meta: Option<&Value>) {
    v.boxing = boxing::detect(raw, meta);
    if let Some(b) = &v.boxing {
        match sc.as_object().and_then(|o| o.get(&b.field)) {
            Some(inner) if sc.as_object().is_some_and(|o| o.len() == 1) => {
                v.value = Some(inner.clone())
            }
            // The wrap marker says the box is `field`: a value beside it does not unbox it.
            Some(inner) if b.certain => {
                v.value = Some(inner.clone());
                let others: Vec<String> = sc
                    .as_object()
                    .into_iter()
                    .flat_map(|o| o.keys())
                    .filter(|k| **k != b.field)
                    .take(5)
                    .map(|k| format!("`{}`", crate::untrusted::line(k, 60)))
                    .collect();
                v.notes.push(format!(
                    "boxed in `{}`, with other keys beside the box: {}",
                    b.field,
                    others.join(", ")
                ));
            }
            _ if b.certain => v.notes.push(format!(
                "the schema boxes the value in `{}` but structuredContent is not boxed",
                b.field
            )),
            _ => v.boxing = None,
        }
    }
}

/// structuredContent checked against the outputSchema: conforms or violations, or why neither
/// can be said.
fn judge(v: &mut Verdict, compiled: &Compiled, sc: &Value) {
    match compiled.check(sc).map(|mut checked| {
        if !compiled.asserts_formats {
            let (formats, rest) = checked.violations.into_iter().partition(|x| x.format);
            (v.format_findings, checked.violations) = (formats, rest);
        }
        checked
    }) {
        Err(unusable) => v.reason = Some(unusable.describe()),
        // Stopped before deciding anything, or part of the schema left out: never reported
        // as conforming.
        Ok(checked)
            if checked.violations.is_empty()
                && (checked.incomplete.is_some() || !checked.unchecked.is_empty()) =>
        {
            v.reason = checked.incomplete.or_else(|| {
                Some(format!(
                    "no violation where it could check, but {}",
                    checked.unchecked.join("; ")
                ))
            });
            v.notes.extend(checked.notes);
        }
        Ok(checked) => {
            v.notes.extend(checked.notes);
            v.notes.extend(checked.unchecked);
            if let Some(why) = &checked.incomplete {
                v.notes.push(format!(
                    "validation stopped ({why}); more violations may exist"
                ));
            }
            v.status = if checked.violations.is_empty() {
                Status::Conforms
            } else {
                Status::Violations
            };
            v.violations = checked.violations;
            v.more_violations = checked.more;
        }
    }
}

fn mirror(structured: &Value, unboxed: Option<&Value>, texts: &[&str]) -> Mirror {
    let mut saw_json = false;
    for text in texts {
        if let Ok(parsed) = serde_json::from_str::<Value>(text) {
            if &parsed == structured {
                return Mirror::Matches;
            }
            if unboxed == Some(&parsed) {
                return Mirror::MatchesUnboxed;
            }
            saw_json = true;
        }
    }
    if saw_json {
        Mirror::Differs
    } else {
        Mirror::NoJsonText
    }
}

/// `an array`, `null`, `a string` …, for notes.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
