//! What each copy command copies: schemas (raw or unboxed), the subtree and JSON Pointer of
//! the row under the cursor, the whole tool. How it reaches the clipboard is the runtime's. Pure.

use super::model::{Model, Which};
use serde_json::{Value, json};

/// A copy request resolved to its label and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copy {
    pub label: String,
    pub text: String,
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// Resolves a copy command against the selected tool and cursor.
pub fn resolve(model: &Model, command: &str) -> Result<Copy, String> {
    let entry = model.selected_entry().ok_or("no tool selected")?;
    let tool = &entry.tool;
    let output = || {
        tool.output_schema
            .as_ref()
            .ok_or_else(|| format!("{} has no output schema", tool.name))
    };
    let cursor = || {
        let view = model.views.get(&tool.name);
        let detail = model.details.get(&tool.name);
        match (view.and_then(|v| v.cursor), detail) {
            (Some((which, node)), Some(d)) => d
                .tree(which)
                .map(|t| (which, t.nodes[node].pointer.clone()))
                .ok_or("no row"),
            _ => Err("no row under the cursor (open the tool pane first)"),
        }
    };
    let (label, text) = match command {
        "copy-input" => ("input schema".to_string(), pretty(&tool.input_schema)),
        "copy-output" => ("output schema".to_string(), pretty(output()?)),
        "copy-output-unboxed" => {
            let schema = output()?;
            match &entry.boxing {
                Some(b) => (
                    "unboxed output schema".to_string(),
                    pretty(&unboxed(schema, &b.field)),
                ),
                None => ("output schema (not boxed)".to_string(), pretty(schema)),
            }
        }
        "copy-subtree" => {
            let (which, pointer) = cursor()?;
            let doc = match which {
                Which::Input => &tool.input_schema,
                Which::Output => output()?,
            };
            let sub = doc
                .pointer(&pointer)
                .ok_or("the row has no place in the schema")?;
            (
                format!("subtree {}", display_pointer(which, &pointer)),
                pretty(sub),
            )
        }
        "copy-pointer" => {
            let (which, pointer) = cursor()?;
            let p = display_pointer(which, &pointer);
            (format!("pointer {p}"), p)
        }
        "copy-tool" => (format!("tool {}", tool.name), pretty(&tool.raw)),
        other => return Err(format!("unknown copy command {other}")),
    };
    Ok(Copy { label, text })
}

/// A row's pointer within the tool definition: `/inputSchema/properties/query`.
pub fn display_pointer(which: Which, pointer: &str) -> String {
    let base = match which {
        Which::Input => "/inputSchema",
        Which::Output => "/outputSchema",
    };
    format!("{base}{pointer}")
}

/// The boxed field's schema, self-contained: the root's `$defs`/`definitions` come along.
fn unboxed(schema: &Value, field: &str) -> Value {
    let mut inner = schema
        .pointer(&format!("/properties/{field}"))
        .cloned()
        .unwrap_or(json!({}));
    if let Value::Object(map) = &mut inner {
        for key in ["$defs", "definitions"] {
            if let Some(defs) = schema.get(key) {
                map.entry(key.to_string()).or_insert_with(|| defs.clone());
            }
        }
    }
    inner
}
