//! A result value as a tree of rows (keys and indexes, scalars summarised, containers counted)
//! for the call panel: expand and collapse, a cursor, violations found by instance path, and the
//! JSON Pointer and jq path of any row. Bounded. Pure.

use crate::app::outline::Nodes;
use crate::app::protocol::written_json::{self, Written};
use crate::schema::refs::escape_segment;
use serde_json::Value;
use std::collections::HashSet;

/// Rows built before the rest of a huge value is left out (with a note row).
pub const MAX_ROWS: usize = 200_000;
/// Values with at most this many rows start fully open.
const OPEN_ALL_BELOW: usize = 400;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRow {
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// `"key"` or `[i]`; `None` for the root.
    pub label: Option<String>,
    /// JSON Pointer within structuredContent (so it matches violations' instance paths).
    pub pointer: String,
    /// jq path from the `mcp-inspect call` output, e.g. `.structuredContent.items[1]`.
    pub jq: String,
    /// A scalar as JSON, or `{3 keys}` / `[2 items]`.
    pub summary: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValueTree {
    pub rows: Vec<ValueRow>,
    pub truncated: bool,
}

fn jq_key(key: &str) -> String {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        format!(".{key}")
    } else {
        // A JSON string literal with every invisible or control character `\u`-escaped (jq reads it).
        format!(
            "[{}]",
            crate::untrusted::json(&Value::String(key.to_string()), false)
        )
    }
}

impl ValueTree {
    /// `base` is the pointer of `value` inside structuredContent (`/result` for an unboxed value).
    pub fn build(value: &Value, base: &str) -> ValueTree {
        let base_jq = base
            .split('/')
            .skip(1)
            .map(|s| jq_key(&s.replace("~1", "/").replace("~0", "~")))
            .collect::<String>();
        ValueTree::build_rooted(value, base, &format!(".structuredContent{base_jq}"))
    }

    /// A tree whose root has the pointer `base` and the jq path `jq` (a resource's JSON text:
    /// `(.contents[0].text | fromjson)`).
    pub fn build_rooted(value: &Value, base: &str, jq: &str) -> ValueTree {
        let mut tree = ValueTree::default();
        tree.add(
            Source::Parsed(value),
            None,
            None,
            base.to_string(),
            jq.to_string(),
        );
        tree
    }

    /// The tree of a JSON text as it was written: numbers as their text, every repeated key
    /// its own row (marked); `None` when the text is not JSON.
    pub fn build_written(text: &str, base: &str, jq: &str) -> Option<ValueTree> {
        let written = written_json::read(text)?;
        let mut tree = ValueTree::default();
        tree.add(
            Source::Written(&written),
            None,
            None,
            base.to_string(),
            jq.to_string(),
        );
        Some(tree)
    }

    fn add(
        &mut self,
        value: Source,
        parent: Option<usize>,
        label: Option<String>,
        pointer: String,
        jq: String,
    ) {
        if self.rows.len() >= MAX_ROWS {
            self.truncated = true;
            return;
        }
        let (summary, children) = value.open();
        let id = self.rows.len();
        self.rows.push(ValueRow {
            parent,
            children: Vec::new(),
            label,
            pointer: pointer.clone(),
            jq: jq.clone(),
            summary,
        });
        if let Some(p) = parent {
            self.rows[p].children.push(id);
        }
        for child in children {
            let (segment, jq_step) = match &child.key {
                Key::Name(k) => (escape_segment(k), jq_key(k)),
                Key::Index(i) => (i.to_string(), format!("[{i}]")),
            };
            self.add(
                child.value,
                Some(id),
                Some(child.label),
                format!("{pointer}/{segment}"),
                format!("{jq}{jq_step}"),
            );
        }
    }

    /// The whole tree as an outline part, with these rows open.
    pub fn part<'a>(&'a self, open: &'a HashSet<usize>) -> crate::app::outline::Part<'a> {
        crate::app::outline::Part {
            nodes: self,
            root: 0,
            open,
        }
    }

    /// The rows open at first: everything for small values, else the root and its children.
    pub fn default_open(&self) -> HashSet<usize> {
        if self.rows.len() <= OPEN_ALL_BELOW {
            (0..self.rows.len())
                .filter(|i| !self.rows[*i].children.is_empty())
                .collect()
        } else {
            std::iter::once(0).collect()
        }
    }
}

/// A value to draw: parsed, or as written.
#[derive(Clone, Copy)]
enum Source<'a> {
    Parsed(&'a Value),
    Written(&'a Written<'a>),
}

/// How a child is reached from its parent.
enum Key {
    Name(String),
    Index(usize),
}

/// A child to draw: how it is reached, its label, its value.
struct Child<'a> {
    key: Key,
    label: String,
    value: Source<'a>,
}

impl<'a> Source<'a> {
    /// The value's summary (a scalar as JSON, or `{3 keys}` / `[2 items]`) and its children.
    fn open(self) -> (String, Vec<Child<'a>>) {
        let keys = |n: usize| format!("{{{n} key{}}}", if n == 1 { "" } else { "s" });
        let items = |n: usize| format!("[{n} item{}]", if n == 1 { "" } else { "s" });
        let item = |(i, value)| Child {
            key: Key::Index(i),
            label: format!("[{i}]"),
            value,
        };
        match self {
            Source::Parsed(Value::Object(map)) => {
                let children = map.iter().map(|(k, v)| Child {
                    key: Key::Name(k.clone()),
                    label: Value::String(k.clone()).to_string(),
                    value: Source::Parsed(v),
                });
                (keys(map.len()), children.collect())
            }
            Source::Parsed(Value::Array(a)) => {
                let children = a.iter().map(Source::Parsed).enumerate().map(item);
                (items(a.len()), children.collect())
            }
            Source::Parsed(scalar) => (scalar.to_string(), Vec::new()),
            Source::Written(Written::Object(members)) => {
                let mut seen = HashSet::new();
                let children = members.iter().map(|(written, v)| {
                    let name = written_json::key(written).unwrap_or_default();
                    // Readers keep one of them (serde_json and JavaScript: the last).
                    let label = match seen.insert(name.clone()) {
                        true => written.to_string(),
                        false => format!("{written} (repeated key)"),
                    };
                    Child {
                        key: Key::Name(name),
                        label,
                        value: Source::Written(v),
                    }
                });
                let children: Vec<Child> = children.collect();
                (keys(children.len()), children)
            }
            Source::Written(Written::Array(a)) => {
                let children = a.iter().map(Source::Written).enumerate().map(item);
                (items(a.len()), children.collect())
            }
            Source::Written(Written::Scalar(text)) => (text.to_string(), Vec::new()),
        }
    }
}

impl ValueRow {
    /// The row as a person reads it: `"key": value` (the value summarised), escaped.
    pub fn text(&self) -> String {
        let key = self
            .label
            .as_deref()
            .map(|l| format!("{}: ", crate::untrusted::line(l, 80)))
            .unwrap_or_default();
        format!("{key}{}", crate::untrusted::line(&self.summary, 400))
    }
}

impl Nodes for ValueTree {
    fn count(&self) -> usize {
        self.rows.len()
    }
    fn children(&self, id: usize) -> &[usize] {
        &self.rows[id].children
    }
    fn parent(&self, id: usize) -> Option<usize> {
        self.rows[id].parent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::outline::{self, Part};
    use serde_json::json;

    #[test]
    fn rows_know_their_pointer_and_jq_path() {
        let t = ValueTree::build(&json!({"items": ["a", 2], "a/b": {"x y": true}}), "");
        let got: Vec<(&str, &str, &str)> = t
            .rows
            .iter()
            .map(|r| (r.pointer.as_str(), r.jq.as_str(), r.summary.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("", ".structuredContent", "{2 keys}"),
                ("/items", ".structuredContent.items", "[2 items]"),
                ("/items/0", ".structuredContent.items[0]", "\"a\""),
                ("/items/1", ".structuredContent.items[1]", "2"),
                ("/a~1b", ".structuredContent[\"a/b\"]", "{1 key}"),
                ("/a~1b/x y", ".structuredContent[\"a/b\"][\"x y\"]", "true"),
            ]
        );
        let boxed = ValueTree::build(&json!([1]), "/result");
        assert_eq!(boxed.rows[1].pointer, "/result/0");
        assert_eq!(boxed.rows[1].jq, ".structuredContent.result[0]");
    }

    #[test]
    fn small_values_open_fully() {
        let t = ValueTree::build(&json!({"a": {"b": [1]}}), "");
        let open = t.default_open();
        assert_eq!(
            outline::rows(&[Part {
                nodes: &t,
                root: 0,
                open: &open
            }])
            .len(),
            4
        );
    }
}
