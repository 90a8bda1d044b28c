//! A tool's two schema trees as one outline (input first, one cursor over both): the rows its
//! open nodes make visible, and where each tree is shown from. Pure.

use crate::app::outline::{self, Nodes, Part};
use crate::app::tools::state::{ToolDetail, ToolView, Which};
use crate::schema::signature::boxed_field;
use crate::schema::{Boxing, NodeId, SchemaTree};

impl Nodes for SchemaTree {
    fn count(&self) -> usize {
        self.nodes.len()
    }
    fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id].children
    }
    fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id].parent
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub which: Which,
    pub node: NodeId,
    pub depth: usize,
}

impl Which {
    /// The tool outline's part for this tree: input is part 0, output part 1.
    pub fn part(self) -> usize {
        self as usize
    }

    pub fn of_part(part: usize) -> Which {
        if part == 0 {
            Which::Input
        } else {
            Which::Output
        }
    }
}

/// The row a tree is shown from: the root, or the boxed field when the output is shown unboxed.
pub fn display_root(
    detail: &ToolDetail,
    which: Which,
    boxing: Option<&Boxing>,
    raw_output: bool,
) -> Option<NodeId> {
    let tree = detail.tree(which)?;
    match (which, boxing) {
        (Which::Output, Some(b)) if !raw_output => boxed_field(tree, &b.field).or(Some(0)),
        _ => Some(0),
    }
}

/// The tool's trees as outline parts (the output's only when it has one).
pub fn parts<'a>(
    detail: &'a ToolDetail,
    view: &'a ToolView,
    boxing: Option<&Boxing>,
) -> Vec<Part<'a>> {
    [Which::Input, Which::Output]
        .into_iter()
        .map_while(|which| {
            Some(Part {
                nodes: detail.tree(which)?,
                root: display_root(detail, which, boxing, view.raw_output)?,
                open: view.open.get(which),
            })
        })
        .collect()
}

/// Every visible row of both trees, input first.
pub fn visible_rows(detail: &ToolDetail, view: &ToolView, boxing: Option<&Boxing>) -> Vec<Row> {
    outline::rows(&parts(detail, view, boxing))
        .into_iter()
        .map(|r| Row {
            which: Which::of_part(r.part),
            node: r.node,
            depth: r.depth,
        })
        .collect()
}

/// Opens the default rows: each tree's shown root.
pub fn initialise(detail: &ToolDetail, view: &mut ToolView, boxing: Option<&Boxing>) {
    if view.initialised {
        return;
    }
    view.initialised = true;
    for which in [Which::Input, Which::Output] {
        if let Some(root) = display_root(detail, which, boxing, view.raw_output) {
            // The boxed field and the real root both open, so either view starts expanded.
            view.open.get_mut(which).extend([root, 0]);
        }
    }
    view.cursor = visible_rows(detail, view, boxing)
        .first()
        .map(|r| (r.which, r.node));
}
