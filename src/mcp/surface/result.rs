//! Tool call results decoded from raw JSON: content blocks, structuredContent kept exactly
//! (absent, `null` and falsy values apart), `isError`, `_meta`. Pure.

use crate::schema::verdict::{Era, ResultView, Verdict, verdict};
use crate::schema::{Compiled, verdict::kind_of};
use base64::Engine;
use serde_json::Value;

/// One content block, reduced to what a person needs to see.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(String),
    /// Image or audio: its MIME type and decoded size in bytes (`None` if the base64 is broken).
    Media {
        kind: String,
        mime: String,
        bytes: Option<usize>,
    },
    ResourceLink {
        uri: String,
        name: Option<String>,
        mime: Option<String>,
    },
    Resource {
        uri: String,
        mime: Option<String>,
        text: Option<String>,
        blob_bytes: Option<usize>,
    },
    /// A block of a type this inspector does not know, kept raw.
    Other(Value),
}

/// A decoded `tools/call` result; `raw` is what the server sent.
#[derive(Debug, Clone, PartialEq)]
pub struct CallResult {
    pub is_error: bool,
    /// `None`: absent. `Some(Value::Null)`: the server sent `null`.
    pub structured: Option<Value>,
    pub content: Vec<Content>,
    /// Each block's `annotations`, by index, when present.
    pub annotations: Vec<Option<Value>>,
    pub meta: Option<Value>,
    pub raw: Value,
    /// `raw`'s size as JSON text, counted once where it is decoded (off the UI thread): what
    /// the history's and the saved calls' byte caps read.
    pub bytes: usize,
}

impl CallResult {
    /// Rejects answers no reading of the spec makes a tool result: not an object, or a
    /// `content` that is not an array. (Anything else is decoded and judged by the verdict.)
    pub fn check_shape(raw: &Value) -> Result<(), String> {
        let kind = crate::schema::verdict::kind_of;
        let Some(object) = raw.as_object() else {
            return Err(format!(
                "the tools/call result is {}, not an object",
                kind(raw)
            ));
        };
        match object.get("content") {
            Some(c) if !c.is_array() => Err(format!("`content` is {}, not an array", kind(c))),
            _ => Ok(()),
        }
    }

    pub fn decode(raw: Value) -> CallResult {
        let blocks = raw
            .get("content")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        CallResult {
            is_error: raw.get("isError").and_then(Value::as_bool).unwrap_or(false),
            structured: raw
                .as_object()
                .and_then(|o| o.get("structuredContent"))
                .cloned(),
            content: blocks.iter().map(decode_block).collect(),
            annotations: blocks
                .iter()
                .map(|b| b.get("annotations").cloned())
                .collect(),
            meta: raw.get("_meta").cloned(),
            bytes: crate::mcp::session::events::json_bytes(&raw),
            raw,
        }
    }

    pub fn texts(&self) -> Vec<&str> {
        self.content
            .iter()
            .filter_map(|c| match c {
                Content::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The verdict against a tool's output schema (compiled once by the caller).
    pub fn verdict(&self, schema: Option<(&Value, &Compiled)>, era: Era) -> Verdict {
        let texts = self.texts();
        verdict(
            schema,
            ResultView {
                is_error: self.is_error,
                structured: self.structured.as_ref(),
                texts: &texts,
                meta: self.meta.as_ref(),
            },
            era,
        )
    }
}

fn base64_len(data: Option<&Value>) -> Option<usize> {
    let data = data?.as_str()?;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .ok()
        .map(|b| b.len())
}

fn decode_block(block: &Value) -> Content {
    let s = |key: &str| block.get(key).and_then(Value::as_str).map(String::from);
    match block.get("type").and_then(Value::as_str) {
        Some("text") => match s("text") {
            Some(text) => Content::Text(text),
            None => Content::Other(block.clone()),
        },
        Some(kind @ ("image" | "audio")) => Content::Media {
            kind: kind.to_string(),
            mime: s("mimeType").unwrap_or_else(|| "(no mimeType)".into()),
            bytes: base64_len(block.get("data")),
        },
        Some("resource_link") => Content::ResourceLink {
            uri: s("uri").unwrap_or_default(),
            name: s("name"),
            mime: s("mimeType"),
        },
        Some("resource") => {
            let r = block.get("resource");
            let rs = |key: &str| {
                r.and_then(|r| r.get(key))
                    .and_then(Value::as_str)
                    .map(String::from)
            };
            Content::Resource {
                uri: rs("uri").unwrap_or_default(),
                mime: rs("mimeType"),
                text: rs("text"),
                blob_bytes: base64_len(r.and_then(|r| r.get("blob"))),
            }
        }
        _ => Content::Other(block.clone()),
    }
}

/// A one-line description of a content block for text output and the content view.
pub fn describe_block(c: &Content) -> String {
    let size = |b: &Option<usize>| {
        b.map(|n| crate::plural::count(n, "byte"))
            .unwrap_or_else(|| "invalid base64".into())
    };
    match c {
        Content::Text(t) => format!("text ({})", crate::plural::count(t.chars().count(), "char")),
        Content::Media { kind, mime, bytes } => format!("{kind} {mime}, {}", size(bytes)),
        Content::ResourceLink { uri, name, mime } => format!(
            "resource link {uri}{}{}",
            name.as_deref()
                .map(|n| format!(" \"{n}\""))
                .unwrap_or_default(),
            mime.as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        ),
        Content::Resource {
            uri,
            mime,
            text,
            blob_bytes,
        } => format!(
            "embedded resource {uri}{}{}",
            mime.as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default(),
            match (text, blob_bytes) {
                (Some(t), _) =>
                    format!(", text {}", crate::plural::count(t.chars().count(), "char")),
                (None, Some(n)) => format!(", blob {}", crate::plural::count(*n, "byte")),
                _ => String::new(),
            }
        ),
        Content::Other(v) => format!(
            "unknown block {}",
            v.get("type")
                .map(Value::to_string)
                .unwrap_or_else(|| kind_of(v).into())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn absent_null_and_falsy_structured_content_stay_apart() {
        assert_eq!(CallResult::decode(json!({"content": []})).structured, None);
        assert_eq!(
            CallResult::decode(json!({"structuredContent": null})).structured,
            Some(Value::Null)
        );
        for falsy in [json!(0), json!(false), json!(""), json!([])] {
            assert_eq!(
                CallResult::decode(json!({"structuredContent": falsy.clone()})).structured,
                Some(falsy)
            );
        }
    }

    #[test]
    fn blocks_of_every_kind() {
        let r = CallResult::decode(json!({"content": [
            {"type": "text", "text": "hi", "annotations": {"priority": 1}},
            {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"},
            {"type": "audio", "data": "!!", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "file:///a", "name": "a"},
            {"type": "resource", "resource": {"uri": "mem://x", "text": "abc", "mimeType": "text/plain"}},
            {"type": "hologram"}
        ], "isError": true}));
        assert!(r.is_error);
        let described: Vec<String> = r.content.iter().map(describe_block).collect();
        assert_eq!(
            described,
            [
                "text (2 chars)",
                "image image/png, 5 bytes",
                "audio audio/wav, invalid base64",
                "resource link file:///a \"a\"",
                "embedded resource mem://x (text/plain), text 3 chars",
                "unknown block \"hologram\""
            ]
        );
        assert_eq!(r.annotations[0], Some(json!({"priority": 1})));
    }
}
