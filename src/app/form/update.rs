//! Keys in a form: moving between rows, typing into a row (the first key replaces what a row
//! shows until it is typed into), toggling, picking, choosing a shape, adding and removing
//! elements, folding, leaving a property out. Pure.

use super::fields::{Input, Kind};
use super::state::Form;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;

/// Rows a page key moves.
const PAGE: usize = 10;

/// What a key did to the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyed {
    /// The value changed: check it again.
    Changed,
    /// Only the selection or the view moved.
    Moved,
    /// The key means nothing here.
    Ignored,
}

/// A key the layer's keymap left to the form.
pub fn key(form: &mut Form, event: KeyEvent) -> Keyed {
    if form.rows.is_empty() {
        return Keyed::Ignored;
    }
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    let alt = event.modifiers.contains(KeyModifiers::ALT);
    match event.code {
        KeyCode::Up | KeyCode::BackTab => step(form, -1),
        KeyCode::Down | KeyCode::Tab => step(form, 1),
        KeyCode::PageUp => step(form, -(PAGE as isize)),
        KeyCode::PageDown => step(form, PAGE as isize),
        KeyCode::Char('u') if ctrl => leave_out(form),
        KeyCode::Char('k') if ctrl => remove_element(form),
        _ if ctrl || alt => Keyed::Ignored,
        _ => in_row(form, event.code),
    }
}

/// Moves the selection `by` visible rows.
pub fn step(form: &mut Form, by: isize) -> Keyed {
    let visible = form.visible();
    let at = visible
        .iter()
        .position(|i| *i == form.selected)
        .unwrap_or(0);
    let to = at
        .saturating_add_signed(by)
        .min(visible.len().saturating_sub(1));
    form.selected = visible[to];
    form.place_cursor();
    Keyed::Moved
}

/// A key in the selected row, by its kind.
fn in_row(form: &mut Form, code: KeyCode) -> Keyed {
    let kind = form.rows[form.selected].spec.kind.clone();
    match (&kind, code) {
        (Kind::Object | Kind::Variants(_), KeyCode::Enter | KeyCode::Char(' ')) => fold(form, None),
        (Kind::Object, KeyCode::Right) => fold(form, Some(false)),
        (Kind::Object, KeyCode::Left) => fold(form, Some(true)),
        (Kind::Variants(shapes), KeyCode::Left | KeyCode::Right) => {
            let count = shapes.options.len();
            choose_shape(form, count, code == KeyCode::Right)
        }
        (Kind::Array(_), KeyCode::Enter | KeyCode::Char('+')) => add_element(form),
        (Kind::Array(_), KeyCode::Char(' ')) => fold(form, None),
        (Kind::Boolean, _) => boolean(form, code),
        (Kind::Choice(choices), _) => {
            let labels: Vec<String> = choices.iter().map(|c| c.label.clone()).collect();
            choice(form, code, &labels, |i| choices[i].value.clone())
        }
        (Kind::Many(choices), _) => many(form, code, choices.len()),
        (k, _) if k.is_typed() => typed(form, code),
        (_, KeyCode::Enter) => step(form, 1),
        _ => Keyed::Ignored,
    }
}

/// Folds (`Some(true)`), unfolds or toggles the selected row.
fn fold(form: &mut Form, to: Option<bool>) -> Keyed {
    let row = &mut form.rows[form.selected];
    row.folded = to.unwrap_or(!row.folded);
    Keyed::Moved
}

/// Leaves the selected row's property out (a required one is emptied).
fn leave_out(form: &mut Form) -> Keyed {
    form.remember(false);
    let row = &mut form.rows[form.selected];
    if row.spec.kind.holds_rows() {
        row.present = row.spec.required;
        row.folded = !row.present;
    } else {
        row.input = Input::Unset;
    }
    row.fresh = true;
    form.place_cursor();
    Keyed::Changed
}

/// The selected row was set: it is no longer fresh, and what holds it is in the value.
fn set(form: &mut Form) -> Keyed {
    form.rows[form.selected].fresh = false;
    form.make_present(form.selected);
    Keyed::Changed
}

fn choose_shape(form: &mut Form, count: usize, forward: bool) -> Keyed {
    form.remember(false);
    let i = form.selected;
    let now = match form.rows[i].input {
        Input::Chosen(c) => c,
        _ => 0,
    };
    let next = if forward {
        (now + 1) % count
    } else {
        (now + count - 1) % count
    };
    form.rows[i].input = Input::Chosen(next);
    form.rows[i].present = true;
    form.rows[i].folded = false;
    form.rebuild_inside(i, false);
    set(form)
}

fn add_element(form: &mut Form) -> Keyed {
    form.remember(false);
    let i = form.selected;
    form.rows[i].present = true;
    form.rows[i].folded = false;
    form.rebuild_inside(i, true);
    let last = form.children(i).last().unwrap_or(i);
    set(form);
    form.selected = last;
    form.place_cursor();
    Keyed::Changed
}

/// Removes the array element the selected row is (or is in).
fn remove_element(form: &mut Form) -> Keyed {
    let in_array = |form: &Form, i: usize| {
        form.parent(i)
            .is_some_and(|p| matches!(form.rows[p].spec.kind, Kind::Array(_)))
    };
    let mut at = Some(form.selected);
    while let Some(i) = at.filter(|i| !in_array(form, *i)) {
        at = form.parent(i);
    }
    let Some(element) = at else {
        return Keyed::Ignored;
    };
    form.remember(false);
    form.remove_element(element);
    form.place_cursor();
    Keyed::Changed
}

fn boolean(form: &mut Form, code: KeyCode) -> Keyed {
    let now = match &form.rows[form.selected].input {
        Input::Value(Value::Bool(b)) => Some(*b),
        _ => None,
    };
    let to = match code {
        KeyCode::Char(' ') | KeyCode::Left | KeyCode::Right => !now.unwrap_or(false),
        KeyCode::Char('t' | 'y' | '1') => true,
        KeyCode::Char('f' | 'n' | '0') => false,
        KeyCode::Enter => return step(form, 1),
        _ => return Keyed::Ignored,
    };
    form.remember(false);
    form.rows[form.selected].input = Input::Value(Value::Bool(to));
    set(form)
}

/// Left/right (or space) picks the previous/next choice; a letter the next whose label starts
/// with it.
fn choice(
    form: &mut Form,
    code: KeyCode,
    labels: &[String],
    value: impl Fn(usize) -> Value,
) -> Keyed {
    let count = labels.len();
    let now = match &form.rows[form.selected].input {
        Input::Value(v) => (0..count).find(|i| value(*i) == *v),
        _ => None,
    };
    let next = match code {
        KeyCode::Right | KeyCode::Char(' ') => now.map_or(0, |n| (n + 1) % count),
        KeyCode::Left => now.map_or(count - 1, |n| (n + count - 1) % count),
        KeyCode::Char(c) => {
            let starts = |i: &usize| {
                labels[*i]
                    .to_lowercase()
                    .starts_with(&c.to_lowercase().to_string())
            };
            let from = now.map_or(0, |n| n + 1);
            match (from..count).chain(0..from).find(starts) {
                Some(i) => i,
                None => return Keyed::Ignored,
            }
        }
        KeyCode::Enter => return step(form, 1),
        _ => return Keyed::Ignored,
    };
    form.remember(false);
    form.rows[form.selected].input = Input::Value(value(next));
    set(form)
}

/// Left/right moves among the choices, space picks or unpicks the one under the cursor.
fn many(form: &mut Form, code: KeyCode, count: usize) -> Keyed {
    match code {
        KeyCode::Right => form.option = (form.option + 1).min(count.saturating_sub(1)),
        KeyCode::Left => form.option = form.option.saturating_sub(1),
        KeyCode::Char(' ') => {
            form.remember(false);
            let mut picks = match &form.rows[form.selected].input {
                Input::Picks(p) => p.clone(),
                _ => Vec::new(),
            };
            match picks.iter().position(|p| *p == form.option) {
                Some(at) => {
                    picks.remove(at);
                }
                None => {
                    picks.push(form.option);
                    picks.sort_unstable();
                }
            }
            form.rows[form.selected].input = Input::Picks(picks);
            return set(form);
        }
        KeyCode::Enter => return step(form, 1),
        _ => return Keyed::Ignored,
    }
    Keyed::Moved
}

/// Typing into a text, number or JSON row.
fn typed(form: &mut Form, code: KeyCode) -> Keyed {
    let i = form.selected;
    let mut text: Vec<char> = form.shown_text(i).chars().collect();
    let fresh = form.rows[i].fresh;
    let cursor = form.cursor.min(text.len());
    match code {
        KeyCode::Char(c) => {
            form.remember(true);
            if fresh {
                text.clear();
                form.cursor = 0;
            }
            text.insert(form.cursor.min(text.len()), c);
            form.cursor += 1;
        }
        KeyCode::Backspace if cursor > 0 => {
            form.remember(true);
            text.remove(cursor - 1);
            form.cursor = cursor - 1;
        }
        KeyCode::Delete if cursor < text.len() => {
            form.remember(true);
            text.remove(cursor);
        }
        KeyCode::Left => return cursor_to(form, cursor.saturating_sub(1)),
        KeyCode::Right => return cursor_to(form, (cursor + 1).min(text.len())),
        KeyCode::Home => return cursor_to(form, 0),
        KeyCode::End => return cursor_to(form, text.len()),
        KeyCode::Enter => return step(form, 1),
        _ => return Keyed::Ignored,
    }
    form.rows[i].input = Input::Text(text.into_iter().collect());
    set(form)
}

/// Text pasted into the selected row (a typed one): at the cursor, replacing what a fresh
/// row shows; line breaks become spaces (a row is one line).
pub fn paste(form: &mut Form, text: &str) {
    let Some(row) = form.row().filter(|r| r.spec.kind.is_typed()) else {
        return;
    };
    let fresh = row.fresh;
    form.remember(false);
    let i = form.selected;
    let mut now: Vec<char> = if fresh {
        Vec::new()
    } else {
        form.shown_text(i).chars().collect()
    };
    let at = if fresh { 0 } else { form.cursor.min(now.len()) };
    let pasted: Vec<char> = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    form.cursor = at + pasted.len();
    now.splice(at..at, pasted);
    form.rows[i].input = Input::Text(now.into_iter().collect());
    set(form);
}

/// Puts `text` in the selected row (a completion chosen), the cursor after it.
pub fn replace_text(form: &mut Form, text: &str) {
    if form.row().is_some_and(|r| r.spec.kind.is_typed()) {
        form.remember(false);
        form.rows[form.selected].input = Input::Text(text.to_string());
        form.cursor = text.chars().count();
        set(form);
    }
}

/// Moves the text cursor; the row counts as typed into (the next key no longer replaces).
fn cursor_to(form: &mut Form, at: usize) -> Keyed {
    form.cursor = at;
    form.rows[form.selected].fresh = false;
    Keyed::Moved
}
