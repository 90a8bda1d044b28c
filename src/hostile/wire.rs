//! How the hostile server writes: whole JSON-RPC lines under one lock (so a flood thread and an
//! answer never interleave mid-line, unless on purpose), garbage, floods and stubbornness.

use super::payloads::ESCAPES;
use serde_json::{Value, json};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Notifications per millisecond while flooding (10,000 a second).
const FLOOD_PER_MS: usize = 10;

/// Where a wire writes: stdout, or (over HTTP) the body of one answer.
type Out = Box<dyn Write + Send>;

#[derive(Clone)]
pub struct Wire {
    out: Arc<Mutex<Out>>,
}

/// The bytes a buffer wire was given (see [`Wire::buffer`]).
#[derive(Clone, Default)]
pub struct Written(Arc<Mutex<Vec<u8>>>);

impl Written {
    pub fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .map(|mut b| std::mem::take(&mut *b))
            .unwrap_or_default()
    }
}

impl Write for Written {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut kept) = self.0.lock() {
            kept.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Wire {
    pub fn stdout() -> Wire {
        Wire {
            out: Arc::new(Mutex::new(Box::new(std::io::stdout()))),
        }
    }

    /// A wire whose lines are kept, for one HTTP answer.
    pub fn buffer() -> (Wire, Written) {
        let written = Written::default();
        let wire = Wire {
            out: Arc::new(Mutex::new(Box::new(written.clone()))),
        };
        (wire, written)
    }

    /// Writes raw bytes and flushes; a closed stdout ends the process (the client is gone).
    pub fn raw(&self, bytes: &[u8]) {
        self.locked(|out| out.write_all(bytes));
    }

    /// Writes through one held lock, so nothing else lands inside what `write` produces.
    pub fn locked(&self, write: impl FnOnce(&mut Out) -> std::io::Result<()>) {
        let Ok(mut out) = self.out.lock() else { return };
        if write(&mut out).and_then(|()| out.flush()).is_err() {
            std::process::exit(0);
        }
    }

    /// Writes one message as one line.
    pub fn send(&self, message: &Value) {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        self.raw(&line);
    }

    pub fn result(&self, id: &Value, result: Value) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    pub fn error(&self, id: &Value, code: i64, message: &str) {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
        );
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Lines no client can use: not JSON, not UTF-8, the wrong shape, or for nobody.
    pub fn garbage(&self) {
        let mut lines: Vec<Vec<u8>> = vec![
            format!("this is not JSON{ESCAPES}").into_bytes(),
            vec![0xff, 0xfe, 0x00, 0x9b, b'{'],
            b"[1, 2, 3]".to_vec(),
            b"{\"jsonrpc\": \"2.0\", \"id\": 987654321, \"result\": {}}".to_vec(),
            b"{\"jsonrpc\": \"2.0\", \"method\": \"notifications/progress\", \"params\": \"nonsense\"}"
                .to_vec(),
            b"{\"jsonrpc\": \"1.0\", \"surprise\": true}".to_vec(),
            Vec::new(),
        ];
        for line in &mut lines {
            line.push(b'\n');
            self.raw(line);
        }
    }

    /// Starts 10,000 notifications a second on another thread: log messages and stderr lines
    /// full of escapes, and progress for `token` (or for tokens nobody asked for). Runs until
    /// `until`, or for as long as the client listens.
    pub fn flood(&self, token: Option<Value>, until: Option<Instant>) {
        let wire = self.clone();
        std::thread::spawn(move || {
            let mut n: u64 = 0;
            while until.is_none_or(|u| Instant::now() < u) {
                for _ in 0..FLOOD_PER_MS {
                    n += 1;
                    match n % 4 {
                        0 => wire.notify(
                            "notifications/progress",
                            json!({
                                "progressToken": token.clone().unwrap_or_else(|| json!(format!("stray-{n}"))),
                                "progress": n,
                                "message": format!("flood {n}{ESCAPES}"),
                            }),
                        ),
                        1 => eprintln!("hostile: flood {n}{ESCAPES}"),
                        _ => wire.notify(
                            "notifications/message",
                            json!({"level": "warning", "logger": format!("flood{ESCAPES}"), "data": format!("flood {n}{ESCAPES}")}),
                        ),
                    }
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
    }
}

/// Blocks SIGTERM for this process and everything it starts (a blocked signal stays pending:
/// only SIGKILL ends it), then starts a grandchild that sleeps. Returns the grandchild's pid.
pub fn become_stubborn() -> Option<u32> {
    let mut term = nix::sys::signal::SigSet::empty();
    term.add(nix::sys::signal::Signal::SIGTERM);
    let _ = nix::sys::signal::pthread_sigmask(
        nix::sys::signal::SigmaskHow::SIG_BLOCK,
        Some(&term),
        None,
    );
    std::process::Command::new("sh")
        .args(["-c", "sleep 600; : hostile-grandchild"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .ok()
        .map(|child| child.id())
}
