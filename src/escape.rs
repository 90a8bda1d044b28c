//! How text is escaped for each place it goes: a terminal line, JSON text, XML, a shell word. Pure, and
//! nothing more: redaction is [`crate::untrusted`]'s, which calls these after it (and
//! [`crate::secrets`] calls them to know what a secret looks like once escaped).

use std::borrow::Cow;

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

pub(crate) fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{1b}' => out.push_str("\\e"),
        c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

pub(crate) fn escape_line(text: &str, max_chars: usize) -> Cow<'_, str> {
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

/// `raw` as the contents of a one-line TOML basic string, every dangerous character (bidi,
/// zero-width, C1, U+2028) written as `\uXXXX` so a test file reviewed as a diff shows it. Not
/// redacted.
pub fn toml_basic_visible(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 16);
    for c in raw.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if is_dangerous(c) && (c as u32) <= 0xffff => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c if is_dangerous(c) => out.push_str(&format!("\\U{:08X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// [`crate::untrusted::xml`] without the redaction (what a secret looks like once written as XML).
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

/// One line escaped as [`crate::untrusted::line`] draws it, whole and not redacted (what a secret looks like
/// once drawn).
pub fn escape_line_unredacted(text: &str) -> String {
    escape_line(text, usize::MAX).into_owned()
}
/// Quotes a word for bash so that pasting it (bracketed paste or not) types exactly that word:
/// plain words as they are, printable ones in single quotes, and any word with a control,
/// invisible, bidi or line-separator character in ANSI-C quotes (`$'…'`) with every such
/// character written as an escape, so none reaches the clipboard raw.
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@,+%".contains(c));
    if plain {
        return word.to_string();
    }
    if !word.chars().any(is_dangerous) {
        return format!("'{}'", word.replace('\'', "'\\''"));
    }
    let mut out = String::from("$'");
    for c in word.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if (c as u32) < 0x80 && is_dangerous(c) => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if is_dangerous(c) && (c as u32) <= 0xFFFF => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c if is_dangerous(c) => {
                out.push_str(&format!("\\U{:08x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
