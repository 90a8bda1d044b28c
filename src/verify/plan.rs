//! Which tools `verify` may call, from their annotations: a read-only tool always; one that
//! writes only with `--allow-writes`; one that may destroy (`destructiveHint` true, or left out:
//! the spec's default for a tool that is not read-only) only when named with
//! `--allow-destructive`; every tool with `--allow-all` (a throwaway server). Pure.

use crate::mcp::surface::tool::Tool;

/// What the command line allows beyond read-only tools.
#[derive(Debug, Clone, Default)]
pub struct Allow {
    pub writes: bool,
    /// Tools allowed although destructive, by name.
    pub destructive: Vec<String>,
    /// `--allow-all`: every tool, destructive ones too (a server whose state does not matter).
    pub all: bool,
}

/// What to add to the command line to call tools that were skipped, in one line.
pub const HOW_TO_ALLOW: &str = "--allow-writes calls tools that write, --allow-destructive TOOL \
     a destructive one, --allow-all every tool (for a throwaway server)";

/// Why a tool is not called, or `None` when it may be.
pub fn refusal(tool: &Tool, allow: &Allow) -> Option<String> {
    let hints = &tool.annotations;
    if hints.read_only == Some(true) || allow.all {
        return None;
    }
    if !allow.writes {
        return Some("not read-only (readOnlyHint is not true): --allow-writes calls it".into());
    }
    let named = allow.destructive.contains(&tool.name);
    match hints.destructive {
        Some(false) => None,
        _ if named => None,
        Some(true) => Some(format!(
            "destructive (destructiveHint: true): --allow-destructive {} calls it",
            crate::untrusted::line(&tool.name, 80)
        )),
        None => Some(format!(
            "maybe destructive (no destructiveHint: the spec's default is true): --allow-destructive {} calls it",
            crate::untrusted::line(&tool.name, 80)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::surface::tool::decode_tool;
    use serde_json::json;

    fn tool(annotations: serde_json::Value) -> Tool {
        decode_tool(
            &json!({"name": "t", "inputSchema": {"type": "object"}, "annotations": annotations}),
        )
        .expect("a tool")
    }

    #[test]
    fn only_read_only_tools_unless_allowed_and_destructive_ones_by_name() {
        let none = Allow::default();
        let writes = Allow {
            writes: true,
            ..Allow::default()
        };
        let named = Allow {
            writes: true,
            destructive: vec!["t".into()],
            all: false,
        };
        let all = Allow {
            all: true,
            ..Allow::default()
        };
        let read_only = tool(json!({"readOnlyHint": true}));
        let safe_write = tool(json!({"readOnlyHint": false, "destructiveHint": false}));
        let destructive = tool(json!({"destructiveHint": true}));
        let unsaid = tool(json!({}));
        assert_eq!(refusal(&read_only, &none), None);
        assert!(refusal(&safe_write, &none).is_some_and(|r| r.contains("--allow-writes")));
        assert_eq!(refusal(&safe_write, &writes), None);
        assert!(
            refusal(&destructive, &writes).is_some_and(|r| r.contains("--allow-destructive t"))
        );
        assert!(refusal(&unsaid, &writes).is_some_and(|r| r.contains("default is true")));
        assert_eq!(refusal(&destructive, &named), None);
        assert_eq!(refusal(&unsaid, &named), None);
        assert_eq!(refusal(&destructive, &all), None);
        assert_eq!(refusal(&unsaid, &all), None);
    }
}
