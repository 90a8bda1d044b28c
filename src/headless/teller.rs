//! What a headless command prints on stderr on the way: the connection's warnings, the
//! server's requests, OAuth steps, progress and logs, each flood counted rather than printed.

use super::output::Report;
use crate::mcp::ServerEvent;

/// Progress, log and request lines printed a second at most, and warnings apart; the rest are
/// counted, then said.
const CHATTER_PER_SECOND: u32 = 20;

/// Prints on stderr what happens on the way: what the connection noticed (a non-JSON line, a
/// repeated key, a late answer) as warnings, the server's requests and our answers as notes, and
/// its progress and log notifications, a bounded number a second. Stderr lines are not told:
/// they are the server's own output, not the protocol's.
#[derive(Default)]
pub struct Teller {
    /// Whether a pasted redirect address is read from stdin.
    pub pasting: bool,
    chatter: Budget,
    /// Warnings have a budget of their own: a flood of progress never hides one, and a flood
    /// of them (a server answering requests nobody sent, over and over) is counted too.
    warnings: Budget,
    /// Lines on stdout that were not JSON-RPC: how many, and the first (for `conform`).
    pub non_json: (usize, Option<String>),
}

/// A command's teller, shared with the task that tells what the connection notices.
pub type Told = std::sync::Arc<std::sync::Mutex<Teller>>;

/// Lines printed in the current second, and those left out since the last was said.
#[derive(Default)]
struct Budget {
    second: Option<std::time::Instant>,
    shown: u32,
    skipped: u64,
}

impl Teller {
    pub fn tell(&mut self, report: &Report, event: ServerEvent) {
        match event {
            ServerEvent::Notice(text) => {
                if text.starts_with(crate::mcp::transport::stdio::NON_JSON_LINE) {
                    self.non_json.0 += 1;
                    self.non_json.1.get_or_insert_with(|| text.clone());
                }
                if self.warnings.room(report, WARNINGS) {
                    report.warn(&text);
                }
            }
            // Requests are told like progress: a flood of them is counted, not printed.
            ServerEvent::Request(text) => {
                if self.chatter.room(report, CHATTER) {
                    report.note(&format!("the server asked {text}"));
                }
            }
            ServerEvent::Authorization(
                crate::mcp::AuthStep::Said(text) | crate::mcp::AuthStep::Authorized(text),
            ) => report.note(&format!("oauth: {text}")),
            ServerEvent::Authorization(crate::mcp::AuthStep::Open(url)) => {
                let url = crate::untrusted::line(&url, 8_000);
                report.note(&format!("oauth: open this URL to authorize: {url}"));
                if self.pasting {
                    report.note("oauth: if the browser cannot reach this machine (over SSH), paste here the address it ended at and press Enter");
                }
            }
            ServerEvent::Authorization(crate::mcp::AuthStep::Failed(why)) => {
                report.warn(&format!("oauth failed: {why}"))
            }
            ServerEvent::ResourceUpdated(uri) => report.note(&format!(
                "resource updated: {}",
                crate::untrusted::line(&uri, 300)
            )),
            ServerEvent::Progress {
                progress,
                total,
                message,
                ..
            } => {
                if self.chatter.room(report, CHATTER) {
                    let of = total.map(|t| format!("/{t}")).unwrap_or_default();
                    let said = message.map(|m| format!(" {m}")).unwrap_or_default();
                    report.note(&format!("progress {progress}{of}{said}"));
                }
            }
            ServerEvent::Log {
                level,
                logger,
                data,
            } => {
                if self.chatter.room(report, CHATTER) {
                    let from = logger.map(|l| format!(" {l}")).unwrap_or_default();
                    let data = match data {
                        serde_json::Value::String(s) => s,
                        other => crate::untrusted::json(&other, false),
                    };
                    report.note(&format!("log {level}{from}: {data}"));
                }
            }
            // Headless policies never ask (`Asked` comes only from the TUI's `Ask` policy).
            ServerEvent::Stderr(_)
            | ServerEvent::ToolsChanged
            | ServerEvent::LibraryChanged
            | ServerEvent::Closed(_)
            | ServerEvent::Asked { .. } => {}
        }
    }

    /// Says how many lines were left out, if any.
    pub fn flush(&mut self, report: &Report) {
        self.chatter.flush(report, CHATTER);
        self.warnings.flush(report, WARNINGS);
    }
}

/// What a budget's lines are, for the count of those left out.
const CHATTER: &str = "progress or log line";
const WARNINGS: &str = "warning";

impl Budget {
    /// Says how many `what` lines were left out, if any.
    fn flush(&mut self, report: &Report, what: &str) {
        if self.skipped > 0 {
            report.note(&format!(
                "{} not shown (more than {CHATTER_PER_SECOND} a second)",
                crate::plural::count(self.skipped as usize, what)
            ));
            self.skipped = 0;
        }
    }

    /// Whether one more line fits in this second.
    fn room(&mut self, report: &Report, what: &str) -> bool {
        let now = std::time::Instant::now();
        if self
            .second
            .is_none_or(|s| now.duration_since(s) >= std::time::Duration::from_secs(1))
        {
            self.flush(report, what);
            (self.second, self.shown) = (Some(now), 0);
        }
        self.shown += 1;
        if self.shown > CHATTER_PER_SECOND {
            self.skipped += 1;
        }
        self.shown <= CHATTER_PER_SECOND
    }
}
