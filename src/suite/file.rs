//! A test file as a person writes it: TOML with `[[call]]`, `[[prompt]]` and `[[read]]`
//! entries, each with optional expectations (`[call.expect]`). Read whole or refused with the
//! line and column of what is wrong; the cases keep the file's order.

use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::Path;
use toml::Spanned;

/// A test file larger than this is refused (a person's file is kilobytes).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Cases read at most.
pub const MAX_CASES: usize = 10_000;

/// What a case does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `tools/call`.
    Call { tool: String, args: Value },
    /// `prompts/get`.
    Prompt {
        name: String,
        args: Map<String, Value>,
    },
    /// `resources/read`.
    Read { uri: String },
}

impl Action {
    /// The entry's table name in the file (`call`, `prompt`, `read`).
    pub fn table(&self) -> &'static str {
        match self {
            Action::Call { .. } => "call",
            Action::Prompt { .. } => "prompt",
            Action::Read { .. } => "read",
        }
    }
}

/// What a case's result must be; every key optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expect {
    /// The verdict's status word (`conforms`, `violations`, `tool_error`, `not_checked`, …).
    pub verdict: Option<String>,
    /// The value: a call's unboxed structuredContent, a prompt's messages, a read's contents.
    pub value: Option<Value>,
    pub is_error: Option<bool>,
    /// The text blocks, joined by newlines, exactly.
    pub text: Option<String>,
    pub text_contains: Vec<String>,
    pub max_ms: Option<u64>,
    /// JSON Pointers left out of the value comparison (`*` matches any key or index).
    pub ignore: Vec<String>,
}

/// One entry of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub action: Action,
    /// `label`, or made from the action.
    pub label: String,
    pub expect: Expect,
    /// Where the entry starts (1-based), for messages.
    pub line: usize,
    /// Its place among the entries of its table (for `--update`).
    pub index: usize,
}

/// The verdict words a call can expect.
pub const VERDICTS: [&str; 6] = [
    "conforms",
    "violations",
    "not_checked",
    "tool_error",
    "missing_structured_content",
    "unexpected_structured_content",
];

/// Reads the file at `path`: its cases, or what is wrong with it (`FILE:LINE:COLUMN: …`).
pub fn read(path: &Path) -> Result<Vec<Case>, String> {
    let shown = path.display();
    let text = crate::private_files::read_named(path, MAX_FILE_BYTES)
        .map_err(|e| format!("{shown}: {e}"))?;
    parse(&text).map_err(|e| format!("{shown}:{e}"))
}

/// The cases of a test file's text, in the file's order; an error starts `LINE:COLUMN: `.
pub fn parse(text: &str) -> Result<Vec<Case>, String> {
    // Counted before parsing: a file of a million entries costs a scan, not its parse.
    let headers = entry_headers(text);
    if headers > MAX_CASES {
        return Err(format!(
            "1:1: {headers} entries, more than the {MAX_CASES} a test file may hold"
        ));
    }
    let lines = LineIndex::new(text);
    let file: FileToml = toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |s| place(text, s.start));
        format!("{line}:{column}: {}", e.message().trim_end())
    })?;
    if let Some((at, raw, why)) = rounded_float(text) {
        let (line, column) = place(text, at);
        return Err(format!(
            "{line}:{column}: {raw} is {why} as a TOML float: write the value as JSON text \
             (`value_json = '...'`, `args_json`) to keep it exact"
        ));
    }
    let mut cases = Vec::new();
    for (index, entry) in file.call.into_iter().enumerate() {
        let line = lines.line(entry.span().start);
        let entry = entry.into_inner();
        let args = match (entry.args, entry.args_json) {
            (Some(_), Some(_)) => {
                return Err(format!("{line}:1: both `args` and `args_json`: give one"));
            }
            (Some(args), None) => {
                json_of(args).map_err(|e| format!("{line}:1: call `args`: {e}"))?
            }
            (None, Some(text)) => serde_json::from_str(&text)
                .map_err(|e| format!("{line}:1: `args_json` is not JSON: {e}"))?,
            (None, None) => Value::Object(Map::new()),
        };
        let action = Action::Call {
            tool: entry.tool,
            args,
        };
        cases.push(case(action, entry.label, entry.expect, line, index)?);
    }
    for (index, entry) in file.prompt.into_iter().enumerate() {
        let line = lines.line(entry.span().start);
        let entry = entry.into_inner();
        let args = entry
            .args
            .into_iter()
            .map(|(k, v)| Ok((k, json_of(v)?)))
            .collect::<Result<Map<_, _>, String>>()
            .map_err(|e| format!("{line}:1: prompt `args`: {e}"))?;
        let action = Action::Prompt {
            name: entry.name,
            args,
        };
        if entry.expect.as_ref().is_some_and(|e| e.verdict.is_some()) {
            return Err(format!("{line}:1: a prompt has no verdict (only calls do)"));
        }
        cases.push(case(action, entry.label, entry.expect, line, index)?);
    }
    for (index, entry) in file.read.into_iter().enumerate() {
        let line = lines.line(entry.span().start);
        let entry = entry.into_inner();
        if entry.expect.as_ref().is_some_and(|e| e.verdict.is_some()) {
            return Err(format!("{line}:1: a read has no verdict (only calls do)"));
        }
        let action = Action::Read { uri: entry.uri };
        cases.push(case(action, entry.label, entry.expect, line, index)?);
    }
    if cases.len() > MAX_CASES {
        return Err(format!(
            "1:1: {} entries, more than the {MAX_CASES} a test file may hold",
            cases.len()
        ));
    }
    cases.sort_by_key(|c| c.line);
    Ok(cases)
}

/// One case from its entry's parts.
fn case(
    action: Action,
    label: Option<String>,
    expect: Option<ExpectToml>,
    line: usize,
    index: usize,
) -> Result<Case, String> {
    let expect = match expect {
        Some(e) => e.read().map_err(|e| format!("{line}:1: expect: {e}"))?,
        None => Expect::default(),
    };
    let label = label.unwrap_or_else(|| made_label(&action));
    Ok(Case {
        action,
        label,
        expect,
        line,
        index,
    })
}

/// A label from what the case does: `add {"a":1,"b":2}`, `prompt greet`, `read demo://x`.
fn made_label(action: &Action) -> String {
    let shortened = |v: &Value| {
        let text = v.to_string();
        if text.chars().count() > 60 {
            format!("{}…", text.chars().take(59).collect::<String>())
        } else {
            text
        }
    };
    match action {
        Action::Call { tool, args } => format!("{tool} {}", shortened(args)),
        Action::Prompt { name, args } if args.is_empty() => format!("prompt {name}"),
        Action::Prompt { name, args } => {
            format!("prompt {name} {}", shortened(&Value::Object(args.clone())))
        }
        Action::Read { uri } => format!("read {uri}"),
    }
}

/// The first float of `text` (already read as TOML) that a 64-bit double does not hold
/// exactly (`1.00000000000000000002` reads as 1.0): where, as written, and why. Such an
/// expectation would be judged by a rounded copy (invariant 11), so the file is refused.
fn rounded_float(text: &str) -> Option<(usize, String, &'static str)> {
    let doc = toml_edit::Document::parse(text).ok()?;
    let mut stack: Vec<&toml_edit::Item> = doc.as_table().iter().map(|(_, i)| i).collect();
    let mut values: Vec<&toml_edit::Value> = Vec::new();
    while let Some(item) = stack.pop() {
        match item {
            toml_edit::Item::Value(v) => values.push(v),
            toml_edit::Item::Table(t) => stack.extend(t.iter().map(|(_, i)| i)),
            toml_edit::Item::ArrayOfTables(a) => {
                stack.extend(a.iter().flat_map(|t| t.iter().map(|(_, i)| i)));
            }
            toml_edit::Item::None => {}
        }
        while let Some(value) = values.pop() {
            match value {
                toml_edit::Value::Array(a) => values.extend(a.iter()),
                toml_edit::Value::InlineTable(t) => values.extend(t.iter().map(|(_, v)| v)),
                toml_edit::Value::Float(f) => {
                    // As written: the parsed document's spans point into `text`.
                    let Some(span) = f.span() else { continue };
                    let raw = text.get(span.clone()).unwrap_or_default().trim();
                    let json = raw.replace('_', "");
                    let json = json.strip_prefix('+').unwrap_or(&json);
                    let number = serde_json::from_str::<serde_json::Number>(json).ok();
                    if let Some(why) = number.as_ref().and_then(crate::schema::numbers::lossy) {
                        return Some((span.start, raw.to_string(), why));
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// How many `[[call]]`, `[[prompt]]` and `[[read]]` headers start a line of `text`.
fn entry_headers(text: &str) -> usize {
    text.lines()
        .map(str::trim_start)
        .filter(|l| {
            ["[[call]]", "[[prompt]]", "[[read]]"]
                .iter()
                .any(|h| l.starts_with(h))
        })
        .count()
}

/// Where each line of a text starts: a line number found by a binary search, so naming the
/// line of every entry costs n log n, not n² (a 40,000-entry file took 26 s).
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let breaks = text.match_indices('\n').map(|(at, _)| at + 1);
        LineIndex {
            starts: std::iter::once(0).chain(breaks).collect(),
        }
    }

    /// The 1-based line of byte `offset`.
    fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|start| *start <= offset)
    }
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
fn place(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A TOML value as JSON: dates become their text; a float that is not finite is refused.
pub fn json_of(value: toml::Value) -> Result<Value, String> {
    Ok(match value {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("{f} is not a JSON number"))?,
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(json_of)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        toml::Value::Table(table) => Value::Object(
            table
                .into_iter()
                .map(|(k, v)| Ok((k, json_of(v)?)))
                .collect::<Result<Map<_, _>, String>>()?,
        ),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    #[serde(default)]
    call: Vec<Spanned<CallToml>>,
    #[serde(default)]
    prompt: Vec<Spanned<PromptToml>>,
    #[serde(default)]
    read: Vec<Spanned<ReadToml>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CallToml {
    tool: String,
    label: Option<String>,
    args: Option<toml::Value>,
    /// The arguments as JSON text, for what TOML cannot hold (`null`, integers past 64 bits).
    args_json: Option<String>,
    expect: Option<ExpectToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PromptToml {
    name: String,
    label: Option<String>,
    #[serde(default)]
    args: toml::Table,
    expect: Option<ExpectToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadToml {
    uri: String,
    label: Option<String>,
    expect: Option<ExpectToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectToml {
    verdict: Option<String>,
    value: Option<toml::Value>,
    /// The value as JSON text, for what TOML cannot hold (`null`, integers past 64 bits).
    value_json: Option<String>,
    is_error: Option<bool>,
    text: Option<String>,
    text_contains: Option<OneOrMany>,
    max_ms: Option<u64>,
    #[serde(default)]
    ignore: Vec<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl ExpectToml {
    fn read(self) -> Result<Expect, String> {
        if let Some(word) = &self.verdict
            && !VERDICTS.contains(&word.as_str())
        {
            return Err(format!(
                "verdict `{word}` is none of {}",
                VERDICTS.join(", ")
            ));
        }
        let value = match (self.value, self.value_json) {
            (Some(_), Some(_)) => return Err("both `value` and `value_json`: give one".into()),
            (Some(v), None) => Some(json_of(v)?),
            (None, Some(text)) => Some(
                serde_json::from_str(&text)
                    .map_err(|e| format!("`value_json` is not JSON: {e}"))?,
            ),
            (None, None) => None,
        };
        for pointer in &self.ignore {
            if !pointer.is_empty() && !pointer.starts_with('/') {
                return Err(format!(
                    "ignore `{pointer}` is not a JSON Pointer (it starts with /)"
                ));
            }
        }
        Ok(Expect {
            verdict: self.verdict,
            value,
            is_error: self.is_error,
            text: self.text,
            text_contains: match self.text_contains {
                None => Vec::new(),
                Some(OneOrMany::One(s)) => vec![s],
                Some(OneOrMany::Many(v)) => v,
            },
            max_ms: self.max_ms,
            ignore: self.ignore,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Invariant 11: an expected number a TOML float would round is refused where it is
    /// written, never compared by its rounded copy; JSON text keeps it exact.
    #[test]
    fn a_float_a_double_cannot_hold_is_refused_where_it_is_written() {
        let text = "[[call]]\ntool = \"t\"\n[call.expect]\nvalue = { x = [1.5, 1.00000000000000000002] }\n";
        let error = parse(text).map(|_| ()).expect_err("refused");
        assert!(
            error.starts_with("4:21: 1.00000000000000000002 is more digits than a double holds"),
            "{error}"
        );
        let exact = "[[call]]\ntool = \"t\"\n[call.expect]\nvalue_json = '{\"x\": 1.00000000000000000002}'\n";
        assert!(parse(exact).is_ok());
        assert!(
            parse("[[call]]\ntool = \"t\"\nargs = { a = 0.1, b = 2.5e3, c = 1_000.5 }\n").is_ok()
        );
    }

    #[test]
    fn a_file_reads_in_its_own_order_with_every_key() {
        let text = r#"
[[read]]
uri = "demo://readme"
expect.text_contains = "demo"

[[call]]
tool = "add"
args = { a = 1, b = 2 }
[call.expect]
verdict = "conforms"
value = { sum = 3 }
ignore = ["/id"]
max_ms = 500

[[prompt]]
name = "review_code"
args = { code = "x = 1" }
label = "reviews"
[prompt.expect]
text_contains = ["x = 1", "Review"]

[[call]]
tool = "falsy"
args.kind = "null"
expect.value_json = "null"
"#;
        let cases = parse(text).expect("reads");
        let labels: Vec<&str> = cases.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "read demo://readme",
                r#"add {"a":1,"b":2}"#,
                "reviews",
                r#"falsy {"kind":"null"}"#
            ]
        );
        assert_eq!(cases[1].expect.value, Some(json!({"sum": 3})));
        assert_eq!(cases[1].expect.max_ms, Some(500));
        assert_eq!(cases[1].index, 0);
        assert_eq!(cases[3].index, 1);
        assert_eq!(cases[3].expect.value, Some(Value::Null));
        assert_eq!(cases[2].expect.text_contains.len(), 2);
        assert_eq!(cases[0].line, 2);
    }

    #[test]
    fn what_is_wrong_is_said_with_its_line_and_column() {
        let cases = [
            ("[[call]]\ntool = \"a\"\nargs = {a = }\n", "3:"),
            (
                "[[call]]\ntool = \"a\"\nexpected = 1\n",
                "3:1: unknown field `expected`",
            ),
            ("[[call]]\nargs = {}\n", "missing field `tool`"),
            (
                "[[call]]\ntool = \"a\"\nexpect.verdict = \"fine\"\n",
                "1:1: expect: verdict `fine`",
            ),
            (
                "[[prompt]]\nname = \"p\"\nexpect.verdict = \"conforms\"\n",
                "a prompt has no verdict",
            ),
            (
                "[[call]]\ntool = \"a\"\nexpect.ignore = [\"id\"]\n",
                "not a JSON Pointer",
            ),
            (
                "[[call]]\ntool = \"a\"\nexpect.value = 1\nexpect.value_json = \"1\"\n",
                "both",
            ),
        ];
        for (text, said) in cases {
            let error = parse(text).expect_err(text);
            assert!(error.contains(said), "{text:?}: {error}");
        }
    }
}
