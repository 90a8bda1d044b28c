//! The stdio server process: spawned in its own process group through the guard (see
//! [`crate::mcp::transport::guard`]) with every pipe ours, stderr kept as a bounded tail, stdout screened line
//! by line, and shut down without leaving orphans.

use crate::mcp::session::events::{EventSink, ServerEvent};
use crate::mcp::transport::duplicate_keys;
use crate::mcp::transport::handover::{self, Handover, ToRmcp};
use crate::mcp::transport::lines::{
    Line, MAX_MESSAGE_VALUES, TAIL_BYTES, count, read_line, too_costly,
};
use crate::mcp::transport::raw::{Pass, RawResponses};
use crate::mcp::transport::salvage;
use crate::untrusted;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::process::{Child, ChildStdin, Command};

/// Lines of stderr kept for error messages and the log pane.
pub const STDERR_TAIL_LINES: usize = 200;
/// Longest stderr line kept.
const STDERR_LINE_MAX: usize = 4_096;
/// Largest JSON-RPC message accepted from a server; larger ones are dropped with a notice.
/// 16 MiB is rmcp's limit for Streamable HTTP events too, so both transports agree.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;
/// How long a server gets to exit by itself after its stdin closes, and again after SIGTERM.
const GRACE: Duration = Duration::from_millis(100);
/// How long the guard gets to end every descendant after SIGTERM (it gives them 100 ms).
const GUARD_GRACE: Duration = Duration::from_millis(1_000);

/// The last lines a server wrote to stderr, and whether its stderr has ended.
#[derive(Clone, Default)]
pub struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    ended: Arc<(std::sync::atomic::AtomicBool, tokio::sync::Notify)>,
}

impl StderrTail {
    /// Waits at most `within` for the server's stderr to end: a server that crashes writes its
    /// last words and exits, and its stdout may close before they are read.
    pub async fn settled(&self, within: Duration) {
        let (done, notify) = &*self.ended;
        let notified = notify.notified();
        if !done.load(std::sync::atomic::Ordering::SeqCst) {
            let _ = tokio::time::timeout(within, notified).await;
        }
    }

    fn end(&self) {
        let (done, notify) = &*self.ended;
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        notify.notify_waiters();
    }

    fn push(&self, line: String) {
        if let Ok(mut tail) = self.lines.lock() {
            if tail.len() >= STDERR_TAIL_LINES {
                tail.pop_front();
            }
            tail.push_back(line);
        }
    }

    /// The last `n` lines, oldest first, already escaped for a terminal.
    pub fn last(&self, n: usize) -> Vec<String> {
        self.lines
            .lock()
            .map(|t| t.iter().skip(t.len().saturating_sub(n)).cloned().collect())
            .unwrap_or_default()
    }
}

/// A running stdio server. Dropping it kills the whole process group.
pub struct ServerProcess {
    child: Child,
    /// Copies rmcp's writes to the server's stdin; ending it closes stdin.
    stdin_pump: tokio::task::JoinHandle<()>,
    pgid: Option<i32>,
    /// Started through the guard: ending the guard ends every descendant.
    guarded: bool,
    pub stderr: StderrTail,
}

/// What `spawn` hands back: the process, and the transport rmcp speaks over.
pub struct Spawned {
    pub process: ServerProcess,
    /// The server's messages (stdout, screened) reach rmcp typed; rmcp's are copied to the
    /// server's stdin.
    pub transport: Handover,
}

pub fn spawn(
    command: &str,
    args: &[String],
    env: &[(String, String)],
    cwd: Option<&PathBuf>,
    events: &EventSink,
    raw: &RawResponses,
) -> std::io::Result<Spawned> {
    let Unscreened {
        process,
        stdout,
        to_server,
    } = start((command, args, env, cwd), events, raw, Writer::Rmcp)?;
    let (to_rmcp, from_server) = handover::channel();
    tokio::spawn(pump_stdout(stdout, to_rmcp, events.clone(), raw.clone()));
    Ok(Spawned {
        process,
        transport: Handover::new(from_server, to_server, raw.clone()),
    })
}

/// A server started as [`spawn`] starts it, with its stdout left as it writes it: for
/// `conform`'s probes of what a server does with lines no client library would send.
pub struct Unscreened {
    pub process: ServerProcess,
    pub stdout: BufReader<tokio::process::ChildStdout>,
    /// Copied to the server's stdin; shutting it down closes the server's stdin.
    pub to_server: DuplexStream,
}

/// A command line with its environment and working directory.
pub type CommandLine<'a> = (
    &'a str,
    &'a [String],
    &'a [(String, String)],
    Option<&'a PathBuf>,
);

pub fn spawn_unscreened(
    command_line: CommandLine<'_>,
    events: &EventSink,
    raw: &RawResponses,
) -> std::io::Result<Unscreened> {
    start(command_line, events, raw, Writer::Lines)
}

/// Who writes to a server's stdin, and so who notes which requests await an answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Writer {
    /// rmcp, through [`Handover`], which notes each message from its type as it sends it.
    Rmcp,
    /// Anything that writes lines (`conform`'s probes): the stdin pump reads each.
    Lines,
}

fn start(
    (command, args, env, cwd): CommandLine<'_>,
    events: &EventSink,
    raw: &RawResponses,
    writer: Writer,
) -> std::io::Result<Unscreened> {
    check_startable(command, env, cwd)?;
    let guard = crate::mcp::transport::guard::program();
    let mut cmd = match &guard {
        Some(program) => {
            let mut cmd = Command::new(program);
            cmd.arg(crate::mcp::transport::guard::GUARD_ARG)
                .arg(std::process::id().to_string())
                .arg("--")
                .arg(command)
                .args(args);
            cmd
        }
        None => {
            let mut cmd = Command::new(command);
            cmd.args(args);
            cmd
        }
    };
    cmd.envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        // Through the guard, a SIGKILL on drop would end the guard before it ends the rest;
        // `Drop for ServerProcess` asks it to end everything instead.
        .kill_on_drop(guard.is_none());
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn()?;
    let pgid = child.id().and_then(|p| i32::try_from(p).ok());
    let stderr = StderrTail::default();
    let (Some(stdin), Some(stdout), Some(err)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(std::io::Error::other("child pipes missing"));
    };
    tokio::spawn(pump_stderr(
        BufReader::new(err),
        stderr.clone(),
        events.clone(),
    ));
    let (to_server, we_read) = tokio::io::duplex(64 * 1024);
    let stdin_pump = tokio::spawn(pump_stdin(we_read, stdin, raw.clone(), writer));
    Ok(Unscreened {
        process: ServerProcess {
            child,
            stdin_pump,
            pgid,
            guarded: guard.is_some(),
            stderr,
        },
        stdout: BufReader::new(stdout),
        to_server,
    })
}

/// Says now, as `exec` would, when the command or the directory does not exist: through the
/// guard the failure would otherwise surface as an early exit.
fn check_startable(
    command: &str,
    env: &[(String, String)],
    cwd: Option<&PathBuf>,
) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    if let Some(dir) = cwd
        && !dir.is_dir()
    {
        return Err(Error::other(format!(
            "the working directory {} does not exist",
            dir.display()
        )));
    }
    let base = cwd.cloned().unwrap_or_default();
    let runnable = |path: &std::path::Path| {
        use std::os::unix::fs::PermissionsExt;
        let path = base.join(path);
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let found = if command.contains('/') {
        runnable(std::path::Path::new(command))
    } else {
        let path = env
            .iter()
            .rev()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| std::ffi::OsString::from(v))
            .or_else(|| std::env::var_os("PATH"))
            .unwrap_or_default();
        std::env::split_paths(&path).any(|dir| runnable(&dir.join(command)))
    };
    if found {
        Ok(())
    } else {
        Err(Error::new(ErrorKind::NotFound, "command not found"))
    }
}

/// Copies client messages to the server's stdin, each tapped and, unless rmcp noted it as it
/// sent it ([`Writer`]), read for the request ids that now await an answer.
/// The pipe is owned here, so ending this task is what closes the server's stdin, whatever rmcp
/// does with its end.
async fn pump_stdin(
    from_rmcp: DuplexStream,
    mut stdin: ChildStdin,
    raw: RawResponses,
    writer: Writer,
) {
    let mut lines = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    loop {
        // A read cut short by a refusal keeps what it read in `line` (read_until is cancel
        // safe); the line is cleared only once written.
        let read = tokio::select! {
            read = lines.read_until(b'\n', &mut line) => read,
            // Answers to the server's requests refused for a cap (see RawResponses::admit).
            () = raw.refusals_queued() => {
                for refusal in raw.take_refusals() {
                    raw.sent_line(&refusal);
                    if stdin.write_all(&refusal).await.is_err() {
                        return;
                    }
                }
                continue;
            }
        };
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                // The lines written meanwhile, already read, go with it in one write.
                let buffered = lines.buffer();
                if let Some(end) = memchr::memrchr(b'\n', buffered) {
                    line.extend_from_slice(&buffered[..=end]);
                    std::pin::Pin::new(&mut lines).consume(end + 1);
                }
                for one in line.split_inclusive(|b| *b == b'\n') {
                    match writer {
                        Writer::Rmcp => raw.tap_sent(one),
                        Writer::Lines => raw.sent_line(one),
                    }
                }
                if stdin.write_all(&line).await.is_err() || stdin.flush().await.is_err() {
                    break;
                }
                line.clear();
            }
        }
    }
    let _ = stdin.shutdown().await;
}

async fn pump_stderr(
    mut reader: BufReader<tokio::process::ChildStderr>,
    tail: StderrTail,
    events: EventSink,
) {
    loop {
        let text = match read_line(&mut reader, STDERR_LINE_MAX).await {
            Ok(Line::Complete(bytes)) => {
                untrusted::line(&String::from_utf8_lossy(&bytes), STDERR_LINE_MAX).into_owned()
            }
            Ok(Line::TooLong { head, total, .. }) => format!(
                "{}… [{} bytes in all]",
                untrusted::line(&String::from_utf8_lossy(&head), STDERR_LINE_MAX),
                total
            ),
            Ok(Line::Eof) | Err(_) => return tail.end(),
        };
        tail.push(text.clone());
        events.send(ServerEvent::Stderr(text));
    }
}

/// Hands each JSON line to rmcp, typed; reports and drops non-JSON and oversized lines, which
/// rmcp would otherwise drop silently (or buffer without bound). A dropped response whose id
/// can be read is answered with an error, so its request fails now rather than at the timeout.
/// Ends (and rmcp sees the server's output end) at the end of stdout.
async fn pump_stdout(
    mut reader: BufReader<tokio::process::ChildStdout>,
    to_rmcp: ToRmcp,
    events: EventSink,
    raw: RawResponses,
) {
    loop {
        let (message, head, tail) = match read_line(&mut reader, MAX_MESSAGE_BYTES).await {
            Ok(Line::Complete(bytes)) => match screen_line(bytes, &raw, &events) {
                Screened::Write(lines) => {
                    for line in lines {
                        if !hand_over(&to_rmcp, &line, &raw).await {
                            return;
                        }
                    }
                    continue;
                }
                Screened::Dropped {
                    message,
                    head,
                    tail,
                } => (message, head, tail),
            },
            Ok(Line::TooLong { head, tail, total }) => (
                format!(
                    "the server sent a {total}-byte message, over the {} MiB limit: dropped",
                    MAX_MESSAGE_BYTES >> 20
                ),
                head,
                tail,
            ),
            Ok(Line::Eof) | Err(_) => return,
        };
        if !answer_dropped(&to_rmcp, &events, &raw, message, &head, &tail).await {
            return;
        }
    }
}

/// Hands one screened line to rmcp, typed (see [`handover::typed`]); false when rmcp's side is
/// gone.
async fn hand_over(to_rmcp: &ToRmcp, line: &[u8], raw: &RawResponses) -> bool {
    match handover::typed(line, raw) {
        Some(message) => to_rmcp.send(message, line.len()).await,
        None => true,
    }
}

/// What one whole line from the server comes to, for rmcp.
enum Screened {
    /// These lines go on to rmcp (none: nothing does).
    Write(Vec<Vec<u8>>),
    /// Dropped for this reason; its request is answered if its id can be read off the bytes.
    Dropped {
        message: String,
        head: Vec<u8>,
        tail: Vec<u8>,
    },
}

/// How the notice of a line on stdout that is not JSON begins (`conform` counts them).
pub const NON_JSON_LINE: &str = "the server wrote a non-JSON line to stdout";

/// Screens one line: bad UTF-8 replaced, a message too costly never parsed, a batch split,
/// repeated keys named, each message sorted by [`RawResponses::screen`].
fn screen_line(mut bytes: Vec<u8>, raw: &RawResponses, events: &EventSink) -> Screened {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Screened::Write(Vec::new());
    }
    // One bad byte would fail the whole message (a whole page of tools): it is replaced by
    // U+FFFD, which shows, and the rest is kept.
    if let Err(e) = std::str::from_utf8(&bytes) {
        events.send(ServerEvent::Notice(format!(
            "the server sent invalid UTF-8 at byte {} of a message: shown as U+FFFD",
            e.valid_up_to()
        )));
        bytes = String::from_utf8_lossy(&bytes).into_owned().into_bytes();
    }
    let counts = count(&bytes, MAX_MESSAGE_VALUES);
    if let Some(why) = too_costly(bytes.len(), counts) {
        let tail = &bytes[bytes.len().saturating_sub(TAIL_BYTES)..];
        let text = String::from_utf8_lossy(&bytes);
        let instead = raw.unparsed((&bytes, tail), &text, &why, events);
        return Screened::Write(instead.into_iter().map(String::into_bytes).collect());
    }
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        // A JSON-RPC batch (gone from MCP since 2025-06-18, still sent by some servers): each
        // message is handled on its own, as if sent alone.
        Ok(serde_json::Value::Array(batch)) => {
            events.send(ServerEvent::Notice(format!(
                "the server sent a JSON-RPC batch of {}: each handled on its own",
                crate::plural::count(batch.len(), "message")
            )));
            let lines = batch.into_iter().filter_map(|message| {
                let text = message.to_string();
                match raw.screen(message, &text, events) {
                    Pass::Drop => None,
                    Pass::AsSent => Some(text.into_bytes()),
                    Pass::Instead(stub) => Some(stub.into_bytes()),
                }
            });
            Screened::Write(lines.collect())
        }
        Ok(message) => {
            if counts.keys > duplicate_keys::keys_in(&message) {
                events.send(ServerEvent::Notice(duplicate_keys::notice(&bytes)));
            }
            let pass = raw.screen(message, &String::from_utf8_lossy(&bytes), events);
            Screened::Write(match pass {
                Pass::Drop => Vec::new(),
                Pass::AsSent => vec![bytes],
                Pass::Instead(stub) => vec![stub.into_bytes()],
            })
        }
        // A line cut off by the server's exit: the connection's end says it better.
        Err(e) if e.is_eof() => {
            events.send(ServerEvent::Notice(format!(
                "the server's output ended in the middle of a message ({e})"
            )));
            Screened::Write(Vec::new())
        }
        Err(e) => {
            let tail = bytes[bytes.len().saturating_sub(TAIL_BYTES)..].to_vec();
            let message = if e.to_string().contains("recursion limit") {
                format!("the server sent a message nested too deep to read ({e}): dropped")
            } else {
                format!(
                    "{NON_JSON_LINE} ({e}): {}",
                    untrusted::line(&String::from_utf8_lossy(&bytes), 200)
                )
            };
            Screened::Dropped {
                message,
                head: bytes,
                tail,
            }
        }
    }
}

/// Says why a message was dropped, and answers its request (when its id can be read from its
/// first or last bytes) with that reason, so the request fails now rather than at the timeout.
/// False when rmcp's side is gone.
async fn answer_dropped(
    to_rmcp: &ToRmcp,
    events: &EventSink,
    raw: &RawResponses,
    message: String,
    head: &[u8],
    tail: &[u8],
) -> bool {
    events.send(ServerEvent::Notice(message.clone()));
    if let Some(id) = salvage::response_id(head, tail) {
        let line = salvage::error_line(&id, &message);
        if let Ok(error) = serde_json::from_slice::<serde_json::Value>(&line) {
            raw.record(error, line.len());
        }
        return hand_over(to_rmcp, line.trim_ascii_end(), raw).await;
    }
    true
}

impl ServerProcess {
    /// How the server exited, if it has.
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Waits briefly for the server to exit; the caller has closed its stdin.
    pub async fn wait_briefly(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        tokio::time::timeout(limit, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok)
    }

    /// Closes stdin, waits a short grace, then SIGTERM to the group, then SIGKILL. Through the
    /// guard: SIGTERM to the guard alone, which ends every descendant, wherever its group.
    pub async fn shutdown(mut self) {
        self.stdin_pump.abort();
        let _ = (&mut self.stdin_pump).await;
        if self.guarded && self.wait_briefly(GRACE).await.is_none() {
            self.signal_guard(nix::sys::signal::Signal::SIGTERM);
            let _ = self.wait_briefly(GUARD_GRACE).await;
        }
        if self.wait_briefly(GRACE).await.is_none() {
            self.signal_group(nix::sys::signal::Signal::SIGTERM);
            if self.wait_briefly(GRACE).await.is_none() {
                self.signal_group(nix::sys::signal::Signal::SIGKILL);
                let _ = self.wait_briefly(GRACE).await;
            }
        }
        // Grandchildren that outlived the leader still share its group.
        self.signal_group(nix::sys::signal::Signal::SIGKILL);
        self.pgid = None;
    }

    fn signal_guard(&self, signal: nix::sys::signal::Signal) {
        if let Some(pid) = self.pgid {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), signal);
        }
    }

    fn signal_group(&self, signal: nix::sys::signal::Signal) {
        if let Some(pgid) = self.pgid {
            let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pgid), signal);
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.stdin_pump.abort();
        if self.guarded {
            // The guard ends every descendant by itself, even after we are gone; a SIGKILL
            // would leave the ones outside the group to init.
            self.signal_guard(nix::sys::signal::Signal::SIGTERM);
        } else {
            self.signal_group(nix::sys::signal::Signal::SIGKILL);
        }
    }
}
