//! The values the user gave that must never be shown: header values, bearer tokens, `-e`
//! values. They are registered once, when the command line and config are read, and every
//! place that shows, logs or copies text redacts them, whoever wrote the text: a server that
//! echoes a request header into an error body or a challenge gets `[redacted]` printed instead.
//!
//! Process-wide on purpose: a secret must be hidden from every string, including ones built
//! far from the options that carried it (rmcp errors, server bodies, stderr lines).

use serde_json::Value;
use std::borrow::Cow;
use std::sync::RwLock;

/// What a redacted secret is shown as.
pub const REDACTED: &str = "[redacted]";
/// Values shorter than this are not redacted: they cannot hide anything worth hiding (`-e
/// DEBUG=1`), and blanking every "1" or "yes" in a server's text would garble it.
pub const MIN_SECRET_CHARS: usize = 6;

static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Adds a secret value in every form the client sends it in: as given, URL-encoded (a form
/// body, a query), and for `Bearer x` / `Basic x` the credential `x` alone (of `Basic`, also the
/// `user:password` it decodes to).
pub fn register(value: &str) {
    let value = value.trim();
    let mut parts = vec![value.to_string()];
    if let Some((scheme, credential)) = value.split_once(' ')
        && ["bearer", "basic", "token"].contains(&scheme.to_ascii_lowercase().as_str())
    {
        let credential = credential.trim();
        parts.push(credential.to_string());
        if scheme.eq_ignore_ascii_case("basic")
            && let Some(decoded) = base64_decoded(credential)
        {
            parts.push(decoded);
        }
    }
    add(parts);
}

/// Adds a credential sent as HTTP Basic authentication (a URL's `user:password`, an OAuth
/// client's `client_secret_basic`): the password itself and the header's every form, since a
/// server that reflects the `Authorization` header shows `Basic <base64(user:password)>`, not
/// the password. Both the pair as given and the pair form-URL-encoded before base64 (an OAuth
/// client's, RFC 6749 2.3.1) are registered.
pub fn register_basic(user: &str, password: &str) {
    use base64::Engine as _;
    let mut parts = vec![password.to_string(), url_encoded(password)];
    for (u, p) in [
        (user.to_string(), password.to_string()),
        (url_encoded(user), url_encoded(password)),
    ] {
        let pair = format!("{u}:{p}");
        for engine in [
            &base64::engine::general_purpose::STANDARD,
            &base64::engine::general_purpose::STANDARD_NO_PAD,
            &base64::engine::general_purpose::URL_SAFE,
        ] {
            parts.push(engine.encode(pair.as_bytes()));
        }
        parts.push(pair);
    }
    add(parts);
}

/// `value` form-URL-encoded (what a form body or a query carries).
fn url_encoded(value: &str) -> String {
    let mut out = String::new();
    for &b in value.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A Basic credential decoded, when it is base64 of UTF-8 text.
fn base64_decoded(credential: &str) -> Option<String> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(credential)
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// Every form `raw` takes once written into an output: as JSON string contents (serde's
/// escapes, and ours that also `\u`-escape DEL, C1 and bidi characters), as a TOML basic string,
/// as XML text, and as a line drawn on a terminal; each of those also for JSON text inside JSON
/// text, twice over (a text block holding the JSON of a result that holds JSON text). Text is
/// redacted before each encoding, so these catch what an encoder was handed already encoded by
/// another: a secret holding a quote, a backslash, a tab or `&<>` is hidden in every one.
fn encodings(raw: &str) -> Vec<String> {
    let json_contents = |text: &str| {
        let quoted = serde_json::to_string(text).unwrap_or_default();
        let inner = quoted.get(1..quoted.len().saturating_sub(1));
        inner.unwrap_or_default().to_string()
    };
    let mut levels = vec![raw.to_string()];
    for _ in 0..3 {
        let next = json_contents(levels.last().map_or("", String::as_str));
        levels.push(next);
    }
    let mut out = Vec::new();
    for level in &levels {
        out.extend([
            crate::escape::json_escaped_dangerous(level),
            toml_basic(level),
            crate::escape::toml_basic_visible(level),
            crate::escape::xml_unredacted(level),
            crate::escape::escape_line_unredacted(level),
            level.clone(),
        ]);
    }
    out.retain(|form| form != raw);
    out.sort();
    out.dedup();
    out
}

/// `raw` as the contents of a TOML basic string (toml_writer's escapes).
fn toml_basic(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) <= 0x1f || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// Registers `parts`, the URL-encoded form of each, and every form each takes in an output.
fn add(mut parts: Vec<String>) {
    let encoded: Vec<String> = parts.iter().map(|p| url_encoded(p)).collect();
    parts.extend(encoded);
    let written: Vec<String> = parts.iter().flat_map(|p| encodings(p)).collect();
    parts.extend(written);
    parts.retain(|part| part.chars().count() >= MIN_SECRET_CHARS);
    // A value already known (an OAuth token registered before each request) costs a read.
    let known = |secrets: &Vec<String>| parts.iter().all(|p| secrets.iter().any(|s| s == p));
    if SECRETS.read().is_ok_and(|secrets| known(&secrets)) {
        return;
    }
    let Ok(mut secrets) = SECRETS.write() else {
        return;
    };
    for part in parts {
        if !secrets.contains(&part) {
            secrets.push(part);
        }
    }
    // Longest first, so a value that contains another is redacted whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// `text` with every registered secret replaced by [`REDACTED`].
pub fn redact(text: &str) -> Cow<'_, str> {
    let Ok(secrets) = SECRETS.read() else {
        return Cow::Owned(REDACTED.to_string());
    };
    if secrets.is_empty() || !secrets.iter().any(|s| text.contains(s.as_str())) {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for secret in secrets.iter() {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), REDACTED);
        }
    }
    Cow::Owned(out)
}

/// `value` with every registered secret replaced in each string and each key, before it is
/// encoded in any format: what a server reflects as a value is hidden however the encoder
/// escapes it (or however the server escaped it on the wire: `\u0053` is an `S` once parsed).
/// Walks with a stack of its own: a value nested past any recursion limit costs no stack.
pub fn redact_value(value: &Value) -> Cow<'_, Value> {
    let Ok(secrets) = SECRETS.read() else {
        return Cow::Owned(Value::String(REDACTED.into()));
    };
    if secrets.is_empty() || !holds_secret(value, &secrets) {
        return Cow::Borrowed(value);
    }
    drop(secrets);
    let mut owned = value.clone();
    let mut stack = vec![&mut owned];
    while let Some(node) = stack.pop() {
        match node {
            Value::String(text) => {
                if let Cow::Owned(clean) = redact(text) {
                    *text = clean;
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => {
                if map.keys().any(|k| matches!(redact(k), Cow::Owned(_))) {
                    let entries = std::mem::take(map);
                    *map = entries
                        .into_iter()
                        .map(|(k, v)| (redact(&k).into_owned(), v))
                        .collect();
                }
                stack.extend(map.values_mut());
            }
            _ => {}
        }
    }
    Cow::Owned(owned)
}

/// The JSON text `text` parsed and redacted, when it holds a secret once parsed (a server's own
/// escapes, `\u0053`, can hide one from a text match); `None` otherwise, without parsing when
/// no secret is registered.
pub fn redacted_json(text: &str) -> Option<Value> {
    if SECRETS.read().is_ok_and(|secrets| secrets.is_empty()) {
        return None;
    }
    let parsed: Value = serde_json::from_str(text).ok()?;
    match redact_value(&parsed) {
        Cow::Owned(redacted) => Some(redacted),
        Cow::Borrowed(_) => None,
    }
}

/// Whether any string or key in `value` holds one of `secrets`.
fn holds_secret(value: &Value, secrets: &[String]) -> bool {
    let found = |text: &str| secrets.iter().any(|s| text.contains(s.as_str()));
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        match node {
            Value::String(text) if found(text) => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                if map.keys().any(|k| found(k)) {
                    return true;
                }
                stack.extend(map.values());
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_values_and_bare_credentials_are_redacted_short_ones_are_not() {
        register("Bearer tok-123456789");
        register("x1");
        assert_eq!(
            redact("echo: Bearer tok-123456789 / tok-123456789 / x1"),
            "echo: [redacted] / [redacted] / x1"
        );
        assert!(matches!(redact("nothing here"), Cow::Borrowed(_)));
    }

    /// A secret holding what every encoder escapes: hidden in the value before encoding, and
    /// in text handed on already encoded (JSON in XML, in a drawn line, in TOML).
    #[test]
    fn a_secret_with_quotes_backslashes_tabs_and_markup_is_hidden_in_every_encoding() {
        let secret = "S3CR3T'q\"u\\ote\t&<>\u{202e}é\nline two";
        register(secret);
        let value =
            serde_json::json!({"echo": format!("got {secret}!"), format!("k {secret}"): [secret]});
        let hidden = |what: &str, text: &str| {
            assert!(!text.contains("S3CR3T"), "{what}: {text}");
            assert!(text.contains(REDACTED), "{what}: {text}");
        };
        hidden("json", &crate::untrusted::json(&value, false));
        hidden("pretty json", &crate::untrusted::json(&value, true));
        let encoded = serde_json::to_string(&value).expect("json");
        hidden("json text", &redact(&encoded));
        hidden("json text in xml", &crate::untrusted::xml(&encoded));
        hidden(
            "json text drawn",
            &crate::untrusted::line(&encoded, 100_000),
        );
        hidden("xml", &crate::untrusted::xml(&format!("x{secret}y")));
        hidden("lines", &crate::untrusted::block(&format!("a {secret} b")));
        let mut doc = toml_edit::DocumentMut::new();
        doc["a"] = toml_edit::value(format!("x {secret} y"));
        hidden("toml", &redact(&doc.to_string()));
        // Escaped by the server on the wire: seen through once parsed.
        let wire = r#"{"a":"\u0053\u0033CR3T'q\"u\\ote\t&<>\u202e\u00e9\nline two"}"#;
        let parsed: Value = serde_json::from_str(wire).expect("json");
        hidden("wire", &redact_value(&parsed).to_string());
        assert!(matches!(
            redact_value(&serde_json::json!({"a": 1})),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn every_form_a_basic_credential_is_sent_in_is_redacted() {
        use base64::Engine as _;
        register_basic("alice", "pa55 w0rd/+");
        let header = base64::engine::general_purpose::STANDARD.encode("alice:pa55 w0rd/+");
        let form = base64::engine::general_purpose::STANDARD.encode("alice:pa55%20w0rd%2F%2B");
        for reflected in [
            format!("Authorization: Basic {header}"),
            format!("Basic {form}"),
            "client_secret=pa55%20w0rd%2F%2B".to_string(),
            "alice:pa55 w0rd/+".to_string(),
        ] {
            let shown = redact(&reflected);
            assert!(shown.contains(REDACTED), "{reflected} -> {shown}");
            assert!(!shown.contains("pa55"), "{shown}");
            assert!(!shown.contains(&header[4..]), "{shown}");
        }
        register("Basic Ym9iOnMzY3JldC12YWx1ZQ==");
        assert_eq!(redact("bob:s3cret-value"), REDACTED);
    }
}
