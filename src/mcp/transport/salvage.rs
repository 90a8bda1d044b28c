//! A response the client cannot take (over the size limit, or nested too deep to parse) would
//! leave its request waiting for the timeout. When the response's `id` can be read off the raw
//! bytes anyway, the request is answered at once with a JSON-RPC error saying what happened. Pure.

use serde_json::{Value, json};

/// The `id` of a JSON-RPC response, read from the start of a message (`{"jsonrpc":"2.0","id":1,
/// "result":…`, as Python and Rust SDKs write it) or from its end (`…,"jsonrpc":"2.0","id":1}`,
/// as the TypeScript SDK writes it). `None` for requests and notifications, and when unsure.
pub fn response_id(head: &[u8], tail: &[u8]) -> Option<Value> {
    let mut scan = Scanner { bytes: head, at: 0 };
    scan.expect(b'{')?;
    let mut id = None;
    let mut response = false;
    loop {
        let key = scan.string()?;
        scan.expect(b':')?;
        match key.as_str() {
            "method" => return None,
            "result" | "error" => {
                response = true;
                break;
            }
            _ => {
                let value = scan.scalar()?;
                if key == "id" {
                    id = Some(value);
                }
            }
        }
        if scan.expect(b',').is_none() {
            break;
        }
    }
    if !response {
        return None;
    }
    id.or_else(|| id_at_end(tail))
}

/// `"id":VALUE}` at the very end of `tail` (whitespace allowed), VALUE a number or plain string.
fn id_at_end(tail: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(tail).ok()?.trim_end();
    let body = text.strip_suffix('}')?.trim_end();
    let at = body.rfind("\"id\"")?;
    let value: Value = serde_json::from_str(body[at + 4..].trim_start().strip_prefix(':')?).ok()?;
    let before = body[..at].trim_end();
    (before.ends_with(',') && (value.is_number() || value.is_string())).then_some(value)
}

/// The JSON-RPC error code of the answers made here (in the range JSON-RPC leaves to
/// implementations), so the session can tell them from the server's own errors.
pub const UNREADABLE: i32 = -32098;

/// The line handed to the client instead of the response it cannot take.
pub fn error_line(id: &Value, message: &str) -> Vec<u8> {
    let mut line = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": UNREADABLE, "message": message},
    })
    .to_string()
    .into_bytes();
    line.push(b'\n');
    line
}

/// A minimal reader of top-level JSON tokens: strings and scalars only.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn skip_space(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_space();
        (self.bytes.get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    /// A string without escapes (keys and ids worth trusting never have them).
    fn string(&mut self) -> Option<String> {
        self.expect(b'"')?;
        let start = self.at;
        let len = self.bytes.get(start..)?.iter().position(|b| *b == b'"')?;
        let text = std::str::from_utf8(&self.bytes[start..start + len]).ok()?;
        if text.contains('\\') {
            return None;
        }
        self.at = start + len + 1;
        Some(text.to_string())
    }

    /// A string, number, boolean or null; containers end the scan (`None`).
    fn scalar(&mut self) -> Option<Value> {
        self.skip_space();
        if self.bytes.get(self.at) == Some(&b'"') {
            return self.string().map(Value::String);
        }
        let start = self.at;
        let len = self
            .bytes
            .get(start..)?
            .iter()
            .position(|b| matches!(b, b',' | b'}' | b' ' | b'\n' | b'\t' | b'\r'))?;
        self.at = start + len;
        let value: Value = serde_json::from_slice(&self.bytes[start..self.at]).ok()?;
        (!value.is_object() && !value.is_array()).then_some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_before_the_result() {
        let head =
            br#"{"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "xxxx"#;
        assert_eq!(response_id(head, b"xxx\"}]}}"), Some(json!(7)));
        assert_eq!(
            response_id(br#"{"id":"a-1","error":{"#, b""),
            Some(json!("a-1"))
        );
    }

    #[test]
    fn id_after_the_result() {
        let head = br#"{"result":{"content":[{"type":"text","text":"xxxx"#;
        assert_eq!(
            response_id(head, br#"xxxx"}]},"jsonrpc":"2.0","id":12}"#),
            Some(json!(12))
        );
        assert_eq!(
            response_id(head, b"xxxx\"}]},\"jsonrpc\":\"2.0\",\"id\":\"q\" }\n"),
            Some(json!("q"))
        );
    }

    #[test]
    fn requests_notifications_and_doubt_give_nothing() {
        assert_eq!(
            response_id(
                br#"{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"#,
                b""
            ),
            None
        );
        assert_eq!(
            response_id(
                br#"{"method":"notifications/message","params":{"#,
                br#","id":3}"#
            ),
            None
        );
        // A nested "id" at the end of the text is not the response's.
        assert_eq!(
            response_id(br#"{"result":{"items":[{"#, br#"{"id":4}]}}"#),
            None
        );
        assert_eq!(response_id(b"not json", b""), None);
        assert_eq!(
            response_id(br#"{"jsonrpc":"2.0","id":{"x":1},"result":{"#, b""),
            None
        );
    }

    #[test]
    fn the_error_line_is_a_json_rpc_error_for_that_id() {
        let line = error_line(&json!(5), "too big");
        let value: Value = serde_json::from_slice(&line).expect("json");
        assert_eq!(value["id"], 5);
        assert_eq!(value["error"]["message"], "too big");
        assert_eq!(line.last(), Some(&b'\n'));
    }
}
