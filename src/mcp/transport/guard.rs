//! The guard: a small process of this binary (`mcp-inspect __guard PARENT -- COMMAND ARGS…`)
//! that stands between the inspector and a stdio server, so that no process the server starts
//! outlives the inspector, whatever the server does and however the inspector ends.
//!
//! Linux gives the means: the guard is a child subreaper (`PR_SET_CHILD_SUBREAPER`), so every
//! descendant that is orphaned, even after `setsid()` or `setpgid()` or a double fork, is
//! re-parented to it rather than to init. It sleeps on a signal descriptor and watches three
//! things:
//! - the server exiting: every remaining descendant is ended (a grandchild holding the server's
//!   stdout would otherwise hide the exit), and the guard exits with the server's status;
//! - SIGTERM, SIGINT or SIGHUP (the inspector's shutdown): every descendant is ended;
//! - its parent changing (the inspector died, even by SIGKILL or an abort; looked at every
//!   50 ms): the same.
//!
//! "Ended" is SIGTERM to every descendant, a short grace, then SIGKILL to those left.
//! Blocking IO on plain syscalls; no async runtime. What it cannot stop: a SIGKILL sent to the
//! guard itself (its orphans then go to init), and a process that escapes to another PID
//! namespace or is started through another service (systemd-run, a container runtime).

use nix::poll::{PollFd, PollFlags, poll};
use nix::sys::signal::{SigSet, Signal, kill};
use nix::sys::signalfd::{SfdFlags, SignalFd};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getpid, getppid};
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

/// The hidden first argument that turns this binary into a guard.
pub const GUARD_ARG: &str = "__guard";
/// How often the guard looks at its parent; children and signals wake it at once.
const PARENT_CHECK_MS: u16 = 50;
/// How often descendants are looked at while they are being ended.
const POLL: Duration = Duration::from_millis(10);
/// How long descendants get between SIGTERM and SIGKILL.
const GRACE: Duration = Duration::from_millis(100);
/// What the guard prints before exiting 127/126 when the server cannot start.
pub const CANNOT_START: &str = "mcp-inspect: cannot start the server";

/// Runs the guard; `args` are what follows [`GUARD_ARG`]: `PARENT -- COMMAND ARGS…`.
/// Returns the exit code (the server's, or 128 + its signal).
pub fn run(args: &[OsString]) -> i32 {
    let (Some(parent), Some(command)) = (
        args.first()
            .and_then(|p| p.to_str())
            .and_then(|p| p.parse::<i32>().ok()),
        args.get(2),
    ) else {
        eprintln!("{CANNOT_START}: bad guard arguments");
        return 2;
    };
    let parent = Pid::from_raw(parent);
    if getppid() != parent {
        return 1; // The inspector is already gone.
    }
    let _ = nix::sys::prctl::set_child_subreaper(true);
    // Signals are read from a descriptor, not handled: blocked first (std resets the mask in
    // the server it starts).
    let mut mask = SigSet::empty();
    for signal in [
        Signal::SIGTERM,
        Signal::SIGINT,
        Signal::SIGHUP,
        Signal::SIGCHLD,
    ] {
        mask.add(signal);
    }
    let _ = mask.thread_block();
    let signals = SignalFd::with_flags(&mask, SfdFlags::SFD_NONBLOCK | SfdFlags::SFD_CLOEXEC).ok();
    let server = match std::process::Command::new(command).args(&args[3..]).spawn() {
        Ok(child) => Pid::from_raw(child.id() as i32),
        Err(e) => {
            eprintln!("{CANNOT_START}: {e}");
            return if e.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            };
        }
    };
    // The server has the pipes now; the guard keeps no copy, so their ends close with it.
    if let Ok(null) = std::fs::File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let _ = nix::unistd::dup2_stdin(&null);
        let _ = nix::unistd::dup2_stdout(&null);
        let _ = nix::unistd::dup2_stderr(&null);
    }
    loop {
        if let Some(status) = reap_until(server) {
            end_descendants();
            return exit_code(status);
        }
        if getppid() != parent {
            end_descendants();
            return 143;
        }
        // Asleep until a signal (a child exiting is SIGCHLD) or the next look at the parent.
        let Some(fd) = &signals else {
            std::thread::sleep(POLL);
            continue;
        };
        let mut ready = [PollFd::new(fd.as_fd(), PollFlags::POLLIN)];
        let _ = poll(&mut ready, PARENT_CHECK_MS);
        while let Ok(Some(info)) = fd.read_signal() {
            if info.ssi_signo != Signal::SIGCHLD as u32 {
                end_descendants();
                return 143;
            }
        }
    }
}

/// Reaps every child that has exited; returns the server's status once it has.
fn reap_until(server: Pid) -> Option<WaitStatus> {
    loop {
        match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) | Err(_) => return None,
            Ok(status) if status.pid() == Some(server) => return Some(status),
            Ok(_) => {} // An orphan re-parented to us, now reaped.
        }
    }
}

/// The server's exit as a process exit code (a signal is 128 + its number, as shells say).
fn exit_code(status: WaitStatus) -> i32 {
    match status {
        WaitStatus::Exited(_, code) => code,
        WaitStatus::Signaled(_, signal, _) => 128 + signal as i32,
        _ => 1,
    }
}

/// SIGTERM to every descendant, a grace, SIGKILL to the rest; reaps them all.
fn end_descendants() {
    let me = getpid();
    for pid in descendants(me) {
        let _ = kill(pid, Signal::SIGTERM);
    }
    let deadline = Instant::now() + GRACE;
    while Instant::now() < deadline && !descendants(me).is_empty() {
        let _ = reap_until(Pid::from_raw(0));
        std::thread::sleep(POLL);
    }
    // Repeat: a process may fork while it is being ended.
    for _ in 0..5 {
        let left = descendants(me);
        if left.is_empty() {
            break;
        }
        for pid in left {
            let _ = kill(pid, Signal::SIGKILL);
        }
        std::thread::sleep(POLL);
        let _ = reap_until(Pid::from_raw(0));
    }
}

/// Every live (not zombie) process below `root`, from `/proc`.
pub fn descendants(root: Pid) -> Vec<Pid> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut zombies = HashSet::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`: comm may hold spaces and parentheses; the last `)` ends it.
        let mut fields = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest)
            .unwrap_or("")
            .split_whitespace();
        let state = fields.next().unwrap_or("");
        if let Some(ppid) = fields.next().and_then(|p| p.parse::<i32>().ok()) {
            children.entry(ppid).or_default().push(pid);
        }
        if state == "Z" {
            zombies.insert(pid);
        }
    }
    let mut found = Vec::new();
    let mut queue = vec![root.as_raw()];
    while let Some(pid) = queue.pop() {
        for &child in children.get(&pid).map(Vec::as_slice).unwrap_or_default() {
            if !zombies.contains(&child) {
                found.push(Pid::from_raw(child));
            }
            queue.push(child);
        }
    }
    found
}

/// The guard program to start servers through: this binary, when it is mcp-inspect (a test
/// harness or another program using the library starts servers directly).
pub fn program() -> Option<std::path::PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let name = exe.file_name()?.to_str()?;
    name.starts_with("mcp-inspect").then_some(exe)
}
