//! A tool's two schema trees flattened into the rows currently visible, given which rows are
//! open; and the cursor moves over them. Pure.

use crate::app::model::{ToolDetail, ToolView, Which};
use crate::schema::signature::boxed_field;
use crate::schema::{Boxing, NodeId, SchemaTree};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub which: Which,
    pub node: NodeId,
    pub depth: usize,
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

/// Every visible row of both trees, input first.
pub fn visible_rows(detail: &ToolDetail, view: &ToolView, boxing: Option<&Boxing>) -> Vec<Row> {
    let mut rows = Vec::new();
    for which in [Which::Input, Which::Output] {
        let (Some(tree), Some(root)) = (
            detail.tree(which),
            display_root(detail, which, boxing, view.raw_output),
        ) else {
            continue;
        };
        let open = view.open.get(&which);
        let mut stack = vec![(root, 0usize)];
        while let Some((node, depth)) = stack.pop() {
            rows.push(Row { which, node, depth });
            if open.is_some_and(|o| o.contains(&node)) {
                for child in tree.nodes[node].children.iter().rev() {
                    stack.push((*child, depth + 1));
                }
            }
        }
    }
    rows
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
            view.open.entry(which).or_default().extend([root, 0]);
        }
    }
    view.cursor = visible_rows(detail, view, boxing)
        .first()
        .map(|r| (r.which, r.node));
}

/// Opens every row with children in `which`'s tree.
pub fn expand_all(tree: &SchemaTree, view: &mut ToolView, which: Which) {
    let open = view.open.entry(which).or_default();
    for (id, node) in tree.nodes.iter().enumerate() {
        if !node.children.is_empty() {
            open.insert(id);
        }
    }
}

/// Makes `node` visible by opening each of its ancestors.
pub fn reveal(tree: &SchemaTree, view: &mut ToolView, which: Which, node: NodeId) {
    let open = view.open.entry(which).or_default();
    for ancestor in tree.path_to(node).into_iter().rev().skip(1) {
        open.insert(ancestor);
    }
}

/// The cursor's index among `rows`, or 0.
pub fn cursor_index(rows: &[Row], cursor: Option<(Which, NodeId)>) -> usize {
    cursor
        .and_then(|(w, n)| rows.iter().position(|r| r.which == w && r.node == n))
        .unwrap_or(0)
}
