//! `mcp-inspect inspect TOOL`: one tool's definition as JSON, with its signature and boxing.

use super::output::Report;
use crate::headless::exit;
use crate::mcp::Schema;
use crate::mcp::Session;
use crate::schema::SchemaTree;
use crate::schema::signature::signature;
use serde_json::{Map, Value, json};

pub async fn run(session: &Session, name: &str, report: &Report) -> i32 {
    let mut list = match session.list_tools().await {
        Ok(l) => l,
        Err(e) => return report.error(&format!("tools/list failed: {e}"), exit::ERROR),
    };
    let Some(at) = list.tools.iter().position(|t| t.name == name) else {
        return report.error(&list.unknown(name), exit::TOOL_ERROR);
    };
    let tool = list.tools.swap_remove(at);
    drop(list);
    let input = SchemaTree::build(&tool.input_schema);
    let boxed = tool.facts.boxing.clone();
    let output = tool.output_schema.as_deref().map(SchemaTree::build);
    let signature = signature(
        &tool.name,
        &input,
        output.as_ref().map(|t| (t, boxed.as_ref())),
    );
    drop((input, output));
    let has_output = tool.output_schema.is_some();
    let field = |key: &str| tool.field(key).cloned().unwrap_or(Value::Null);
    let (title, description, annotations) =
        (field("title"), field("description"), field("annotations"));
    let name = tool.name.clone();
    // Each schema moved in, not copied (`json!` would copy: a schema may be megabytes).
    let mut out = Map::new();
    out.insert("name".into(), name.into());
    out.insert("title".into(), title);
    out.insert("description".into(), description);
    out.insert("annotations".into(), annotations);
    out.insert("inputSchema".into(), tool.input_schema.into_value());
    let output_schema = tool.output_schema.map(Schema::into_value);
    out.insert("outputSchema".into(), output_schema.unwrap_or_default());
    out.insert("signature".into(), signature.into());
    out.insert("boxing".into(), json!(boxed));
    if !has_output {
        out.insert(
            "note".into(),
            "the server defines no outputSchema for this tool".into(),
        );
    }
    report.json(&Value::Object(out));
    exit::OK
}
