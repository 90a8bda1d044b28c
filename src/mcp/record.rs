//! `--record FILE`: every JSON-RPC message of a session in both directions, one JSON line each:
//! `{"t": ms since connecting, "dir": "out" | "in", "message": …}`, the message as it was on the
//! wire (every field, keys in order, numbers as written) over every transport. Secrets given on
//! the command line are redacted before a line is written; the file stops growing at
//! [`MAX_BYTES`].

use serde_json::{Value, json};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A recording stops here (a flooding server must not fill the disk), with a last line that
/// says so.
pub const MAX_BYTES: u64 = 256 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From mcp-inspect to the server.
    Out,
    /// From the server.
    In,
}

/// Where the session's messages are written; shared by the transport's tasks.
pub struct Recorder {
    started: Instant,
    file: Mutex<Written>,
}

struct Written {
    out: BufWriter<File>,
    bytes: u64,
    stopped: bool,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Recorder")
    }
}

impl Recorder {
    /// Creates (or truncates) the file.
    pub fn create(path: &Path) -> std::io::Result<Arc<Recorder>> {
        Ok(Arc::new(Recorder {
            started: Instant::now(),
            file: Mutex::new(Written {
                out: BufWriter::new(File::create(path)?),
                bytes: 0,
                stopped: false,
            }),
        }))
    }

    /// Writes one message.
    pub fn note(&self, direction: Direction, message: &Value) {
        let mut line = json!({
            "t": self.started.elapsed().as_millis() as u64,
            "dir": match direction {
                Direction::Out => "out",
                Direction::In => "in",
            },
        });
        line["message"] = message.clone();
        let text = crate::secrets::redact(&line.to_string()).into_owned();
        let Ok(mut w) = self.file.lock() else {
            return;
        };
        if w.stopped {
            return;
        }
        if w.bytes + text.len() as u64 > MAX_BYTES {
            w.stopped = true;
            let note = json!({"note": format!("the recording stopped at {} MiB", MAX_BYTES >> 20)});
            let _ = writeln!(w.out, "{note}");
            let _ = w.out.flush();
            return;
        }
        w.bytes += text.len() as u64 + 1;
        // Flushed per message: a recording is most wanted when the session ends badly.
        let _ = writeln!(w.out, "{text}");
        let _ = w.out.flush();
    }
}
