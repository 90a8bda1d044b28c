//! The browsing part of `update`: moving in the tools list and the log, and the schema trees of
//! the tool pane (expand, collapse, follow back-links, raw or unboxed output). Pure.

use crate::app::command::Command;
use crate::app::model::Model;
use crate::app::outline::{self, Change};
use crate::app::tools::entry::ToolEntry;
use crate::app::tools::state::{ToolDetail, Which};
use crate::app::tools::tree_view;
use std::sync::Arc;

pub fn move_in_list(model: &mut Model, motion: Command) {
    let len = model.tools.filter.visible.len();
    if len == 0 {
        return;
    }
    let page = model.view.viewport.list_rows.max(1);
    model.tools.selected = match motion {
        Command::Down => (model.tools.selected + 1).min(len - 1),
        Command::Up => model.tools.selected.saturating_sub(1),
        Command::PageDown => (model.tools.selected + page).min(len - 1),
        Command::PageUp => model.tools.selected.saturating_sub(page),
        Command::First => 0,
        Command::Last => len - 1,
        _ => model.tools.selected,
    };
}

pub fn move_in_log(model: &mut Model, motion: Command) {
    let log = &mut model.log;
    let max = log.lines.len().saturating_sub(1);
    log.scroll = match motion {
        Command::Up => (log.scroll + 1).min(max),
        Command::Down => log.scroll.saturating_sub(1),
        Command::First => max,
        Command::Last => 0,
        _ => log.scroll,
    };
}

/// A large tool's trees, built off the UI thread: kept only for the entry still listed (a
/// re-listing may have changed the tool).
pub fn detail_built(model: &mut Model, entry: &Arc<ToolEntry>, detail: ToolDetail) {
    let current = model.tools.list.iter().any(|t| Arc::ptr_eq(t, entry));
    if let Some(per) = model.tools.per_tool.get_mut(&entry.tool.name) {
        per.building = false;
        if current {
            per.detail = Some(detail);
        }
    }
}

/// Builds the selected tool's trees (once) and its default view.
pub fn ensure_detail(model: &mut Model) {
    let Some(entry) = model.selected_entry().cloned() else {
        return;
    };
    // Runs after every message: the usual case (built and shown before) costs one lookup.
    let per = model
        .tools
        .per_tool
        .entry(entry.tool.name.clone())
        .or_default();
    if per.detail.is_some() && per.view.initialised {
        return;
    }
    // A large tool's trees come from a blocking thread (see `update`).
    if !entry.large && per.detail.is_none() {
        per.detail = Some(ToolDetail::build(&entry));
    }
    if let Some(detail) = &per.detail {
        tree_view::initialise(detail, &mut per.view, entry.boxing());
    }
}

pub fn tool_command(model: &mut Model, command: Command) {
    ensure_detail(model);
    let page = model.view.viewport.tree_rows.max(1);
    let Some(entry) = model.selected_entry().cloned() else {
        return;
    };
    let boxing = entry.boxing();
    let Some(per) = model.tools.per_tool.get_mut(&entry.tool.name) else {
        return;
    };
    let (Some(detail), view) = (per.detail.as_ref(), &mut per.view) else {
        return;
    };
    if command == Command::ToggleDescription {
        view.whole_description = !view.whole_description;
        return;
    }
    let parts = tree_view::parts(detail, view, boxing);
    let rows = outline::rows(&parts);
    let at = outline::index_of(&rows, view.cursor.map(|(w, n)| (w.part(), n)));
    let Some(here) = rows.get(at).copied() else {
        return;
    };
    let (which, node) = (Which::of_part(here.part), here.node);
    let Some(tree) = detail.tree(which) else {
        return;
    };
    if let Some(change) = outline::step(&parts, &rows, at, command, page) {
        match change {
            Change::Cursor { part, node } => view.cursor = Some((Which::of_part(part), node)),
            Change::Open { part, node } => {
                view.open.get_mut(Which::of_part(part)).insert(node);
            }
            Change::Close { part, node } => {
                view.open.get_mut(Which::of_part(part)).remove(&node);
            }
        }
        return;
    }
    match command {
        Command::ExpandAll => {
            for w in [Which::Input, Which::Output] {
                if let Some(t) = detail.tree(w) {
                    outline::open_all(t, view.open.get_mut(w));
                }
            }
        }
        Command::CollapseAll => {
            for w in [Which::Input, Which::Output] {
                if let Some(root) = tree_view::display_root(detail, w, boxing, view.raw_output) {
                    let open = view.open.get_mut(w);
                    open.clear();
                    open.extend([root, 0]);
                }
            }
            let root = tree_view::display_root(detail, which, boxing, view.raw_output).unwrap_or(0);
            view.cursor = Some((which, root));
        }
        Command::FollowLink => match tree.nodes[node].facts.back_link {
            Some(target) => {
                outline::reveal(tree, view.open.get_mut(which), target);
                view.cursor = Some((which, target));
            }
            None => model.view.status = Some("this row is not a recursion back-link".into()),
        },
        Command::ToggleRawOutput => {
            if boxing.is_some() {
                view.raw_output = !view.raw_output;
                if which == Which::Output {
                    view.cursor =
                        tree_view::display_root(detail, Which::Output, boxing, view.raw_output)
                            .map(|n| (Which::Output, n));
                }
            } else {
                model.view.status = Some("the output is not boxed".into());
            }
        }
        _ => {}
    }
}
