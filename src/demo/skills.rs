//! The demo's skill (SEP-2640): one skill of two files, listed by `skills/list` and
//! `skills/get` with the digest and size of each, read with `resources/read`.

use serde_json::{Value, json};

pub const SKILL_MD: &str = "skill://inspect-a-server/SKILL.md";
const KEYS_MD: &str = "skill://inspect-a-server/references/KEYS.md";

const SKILL_TEXT: &str = "---\nname: inspect-a-server\ndescription: Explore an MCP server's tools with mcp-inspect, call one and judge its result\nlicense: MIT\nmetadata:\n  version: \"1.0\"\n---\n\n# Inspect a server\n\n1. `mcp-inspect tools -- <server>` lists the tools with their signatures.\n2. `mcp-inspect call TOOL --arg k=v -- <server>` calls one; its structuredContent is judged\n   against the outputSchema.\n3. `mcp-inspect verify -- <server>` calls every read-only tool with generated inputs.\n\nThe TUI's keys are in [references/KEYS.md](references/KEYS.md).\n";

const KEYS_TEXT: &str = "# Keys\n\n- `?` help\n- `/` filter the tools\n- `c` call the selected tool\n- `y` copy\n- `q` quit\n";

fn files() -> [(&'static str, &'static str); 2] {
    [(SKILL_MD, SKILL_TEXT), (KEYS_MD, KEYS_TEXT)]
}

/// The skill's entry: verbatim frontmatter, every file with its SHA-256 and size.
pub fn entry() -> Value {
    let resources: Vec<Value> = files()
        .iter()
        .map(|(uri, text)| {
            let digest = crate::skills::digest_of(text.as_bytes());
            json!({"uri": uri, "digest": digest, "size": text.len()})
        })
        .collect();
    json!({"uri": SKILL_MD,
        "frontmatter": {"name": "inspect-a-server",
            "description": "Explore an MCP server's tools with mcp-inspect, call one and judge its result",
            "license": "MIT", "metadata": {"version": "1.0"}},
        "resources": resources})
}

/// The `skills/list` result.
pub fn listed() -> Value {
    json!({"skills": [entry()], "ttlMs": 0, "cacheScope": "public"})
}

/// The `skills/get` result for `uri`, when it is the skill's.
pub fn got(uri: &str) -> Option<Value> {
    (uri == SKILL_MD).then(|| json!({"skill": entry(), "ttlMs": 0, "cacheScope": "public"}))
}

/// The contents of one of the skill's files.
pub fn read(uri: &str) -> Option<Value> {
    let (_, text) = files().into_iter().find(|(u, _)| *u == uri)?;
    Some(json!({"contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]}))
}
