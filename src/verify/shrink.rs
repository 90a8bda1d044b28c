//! Smaller inputs than one that failed, in passes: first each value alone, the most shrinking
//! first (integers toward zero: half the way, then a quarter, … then one; strings and arrays
//! shorter: halves, then smaller pieces, then one element or character at a time; optional
//! properties dropped), then two properties at once (a failure that needs `a > b` stops one
//! value at a time at a local minimum). The caller keeps a candidate that is still valid and
//! still fails, and starts again from the first pass, until no pass gives one: only then is
//! the input the smallest these passes reach. Pure.

use serde_json::{Map, Value, json};

/// Candidates made per value at most (a round of shrinking tries at most these).
const MAX_CANDIDATES: usize = 200;

/// Smaller values than `value`, the most shrinking first.
pub fn candidates(value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match value {
        Value::Bool(true) => out.push(json!(false)),
        Value::Number(n) => out.extend(numbers(n)),
        Value::String(s) => {
            let chars: Vec<char> = s.chars().collect();
            out.extend(
                pieces(&chars)
                    .into_iter()
                    .map(|c| json!(c.into_iter().collect::<String>())),
            );
        }
        Value::Array(items) => {
            out.extend(pieces(items).into_iter().map(Value::Array));
            for (i, item) in items.iter().enumerate() {
                for smaller in candidates(item) {
                    let mut copy = items.clone();
                    copy[i] = smaller;
                    out.push(Value::Array(copy));
                }
            }
        }
        Value::Object(map) => {
            for key in map.keys() {
                let mut copy = map.clone();
                copy.shift_remove(key);
                out.push(Value::Object(copy));
            }
            for (key, inner) in map {
                for smaller in candidates(inner) {
                    let mut copy: Map<String, Value> = map.clone();
                    copy.insert(key.clone(), smaller);
                    out.push(Value::Object(copy));
                }
            }
        }
        _ => {}
    }
    out.truncate(MAX_CANDIDATES);
    out
}

/// The second pass: two properties of an object shrunk together, each to one of its few most
/// shrinking candidates.
pub fn pairs(value: &Value) -> Vec<Value> {
    let Value::Object(map) = value else {
        return Vec::new();
    };
    let firsts: Vec<(&String, Vec<Value>)> = map
        .iter()
        .map(|(k, v)| (k, candidates(v).into_iter().take(3).collect()))
        .collect();
    let mut out = Vec::new();
    for (i, (a, smaller_a)) in firsts.iter().enumerate() {
        for (b, smaller_b) in &firsts[i + 1..] {
            for x in smaller_a {
                for y in smaller_b {
                    let mut copy = map.clone();
                    copy.insert((*a).clone(), x.clone());
                    copy.insert((*b).clone(), y.clone());
                    out.push(Value::Object(copy));
                    if out.len() >= MAX_CANDIDATES {
                        return out;
                    }
                }
            }
        }
    }
    out
}

/// A number toward zero: zero, then the number less half its distance, a quarter, … one.
fn numbers(n: &serde_json::Number) -> Vec<Value> {
    if let Some(i) = n.as_i64() {
        if i == 0 {
            return Vec::new();
        }
        let mut out = vec![json!(0)];
        let mut step = i / 2;
        while step != 0 {
            out.push(json!(i - step));
            step /= 2;
        }
        out.push(json!(i - i.signum()));
        out.dedup();
        return out;
    }
    match n.as_f64() {
        Some(f) if f != 0.0 && f.is_finite() => {
            let mut out = vec![json!(0), json!(f.trunc() as i64)];
            out.extend(serde_json::Number::from_f64(f / 2.0).map(Value::Number));
            out
        }
        _ => Vec::new(),
    }
}

/// Shorter sequences: empty, then each piece of half the length removed, then a quarter, …
/// then each single element removed.
fn pieces<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.is_empty() {
        return Vec::new();
    }
    let mut out = vec![Vec::new()];
    let mut size = items.len() / 2;
    while size > 0 {
        for start in (0..items.len()).step_by(size) {
            let mut shorter = items[..start].to_vec();
            shorter.extend_from_slice(&items[(start + size).min(items.len())..]);
            out.push(shorter);
            if out.len() >= MAX_CANDIDATES {
                return out;
            }
        }
        size /= 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shrinks `start` greedily while `fails` holds, in passes, as `verify` does with the
    /// server.
    fn shrink(start: Value, fails: impl Fn(&Value) -> bool) -> Value {
        let mut now = start;
        'again: loop {
            for pass in [candidates, pairs] {
                for candidate in pass(&now) {
                    if fails(&candidate) {
                        now = candidate;
                        continue 'again;
                    }
                }
            }
            return now;
        }
    }

    #[test]
    fn two_values_that_must_shrink_together_do() {
        // Fails while a == b and both pass 100: one value at a time cannot move either (the
        // other no longer equals it), so it stops where it started; pairs bring both down.
        let equal = |v: &Value| match (v["a"].as_i64(), v["b"].as_i64()) {
            (Some(a), Some(b)) => a == b && a > 100,
            _ => false,
        };
        let start = json!({"a": 5000, "b": 5000});
        assert!(candidates(&start).iter().all(|c| !equal(c)), "stuck alone");
        let in_passes = shrink(start, equal);
        let a = in_passes["a"].as_i64().expect("a");
        assert!(equal(&in_passes) && a < 200, "{in_passes}");
    }

    #[test]
    fn integers_shrink_to_the_threshold_and_strings_to_the_character() {
        let above = |v: &Value| v["n"].as_i64().is_some_and(|n| n > 500);
        assert_eq!(shrink(json!({"n": 10000}), above), json!({"n": 501}));
        let below = |v: &Value| v["n"].as_i64().is_some_and(|n| n < -37);
        assert_eq!(
            shrink(json!({"n": -2147483648i64}), below),
            json!({"n": -38})
        );
        let tilde = |v: &Value| v["text"].as_str().is_some_and(|s| s.contains('~'));
        assert_eq!(
            shrink(json!({"text": "ab c~!xyz", "extra": [1, 2]}), |v| tilde(v)),
            json!({"text": "~"})
        );
        let long = |v: &Value| v["items"].as_array().is_some_and(|a| a.len() >= 3);
        assert_eq!(
            shrink(json!({"items": [5, 6, 7, 8, 9]}), long),
            json!({"items": [0, 0, 0]})
        );
    }
}
