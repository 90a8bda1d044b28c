//! The tools as listed and what the TUI keeps of each: its schema trees (built when first
//! shown), how its pane looks, its call panel; the filter over the list and the drift against a
//! baseline. Plain data.

use crate::app::call::state::CallState;
use crate::app::tools::entry::ToolEntry;
use crate::app::tools::filter::Filter;
use crate::schema::signature::signature;
use crate::schema::{NodeId, SchemaTree};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The tools pane's part of the model.
#[derive(Default)]
pub struct Tools {
    /// Shared with the builders of large trees, which answer for the entry they were given.
    pub list: Vec<Arc<ToolEntry>>,
    /// What is kept of each tool, by name: trees, pane look, call panel.
    pub per_tool: HashMap<String, PerTool>,
    pub filter: Filter,
    /// Index into `filter.visible`.
    pub selected: usize,
    /// Rows the list is scrolled down.
    pub scroll: usize,
    /// The snapshot given with `--baseline`, which listed tools are compared with.
    pub baseline: Option<Arc<serde_json::Value>>,
    /// The baseline is the last start's listing (`--watch`), not a snapshot file.
    pub since_last_start: bool,
    /// The changes against the baseline, by tool.
    pub drift: HashMap<String, Vec<crate::drift::compare::Change>>,
}

/// Which of a tool's two schema trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Which {
    Input,
    Output,
}

/// A tool's schema trees and signature, built when the tool is first shown.
#[derive(Debug, Clone)]
pub struct ToolDetail {
    pub input: SchemaTree,
    pub output: Option<SchemaTree>,
    pub signature: String,
    /// What `check` finds in this tool (its `x-mcp-header` rules aside: the pane says those
    /// with the era that makes them matter).
    pub findings: Vec<crate::schema::lint::Finding>,
}

impl ToolDetail {
    pub fn build(entry: &ToolEntry) -> ToolDetail {
        let input = SchemaTree::build(&entry.tool.input_schema);
        let output = entry.tool.output_schema.as_deref().map(SchemaTree::build);
        let signature = signature(
            &entry.tool.name,
            &input,
            output.as_ref().map(|t| (t, entry.boxing())),
        );
        let tool = &entry.tool;
        let schemas = crate::schema::lint::ToolSchemas {
            name: &tool.name,
            description: tool.description.as_deref(),
            input: &tool.input_schema,
            output: tool.output_schema.as_deref(),
        };
        let header: Vec<String> = crate::schema::headers::header_problems(&tool.input_schema)
            .into_iter()
            .map(|(_, why)| why)
            .collect();
        let findings = crate::schema::lint::lint(&[schemas], entry.era)
            .into_iter()
            .filter(|f| !header.contains(&f.message))
            .collect();
        ToolDetail {
            input,
            output,
            signature,
            findings,
        }
    }

    pub fn tree(&self, which: Which) -> Option<&SchemaTree> {
        match which {
            Which::Input => Some(&self.input),
            Which::Output => self.output.as_ref(),
        }
    }
}

/// The open rows of a tool's two trees.
#[derive(Debug, Clone, Default)]
pub struct Opened {
    input: HashSet<NodeId>,
    output: HashSet<NodeId>,
}

impl Opened {
    pub fn get(&self, which: Which) -> &HashSet<NodeId> {
        match which {
            Which::Input => &self.input,
            Which::Output => &self.output,
        }
    }

    pub fn get_mut(&mut self, which: Which) -> &mut HashSet<NodeId> {
        match which {
            Which::Input => &mut self.input,
            Which::Output => &mut self.output,
        }
    }
}

/// How one tool's pane looks: open rows per tree, the cursor, raw or unboxed output, scroll.
#[derive(Debug, Clone, Default)]
pub struct ToolView {
    pub open: Opened,
    pub cursor: Option<(Which, NodeId)>,
    pub raw_output: bool,
    pub scroll: usize,
    /// Set once the default rows were opened.
    pub initialised: bool,
    /// The header shown alone over the pane: the whole description.
    pub whole_description: bool,
}

/// What the TUI keeps of one tool, by name, while it is listed: its trees, how its pane looks,
/// its call panel. A re-listing keeps the trees and the look only when the schemas are the same.
#[derive(Default)]
pub struct PerTool {
    /// The schema trees, built when the tool is first shown.
    pub detail: Option<ToolDetail>,
    /// A large tool's trees are being built off the UI thread.
    pub building: bool,
    pub view: ToolView,
    /// The call panel: drafts and results survive switching tools.
    pub call: Option<CallState>,
    /// A large tool's call panel (its form, its validators) is being built off the UI thread.
    pub building_call: bool,
}
