//! Compiling a schema in its own dialect and validating an instance against it, every error kept
//! with its paths. No `$ref` is ever fetched: non-local refs stop compilation before it starts.
//! Every validation is bounded (see [`super::budget`]): it ends at its time budget even when the
//! instance conforms, and no schema or instance can overflow the stack. Pure.

use super::budget::{self, Stop};
use super::dialect::Dialect;
use super::numbers;
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use std::time::Duration;

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
    TooDeep(String),
}

impl Unusable {
    pub fn describe(&self) -> String {
        match self {
            Unusable::UnknownDialect(uri) => format!("unknown dialect {uri}"),
            Unusable::DanglingRef(r) => format!("dangling $ref {r}"),
            Unusable::NonLocalRef(r) => format!("$ref {r} points outside the schema (not fetched)"),
            Unusable::DoesNotCompile(m) => format!("schema does not compile: {m}"),
            Unusable::TooLarge(m) => format!("schema too large: {m}"),
            Unusable::TooDeep(m) => format!("schema too deep: {m}"),
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

impl Violation {
    /// Where it is and what is wrong, in one line: `at /count (minimum): -3 is less than …`
    /// (the root is `/`).
    pub fn brief(&self) -> String {
        let at = match self.instance_path.as_str() {
            "" => "/",
            path => path,
        };
        format!("at {at} ({}): {}", self.keyword, self.message)
    }
}

/// The outcome of checking one instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub violations: Vec<Violation>,
    /// Errors found beyond [`MAX_VIOLATIONS`], counted only.
    pub more: usize,
    /// Why the check stopped before the end ("validation exceeded 5 s"). With no violations,
    /// nothing was decided: the instance was not checked.
    pub incomplete: Option<String>,
    /// Numbers the validator could only judge rounded (see [`numbers`]).
    pub notes: Vec<String>,
    /// Parts of the schema that were left out, each with why (a `$ref` that resolves
    /// nowhere): the rest was checked, these were not.
    pub unchecked: Vec<String>,
}

/// A schema compiled once in its dialect, or the reason it cannot be.
pub struct Compiled {
    pub dialect: Dialect,
    /// The schema, its unknown parts (see [`super::unknown`]) taken as passing.
    validator: Result<jsonschema::Validator, Unusable>,
    /// The same with the unknown parts taken as failing, when there are any: a violation
    /// stands only when both find it.
    if_unknown_fails: Option<jsonschema::Validator>,
    /// Where the unknown parts are (see [`super::unknown::may_decide`]).
    unknown_places: Vec<String>,
    /// Validation may recurse deep (a `$ref` cycle, or deep nesting): it runs on a thread of
    /// its own with a large stack. Otherwise on the caller's, which saves a thread a check.
    large_stack: bool,
    /// What was left out to compile the rest (see [`Checked::unchecked`]).
    unchecked: Vec<String>,
    /// Whether a `format` mismatch is a violation here (see [`asserts_formats`]).
    pub asserts_formats: bool,
}

/// `--assert-formats`: `format` mismatches are violations in every schema.
static ASSERT_FORMATS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes every `format` mismatch a violation from now on (`--assert-formats`).
pub fn assert_formats() {
    ASSERT_FORMATS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether `format` asserts in `schema`: in 2019-09 and 2020-12 it is an annotation unless the
/// format-assertion vocabulary is declared (a `$vocabulary` naming it `true`), or the user asked.
/// In older drafts it is checked as the validator always has.
fn asserts_formats(schema: &Value, dialect: &Dialect) -> bool {
    let declared = schema
        .get("$vocabulary")
        .and_then(Value::as_object)
        .is_some_and(|v| {
            v.iter().any(|(uri, on)| {
                uri.ends_with("/vocab/format-assertion") && on == &Value::Bool(true)
            })
        });
    let annotation_only = matches!(dialect, Dialect::Draft2019 | Dialect::Draft2020);
    declared || !annotation_only || ASSERT_FORMATS.load(std::sync::atomic::Ordering::Relaxed)
}

impl Compiled {
    /// Compiles on a thread with a large stack, after a depth check: a deep or long `$ref` chain
    /// gives a named "too deep" reason instead of a stack overflow.
    pub fn new(schema: &Value) -> Compiled {
        Compiled::with(Cow::Borrowed(schema))
    }

    /// [`Compiled::new`] of a schema the caller has no more use for: guarded in place, not
    /// copied (a copy is as large as the schema: 18 MB for 30,000 one-keyword properties).
    pub fn from_owned(schema: Value) -> Compiled {
        Compiled::with(Cow::Owned(schema))
    }

    fn with(schema: Cow<'_, Value>) -> Compiled {
        let dialect = Dialect::of(&schema);
        let shape = budget::shape(&schema, budget::MAX_SCHEMA_DEPTH);
        let super::unknown::Marked {
            said: unchecked,
            places: unknown_places,
            copy: patched,
        } = super::unknown::marked(&schema);
        let compiled_from = patched.as_ref().unwrap_or(&schema);
        let asserts_formats = asserts_formats(compiled_from, &dialect);
        let has_patch = patched.is_some();
        let (validator, if_unknown_fails) = match compilable(compiled_from, &dialect, shape) {
            Err(why) => (Err(why), None),
            Ok(draft) => {
                // What is compiled: the patched copy, or the schema, with the guard's keywords.
                let guarded = match (patched, schema) {
                    (Some(mut owned), _) | (None, Cow::Owned(mut owned)) => {
                        budget::guard(&mut owned);
                        owned
                    }
                    (None, Cow::Borrowed(schema)) => budget::guarded(schema),
                };
                let compiled = |passes| {
                    budget::on_large_stack(|| compile(&guarded, draft, passes)).unwrap_or_else(
                        || {
                            Err(Unusable::DoesNotCompile(
                                "the validator failed while compiling it".into(),
                            ))
                        },
                    )
                };
                let validator = compiled(true);
                let if_unknown_fails = match (&validator, has_patch) {
                    (Ok(_), true) => compiled(false).ok(),
                    _ => None,
                };
                (validator, if_unknown_fails)
            }
        };
        Compiled {
            if_unknown_fails,
            unknown_places,
            asserts_formats,
            dialect,
            validator,
            large_stack: shape.needs_large_stack(),
            unchecked,
        }
    }

    pub fn unusable(&self) -> Option<&Unusable> {
        self.validator.as_ref().err()
    }

    /// Every violation of `instance` within [`VALIDATION_BUDGET`], or why the schema cannot
    /// judge it.
    pub fn check(&self, instance: &Value) -> Result<Checked, Unusable> {
        self.check_within(instance, VALIDATION_BUDGET)
    }

    /// Every violation of `instance`, found within `limit` of wall time (blocks the caller that
    /// long at most, and a quarter second more to name a first violation after a stop). Runs
    /// on a thread with a large stack when the schema can recurse deep.
    pub fn check_within(&self, instance: &Value, limit: Duration) -> Result<Checked, Unusable> {
        let validator = self.validator.as_ref().map_err(Clone::clone)?;
        let deadline = std::time::Instant::now() + limit;
        // The watch flag is per thread: it is read on the thread that validated.
        let judge = || {
            numbers::reset();
            let mut outcome = judge_here(validator, instance, deadline, limit);
            if let (Some(other), Ok((found, _))) = (&self.if_unknown_fails, &mut outcome)
                && !found.is_empty()
            {
                // Unknown never decides: a violation stands only when it is found whether the
                // unknown parts pass or fail (and is not the unknown part itself).
                let with_failing = judge_here(other, instance, deadline, limit);
                let key = |v: &Violation| {
                    (
                        v.instance_path.clone(),
                        v.schema_path.clone(),
                        v.keyword.clone(),
                    )
                };
                let both: std::collections::HashSet<_> = match &with_failing {
                    Ok((list, _)) => list.iter().map(key).collect(),
                    Err(_) => Default::default(),
                };
                found.retain(|v| {
                    both.contains(&key(v))
                        && !super::unknown::may_decide(&v.schema_path, &self.unknown_places)
                });
            }
            let lossy = if numbers::met() {
                numbers::notes(instance)
            } else {
                Vec::new()
            };
            (outcome, lossy, numbers::unjudged())
        };
        let outcome = if self.large_stack {
            budget::on_large_stack(judge)
        } else {
            Some(judge())
        };
        let mut out = Checked {
            violations: Vec::new(),
            more: 0,
            incomplete: None,
            notes: Vec::new(),
            unchecked: self.unchecked.clone(),
        };
        let Some((outcome, notes, unjudged)) = outcome else {
            out.incomplete = Some("the validator failed".into());
            return Ok(out);
        };
        out.notes = notes;
        match outcome {
            Err(stop) => out.incomplete = Some(stop.describe(limit)),
            Ok((found, stop)) => {
                out.incomplete = stop.map(|s| s.describe(limit));
                for violation in found {
                    if out.violations.len() < MAX_VIOLATIONS {
                        out.violations.push(violation);
                    } else {
                        out.more += 1;
                    }
                }
            }
        }
        if !unjudged.is_empty() && out.incomplete.is_none() {
            // Never a clean answer from a rounded copy: that keyword is not checked.
            out.incomplete = Some(format!(
                "`{}` met a number 64 bits cannot hold and cannot compare it exactly",
                unjudged.join("`, `")
            ));
        }
        Ok(out)
    }
}

/// One judgement on the calling thread: a yes/no pass, then (when the instance does not
/// conform) the list of violations, each under the budgets.
fn judge_here(
    validator: &jsonschema::Validator,
    instance: &Value,
    deadline: std::time::Instant,
    limit: Duration,
) -> Result<(Vec<Violation>, Option<Stop>), Stop> {
    // Most instances conform: the fast yes/no pass first, then the errors if any.
    if budget::run(deadline, budget::CHECK_VISITS, || {
        validator.is_valid(instance)
    })? {
        return Ok::<_, Stop>((Vec::new(), None));
    }
    let list = |visits| {
        budget::run(deadline, visits, || {
            // The watch keyword notes what it judged exactly as the errors come; a validator
            // error on a rounded copy of a number is dropped once they all came.
            let mut found = Vec::new();
            let mut numeric = Vec::new();
            for error in validator.iter_errors(instance) {
                if let Some(at) = numbers::watched_number(&error) {
                    numeric.push((found.len(), at));
                }
                found.extend(located(error));
            }
            if numbers::anything_settled() {
                let rounded: std::collections::HashSet<usize> = numeric
                    .into_iter()
                    .filter(|(_, (keyword, at))| numbers::rounded_verdict(keyword, *at))
                    .map(|(i, _)| i)
                    .collect();
                let mut i = 0;
                found.retain(|_| {
                    i += 1;
                    !rounded.contains(&(i - 1))
                });
            }
            found
        })
    };
    // Counting a big instance costs milliseconds: only when the least budget ran out.
    let all = match list(budget::MIN_VISITS) {
        Err(Stop::Large) => match budget::visits_for(instance) {
            more if more > budget::MIN_VISITS => list(more),
            _ => Err(Stop::Large),
        },
        other => other,
    };
    match all {
        Ok(all) => Ok((all, None)),
        // Too many or too slow to list: the first one is still worth showing.
        Err(stop) => {
            let extra =
                deadline.max(std::time::Instant::now()) + limit.min(Duration::from_secs(1)) / 4;
            // The first error only: nothing accumulates, so only time bounds it.
            let first = budget::run(extra, budget::CHECK_VISITS, || {
                validator.validate(instance).err().map(owned)
            })
            .ok()
            .flatten()
            .unwrap_or_else(|| Violation {
                instance_path: String::new(),
                keyword: String::new(),
                schema_path: String::new(),
                evaluation_path: String::new(),
                message: "does not conform; where could not be found within the budget".into(),
                format: false,
            });
            Ok((vec![first], Some(stop)))
        }
    }
}

/// A validator error as violations: one, or for keys an object may not have
/// (`additionalProperties`, `unevaluatedProperties`) one on each such key, so it is marked
/// where it is rather than on the object.
fn located(error: jsonschema::ValidationError<'_>) -> Vec<Violation> {
    use jsonschema::error::ValidationErrorKind;
    let keys = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => unexpected.clone(),
        _ => Vec::new(),
    };
    let whole = owned(error);
    if keys.is_empty() {
        return vec![whole];
    }
    keys.iter()
        .map(|key| Violation {
            instance_path: format!(
                "{}/{}",
                whole.instance_path,
                super::refs::escape_segment(key)
            ),
            message: format!(
                "{} is not allowed here ({} does not allow it)",
                crate::untrusted::line(&serde_json::to_string(key).unwrap_or_default(), 100),
                whole.keyword
            ),
            ..whole.clone()
        })
        .collect()
}

/// A validator error as a [`Violation`] (paths and a bounded message).
fn owned(error: jsonschema::ValidationError<'_>) -> Violation {
    let keyword = error.kind().keyword().to_string();
    let mut violation = Violation {
        instance_path: error.instance_path().as_str().to_string(),
        format: keyword == "format",
        keyword,
        schema_path: error.schema_path().as_str().to_string(),
        evaluation_path: error.evaluation_path().as_str().to_string(),
        message: message(&error),
    };
    // The watch's exact verdict names the keyword it judged again, and is placed there.
    if violation.keyword == numbers::WATCH
        && let Some((keyword, text)) = numbers::watched_failure(&violation.message)
            .map(|(k, t)| (k.to_string(), t.to_string()))
    {
        let at = |path: &str| match path.strip_suffix(numbers::WATCH) {
            Some(parent) => format!("{parent}{keyword}"),
            None => path.to_string(),
        };
        violation.schema_path = at(&violation.schema_path);
        violation.evaluation_path = at(&violation.evaluation_path);
        violation.message = text;
        violation.keyword = keyword;
    }
    violation
}

/// The validator's message; an object or array instance is not quoted (it may be megabytes).
fn message(error: &jsonschema::ValidationError<'_>) -> String {
    let text = match error.instance().as_ref() {
        Value::Object(_) | Value::Array(_) => error.masked_with("the value").to_string(),
        // `"x" is not a "email"` reads better as `"x" is not a valid "email"`.
        instance => match error.kind() {
            jsonschema::error::ValidationErrorKind::Format { format } => {
                format!("{instance} is not a valid {format:?}")
            }
            _ => error.to_string(),
        },
    };
    crate::untrusted::line(&text, MAX_MESSAGE_CHARS).into_owned()
}

/// The draft a schema is compiled in, or why it cannot be: an unknown dialect, too many
/// values, too deep.
fn compilable(
    schema: &Value,
    dialect: &Dialect,
    shape: budget::Shape,
) -> Result<jsonschema::Draft, Unusable> {
    let Some(draft) = dialect.draft() else {
        return Err(Unusable::UnknownDialect(match dialect {
            Dialect::Unknown(uri) => uri.clone(),
            other => other.name(),
        }));
    };
    let size = budget::count_values(schema, MAX_SCHEMA_VALUES + 1);
    if size > MAX_SCHEMA_VALUES {
        return Err(Unusable::TooLarge(format!(
            "more than {MAX_SCHEMA_VALUES} JSON values"
        )));
    }
    if shape.depth > budget::MAX_SCHEMA_DEPTH {
        return Err(Unusable::TooDeep(format!(
            "more than {} levels through its subschemas and $refs",
            budget::MAX_SCHEMA_DEPTH
        )));
    }
    Ok(draft)
}

/// The validator of `guarded` (a schema with [`budget::guard`]'s keywords) in `draft`, the
/// unknown parts passing or failing.
fn compile(
    guarded: &Value,
    draft: jsonschema::Draft,
    unknown_passes: bool,
) -> Result<jsonschema::Validator, Unusable> {
    let options = budget::with_guard(jsonschema::options());
    super::unknown::with_unknown(numbers::with_watch(options), unknown_passes)
        .with_draft(draft)
        .offline()
        .should_validate_formats(true)
        .build(guarded)
        .map_err(|e| {
            Unusable::DoesNotCompile(
                crate::untrusted::line(&e.to_string(), MAX_MESSAGE_CHARS).into_owned(),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_compiled_from_an_owned_copy_judges_as_the_borrowed_one() {
        let schemas = [
            json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}},
                "required": ["n"]}),
            json!({"properties": {"a": {"$ref": "#/$defs/Missing"}, "b": {"enum": [1, 2]}}}),
            json!({"$schema": "https://example.com/unknown", "type": "string"}),
            json!({"anyOf": [{"pattern": "^a"}, {"multipleOf": 0.1}]}),
        ];
        let instances = [
            json!({"n": 4}),
            json!({"a": 1, "b": 3}),
            json!("b"),
            json!(0.30000000000000004),
            json!({}),
        ];
        for schema in schemas {
            let borrowed = Compiled::new(&schema);
            let owned = Compiled::from_owned(schema.clone());
            for instance in &instances {
                assert_eq!(
                    borrowed.check(instance),
                    owned.check(instance),
                    "{schema} on {instance}"
                );
            }
        }
    }
}
