//! A JSON value as pretty-printed lines, each knowing the instance path it shows, so violations
//! can be marked on the line where they occur. Bounded; strings are escaped at draw time. Pure.

use crate::schema::refs::escape_segment;
use serde_json::Value;

/// Lines rendered before the rest is summarised.
pub const MAX_LINES: usize = 20_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonLine {
    /// JSON Pointer of the value this line shows (a container's closing line shows the container).
    pub path: String,
    pub depth: usize,
    pub text: String,
}

pub fn json_lines(value: &Value) -> Vec<JsonLine> {
    let mut out = Vec::new();
    push(value, None, &mut String::new(), 0, true, &mut out);
    if out.len() > MAX_LINES {
        let more = out.len() - MAX_LINES;
        out.truncate(MAX_LINES);
        out.push(JsonLine {
            path: String::new(),
            depth: 0,
            text: format!("… {more} more lines (copy the value to see all)"),
        });
    }
    out
}

fn push(
    value: &Value,
    key: Option<&str>,
    path: &mut String,
    depth: usize,
    last: bool,
    out: &mut Vec<JsonLine>,
) {
    if out.len() > MAX_LINES {
        return;
    }
    let prefix = key
        .map(|k| format!("{}: ", Value::String(k.to_string())))
        .unwrap_or_default();
    let comma = if last { "" } else { "," };
    let line = |text: String, out: &mut Vec<JsonLine>, path: &str| {
        out.push(JsonLine {
            path: path.to_string(),
            depth,
            text,
        })
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            line(format!("{prefix}{{"), out, path);
            let n = map.len();
            for (i, (k, v)) in map.iter().enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&escape_segment(k));
                push(v, Some(k), path, depth + 1, i + 1 == n, out);
                path.truncate(len);
            }
            line(format!("}}{comma}"), out, path);
        }
        Value::Array(items) if !items.is_empty() => {
            line(format!("{prefix}["), out, path);
            let n = items.len();
            for (i, v) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                push(v, None, path, depth + 1, i + 1 == n, out);
                path.truncate(len);
            }
            line(format!("]{comma}"), out, path);
        }
        scalar => line(format!("{prefix}{scalar}{comma}"), out, path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines_carry_their_instance_paths() {
        let lines = json_lines(&json!({"count": -3, "items": ["a", 2], "a/b": {}}));
        let got: Vec<(&str, &str)> = lines
            .iter()
            .map(|l| (l.path.as_str(), l.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("", "{"),
                ("/count", "\"count\": -3,"),
                ("/items", "\"items\": ["),
                ("/items/0", "\"a\","),
                ("/items/1", "2"),
                ("/items", "],"),
                ("/a~1b", "\"a/b\": {}"),
                ("", "}"),
            ]
        );
        assert_eq!(lines[3].depth, 2);
    }

    #[test]
    fn falsy_scalars_are_lines_too() {
        for v in [json!(0), json!(false), json!(""), json!(null)] {
            assert_eq!(json_lines(&v).len(), 1);
        }
    }
}
