//! `--record FILE`: every JSON-RPC message of a session in both directions, one JSON line each:
//! `{"t": ms since connecting, "dir": "out" | "in", "message": …}`, the message as it was on the
//! wire (every field, keys in order, numbers as written) over every transport. Secrets given on
//! the command line are redacted before a line is written; the file stops growing at
//! [`MAX_BYTES`].

use serde_json::{Value, json};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
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

impl Direction {
    /// As a recording names it.
    pub fn word(self) -> &'static str {
        match self {
            Direction::Out => "out",
            Direction::In => "in",
        }
    }
}

/// Where the session's messages are written; shared by the transport's tasks.
pub struct Recorder {
    started: Instant,
    file: Mutex<Written>,
    /// Each message flushed as it is written (else on [`Recorder::flush`]).
    flush_each: bool,
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
    /// Creates (or truncates) the file, readable by the user alone: it holds server data. A
    /// path already opened by this process gives the same recorder, so every connection of a
    /// run (a restart after a crash, a second handshake, options built again) goes on writing
    /// one recording: truncating it under its first writer left NUL bytes where the handshake
    /// had been, and a file `replay` could not serve.
    pub fn create(path: &Path) -> std::io::Result<Arc<Recorder>> {
        static OPENED: std::sync::OnceLock<Mutex<HashMap<PathBuf, Arc<Recorder>>>> =
            std::sync::OnceLock::new();
        let mut opened = (OPENED.get_or_init(Mutex::default).lock())
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(recorder) = opened.get(path) {
            return Ok(recorder.clone());
        }
        let recorder = Recorder::open(path, true)?;
        opened.insert(path.to_path_buf(), recorder.clone());
        Ok(recorder)
    }

    /// As [`Recorder::create`], writing through a buffer flushed by [`Recorder::flush`]: for a
    /// writer that flushes whenever it has nothing more to write (the tap's).
    pub fn create_buffered(path: &Path) -> std::io::Result<Arc<Recorder>> {
        Recorder::open(path, false)
    }

    fn open(path: &Path, flush_each: bool) -> std::io::Result<Arc<Recorder>> {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(path)?;
        // A file that was there keeps its mode through `open`: made private here.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        Ok(Arc::new(Recorder {
            started: Instant::now(),
            file: Mutex::new(Written {
                // A tap's recording is flushed every 20 ms at most: under load a bigger buffer
                // means fewer writes, each zeroing less of a block it starts (with 8 KiB,
                // ext4's zeroing and copying were half the recording thread's time).
                out: BufWriter::with_capacity(if flush_each { 8 << 10 } else { 64 << 10 }, file),
                bytes: 0,
                stopped: false,
            }),
            flush_each,
        }))
    }

    /// Writes one message: `text`, the message as it was on the wire, when it is that one
    /// message (numbers, key order and repeated keys as written), else `message` re-written.
    pub fn note(&self, direction: Direction, message: &Value, text: &str) {
        // Secrets are redacted in the value: the wire text keeps the server's own escapes
        // (`\u0053` for `S`), which no text match sees through. A message holding one is
        // written re-encoded, the rest exactly as they came.
        let redacted = crate::secrets::redact_value(message);
        let exact = matches!(redacted, std::borrow::Cow::Borrowed(_))
            && serde_json::from_str::<Value>(text).is_ok_and(|v| v == *message);
        let body = match exact {
            true => safe_to_show(text),
            false => std::borrow::Cow::Owned(safe_to_show(&redacted.to_string()).into_owned()),
        };
        self.write_message(direction, &body);
    }

    /// Writes a message known only by its wire text, which is one JSON object or array (a
    /// tap's lines): as it came, unless it holds a secret once parsed (then re-encoded with it
    /// redacted). Parsed only when a secret is registered: a tap records at the wire's pace.
    pub fn note_text(&self, direction: Direction, text: &str) {
        match crate::secrets::redacted_json(text) {
            Some(redacted) => self.write_message(direction, &safe_to_show(&redacted.to_string())),
            None => self.write_message(direction, &safe_to_show(text)),
        }
    }

    /// Writes `{"t":…,"dir":…,"message":BODY}`, BODY redacted (the envelope holds nothing of
    /// the server's, so a numeric secret such as `-e PIN=123456` cannot turn the time into
    /// `"t":[redacted]`), straight into the buffer: a tap records tens of thousands of lines a
    /// second.
    fn write_message(&self, direction: Direction, body: &str) {
        let body = crate::secrets::redact(body);
        // Formatted on the stack, not allocated: a tap records tens of thousands a second.
        const HEAD: usize = 64;
        let mut head = [0u8; HEAD];
        let mut room = &mut head[..];
        let _ = write!(
            room,
            "{{\"t\":{},\"dir\":\"{}\",\"message\":",
            self.started.elapsed().as_millis() as u64,
            direction.word()
        );
        let len = HEAD - room.len();
        let head = std::str::from_utf8(&head[..len]).unwrap_or_default();
        self.write_parts(&[head, &body, "}"]);
    }

    /// Writes a line of the stream that is not a JSON-RPC message (a server's banner or log
    /// line on stdout), redacted and escaped, with what a strict host makes of it.
    pub fn note_stray(&self, direction: Direction, text: &str) {
        let redacted = crate::secrets::redact(text);
        let line = json!({
            "t": self.started.elapsed().as_millis() as u64,
            "dir": direction.word(),
            "notJsonRpc": redacted,
            "note": "not a JSON-RPC message: a strict host drops the connection or fails to parse it",
        });
        self.write_parts(&[&safe_to_show(&line.to_string())]);
    }

    /// One line made of `parts` to the file, unless it is over [`MAX_BYTES`] (then a last
    /// line says so).
    fn write_parts(&self, parts: &[&str]) {
        let Ok(mut w) = self.file.lock() else {
            return;
        };
        if w.stopped {
            return;
        }
        let len: usize = parts.iter().map(|part| part.len()).sum();
        if w.bytes + len as u64 > MAX_BYTES {
            w.stopped = true;
            let note = json!({"note": format!("the recording stopped at {} MiB", MAX_BYTES >> 20)});
            let _ = writeln!(w.out, "{note}");
            let _ = w.out.flush();
            return;
        }
        w.bytes += len as u64 + 1;
        for part in parts {
            let _ = w.out.write_all(part.as_bytes());
        }
        let _ = w.out.write_all(b"\n");
        // Flushed per message: a recording is most wanted when the session ends badly.
        if self.flush_each {
            let _ = w.out.flush();
        }
    }

    /// Writes out what is buffered.
    pub fn flush(&self) {
        if let Ok(mut w) = self.file.lock() {
            let _ = w.out.flush();
        }
    }
}

/// JSON text made safe to `cat`: every character a terminal would act on (DEL, C1 controls,
/// bidi and isolate controls, zero-width and tag characters, U+2028/9) written as its `\u`
/// escape, which means the same inside a JSON string (the only place JSON allows them); line
/// breaks and tabs between tokens become spaces, so the message stays on one line.
fn safe_to_show(json: &str) -> std::borrow::Cow<'_, str> {
    // Printable ASCII (most messages) needs nothing.
    let printable = printable_ascii(json.as_bytes());
    let unsafe_here =
        |c: char| matches!(c, '\n' | '\r' | '\t') || crate::untrusted::is_dangerous(c);
    if printable || !json.chars().any(unsafe_here) {
        return json.into();
    }
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            // Raw, these can only be whitespace between tokens (JSON escapes them in strings).
            '\n' | '\r' | '\t' => out.push(' '),
            c if crate::untrusted::is_dangerous(c) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.into()
}

/// Whether every byte is printable ASCII (0x20 to 0x7e), checked eight bytes at a time: a
/// byte at a time was the tap recording's costliest step, and the release profile's size
/// optimisation does not vectorise the loop.
fn printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const SPACES: u64 = u64::from_ne_bytes([0x20; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut words = bytes.chunks_exact(8);
    let mut flagged = 0;
    for word in &mut words {
        let x = u64::from_ne_bytes(word.try_into().unwrap_or([0; 8]));
        // A byte's high bit ends set when it is under 0x20 (the subtraction borrows), over 0x7e
        // (adding one reaches 0x80) or over 0x7f (set already). A borrow or carry into the next
        // byte can flag it falsely only beside a byte that is flagged rightly.
        flagged |= (x.wrapping_sub(SPACES) & !x) | x.wrapping_add(ONES) | x;
    }
    flagged & HIGH == 0 && words.remainder().iter().all(|b| (0x20..0x7f).contains(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_ascii_is_told_apart_from_every_other_byte_wherever_it_stands() {
        for len in [1, 7, 8, 9, 16, 23] {
            for at in 0..len {
                for byte in 0..=255u8 {
                    let mut text = vec![b'a'; len];
                    text[at] = byte;
                    let expected = (0x20..0x7f).contains(&byte);
                    assert_eq!(
                        printable_ascii(&text),
                        expected,
                        "{byte:#x} at {at} of {len}"
                    );
                }
            }
        }
        // Two bytes that are not printable, side by side or apart, any of them borrowing or
        // carrying into the other.
        let edges = [0x00, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0xfe, 0xff];
        for (a, b) in edges
            .iter()
            .flat_map(|a| edges.iter().map(move |b| (*a, *b)))
        {
            for (i, j) in [(0, 1), (3, 4), (7, 8), (2, 6), (6, 9)] {
                let mut text = vec![b'{'; 12];
                (text[i], text[j]) = (a, b);
                let expected = text.iter().all(|c| (0x20..0x7f).contains(c));
                assert_eq!(printable_ascii(&text), expected, "{text:?}");
            }
        }
        assert!(printable_ascii(b""));
        assert!(printable_ascii(b" ~~~~~~~ ~~~~~~~"));
    }

    #[test]
    fn messages_are_recorded_as_received_safe_to_cat_and_private() {
        use std::os::unix::fs::PermissionsExt;
        let path = std::env::temp_dir().join(format!("record-{}.jsonl", std::process::id()));
        let recorder = Recorder::create(&path).expect("create");
        let text = "{\"id\":1,\"result\":{\"n\":1E2,\"big\":1e400,\"k\":1,\"k\":2,\"s\":\"a\u{9b}b\u{202e}c\u{2028}d\u{200b}e\\u001b\"}}";
        let message: Value = serde_json::from_str(text).expect("json");
        recorder.note(Direction::In, &message, text);
        let written = std::fs::read_to_string(&path).expect("read");
        assert!(
            written.contains("\"n\":1E2,\"big\":1e400,\"k\":1,\"k\":2"),
            "{written}"
        );
        assert!(
            written.contains(r"a\u009bb\u202ec\u2028d\u200be\u001b"),
            "{written}"
        );
        let line = written.trim_end_matches('\n');
        assert!(
            !line.chars().any(crate::untrusted::is_dangerous),
            "{written}"
        );
        let again: Value = serde_json::from_str(written.trim_end()).expect("a JSON line");
        assert_eq!(again["message"], message);
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let _ = std::fs::remove_file(&path);
    }
}
