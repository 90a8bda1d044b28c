//! Escaping of server-provided text before it reaches a terminal or a clipboard: control
//! characters, escape sequences, bidi, invisible and tag characters become visible escapes,
//! secrets the user gave are redacted, and oversized text is cut with a note. Pure.

use std::borrow::Cow;

pub use crate::escape::is_dangerous;
use crate::escape::{escape_line, json_escaped_dangerous, push_escaped, xml_unredacted};

/// Longest single line of server text we draw or print before cutting it.
pub const MAX_LINE_CHARS: usize = 2_000;

/// One line of untrusted text, safe to draw: secrets redacted, every dangerous character escaped
/// (newlines too), cut at `max_chars` with a visible note of how much was left out.
pub fn line(text: &str, max_chars: usize) -> Cow<'_, str> {
    match crate::secrets::redact(text) {
        Cow::Borrowed(text) => escape_line(text, max_chars),
        Cow::Owned(text) => Cow::Owned(escape_line(&text, max_chars).into_owned()),
    }
}

/// Text for a sink (stdout, stderr, a clipboard) that keeps its line breaks and tabs: secrets
/// redacted, every other dangerous character escaped, nothing cut. The last guard before text
/// leaves the process: callers have escaped server text already, so this is usually a no-op.
pub fn sink(text: &str) -> Cow<'_, str> {
    let redacted = crate::secrets::redact(text);
    let unsafe_char = |c: char| c != '\n' && c != '\t' && is_dangerous(c);
    if !redacted.chars().any(unsafe_char) {
        return redacted;
    }
    let mut out = String::with_capacity(redacted.len() + 16);
    for c in redacted.chars() {
        if unsafe_char(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Multi-line untrusted text: newlines kept as line breaks, tabs expanded, everything else
/// dangerous escaped, each line cut at [`MAX_LINE_CHARS`].
pub fn lines(text: &str) -> Vec<String> {
    // Redacted whole first: a secret that spans lines is one secret.
    crate::secrets::redact(text)
        .split('\n')
        .map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l).replace('\t', "    ");
            line(&l, MAX_LINE_CHARS).into_owned()
        })
        .collect()
}

/// The first `n` lines of multi-line untrusted text, escaped as [`lines`] does, and how many
/// lines follow (counted, not escaped): what a pane shows of a long text on every frame.
pub fn first_lines(text: &str, n: usize) -> (Vec<String>, usize) {
    let text = crate::secrets::redact(text);
    let mut split = text.split('\n');
    let shown = split.by_ref().take(n).collect::<Vec<_>>().join("\n");
    (lines(&shown), split.count())
}

/// Multi-line untrusted text as one string (newlines kept), for headless text output.
pub fn block(text: &str) -> String {
    lines(text).join("\n")
}

/// JSON text safe to print: serde_json escapes C0 controls itself, but leaves DEL, C1 controls
/// (U+009B is a CSI to some terminals) and bidi overrides raw. Those can only occur inside
/// strings, where `\uXXXX` means the same, so the result is the same JSON value.
/// Secrets are redacted in the value before it is encoded (and in the text after, for one
/// registered as a whole JSON fragment).
pub fn json(value: &serde_json::Value, pretty: bool) -> String {
    let value = crate::secrets::redact_value(value);
    let text = if pretty {
        serde_json::to_string_pretty(&*value)
    } else {
        serde_json::to_string(&*value)
    }
    .unwrap_or_else(|_| "null".into());
    let text = match crate::secrets::redact(&text) {
        Cow::Owned(redacted) => redacted,
        Cow::Borrowed(_) => text,
    };
    json_escaped_dangerous(&text)
}

/// Text made safe for XML 1.0, in an attribute or an element: secrets redacted first, markup
/// escaped, and every character XML cannot hold (most control characters) written as `\u{…}`.
pub fn xml(text: &str) -> String {
    xml_unredacted(&crate::secrets::redact(text))
}

/// A short single-line form for labels: [`line`] with the default cut.
pub fn label(text: &str) -> Cow<'_, str> {
    line(text, MAX_LINE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_what_serde_json_leaves_raw_and_stays_the_same_value() {
        let value = serde_json::json!({"k\u{202e}": ["\u{9b}31m", "\u{7f}", "\u{1b}", "ok é"]});
        for pretty in [false, true] {
            let text = json(&value, pretty);
            assert!(
                !text.chars().any(|c| c != '\n' && is_dangerous(c)),
                "{text}"
            );
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&text).ok(),
                Some(value.clone())
            );
        }
        assert!(json(&value, false).contains("\\u009b31m"));
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(
            line("hello world", 100),
            Cow::Borrowed("hello world")
        ));
    }

    #[test]
    fn escape_sequences_become_visible() {
        let hostile = "title\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m";
        let shown = line(hostile, 100);
        assert_eq!(shown, "title\\e]0;pwned\\x07\\e[2J\\x9b31m");
        assert!(!shown.chars().any(|c| c.is_control()));
    }

    #[test]
    fn osc52_clipboard_write_is_neutralised() {
        let shown = line("\u{1b}]52;c;ZXZpbA==\u{1b}\\", 100);
        assert_eq!(shown, "\\e]52;c;ZXZpbA==\\e\\");
    }

    #[test]
    fn bidi_overrides_are_escaped() {
        assert_eq!(line("abc\u{202e}def", 100), "abc\\u{202e}def");
        assert_eq!(line("\u{2066}x\u{2069}", 100), "\\u{2066}x\\u{2069}");
    }

    #[test]
    fn long_lines_are_cut_with_a_note() {
        let long = "a".repeat(50);
        assert_eq!(
            line(&long, 10),
            format!("{}… [40 more chars]", "a".repeat(10))
        );
    }

    #[test]
    fn multi_line_keeps_breaks_but_escapes_the_rest() {
        assert_eq!(
            lines("one\r\ntwo\u{1b}[1m\tx"),
            vec!["one", "two\\e[1m    x"]
        );
        assert_eq!(block("a\nb"), "a\nb");
    }

    #[test]
    fn unicode_text_is_kept() {
        assert_eq!(line("héllo → 世界", 100), "héllo → 世界");
    }
}
