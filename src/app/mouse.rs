//! The mouse: a click selects the row under it (on a row's open/closed mark it also opens or
//! closes it), the wheel moves through the pane under it. Hit-tested against where the last
//! frame drew each pane ([`Viewport`]). Pure.

use crate::app::command::Command;
use crate::app::effect::Effect;
use crate::app::model::{Model, Pane, Viewport};
use crate::app::outline;
use crate::app::tabs::Tab;
use crate::app::tools::state::Which;
use crate::app::tools::tree_view;
use crate::app::tools::update::{ensure_detail, move_in_list, move_in_log, tool_command};
use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

/// Rows the wheel moves per notch.
const WHEEL_ROWS: usize = 3;

/// Which drawn area a point falls in, and its line there (0 = the area's first row).
enum Hit {
    List(usize),
    Tree {
        line: usize,
        column: u16,
    },
    Value {
        line: usize,
        column: u16,
    },
    Protocol(usize),
    /// A row of the call panel's form.
    Form(usize),
    /// A tab's name across the left pane.
    Tab(Tab),
    /// A library tab's list, and what was opened beside it.
    Library(usize),
    Opened,
    Log,
}

fn hit(viewport: &Viewport, x: u16, y: u16) -> Option<Hit> {
    let inside = |r: Rect| r.contains(Position { x, y });
    let line = |r: Rect| usize::from(y - r.y);
    if let Some((_, tab)) = viewport.tab_areas.iter().find(|(r, _)| inside(*r)) {
        Some(Hit::Tab(*tab))
    } else if inside(viewport.list_area) {
        Some(Hit::List(line(viewport.list_area)))
    } else if inside(viewport.tree_area) {
        Some(Hit::Tree {
            line: line(viewport.tree_area),
            column: x - viewport.tree_area.x,
        })
    } else if inside(viewport.form_area) {
        Some(Hit::Form(line(viewport.form_area)))
    } else if inside(viewport.call_area) {
        Some(Hit::Value {
            line: line(viewport.call_area),
            column: x - viewport.call_area.x,
        })
    } else if inside(viewport.protocol_area) {
        Some(Hit::Protocol(line(viewport.protocol_area)))
    } else if inside(viewport.library_area) {
        Some(Hit::Library(line(viewport.library_area)))
    } else if inside(viewport.opened_area) {
        Some(Hit::Opened)
    } else if inside(viewport.log_area) {
        Some(Hit::Log)
    } else {
        None
    }
}

/// What the mouse did; a click on a tab may ask for the library's lists.
pub fn mouse(model: &mut Model, event: MouseEvent) -> Vec<Effect> {
    if drag_divider(model, event) {
        return Vec::new();
    }
    let Some(hit) = hit(&model.view.viewport, event.column, event.row) else {
        return Vec::new();
    };
    match (event.kind, hit) {
        (MouseEventKind::Down(MouseButton::Left), Hit::Tab(tab)) => {
            return crate::app::library::update::show(model, tab);
        }
        (MouseEventKind::Down(MouseButton::Left), hit) => click(model, hit),
        (MouseEventKind::ScrollDown, hit) => wheel(model, hit, Command::Down),
        (MouseEventKind::ScrollUp, hit) => wheel(model, hit, Command::Up),
        _ => {}
    }
    Vec::new()
}

/// The border between the left and right panes, pressed and dragged: the left pane's share
/// follows the mouse. True when the event was the border's.
fn drag_divider(model: &mut Model, event: MouseEvent) -> bool {
    let Some((main, border)) = model.view.viewport.divider else {
        return false;
    };
    let on_border = (border.saturating_sub(1)..=border).contains(&event.column)
        && (main.y..main.y + main.height).contains(&event.row);
    match event.kind {
        MouseEventKind::Down(MouseButton::Left) if on_border => model.view.dragging = true,
        MouseEventKind::Drag(MouseButton::Left) if model.view.dragging => {
            let (_, least, most) = crate::app::model::LEFT_PERCENT;
            let at = u32::from(event.column.saturating_sub(main.x)) + 1;
            let percent = at * 100 / u32::from(main.width.max(1));
            model.view.left_percent = u16::try_from(percent).unwrap_or(most).clamp(least, most);
        }
        MouseEventKind::Up(MouseButton::Left) if model.view.dragging => {
            model.view.dragging = false;
        }
        _ => return false,
    }
    true
}

/// A click on a form's row selects it, and the form has the keys.
fn click_form(model: &mut Model, line: usize) {
    let top = model.view.viewport.form_top;
    let name = model.selected_entry().map(|e| e.tool.name.clone());
    let Some(state) = name.and_then(|n| model.call_mut(&n)) else {
        return;
    };
    if let Some(form) = state.draft.shown_form_mut()
        && let Some(&row) = form.visible().get(top + line)
    {
        form.selected = row;
        form.place_cursor();
        state.editing = true;
        model.view.focus = Pane::Call;
    }
}

fn wheel(model: &mut Model, hit: Hit, motion: Command) {
    for _ in 0..WHEEL_ROWS {
        match hit {
            Hit::List(_) => move_in_list(model, motion),
            Hit::Tree { .. } => tool_command(model, motion),
            Hit::Log => move_in_log(model, motion),
            Hit::Protocol(_) => {
                let page = model.view.viewport.protocol_rows;
                model.protocol.motion(motion, page);
            }
            Hit::Library(_) => crate::app::library::update::motion(model, motion),
            Hit::Opened => crate::app::library::update::scroll_opened(model, motion),
            Hit::Tab(_) => {}
            // The wheel over a form moves its selection a row a notch.
            Hit::Form(_) => {
                let name = model.selected_entry().map(|e| e.tool.name.clone());
                let form = name
                    .and_then(|n| model.call_mut(&n))
                    .and_then(|s| s.draft.shown_form_mut());
                if let Some(form) = form {
                    let by = if motion == Command::Down { 1 } else { -1 };
                    crate::app::form::update::step(form, by);
                }
                return;
            }
            Hit::Value { .. } => {
                let name = model.selected_entry().map(|e| e.tool.name.clone());
                if let Some(state) = name.and_then(|n| model.call_mut(&n)) {
                    state.scroll = match motion {
                        Command::Down => state.scroll + 1,
                        _ => state.scroll.saturating_sub(1),
                    };
                    if let Some(view) = state.value.as_mut() {
                        view.follow = false;
                    }
                }
            }
        }
    }
}

fn click(model: &mut Model, hit: Hit) {
    match hit {
        Hit::List(line) => {
            let index = model.view.viewport.list_scroll + line;
            if index < model.tools.filter.visible.len() {
                model.tools.selected = index;
                model.view.focus = Pane::Tools;
            }
        }
        Hit::Tree { line, column } => {
            model.view.focus = Pane::Tool;
            click_tree(model, line, column);
        }
        Hit::Value { line, column } => click_value(model, line, column),
        Hit::Form(line) => click_form(model, line),
        Hit::Protocol(line) => {
            let protocol = &mut model.protocol;
            let row = protocol.scroll + line;
            if row < protocol.rows() {
                protocol.select_row(row);
            }
        }
        Hit::Tab(_) => {}
        Hit::Library(line) => {
            let row = model.view.viewport.library_scroll + line;
            if let Some(&i) = model.library.shown.get(row) {
                model.library.selected = i;
                model.view.focus = Pane::Library;
            }
        }
        Hit::Opened => model.view.focus = Pane::Opened,
        Hit::Log => model.view.focus = Pane::Log,
    }
}

/// Whether `column` is on the open/closed mark of a row at `depth` (two columns a level).
fn on_mark(column: u16, depth: usize) -> bool {
    usize::from(column) / 2 == depth
}

/// The tool pane's page: a heading line before each tree, then its rows.
fn click_tree(model: &mut Model, line: usize, column: u16) {
    ensure_detail(model);
    let Some(entry) = model.selected_entry().cloned() else {
        return;
    };
    let Some(per) = model.tools.per_tool.get_mut(&entry.tool.name) else {
        return;
    };
    let (Some(detail), view) = (per.detail.as_ref(), &mut per.view) else {
        return;
    };
    let parts = tree_view::parts(detail, view, entry.boxing());
    let rows = outline::rows(&parts);
    let inputs = rows.partition_point(|r| r.part == 0);
    let page_line = view.scroll + line;
    let index = match page_line {
        0 => return,
        l if l <= inputs => l - 1,
        l if l == inputs + 1 => return,
        l => l - 2,
    };
    let Some(&row) = rows.get(index) else {
        return;
    };
    let which = Which::of_part(row.part);
    let toggles = on_mark(column, row.depth) && parts[row.part].has_children(row.node);
    view.cursor = Some((which, row.node));
    if toggles {
        let open = view.open.get_mut(which);
        if !open.remove(&row.node) {
            open.insert(row.node);
        }
    }
}

/// The call panel's result page: the value's rows start at `call_value_line`, two columns in.
fn click_value(model: &mut Model, line: usize, column: u16) {
    let (Some((_, scroll)), Some(top)) = (
        model.view.viewport.call_scroll.clone(),
        model.view.viewport.call_value_line,
    ) else {
        return;
    };
    let name = model.selected_entry().map(|e| e.tool.name.clone());
    let Some(state) = name.and_then(|n| model.call_mut(&n)) else {
        return;
    };
    state.editing = false;
    let Some(view) = state.value.as_mut() else {
        return;
    };
    let Some(index) = (scroll + line).checked_sub(top) else {
        return;
    };
    let rows = outline::rows(&[view.part()]);
    let Some(row) = rows.get(index) else {
        return;
    };
    view.cursor = row.node;
    if let Some(column) = column.checked_sub(2)
        && on_mark(column, row.depth)
        && !view.tree.rows[row.node].children.is_empty()
        && !view.open.remove(&row.node)
    {
        view.open.insert(row.node);
    }
}
