//! A `SKILL.md`'s YAML frontmatter read into JSON, and compared field by field with the
//! frontmatter its entry carries. The YAML is the server's, so it is read bounded: at most
//! 64 KiB, 32 levels and 20,000 events, and an alias is refused rather than expanded (a few
//! hundred bytes of anchors and aliases expand to gigabytes).

use crate::schema::numbers::canonical;
use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::TScalarStyle;

const MAX_BYTES: usize = 64 * 1024;
const MAX_DEPTH: usize = 32;
const MAX_EVENTS: usize = 20_000;

/// The frontmatter's YAML and the body after it: the file must begin with a `---` line, and
/// the frontmatter ends at the next `---` line.
pub fn split(text: &str) -> Result<(&str, &str), String> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or("it does not begin with YAML frontmatter (a `---` line)")?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == "---" {
            return Ok((&rest[..at], &rest[at + line.len()..]));
        }
        at += line.len();
        if at > MAX_BYTES {
            break;
        }
    }
    Err(format!(
        "its frontmatter has no closing `---` line within {} KiB",
        MAX_BYTES / 1024
    ))
}

/// The frontmatter's fields as JSON.
pub fn parse(yaml: &str) -> Result<Map<String, Value>, String> {
    if yaml.len() > MAX_BYTES {
        return Err(format!("its frontmatter is over {} KiB", MAX_BYTES / 1024));
    }
    let mut parser = Parser::new_from_str(yaml);
    let mut stack: Vec<Frame> = Vec::new();
    let mut done = None;
    for _ in 0..MAX_EVENTS {
        let (event, _) = parser
            .next_token()
            .map_err(|e| format!("its frontmatter is not YAML: {e}"))?;
        let value = match event {
            Event::StreamEnd => break,
            Event::Nothing | Event::StreamStart | Event::DocumentStart | Event::DocumentEnd => {
                continue;
            }
            Event::Alias(_) => {
                return Err("its frontmatter uses a YAML alias: not expanded".into());
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(format!("its frontmatter nests deeper than {MAX_DEPTH}"));
                }
                stack.push(match event {
                    Event::MappingStart(..) => Frame::Map(Map::new(), None),
                    _ => Frame::Seq(Vec::new()),
                });
                continue;
            }
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map(map, _)) => Value::Object(map),
                _ => return Err("its frontmatter is not YAML".into()),
            },
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq(items)) => Value::Array(items),
                _ => return Err("its frontmatter is not YAML".into()),
            },
            Event::Scalar(text, style, _, _) => scalar(text, style),
        };
        match stack.last_mut() {
            None => done = Some(value),
            Some(frame) => frame.add(value)?,
        }
    }
    match done {
        Some(Value::Object(map)) => Ok(map),
        Some(_) => Err("its frontmatter is not a mapping of fields".into()),
        None if stack.is_empty() => Err("its frontmatter is empty".into()),
        None => Err(format!(
            "its frontmatter has more than {MAX_EVENTS} YAML events"
        )),
    }
}

enum Frame {
    /// A mapping, and the key read whose value is next.
    Map(Map<String, Value>, Option<String>),
    Seq(Vec<Value>),
}

impl Frame {
    fn add(&mut self, value: Value) -> Result<(), String> {
        match self {
            Frame::Seq(items) => items.push(value),
            Frame::Map(map, key) => match key.take() {
                Some(k) => {
                    if map.insert(k.clone(), value).is_some() {
                        return Err(format!(
                            "its frontmatter repeats the key `{}`",
                            crate::untrusted::line(&k, 80)
                        ));
                    }
                }
                None => {
                    *key = Some(match value {
                        Value::String(s) => s,
                        Value::Number(n) => n.to_string(),
                        Value::Bool(b) => b.to_string(),
                        Value::Null => "null".into(),
                        _ => return Err("its frontmatter has a key that is not a scalar".into()),
                    })
                }
            },
        }
        Ok(())
    }
}

/// A scalar as YAML 1.2's core schema reads it: quoted or block scalars are strings; plain
/// ones may be null, a boolean or a number.
fn scalar(text: String, style: TScalarStyle) -> Value {
    if style != TScalarStyle::Plain {
        return Value::String(text);
    }
    match text.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let number_like = text
        .trim_start_matches(['-', '+'])
        .starts_with(|c: char| c.is_ascii_digit());
    if number_like {
        let unsigned = text.strip_prefix('+').unwrap_or(&text);
        if let Ok(n) = serde_json::from_str::<Number>(unsigned) {
            return Value::Number(n);
        }
        for (prefix, radix) in [("0x", 16), ("0o", 8)] {
            if let Some(digits) = unsigned.strip_prefix(prefix)
                && let Ok(n) = i64::from_str_radix(digits, radix)
            {
                return Value::Number(n.into());
            }
        }
    }
    Value::String(text)
}

/// Whether the file's frontmatter is the entry's, field by field (numbers compared exactly);
/// the first difference otherwise.
pub fn compare(entry: &Map<String, Value>, file: &Map<String, Value>) -> Result<(), String> {
    let said = |v: Option<&Value>| match v {
        Some(v) => crate::untrusted::line(&v.to_string(), 120).into_owned(),
        None => "nothing".into(),
    };
    for key in entry.keys().chain(file.keys()) {
        let (listed, read) = (entry.get(key), file.get(key));
        if listed.map(canonical) != read.map(canonical) {
            return Err(format!(
                "its frontmatter's `{}` is {} where its entry says {}",
                crate::untrusted::line(key, 80),
                said(read),
                said(listed)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(yaml: &str) -> Value {
        Value::Object(parse(yaml).expect("parses"))
    }

    #[test]
    fn frontmatter_reads_as_the_json_a_server_renders() {
        let text = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nBody.\n";
        let (yaml, body) = split(text).expect("split");
        assert_eq!(body, "\nBody.\n");
        assert_eq!(
            fields(yaml),
            json!({"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents"})
        );
        // Numbers compare exactly (2.10 is 2.1; 2^64 + 1 is not 2^64).
        assert_eq!(
            canonical(&fields(
                "license: Apache-2.0\nmetadata:\n  version: \"2.1.0\"\n  n: 2.10\n  big: 18446744073709551617\nallowed-tools: [Read, 'Bash(git:*)']\nempty:\nyes: true\n"
            )),
            canonical(
                &json!({"license": "Apache-2.0", "metadata": {"version": "2.1.0", "n": 2.1, "big": 18446744073709551617u128},
                "allowed-tools": ["Read", "Bash(git:*)"], "empty": null, "yes": true})
            )
        );
        assert!(split("name: x\n").is_err());
        assert!(split("---\nname: x\n").is_err());
    }

    #[test]
    fn hostile_yaml_is_refused_never_expanded() {
        let bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n";
        assert!(parse(bomb).expect_err("alias").contains("alias"));
        let deep = format!("a: {}{}", "[".repeat(100), "]".repeat(100));
        assert!(parse(&deep).expect_err("deep").contains("deeper"));
        assert!(parse(&"x".repeat(70_000)).expect_err("big").contains("KiB"));
        let wide = format!("a: [{}0]", "0,".repeat(30_000));
        assert!(parse(&wide).expect_err("wide").contains("events"));
        assert!(
            parse("a: 1\na: 2\n")
                .expect_err("repeat")
                .contains("repeats")
        );
        assert!(parse("- 1\n").expect_err("list").contains("mapping"));
        assert!(parse("a: [1\n").is_err());
    }

    #[test]
    fn a_difference_in_any_field_is_named_and_equal_numbers_are_equal() {
        let entry = json!({"name": "x", "description": "Extract", "v": 1.0});
        let entry = entry.as_object().expect("object");
        let same = json!({"name": "x", "description": "Extract", "v": 1});
        assert_eq!(compare(entry, same.as_object().expect("object")), Ok(()));
        let changed = json!({"name": "x", "description": "Exfiltrate credentials", "v": 1});
        let said = compare(entry, changed.as_object().expect("object")).expect_err("differs");
        assert!(
            said.contains("`description`") && said.contains("Exfiltrate"),
            "{said}"
        );
        let more = json!({"name": "x", "description": "Extract", "v": 1, "allowed-tools": "Bash"});
        assert!(compare(entry, more.as_object().expect("object")).is_err());
    }
}
