//! A value being written two ways, one shown at a time and always the same value: a form
//! built from its schema, and the JSON text (for power users, and for schemas a form cannot
//! show). Switching carries the value across. Pure.

use super::state::Form;
use crate::app::call::draft_lines;
use crate::schema::Violation;
use ratatui_textarea::{CursorMove, TextArea};
use serde_json::Value;

pub struct Draft {
    pub editor: TextArea<'static>,
    pub form: Option<Form>,
    /// Why the schema has no form (it is edited as JSON).
    pub no_form: Option<String>,
    /// The form is shown (else the JSON text).
    pub in_form: bool,
    schema: Option<Value>,
}

impl Draft {
    /// A draft for `schema`: its form, filled from its defaults, when a form can show it; else
    /// the JSON text of its skeleton, the first placeholder selected so typing replaces it.
    pub fn for_schema(schema: &Value) -> Draft {
        let mut draft = Draft::text_only("{}");
        draft.schema = Some(schema.clone());
        match Form::new(schema, None) {
            Ok(form) => {
                draft.form = Some(form);
                draft.in_form = true;
            }
            Err(why) => {
                draft.no_form = Some(why);
                draft.show_skeleton();
            }
        }
        draft
    }

    /// Shows the JSON text of the schema's skeleton (defaults, and placeholders for the
    /// required values), its first placeholder selected so typing replaces it.
    pub fn show_skeleton(&mut self) {
        let Some(schema) = &self.schema else {
            return;
        };
        let text = crate::untrusted::json(&crate::schema::generate::skeleton(schema), true);
        self.editor = TextArea::new(text.lines().map(String::from).collect());
        select_first_blank(&mut self.editor, schema);
        self.in_form = false;
    }

    /// A draft of JSON text with no schema (a sampling reply), the cursor where typing begins.
    pub fn text_only(text: &str) -> Draft {
        Draft {
            editor: TextArea::new(text.lines().map(String::from).collect()),
            form: None,
            no_form: None,
            in_form: false,
            schema: None,
        }
    }

    /// The value as JSON text.
    pub fn text(&self) -> String {
        match self.shown_form() {
            Some(form) => crate::untrusted::json(&form.value(), true),
            None => self.editor.lines().join("\n"),
        }
    }

    /// The value, or why the text is not JSON.
    pub fn value(&self) -> Result<Value, String> {
        match self.shown_form() {
            Some(form) => Ok(form.value()),
            None => {
                serde_json::from_str(&self.editor.lines().join("\n")).map_err(|e| e.to_string())
            }
        }
    }

    /// The editor's look, set where the model changes so that a frame draws the editor where
    /// it is (a copy per frame would cost a large draft's text and undo history): no cursor
    /// line, and line numbers in `numbers` when given.
    pub fn set_look(&mut self, numbers: Option<ratatui::style::Style>) {
        self.editor
            .set_cursor_line_style(ratatui::style::Style::default());
        if let Some(style) = numbers {
            self.editor.set_line_number_style(style);
        }
    }

    /// The form, when it is the one shown.
    pub fn shown_form(&self) -> Option<&Form> {
        self.form.as_ref().filter(|_| self.in_form)
    }

    pub fn shown_form_mut(&mut self) -> Option<&mut Form> {
        self.form.as_mut().filter(|_| self.in_form)
    }

    /// Replaces the value with `text` (a restored draft, the external editor's): into the form
    /// when it is shown and the text is an object it can hold, else as JSON text shown.
    pub fn set_text(&mut self, text: &str) {
        self.editor = TextArea::new(text.lines().map(String::from).collect());
        self.editor.move_cursor(CursorMove::Bottom);
        self.editor.move_cursor(CursorMove::End);
        if self.in_form && self.load_form().is_err() {
            self.in_form = false;
        }
    }

    /// Shows the other way of writing the value, carrying it across; says why not when the JSON
    /// text cannot become the form.
    pub fn toggle(&mut self) -> Result<(), String> {
        if self.in_form {
            let form = self.form.as_ref().ok_or("no form")?;
            let text = crate::untrusted::json(&form.value(), true);
            let pointer = form.row().map(|r| r.pointer.clone()).unwrap_or_default();
            self.editor = TextArea::new(text.lines().map(String::from).collect());
            let line = draft_lines::value_lines(&text)
                .into_iter()
                .find(|(path, _)| *path == pointer)
                .map_or(0, |(_, line)| line.saturating_sub(1));
            let at = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
            self.editor.move_cursor(CursorMove::Jump(at(line), 0));
            self.editor.move_cursor(CursorMove::End);
            self.in_form = false;
            return Ok(());
        }
        if self.schema.is_none() {
            return Err("this draft has no schema to make a form from".into());
        }
        if let Some(why) = &self.no_form {
            return Err(format!("no form: {why}; the JSON draft stays"));
        }
        self.load_form()?;
        self.in_form = true;
        Ok(())
    }

    /// Rebuilds the form from the JSON text, the row of the cursor's line selected.
    fn load_form(&mut self) -> Result<(), String> {
        let text = self.editor.lines().join("\n");
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| format!("the JSON draft does not parse ({e}): fix it, or ctrl-r"))?;
        if !value.is_object() {
            return Err("the JSON draft is not an object".into());
        }
        let schema = self.schema.as_ref().ok_or("no schema")?;
        let mut form = Form::new(schema, Some(&value))?;
        let row = self.editor.cursor().0 + 1;
        if let Some((pointer, _)) = draft_lines::value_lines(&text)
            .into_iter()
            .rev()
            .find(|(_, line)| *line == row)
        {
            form.select_pointer(&pointer);
        }
        self.form = Some(form);
        Ok(())
    }

    /// Undoes the last change of what is shown (`redo`: the last undone); false when none.
    pub fn undo(&mut self, redo: bool) -> bool {
        match (self.shown_form_mut(), redo) {
            (Some(form), _) => form.undo(redo),
            (None, false) => self.editor.undo(),
            (None, true) => self.editor.redo(),
        }
    }

    /// A key typed: into the form's selected row, or the JSON text. True when the value changed.
    pub fn key(&mut self, event: crossterm::event::KeyEvent) -> bool {
        match self.shown_form_mut() {
            Some(form) => super::update::key(form, event) == super::update::Keyed::Changed,
            None => self.editor.input(event),
        }
    }

    /// Text pasted: into the selected row of the form, or at the JSON text's cursor.
    pub fn paste(&mut self, text: &str) {
        match self.shown_form_mut() {
            Some(form) => super::update::paste(form, text),
            None => {
                self.editor.insert_str(text);
            }
        }
    }

    /// Marks the form's rows with the schema's violations of its value.
    pub fn mark(&mut self, violations: &[Violation]) {
        if let Some(form) = self.shown_form_mut() {
            form.mark(violations);
        }
    }
}

/// Puts the cursor at the first value to fill (the first required one) and selects the
/// placeholder there (`0`, `false`, a default's text), so the first key typed replaces it.
pub fn select_first_blank(editor: &mut TextArea<'static>, schema: &Value) {
    let text = editor.lines().join("\n");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let Some((row, column)) = draft_lines::first_blank(&text, &required) else {
        return;
    };
    let at = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
    editor.move_cursor(CursorMove::Jump(at(row), at(column)));
    let line: Vec<char> = editor.lines()[row].chars().collect();
    let rest: String = line[column.min(line.len())..].iter().collect();
    let value = rest.trim_end().trim_end_matches(',');
    // Inside an empty string there is nothing to select; a string's text is selected without
    // its quotes; a scalar whole; an object or array not at all.
    let width = match value.chars().next() {
        Some('"') if column > 0 && line.get(column - 1) == Some(&'"') => 0,
        Some('"') => {
            editor.move_cursor(CursorMove::Forward);
            value.chars().count().saturating_sub(2)
        }
        Some('{' | '[') | None => 0,
        Some(_) => value.chars().count(),
    };
    if width > 0 {
        editor.start_selection();
        for _ in 0..width {
            editor.move_cursor(CursorMove::Forward);
        }
    }
}
