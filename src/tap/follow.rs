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

/// A recording read as the tap writes it: its whole lines, from the start, until the tap lets
/// go of it. Blocking; shared by `attach` in words and the TUI attached to a tap.
pub struct Following {
    pub path: PathBuf,
    file: std::fs::File,
    lines: Lines,
    buffer: Vec<u8>,
    /// Why reading stopped before the tap ended, if it did.
    pub failed: Option<String>,
}

impl Following {
    /// Opens `session` (see [`chosen`]), or says why not.
    pub fn open(session: Option<&Path>) -> Result<Following, String> {
        let path = chosen(session)?;
        let file = crate::private_files::open_named(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Following {
            path,
            file,
            lines: Lines::at_most(super::sessions::MAX_RECORDED_LINE),
            buffer: vec![0u8; 256 * 1024],
            failed: None,
        })
    }

    /// The session's file name, as the user sees it.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned())
    }

    pub fn is_live(&self) -> bool {
        is_live(&self.path)
    }

    /// The next whole lines, waiting (a look every [`LOOK_AGAIN`]) while the tap is live and
    /// quiet, for as long as `go_on` says; `None` once the tap ended and every line was read,
    /// or `go_on` said stop.
    pub fn next_lines(&mut self, go_on: impl Fn() -> bool) -> Option<Vec<Vec<u8>>> {
        while go_on() {
            let n = match self.file.read(&mut self.buffer) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => 0,
                Err(e) => {
                    self.failed = Some(format!("{}: {e}", self.path.display()));
                    return None;
                }
            };
            if n > 0 {
                let lines = self.lines.push(&self.buffer[..n]);
                match lines.is_empty() {
                    true => continue,
                    false => return Some(lines),
                }
            }
            // Read to the end: the tap may have written its last lines just before it let go.
            if !is_live(&self.path) && self.file.read(&mut self.buffer).is_ok_and(|n| n == 0) {
                return None;
            }
            std::thread::sleep(LOOK_AGAIN);
        }
        None
    }
}

/// Follows `session` (a path, or a file name in the taps folder), or the newest live one, in
/// words or as JSON lines; exit 1 when a result broke its outputSchema, or there was nothing
/// to attach to.
pub fn run(session: Option<&Path>, json: bool) -> i32 {
    let mut following = match Following::open(session) {
        Ok(following) => following,
        Err(why) => {
            eprintln!("error: {why}");
            return 1;
        }
    };
    let name = following.name();
    say_attached(&name, following.is_live(), json);
    let mut judging = Judging::live();
    while let Some(lines) = following.next_lines(|| true) {
        for line in lines {
            let seen = judging.push(&String::from_utf8_lossy(&line));
            match json {
                true => tell_json(&seen, &judging),
                false => tell(&seen, &judging),
            }
        }
    }
    if let Some(why) = &following.failed {
        eprintln!("error: {why}");
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
pub fn chosen(session: Option<&Path>) -> Result<PathBuf, String> {
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
