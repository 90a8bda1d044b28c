//! `mcp-inspect skills` and `skill SKILL`: a server's skills (SEP-2640) listed from their
//! entries alone (nothing fetched), and one skill loaded as a host loads it: its `SKILL.md`
//! read and verified (size, SHA-256, frontmatter field by field) before a byte of it is shown,
//! a supporting file only when asked for and verified likewise. Nothing unverified is printed.

use super::output::Report;
use super::{exit, failed};
use crate::cli::Format;
use crate::mcp::Session;
use crate::skills::{self, Entry, Files};
use serde_json::{Value, json};

/// `skills`: every entry, one line each (name, files, URI, description), or JSON.
pub async fn list(session: &Session, report: &Report) -> i32 {
    if let Some(code) = undeclared(session, report) {
        return code;
    }
    let listing = match session.list_skills().await {
        Ok(l) => l,
        Err(e) => return failed("skills/list", e, report),
    };
    let (entries, refused) = read_entries(&listing.items);
    match report.format {
        Format::Json => report.json(&json!({
            "skills": entries.iter().map(as_json).collect::<Vec<_>>(),
            "refused": refused.iter().map(|(i, why)| json!({"index": i, "why": why})).collect::<Vec<_>>(),
        })),
        Format::Text => {
            for entry in &entries {
                report.line(&entry_line(entry));
            }
        }
    }
    for (index, why) in &refused {
        report.warn(&format!(
            "skill {index} of the listing is not loadable: {why}"
        ));
    }
    for name in shared_names(&entries) {
        report.warn(&format!(
            "more than one skill is named `{name}`: `skill` needs the URI of the one meant"
        ));
    }
    match listing.problem {
        Some(problem) => report.error(&problem, exit::ERROR),
        None => exit::OK,
    }
}

/// What `skill` loads: a skill by name or `SKILL.md` URI, and which of its other files.
pub struct Load<'a> {
    pub skill: &'a str,
    /// One supporting file, by its path in the skill (`references/FORMS.md`).
    pub file: Option<&'a str>,
    /// Every file it lists.
    pub all: bool,
}

/// `skill SKILL [--file PATH | --all]`.
pub async fn load(session: &Session, load: Load<'_>, report: &Report) -> i32 {
    if let Some(code) = undeclared(session, report) {
        return code;
    }
    let entry = match find(session, load.skill).await {
        Ok(entry) => entry,
        Err(why) => return report.error(&why, exit::ERROR),
    };
    if matches!(entry.files, Files::Dynamic) {
        report.warn("its resources are \"dynamic\": no digests to verify its files against");
    }
    let shown = match session
        .load_skill(&entry, &others_asked(&entry, &load))
        .await
    {
        Ok(shown) => shown,
        Err(why) => return report.error(&format!("{} not loaded: {why}", entry.uri), exit::ERROR),
    };
    tell(report, &entry, &shown);
    exit::OK
}

fn undeclared(session: &Session, report: &Report) -> Option<i32> {
    (!skills::declared(&session.server.capabilities)).then(|| {
        report.error(
            &format!(
                "the server does not declare the skills extension (`{}` under `capabilities.extensions`)",
                skills::EXTENSION
            ),
            exit::ERROR,
        )
    })
}

/// The entries that can be loaded, and why each other one cannot (by its index).
fn read_entries(items: &[Value]) -> (Vec<Entry>, Vec<(usize, String)>) {
    let (mut entries, mut refused) = (Vec::new(), Vec::new());
    for (index, item) in items.iter().enumerate() {
        match skills::decode(item) {
            Ok(entry) => entries.push(entry),
            Err(why) => refused.push((index, why)),
        }
    }
    (entries, refused)
}

fn shared_names(entries: &[Entry]) -> Vec<&str> {
    let mut names: Vec<&str> = entries.iter().map(Entry::name).collect();
    names.sort_unstable();
    let mut shared: Vec<&str> = names
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    shared.dedup();
    shared
}

/// The entry `what` names: a listed skill's URI or its name (when one skill has it); a URI
/// not listed is asked for with `skills/get` (a listing may be partial).
async fn find(session: &Session, what: &str) -> Result<Entry, String> {
    let listing = session
        .list_skills()
        .await
        .map_err(|e| format!("skills/list failed: {e}"))?;
    let named = |item: &Value| {
        item.get("uri").and_then(Value::as_str) == Some(what)
            || item.pointer("/frontmatter/name").and_then(Value::as_str) == Some(what)
    };
    let matching: Vec<&Value> = listing.items.iter().filter(|i| named(i)).collect();
    match matching.as_slice() {
        [one] => skills::decode(one).map_err(|why| format!("{what} not loaded: its entry: {why}")),
        [] if what.contains("://") => {
            let result = session
                .get_skill(what)
                .await
                .map_err(|e| format!("skills/get failed: {e}"))?;
            let entry = result.get("skill").unwrap_or(&Value::Null);
            skills::decode(entry).map_err(|why| format!("{what} not loaded: its entry: {why}"))
        }
        [] => Err(format!(
            "no skill named `{what}` is listed ({} listed); a skill not listed is loaded by the URI of its SKILL.md",
            listing.items.len()
        )),
        many => Err(format!(
            "{} skills are named `{what}`: give the URI of one: {}",
            many.len(),
            many.iter()
                .filter_map(|i| i.get("uri").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The URIs of the files asked for beyond `SKILL.md`, in the entry's order.
fn others_asked(entry: &Entry, load: &Load) -> Vec<String> {
    let root = entry.uri.trim_end_matches("/SKILL.md");
    match (load.file, &entry.files) {
        (Some(path), _) => vec![format!("{root}/{path}")],
        (None, Files::Listed(files)) if load.all => files
            .iter()
            .filter(|f| f.uri != entry.uri)
            .map(|f| f.uri.clone())
            .collect(),
        _ => Vec::new(),
    }
}

fn tell(report: &Report, entry: &Entry, shown: &[(String, Vec<u8>)]) {
    let verified = matches!(entry.files, Files::Listed(_));
    let root = entry.uri.trim_end_matches("/SKILL.md");
    match report.format {
        Format::Json => report.json(&json!({
            "skill": as_json(entry),
            "files": shown.iter().map(|(uri, bytes)| json!({
                "uri": uri,
                "path": uri.strip_prefix(root).map(|p| p.trim_start_matches('/')),
                "bytes": bytes.len(),
                "verified": verified,
                "text": String::from_utf8_lossy(bytes),
            })).collect::<Vec<_>>(),
        })),
        Format::Text => {
            for (uri, bytes) in shown {
                if shown.len() > 1 {
                    let path = uri
                        .strip_prefix(root)
                        .unwrap_or(uri)
                        .trim_start_matches('/');
                    let how = if verified {
                        "verified"
                    } else {
                        "not verifiable"
                    };
                    report.line(&format!("── {path} ({} bytes, {how}) ──", bytes.len()));
                }
                for line in String::from_utf8_lossy(bytes).lines() {
                    report.line(line);
                }
            }
        }
    }
}

/// `name  N files, B bytes  URI  description`.
fn entry_line(entry: &Entry) -> String {
    let description = entry.description().lines().next().unwrap_or_default();
    format!(
        "{}  {}  {}  {}",
        crate::untrusted::line(entry.name(), 80),
        entry.files_said(),
        crate::untrusted::line(&entry.uri, 200),
        crate::untrusted::line(description, 160)
    )
}

fn as_json(entry: &Entry) -> Value {
    let resources = match &entry.files {
        Files::Dynamic => json!("dynamic"),
        Files::Listed(files) => Value::Array(
            files
                .iter()
                .map(|f| {
                    json!({"uri": f.uri, "digest": skills::digest_text(&f.digest), "size": f.size})
                })
                .collect(),
        ),
    };
    json!({"uri": entry.uri, "frontmatter": entry.frontmatter, "resources": resources})
}
