//! What each copy command copies: schemas (raw or unboxed), the subtree and JSON Pointer of
//! the row under the cursor, the whole tool. How it reaches the clipboard is the runtime's. Pure.

use crate::app::call::state::Outcome;
use crate::app::command::Command;
use crate::app::model::{Model, Pane};
use crate::app::tools::state::Which;
use crate::escape::shell_quote;
use serde_json::{Value, json};

/// A copy request resolved to its label and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clipping {
    pub label: String,
    pub text: String,
}

/// Pretty JSON with C1 and bidi controls escaped (the same value, safe to paste into a terminal).
fn pretty(v: &Value) -> String {
    crate::untrusted::json(v, true)
}

/// Resolves a copy command against the selected tool and cursor.
pub fn resolve(model: &Model, command: Command) -> Result<Clipping, String> {
    if command == Command::CopyMessage {
        return protocol_copy(model);
    }
    if command == Command::CopyConduct {
        return conduct_copy(model);
    }
    if matches!(model.view.focus, Pane::Library | Pane::Opened) {
        return library_copy(model, command);
    }
    let entry = model.selected_entry().ok_or("no tool selected")?;
    let tool = &entry.tool;
    let output = || {
        tool.output_schema
            .as_ref()
            .ok_or_else(|| format!("{} has no output schema", tool.name))
    };
    let cursor = || {
        let view = model.tool_view(&tool.name);
        let detail = model.detail(&tool.name);
        match (view.and_then(|v| v.cursor), detail) {
            (Some((which, node)), Some(d)) => d
                .tree(which)
                .and_then(|t| t.nodes.get(node))
                .map(|n| (which, n.pointer.clone()))
                .ok_or("no row"),
            _ => Err("no row under the cursor (open the tool pane first)"),
        }
    };
    // In the call panel, the cursor is on the result's value.
    if model.view.focus == Pane::Call
        && matches!(
            command,
            Command::CopySubtree | Command::CopyPointer | Command::CopyJq
        )
    {
        let (label, text) = value_copy(model, &tool.name, command)?;
        return Ok(Clipping { label, text });
    }
    let (label, text) = match command {
        Command::CopyInput => ("input schema".to_string(), pretty(&tool.input_schema)),
        Command::CopyOutput => ("output schema".to_string(), pretty(output()?)),
        Command::CopyOutputUnboxed => {
            let schema = output()?;
            match entry.boxing() {
                Some(b) => (
                    "unboxed output schema".to_string(),
                    pretty(&unboxed(schema, &b.field)),
                ),
                None => ("output schema (not boxed)".to_string(), pretty(schema)),
            }
        }
        Command::CopySubtree => {
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
                pretty(&crate::schema::refs::bundled(doc, sub)),
            )
        }
        Command::CopyPointer => {
            let (which, pointer) = cursor()?;
            let p = display_pointer(which, &pointer);
            (format!("pointer {p}"), p)
        }
        Command::CopyTool => (format!("tool {}", tool.name), pretty(&tool.definition())),
        Command::CopyResult
        | Command::CopyValue
        | Command::CopyRequest
        | Command::CopyCommandLine => call_copy(model, &tool.name, command)?,
        other => return Err(format!("`{}` copies nothing", other.name())),
    };
    Ok(Clipping { label, text })
}

/// The protocol pane's selected message, as sent.
/// The conduct checks' failures: each a comment (id, level, what came back) and the command
/// that reproduces it, ready to paste into a shell.
fn conduct_copy(model: &Model) -> Result<Clipping, String> {
    use crate::app::server::state::Conduct;
    use crate::conform::{Level, Status};
    let Conduct::Found(found) = &model.session.conduct else {
        return Err("no conduct checked yet (C checks it)".into());
    };
    let failed: Vec<&crate::conform::Finding> =
        found.iter().filter(|f| f.status == Status::Fail).collect();
    if failed.is_empty() {
        return Err("no conduct check failed".into());
    }
    let text: Vec<String> = (failed.iter())
        .map(|f| {
            let level = match f.level {
                Level::Must => "MUST",
                Level::Should => "SHOULD",
            };
            let said = crate::untrusted::line(&f.said, 300);
            let mut lines = format!("# {} ({level}): {}\n# got: {said}", f.id, f.rule);
            if let Some(line) = &f.reproduce {
                lines.push_str(&format!("\n{}", crate::untrusted::line(line, 20_000)));
            }
            lines
        })
        .collect();
    Ok(Clipping {
        label: crate::plural::count(failed.len(), "conduct failure"),
        text: text.join("\n\n") + "\n",
    })
}

fn protocol_copy(model: &Model) -> Result<Clipping, String> {
    let protocol = &model.protocol;
    let entry = protocol
        .selected_index()
        .map(|i| &protocol.entries[i])
        .ok_or("no protocol message yet")?;
    let message = entry.wire.message.as_ref().ok_or(format!(
        "the message was not kept ({} bytes, over {} MiB)",
        entry.wire.bytes,
        crate::mcp::transport::wire::KEPT_BYTES >> 20
    ))?;
    let what = entry
        .wire
        .method
        .as_deref()
        .or(entry.wire.answer)
        .unwrap_or("message");
    let message: Value = serde_json::from_str(message).map_err(|e| e.to_string())?;
    Ok(Clipping {
        label: format!("message {}", crate::untrusted::line(what, 60)),
        text: pretty(&message),
    })
}

/// Whether the copy menu offers `command` where the focus is (a library tab copies what was
/// read, and the value under the cursor of a JSON content's tree; the protocol pane's message).
pub fn offered(model: &Model, command: Command) -> bool {
    let tree = model
        .library
        .opened
        .as_ref()
        .is_some_and(|o| o.json.is_some());
    let under_cursor = matches!(
        command,
        Command::CopySubtree | Command::CopyPointer | Command::CopyJq
    );
    !matches!(model.view.focus, Pane::Library | Pane::Opened)
        || matches!(
            command,
            Command::CopyResult | Command::CopyMessage | Command::CopyConduct
        )
        || (tree && under_cursor)
}

/// Why `command` has nothing to copy yet, when that is cheap to tell (no result, no output
/// schema, no message): the copy menu greys it with the reason.
pub fn not_yet(model: &Model, command: Command) -> Option<&'static str> {
    let entry = model.selected_entry();
    let result = || {
        let state = entry.and_then(|e| model.call(&e.tool.name));
        state
            .and_then(|s| s.shown_record())
            .is_some_and(|r| matches!(r.outcome, crate::app::call::state::Outcome::Result { .. }))
    };
    let library = matches!(model.view.focus, Pane::Library | Pane::Opened);
    match command {
        Command::CopyMessage if model.protocol.entries.is_empty() => Some("no message yet"),
        Command::CopyConduct => conduct_not_yet(model),
        Command::CopyResult if library && model.library.opened.is_none() => {
            Some("nothing read yet")
        }
        Command::CopyResult | Command::CopyValue if !library && !result() => Some("no result yet"),
        // A jq path is a value's: the call panel's result, or a library tab's JSON.
        Command::CopyJq if !library && model.view.focus != Pane::Call => {
            Some("of a result's value: in the call panel")
        }
        Command::CopyJq if !library && !result() => Some("no result yet"),
        Command::CopyOutput | Command::CopyOutputUnboxed
            if entry.is_some_and(|e| e.tool.output_schema.is_none()) =>
        {
            Some("the tool has no outputSchema")
        }
        _ => None,
    }
}

/// Why the conduct checks have nothing to copy, if they have not.
fn conduct_not_yet(model: &Model) -> Option<&'static str> {
    use crate::app::server::state::Conduct;
    match &model.session.conduct {
        Conduct::Found(found)
            if found
                .iter()
                .any(|f| f.status == crate::conform::Status::Fail) =>
        {
            None
        }
        Conduct::Found(_) => Some("no conduct check failed"),
        _ => Some("not checked yet: C checks it"),
    }
}

/// What a library tab copies: what the last read or prompt gave, as sent; or the value under
/// the cursor of a JSON content's tree, its JSON Pointer (within that JSON) or its jq path.
fn library_copy(model: &Model, command: Command) -> Result<Clipping, String> {
    let opened = model.library.opened.as_ref().ok_or("nothing read yet")?;
    let result = opened.result.as_ref().ok_or("the last read failed")?;
    let (label, text) = match (command, &opened.json) {
        (Command::CopyResult, _) => (opened.title.clone(), pretty(result)),
        (Command::CopyPointer, Some(json)) => {
            let row = &json.tree.rows[json.cursor];
            (format!("pointer {}", row.pointer), row.pointer.clone())
        }
        (Command::CopyJq, Some(json)) => {
            let row = &json.tree.rows[json.cursor];
            (format!("jq path {}", row.jq), row.jq.clone())
        }
        (Command::CopySubtree, Some(json)) => {
            let row = &json.tree.rows[json.cursor];
            let text = result["contents"][json.index]["text"].as_str();
            let value: Value = serde_json::from_str(text.unwrap_or_default())
                .map_err(|_| "the content is no longer JSON")?;
            let value = value.pointer(&row.pointer).ok_or("the value is gone")?;
            let at = if row.pointer.is_empty() {
                "/"
            } else {
                &row.pointer
            };
            (format!("value at {at}"), pretty(value))
        }
        _ => {
            return Err(
                "in a library tab the copy menu copies what was read, and the value under a JSON tree's cursor"
                    .into(),
            );
        }
    };
    Ok(Clipping { label, text })
}

/// What the call panel copies: the shown result, its natural value, or the call that made it
/// as a JSON-RPC request or an `mcp-inspect call` command line.
fn call_copy(model: &Model, tool: &str, command: Command) -> Result<(String, String), String> {
    let state = model
        .call(tool)
        .ok_or("no call made with this tool yet (a opens the call panel)")?;
    let record = state.shown_record();
    let arguments = record
        .map(|r| r.arguments.clone())
        .or_else(|| state.arguments())
        .unwrap_or(json!({}));
    let result = || match record.map(|r| &r.outcome) {
        Some(Outcome::Result {
            result, verdict, ..
        }) => Ok((result, verdict)),
        _ => Err("no result to copy".to_string()),
    };
    Ok(match command {
        Command::CopyResult => ("result".into(), pretty(&result()?.0.raw)),
        Command::CopyValue => {
            let (result, verdict) = result()?;
            let value = verdict
                .natural_value(result.structured.as_ref())
                .ok_or("the result has no structuredContent")?;
            let label = if verdict.value.is_some() {
                "unboxed value"
            } else {
                "structuredContent"
            };
            (label.into(), pretty(value))
        }
        Command::CopyRequest => (
            "call as a JSON-RPC request".into(),
            pretty(
                &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}),
            ),
        ),
        _ => (
            "call as a command line (headers and -e values left out)".into(),
            command_line(tool, &arguments, &model.session.connection_args)?,
        ),
    })
}

/// `mcp-inspect call TOOL --args JSON <connection>`, each word quoted for bash.
fn command_line(tool: &str, arguments: &Value, connection: &[String]) -> Result<String, String> {
    // No argument of a command line can hold NUL: bash would end the word (and the name)
    // there, and the pasted command would call another tool.
    if tool.contains('\0') {
        return Err("the tool's name holds a NUL character, which no command-line argument can carry: copy the call as a JSON-RPC request instead".into());
    }
    let mut words = vec![
        "mcp-inspect".to_string(),
        "call".into(),
        tool.to_string(),
        "--args".into(),
        crate::untrusted::json(arguments, false),
    ];
    words.extend(connection.iter().cloned());
    Ok(words
        .iter()
        .map(|w| shell_quote(w))
        .collect::<Vec<_>>()
        .join(" "))
}

/// The result value under the call panel's cursor: its JSON, JSON Pointer or jq path.
fn value_copy(model: &Model, tool: &str, command: Command) -> Result<(String, String), String> {
    let state = model.call(tool).ok_or("no call made with this tool yet")?;
    let view = state
        .value
        .as_ref()
        .ok_or("no result value under the cursor")?;
    let row = &view.tree.rows[view.cursor];
    let structured = match state.shown_record().map(|r| &r.outcome) {
        Some(Outcome::Result { result, .. }) => result.structured.as_ref(),
        _ => None,
    };
    Ok(match command {
        Command::CopyPointer => (format!("pointer {}", row.pointer), row.pointer.clone()),
        Command::CopyJq => (format!("jq path {}", row.jq), row.jq.clone()),
        _ => {
            let value = structured
                .and_then(|s| s.pointer(&row.pointer))
                .ok_or("the value is gone")?;
            (
                format!(
                    "value at {}",
                    if row.pointer.is_empty() {
                        "/"
                    } else {
                        &row.pointer
                    }
                ),
                pretty(value),
            )
        }
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_name_with_nul_is_never_copied_as_a_command_line() {
        let args = json!({"q": "a\u{0}b"});
        let refused = command_line("evil\0tool", &args, &[]);
        assert!(refused.is_err_and(|e| e.contains("NUL")));
        let line = command_line("fine", &args, &["--demo".into()]).expect("line");
        assert_eq!(
            line,
            r#"mcp-inspect call fine --args '{"q":"a\u0000b"}' --demo"#
        );
    }
}
