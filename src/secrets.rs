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

/// Adds a secret value (and, for `Bearer x` / `Basic x`, the credential `x` alone).
pub fn register(value: &str) {
    let value = value.trim();
    let mut parts = vec![value];
    if let Some((scheme, credential)) = value.split_once(' ')
        && ["bearer", "basic", "token"].contains(&scheme.to_ascii_lowercase().as_str())
    {
        parts.push(credential.trim());
    }
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
        if !secrets.iter().any(|s| s == part) {
            secrets.push(part.to_string());
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
}
