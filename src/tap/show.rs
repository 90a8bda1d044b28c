//! `mcp-inspect taps [SESSION]`: the sessions taps kept, newest first; or one session, each
//! host call with its verdict (see [`super::judged`]). Everything from the server is escaped
//! for the terminal.

use super::judged::{Call, Outcome, Session, judge};
use crate::schema::verdict::Status;
use serde_json::json;
use std::io::Write;
use std::path::Path;

/// A session file is read up to this (a recording stops at 256 MiB, plus its last line).
const MAX_BYTES: u64 = (256 << 20) + 4096;

/// Lists the sessions, or shows one (a path, or a file name in the taps folder); the exit
/// code: 1 when a call's result breaks its outputSchema or the session cannot be read.
pub fn run(session: Option<&Path>, json: bool) -> i32 {
    let Some(dir) = super::sessions::dir() else {
        eprintln!("error: no state directory ($XDG_STATE_HOME or $HOME)");
        return 1;
    };
    match session {
        None => list(&dir, json),
        Some(named) => {
            let path = match named.exists() || named.components().count() > 1 {
                true => named.to_path_buf(),
                false => dir.join(named),
            };
            show(&path, json)
        }
    }
}

fn out(text: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// The sessions, newest first: name, messages and calls.
fn list(dir: &Path, json: bool) -> i32 {
    let mut sessions = super::sessions::kept(dir);
    sessions.reverse();
    if sessions.is_empty() && !json {
        out(&format!(
            "no sessions in {} (put `mcp-inspect tap -- COMMAND ARGS…` in a host's config)",
            dir.display()
        ));
        return 0;
    }
    let mut listed = Vec::new();
    for (_, path) in sessions {
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let session = read(&path).map(|text| judge(&text)).unwrap_or_default();
        let broken = broken(&session);
        let live = super::sessions::is_live(&path);
        match json {
            true => listed.push(json!({"session": name, "live": live, "messages": session.messages, "calls": session.calls.len(), "violating": broken})),
            false => out(&format!(
                "{}{}  {} · {} · {} violating",
                crate::untrusted::line(&name, 120),
                if live { " (live: mcp-inspect attach)" } else { "" },
                crate::plural::count(session.messages, "message"),
                crate::plural::count(session.calls.len(), "call"),
                broken
            )),
        }
    }
    if json {
        out(&crate::untrusted::json(&json!({"sessions": listed}), true));
    }
    0
}

fn read(path: &Path) -> std::io::Result<String> {
    crate::private_files::read_named(path, MAX_BYTES)
}

/// Calls whose result breaks its outputSchema.
pub fn broken(session: &Session) -> usize {
    (session.calls.iter())
        .filter(|c| matches!(&c.outcome, Outcome::Judged { status, .. } if *status == Status::Violations))
        .count()
}

fn show(path: &Path, json: bool) -> i32 {
    let text = match read(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            return 1;
        }
    };
    let session = judge(&text);
    match json {
        true => out(&crate::untrusted::json(&as_json(&session), true)),
        false => tell(&session),
    }
    match broken(&session) {
        0 => 0,
        _ => 1,
    }
}

fn tell(session: &Session) {
    out(&format!(
        "{} · {} · {} violating",
        crate::plural::count(session.messages, "message"),
        crate::plural::count(session.calls.len(), "call"),
        broken(session)
    ));
    for call in &session.calls {
        out(&call_line(call, call.at));
        if let Outcome::Judged { violations, .. } = &call.outcome {
            for v in violations {
                out(&format!("    ✗ {}", crate::untrusted::line(v, 300)));
            }
        }
    }
    for (at, line) in &session.stray {
        out(&stray_line(*at, line));
    }
}

/// A line the server wrote on stdout that is not JSON-RPC, flagged.
pub(super) fn stray_line(at: u64, line: &str) -> String {
    format!(
        "{at:>7} ms  not JSON-RPC on stdout (a strict host fails here): {}",
        crate::untrusted::line(line, 200)
    )
}

/// `   120 ms  add {"a":1} → conforms (2020-12), 3 ms`, at `at` (when it was made, or when
/// its answer came).
pub(super) fn call_line(call: &Call, at: u64) -> String {
    let what = match &call.outcome {
        Outcome::Judged { headline, .. } => headline.clone(),
        Outcome::Error { code, message } => format!("error {code}: {message}"),
        Outcome::Unanswered => "never answered".into(),
    };
    let took = call.took.map_or(String::new(), |ms| format!(", {ms} ms"));
    format!(
        "{at:>7} ms  {} {} → {}{took}",
        crate::untrusted::line(&call.tool, 80),
        crate::untrusted::line(&crate::untrusted::json(&call.arguments, false), 120),
        crate::untrusted::line(&what, 200)
    )
}

fn as_json(session: &Session) -> serde_json::Value {
    let calls: Vec<serde_json::Value> = session.calls.iter().map(call_json).collect();
    let stray: Vec<serde_json::Value> = (session.stray.iter())
        .map(|(at, line)| json!({"atMs": at, "line": line}))
        .collect();
    json!({"messages": session.messages, "calls": calls, "notJsonRpc": stray})
}

/// A host call and what became of it, as JSON.
pub(super) fn call_json(c: &Call) -> serde_json::Value {
    let outcome = match &c.outcome {
        Outcome::Judged {
            status,
            headline,
            violations,
        } => json!({"status": status, "verdict": headline, "violations": violations}),
        Outcome::Error { code, message } => {
            json!({"status": "error", "code": code, "message": message})
        }
        Outcome::Unanswered => json!({"status": "unanswered"}),
    };
    json!({"atMs": c.at, "tool": c.tool, "arguments": c.arguments, "tookMs": c.took, "outcome": outcome})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recording is a file the user is handed: what the server put in it never reaches the
    /// terminal raw.
    #[test]
    fn a_hostile_session_is_shown_escaped() {
        let call = Call {
            at: 1,
            tool: "x\u{1b}]0;pwned\u{7}".into(),
            arguments: json!({"s": "\u{9b}2J\u{202e}"}),
            took: None,
            outcome: Outcome::Error {
                code: serde_json::from_str("1e400").expect("a number"),
                message: "\u{1b}[2Jgone".into(),
            },
        };
        let line = call_line(&call, call.at);
        assert!(
            !line.chars().any(crate::untrusted::is_dangerous),
            "{line:?}"
        );
        assert!(line.contains("error 1e+400: \\e[2Jgone"), "{line:?}");
        let session = judge(&format!(
            "{}\n{}",
            json!({"t": 1, "dir": "in", "notJsonRpc": "\u{1b}]52;c;cHduZWQ=\u{7}"}),
            "[".repeat(100_000)
        ));
        assert_eq!(session.stray.len(), 1);
        assert_eq!(session.messages, 0, "a line too deep to parse is skipped");
    }
}
