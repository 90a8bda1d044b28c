//! `mcp-inspect tap -- COMMAND ARGS…`: put in a host's config (Claude Desktop, Claude Code,
//! Cursor, VS Code, Codex) in place of a stdio server's command. It starts the server through
//! the guard, forwards every byte between the host and the server unchanged in both directions
//! (stderr passes straight through), forwards SIGINT, SIGTERM and SIGHUP, exits with the
//! server's exit code and leaves no process behind. Each session is recorded (see
//! [`sessions`]); forwarding never waits on the recording: a full disk or a slow one drops
//! recorded lines, never bytes between the host and the server.

pub mod follow;
pub mod http;
pub mod install;
pub mod judged;
mod said;
pub mod sessions;
pub mod show;

use crate::mcp::transport::record::Direction;
use nix::sys::signal::{SigSet, Signal};
use nix::unistd::Pid;
use sessions::Tapped;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

/// What `tap` was given.
pub struct Options<'a> {
    /// The server's command and its arguments.
    pub command: &'a [String],
    /// `-e KEY=VALUE`: the server's environment; the values are secrets, never recorded.
    pub env: &'a [String],
    /// Sessions kept at most; the oldest are deleted past it.
    pub keep: usize,
}

/// Runs the tap until the server exits; its exit code (128 + signal when a signal ended it).
pub fn run(options: &Options<'_>) -> i32 {
    let Some((program, args)) = options.command.split_first() else {
        eprintln!("mcp-inspect tap: no server command (mcp-inspect tap -- COMMAND ARGS…)");
        return 2;
    };
    let mut env = Vec::new();
    for pair in options.env {
        let Some((key, value)) = pair.split_once('=') else {
            eprintln!("mcp-inspect tap: -e {pair}: expected KEY=VALUE");
            return 2;
        };
        crate::secrets::register(value);
        env.push((key.to_string(), value.to_string()));
    }
    let mut child = match spawn(program, args, &env) {
        Ok(child) => child,
        Err(e) => {
            eprintln!("mcp-inspect tap: cannot start {program}: {e}");
            return if e.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            };
        }
    };
    let server = Pid::from_raw(i32::try_from(child.id()).unwrap_or(0));
    forward_signals(server);
    let tapped = Tapped::start(options.command, options.keep);
    let (Some(to_server), Some(from_server)) = (child.stdin.take(), child.stdout.take()) else {
        eprintln!("mcp-inspect tap: the server's pipes could not be had");
        return 126;
    };
    let sink = tapped.sink();
    std::thread::spawn(move || pump(std::io::stdin(), to_server, Direction::Out, sink));
    let sink = tapped.sink();
    let answers =
        std::thread::spawn(move || pump(from_server, std::io::stdout(), Direction::In, sink));
    let status = child.wait();
    // The server is gone (the guard ended every descendant): its stdout ends, all of it passed on.
    let _ = answers.join();
    tapped.finish();
    match status {
        Ok(status) => status.code().unwrap_or(1),
        Err(e) => {
            eprintln!("mcp-inspect tap: waiting for the server failed: {e}");
            1
        }
    }
}

/// The server, through the guard when this is our binary (its whole tree ends with it, and
/// with the tap however the tap ends), stdin and stdout piped, stderr the host's own.
fn spawn(
    program: &str,
    args: &[String],
    env: &[(String, String)],
) -> std::io::Result<std::process::Child> {
    let mut command = match crate::mcp::transport::guard::program() {
        Some(guard) => {
            let mut command = Command::new(guard);
            command
                .arg(crate::mcp::transport::guard::GUARD_ARG)
                .arg(std::process::id().to_string())
                .arg("--")
                .arg(program)
                .args(args);
            command
        }
        None => {
            let mut command = Command::new(program);
            command.args(args);
            command
        }
    };
    command
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
}

/// SIGINT, SIGTERM and SIGHUP to the tap go to the server (the guard ends its tree and exits
/// with its status, which the tap then exits with). Blocked here and waited for on a thread
/// of their own; the server started before, with the mask it had.
fn forward_signals(server: Pid) {
    let mut mask = SigSet::empty();
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        mask.add(signal);
    }
    if mask.thread_block().is_err() {
        return;
    }
    std::thread::spawn(move || {
        while let Ok(signal) = mask.wait() {
            let _ = nix::sys::signal::kill(server, signal);
        }
    });
}

/// Copies `from` to `to` as it comes, flushed after every read; what is read is first handed
/// to the recording (which drops it rather than wait, and splits it into lines on its own
/// thread). Ends at the end of `from` or when `to` is closed; `to` is closed then (the server
/// sees the host's stdin end).
fn pump(mut from: impl Read, mut to: impl Write, direction: Direction, mut sink: sessions::Sink) {
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        // Recorded before it is passed on (the offer never waits): a request is always in the
        // recording before the answer it leads to, which the other direction records.
        sink.offer_chunk(direction, &buffer[..n]);
        if to
            .write_all(&buffer[..n])
            .and_then(|()| to.flush())
            .is_err()
        {
            break;
        }
    }
    sink.ended(direction);
}
