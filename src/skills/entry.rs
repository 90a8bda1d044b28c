//! One skill's entry as a server sends it, checked before any file is read: `resources`
//! complete (or `"dynamic"`), each file inside the skill's directory, digests well formed,
//! sizes exact, within the extension's limits (512 files, 16 MiB). An entry that breaks any
//! of these is never loaded; why is said.

use serde_json::{Map, Value};

/// Files per skill and bytes per skill the extension fixes (hosts must take up to these).
pub const MAX_FILES: usize = 512;
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// A skill's entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// Its frontmatter as the server rendered it (`name` and `description` at least).
    pub frontmatter: Map<String, Value>,
    pub files: Files,
}

/// What an entry says of the skill's files.
#[derive(Debug, Clone, PartialEq)]
pub enum Files {
    /// Every file, `SKILL.md` included, with its digest and size.
    Listed(Vec<SkillFile>),
    /// Generated content: nothing to verify against.
    Dynamic,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SkillFile {
    pub uri: String,
    /// The SHA-256 of its bytes.
    pub digest: [u8; 32],
    pub size: u64,
}

impl Entry {
    /// Its name (from the frontmatter).
    pub fn name(&self) -> &str {
        self.frontmatter
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    pub fn description(&self) -> &str {
        self.frontmatter
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// `N files, B bytes`, or `dynamic`.
    pub fn files_said(&self) -> String {
        match &self.files {
            Files::Dynamic => "dynamic".into(),
            Files::Listed(files) => format!(
                "{}, {}",
                crate::plural::count(files.len(), "file"),
                crate::plural::count(files.iter().map(|f| f.size).sum::<u64>() as usize, "byte")
            ),
        }
    }

    /// The file listed at `uri`, if the entry lists it.
    pub fn file(&self, uri: &str) -> Option<&SkillFile> {
        match &self.files {
            Files::Listed(files) => files.iter().find(|f| f.uri == uri),
            Files::Dynamic => None,
        }
    }
}

/// The entry in `value`, or why it must not be loaded.
pub fn decode(value: &Value) -> Result<Entry, String> {
    let uri = value
        .get("uri")
        .and_then(Value::as_str)
        .ok_or("no `uri`")?
        .to_string();
    let root = skill_root(&uri)?;
    let frontmatter = value
        .get("frontmatter")
        .and_then(Value::as_object)
        .ok_or("no `frontmatter` object")?
        .clone();
    for field in ["name", "description"] {
        if !frontmatter.get(field).is_some_and(Value::is_string) {
            return Err(format!("the frontmatter has no `{field}` string"));
        }
    }
    let name = frontmatter
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if root.rsplit('/').next() != Some(name) {
        return Err(format!(
            "its URI does not end in its name `{name}` (`<skill-path>/SKILL.md`, the last segment the name)"
        ));
    }
    let files = match value.get("resources") {
        Some(Value::String(s)) if s == "dynamic" => Files::Dynamic,
        Some(Value::Array(items)) => Files::Listed(files(items, &uri, root)?),
        Some(_) => return Err("`resources` is neither an array nor \"dynamic\"".into()),
        None => return Err("no `resources` (an entry without them must not be loaded)".into()),
    };
    Ok(Entry {
        uri,
        frontmatter,
        files,
    })
}

/// The skill's directory: its `SKILL.md` URI without `/SKILL.md`.
fn skill_root(uri: &str) -> Result<&str, String> {
    let root = uri
        .strip_suffix("/SKILL.md")
        .ok_or("its `uri` does not end in `/SKILL.md`")?;
    match root.split_once("://") {
        Some((_, path)) if !path.is_empty() && safe_path(path) => Ok(root),
        _ => Err("its `uri` is not `scheme://<skill-path>/SKILL.md`".into()),
    }
}

/// A relative path with no empty, `.` or `..` segment, no backslash and no control character:
/// a file of this path stays inside the directory it is joined to.
fn safe_path(path: &str) -> bool {
    !path.contains('\\')
        && !path.chars().any(char::is_control)
        && path
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
}

/// A listed file's path inside the skill (`references/FORMS.md`), when it is inside it.
pub fn file_path<'a>(entry: &Entry, uri: &'a str) -> Option<&'a str> {
    let root = entry.uri.strip_suffix("/SKILL.md")?;
    let path = uri.strip_prefix(root)?.strip_prefix('/')?;
    safe_path(path).then_some(path)
}

fn files(items: &[Value], uri: &str, root: &str) -> Result<Vec<SkillFile>, String> {
    if items.len() > MAX_FILES {
        return Err(format!(
            "it lists {} files, over the extension's {MAX_FILES}",
            items.len()
        ));
    }
    let mut files = Vec::with_capacity(items.len());
    let mut total: u64 = 0;
    for item in items {
        let file = file(item, root)?;
        if files.iter().any(|f: &SkillFile| f.uri == file.uri) {
            return Err(format!("it lists {} twice", file.uri));
        }
        total = total.saturating_add(file.size);
        files.push(file);
    }
    if total > MAX_BYTES {
        return Err(format!(
            "its files add up to {total} bytes, over the extension's 16 MiB"
        ));
    }
    if !files.iter().any(|f| f.uri == uri) {
        return Err("its `resources` leave out its own SKILL.md (they must be complete)".into());
    }
    Ok(files)
}

fn file(item: &Value, root: &str) -> Result<SkillFile, String> {
    let uri = item
        .get("uri")
        .and_then(Value::as_str)
        .ok_or("a file without a `uri`")?;
    let inside = uri
        .strip_prefix(root)
        .and_then(|p| p.strip_prefix('/'))
        .is_some_and(safe_path);
    if !inside {
        return Err(format!(
            "the file {} is not inside the skill's directory",
            crate::untrusted::line(uri, 200)
        ));
    }
    let digest = item
        .get("digest")
        .and_then(Value::as_str)
        .and_then(parse_digest)
        .ok_or_else(|| {
            format!("the file {uri} has no `sha256:` digest of 64 lowercase hex digits")
        })?;
    let size = item
        .get("size")
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("the file {uri} has no `size` in bytes"))?;
    Ok(SkillFile {
        uri: uri.to_string(),
        digest,
        size,
    })
}

/// `sha256:` and 64 lowercase hex digits, as bytes.
fn parse_digest(text: &str) -> Option<[u8; 32]> {
    let hex = text.strip_prefix("sha256:")?;
    if hex.len() != 64
        || !hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DIGEST: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000000";

    fn entry(resources: Value) -> Value {
        json!({"uri": "skill://acme/refunds/SKILL.md",
            "frontmatter": {"name": "refunds", "description": "Refunds"}, "resources": resources})
    }

    #[test]
    fn a_well_formed_entry_is_read_and_every_break_is_named() {
        let good = entry(json!([
            {"uri": "skill://acme/refunds/SKILL.md", "digest": DIGEST, "size": 10},
            {"uri": "skill://acme/refunds/examples/email.md", "digest": DIGEST, "size": 5}]));
        let read = decode(&good).expect("good");
        assert_eq!(read.name(), "refunds");
        let Files::Listed(files) = &read.files else {
            panic!("listed")
        };
        assert_eq!(files.len(), 2);
        assert_eq!(file_path(&read, &files[1].uri), Some("examples/email.md"));
        assert_eq!(
            decode(&entry(json!("dynamic"))).map(|e| e.files),
            Ok(Files::Dynamic)
        );
        let breaks = [
            (entry(json!(null)), "neither an array"),
            (
                json!({"uri": "skill://acme/refunds/SKILL.md", "frontmatter": {"name": "refunds", "description": "d"}}),
                "no `resources`",
            ),
            (
                entry(
                    json!([{"uri": "skill://acme/refunds/other.md", "digest": DIGEST, "size": 1}]),
                ),
                "leave out its own SKILL.md",
            ),
            (
                entry(
                    json!([{"uri": "skill://acme/refunds/../../etc/passwd", "digest": DIGEST, "size": 1}]),
                ),
                "not inside",
            ),
            (
                entry(
                    json!([{"uri": "skill://acme/refunds/SKILL.md", "digest": "sha256:ABC", "size": 1}]),
                ),
                "digest",
            ),
            (
                entry(
                    json!([{"uri": "skill://acme/refunds/SKILL.md", "digest": DIGEST, "size": -1}]),
                ),
                "size",
            ),
            (
                entry(
                    json!([{"uri": "skill://acme/refunds/SKILL.md", "digest": DIGEST, "size": 17_000_000}]),
                ),
                "16 MiB",
            ),
            (
                json!({"uri": "skill://acme/other/SKILL.md", "frontmatter": {"name": "refunds", "description": "d"}, "resources": "dynamic"}),
                "does not end in its name",
            ),
            (
                json!({"uri": "skill://acme/refunds/x.md", "frontmatter": {"name": "refunds", "description": "d"}, "resources": "dynamic"}),
                "`/SKILL.md`",
            ),
            (
                json!({"uri": "skill://acme/refunds/SKILL.md", "frontmatter": {"name": "refunds"}, "resources": "dynamic"}),
                "`description`",
            ),
        ];
        for (value, why) in breaks {
            let said = decode(&value).expect_err(why);
            assert!(said.contains(why), "{why}: {said}");
        }
        let many: Vec<Value> = (0..513)
            .map(|i| json!({"uri": format!("skill://acme/refunds/f{i}"), "digest": DIGEST, "size": 1}))
            .collect();
        assert!(
            decode(&entry(Value::Array(many)))
                .expect_err("too many")
                .contains("512")
        );
    }
}
