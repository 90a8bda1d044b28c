//! A tool's schema held as compact JSON text until something reads it, then parsed once. A
//! gateway lists thousands of tools and a person opens a few: text is a fraction of the memory
//! of parsed JSON (every object a hash map, every value 80 bytes).

use serde_json::Value;
use std::fmt;
use std::ops::Deref;
use std::sync::OnceLock;

/// Nesting beyond which a schema is kept parsed: text is read back under serde_json's nesting
/// limit of 128, and a schema must never come back different.
const TEXT_DEPTH: usize = 100;

/// A schema as the server sent it (keys in order, numbers as written); derefs to its JSON.
#[derive(Clone)]
pub struct Schema {
    text: Option<Box<str>>,
    parsed: OnceLock<Value>,
}

impl Schema {
    pub fn new(value: &Value) -> Schema {
        if depth_within(value, TEXT_DEPTH)
            && let Ok(text) = serde_json::to_string(value)
        {
            return Schema {
                text: Some(text.into_boxed_str()),
                parsed: OnceLock::new(),
            };
        }
        Schema {
            text: None,
            parsed: OnceLock::from(compact(value)),
        }
    }

    /// The schema as JSON, owned: parsed now if it was not yet, never copied.
    pub fn into_value(mut self) -> Value {
        self.value();
        self.parsed.take().unwrap_or_default()
    }

    /// The schema as JSON, without keeping what was parsed for it: a caller that reads a
    /// schema once (`verify`, tool after tool) leaves none of them parsed behind it.
    pub fn read_once(&self) -> std::borrow::Cow<'_, Value> {
        match (self.parsed.get(), &self.text) {
            (None, Some(text)) => match serde_json::from_str(text) {
                Ok(value) => std::borrow::Cow::Owned(value),
                Err(_) => std::borrow::Cow::Borrowed(self.value()),
            },
            _ => std::borrow::Cow::Borrowed(self.value()),
        }
    }

    /// The schema as JSON (parsed on first use).
    pub fn value(&self) -> &Value {
        self.parsed.get_or_init(|| {
            // Our own serialisation within the nesting limit: reading it back cannot fail.
            self.text
                .as_deref()
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or_default()
        })
    }
}

impl Deref for Schema {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.value()
    }
}

impl PartialEq for Schema {
    /// The same text is the same schema (key order included); else the JSON is compared.
    fn eq(&self, other: &Schema) -> bool {
        match (&self.text, &other.text) {
            (Some(a), Some(b)) => a == b,
            _ => self.value() == other.value(),
        }
    }
}

impl serde::Serialize for Schema {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(serializer)
    }
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.text {
            Some(text) => write!(f, "Schema({text})"),
            None => write!(f, "Schema({:?})", self.value()),
        }
    }
}

/// Whether no array or object in `value` is nested deeper than `limit`.
fn depth_within(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 1usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Object(map) => Box::new(map.values()),
            Value::Array(items) => Box::new(items.iter()),
            _ => continue,
        };
        if depth > limit {
            return false;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    true
}

/// A deep copy with every object and array at its exact size. A decoded object keeps room for
/// more keys than it holds.
pub fn compact(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = serde_json::Map::with_capacity(map.len());
            for (key, value) in map {
                out.insert(key.clone(), compact(value));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(compact).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schema_read_once_is_not_kept_parsed() {
        let value = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let schema = Schema::new(&value);
        assert_eq!(*schema.read_once(), value);
        assert!(schema.parsed.get().is_none(), "nothing kept");
        assert_eq!(*schema.value(), value);
        assert!(matches!(schema.read_once(), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn a_schema_comes_back_exactly_as_sent() {
        let text = r#"{"type":"object","properties":{"z":{"maximum":18446744073709551617},"a":{"minimum":-0,"multipleOf":1e-400}}}"#;
        let value: Value = serde_json::from_str(text).expect("json");
        let schema = Schema::new(&value);
        assert!(format!("{schema:?}").contains("18446744073709551617"));
        assert_eq!(serde_json::to_string(&*schema).expect("json"), text);
        assert_eq!(schema, Schema::new(&value));
    }

    #[test]
    fn a_schema_too_deep_to_read_back_is_kept_parsed() {
        let mut deep = serde_json::json!({"type": "string"});
        for _ in 0..150 {
            deep = serde_json::json!({"items": deep});
        }
        let schema = Schema::new(&deep);
        assert!(format!("{schema:?}").starts_with("Schema(Object"));
        assert_eq!(*schema, deep);
    }
}
