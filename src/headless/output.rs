//! Where headless output goes: results on stdout, errors on stderr (one JSON object with
//! `--format json`), every server string escaped for the terminal.

use crate::cli::Format;
use serde_json::json;
use std::io::Write;

#[derive(Debug, Clone, Copy)]
pub struct Report {
    pub format: Format,
}

impl Report {
    /// Prints a line to stdout. Callers escape server text first; the sink redacts secrets and
    /// escapes anything dangerous left, whoever built the text.
    pub fn line(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", crate::untrusted::sink(text));
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
        let mut err = std::io::stderr().lock();
        let _ = match self.format {
            Format::Json => writeln!(
                err,
                "{}",
                crate::untrusted::json(&json!({"error": message, "exitCode": code}), false)
            ),
            Format::Text => writeln!(err, "error: {}", crate::untrusted::block(message)),
        };
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
        let mut err = std::io::stderr().lock();
        let _ = match self.format {
            Format::Json => writeln!(
                err,
                "{}",
                crate::untrusted::json(&json!({ key: message }), false)
            ),
            Format::Text => writeln!(err, "{word}: {}", crate::untrusted::block(message)),
        };
    }
}
