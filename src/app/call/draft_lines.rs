//! Where each value of a JSON text starts: its instance path and line, so argument violations
//! can name the line of the draft they are on. A lenient scanner; invalid JSON just maps less. Pure.

use crate::schema::refs::escape_segment;

enum Frame {
    Object { key: Option<String> },
    Array { index: usize },
}

/// `(instance path, 1-based line)` for every value in `text`, in order.
pub fn value_lines(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    let path = |stack: &[Frame]| -> String {
        stack
            .iter()
            .map(|f| match f {
                Frame::Object { key } => {
                    format!("/{}", escape_segment(key.as_deref().unwrap_or("")))
                }
                Frame::Array { index } => format!("/{index}"),
            })
            .collect()
    };
    // In an object, a string is a key until its ':' is seen.
    let mut expecting_key = false;
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '{' | '[' => {
                out.push((path(&stack), line));
                stack.push(if c == '{' {
                    Frame::Object { key: None }
                } else {
                    Frame::Array { index: 0 }
                });
                expecting_key = c == '{';
            }
            '}' | ']' => {
                stack.pop();
            }
            ',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { .. }) => expecting_key = true,
                None => {}
            },
            ':' => expecting_key = false,
            '"' => {
                let mut s = String::new();
                while let Some(d) = chars.next() {
                    match d {
                        '"' => break,
                        '\\' => {
                            if let Some(e) = chars.next() {
                                s.push(e);
                            }
                        }
                        '\n' => line += 1,
                        d => s.push(d),
                    }
                }
                if expecting_key {
                    if let Some(Frame::Object { key }) = stack.last_mut() {
                        *key = Some(s);
                    }
                } else {
                    out.push((path(&stack), line));
                }
            }
            c if c.is_whitespace() => {}
            _ => {
                // A number, true, false or null: record it once, at its first character.
                out.push((path(&stack), line));
                while chars
                    .peek()
                    .is_some_and(|d| !matches!(d, ',' | '}' | ']' | '\n') && !d.is_whitespace())
                {
                    chars.next();
                }
            }
        }
    }
    out
}

/// The line of the value at `instance_path`, or of its nearest enclosing value.
pub fn line_of(map: &[(String, usize)], instance_path: &str) -> Option<usize> {
    let mut path = instance_path.to_string();
    loop {
        if let Some((_, line)) = map.iter().find(|(p, _)| *p == path) {
            return Some(*line);
        }
        let cut = path.rfind('/')?;
        path.truncate(cut);
    }
}

/// Where to start typing in a skeleton: in the value of the first property named in
/// `required` (inside the quotes of an empty string), else of the first property; `(row,
/// column)`, 0-based, the column in characters. `None` when the text has no property.
pub fn first_blank(text: &str, required: &[&str]) -> Option<(usize, usize)> {
    let top: Vec<(String, usize)> = value_lines(text)
        .into_iter()
        .filter(|(path, _)| path.len() > 1 && path.matches('/').count() == 1)
        .collect();
    let named = |name: &&str| {
        let segment = format!("/{}", escape_segment(name));
        top.iter().find(|(path, _)| *path == segment)
    };
    let (_, line_number) = required.iter().find_map(named).or(top.first())?;
    let row = line_number - 1;
    let line = text.lines().nth(row)?;
    // The value starts after the key's closing quote, the colon and a space.
    let value = line.find("\": ")? + 3;
    let column = if line[value..].starts_with("\"\"") {
        value + 1
    } else {
        value
    };
    Some((row, line[..column].chars().count()))
}

/// A line's value as written after its key (`  "mode": "fast",` gives `"fast"`), or the line
/// itself in an array; `None` when it is not a whole scalar.
pub fn scalar_on(line: &str) -> Option<serde_json::Value> {
    let value = value_part(line)?.trim_end().trim_end_matches(',');
    serde_json::from_str::<serde_json::Value>(value)
        .ok()
        .filter(|v| !v.is_object() && !v.is_array())
}

/// `line` with its scalar value replaced by `json` (its key, indent and trailing comma kept).
pub fn with_value(line: &str, json: &str) -> Option<String> {
    scalar_on(line)?;
    let value = value_part(line)?;
    let comma = if value.trim_end().ends_with(',') {
        ","
    } else {
        ""
    };
    let head = &line[..line.len() - value.len()];
    Some(format!("{head}{json}{comma}"))
}

/// The part of a draft line after its key and colon (the whole trimmed line for an array
/// item).
fn value_part(line: &str) -> Option<&str> {
    let rest = line.trim_start();
    if !rest.starts_with('"') {
        return Some(rest);
    }
    // The key: a JSON string, its escapes skipped.
    let mut escaped = false;
    let mut end = None;
    for (i, c) in rest.char_indices().skip(1) {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => {
                end = Some(i);
                break;
            }
            _ => {}
        }
    }
    let after = rest[end? + 1..].trim_start();
    // A string alone on its line is an array item, not a key.
    match after.strip_prefix(':') {
        Some(value) => Some(value.trim_start()),
        None => Some(rest),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_value_is_found_and_replaced_keeping_key_and_comma() {
        use serde_json::json;
        assert_eq!(
            super::scalar_on("  \"mode\": \"fast\","),
            Some(json!("fast"))
        );
        assert_eq!(super::scalar_on("    \"b\","), Some(json!("b")));
        assert_eq!(super::scalar_on("  \"opts\": {"), None);
        assert_eq!(
            super::with_value("  \"a\\\": b\": true,", "false"),
            Some("  \"a\\\": b\": false,".into())
        );
        assert_eq!(super::with_value("    2", "3"), Some("    3".into()));
        assert_eq!(super::with_value("  \"o\": [", "1"), None);
    }

    #[test]
    fn typing_starts_in_the_first_required_value() {
        let text = "{\n  \"limit\": 10,\n  \"query\": \"\",\n  \"tags\": []\n}";
        assert_eq!(super::first_blank(text, &["query"]), Some((2, 12)));
        // None required: the first property, at its value.
        assert_eq!(super::first_blank(text, &[]), Some((1, 11)));
        assert_eq!(super::first_blank(text, &["absent", "tags"]), Some((3, 10)));
        assert_eq!(super::first_blank("{}", &["query"]), None);
    }

    use super::*;

    #[test]
    fn values_map_to_their_lines() {
        let text = "{\n  \"query\": \"\",\n  \"filters\": {\n    \"tags\": [\"a\", 2]\n  },\n  \"n\": -1\n}";
        let map = value_lines(text);
        assert_eq!(line_of(&map, ""), Some(1));
        assert_eq!(line_of(&map, "/query"), Some(2));
        assert_eq!(line_of(&map, "/filters/tags/1"), Some(4));
        assert_eq!(line_of(&map, "/n"), Some(6));
        assert_eq!(
            line_of(&map, "/missing"),
            Some(1),
            "falls back to the enclosing value"
        );
    }
}
