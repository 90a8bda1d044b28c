//! A tool as the list holds it: the tool with what the list, the filter and the badges need,
//! computed once when it is listed. Pure.

use crate::mcp::tool::Tool;
use crate::schema::refs::{Document, RefTarget, all_refs};
use crate::schema::{Boxing, boxing};

/// A tool as listed, with what the list needs computed once.
#[derive(Debug, Clone)]
pub struct ToolEntry {
    pub tool: Tool,
    pub boxing: Option<Boxing>,
    /// Name and title, matched fuzzily by the filter.
    pub names: String,
    /// Lower-cased description and property names, matched by substring.
    pub haystack: String,
    /// A schema has a dangling or foreign `$ref` (a cheap check; the tree tells the details).
    pub has_problem: bool,
    /// Its schemas are big enough that their trees are built off the UI thread.
    pub large: bool,
}

/// Schema values beyond which a tool's trees are built on a blocking thread: a 100,000-row
/// tree takes over 100 ms to build, more than a key press may wait.
pub const LARGE_SCHEMA_VALUES: usize = 20_000;

impl ToolEntry {
    pub fn new(tool: Tool) -> ToolEntry {
        let boxing = tool
            .output_schema
            .as_ref()
            .and_then(|s| boxing::detect(s, None));
        let names = format!("{} {}", tool.name, tool.display_title());
        let mut haystack = tool.description.clone().unwrap_or_default();
        for schema in std::iter::once(&tool.input_schema).chain(tool.output_schema.as_ref()) {
            if let Some(props) = schema.get("properties").and_then(|p| p.as_object()) {
                for k in props.keys() {
                    haystack.push(' ');
                    haystack.push_str(k);
                }
            }
        }
        let has_problem = std::iter::once(&tool.input_schema)
            .chain(tool.output_schema.as_ref())
            .any(|s| {
                let doc = Document::new(s);
                all_refs(s)
                    .iter()
                    .any(|(_, r)| !matches!(doc.resolve(r), RefTarget::Found { .. }))
            });
        let values: usize = std::iter::once(&tool.input_schema)
            .chain(tool.output_schema.as_ref())
            .map(|s| crate::schema::budget::count_values(s, LARGE_SCHEMA_VALUES + 1))
            .sum();
        ToolEntry {
            tool,
            boxing,
            names,
            haystack: haystack.to_lowercase(),
            has_problem,
            large: values > LARGE_SCHEMA_VALUES,
        }
    }
}
