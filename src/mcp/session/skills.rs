//! A skill loaded as a host must (SEP-2640): each file read with `resources/read` and held to
//! the skill's entry (size and SHA-256; for `SKILL.md` its YAML frontmatter, field by field)
//! before any of it is given; a file the entry does not list is never read. Shared by the
//! `skill` command and the TUI's Skills tab.

use crate::mcp::Session;
use crate::mcp::session::error::RequestError;
use crate::mcp::surface::library;
use crate::skills::{self, Entry, Files};
use serde_json::{Value, json};

impl Session {
    /// The skill of `entry`: its `SKILL.md`, then each of `others` (URIs), every one verified;
    /// the first that fails ends the load with why, and nothing of the skill is given.
    pub async fn load_skill(
        &self,
        entry: &Entry,
        others: &[String],
    ) -> Result<Vec<(String, Vec<u8>)>, String> {
        let skill_md = (self.read_skill_file(entry, &entry.uri).await)
            .map_err(|why| format!("SKILL.md {why}"))?;
        frontmatter_matches(entry, &skill_md).map_err(|why| format!("SKILL.md: {why}"))?;
        let mut read = vec![(entry.uri.clone(), skill_md)];
        for uri in others {
            let bytes =
                (self.read_skill_file(entry, uri).await).map_err(|why| format!("{uri} {why}"))?;
            read.push((uri.clone(), bytes));
        }
        Ok(read)
    }

    /// A listed skill's `SKILL.md`, loaded from its entry as listed and verified, as a read's
    /// result (its description says what was verified).
    pub(super) async fn open_skill(&self, entry: &Value) -> Result<Value, RequestError> {
        let entry = skills::decode(entry)
            .map_err(|why| RequestError::Refused(format!("not loaded: its entry: {why}")))?;
        let read = (self.load_skill(&entry, &[]).await)
            .map_err(|why| RequestError::Refused(format!("{} not loaded: {why}", entry.uri)))?;
        let verified = match entry.files {
            Files::Listed(_) => "verified against its entry: size, SHA-256 and frontmatter",
            Files::Dynamic => "its resources are \"dynamic\": nothing to verify it against",
        };
        let text: Vec<Value> = read
            .iter()
            .map(|(uri, bytes)| {
                json!({"uri": uri, "mimeType": "text/markdown",
                    "text": String::from_utf8_lossy(bytes)})
            })
            .collect();
        Ok(json!({"description": format!("{} ({verified})", entry.name()), "contents": text}))
    }

    /// A file of the skill read and held against its entry: its bytes, or why they are not
    /// used. A file the entry does not list is never read (it would be a change to the skill).
    async fn read_skill_file(&self, entry: &Entry, uri: &str) -> Result<Vec<u8>, String> {
        let listed = entry.file(uri);
        if listed.is_none() && matches!(entry.files, Files::Listed(_)) {
            return Err("is not listed in the skill's entry (a file it does not list is a change to the skill): not read".into());
        }
        if skills::file_path(entry, uri).is_none() && uri != entry.uri {
            return Err("is not inside the skill's directory: not read".into());
        }
        // `resources/read` itself (not `open`, which loads skills: no recursion).
        let result = (self
            .request("resources/read", Some(json!({ "uri": uri })))
            .await)
            .map_err(|e| format!("could not be read: {e}"))?;
        let contents = result.get("contents").and_then(Value::as_array);
        let content = contents
            .and_then(|c| {
                c.iter()
                    .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
                    .or(c.first())
            })
            .ok_or("was read with no contents")?;
        let bytes = library::content_bytes(content)?;
        if let Some(listed) = listed {
            skills::verify(listed, &bytes).map_err(|refused| refused.to_string())?;
        }
        Ok(bytes)
    }
}

/// The file's frontmatter is its entry's, field by field.
fn frontmatter_matches(entry: &Entry, skill_md: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(skill_md).map_err(|_| "it is not UTF-8")?;
    let (yaml, _) = skills::split(text)?;
    let fields = skills::parse(yaml)?;
    skills::compare(&entry.frontmatter, &fields)
}
