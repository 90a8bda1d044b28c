//! A case's result held against its expectations: each one that does not hold, said with what
//! was expected and what came. Pure.

use super::file::Expect;
use serde_json::Value;

/// Differences named at most per value comparison.
const MAX_DIFFERENCES: usize = 10;
/// Characters of a value shown in a message.
const SHOWN_CHARS: usize = 200;

/// What a case gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Got {
    /// A call's `isError`; for a prompt or a read, whether the server answered with an error.
    pub is_error: bool,
    /// A call's verdict word (see [`super::file::VERDICTS`]).
    pub verdict: Option<&'static str>,
    /// Why the verdict is what it is: each violation (`at /pointer: message`), or why nothing
    /// was checked. Said when a `verdict` expectation fails.
    pub why: Vec<String>,
    /// A call's unboxed structuredContent, a prompt's messages, a read's contents.
    pub value: Option<Value>,
    /// The text blocks joined by newlines (an error's message when the server answered one).
    pub text: String,
    pub ms: u64,
}

/// Every expectation of `expect` that `got` breaks, in words.
pub fn failures(expect: &Expect, got: &Got) -> Vec<String> {
    let mut failed = Vec::new();
    if let Some(word) = &expect.verdict {
        let came = got.verdict.unwrap_or("none");
        if came != word {
            let because = match got.why.as_slice() {
                [] => String::new(),
                why => format!(" ({})", why.join("; ")),
            };
            failed.push(format!("verdict: expected {word}, got {came}{because}"));
        }
    }
    if let Some(is_error) = expect.is_error
        && is_error != got.is_error
    {
        failed.push(format!(
            "is_error: expected {is_error}, got {}",
            got.is_error
        ));
    }
    if let Some(value) = &expect.value {
        match &got.value {
            None => failed.push(format!("value: expected {}, got no value", shown(value))),
            Some(came) => failed.extend(
                differences(value, came, &expect.ignore)
                    .into_iter()
                    .map(|d| format!("value {d}")),
            ),
        }
    }
    if let Some(text) = &expect.text
        && *text != got.text
    {
        failed.push(format!(
            "text: expected {}, got {}",
            quoted(text),
            quoted(&got.text)
        ));
    }
    for part in &expect.text_contains {
        if !got.text.contains(part.as_str()) {
            failed.push(format!(
                "text_contains: {} not in {}",
                quoted(part),
                quoted(&got.text)
            ));
        }
    }
    if let Some(max) = expect.max_ms
        && got.ms > max
    {
        failed.push(format!("max_ms: took {} ms, more than {max}", got.ms));
    }
    failed
}

/// Where `got` differs from `expected`, the pointers in `ignore` left out: `at /sum: expected
/// 3, got 4`, at most [`MAX_DIFFERENCES`] of them (then how many more).
pub fn differences(expected: &Value, got: &Value, ignore: &[String]) -> Vec<String> {
    let (mut expected, mut got) = (expected.clone(), got.clone());
    for pointer in ignore {
        let segments: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
        forget(&mut expected, &segments);
        forget(&mut got, &segments);
    }
    let mut found = Found::default();
    walk(&expected, &got, &mut String::new(), &mut found);
    if found.more > 0 {
        let more = found.more;
        found.said.push(format!("… and {more} more differences"));
    }
    found.said
}

/// The differences said so far, and how many more there were.
#[derive(Default)]
struct Found {
    said: Vec<String>,
    more: usize,
}

impl Found {
    fn say(&mut self, what: impl FnOnce() -> String) {
        if self.said.len() < MAX_DIFFERENCES {
            self.said.push(what());
        } else {
            self.more += 1;
        }
    }
}

fn walk(expected: &Value, got: &Value, at: &mut String, found: &mut Found) {
    let here = |at: &str| {
        if at.is_empty() {
            "/".to_string()
        } else {
            at.to_string()
        }
    };
    match (expected, got) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let len = at.len();
                at.push('/');
                at.push_str(&escape(key));
                match b.get(key) {
                    Some(other) => walk(value, other, at, found),
                    None => found.say(|| format!("at {at}: missing (expected {})", shown(value))),
                }
                at.truncate(len);
            }
            for (key, value) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
                found.say(|| {
                    format!(
                        "at {at}/{}: not expected (got {})",
                        escape(key),
                        shown(value)
                    )
                });
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let len = at.len();
                at.push_str(&format!("/{i}"));
                walk(x, y, at, found);
                at.truncate(len);
            }
        }
        (Value::Array(a), Value::Array(b)) => found.say(|| {
            format!(
                "at {}: expected {} items, got {}: {}",
                here(at),
                a.len(),
                b.len(),
                shown(got)
            )
        }),
        (Value::Number(a), Value::Number(b)) if same_number(a, b) => {}
        (a, b) if a == b => {}
        (a, b) => found.say(|| format!("at {}: expected {}, got {}", here(at), shown(a), shown(b))),
    }
}

/// Whether two numbers are the same value however written: the verdict's exact number model.
pub use crate::schema::numbers::same_value as same_number;

/// Removes what `segments` point at (`*` any key or index) from `value`.
fn forget(value: &mut Value, segments: &[String]) {
    let Some((first, rest)) = segments.split_first() else {
        return;
    };
    match value {
        Value::Object(map) => {
            if rest.is_empty() {
                if first == "*" {
                    map.clear();
                } else {
                    map.shift_remove(first.as_str());
                }
                return;
            }
            for (key, inner) in map.iter_mut() {
                if first == "*" || key == first {
                    forget(inner, rest);
                }
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter_mut().enumerate() {
                if first == "*" || first.parse::<usize>() == Ok(i) {
                    if rest.is_empty() {
                        // Left in place (so later indices keep their meaning), as nothing.
                        *inner = Value::Null;
                    } else {
                        forget(inner, rest);
                    }
                }
            }
        }
        _ => {}
    }
}

fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A value as compact JSON, cut at [`SHOWN_CHARS`].
fn shown(value: &Value) -> String {
    cut(&value.to_string())
}

/// A text quoted as JSON, cut at [`SHOWN_CHARS`].
fn quoted(text: &str) -> String {
    cut(&Value::String(text.to_string()).to_string())
}

fn cut(text: &str) -> String {
    if text.chars().count() <= SHOWN_CHARS {
        return text.to_string();
    }
    format!(
        "{}…",
        text.chars().take(SHOWN_CHARS - 1).collect::<String>()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn got(value: Value) -> Got {
        Got {
            why: Vec::new(),
            is_error: false,
            verdict: Some("conforms"),
            value: Some(value),
            text: "The sum is 3".into(),
            ms: 12,
        }
    }

    #[test]
    fn every_expectation_that_fails_is_named() {
        let expect = Expect {
            verdict: Some("violations".into()),
            value: Some(json!({"sum": 4, "id": "a"})),
            is_error: Some(true),
            text: Some("The sum is 4".into()),
            text_contains: vec!["sum".into(), "total".into()],
            max_ms: Some(10),
            ignore: vec![],
        };
        let failed = failures(&expect, &got(json!({"sum": 3, "id": "a"})));
        assert_eq!(
            failed,
            [
                "verdict: expected violations, got conforms",
                "is_error: expected true, got false",
                "value at /sum: expected 4, got 3",
                r#"text: expected "The sum is 4", got "The sum is 3""#,
                r#"text_contains: "total" not in "The sum is 3""#,
                "max_ms: took 12 ms, more than 10",
            ]
        );
        // Why a verdict is not the expected one is said with it.
        let broke = Got {
            verdict: Some("violations"),
            why: vec![
                "at /sum: \"3\" is not of type \"integer\"".into(),
                "2 more".into(),
            ],
            ..got(json!({"sum": "3"}))
        };
        let conforms = Expect {
            verdict: Some("conforms".into()),
            ..Expect::default()
        };
        assert_eq!(
            failures(&conforms, &broke),
            [
                r#"verdict: expected conforms, got violations (at /sum: "3" is not of type "integer"; 2 more)"#
            ]
        );
        let holds = Expect {
            value: Some(json!({"sum": 3.0, "id": "b"})),
            ignore: vec!["/id".into()],
            text_contains: vec!["sum".into()],
            ..Expect::default()
        };
        assert_eq!(
            failures(&holds, &got(json!({"sum": 3, "id": "a"}))),
            Vec::<String>::new()
        );
    }

    #[test]
    fn differences_are_located_and_ignored_paths_skipped() {
        let a = json!({"items": [{"id": 1, "n": "x"}, {"id": 2, "n": "y"}], "gone": true});
        let b = json!({"items": [{"id": 7, "n": "x"}, {"id": 8, "n": "z"}], "new": 1});
        assert_eq!(
            differences(&a, &b, &["/items/*/id".into()]),
            [
                r#"at /items/1/n: expected "y", got "z""#,
                "at /gone: missing (expected true)",
                "at /new: not expected (got 1)"
            ]
        );
        let many_a = Value::Array((0..20).map(Value::from).collect());
        let many_b = Value::Array((100..120).map(Value::from).collect());
        let said = differences(&many_a, &many_b, &[]);
        assert_eq!(said.len(), MAX_DIFFERENCES + 1);
        assert_eq!(said[MAX_DIFFERENCES], "… and 10 more differences");
        assert_eq!(
            differences(&json!([1]), &json!([1, 2]), &[]),
            ["at /: expected 1 items, got 2: [1,2]"]
        );
    }

    #[test]
    fn numbers_are_the_same_value_however_written_and_big_ones_exact() {
        let n = |s: &str| match serde_json::from_str::<Value>(s) {
            Ok(Value::Number(n)) => n,
            _ => panic!("not a number: {s}"),
        };
        assert!(same_number(&n("1"), &n("1.0")));
        assert!(same_number(&n("1e2"), &n("100")));
        assert!(!same_number(
            &n("12345678901234567890123456789"),
            &n("12345678901234567890123456788")
        ));
        assert!(same_number(
            &n("12345678901234567890123456789"),
            &n("12345678901234567890123456789")
        ));
        assert!(!same_number(&n("0.1"), &n("0.2")));
        // Decided on the decimals, never a rounded copy (invariant 11).
        assert!(!same_number(
            &n("1.00000000000000000002"),
            &n("1.00000000000000000001")
        ));
        assert!(same_number(&n("10e399"), &n("1e400")));
        assert!(same_number(&n("-0.5e-3"), &n("-0.0005")));
        assert!(!same_number(&n("1e400"), &n("1e401")));
    }
}
