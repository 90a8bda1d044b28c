//! Outlines drawn with tui-tree-widget, as pieces of a scrolled page between plain lines. Items
//! are made lazily: only the rows inside the window and their ancestors are materialised (a
//! row with children not materialised gets one placeholder child, so the widget marks it open
//! or closed). The widget lays the rows out and draws indents and open/closed marks.

use crate::app::outline::{NodeId, Part, Row};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Text};
use ratatui::widgets::Paragraph;
use tui_tree_widget::{Tree, TreeItem, TreeState};

/// The identifier of the placeholder child under a closed node.
const PLACEHOLDER: NodeId = NodeId::MAX;
/// Nesting past which children are not materialised (the widget lays items out recursively).
const MAX_ITEM_DEPTH: usize = 512;

/// A row's text: its node and depth below the part's root.
pub type Label<'a> = &'a dyn Fn(NodeId, usize) -> Line<'static>;

/// A piece of a page: plain lines, or one outline part with its visible rows.
pub enum Piece<'a> {
    Lines(Vec<Line<'static>>),
    Tree {
        part: Part<'a>,
        rows: &'a [Row],
        label: Label<'a>,
        /// The cursor's node and the style of its whole row.
        cursor: Option<(NodeId, Style)>,
        /// Columns left blank before the rows.
        indent: u16,
    },
}

impl<'a> Piece<'a> {
    /// An outline part with its visible rows (see [`crate::app::outline::rows`]).
    pub fn tree(
        part: Part<'a>,
        rows: &'a [Row],
        label: Label<'a>,
        cursor: Option<(NodeId, Style)>,
    ) -> Piece<'a> {
        Piece::Tree {
            part,
            rows,
            label,
            cursor,
            indent: 0,
        }
    }

    /// The same piece with its rows moved `columns` to the right.
    pub fn indented(self, columns: u16) -> Piece<'a> {
        match self {
            Piece::Tree {
                part,
                rows,
                label,
                cursor,
                ..
            } => Piece::Tree {
                part,
                rows,
                label,
                cursor,
                indent: columns,
            },
            lines => lines,
        }
    }

    pub fn height(&self) -> usize {
        match self {
            Piece::Lines(lines) => lines.len(),
            Piece::Tree { rows, .. } => rows.len(),
        }
    }
}

/// Lines of a page made of `pieces`.
pub fn page_height(pieces: &[Piece]) -> usize {
    pieces.iter().map(Piece::height).sum()
}

/// Draws the pieces one after another into `area`, from line `scroll` of the page.
pub fn draw_page(frame: &mut Frame<'_>, area: Rect, pieces: &[Piece], scroll: usize) {
    let window = scroll..scroll + usize::from(area.height);
    let mut top = 0;
    for piece in pieces {
        let (start, end) = (top, top + piece.height());
        top = end;
        let (from, to) = (start.max(window.start), end.min(window.end));
        if from >= to {
            continue;
        }
        let rect = Rect {
            y: area.y + (from - window.start) as u16,
            height: (to - from) as u16,
            ..area
        };
        match piece {
            Piece::Lines(lines) => {
                let shown = lines[from - start..to - start].to_vec();
                frame.render_widget(Paragraph::new(shown), rect);
            }
            Piece::Tree {
                part,
                rows,
                label,
                cursor,
                indent,
            } => {
                let indent = (*indent).min(rect.width);
                let rect = Rect {
                    x: rect.x + indent,
                    width: rect.width - indent,
                    ..rect
                };
                draw_tree(
                    frame,
                    rect,
                    part,
                    &rows[from - start..to - start],
                    *label,
                    *cursor,
                )
            }
        }
    }
}

/// The rows of a window on a part (as many as `area` holds). The widget is given only those
/// rows and their ancestors (a pruned tree, so a frame costs the window, not the tree), and
/// scrolled past the ancestors that are above the window.
fn draw_tree(
    frame: &mut Frame<'_>,
    area: Rect,
    part: &Part,
    shown: &[Row],
    label: Label,
    cursor: Option<(NodeId, Style)>,
) {
    let Some(&Row {
        node: top,
        depth: top_depth,
        ..
    }) = shown.first()
    else {
        return;
    };
    // The first row's ancestors, root first: they come before it in the widget's rows.
    let mut above = Vec::with_capacity(top_depth);
    let mut node = top;
    for depth in (0..top_depth).rev() {
        let Some(parent) = part.nodes.parent(node) else {
            break;
        };
        above.push((parent, depth));
        node = parent;
    }
    above.reverse();
    let skipped = above.len();
    let rows: Vec<(NodeId, usize, bool)> = above
        .into_iter()
        .map(|(n, d)| (n, d, false))
        .chain(shown.iter().map(|r| (r.node, r.depth, true)))
        .collect();
    let mut items = Items {
        part,
        label,
        cursor,
        rows: &rows,
        at: 0,
        path: Vec::new(),
        last_row: skipped + shown.len() - 1,
        state: TreeState::default(),
    };
    let roots = items.level(rows[0].1);
    let Items { mut state, .. } = items;
    let Ok(tree) = Tree::new(&roots) else {
        return;
    };
    let tree = tree
        .highlight_symbol("")
        .highlight_style(Style::default())
        .node_closed_symbol("▸ ")
        .node_open_symbol("▾ ")
        .node_no_children_symbol("  ");
    frame.render_stateful_widget(tree, area, &mut state);
}

/// Builds the widget's items and state from rows in order: (node, depth, drawn).
struct Items<'r, 'p, 'a> {
    part: &'p Part<'a>,
    label: Label<'p>,
    cursor: Option<(NodeId, Style)>,
    rows: &'r [(NodeId, usize, bool)],
    /// The next row to make an item of.
    at: usize,
    path: Vec<NodeId>,
    /// The row the widget is made to keep in view: the window's last.
    last_row: usize,
    state: TreeState<NodeId>,
}

impl Items<'_, '_, '_> {
    /// The items at `depth` from the current row on, each with the rows below it.
    fn level(&mut self, depth: usize) -> Vec<TreeItem<'static, NodeId>> {
        let mut items = Vec::new();
        while let Some(&(node, d, drawn)) = self.rows.get(self.at) {
            if d != depth {
                break;
            }
            let row = self.at;
            self.at += 1;
            self.path.push(node);
            let text = if drawn {
                let text = Text::from((self.label)(node, depth));
                match self.cursor {
                    Some((at, style)) if at == node => text.style(style),
                    _ => text,
                }
            } else {
                Text::from(Line::default())
            };
            // The widget scrolls so the selected row is in view: selecting the window's last
            // row, from a fresh state at offset 0, puts the window's first row at the top.
            if row == self.last_row {
                self.state.select(self.path.clone());
            }
            let mut children = if depth < MAX_ITEM_DEPTH {
                self.level(depth + 1)
            } else {
                Vec::new()
            };
            if self.part.is_open(node) && self.part.has_children(node) {
                self.state.open(self.path.clone());
            }
            if children.is_empty() && self.part.has_children(node) {
                // Marks the row open or closed; never drawn (it would follow the window).
                children.push(TreeItem::new_leaf(PLACEHOLDER, ""));
            }
            self.path.pop();
            items.push(
                TreeItem::new(node, text.clone(), children)
                    .unwrap_or_else(|_| TreeItem::new_leaf(node, text)),
            );
        }
        items
    }
}
