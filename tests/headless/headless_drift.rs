//! `snapshot` and `diff` against real servers: two versions of a fastmcp server (a flag changes
//! a signature) diffed live, the breaking change found and exit 6; the demo's snapshot is the
//! same bytes twice and diffs clean against itself; JSON and Markdown reports; a file that is
//! not a snapshot is refused.

use crate::cli;
use crate::peers;

use cli::run;
use serde_json::Value;

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("mcp-inspect-drift-{}-{name}", std::process::id()))
}

fn script() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers/fastmcp_versions.py")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn two_fastmcp_versions_diffed_live_find_the_breaking_change() {
    let Some(python) = peers::python() else {
        return;
    };
    let v1 = temp("v1.json");
    let v1s = v1.to_string_lossy().into_owned();
    let script = script();
    let taken = run(&["snapshot", "-o", &v1s, "--", &python, &script]);
    assert_eq!(taken.code, 0, "{}", taken.stderr);
    assert!(
        taken.stderr.contains("snapshot of 2 tools"),
        "{}",
        taken.stderr
    );
    let same = run(&["diff", &v1s, "--", &python, &script]);
    assert_eq!(
        (same.code, same.stdout.trim()),
        (0, "no changes\n0 breaking, 0 unknown, 0 compatible, 0 info")
    );
    let changed = run(&[
        "diff", &v1s, "--format", "json", "--", &python, &script, "--v2",
    ]);
    assert_eq!(changed.code, 6, "{}{}", changed.stdout, changed.stderr);
    let report: Value = serde_json::from_str(&changed.stdout).expect("json");
    let found = |tool: &str, pointer: &str, verdict: &str| {
        report["changes"]
            .as_array()
            .expect("changes")
            .iter()
            .any(|c| c["name"] == tool && c["pointer"] == pointer && c["verdict"] == verdict)
    };
    assert!(
        found("search", "/inputSchema/properties/limit", "breaking"),
        "{report:#}"
    );
    assert!(
        found("count", "/outputSchema/properties/result", "breaking"),
        "{report:#}"
    );
    assert!(found("stats", "/", "compatible"), "{report:#}");
    // Beyond tools: a prompt that asks a new required argument, a resource of another type.
    assert!(found("summarize", "/arguments/1", "breaking"), "{report:#}");
    assert!(found("notes://all", "/mimeType", "breaking"), "{report:#}");
    assert_eq!(report["summary"]["breaking"], 4, "{report:#}");
    let markdown = run(&[
        "diff", &v1s, "--format", "markdown", "--", &python, &script, "--v2",
    ]);
    assert_eq!(markdown.code, 6);
    assert!(
        markdown.stdout.contains("**Breaking changes found.**"),
        "{}",
        markdown.stdout
    );
    assert!(
        markdown
            .stdout
            .contains("| breaking | callers | `/inputSchema/properties/limit` |"),
        "{}",
        markdown.stdout
    );
    assert!(
        markdown.stdout.contains("#### prompt `summarize`")
            && markdown.stdout.contains(
                "| breaking | callers | `/arguments/1` | argument 'style' added (required) |"
            ),
        "{}",
        markdown.stdout
    );
    // fastmcp boxes its scalar results in both eras alike: across eras, nothing differs.
    let eras = run(&["diff", "--eras", "--", &python, &script]);
    assert_eq!(eras.code, 0, "{}", eras.stderr);
    assert!(
        eras.stderr.contains("2026-07-28 era: protocol 2026-07-28"),
        "{}",
        eras.stderr
    );
    assert!(eras.stdout.starts_with("no changes"), "{}", eras.stdout);
    let _ = std::fs::remove_file(v1);
}

#[test]
fn a_snapshot_is_the_same_bytes_twice_and_files_diff_without_a_server() {
    let (a, b) = (temp("a.json"), temp("b.json"));
    let (a_s, b_s) = (
        a.to_string_lossy().into_owned(),
        b.to_string_lossy().into_owned(),
    );
    assert_eq!(run(&["snapshot", "-o", &a_s, "--demo"]).code, 0);
    assert_eq!(run(&["snapshot", "-o", &b_s, "--demo"]).code, 0);
    let text = std::fs::read_to_string(&a).expect("a");
    assert_eq!(text, std::fs::read_to_string(&b).expect("b"));
    // Server data: a new snapshot is the user's alone (invariant 10).
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&a).expect("meta").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let doc: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(doc["mcpInspectSnapshot"], 1);
    assert_eq!(doc["tools"].as_array().map(Vec::len), Some(17));
    assert!(
        doc["prompts"].is_array() && doc["resources"].is_array(),
        "{doc:#}"
    );
    // Both files: nothing is started (no server flags at all).
    let clean = run(&["diff", &a_s, &b_s]);
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    // A tool removed from the new side breaks callers.
    let mut fewer = doc.clone();
    fewer["tools"]
        .as_array_mut()
        .expect("tools")
        .retain(|t| t["name"] != "add");
    std::fs::write(&b, serde_json::to_string(&fewer).expect("text")).expect("write");
    let removed = run(&["diff", &a_s, &b_s]);
    assert_eq!(removed.code, 6, "{}", removed.stdout);
    assert!(
        removed
            .stdout
            .contains("add:\n  breaking   callers   /  tool removed"),
        "{}",
        removed.stdout
    );
    // SARIF: each change a result, located at the tool's line in the newer snapshot file.
    let sarif = run(&["diff", &a_s, &b_s, "--format", "sarif"]);
    assert_eq!(sarif.code, 6);
    let log: Value = serde_json::from_str(&sarif.stdout).expect("sarif");
    assert_eq!(log["version"], "2.1.0");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "drift/breaking");
    assert_eq!(result["level"], "error");
    assert_eq!(
        result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
        "add/"
    );
    let check = run(&["check", "--format", "sarif", "--demo"]);
    let log: Value = serde_json::from_str(&check.stdout).expect("sarif");
    assert!(
        log["runs"][0]["results"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["ruleId"] == "lint/error")),
        "{log:#}"
    );
    // A server's names and values reach the reports escaped, in every format.
    let evil = |kind: &str| {
        serde_json::json!({"mcpInspectSnapshot": 1, "tools": [{
            "name": "evil\u{1b}]52;c;aGk=\u{7}\u{202e}",
            "inputSchema": {"type": "object", "properties": {"p\u{1b}[2J": {"type": kind}}}
        }]})
    };
    std::fs::write(&a, evil("string").to_string()).expect("write");
    std::fs::write(&b, evil("integer").to_string()).expect("write");
    for format in ["text", "json", "markdown", "sarif"] {
        let r = run(&["diff", &a_s, &b_s, "--format", format]);
        assert_eq!(r.code, 6, "{format}: {}", r.stdout);
        assert!(
            !r.stdout
                .chars()
                .any(|c| c == '\u{1b}' || c == '\u{7}' || c == '\u{202e}'),
            "{format}: {:?}",
            r.stdout
        );
    }
    std::fs::write(&b, "{\"tools\": []}").expect("write");
    let refused = run(&["diff", &a_s, &b_s]);
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.contains("not an mcp-inspect snapshot"),
        "{}",
        refused.stderr
    );
    let _ = (std::fs::remove_file(a), std::fs::remove_file(b));
}

/// The demo projects its non-object output schemas into `{"result": …}` for legacy clients, as
/// the TypeScript SDK does: `diff --eras` shows it, tool by tool, and exits 0 (it informs).
#[test]
fn the_same_server_in_both_eras_shows_its_projected_schemas() {
    let r = run(&["diff", "--eras", "--format", "json", "--demo"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("legacy era: protocol 2025-11-25"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("2026-07-28 era: protocol 2026-07-28"),
        "{}",
        r.stderr
    );
    let report: Value = serde_json::from_str(&r.stdout).expect("json");
    let pi: Vec<&Value> = report["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter(|c| c["name"] == "pi")
        .collect();
    assert!(
        pi.iter().any(|c| c["what"]
            .as_str()
            .is_some_and(|w| w.starts_with("boxing changed"))),
        "{report:#}"
    );
}

/// A change behind Pydantic's `Optional[Model]` breaks callers (exit 6); a change the rules
/// cannot judge, such as a ref chain longer than the walk, is unknown: exit 7, never 0.
#[test]
fn changes_behind_refs_break_and_unjudged_ones_never_exit_clean() {
    let write = |name: &str, input: serde_json::Value| {
        let path = temp(name);
        let snapshot = serde_json::json!({"mcpInspectSnapshot": 1, "tools": [{"name": "search", "inputSchema": input}]});
        std::fs::write(&path, snapshot.to_string()).expect("write");
        path
    };
    let optional = |limit: &str| {
        serde_json::json!({"type": "object", "properties": {"filter": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]}},
            "$defs": {"Filter": {"type": "object", "properties": {"limit": {"type": limit}}}}})
    };
    let (a, b) = (
        write("optional-a.json", optional("integer")),
        write("optional-b.json", optional("string")),
    );
    let r = run(&["diff", &a.to_string_lossy(), &b.to_string_lossy()]);
    assert_eq!(r.code, 6, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("/filter/anyOf/0/properties/limit"),
        "{}",
        r.stdout
    );
    let chain = |leaf: &str| {
        let mut defs = serde_json::Map::new();
        for i in 0..100 {
            defs.insert(
                format!("d{i}"),
                serde_json::json!({"$ref": format!("#/$defs/d{}", i + 1)}),
            );
        }
        defs.insert("d100".into(), serde_json::json!({"type": leaf}));
        serde_json::json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs})
    };
    let (c, d) = (
        write("chain-a.json", chain("integer")),
        write("chain-b.json", chain("string")),
    );
    let r = run(&["diff", &c.to_string_lossy(), &d.to_string_lossy()]);
    assert_eq!(r.code, 7, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("unknown"), "{}", r.stdout);
    for path in [a, b, c, d] {
        let _ = std::fs::remove_file(path);
    }
}

/// A snapshot file is read to 64 MiB at most, and only a regular file: a larger one, a FIFO
/// or `/dev/zero` is refused at once with a reason, never read into gigabytes.
#[test]
fn snapshot_files_are_bounded_and_regular() {
    let big = temp("huge-snapshot.json");
    let file = std::fs::File::create(&big).expect("create");
    file.set_len(65 << 20).expect("sparse 65 MiB");
    let big_s = big.to_string_lossy().into_owned();
    let r = run(&["diff", &big_s, &big_s]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("over the"), "{}", r.stderr);
    let r = run(&["diff", "/dev/zero", &big_s]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    let _ = std::fs::remove_file(big);
}
