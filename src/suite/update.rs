//! `test --update`: what each case gave written into the file as its expectations, the rest of
//! the file (comments, order, hand-written `text_contains`, `max_ms`, `ignore`) left as it was,
//! so the change reads as a diff to review.

use super::expect::Got;
use super::file::{Action, Case};
use super::run::Ran;
use serde_json::Value;
use toml_edit::{DocumentMut, Item, TableLike};

/// A value or text larger than this (as JSON) is not kept as an expectation.
pub const MAX_KEPT_BYTES: usize = 64 * 1024;
/// A value whose TOML is longer than this is written as pretty JSON (`value_json`).
const INLINE_CHARS: usize = 100;
/// The keys `--update` writes (and so replaces).
const WRITTEN: [&str; 5] = ["verdict", "is_error", "value", "value_json", "text"];

/// The file's `text` with each case that got an answer given its answer as expectations, and
/// a note for each case left as it was. A call of a tool the server does not list (`listed`
/// says) is left as it was: its answer is an error about the name, not an expectation.
pub fn updated(
    text: &str,
    cases: &[&Case],
    ran: &[Ran],
    listed: &dyn Fn(&str) -> bool,
) -> Result<(String, Vec<String>), String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.to_string())?;
    let mut notes = Vec::new();
    for (case, ran) in cases.iter().zip(ran) {
        if let Action::Call { tool, .. } = &case.action
            && !listed(tool)
        {
            let tool = crate::untrusted::line(tool, 80);
            notes.push(format!(
                "{}: not updated (the server does not list `{tool}`)",
                case.label
            ));
            continue;
        }
        let Some(got) = &ran.got else {
            notes.push(format!("{}: not updated (no answer)", case.label));
            continue;
        };
        let table = doc
            .get_mut(case.action.table())
            .and_then(Item::as_array_of_tables_mut)
            .and_then(|entries| entries.get_mut(case.index))
            .ok_or_else(|| format!("{}: its entry is gone from the file", case.label))?;
        let expect = table
            .entry("expect")
            .or_insert_with(|| Item::Table(toml_edit::Table::new()))
            .as_table_like_mut()
            .ok_or_else(|| format!("{}: its `expect` is not a table", case.label))?;
        let comments = Comments::taken_from(expect);
        for key in WRITTEN {
            expect.remove(key);
        }
        if let Some(note) = write(expect, &case.action, got) {
            notes.push(format!("{}: {note}", case.label));
        }
        comments.put_back(expect);
    }
    // A server that echoes a secret given on the command line never gets it into the file.
    Ok((crate::secrets::redact(&doc.to_string()).into_owned(), notes))
}

/// The comments around the lines `--update` rewrites (above a key, after its value), put
/// back on the rewritten lines: `value` and `value_json` are one line whichever is written.
struct Comments(Vec<(&'static str, toml_edit::Decor, toml_edit::Decor)>);

impl Comments {
    fn slot(key: &str) -> &str {
        if key == "value_json" { "value" } else { key }
    }

    fn taken_from(expect: &dyn TableLike) -> Comments {
        let kept = WRITTEN.iter().filter_map(|&key| {
            let above = expect.key(key)?.leaf_decor().clone();
            let after = expect.get(key)?.as_value()?.decor().clone();
            Some((key, above, after))
        });
        Comments(kept.collect())
    }

    fn put_back(self, expect: &mut dyn TableLike) {
        for (key, above, after) in self.0 {
            let written = WRITTEN
                .into_iter()
                .find(|&k| Self::slot(k) == Self::slot(key) && expect.contains_key(k));
            let Some(written) = written else { continue };
            if let Some(mut k) = expect.key_mut(written) {
                *k.leaf_decor_mut() = above;
            }
            if let Some(value) = expect.get_mut(written).and_then(Item::as_value_mut) {
                *value.decor_mut() = after;
            }
        }
    }
}

/// `text` (a test file, maybe empty) with one more `[[call]]` of `tool` with `args`, expecting
/// what `got` shows; registered secrets never reach it. Refused when the result would not read.
pub fn appended(text: &str, tool: &str, args: &Value, got: &Got) -> Result<String, String> {
    let mut entry = toml_edit::Table::new();
    entry.insert("tool", Item::Value(string(tool)));
    let args = &*crate::secrets::redact_value(args);
    match toml_of(args) {
        Some(inline) => entry.insert("args", Item::Value(inline)),
        None => entry.insert("args_json", Item::Value(string(&args.to_string()))),
    };
    let mut expect = toml_edit::Table::new();
    let action = Action::Call {
        tool: tool.into(),
        args: args.clone(),
    };
    if let Some(note) = write(&mut expect, &action, got) {
        return Err(note);
    }
    entry.insert("expect", Item::Table(expect));
    let mut doc = DocumentMut::new();
    let mut calls = toml_edit::ArrayOfTables::new();
    calls.push(entry);
    doc.insert("call", Item::ArrayOfTables(calls));
    let entry = crate::secrets::redact(&doc.to_string()).into_owned();
    let before = super::file::parse(text).map_err(|e| format!("the file does not read: {e}"))?;
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with("\n\n") {
        out.push_str(if out.ends_with('\n') { "\n" } else { "\n\n" });
    }
    out.push_str(&entry);
    let after = super::file::parse(&out).map_err(|e| format!("the entry would not read: {e}"))?;
    if after.len() != before.len() + 1 {
        return Err("the entry would not read as one more call".into());
    }
    Ok(out)
}

/// Writes what `got` shows into `expect`; says what was too large to keep.
fn write(expect: &mut dyn TableLike, action: &Action, got: &Got) -> Option<String> {
    if let Some(verdict) = got.verdict {
        expect.insert("verdict", toml_edit::value(verdict));
    }
    expect.insert("is_error", toml_edit::value(got.is_error));
    // A call's structured value says what it returned; otherwise its text does (a prompt's
    // and a resource's text, or a blob's contents as a value).
    let value = match action {
        Action::Call { .. } => got.value.as_ref(),
        _ if got.text.is_empty() => got.value.as_ref(),
        _ => None,
    };
    // Secrets redacted in the value, before TOML escapes it (a quote in one is `\"` there).
    if let Some(value) = value.map(crate::secrets::redact_value) {
        let value = &*value;
        let json = value.to_string();
        if json.len() > MAX_KEPT_BYTES {
            return Some(format!(
                "the value ({} bytes) is too large to keep",
                json.len()
            ));
        }
        match toml_of(value).filter(|v| v.to_string().len() <= INLINE_CHARS) {
            Some(inline) => expect.insert("value", Item::Value(inline)),
            None => expect.insert(
                "value_json",
                Item::Value(string(&serde_json::to_string_pretty(value).unwrap_or(json))),
            ),
        };
        return None;
    }
    if got.text.len() > MAX_KEPT_BYTES {
        return Some(format!(
            "the text ({} bytes) is too large to keep",
            got.text.len()
        ));
    }
    if !got.text.is_empty() || matches!(action, Action::Call { .. }) {
        let text = crate::secrets::redact(&got.text);
        expect.insert("text", Item::Value(string(&text)));
    }
    None
}

/// A JSON value as TOML, when TOML can hold it exactly: no `null`, integers within 64 bits,
/// other numbers that a 64-bit float keeps.
fn toml_of(value: &Value) -> Option<toml_edit::Value> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(b) => (*b).into(),
        Value::String(s) => string(s),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into(),
            None if n.to_string().contains(['.', 'e', 'E']) => {
                let float = n.as_f64().filter(|f| f.is_finite())?;
                let back = serde_json::Number::from_f64(float)?;
                if !super::expect::same_number(n, &back) {
                    return None;
                }
                float.into()
            }
            None => return None,
        },
        Value::Array(items) => {
            let mut array = toml_edit::Array::new();
            for item in items {
                array.push(toml_of(item)?);
            }
            array.into()
        }
        Value::Object(map) => {
            let mut table = toml_edit::InlineTable::new();
            for (key, item) in map {
                table.insert_formatted(&table_key(key), toml_of(item)?);
            }
            table.into()
        }
    })
}

/// A TOML string of `text`, written so a reviewer sees every character: bidi controls,
/// zero-width characters, C1 controls and line separators as `\uXXXX` escapes (toml_edit would
/// write them raw, where a diff shows nothing or reorders the line).
fn string(text: &str) -> toml_edit::Value {
    visible(text).unwrap_or_else(|| text.into())
}

/// A key of an inline table, escaped as [`string`] escapes values.
fn table_key(name: &str) -> toml_edit::Key {
    visible(name).unwrap_or_else(|| toml_edit::Key::new(name))
}

/// `text` as a basic string with its hidden characters escaped, parsed back so toml_edit keeps
/// it as written; `None` when it has none (toml_edit's own form is fine).
fn visible<T: std::str::FromStr>(text: &str) -> Option<T> {
    if !text.chars().any(hidden_in_toml) {
        return None;
    }
    format!("\"{}\"", crate::escape::toml_basic_visible(text))
        .parse()
        .ok()
}

/// A character TOML may hold raw that a reader would not see (C0 controls toml_edit escapes).
fn hidden_in_toml(c: char) -> bool {
    crate::escape::is_dangerous(c) && !c.is_ascii_control()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::file::parse;
    use serde_json::json;

    fn got(value: Option<Value>, text: &str) -> Ran {
        Ran {
            got: Some(Got {
                why: Vec::new(),
                is_error: false,
                verdict: Some("conforms"),
                value,
                text: text.into(),
                ms: 3,
            }),
            failures: vec![],
            ms: 3,
        }
    }

    #[test]
    fn answers_become_expectations_and_the_rest_of_the_file_stays() {
        let text = "# adds\n[[call]]\ntool = \"add\" # the tool\nargs = { a = 1, b = 2 }\n[call.expect]\nmax_ms = 50\nverdict = \"violations\"\n\n[[call]]\ntool = \"falsy\"\nargs.kind = \"null\"\n\n[[call]]\ntool = \"echo\"\n\n[[read]]\nuri = \"demo://gone\"\n";
        let cases = parse(text).expect("reads");
        let cases: Vec<&Case> = cases.iter().collect();
        let ran = [
            got(Some(json!({"sum": 3})), "3"),
            got(Some(Value::Null), "null"),
            got(None, "hello\n\"there\""),
            Ran {
                got: None,
                failures: vec!["resources/read failed".into()],
                ms: 1,
            },
        ];
        let (written, notes) = updated(text, &cases, &ran, &|t| t != "gone").expect("updates");
        assert!(
            written.starts_with("# adds\n[[call]]\ntool = \"add\" # the tool\n"),
            "{written}"
        );
        assert!(
            written.contains(
                "max_ms = 50\nverdict = \"conforms\"\nis_error = false\nvalue = { sum = 3 }\n"
            ),
            "{written}"
        );
        assert!(written.contains("value_json = \"null\""), "{written}");
        assert_eq!(notes, ["read demo://gone: not updated (no answer)"]);
        let again = parse(&written).expect("reads back");
        assert_eq!(again[0].expect.value, Some(json!({"sum": 3})));
        assert_eq!(again[1].expect.value, Some(Value::Null));
        assert_eq!(again[2].expect.text.as_deref(), Some("hello\n\"there\""));
        assert_eq!(again[2].expect.value, None);
        // Run twice, the file does not change.
        let cases: Vec<&Case> = again.iter().collect();
        let (twice, _) = updated(&written, &cases, &ran, &|t| t != "gone").expect("updates");
        assert_eq!(twice, written);
    }

    #[test]
    fn comments_on_a_rewritten_line_stay() {
        let text = "[[call]]\ntool = \"add\"\n[call.expect]\n# why 3\nvalue = 2 # hand note\nverdict = \"violations\" # was red\n";
        let cases = parse(text).expect("reads");
        let cases: Vec<&Case> = cases.iter().collect();
        let ran = [got(Some(json!({"long": "x".repeat(120)})), "3")];
        let (written, _) = updated(text, &cases, &ran, &|_| true).expect("updates");
        assert!(
            written.contains("verdict = \"conforms\" # was red\n"),
            "{written}"
        );
        // The value grew into `value_json`: the comments of `value` go with it.
        assert!(written.contains("# why 3\nvalue_json = "), "{written}");
        assert!(written.ends_with("}\"\"\" # hand note\n"), "{written}");
        assert!(parse(&written).is_ok(), "{written}");
    }

    #[test]
    fn a_call_of_a_tool_the_server_does_not_list_is_left_as_it_was() {
        let text =
            "[[call]]\ntool = \"gone\" # renamed?\n\n[call.expect]\nverdict = \"conforms\"\n";
        let cases = parse(text).expect("reads");
        let cases: Vec<&Case> = cases.iter().collect();
        let ran = [got(None, "unknown tool: gone")];
        let (written, notes) = updated(text, &cases, &ran, &|t| t != "gone").expect("updates");
        assert_eq!(written, text);
        assert_eq!(
            notes,
            ["gone {}: not updated (the server does not list `gone`)"]
        );
    }

    #[test]
    fn a_kept_call_is_appended_as_one_more_entry_without_secrets() {
        crate::secrets::register("sk-live-kept-in-test");
        let got = Got {
            why: Vec::new(),
            is_error: false,
            verdict: Some("conforms"),
            value: Some(json!(3)),
            text: "3".into(),
            ms: 4,
        };
        let first = appended("", "add", &json!({"a": 1, "b": 2}), &got).expect("appends");
        assert_eq!(
            first,
            "[[call]]\ntool = \"add\"\nargs = { a = 1, b = 2 }\n\n[call.expect]\nverdict = \"conforms\"\nis_error = false\nvalue = 3\n"
        );
        let args = json!({"key": "sk-live-kept-in-test", "none": null});
        let second = appended(&first, "echo", &args, &got).expect("appends");
        assert!(second.starts_with(&first), "{second}");
        assert!(!second.contains("sk-live"), "{second}");
        let cases = parse(&second).expect("reads");
        assert_eq!(cases.len(), 2);
        assert_eq!(
            cases[1].action,
            Action::Call {
                tool: "echo".into(),
                args: json!({"key": "[redacted]", "none": null})
            }
        );
        assert!(appended("[[call]\n", "add", &json!({}), &got).is_err());
    }

    #[test]
    fn hidden_characters_are_written_escaped_and_read_back_the_same() {
        let tricky = "a\u{202e}b\u{2028}c\u{200b}d\u{9b}e \"q\" \\ \u{e0041}";
        let got = Got {
            why: Vec::new(),
            is_error: false,
            verdict: None,
            value: Some(json!({ "k\u{202e}": tricky })),
            text: tricky.into(),
            ms: 1,
        };
        let written = appended("", "t\u{200b}ool", &json!({ "x": tricky }), &got).expect("appends");
        assert!(
            !written
                .chars()
                .any(|c| c != '\n' && crate::escape::is_dangerous(c)),
            "{written:?}"
        );
        for escape in ["\\u202E", "\\u2028", "\\u200B", "\\u009B", "\\U000E0041"] {
            assert!(written.contains(escape), "{escape} in {written}");
        }
        let cases = parse(&written).expect("reads");
        assert_eq!(
            cases[0].action,
            Action::Call {
                tool: "t\u{200b}ool".into(),
                args: json!({ "x": tricky })
            }
        );
        assert_eq!(cases[0].expect.value, Some(json!({ "k\u{202e}": tricky })));
    }

    #[test]
    fn what_toml_cannot_hold_exactly_is_written_as_json() {
        let big = serde_json::from_str::<Value>("123456789012345678901234567890").expect("json");
        assert!(toml_of(&big).is_none());
        assert!(toml_of(&json!({"a": [1, null]})).is_none());
        assert!(toml_of(&json!({"a": [1.5, "x", true]})).is_some());
        let long = json!({"text": "x".repeat(200)});
        let mut table = toml_edit::Table::new();
        let action = Action::Call {
            tool: "t".into(),
            args: json!({}),
        };
        let mut given = got(Some(long.clone()), "");
        assert_eq!(
            write(&mut table, &action, given.got.as_ref().expect("got")),
            None
        );
        assert!(table.contains_key("value_json") && !table.contains_key("value"));
        given.got.as_mut().expect("got").value = Some(json!({"huge": "y".repeat(MAX_KEPT_BYTES)}));
        let said = write(&mut table, &action, given.got.as_ref().expect("got"));
        assert!(said.is_some_and(|s| s.contains("too large")));
    }
}
