//! Where two JSON values differ, each difference located by its JSON Pointer (`at /sum:
//! expected 3, got 4`), numbers compared as the verdict compares them, some pointers left out:
//! what a test file's `value` expectation and `--rerun`'s "what changed" both say. Pure.

use serde_json::Value;

/// Differences named at most per value comparison.
const MAX_DIFFERENCES: usize = 10;
/// Characters of a value shown in a message.
const SHOWN_CHARS: usize = 200;

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
        (Value::Number(a), Value::Number(b)) if crate::schema::numbers::same_value(a, b) => {}
        (a, b) if a == b => {}
        (a, b) => found.say(|| format!("at {}: expected {}, got {}", here(at), shown(a), shown(b))),
    }
}

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
pub fn shown(value: &Value) -> String {
    cut(&value.to_string())
}

/// `text` cut at [`SHOWN_CHARS`].
pub fn cut(text: &str) -> String {
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
}
