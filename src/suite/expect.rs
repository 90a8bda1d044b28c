//! A case's result held against its expectations: each one that does not hold, said with what
//! was expected and what came. Pure.

use super::file::Expect;
use crate::value_diff::{cut, differences, shown};
use serde_json::Value;

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

/// Whether two numbers are the same value however written: the verdict's exact number model.
pub use crate::schema::numbers::same_value as same_number;

/// A text quoted as JSON, cut as values are.
fn quoted(text: &str) -> String {
    cut(&Value::String(text.to_string()).to_string())
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
