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
        let (chunk, found_newline) = match available.iter().position(|b| *b == b'\n') {
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

/// Bytes one JSON value costs in memory at least, parsed (a `Value` with its number or string
/// on the heap): what a message's structure costs beside its bytes.
pub const VALUE_COST: usize = 48;
/// A message may cost this many times its bytes in memory, parsed, plus [`COST_FLOOR`].
pub const COST_PER_BYTE: usize = 10;
/// What any message may cost parsed, however small (a short message of many tiny values is
/// harmless).
pub const COST_FLOOR: usize = 16 << 20;

/// Why a message of `bytes` bytes holding `counts` must not be parsed, if it must not: more
/// than [`MAX_MESSAGE_VALUES`] values, or a structure that would cost more than
/// [`COST_PER_BYTE`] × its bytes (+ [`COST_FLOOR`]) in memory (2 MB of `0,0,0…` is a million
/// values: 48 MB per copy).
pub fn too_costly(bytes: usize, counts: Counts) -> Option<String> {
    let cost = counts.values.saturating_mul(VALUE_COST);
    if counts.values > MAX_MESSAGE_VALUES {
        Some(format!(
            "more than {MAX_MESSAGE_VALUES} JSON values ({bytes} bytes): dropped, as its memory would follow its structure"
        ))
    } else if cost
        > bytes
            .saturating_mul(COST_PER_BYTE)
            .saturating_add(COST_FLOOR)
    {
        Some(format!(
            "{} JSON values in {bytes} bytes (about {} MiB parsed, over {COST_PER_BYTE}× its size): dropped, as its memory would follow its structure",
            counts.values,
            cost >> 20
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
}

/// Counts the values and keys of a JSON text, stopping once `values` passes `limit`.
pub fn count(json: &[u8], limit: usize) -> Counts {
    let mut counts = Counts { values: 1, keys: 0 };
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
