//! Which tools `verify` may call, from their annotations: a read-only tool always; one that
//! writes only with `--allow-writes`; one that may destroy (`destructiveHint` true, or left out:
//! the spec's default for a tool that is not read-only) only when named with
//! `--allow-destructive`; every tool with `--allow-all` (a throwaway server). Pure.

use crate::mcp::ToolList;
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

/// Why a tool of `list` is not called, or `None` when it may be. A tool listed twice is
/// judged as if it said nothing: a call may reach the other definition, whatever it claims.
pub fn refusal(list: &ToolList, tool: &Tool, allow: &Allow) -> Option<String> {
    if list.listed_twice(&tool.name) && !allow.all && !allow.destructive.contains(&tool.name) {
        return Some(format!(
            "listed twice (a call may reach either definition, whatever their annotations): \
             --allow-destructive {} calls it",
            crate::untrusted::line(&tool.name, 80)
        ));
    }
    by_annotations(tool, allow)
}

/// Why a tool is not called, by its own annotations.
fn by_annotations(tool: &Tool, allow: &Allow) -> Option<String> {
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
    fn a_tool_listed_twice_is_called_only_when_named_or_all_are_allowed() {
        let page = crate::mcp::surface::tool::decode_page(&json!({"tools": [
            {"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
            {"name": "t", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}},
            {"name": "u", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}
        ]}))
        .expect("page");
        let list = ToolList {
            tools: page.tools,
            rejected: page.rejected,
            ..ToolList::default()
        };
        let (t, u) = (&list.tools[0], &list.tools[1]);
        let writes = Allow {
            writes: true,
            ..Allow::default()
        };
        assert!(refusal(&list, t, &writes).is_some_and(|r| r.starts_with("listed twice")));
        assert_eq!(refusal(&list, u, &Allow::default()), None);
        let named = Allow {
            destructive: vec!["t".into()],
            ..Allow::default()
        };
        assert_eq!(refusal(&list, t, &named), None);
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
        assert_eq!(by_annotations(&read_only, &none), None);
        assert!(by_annotations(&safe_write, &none).is_some_and(|r| r.contains("--allow-writes")));
        assert_eq!(by_annotations(&safe_write, &writes), None);
        assert!(
            by_annotations(&destructive, &writes)
                .is_some_and(|r| r.contains("--allow-destructive t"))
        );
        assert!(by_annotations(&unsaid, &writes).is_some_and(|r| r.contains("default is true")));
        assert_eq!(by_annotations(&destructive, &named), None);
        assert_eq!(by_annotations(&unsaid, &named), None);
        assert_eq!(by_annotations(&destructive, &all), None);
        assert_eq!(by_annotations(&unsaid, &all), None);
    }
}
