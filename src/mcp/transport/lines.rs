//! Reading newline-delimited input with a bound on each line, so a server that sends a 100 MB
//! line or never sends a newline costs at most the bound in memory.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line read from a stream.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line (without its `\n`), within the bound.
    Complete(Vec<u8>),
    /// A line longer than the bound: its first `max` bytes, its last [`TAIL_BYTES`] bytes, and
    /// how many bytes it had in all.
    TooLong {
        head: Vec<u8>,
        tail: Vec<u8>,
        total: usize,
    },
    /// End of stream.
    Eof,
}

/// Bytes kept from the end of an oversized line (where some SDKs put the response `id`).
pub const TAIL_BYTES: usize = 256;

/// Reads one line of at most `max` bytes; the rest of a longer line is read and discarded
/// (but for its last [`TAIL_BYTES`]).
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> std::io::Result<Line> {
    let mut head = Vec::new();
    let mut tail = Vec::new();
    let mut total = 0usize;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (total, total > max) {
                (0, _) => Line::Eof,
                (_, false) => Line::Complete(head),
                (_, true) => Line::TooLong { head, tail, total },
            });
        }
        let (chunk, found_newline) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let room = max.saturating_sub(head.len());
        let kept = chunk.len().min(room);
        head.extend_from_slice(&chunk[..kept]);
        if kept < chunk.len() {
            let rest = &chunk[kept..];
            tail.extend_from_slice(&rest[rest.len().saturating_sub(TAIL_BYTES)..]);
            tail.drain(..tail.len().saturating_sub(TAIL_BYTES));
        }
        total += chunk.len();
        let consumed = chunk.len() + usize::from(found_newline);
        reader.consume(consumed);
        if found_newline {
            if head.last() == Some(&b'\r') && total <= max {
                head.pop();
            }
            return Ok(if total > max {
                Line::TooLong { head, tail, total }
            } else {
                Line::Complete(head)
            });
        }
    }
}

/// Most JSON values one message may hold. Memory follows structure, not bytes: 16 MiB of `[]`
/// would be 5.6 million values, each tens of bytes in memory, and a message is held several
/// times over (our screen, rmcp, the raw copy). A million values keeps a message's peak cost
/// near 100 MB per copy whatever its shape.
pub const MAX_MESSAGE_VALUES: usize = 1_000_000;

/// Bytes a JSON value costs in memory parsed, as measured (serde_json with `preserve_order`
/// and `arbitrary_precision`, 2026-11-27): an 80-byte `Value` in its parent, with the slack of
/// a growing array, and its number or string on the heap. 100,000 `1`s: 95 bytes each.
pub const VALUE_COST: usize = 96;
/// What an object key adds: its entry's hash and `String`, and the key's own allocation.
pub const KEY_COST: usize = 64;
/// What a non-empty object adds: its entries' vector and its hash index. 100,000 `{"k":1}`:
/// 464 bytes each, all told.
pub const OBJECT_COST: usize = 224;
/// A message may cost this many times its bytes in memory, parsed, plus [`COST_FLOOR`].
pub const COST_PER_BYTE: usize = 10;
/// What any message may cost parsed, however small (a short message of many tiny values is
/// harmless).
pub const COST_FLOOR: usize = 16 << 20;

impl Counts {
    /// What a text of these counts costs in memory, parsed once (see [`VALUE_COST`]).
    pub fn parsed_cost(&self) -> usize {
        self.values
            .saturating_mul(VALUE_COST)
            .saturating_add(self.keys.saturating_mul(KEY_COST))
            .saturating_add(self.objects.saturating_mul(OBJECT_COST))
    }
}

/// Why a message of `bytes` bytes holding `counts` must not be parsed, if it must not: more
/// than [`MAX_MESSAGE_VALUES`] values, or a structure that would cost more than
/// [`COST_PER_BYTE`] × its bytes (+ [`COST_FLOOR`]) in memory (2 MB of `0,0,0…` is a million
/// values: 96 MB parsed).
pub fn too_costly(bytes: usize, counts: Counts) -> Option<String> {
    let cost = counts.parsed_cost();
    if counts.values > MAX_MESSAGE_VALUES {
        Some(format!(
            "more than {MAX_MESSAGE_VALUES} JSON values ({bytes} bytes), whose memory would follow its structure"
        ))
    } else if cost
        > bytes
            .saturating_mul(COST_PER_BYTE)
            .saturating_add(COST_FLOOR)
    {
        Some(format!(
            "{} JSON values in {bytes} bytes (about {} MiB parsed, over {COST_PER_BYTE}× its size + {} MiB), whose memory would follow its structure",
            counts.values,
            cost >> 20,
            COST_FLOOR >> 20,
        ))
    } else {
        None
    }
}

/// What a byte scan of a JSON text counts: no parse, no allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Roughly how many values it holds (commas and openings outside strings, plus one),
    /// counted no further than the scan's limit + 1.
    pub values: usize,
    /// Object keys as written (colons outside strings), duplicates included; complete only
    /// when `values` is within the limit.
    pub keys: usize,
    /// Objects (openings outside strings), counted as `keys` is.
    pub objects: usize,
}

/// Counts the values and keys of a JSON text, stopping once `values` passes `limit`.
pub fn count(json: &[u8], limit: usize) -> Counts {
    let mut counts = Counts {
        values: 1,
        keys: 0,
        objects: 0,
    };
    let mut in_string = false;
    let mut escaped = false;
    for &b in json {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b':' => counts.keys += 1,
            b',' | b'[' | b'{' => {
                counts.objects += usize::from(b == b'{');
                counts.values += 1;
                if counts.values > limit {
                    return counts;
                }
            }
            _ => {}
        }
    }
    counts
}

#[cfg(test)]
mod tests {

    #[test]
    fn values_and_keys_are_counted_outside_strings_only() {
        let values = |json: &[u8], limit| count(json, limit).values;
        assert_eq!(values(br#"{"a":[1,2,{"b":"x,[{"}]}"#, 100), 6);
        assert_eq!(values(b"[[],[],[]]", 100), 7);
        assert_eq!(values(br#""\"[,""#, 100), 1);
        assert_eq!(values(&b"[]".repeat(1000), 10), 11);
        assert_eq!(count(br#"{"a:":{"b":1,"b":"c:d"}}"#, 100).keys, 3);
        assert_eq!(count(br#"[{},{"a":"{"},[{}]]"#, 100).objects, 3);
    }

    #[test]
    fn dense_messages_cost_more_than_ten_times_their_bytes_sparse_ones_do_not() {
        let rows = |n: usize, row: &str| format!("[{}]", vec![row; n].join(","));
        let dense = rows(100_000, r#"{"k":1}"#);
        assert!(too_costly(dense.len(), count(dense.as_bytes(), MAX_MESSAGE_VALUES)).is_some());
        let described = rows(
            100_000,
            r#"{"name":"a tool of some kind","description":"what it does, in a sentence or two"}"#,
        );
        assert!(
            too_costly(
                described.len(),
                count(described.as_bytes(), MAX_MESSAGE_VALUES)
            )
            .is_none()
        );
    }

    use super::*;
    use tokio::io::BufReader;

    #[tokio::test]
    async fn lines_within_and_beyond_the_bound() {
        let data = b"short\r\nthis line is far too long\nlast".to_vec();
        let mut r = BufReader::with_capacity(4, &data[..]);
        assert_eq!(
            read_line(&mut r, 10).await.expect("io"),
            Line::Complete(b"short".to_vec())
        );
        assert_eq!(
            read_line(&mut r, 10).await.expect("io"),
            Line::TooLong {
                head: b"this line ".to_vec(),
                tail: b"is far too long".to_vec(),
                total: 25
            }
        );
        assert_eq!(
            read_line(&mut r, 10).await.expect("io"),
            Line::Complete(b"last".to_vec())
        );
        assert_eq!(read_line(&mut r, 10).await.expect("io"), Line::Eof);
    }
}
