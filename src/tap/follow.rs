//! `mcp-inspect attach [SESSION]`: a tapped session as it happens, read from its recording as
//! the tap writes it (from the start: messages before the viewer came are shown too). Each
//! message with when, which way and its size; each host call paired with its result and judged
//! when the answer comes; lines that are not JSON-RPC flagged. The recording is the only link
//! to the tap: a viewer that is slow, stopped or gone never holds the host or the server, and
//! the recording is the user's alone (0600 in a 0700 folder). Ends when the tap does.

use super::judged::{Judging, Outcome, Seen};
use super::sessions::{Lines, is_live};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How often a quiet recording is looked at again.
const LOOK_AGAIN: Duration = Duration::from_millis(100);

/// Follows `session` (a path, or a file name in the taps folder), or the newest live one, in
/// words or as JSON lines; exit 1 when a result broke its outputSchema, or there was nothing
/// to attach to.
pub fn run(session: Option<&Path>, json: bool) -> i32 {
    let path = match chosen(session) {
        Ok(path) => path,
        Err(why) => {
            eprintln!("error: {why}");
            return 1;
        }
    };
    let mut file = match crate::private_files::open_named(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            return 1;
        }
    };
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    say_attached(&name, is_live(&path), json);
    let mut judging = Judging::live();
    let mut lines = Lines::default();
    let mut buffer = vec![0u8; 256 * 1024];
    loop {
        let n = match file.read(&mut buffer) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => 0,
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                break;
            }
        };
        for line in lines.push(&buffer[..n]) {
            let seen = judging.push(&String::from_utf8_lossy(&line));
            match json {
                true => tell_json(&seen, &judging),
                false => tell(&seen, &judging),
            }
        }
        if n > 0 {
            continue;
        }
        // Read to the end: the tap may have written its last lines just before it let go.
        if !is_live(&path) && file.read(&mut buffer).is_ok_and(|n| n == 0) {
            break;
        }
        std::thread::sleep(LOOK_AGAIN);
    }
    say_ended(&name, judging.session(), json)
}

fn say_attached(name: &str, live: bool, json: bool) {
    let state = match live {
        true => "live; Ctrl-C detaches, the session goes on",
        false => "ended",
    };
    match json {
        true => out(&crate::untrusted::json(
            &serde_json::json!({"attached": {"session": name, "live": live}}),
            false,
        )),
        false => out(&format!(
            "attached to {} ({state})",
            crate::untrusted::line(name, 120)
        )),
    }
}

/// The session's count, and the exit code: 1 when a result broke its outputSchema.
fn say_ended(name: &str, session: &super::judged::Session, json: bool) -> i32 {
    let violating = super::show::broken(session);
    match json {
        true => out(&crate::untrusted::json(
            &serde_json::json!({"ended": {"session": name, "messages": session.messages,
                "calls": session.calls.len(), "violating": violating}}),
            false,
        )),
        false => out(&format!(
            "session ended: {} · {} · {violating} violating",
            crate::plural::count(session.messages, "message"),
            crate::plural::count(session.calls.len(), "call"),
        )),
    }
    match violating {
        0 => 0,
        _ => 1,
    }
}

/// The session named (a path, or a file name in the taps folder), or the newest live one.
fn chosen(session: Option<&Path>) -> Result<PathBuf, String> {
    let dir = super::sessions::dir().ok_or("no state directory ($XDG_STATE_HOME or $HOME)")?;
    if let Some(named) = session {
        return Ok(match named.exists() || named.components().count() > 1 {
            true => named.to_path_buf(),
            false => dir.join(named),
        });
    }
    let kept = super::sessions::kept(&dir);
    kept.iter()
        .rev()
        .map(|(_, path)| path)
        .find(|path| is_live(path))
        .cloned()
        .ok_or_else(|| {
            format!(
                "no tap is running ({} kept in {}: `mcp-inspect taps` lists them, `mcp-inspect attach SESSION` shows one)",
                crate::plural::count(kept.len(), "session"),
                dir.display()
            )
        })
}

fn out(text: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// One line of the recording as the viewer sees it.
fn tell(seen: &Seen, judging: &Judging) {
    for line in shown(seen, judging) {
        out(&line);
    }
}

/// One line of the recording as a JSON object (escaped as every JSON output is).
fn tell_json(seen: &Seen, judging: &Judging) {
    let value = match seen {
        Seen::Message {
            at,
            from_host,
            bytes,
            what,
        } => {
            serde_json::json!({"message": {"atMs": at, "fromHost": from_host, "bytes": bytes, "what": what}})
        }
        Seen::Answered(i) => match judging.session().calls.get(*i) {
            Some(call) => serde_json::json!({"call": super::show::call_json(call)}),
            None => return,
        },
        Seen::Stray(at, line) => serde_json::json!({"notJsonRpc": {"atMs": at, "line": line}}),
        Seen::Nothing => return,
    };
    out(&crate::untrusted::json(&value, false));
}

/// What the viewer shows of one recorded line; everything from the server escaped.
fn shown(seen: &Seen, judging: &Judging) -> Vec<String> {
    match seen {
        Seen::Message {
            at,
            from_host,
            bytes,
            what,
        } => {
            let arrow = match from_host {
                true => "host → server",
                false => "server → host",
            };
            vec![format!(
                "{at:>7} ms  {arrow}  {}  ({bytes} B)",
                crate::untrusted::line(what, 300)
            )]
        }
        Seen::Answered(i) => {
            let Some(call) = judging.session().calls.get(*i) else {
                return Vec::new();
            };
            let at = call.at + call.took.unwrap_or(0);
            let mut lines = vec![super::show::call_line(call, at)];
            if let Outcome::Judged { violations, .. } = &call.outcome {
                for v in violations {
                    lines.push(format!("    ✗ {}", crate::untrusted::line(v, 300)));
                }
            }
            lines
        }
        Seen::Stray(at, line) => vec![super::show::stray_line(*at, line)],
        Seen::Nothing => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A recording holds what a hostile server sent: escape sequences, bidi controls and a
    /// huge log line reach the viewer escaped and cut.
    #[test]
    fn a_hostile_session_reaches_the_viewer_escaped() {
        let mut judging = Judging::live();
        let lines = [
            json!({"t": 1, "dir": "in", "message": {"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "\u{1b}]52;c;cHduZWQ=\u{7}", "data": "\u{9b}2J\u{202e}".repeat(10_000)}}}),
            json!({"t": 2, "dir": "out", "message": {"jsonrpc": "2.0", "id": "\u{1b}[2J", "method": "tools/call",
                "params": {"name": "x\u{1b}]0;title\u{7}", "arguments": {}}}}),
            json!({"t": 3, "dir": "in", "message": {"jsonrpc": "2.0", "id": "\u{1b}[2J",
                "error": {"code": 1e300, "message": "\u{1b}[31mred"}}}),
            json!({"t": 4, "dir": "in", "notJsonRpc": "\u{1b}[?1049h"}),
        ];
        for line in lines {
            for shown in shown(&judging.push(&line.to_string()), &judging) {
                assert!(
                    !shown.chars().any(crate::untrusted::is_dangerous),
                    "{shown:?}"
                );
                assert!(shown.chars().count() < 700, "{shown}");
            }
        }
    }
}
