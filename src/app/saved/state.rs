//! Saved calls: what is kept of a tool's call panel between sessions with the same server (its
//! draft, and its last results with the arguments that produced them), as JSON, bounded, and
//! with every registered secret replaced before it is written; and the server's test file with
//! the calls kept in it as tests (`K`). Pure.

use crate::app::call::state::{CallState, Outcome};
use serde_json::{Value, json};

/// Results kept per tool.
pub const KEEP: usize = 10;
/// A result larger than this (as JSON) is not kept.
pub const MAX_RESULT_BYTES: usize = 1 << 20;
/// The file format's version; another is ignored.
const VERSION: u64 = 1;

/// One tool's saved panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedTool {
    pub tool: String,
    pub draft: String,
    /// Oldest first.
    pub calls: Vec<SavedCall>,
}

/// One result, with the arguments sent and the time it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCall {
    pub arguments: Value,
    /// The result as the server sent it (`tools/call`'s result).
    pub result: Value,
    pub elapsed_ms: u64,
}

impl SavedTool {
    /// What to keep of `state`: the draft and the last [`KEEP`] results (failed and cancelled
    /// calls, results restored from an earlier session and not shown again, and results over
    /// [`MAX_RESULT_BYTES`] are left out).
    pub fn of(tool: &str, state: &CallState) -> SavedTool {
        // From the newest back: only the kept ones are copied.
        let mut calls: Vec<SavedCall> = state
            .history
            .iter()
            .rev()
            .filter_map(|record| match &record.outcome {
                Outcome::Result { result, .. } if result.bytes <= MAX_RESULT_BYTES => {
                    Some(SavedCall {
                        arguments: record.arguments.clone(),
                        result: result.raw.clone(),
                        elapsed_ms: u64::try_from(record.elapsed.as_millis()).unwrap_or(u64::MAX),
                    })
                }
                _ => None,
            })
            .take(KEEP)
            .collect();
        calls.reverse();
        SavedTool {
            tool: tool.to_string(),
            draft: state.text(),
            calls,
        }
    }

    /// The file's text: JSON, every string in it with its secrets replaced by `[redacted]`.
    pub fn to_text(&self) -> String {
        let calls: Vec<Value> = self
            .calls
            .iter()
            .map(|c| json!({"arguments": c.arguments, "result": c.result, "elapsedMs": c.elapsed_ms}))
            .collect();
        let mut file =
            json!({"version": VERSION, "tool": self.tool, "draft": self.draft, "calls": calls});
        redact(&mut file);
        file.to_string()
    }

    /// Reads a file written by [`SavedTool::to_text`]; `None` for anything else.
    pub fn from_text(text: &str) -> Option<SavedTool> {
        let file: Value = serde_json::from_str(text).ok()?;
        if file["version"].as_u64() != Some(VERSION) {
            return None;
        }
        let calls = file["calls"]
            .as_array()?
            .iter()
            .filter_map(|c| {
                Some(SavedCall {
                    arguments: c.get("arguments")?.clone(),
                    result: c.get("result").filter(|r| r.is_object())?.clone(),
                    elapsed_ms: c["elapsedMs"].as_u64().unwrap_or(0),
                })
            })
            .take(KEEP)
            .collect();
        Some(SavedTool {
            tool: file["tool"].as_str()?.to_string(),
            draft: file["draft"].as_str()?.to_string(),
            calls,
        })
    }
}

/// Replaces the registered secrets in every string of `value` (keys and values).
fn redact(value: &mut Value) {
    match value {
        Value::String(text) => {
            if let std::borrow::Cow::Owned(clean) = crate::secrets::redact(text) {
                *text = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact),
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut item) in entries {
                redact(&mut item);
                map.insert(crate::secrets::redact(&key).into_owned(), item);
            }
        }
        _ => {}
    }
}

/// The saved calls' part of the model.
#[derive(Default)]
pub struct Saved {
    /// Call panels are kept between sessions with this server (the real TUI, not tests).
    pub saving: bool,
    /// What they are kept for, as the log says it: the server, and the directory a command
    /// starts in.
    pub kept_for: String,
    /// What earlier sessions kept, until the tools are listed (see `saved::update`).
    pub to_restore: Option<Vec<SavedTool>>,
    /// The server's test file, once chosen, and the calls kept in it.
    pub tests: Option<KeptTests>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_tool_reads_back_and_secrets_never_reach_the_file() {
        crate::secrets::register("sk-live-saved-secret");
        crate::secrets::register("sk\"quoted\"secret");
        let saved = SavedTool {
            tool: "add".into(),
            draft: "{\n  \"token\": \"sk-live-saved-secret\"\n}".into(),
            calls: vec![SavedCall {
                arguments: json!({"a": 1, "token": "sk-live-saved-secret", "b": "sk\"quoted\"secret"}),
                result: json!({"content": [{"type": "text", "text": "3"}]}),
                elapsed_ms: 12,
            }],
        };
        let text = saved.to_text();
        assert!(
            !text.contains("sk-live") && !text.contains("quoted"),
            "{text}"
        );
        let back = SavedTool::from_text(&text).expect("reads back");
        assert_eq!(back.calls[0].arguments["token"], "[redacted]");
        assert_eq!(back.calls[0].result, saved.calls[0].result);
        assert_eq!(back.draft, "{\n  \"token\": \"[redacted]\"\n}");
        assert_eq!(SavedTool::from_text("{\"version\": 2}"), None);
        assert_eq!(SavedTool::from_text("not json"), None);
    }

    /// The newest [`KEEP`] results under [`MAX_RESULT_BYTES`], oldest first; a failed call and
    /// a result over the cap left out (its size as counted when it was decoded).
    #[test]
    fn the_newest_results_under_the_cap_are_kept_in_order() {
        use crate::app::call::state::{Judged, Made, Outcome, Record};
        use crate::mcp::surface::result::CallResult;
        let tool = crate::mcp::surface::tool::decode_tool(
            &json!({"name": "t", "inputSchema": {"type": "object"}}),
        )
        .expect("tool");
        let mut state = CallState::new(&tool);
        let text = |n: usize| json!({"content": [{"type": "text", "text": "x".repeat(n)}]});
        let outcome = |raw: Value| {
            Judged::new(CallResult::decode(raw), None, crate::schema::Era::Legacy).into_outcome()
        };
        for i in 0..(KEEP + 3) as u64 {
            let outcome = match i {
                4 => Outcome::Cancelled,
                7 => outcome(text(MAX_RESULT_BYTES)),
                _ => outcome(text(1)),
            };
            let arguments = json!({"i": i});
            let (elapsed, made) = (std::time::Duration::ZERO, Made::Here);
            let record = Record {
                id: i,
                arguments,
                elapsed,
                outcome,
                made,
            };
            state.record(record);
        }
        let kept: Vec<u64> = SavedTool::of("t", &state)
            .calls
            .iter()
            .map(|c| c.arguments["i"].as_u64().expect("i"))
            .collect();
        assert_eq!(kept, [1, 2, 3, 5, 6, 8, 9, 10, 11, 12]);
    }
}

/// The server's test file and the calls it holds (by [`key`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeptTests {
    pub file: std::path::PathBuf,
    pub cases: std::collections::HashSet<String>,
}

/// A call to keep as a test: where, what was called, what it gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeepTest {
    pub file: std::path::PathBuf,
    pub tool: String,
    pub arguments: serde_json::Value,
    pub got: crate::suite::expect::Got,
}

/// A call's key among the kept ones: its tool and its arguments (keys in order).
pub fn key(tool: &str, arguments: &serde_json::Value) -> String {
    let canonical = crate::drift::snapshot::canonical(arguments.clone());
    format!("{tool}\n{canonical}")
}
