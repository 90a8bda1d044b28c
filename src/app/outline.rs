//! One outline for every tree the TUI shows (a tool's schema trees, a result's value): the rows
//! its open nodes make visible, and the cursor's motions over them, written once. A pane may
//! show several trees as one outline (input and output schema, one cursor over both). Pure.

use crate::app::command::Command;
use std::collections::HashSet;

pub type NodeId = usize;

/// A tree as the outline sees it: nodes by id, each with its parent and children in order.
pub trait Nodes {
    /// How many nodes there are (ids run from 0).
    fn count(&self) -> usize;
    fn children(&self, id: NodeId) -> &[NodeId];
    fn parent(&self, id: NodeId) -> Option<NodeId>;
}

/// One tree of an outline, shown from `root` (not always the tree's own root: a boxed output
/// is shown from its boxed field), with the nodes that are open.
#[derive(Clone, Copy)]
pub struct Part<'a> {
    pub nodes: &'a dyn Nodes,
    pub root: NodeId,
    pub open: &'a HashSet<NodeId>,
}

impl Part<'_> {
    pub fn is_open(&self, node: NodeId) -> bool {
        self.open.contains(&node)
    }

    pub fn has_children(&self, node: NodeId) -> bool {
        !self.nodes.children(node).is_empty()
    }
}

/// A visible row: which part, which node, how deep below the part's root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub part: usize,
    pub node: NodeId,
    pub depth: usize,
}

/// What a motion changes: the cursor, or one node's open state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Cursor { part: usize, node: NodeId },
    Open { part: usize, node: NodeId },
    Close { part: usize, node: NodeId },
}

/// Every visible row of every part, in order: a node's children follow it while it is open.
pub fn rows(parts: &[Part]) -> Vec<Row> {
    let mut rows = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        visit(part, |node, depth| {
            rows.push(Row {
                part: index,
                node,
                depth,
            })
        });
    }
    rows
}

/// Calls `each` for the visible rows of one part, in order, with their depth.
pub fn visit(part: &Part, mut each: impl FnMut(NodeId, usize)) {
    let mut stack = vec![(part.root, 0usize)];
    while let Some((node, depth)) = stack.pop() {
        each(node, depth);
        if part.is_open(node) {
            for child in part.nodes.children(node).iter().rev() {
                stack.push((*child, depth + 1));
            }
        }
    }
}

/// The index among `rows` of the cursor, or 0 when it is not visible.
pub fn index_of(rows: &[Row], cursor: Option<(usize, NodeId)>) -> usize {
    cursor
        .and_then(|(part, node)| rows.iter().position(|r| r.part == part && r.node == node))
        .unwrap_or(0)
}

/// What `command` does with the cursor on row `at`; `page` rows for the page keys. `None` when
/// the command is not a motion or has nothing to do here.
pub fn step(
    parts: &[Part],
    rows: &[Row],
    at: usize,
    command: Command,
    page: usize,
) -> Option<Change> {
    let last = rows.len().checked_sub(1)?;
    let here = *rows.get(at)?;
    let part = parts.get(here.part)?;
    let to = |i: usize| {
        let r = rows[i];
        Some(Change::Cursor {
            part: r.part,
            node: r.node,
        })
    };
    let (open, close) = (
        Change::Open {
            part: here.part,
            node: here.node,
        },
        Change::Close {
            part: here.part,
            node: here.node,
        },
    );
    match command {
        Command::Down => to((at + 1).min(last)),
        Command::Up => to(at.saturating_sub(1)),
        Command::PageDown => to((at + page.max(1)).min(last)),
        Command::PageUp => to(at.saturating_sub(page.max(1))),
        Command::First => to(0),
        Command::Last => to(last),
        Command::Expand if part.has_children(here.node) => Some(open),
        // Collapse closes an open row, else goes to the row's parent (when it is shown).
        Command::Collapse if part.is_open(here.node) => Some(close),
        Command::Collapse => {
            let parent = part.nodes.parent(here.node)?;
            rows.iter()
                .any(|r| r.part == here.part && r.node == parent)
                .then_some(Change::Cursor {
                    part: here.part,
                    node: parent,
                })
        }
        Command::Toggle if part.is_open(here.node) => Some(close),
        Command::Toggle if part.has_children(here.node) => Some(open),
        _ => None,
    }
}

/// An outline of `nodes` from node 0: moves `cursor`, or opens or closes the row under it.
pub fn step_in(
    nodes: &dyn Nodes,
    open: &mut HashSet<NodeId>,
    cursor: &mut NodeId,
    command: Command,
) {
    let part = Part {
        nodes,
        root: 0,
        open,
    };
    let rows = rows(&[part]);
    let at = index_of(&rows, Some((0, *cursor)));
    match step(&[part], &rows, at, command, 1) {
        Some(Change::Cursor { node, .. }) => *cursor = node,
        Some(Change::Open { node, .. }) => {
            open.insert(node);
        }
        Some(Change::Close { node, .. }) => {
            open.remove(&node);
        }
        None => {}
    }
}

/// Opens every node with children.
pub fn open_all(nodes: &dyn Nodes, open: &mut HashSet<NodeId>) {
    open.extend((0..nodes.count()).filter(|id| !nodes.children(*id).is_empty()));
}

/// Makes `node` visible by opening each of its ancestors.
pub fn reveal(nodes: &dyn Nodes, open: &mut HashSet<NodeId>, mut node: NodeId) {
    while let Some(parent) = nodes.parent(node) {
        open.insert(parent);
        node = parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 ─ 1 ─ 2, and 0 ─ 3.
    struct Small;
    impl Nodes for Small {
        fn count(&self) -> usize {
            4
        }
        fn children(&self, id: NodeId) -> &[NodeId] {
            match id {
                0 => &[1, 3],
                1 => &[2],
                _ => &[],
            }
        }
        fn parent(&self, id: NodeId) -> Option<NodeId> {
            [None, Some(0), Some(1), Some(0)][id]
        }
    }

    #[test]
    fn rows_follow_open_nodes_across_parts() {
        let open: HashSet<NodeId> = [0].into();
        let second: HashSet<NodeId> = HashSet::new();
        let parts = [
            Part {
                nodes: &Small,
                root: 0,
                open: &open,
            },
            Part {
                nodes: &Small,
                root: 1,
                open: &second,
            },
        ];
        let shown: Vec<(usize, NodeId, usize)> = rows(&parts)
            .iter()
            .map(|r| (r.part, r.node, r.depth))
            .collect();
        assert_eq!(shown, [(0, 0, 0), (0, 1, 1), (0, 3, 1), (1, 1, 0)]);
    }

    #[test]
    fn motions_move_open_close_and_climb() {
        let mut open: HashSet<NodeId> = [0].into();
        let parts = [Part {
            nodes: &Small,
            root: 0,
            open: &open,
        }];
        let r = rows(&parts);
        assert_eq!(
            step(&parts, &r, 0, Command::PageDown, 10),
            Some(Change::Cursor { part: 0, node: 3 })
        );
        assert_eq!(
            step(&parts, &r, 1, Command::Toggle, 10),
            Some(Change::Open { part: 0, node: 1 })
        );
        // A closed leaf's collapse climbs to its parent; an open row's closes it.
        assert_eq!(
            step(&parts, &r, 2, Command::Collapse, 10),
            Some(Change::Cursor { part: 0, node: 0 })
        );
        assert_eq!(
            step(&parts, &r, 0, Command::Collapse, 10),
            Some(Change::Close { part: 0, node: 0 })
        );
        assert_eq!(step(&parts, &r, 2, Command::Expand, 10), None);
        open.clear();
        reveal(&Small, &mut open, 2);
        assert_eq!(open, [0, 1].into());
        open_all(&Small, &mut open);
        assert_eq!(open, [0, 1].into());
    }
}
