//! Checks shared by the hostile-server tests: text fit for a terminal, and processes gone.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Characters a terminal must never receive from a server: C0 controls but newline, DEL, C1
/// controls and the bidi controls.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}')
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

/// A loopback port that counts the connections made to it (nothing may ever connect).
pub struct CountingListener {
    pub url: String,
    count: Arc<AtomicUsize>,
}

impl CountingListener {
    pub fn start() -> CountingListener {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let count = Arc::new(AtomicUsize::new(0));
        let counter = count.clone();
        std::thread::spawn(move || {
            for _ in listener.incoming() {
                counter.fetch_add(1, Ordering::SeqCst);
            }
        });
        CountingListener {
            url: format!("http://127.0.0.1:{port}"),
            count,
        }
    }

    pub fn connections(&self) -> usize {
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

/// Waits up to two seconds for every pid to be gone.
pub fn assert_gone(pids: &[i32], when: &str) {
    let deadline = Instant::now() + Duration::from_secs(2);
    while pids.iter().any(|p| *p > 0 && alive(*p)) {
        assert!(
            Instant::now() < deadline,
            "{when}: processes left behind: {pids:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
