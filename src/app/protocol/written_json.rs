//! JSON read as it was written, for showing the wire exactly: every key in order, a repeated
//! key kept, each scalar as its own text (`1E2` stays `1E2`, `1e400` stays `1e400`). A
//! `serde_json::Value` would collapse the repeat and rewrite the number.

/// A JSON value as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written<'t> {
    /// Members in order, each key as written (quotes and escapes included).
    Object(Vec<(&'t str, Written<'t>)>),
    Array(Vec<Written<'t>>),
    /// A string, number, `true`, `false` or `null`, as written.
    Scalar(&'t str),
}

/// Nesting read at most: serde_json's own limit, which every message shown already passed.
const MAX_DEPTH: usize = 128;

/// Reads `text` as one JSON value; `None` if it is not JSON this reader takes.
pub fn read(text: &str) -> Option<Written<'_>> {
    let mut reader = Reader { text, at: 0 };
    let value = reader.value(0)?;
    reader.blank();
    (reader.at == text.len()).then_some(value)
}

/// A key as written, decoded (`"a\/b"` → `a/b`).
pub fn key(written: &str) -> Option<String> {
    serde_json::from_str(written).ok()
}

struct Reader<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Reader<'t> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.blank();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn value(&mut self, depth: usize) -> Option<Written<'t>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.blank();
        match self.peek()? {
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                self.blank();
                if self.peek()? == b'}' {
                    self.at += 1;
                    return Some(Written::Object(members));
                }
                loop {
                    self.blank();
                    let key = self.string()?;
                    self.eat(b':')?;
                    members.push((key, self.value(depth + 1)?));
                    self.blank();
                    match self.peek()? {
                        b',' => self.at += 1,
                        b'}' => {
                            self.at += 1;
                            return Some(Written::Object(members));
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.blank();
                if self.peek()? == b']' {
                    self.at += 1;
                    return Some(Written::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.blank();
                    match self.peek()? {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Some(Written::Array(items));
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => self.string().map(Written::Scalar),
            _ => {
                let start = self.at;
                while matches!(
                    self.peek(),
                    Some(b'0'..=b'9' | b'a'..=b'z' | b'+' | b'-' | b'.' | b'E')
                ) {
                    self.at += 1;
                }
                let word = &self.text[start..self.at];
                let valid = matches!(word, "true" | "false" | "null")
                    || serde_json::from_str::<serde_json::Number>(word).is_ok();
                valid.then_some(Written::Scalar(word))
            }
        }
    }

    /// A string as written, quotes included; its escapes are checked.
    fn string(&mut self) -> Option<&'t str> {
        let start = self.at;
        (self.peek()? == b'"').then_some(())?;
        self.at += 1;
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    let written = &self.text[start..self.at];
                    return key(written).map(|_| written);
                }
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_repeated_keys_stay_as_written() {
        let text =
            r#" {"n": 1E2, "big": 1e400, "twice": 1, "twice": [2, "a\"b", true, null, -0.50]} "#;
        let Some(Written::Object(members)) = read(text) else {
            panic!("an object");
        };
        let keys: Vec<&str> = members.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, [r#""n""#, r#""big""#, r#""twice""#, r#""twice""#]);
        assert_eq!(members[0].1, Written::Scalar("1E2"));
        assert_eq!(members[1].1, Written::Scalar("1e400"));
        assert_eq!(
            members[3].1,
            Written::Array(vec![
                Written::Scalar("2"),
                Written::Scalar(r#""a\"b""#),
                Written::Scalar("true"),
                Written::Scalar("null"),
                Written::Scalar("-0.50"),
            ])
        );
    }

    #[test]
    fn what_is_not_json_is_not_read() {
        for text in [
            "",
            "{",
            r#"{"a" 1}"#,
            "[1,]",
            "01x",
            "tru",
            r#""\q""#,
            "[1] 2",
            r#"{"a":1,}"#,
        ] {
            assert_eq!(read(text), None, "{text}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(read(&deep), None, "deeper than serde_json reads");
    }
}
