//! Numbers 64 bits cannot hold. Messages keep every number as the server wrote it (serde_json's
//! `arbitrary_precision`), so `-0`, `18446744073709551617` and `1e-400` are shown and copied
//! exactly; the validator still compares numbers as 64-bit integers or doubles. Where such a
//! number meets a keyword that compares numbers, the verdict says so instead of judging quietly.
//! Pure.
//!
//! How: a [`WATCH`] keyword is compiled beside every numeric keyword (see [`WATCHED_AT`]); it
//! only raises a flag when its instance is a number the validator would round. Only then is the
//! instance searched for such numbers, so ordinary results cost nothing more.

use serde_json::{Number, Value};
use std::cell::Cell;

/// The keyword put beside numeric keywords in the compiled copy.
pub const WATCH: &str = "x-mcp-inspect-numbers";

/// Keywords that compare an instance number with the schema's.
pub const WATCHED_AT: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "const",
    "enum",
];

/// Numbers named in one verdict at most.
const MAX_NAMED: usize = 20;

thread_local! {
    static MET: Cell<bool> = const { Cell::new(false) };
}

/// Why 64 bits cannot hold `n` exactly, or `None` when they can (every 64-bit integer, and
/// every decimal whose double is its usual nearest value).
pub fn lossy(n: &Number) -> Option<&'static str> {
    if n.is_i64() || n.is_u64() {
        return None;
    }
    let text = n.to_string();
    let double: f64 = text.parse().ok()?;
    if !double.is_finite() {
        Some("beyond the range of a double")
    } else if double == 0.0 && mantissa(&text).bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        Some("too small for a double: rounds to 0")
    } else if !text.contains(['.', 'e', 'E']) {
        Some("an integer beyond 64 bits: rounded")
    } else {
        None
    }
}

fn mantissa(text: &str) -> &str {
    text.split(['e', 'E']).next().unwrap_or(text)
}

/// Clears the flag before a validation on this thread.
pub fn reset() {
    MET.with(|m| m.set(false));
}

/// Whether a watched keyword met a lossy number since [`reset`] on this thread.
pub fn met() -> bool {
    MET.with(Cell::get)
}

/// The watch keyword: never fails, only raises the flag.
struct Watch;

impl Watch {
    fn look(instance: &Value) {
        if let Value::Number(n) = instance
            && lossy(n).is_some()
        {
            MET.with(|m| m.set(true));
        }
    }
}

impl<'i> jsonschema::Keyword<'i> for Watch {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        Watch::look(instance);
        Ok(())
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        Watch::look(instance);
        true
    }

    fn iter_errors(
        &self,
        instance: &'i Value,
    ) -> Box<dyn Iterator<Item = jsonschema::ValidationError<'i>> + 'i> {
        Watch::look(instance);
        Box::new(std::iter::empty())
    }
}

/// Options that compile the [`WATCH`] keyword.
pub fn with_watch(options: jsonschema::ValidationOptions) -> jsonschema::ValidationOptions {
    options.with_keyword(WATCH, |_, _, _| Ok(Box::new(Watch)))
}

/// One note per number of `instance` that 64 bits cannot hold (at most [`MAX_NAMED`], then a
/// count), each with its JSON Pointer. Iterative.
pub fn notes(instance: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let mut more = 0usize;
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), instance)];
    while let Some((pointer, value)) = stack.pop() {
        match value {
            Value::Number(n) => {
                if let Some(why) = lossy(n) {
                    if found.len() < MAX_NAMED {
                        found.push(format!(
                            "{} at {}: {why}; judged as a 64-bit number",
                            n,
                            crate::untrusted::line(
                                if pointer.is_empty() { "/" } else { &pointer },
                                200
                            )
                        ));
                    } else {
                        more += 1;
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push((format!("{pointer}/{i}"), item));
                }
            }
            Value::Object(map) => {
                let children: Vec<_> = map
                    .iter()
                    .map(|(k, v)| (format!("{pointer}/{}", escape(k)), v))
                    .collect();
                stack.extend(children.into_iter().rev());
            }
            _ => {}
        }
    }
    if more > 0 {
        found.push(format!("{more} more such numbers"));
    }
    found
}

/// A key as a JSON Pointer token (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> Number {
        serde_json::from_str(text).expect("number")
    }

    #[test]
    fn only_numbers_64_bits_cannot_hold_are_lossy() {
        for exact in [
            "0",
            "-0",
            "42",
            "-9223372036854775808",
            "18446744073709551615",
            "0.1",
            "1e300",
            "2.5e-300",
        ] {
            assert_eq!(lossy(&number(exact)), None, "{exact}");
        }
        assert_eq!(
            lossy(&number("18446744073709551617")),
            Some("an integer beyond 64 bits: rounded")
        );
        assert_eq!(
            lossy(&number("1e-400")),
            Some("too small for a double: rounds to 0")
        );
        assert_eq!(
            lossy(&number("-1e400")),
            Some("beyond the range of a double")
        );
        assert_eq!(
            lossy(&number("0e-999")),
            None,
            "a zero written small is still zero"
        );
    }

    #[test]
    fn notes_name_each_lossy_number_with_its_pointer() {
        let instance: Value =
            serde_json::from_str(r#"{"a/b": [1, 1e400], "c": 18446744073709551617, "d": 0.5}"#)
                .expect("json");
        let notes = notes(&instance);
        assert_eq!(notes.len(), 2, "{notes:?}");
        // serde_json writes the exponent with its sign: only its form changes.
        assert!(
            notes[0].starts_with("1e+400 at /a~1b/1: beyond"),
            "{notes:?}"
        );
        assert!(
            notes[1].starts_with("18446744073709551617 at /c: an integer"),
            "{notes:?}"
        );
    }
}
