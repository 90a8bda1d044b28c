//! The text parts of a result as drawn: each text block's lines and the raw JSON, escaped once
//! when the result arrives and cut to a bounded size, so a 15 MB result costs one pass, not one
//! per frame.

use crate::mcp::surface::picture::{self, Picture};
use crate::mcp::surface::result::{CallResult, Content};
use crate::untrusted;
use std::io::Write;

/// Lines of one text block shown; the rest is counted in a note (the copies have it all).
pub const MAX_TEXT_LINES: usize = 2_000;
/// Bytes of pretty-printed raw JSON shown.
pub const MAX_RAW_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResultText {
    /// Per content block: its escaped lines when it is text.
    pub blocks: Vec<Option<Vec<String>>>,
    /// The raw result, pretty, escaped, cut.
    pub raw: Vec<String>,
    /// Per content block: its picture when it is an image, or why it is not drawn.
    pub pictures: Vec<Option<Result<Picture, String>>>,
}

impl ResultText {
    pub fn new(result: &CallResult) -> ResultText {
        ResultText {
            blocks: result
                .content
                .iter()
                .map(|block| match block {
                    Content::Text(text) => Some(text_lines(text)),
                    _ => None,
                })
                .collect(),
            raw: raw_lines(&result.raw),
            pictures: pictures(&result.raw),
        }
    }
}

/// The image blocks of a raw result, decoded (this runs where results are judged, off the UI
/// thread: a hostile image may take its time to refuse).
fn pictures(raw: &serde_json::Value) -> Vec<Option<Result<Picture, String>>> {
    let blocks = raw.get("content").and_then(serde_json::Value::as_array);
    blocks
        .into_iter()
        .flatten()
        .map(|block| {
            let image = block.get("type").and_then(serde_json::Value::as_str) == Some("image");
            let data = block.get("data").and_then(serde_json::Value::as_str);
            match (image, data) {
                (true, Some(data)) => Some(picture::from_base64(data)),
                _ => None,
            }
        })
        .collect()
}

fn text_lines(text: &str) -> Vec<String> {
    let cut = text
        .match_indices('\n')
        .nth(MAX_TEXT_LINES - 1)
        .map_or(text.len(), |(at, _)| at);
    let mut lines = untrusted::lines(&text[..cut]);
    if cut < text.len() {
        let more = text[cut + 1..].lines().count();
        lines.push(format!(
            "… {more} more lines (the copies hold the whole text)"
        ));
    }
    lines
}

/// A writer that takes `MAX_RAW_BYTES` and then refuses, which stops the serializer.
struct Bounded(Vec<u8>);

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = MAX_RAW_BYTES - self.0.len();
        if room == 0 {
            return Err(std::io::Error::other("full"));
        }
        let n = buf.len().min(room);
        self.0.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn raw_lines(raw: &serde_json::Value) -> Vec<String> {
    let mut out = Bounded(Vec::new());
    let complete = serde_json::to_writer_pretty(&mut out, raw).is_ok();
    let text = String::from_utf8_lossy(&out.0);
    let mut lines: Vec<String> = text
        .lines()
        .map(|l| untrusted::line(l, 400).into_owned())
        .collect();
    if !complete {
        lines.push(format!(
            "… cut at {} KiB (the copies hold the whole result)",
            MAX_RAW_BYTES / 1024
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_texts_and_raw_results_are_cut_with_a_note() {
        let text = "line\n".repeat(MAX_TEXT_LINES + 10);
        let raw = json!({"content": [{"type": "text", "text": text}]});
        let shown = ResultText::new(&CallResult::decode(raw));
        let lines = shown.blocks[0].as_ref().expect("text");
        assert_eq!(lines.len(), MAX_TEXT_LINES + 1);
        assert_eq!(
            lines[MAX_TEXT_LINES],
            "… 10 more lines (the copies hold the whole text)"
        );
        assert!(
            shown.raw.last().is_some_and(|l| l.starts_with("… cut at"))
                == (text.len() > MAX_RAW_BYTES)
        );
    }

    #[test]
    fn short_results_are_whole_and_escaped() {
        let raw = json!({"content": [{"type": "text", "text": "a\u{1b}]0;x\u{7}\nb"}, {"type": "image", "data": "", "mimeType": "image/png"}]});
        let shown = ResultText::new(&CallResult::decode(raw));
        assert_eq!(
            shown.blocks[0],
            Some(vec!["a\\e]0;x\\x07".to_string(), "b".to_string()])
        );
        assert_eq!(shown.blocks[1], None);
        assert!(shown.raw.iter().all(|l| !l.contains('\u{1b}')));
        assert!(!shown.raw.last().is_some_and(|l| l.starts_with("…")));
    }
}
