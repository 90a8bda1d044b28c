//! Compiling a schema in its own dialect and validating an instance against it, every error kept
//! with its paths. No `$ref` is ever fetched: non-local refs stop compilation before it starts. Pure.

use super::dialect::Dialect;
use super::refs::{Document, RefTarget, all_refs};
use serde::Serialize;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Errors collected from one instance before the rest are counted but not kept.
pub const MAX_VIOLATIONS: usize = 10_000;
/// Longest message kept per violation (the validator quotes the instance, which may be huge).
const MAX_MESSAGE_CHARS: usize = 400;
/// Wall time one validation may take before it stops with what it found.
pub const VALIDATION_BUDGET: Duration = Duration::from_secs(5);
/// Schemas larger than this (in JSON values) are not compiled.
const MAX_SCHEMA_VALUES: usize = 500_000;

/// Why a schema could not be used to check anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", content = "detail", rename_all = "snake_case")]
pub enum Unusable {
    UnknownDialect(String),
    DanglingRef(String),
    NonLocalRef(String),
    DoesNotCompile(String),
    TooLarge(String),
}

impl Unusable {
    pub fn describe(&self) -> String {
        match self {
            Unusable::UnknownDialect(uri) => format!("unknown dialect {uri}"),
            Unusable::DanglingRef(r) => format!("dangling $ref {r}"),
            Unusable::NonLocalRef(r) => format!("$ref {r} points outside the schema (not fetched)"),
            Unusable::DoesNotCompile(m) => format!("schema does not compile: {m}"),
            Unusable::TooLarge(m) => format!("schema too large: {m}"),
        }
    }
}

/// One place where an instance breaks its schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    /// JSON Pointer into the instance.
    pub instance_path: String,
    pub keyword: String,
    /// JSON Pointer into the schema document.
    pub schema_path: String,
    /// Keyword path through `$ref`s, which maps onto schema-tree rows.
    pub evaluation_path: String,
    pub message: String,
    /// A `format` mismatch (reported, marked as such: many tools treat formats as hints).
    pub format: bool,
}

/// The outcome of checking one instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub violations: Vec<Violation>,
    /// Errors found beyond [`MAX_VIOLATIONS`], counted only.
    pub more: usize,
    /// True when the time budget ran out before every error was found.
    pub timed_out: bool,
}

/// A schema compiled once in its dialect, or the reason it cannot be.
pub struct Compiled {
    pub dialect: Dialect,
    validator: Result<jsonschema::Validator, Unusable>,
}

impl Compiled {
    pub fn new(schema: &Value) -> Compiled {
        let dialect = Dialect::of(schema);
        let validator = compile(schema, &dialect);
        Compiled { dialect, validator }
    }

    pub fn unusable(&self) -> Option<&Unusable> {
        self.validator.as_ref().err()
    }

    /// Every violation of `instance`, or why the schema cannot judge it.
    pub fn check(&self, instance: &Value) -> Result<Checked, Unusable> {
        let validator = self.validator.as_ref().map_err(Clone::clone)?;
        let deadline = Instant::now() + VALIDATION_BUDGET;
        let mut out = Checked {
            violations: Vec::new(),
            more: 0,
            timed_out: false,
        };
        for error in validator.iter_errors(instance) {
            if out.violations.len() < MAX_VIOLATIONS {
                let keyword = error.kind().keyword().to_string();
                out.violations.push(Violation {
                    instance_path: error.instance_path().as_str().to_string(),
                    format: keyword == "format",
                    keyword,
                    schema_path: error.schema_path().as_str().to_string(),
                    evaluation_path: error.evaluation_path().as_str().to_string(),
                    message: message(&error),
                });
            } else {
                out.more += 1;
            }
            if Instant::now() > deadline {
                out.timed_out = true;
                break;
            }
        }
        Ok(out)
    }
}

/// The validator's message; an object or array instance is not quoted (it may be megabytes).
fn message(error: &jsonschema::ValidationError<'_>) -> String {
    let text = match error.instance().as_ref() {
        Value::Object(_) | Value::Array(_) => error.masked_with("the value").to_string(),
        _ => error.to_string(),
    };
    crate::untrusted::line(&text, MAX_MESSAGE_CHARS).into_owned()
}

fn compile(schema: &Value, dialect: &Dialect) -> Result<jsonschema::Validator, Unusable> {
    let Some(draft) = dialect.draft() else {
        return Err(Unusable::UnknownDialect(match dialect {
            Dialect::Unknown(uri) => uri.clone(),
            other => other.name(),
        }));
    };
    let size = count_values(schema, MAX_SCHEMA_VALUES + 1);
    if size > MAX_SCHEMA_VALUES {
        return Err(Unusable::TooLarge(format!(
            "more than {MAX_SCHEMA_VALUES} JSON values"
        )));
    }
    let doc = Document::new(schema);
    for (_, reference) in all_refs(schema) {
        match doc.resolve(&reference) {
            RefTarget::Found { .. } => {}
            RefTarget::Dangling => return Err(Unusable::DanglingRef(reference)),
            RefTarget::NotFetched => return Err(Unusable::NonLocalRef(reference)),
        }
    }
    jsonschema::options()
        .with_draft(draft)
        .offline()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| {
            Unusable::DoesNotCompile(
                crate::untrusted::line(&e.to_string(), MAX_MESSAGE_CHARS).into_owned(),
            )
        })
}

/// Counts JSON values up to `limit` (stops early on huge documents).
fn count_values(value: &Value, limit: usize) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        if count >= limit {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}
