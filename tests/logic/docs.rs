//! Docs generated from the code cannot drift from it: `docs/keys.md` is the default keymap,
//! `docs/flags.md` the clap definitions.

use mcp_inspect::testing::app::keymap::Keymap;
use std::path::Path;

#[test]
fn docs_keys_md_is_the_default_keymap() {
    let text = Keymap::default_map().markdown();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/keys.md");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &text).expect("write docs/keys.md");
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "docs/keys.md differs from assets/keymap.toml: `UPDATE_DOCS=1 cargo test --test logic docs` writes it"
    );
    assert!(
        text.contains("| `ctrl-f` | The form or the JSON draft"),
        "{text}"
    );
}

#[test]
fn docs_flags_md_is_what_clap_defines() {
    let text = mcp_inspect::testing::cli::reference::flags_markdown();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/flags.md");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &text).expect("write docs/flags.md");
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "docs/flags.md differs from the clap definitions: `UPDATE_DOCS=1 cargo test --test logic docs` writes it"
    );
    for expected in [
        "## `mcp-inspect verify`",
        "| `--allow-destructive TOOL` |",
        "| `-n`, `--calls N` |",
        "And the [connection flags](#connection-flags).",
    ] {
        assert!(text.contains(expected), "`{expected}` not in:\n{text}");
    }
}
