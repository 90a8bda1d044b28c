//! Where headless output goes: results on stdout, errors on stderr (one JSON object with
//! `--format json`), every server string escaped for the terminal; on a terminal, a status
//! line at the foot of stderr that every other line is printed above.

use crate::cli::Format;
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;

/// The status line shown at the foot of a terminal's stderr (see [`Report::status`]).
static STATUS: Mutex<Option<String>> = Mutex::new(None);

/// Runs `print` (a line on stdout or stderr) with the status line, if one is shown, taken off
/// first and drawn again after: lines go above it, never onto it.
fn above_status<T>(print: impl FnOnce() -> T) -> T {
    let status = STATUS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if status.is_some() {
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
    let printed = print();
    if let Some(line) = status.as_deref() {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}");
        let _ = err.flush();
    }
    printed
}

#[derive(Debug, Clone, Copy)]
pub struct Report {
    pub format: Format,
}

impl Report {
    /// Prints a line to stdout. Callers escape server text first; the sink redacts secrets and
    /// escapes anything dangerous left, whoever built the text.
    pub fn line(&self, text: &str) {
        above_status(|| {
            let mut out = std::io::stdout().lock();
            // Line-buffered: out before the status line is drawn again.
            let _ = writeln!(out, "{}", crate::untrusted::sink(text));
        });
    }

    /// Shows `text` (our own words, escaped by the caller) as the status line at the foot of
    /// stderr when stderr is a terminal, cut to its width; `None` takes it off. Elsewhere
    /// nothing: a status line is for a person watching, never for a file or a pipe.
    pub fn status(&self, text: Option<&str>) {
        if !std::io::stderr().is_terminal() {
            return;
        }
        let width = crossterm::terminal::size().map_or(80, |(w, _)| usize::from(w).max(2));
        let mut status = STATUS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K");
        // Cut once escaped: a line wider than the terminal would wrap, and `\r` goes back to
        // the start of its last row only.
        let fit = |t: &str| {
            crate::untrusted::line(t, usize::MAX)
                .chars()
                .take(width - 1)
                .collect()
        };
        *status = text.map(fit);
        if let Some(line) = status.as_deref() {
            let _ = write!(err, "{line}");
        }
        let _ = err.flush();
    }

    /// Untrusted text of several lines (a crash's words hold the server's last stderr lines)
    /// as lines, each escaped: the first after `first`, the others after `rest`, `max` at most.
    pub fn lines_under(&self, (first, rest): (&str, &str), text: &str, max: usize) {
        for (i, said) in crate::untrusted::lines(text).iter().take(max).enumerate() {
            self.line(&format!("{}{said}", if i == 0 { first } else { rest }));
        }
    }

    /// Prints a JSON value to stdout, pretty, every control character escaped.
    pub fn json(&self, value: &serde_json::Value) {
        self.line(&crate::untrusted::json(value, true));
    }

    /// A typed report as JSON: made a value first, so that secrets are redacted in it before
    /// it is encoded.
    pub fn serialized(&self, report: &impl serde::Serialize) {
        match serde_json::to_value(report) {
            Ok(value) => self.json(&value),
            Err(e) => self.line(&format!("the report could not be written as JSON: {e}")),
        }
    }

    /// Reports an error on stderr and returns its exit code.
    pub fn error(&self, message: &str, code: i32) -> i32 {
        let json = || json!({"error": message, "exitCode": code});
        self.on_stderr(json, "error", message);
        code
    }

    /// A note on stderr of what happened on the way (a server's request and our answer, its
    /// progress and logs).
    pub fn note(&self, message: &str) {
        self.stderr_line("note", "note", message);
    }

    /// A warning on stderr that does not change the exit code.
    pub fn warn(&self, message: &str) {
        self.stderr_line("warning", "warning", message);
    }

    /// One line on stderr: `word: message`, or `{"key": message}` with `--format json`.
    fn stderr_line(&self, word: &str, key: &str, message: &str) {
        self.on_stderr(|| json!({ key: message }), word, message);
    }

    /// One line on stderr, above the status line: `json()` with `--format json`, else
    /// `word: message`.
    fn on_stderr(&self, json: impl FnOnce() -> serde_json::Value, word: &str, message: &str) {
        above_status(|| {
            let mut err = std::io::stderr().lock();
            let _ = match self.format {
                Format::Json => writeln!(err, "{}", crate::untrusted::json(&json(), false)),
                Format::Text => writeln!(err, "{word}: {}", crate::untrusted::block(message)),
            };
        });
    }
}
