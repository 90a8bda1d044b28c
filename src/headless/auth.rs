//! `auth list` and `auth logout URL`: the OAuth tokens kept per server, never shown themselves.

use super::output::Report;
use crate::cli::Format;
use crate::headless::exit;

/// `auth list` and `auth logout URL`: the tokens kept for servers, never shown themselves.
pub fn run(action: &crate::cli::AuthAction) -> i32 {
    use crate::cli::AuthAction;
    use crate::mcp::oauth::store;
    match action {
        AuthAction::List { format } => {
            let report = Report { format: *format };
            let stored = store::list();
            match format {
                Format::Json => report.json(&serde_json::json!(stored)),
                Format::Text if stored.is_empty() => report.line(&format!(
                    "no tokens kept{}",
                    store::dir()
                        .map(|d| format!(" (in {})", d.display()))
                        .unwrap_or_default()
                )),
                Format::Text => {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs());
                    for s in stored {
                        let expiry = match s.expires_at {
                            Some(at) if at <= now => "expired".to_string(),
                            Some(at) => format!("valid {} s more", at - now),
                            None => "no expiry given".to_string(),
                        };
                        let scopes = if s.scopes.is_empty() {
                            "(no scopes named)".to_string()
                        } else {
                            s.scopes.join(" ")
                        };
                        report.line(&crate::untrusted::line(
                            &format!(
                                "{}  client {}  {scopes}  {expiry}{}",
                                s.url,
                                s.client_id,
                                if s.refreshable { ", refreshable" } else { "" }
                            ),
                            2_000,
                        ));
                    }
                }
            }
            exit::OK
        }
        AuthAction::Logout { url } => {
            let report = Report {
                format: Format::Text,
            };
            match store::logout(url) {
                Ok(true) => report.line(&format!("forgot the token for {url}")),
                Ok(false) => report.line(&format!("no token was kept for {url}")),
                Err(why) => return report.error(&why, exit::ERROR),
            }
            exit::OK
        }
    }
}
