//! Checks shared by the hostile-server tests: text fit for a terminal, and processes gone.
#![allow(dead_code)]

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Characters a terminal or clipboard must never receive from a server: C0 controls but
/// newline, DEL, C1 controls, bidi and isolate controls, zero-width and invisible characters,
/// tag characters, and the Unicode line and paragraph separators. (Written apart from the
/// product's own list on purpose.)
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}'
            | '\u{2028}' | '\u{2029}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{E0000}'..='\u{E007F}')
}

pub fn assert_terminal_safe(what: &str, text: &str) {
    if let Some((at, c)) = text.char_indices().find(|(_, c)| is_unsafe(*c)) {
        let before: Vec<char> = text[..at].chars().rev().take(60).collect();
        let before: String = before.into_iter().rev().collect();
        panic!(
            "{what}: raw U+{:04X} at byte {at}, after {before:?}",
            c as u32
        );
    }
}

/// A loopback port that counts the connections made to it (nothing may ever connect). Counted
/// when asked, from the kernel's backlog: a connection made by a process that has ended is
/// there already, so no wait is needed.
pub struct CountingListener {
    pub url: String,
    listener: std::net::TcpListener,
    count: AtomicUsize,
}

impl CountingListener {
    pub fn start() -> CountingListener {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("addr").port();
        CountingListener {
            url: format!("http://127.0.0.1:{port}"),
            listener,
            count: AtomicUsize::new(0),
        }
    }

    pub fn connections(&self) -> usize {
        while self.listener.accept().is_ok() {
            self.count.fetch_add(1, Ordering::SeqCst);
        }
        self.count.load(Ordering::SeqCst)
    }
}

/// The "PID GRANDCHILD" a hostile server wrote with `--pid-file`, waiting for it to appear.
pub fn read_pids(path: &Path) -> [i32; 2] {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            let pids: Vec<i32> = text
                .split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect();
            if let [server, grandchild] = pids[..] {
                return [server, grandchild];
            }
        }
        assert!(
            Instant::now() < deadline,
            "no pid file at {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether a process is running (a zombie waiting for its reaper is not).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Waits for every pid to be gone (up to ten seconds: a process left behind lives for minutes,
/// and a loaded machine may take a while to reap one that is going).
pub fn assert_gone(pids: &[i32], when: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|p| *p > 0 && alive(*p)) {
        assert!(
            Instant::now() < deadline,
            "{when}: processes left behind: {pids:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs the release-or-debug binary to its end, sampling its peak RSS (`VmHWM`) while it runs.
pub struct Measured {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub took: Duration,
    pub peak_kb: u64,
}

pub fn run_measured(bin: &str, args: &[&str], env: &[(&str, &str)]) -> Measured {
    use std::io::Read;
    let started = Instant::now();
    let mut child = std::process::Command::new(bin)
        .args(args)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run mcp-inspect");
    let (mut out, mut err) = (
        child.stdout.take().expect("stdout"),
        child.stderr.take().expect("stderr"),
    );
    let stdout = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Measured {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        took: started.elapsed(),
        peak_kb,
    }
}

/// Waits up to `within` for no process whose command line contains `pattern` (pgrep -f): the
/// fact a test waits for instead of a fixed sleep.
pub fn assert_none_matching(pattern: &str, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let found = std::process::Command::new("pgrep")
            .args(["-f", pattern])
            .output()
            .expect("pgrep");
        if found.stdout.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "left behind: {}",
            String::from_utf8_lossy(&found.stdout)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A child's stderr read as it comes, so a test can wait for a line that says the child got
/// somewhere (a call in flight) and still read all of it at the end.
pub struct StderrLines {
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl StderrLines {
    pub fn of(child: &mut std::process::Child) -> StderrLines {
        StderrLines::reading(child.stderr.take().expect("stderr piped"))
    }

    /// The lines of the child's stdout instead.
    pub fn of_stdout(child: &mut std::process::Child) -> StderrLines {
        StderrLines::reading(child.stdout.take().expect("stdout piped"))
    }

    fn reading(stream: impl std::io::Read + Send + 'static) -> StderrLines {
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stream)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        StderrLines {
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits up to `within` for a line containing `needle`.
    pub fn wait_for(&mut self, needle: &str, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(needle);
                    self.seen.push(line);
                    if found {
                        return;
                    }
                }
                Err(_) => panic!("no `{needle}` on stderr:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// Everything written, once the child has ended.
    pub fn all(mut self) -> String {
        self.seen.extend(self.lines.iter());
        self.seen.join("\n")
    }
}

/// CPU time a process has used, in clock ticks (user + system, from `/proc`).
pub fn cpu_ticks(pid: i32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let fields: Vec<u64> = stat
                .rsplit(')')
                .next()?
                .split_whitespace()
                .skip(11)
                .take(2)
                .filter_map(|f| f.parse().ok())
                .collect();
            Some(fields.iter().sum())
        })
        .unwrap_or(0)
}

/// Waits up to `within` until `pid` has burnt `ticks` more clock ticks of CPU: the fact that
/// it is busy (validating, say), where a sleep would only guess.
pub fn wait_busy(pid: i32, ticks: u64, within: Duration) {
    let start = cpu_ticks(pid);
    let deadline = Instant::now() + within;
    while cpu_ticks(pid) < start + ticks {
        assert!(Instant::now() < deadline, "{pid} never got busy");
        std::thread::sleep(Duration::from_millis(20));
    }
}
