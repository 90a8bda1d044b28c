//! Objects that hold a key twice. JSON parsers keep one of the values silently (serde_json the
//! last), so what the inspector shows may differ from what another client reads: the connection
//! says where. The byte scan that bounds every message counts its keys ([`crate::mcp::transport::lines`]); only
//! when the parsed message holds fewer is it read again here to name them.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::collections::HashSet;

/// Places named in one notice at most.
const MAX_NAMED: usize = 10;

/// Object keys held in a parsed value (duplicates already merged). Iterative.
pub fn keys_in(value: &Value) -> usize {
    let mut keys = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                keys += map.len();
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    keys
}

/// The notice for a message whose objects hold keys twice: each place as a JSON Pointer with
/// the key, escaped for the terminal.
pub fn notice(json: &[u8]) -> String {
    let mut found = Vec::new();
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let _ = Scan {
        pointer: String::new(),
        found: &mut found,
    }
    .deserialize(&mut deserializer);
    let total = found.len();
    let mut places: Vec<String> = found.into_iter().take(MAX_NAMED).collect();
    if total > MAX_NAMED {
        places.push(format!("{} more", total - MAX_NAMED));
    }
    crate::untrusted::line(
        &format!(
            "the server sent a message with a key twice in one object (the last value is shown; other clients may read the first): {}",
            places.join(", ")
        ),
        2_000,
    )
    .into_owned()
}

/// Walks a message without building it, noting repeated keys by pointer.
struct Scan<'a> {
    pointer: String,
    found: &'a mut Vec<String>,
}

/// The key serde_json uses for a number kept as written (`arbitrary_precision`).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

impl<'de> DeserializeSeed<'de> for Scan<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scan<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            let child = Scan {
                pointer: format!("{}/{index}", self.pointer),
                found: &mut *self.found,
            };
            if seq.next_element_seed(child)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == NUMBER_TOKEN {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let pointer = format!(
                "{}/{}",
                self.pointer,
                key.replace('~', "~0").replace('/', "~1")
            );
            if !seen.insert(key.clone()) {
                self.found.push(format!(
                    "`{key}` twice at {}",
                    if self.pointer.is_empty() {
                        "/"
                    } else {
                        &self.pointer
                    }
                ));
            }
            map.next_value_seed(Scan {
                pointer,
                found: &mut *self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_named_by_place() {
        let text = br#"{"id":1,"result":{"a":1,"b":[{"x":1,"x":2}],"a":3},"n":1e400}"#;
        let parsed: Value = serde_json::from_slice(text).expect("json");
        assert_eq!(keys_in(&parsed), 6, "two keys merged");
        let notice = notice(text);
        assert!(notice.contains("`x` twice at /result/b/0"), "{notice}");
        assert!(notice.contains("`a` twice at /result"), "{notice}");
        assert!(!notice.contains("`n`"), "{notice}");
    }
}
