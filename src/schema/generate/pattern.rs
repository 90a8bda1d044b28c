//! Strings a `pattern` matches, made at random: the ECMA-262 pattern read as jsonschema reads it
//! (translated, then parsed), each alternative, repetition count and class member drawn from the
//! seed. Bounded: a repetition of more than [`MAX_REPEAT`], or a string past [`MAX_BYTES`], gives
//! up (the caller falls back and the input check filters). Pure.

use super::rng::Rng;
use regex_syntax::hir::{Class, Hir, HirKind};

/// Repetitions of one part written out at most (`a{1000}` is given up on).
const MAX_REPEAT: u32 = 256;
/// Extra repetitions beyond a part's least (`a+` gives 1 to 4 `a`s).
const EXTRA_REPEAT: u32 = 3;
/// The longest string made.
const MAX_BYTES: usize = 4096;
/// Groups nested deeper than this are not parsed (a hostile pattern may nest thousands deep).
const MAX_NEST: u32 = 64;

/// A string `pattern` matches, or `None` when the pattern is outside ECMA-262 or asks for more
/// than the bounds allow. Look-arounds and anchors add nothing: the caller checks the string.
pub fn sample(pattern: &str, rng: &mut Rng) -> Option<String> {
    if !jsonschema_regex::is_valid_ecma_regex(pattern) {
        return None;
    }
    let translated = jsonschema_regex::to_rust_regex(pattern).ok()?;
    let hir = regex_syntax::ParserBuilder::new()
        .nest_limit(MAX_NEST)
        .build()
        .parse(&translated)
        .ok()?;
    let mut out = String::new();
    write(&hir, rng, &mut out).then_some(out)
}

fn write(hir: &Hir, rng: &mut Rng, out: &mut String) -> bool {
    if out.len() > MAX_BYTES {
        return false;
    }
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => true,
        HirKind::Literal(literal) => match std::str::from_utf8(&literal.0) {
            Ok(text) => {
                out.push_str(text);
                true
            }
            Err(_) => false,
        },
        HirKind::Class(class) => match member(class, rng) {
            Some(c) => {
                out.push(c);
                true
            }
            None => false,
        },
        HirKind::Repetition(repetition) => {
            if repetition.min > MAX_REPEAT {
                return false;
            }
            let most = repetition
                .max
                .unwrap_or(u32::MAX)
                .min(repetition.min + EXTRA_REPEAT);
            let n = rng.between(i128::from(repetition.min), i128::from(most));
            (0..n).all(|_| write(&repetition.sub, rng, out))
        }
        HirKind::Capture(capture) => write(&capture.sub, rng, out),
        HirKind::Concat(parts) => parts.iter().all(|part| write(part, rng, out)),
        HirKind::Alternation(branches) => {
            let start = out.len();
            let first = rng.below(branches.len() as u64) as usize;
            // The drawn branch first, then the others in turn (one may be impossible).
            (0..branches.len()).any(|i| {
                out.truncate(start);
                write(&branches[(first + i) % branches.len()], rng, out)
            })
        }
    }
}

/// A member of a class: a range drawn, then a character in it (printable ASCII preferred when
/// the class holds some, so inputs stay readable).
fn member(class: &Class, rng: &mut Rng) -> Option<char> {
    let ranges: Vec<(u32, u32)> = match class {
        Class::Unicode(c) => c
            .ranges()
            .iter()
            .map(|r| (r.start() as u32, r.end() as u32))
            .collect(),
        Class::Bytes(c) => c
            .ranges()
            .iter()
            .filter(|r| r.start() < 0x80)
            .map(|r| (u32::from(r.start()), u32::from(r.end().min(0x7f))))
            .collect(),
    };
    let printable: Vec<(u32, u32)> = ranges
        .iter()
        .filter_map(|&(a, b)| {
            let (a, b) = (a.max(0x21), b.min(0x7e));
            (a <= b).then_some((a, b))
        })
        .collect();
    let pool = match printable.is_empty() || rng.chance(10) {
        true => &ranges,
        false => &printable,
    };
    for _ in 0..8 {
        let &(start, end) = rng.pick(pool)?;
        let code = rng.between(i128::from(start), i128::from(end)) as u32;
        if let Some(c) = char::from_u32(code) {
            return Some(c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_match_their_pattern_and_vary_with_the_seed() {
        let mut rng = Rng::new(5);
        for pattern in [
            "abc",
            "^[a-z]{3,8}$",
            "^\\d{4}-\\d{2}-\\d{2}$",
            "^(foo|bar)+_[A-Z0-9]{2}$",
            "^\\p{L}+$",
            "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$",
            "^sk-[a-zA-Z0-9]{20}$",
        ] {
            let schema = serde_json::json!({"type": "string", "pattern": pattern});
            let judge = crate::schema::Compiled::new(&schema);
            let matches = |s: &String| {
                judge
                    .check(&serde_json::json!(s))
                    .is_ok_and(|c| c.violations.is_empty() && c.unchecked.is_empty())
            };
            let made: std::collections::HashSet<String> = (0..20)
                .map(|_| sample(pattern, &mut rng).expect(pattern))
                .collect();
            assert!(made.iter().all(matches), "{pattern}: {made:?}");
            if pattern != "abc" {
                assert!(made.len() > 1, "{pattern} varies: {made:?}");
            }
        }
        // Outside ECMA-262, or asking for too much: none, never a hang.
        assert_eq!(sample("\\Aabc\\z", &mut rng), None);
        assert_eq!(sample("a{100000}", &mut rng), None);
        let deep = format!("{}a{}", "(".repeat(5000), ")".repeat(5000));
        assert_eq!(sample(&deep, &mut rng), None);
    }
}
