//! Where a value sits in a JSON (or JSON-with-comments) file's text, by its key path, as a
//! byte range: so one value can be replaced and every other byte (comments, order, spacing)
//! stays as it was. Reads the text as [`super::client_configs::strip_jsonc`] leaves it, whose
//! byte offsets are the original's. Pure.

use std::ops::Range;

/// The byte range of the value at `path` (object keys from the top), when there is one.
pub fn span(text: &str, path: &[String]) -> Option<Range<usize>> {
    let stripped = super::client_configs::strip_jsonc(text);
    let mut scan = Scan {
        text: &stripped,
        at: 0,
    };
    scan.find(path)
}

/// Nesting read at most: a deeper file is not one a client wrote.
const MAX_DEPTH: usize = 256;

struct Scan<'a> {
    text: &'a str,
    at: usize,
}

impl Scan<'_> {
    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    fn blanks(&mut self) {
        while self
            .bytes()
            .get(self.at)
            .is_some_and(u8::is_ascii_whitespace)
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.blanks();
        (self.bytes().get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    /// The value at `path` from here, where a value starts.
    fn find(&mut self, path: &[String]) -> Option<Range<usize>> {
        let Some((key, rest)) = path.split_first() else {
            return self.value(0);
        };
        self.eat(b'{')?;
        loop {
            self.blanks();
            if self.bytes().get(self.at) == Some(&b'}') {
                return None;
            }
            let name = self.string()?;
            let name: String = serde_json::from_str(&self.text[name]).ok()?;
            self.eat(b':')?;
            if &name == key {
                return self.find(rest);
            }
            self.value(0)?;
            self.eat(b',')?;
        }
    }

    /// Skips one value; its range.
    fn value(&mut self, depth: usize) -> Option<Range<usize>> {
        self.blanks();
        let start = self.at;
        match *self.bytes().get(self.at)? {
            b'"' => return self.string(),
            open @ (b'{' | b'[') => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                let close = if open == b'{' { b'}' } else { b']' };
                self.at += 1;
                loop {
                    self.blanks();
                    if self.bytes().get(self.at) == Some(&close) {
                        self.at += 1;
                        break;
                    }
                    if open == b'{' {
                        self.string()?;
                        self.eat(b':')?;
                    }
                    self.value(depth + 1)?;
                    self.blanks();
                    if self.bytes().get(self.at) == Some(&b',') {
                        self.at += 1;
                    }
                }
            }
            _ => {
                let end = self.bytes()[self.at..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace())
                    .map_or(self.bytes().len(), |n| self.at + n);
                if end == self.at {
                    return None;
                }
                self.at = end;
            }
        }
        Some(start..self.at)
    }

    /// A string, quotes included.
    fn string(&mut self) -> Option<Range<usize>> {
        self.blanks();
        let start = self.at;
        if self.bytes().get(self.at) != Some(&b'"') {
            return None;
        }
        self.at += 1;
        loop {
            match *self.bytes().get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return Some(start..self.at);
                }
                _ => self.at += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(keys: &[&str]) -> Vec<String> {
        keys.iter().map(|k| k.to_string()).collect()
    }

    #[test]
    fn a_value_is_found_by_its_keys_past_comments_and_other_entries() {
        let text = r#"{
  // my servers: "mcpServers" { not this }
  "theme": {"a": [1, {"b": "}"}]},
  "mcpServers": {
    "other": {"command": "x"},
    /* é */ "weather": {
      "command": "python",   // the interpreter
      "args": ["server.py", "--port", "8\"0"],
    },
  }
}"#;
        let at = span(text, &path(&["mcpServers", "weather", "args"])).expect("found");
        assert_eq!(&text[at], r#"["server.py", "--port", "8\"0"]"#);
        let at = span(text, &path(&["mcpServers", "weather", "command"])).expect("found");
        assert_eq!(&text[at], r#""python""#);
        assert_eq!(span(text, &path(&["mcpServers", "nobody"])), None);
        assert_eq!(
            span(text, &path(&["theme", "a", "b"])),
            None,
            "arrays have no keys"
        );
    }

    #[test]
    fn broken_or_deep_text_finds_nothing_and_never_panics() {
        for text in [
            "",
            "{",
            r#"{"a": "#,
            r#"{"a" 1}"#,
            "[",
            r#"{"a": "\"#,
            "{\"a\":tru",
        ] {
            assert_eq!(span(text, &path(&["a", "b"])), None, "{text}");
        }
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(span(&deep, &path(&["a"])), None);
    }
}
