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
use std::cell::{Cell, RefCell};

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
    "type",
    "uniqueItems",
];

/// Numbers named in one verdict at most.
const MAX_NAMED: usize = 20;

thread_local! {
    static MET: Cell<bool> = const { Cell::new(false) };
    /// Instances (by address) a watched keyword judged exactly (to pass, or failing with the
    /// watch's own error): the validator's rounded verdict on them for that keyword is dropped.
    static SETTLED: RefCell<Vec<(usize, &'static str)>> = const { RefCell::new(Vec::new()) };
    /// Keywords that met a number 64 bits cannot hold and could not be compared exactly.
    static UNJUDGED: RefCell<Vec<(usize, &'static str)>> = const { RefCell::new(Vec::new()) };
}

/// Why 64 bits cannot hold `n` exactly, or `None` when they can: every 64-bit integer, and
/// every decimal that reads back from its double as itself (`0.1`). A number that two
/// different decimals could round to (`1.00000000000000000001`, a 29-digit integer) is lossy.
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
    } else if significant_digits(&text) <= 15 || {
        // A double's own shortest digits (what serializers write) read back as themselves.
        let shortest = double.to_string();
        shortest == text || Decimal::parse(&text) == Decimal::parse(&shortest)
    } {
        // Up to 15 significant digits a decimal always reads back from its double (DBL_DIG).
        None
    } else if !text.contains(['.', 'e', 'E']) {
        Some("an integer beyond 64 bits: rounded")
    } else {
        Some("more digits than a double holds: rounded")
    }
}

fn mantissa(text: &str) -> &str {
    text.split(['e', 'E']).next().unwrap_or(text)
}

/// Digits of a number's mantissa from its first non-zero one (trailing zeros counted: cheap
/// and only ever more than the exact count).
fn significant_digits(text: &str) -> usize {
    mantissa(text)
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|d| *d == b'0')
        .count()
}

/// Whether two JSON numbers are the same value however written (`1`, `1.0`, `1e0`; `1e400`,
/// `10e399`), decided on their decimals, never on a rounded copy: `1.00000000000000000002` is
/// not `1.00000000000000000001`. A number whose exponent is past 64 bits is equal only to the
/// same text.
pub fn same_value(a: &Number, b: &Number) -> bool {
    let (x, y) = (a.to_string(), b.to_string());
    x == y || Decimal::parse(&x).is_some_and(|d| Decimal::parse(&y) == Some(d))
}

/// A JSON number exactly: sign, significant digits (no leading or trailing zeros) and the
/// power of ten of the last one. Zero has no digits.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    exponent: i64,
}

impl Decimal {
    fn parse(text: &str) -> Option<Decimal> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match rest.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.trim_start_matches('+').parse::<i64>().ok()?),
            None => (rest, 0),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let mut digits: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut exponent = exponent.checked_sub(i64::try_from(fraction.len()).ok()?)?;
        while digits.last() == Some(&b'0') {
            digits.pop();
            exponent += 1;
        }
        let leading = digits.iter().take_while(|d| **d == b'0').count();
        digits.drain(..leading);
        if digits.is_empty() {
            exponent = 0;
        }
        Some(Decimal {
            negative: negative && !digits.is_empty(),
            digits,
            exponent,
        })
    }

    /// Exact order of two numbers.
    fn cmp(&self, other: &Decimal) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let sign = |d: &Decimal| match (d.digits.is_empty(), d.negative) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        };
        match sign(self).cmp(&sign(other)) {
            Ordering::Equal if sign(self) == 0 => Ordering::Equal,
            Ordering::Equal => {
                let magnitude = self.magnitude(other);
                if self.negative {
                    magnitude.reverse()
                } else {
                    magnitude
                }
            }
            unequal => unequal,
        }
    }

    /// Whether it is an integer (no digit after the decimal point, however written).
    fn is_integer(&self) -> bool {
        self.exponent >= 0 || self.digits.is_empty()
    }

    /// Whether it is a multiple of `divisor`, exactly; `None` when that takes too much
    /// arithmetic (a divisor past 36 digits, exponents far apart) or the divisor is zero.
    fn is_multiple_of(&self, divisor: &Decimal) -> Option<bool> {
        if divisor.digits.is_empty() {
            return None;
        }
        if self.digits.is_empty() {
            return Some(true);
        }
        // Both scaled to integers by the smaller exponent: digits · 10^(exponent - least).
        let least = self.exponent.min(divisor.exponent);
        let widen = |d: &Decimal| usize::try_from(d.exponent - least).ok();
        let (own_zeros, divisor_zeros) = (widen(self)?, widen(divisor)?);
        if divisor.digits.len() + divisor_zeros > 36 || self.digits.len() + own_zeros > 100_000 {
            return None;
        }
        let digits = |d: &Decimal, zeros: usize| {
            d.digits
                .iter()
                .map(|b| u128::from(b - b'0'))
                .chain(std::iter::repeat_n(0, zeros))
                .collect::<Vec<u128>>()
        };
        let by = digits(divisor, divisor_zeros)
            .into_iter()
            .fold(0u128, |acc, d| acc * 10 + d);
        let rest = digits(self, own_zeros)
            .into_iter()
            .fold(0u128, |rest, d| (rest * 10 + d) % by);
        Some(rest == 0)
    }

    /// Order of the absolute values (both non-zero).
    fn magnitude(&self, other: &Decimal) -> std::cmp::Ordering {
        // The power of ten of the leading digit decides first, then the digits in turn.
        let lead = |d: &Decimal| d.exponent + d.digits.len() as i64;
        lead(self).cmp(&lead(other)).then_with(|| {
            let width = self.digits.len().max(other.digits.len());
            let at = |d: &Decimal, i: usize| d.digits.get(i).copied().unwrap_or(b'0');
            (0..width)
                .map(|i| at(self, i).cmp(&at(other, i)))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }
}

/// Clears what the watch keyword found before a validation on this thread.
pub fn reset() {
    MET.with(|m| m.set(false));
    SETTLED.with(|s| s.borrow_mut().clear());
    UNJUDGED.with(|s| s.borrow_mut().clear());
}

/// Whether a watched keyword met a lossy number since [`reset`] on this thread.
pub fn met() -> bool {
    MET.with(Cell::get)
}

/// Whether the watch judged anything exactly (or could not) since [`reset`]: when not, no
/// validator error needs looking at (the common case costs nothing).
pub fn anything_settled() -> bool {
    SETTLED.with(|s| !s.borrow().is_empty()) || UNJUDGED.with(|u| !u.borrow().is_empty())
}

/// Whether the validator's error of `keyword` on the instance at address `at` (see
/// [`watched_number`]) is one the watch judged exactly (to pass) or could not judge: a verdict
/// made on a rounded copy, dropped.
pub fn rounded_verdict(keyword: &str, at: usize) -> bool {
    let found = |list: &RefCell<Vec<(usize, &'static str)>>| {
        list.borrow().iter().any(|(a, k)| *a == at && *k == keyword)
    };
    SETTLED.with(found) || UNJUDGED.with(found)
}

/// A validator error of a watched keyword: the keyword and its instance's address
/// (matched against what the watch judged once all errors came).
pub fn watched_number(error: &jsonschema::ValidationError<'_>) -> Option<(&'static str, usize)> {
    let keyword = WATCHED_AT.iter().find(|k| **k == error.kind().keyword())?;
    match error.instance() {
        std::borrow::Cow::Borrowed(instance) => Some((keyword, *instance as *const Value as usize)),
        std::borrow::Cow::Owned(_) => None,
    }
}

/// The keywords that could not compare a number exactly since [`reset`], for the verdict.
pub fn unjudged() -> Vec<&'static str> {
    UNJUDGED.with(|u| {
        let mut keywords: Vec<&'static str> = u.borrow().iter().map(|(_, k)| *k).collect();
        keywords.sort_unstable();
        keywords.dedup();
        keywords
    })
}

/// A bound of a number: `minimum`, `maximum` and the exclusive ones (draft-04's boolean
/// `exclusiveMinimum`/`exclusiveMaximum` make `minimum`/`maximum` exclusive).
#[derive(Debug)]
struct Bound {
    keyword: &'static str,
    limit: Number,
    /// Whether 64 bits cannot hold the limit (known once, when the schema is compiled).
    lossy: bool,
    lower: bool,
    exclusive: bool,
}

/// The watch keyword: numeric keywords judged again, exactly, wherever the instance or the
/// schema's number is one 64 bits cannot hold. It fails only where the exact comparison does.
#[derive(Debug, Default)]
struct Watch {
    bounds: Vec<Bound>,
    /// `multipleOf`'s divisor, when it is a number.
    multiple_of: Option<Number>,
    /// The values of `const`/`enum` (`None`: neither is there); `const` first when both.
    values: Option<(&'static str, Vec<Value>)>,
    /// Whether one of those values holds a number 64 bits cannot hold (at any depth).
    values_lossy: bool,
    /// Whether `type` makes a number an integer (`integer` named, `number` not).
    integer: bool,
    /// `uniqueItems: true`.
    unique: bool,
    /// Whether any number of the schema here (a bound, a value) is one 64 bits cannot hold.
    schema_lossy: bool,
}

/// Whether the keywords of `map` need the watch beside them: a bound, `multipleOf`, `const`,
/// `enum`, `uniqueItems: true`, or a `type` that names `integer`.
pub fn watches(map: &serde_json::Map<String, Value>) -> bool {
    // The seven keywords that hold a number themselves (`type` and `uniqueItems` only watch
    // for some values).
    WATCHED_AT[..7].iter().any(|k| map.contains_key(*k))
        || map.get("uniqueItems") == Some(&Value::Bool(true))
        || integer_type(map)
}

/// Whether `type` asks a number to be an integer: it names `integer` and not `number`.
fn integer_type(map: &serde_json::Map<String, Value>) -> bool {
    let names = |name: &str| match map.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(list)) => list.iter().any(|t| t == name),
        _ => false,
    };
    names("integer") && !names("number")
}

impl Watch {
    fn from_schema(parent: &serde_json::Map<String, Value>) -> Watch {
        let number = |k: &str| match parent.get(k) {
            Some(Value::Number(n)) => Some(n.clone()),
            _ => None,
        };
        let flag = |k: &str| parent.get(k) == Some(&Value::Bool(true));
        let mut bounds = Vec::new();
        for (keyword, lower, exclusive) in [
            ("minimum", true, flag("exclusiveMinimum")),
            ("maximum", false, flag("exclusiveMaximum")),
            ("exclusiveMinimum", true, true),
            ("exclusiveMaximum", false, true),
        ] {
            if let Some(limit) = number(keyword) {
                bounds.push(Bound {
                    keyword,
                    lossy: lossy(&limit).is_some(),
                    limit,
                    lower,
                    exclusive,
                });
            }
        }
        let values = match (parent.get("const"), parent.get("enum")) {
            (Some(c), _) => Some(("const", vec![c.clone()])),
            (None, Some(Value::Array(list))) => Some(("enum", list.clone())),
            _ => None,
        };
        let values_lossy = values
            .as_ref()
            .is_some_and(|(_, list)| list.iter().any(holds_lossy));
        let multiple_of = number("multipleOf");
        Watch {
            schema_lossy: values_lossy
                || bounds.iter().any(|b| b.lossy)
                || multiple_of.as_ref().is_some_and(|m| lossy(m).is_some()),
            bounds,
            multiple_of,
            values,
            values_lossy,
            integer: integer_type(parent),
            unique: flag("uniqueItems"),
        }
    }

    /// The exact failure of `instance`, if any; what was judged exactly is noted.
    fn judge(&self, instance: &Value) -> Option<String> {
        let at = instance as *const Value as usize;
        let instance_lossy = match instance {
            Value::Number(n) => lossy(n).is_some(),
            Value::Array(_) | Value::Object(_) if self.values.is_some() || self.unique => {
                holds_lossy(instance)
            }
            _ => false,
        };
        if instance_lossy {
            MET.with(|m| m.set(true));
        }
        if !instance_lossy && !self.schema_lossy {
            return None;
        }
        let settled = |keyword: &'static str| SETTLED.with(|s| s.borrow_mut().push((at, keyword)));
        let mut failure = None;
        if let Value::Number(n) = instance {
            failure = self.judge_number(at, n, instance_lossy);
        }
        if let Some((keyword, values)) = &self.values
            && (instance_lossy || self.values_lossy)
        {
            MET.with(|m| m.set(true));
            let exact = canonical(instance);
            if values.iter().any(|v| canonical(v) == exact) {
                settled(keyword);
            } else if failure.is_none() {
                settled(keyword);
                let what = match instance {
                    Value::Number(n) => n.to_string(),
                    _ => "the value".into(),
                };
                failure = Some(format!(
                    "{keyword}|{} is not one of the allowed values (compared exactly)",
                    crate::untrusted::line(&what, 200)
                ));
            }
        }
        if let (true, true, Value::Array(items)) = (self.unique, instance_lossy, instance) {
            let mut seen = std::collections::HashMap::with_capacity(items.len());
            let repeated = items
                .iter()
                .enumerate()
                .find_map(|(i, item)| seen.insert(canonical(item), i).map(|first| (first, i)));
            match repeated {
                None => settled("uniqueItems"),
                Some((first, second)) if failure.is_none() => {
                    settled("uniqueItems");
                    failure = Some(format!(
                        "uniqueItems|items {first} and {second} are equal (compared exactly)"
                    ));
                }
                Some(_) => {}
            }
        }
        failure
    }

    /// The bounds, `multipleOf` and integer-ness of the number `n` (at address `at`), exactly.
    fn judge_number(&self, at: usize, n: &Number, instance_lossy: bool) -> Option<String> {
        let settled = |keyword: &'static str| SETTLED.with(|s| s.borrow_mut().push((at, keyword)));
        let unjudged =
            |keyword: &'static str| UNJUDGED.with(|u| u.borrow_mut().push((at, keyword)));
        let Some(exact) = Decimal::parse(&n.to_string()) else {
            // An exponent past 64 bits: nothing numeric about it can be judged.
            for bound in &self.bounds {
                unjudged(bound.keyword);
            }
            return None;
        };
        let mut failure = None;
        for bound in &self.bounds {
            if !instance_lossy && !bound.lossy {
                continue;
            }
            MET.with(|m| m.set(true));
            let Some(limit) = Decimal::parse(&bound.limit.to_string()) else {
                unjudged(bound.keyword);
                continue;
            };
            let order = exact.cmp(&limit);
            let passes = match (bound.lower, bound.exclusive) {
                (true, false) => order.is_ge(),
                (true, true) => order.is_gt(),
                (false, false) => order.is_le(),
                (false, true) => order.is_lt(),
            };
            if passes {
                settled(bound.keyword);
            } else if failure.is_none() {
                settled(bound.keyword);
                let relation = match (bound.lower, bound.exclusive) {
                    (true, false) => "less than the minimum of",
                    (true, true) => "less than or equal to the exclusive minimum of",
                    (false, false) => "greater than the maximum of",
                    (false, true) => "greater than or equal to the exclusive maximum of",
                };
                failure = Some(format!(
                    "{}|{n} is {relation} {} (compared exactly)",
                    bound.keyword, bound.limit
                ));
            }
        }
        if let Some(divisor) = &self.multiple_of
            && (instance_lossy || lossy(divisor).is_some())
        {
            match Decimal::parse(&divisor.to_string()).and_then(|d| exact.is_multiple_of(&d)) {
                Some(true) => settled("multipleOf"),
                Some(false) if failure.is_none() => {
                    settled("multipleOf");
                    failure = Some(format!(
                        "multipleOf|{n} is not a multiple of {divisor} (compared exactly)"
                    ));
                }
                Some(false) => {}
                None => unjudged("multipleOf"),
            }
        }
        if self.integer && instance_lossy {
            if exact.is_integer() {
                settled("type");
            } else if failure.is_none() {
                settled("type");
                failure = Some(format!("type|{n} is not an integer (judged exactly)"));
            }
        }
        failure
    }
}

/// Whether `value` holds a number 64 bits cannot hold, at any depth. Iterative.
fn holds_lossy(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if lossy(n).is_some() => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    false
}

/// `value` written so that two values are equal exactly when their texts are: numbers by
/// their exact decimal (`1`, `1.0` and `10e-1` alike; `2^64` and `2^64+1` not), object keys
/// sorted. Iterative.
pub fn canonical(value: &Value) -> String {
    enum Step<'a> {
        Value(&'a Value),
        Text(&'static str),
        Key(&'a str),
    }
    let mut out = String::new();
    let mut steps = vec![Step::Value(value)];
    while let Some(step) = steps.pop() {
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Key(k) => {
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(':');
            }
            Step::Value(Value::Number(n)) => {
                let text = n.to_string();
                match Decimal::parse(&text) {
                    Some(d) => {
                        if d.negative {
                            out.push('-');
                        }
                        out.push_str(std::str::from_utf8(&d.digits).unwrap_or("?"));
                        out.push_str(&format!("e{}", d.exponent));
                    }
                    None => out.push_str(&text),
                }
            }
            Step::Value(Value::Array(items)) => {
                out.push('[');
                steps.push(Step::Text("]"));
                for (i, item) in items.iter().enumerate().rev() {
                    steps.push(Step::Value(item));
                    if i > 0 {
                        steps.push(Step::Text(","));
                    }
                }
            }
            Step::Value(Value::Object(map)) => {
                out.push('{');
                steps.push(Step::Text("}"));
                let mut keys: Vec<(&String, &Value)> = map.iter().collect();
                keys.sort_by(|a, b| a.0.cmp(b.0));
                for (i, (key, item)) in keys.into_iter().enumerate().rev() {
                    steps.push(Step::Value(item));
                    steps.push(Step::Key(key));
                    if i > 0 {
                        steps.push(Step::Text(","));
                    }
                }
            }
            Step::Value(other) => out.push_str(&other.to_string()),
        }
    }
    out
}

impl<'i> jsonschema::Keyword<'i> for Watch {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        match self.judge(instance) {
            Some(failure) => Err(jsonschema::ValidationError::custom(failure)),
            None => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        self.judge(instance).is_none()
    }
}

/// Options that compile the [`WATCH`] keyword.
pub fn with_watch(options: jsonschema::ValidationOptions) -> jsonschema::ValidationOptions {
    options.with_keyword(WATCH, |parent, _, _| {
        Ok(Box::new(Watch::from_schema(parent)))
    })
}

/// A watch failure's keyword and message (they travel as `keyword|message`).
pub fn watched_failure(message: &str) -> Option<(&str, &str)> {
    let (keyword, rest) = message.split_once('|')?;
    WATCHED_AT.contains(&keyword).then_some((keyword, rest))
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
            lossy(&number("1.00000000000000000001")),
            Some("more digits than a double holds: rounded")
        );
        assert_eq!(
            lossy(&number("0.30000000000000004")),
            None,
            "a double's own digits"
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
