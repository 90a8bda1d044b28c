//! Docs generated from the code cannot drift from it: `docs/keys.md` is the default keymap.

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
