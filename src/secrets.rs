//! The values the user gave that must never be shown: header values, bearer tokens, `-e`
//! values. They are registered once, when the command line and config are read, and every
//! place that shows, logs or copies text redacts them, whoever wrote the text: a server that
//! echoes a request header into an error body or a challenge gets `[redacted]` printed instead.
//!
//! Process-wide on purpose: a secret must be hidden from every string, including ones built
//! far from the options that carried it (rmcp errors, server bodies, stderr lines).

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

/// Registers `parts` and the URL-encoded form of each, where it differs.
fn add(mut parts: Vec<String>) {
    let encoded: Vec<String> = parts.iter().map(|p| url_encoded(p)).collect();
    parts.extend(encoded);
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
