//! A tool as the list holds it: the tool with what the list, the filter and the badges need,
//! computed once when it is listed. Pure.

use crate::mcp::surface::tool::Tool;
use crate::schema::{Boxing, Era};

/// A tool as listed, with what the list needs computed once.
#[derive(Debug, Clone)]
pub struct ToolEntry {
    pub tool: Tool,
    /// Name and title, matched fuzzily by the filter.
    pub names: String,
    /// Lower-cased description and property names, matched by substring.
    pub haystack: String,
    /// Its schemas are big enough that their trees are built off the UI thread.
    pub large: bool,
    /// The protocol era it was listed in: what its schemas are checked against (as `check`
    /// does), so the tool pane and `check` say the same of it.
    pub era: Era,
    /// Whether its input schema alone is large (see [`ToolEntry::large_input`]), counted once.
    large_input: std::sync::OnceLock<bool>,
}

/// Schema values beyond which a tool's trees are built on a blocking thread: a 100,000-row
/// tree takes over 100 ms to build, more than a key press may wait.
pub const LARGE_SCHEMA_VALUES: usize = 20_000;

impl ToolEntry {
    /// How the output schema boxes a scalar, when it does.
    pub fn boxing(&self) -> Option<&Boxing> {
        self.tool.facts.boxing.as_ref()
    }

    pub fn new(tool: Tool, era: Era) -> ToolEntry {
        let names = format!("{} {}", tool.name, tool.display_title());
        let facts = &tool.facts;
        let haystack = format!(
            "{} {}",
            tool.description.as_deref().unwrap_or_default(),
            facts.property_names
        );
        ToolEntry {
            names,
            haystack: haystack.to_lowercase(),
            large: facts.values > LARGE_SCHEMA_VALUES,
            era,
            tool,
            large_input: std::sync::OnceLock::new(),
        }
    }

    /// Whether its *input* schema is large (its form and validator take their time, so its
    /// call panel is built off the UI thread). Counted on first asking, and only for a tool
    /// that is large at all: a small tool's schema stays unparsed text.
    pub fn large_input(&self) -> bool {
        self.large
            && *self.large_input.get_or_init(|| {
                let input = &self.tool.input_schema;
                crate::schema::budget::count_values(input, LARGE_SCHEMA_VALUES + 1)
                    > LARGE_SCHEMA_VALUES
            })
    }
}
