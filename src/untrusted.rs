//! Escaping of server-provided text before it reaches a terminal or a clipboard: control
//! characters, escape sequences, bidi, invisible and tag characters become visible escapes,
//! secrets the user gave are redacted, and oversized text is cut with a note. Pure.

use std::borrow::Cow;

/// Longest single line of server text we draw or print before cutting it.
pub const MAX_LINE_CHARS: usize = 2_000;

/// True for characters that must never reach a terminal or a clipboard raw:
/// - C0 and C1 controls and DEL (ESC starts CSI/OSC sequences, which can retitle windows, write
///   the clipboard or draw links; U+009B is a CSI by itself to some terminals);
/// - bidi and isolate controls, which reorder what a reader sees;
/// - zero-width, invisible and filler characters, and the tag block, which hide text or make two
///   different names look the same;
/// - U+2028/U+2029, which some terminals and editors take as line breaks.
pub fn is_dangerous(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{AD}' | '\u{34F}' | '\u{61C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}')
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{1b}' => out.push_str("\\e"),
        c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// One line of untrusted text, safe to draw: secrets redacted, every dangerous character escaped
/// (newlines too), cut at `max_chars` with a visible note of how much was left out.
pub fn line(text: &str, max_chars: usize) -> Cow<'_, str> {
    match crate::secrets::redact(text) {
        Cow::Borrowed(text) => escape_line(text, max_chars),
        Cow::Owned(text) => Cow::Owned(escape_line(&text, max_chars).into_owned()),
    }
}

fn escape_line(text: &str, max_chars: usize) -> Cow<'_, str> {
    // Length first: a 15 MiB line is cut, never scanned whole (it may be drawn every frame).
    if text.len() <= max_chars && !text.chars().any(is_dangerous) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(max_chars.saturating_mul(4)) + 16);
    let mut kept = 0;
    let mut chars = text.chars();
    for c in chars.by_ref().take(max_chars) {
        kept += c.len_utf8();
        if is_dangerous(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    if kept < text.len() {
        out.push_str(&format!("… [{} more chars]", text[kept..].chars().count()));
    }
    Cow::Owned(out)
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

/// JSON text with every dangerous character but a newline written as `\uXXXX` (serde_json
/// escapes C0 inside strings, so a raw newline is pretty-printing's own). Not redacted.
pub fn json_escaped_dangerous(text: &str) -> String {
    let unsafe_char = |c: char| c != '\n' && is_dangerous(c);
    if !text.chars().any(unsafe_char) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 64);
    for c in text.chars() {
        if unsafe_char(c) {
            // Outside the BMP: a surrogate pair, as JSON requires.
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{:04x}", unit));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Text made safe for XML 1.0, in an attribute or an element: secrets redacted first, markup
/// escaped, and every character XML cannot hold (most control characters) written as `\u{…}`.
pub fn xml(text: &str) -> String {
    xml_unredacted(&crate::secrets::redact(text))
}

/// [`xml`] without the redaction (what a secret looks like once written as XML).
pub fn xml_unredacted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            c if c.is_control() || is_dangerous(c) || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// One line escaped as [`line`] draws it, whole and not redacted (what a secret looks like
/// once drawn).
pub fn escape_line_unredacted(text: &str) -> String {
    escape_line(text, usize::MAX).into_owned()
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
