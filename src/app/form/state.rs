//! A form: its rows built from a schema, the row selected, what each row holds, the value they
//! make together, each row's problem (from the schema check of that value), and undo. Pure.

use super::fields::{Builder, Field, Input, Kind, MAX_FIELDS, Start};
use crate::schema::Violation;
use crate::schema::refs::escape_segment;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Snapshots of the rows kept for undo, counted in rows (a 10,000-row form keeps 20).
const UNDO_ROWS: usize = 200_000;
/// Undo steps at most.
const UNDO_STEPS: usize = 100;

/// A form filled row by row.
#[derive(Debug, Clone)]
pub struct Form {
    schema: Arc<Value>,
    pub rows: Vec<Field>,
    /// Index into `rows` of the row selected (always a visible one).
    pub selected: usize,
    /// The text cursor in the selected row, in characters.
    pub cursor: usize,
    /// The choice under the cursor in a row of many choices.
    pub option: usize,
    /// Properties the value had that the schema does not name: kept, sent, edited in JSON.
    pub extra: Map<String, Value>,
    /// Problems of the whole (not of one row).
    pub problems: Vec<String>,
    undo: Vec<Vec<Field>>,
    redo: Vec<Vec<Field>>,
    /// The row typed into last (typing on in it is one undo step).
    typing_in: Option<usize>,
}

impl Form {
    /// A form for `schema`, filled from its defaults, or from `value` when one is given. Says
    /// why not when a form cannot show the schema.
    pub fn new(schema: &Value, value: Option<&Value>) -> Result<Form, String> {
        let mut builder = Builder::new(schema);
        let root = builder.resolve(schema);
        let typed = root.get("type").and_then(Value::as_str);
        if typed.is_some_and(|t| t != "object") {
            return Err(format!(
                "the schema is not an object (type: {})",
                typed.unwrap_or("")
            ));
        }
        if !root.contains_key("properties")
            && (root.contains_key("additionalProperties") || root.contains_key("patternProperties"))
        {
            return Err("the schema names no properties (only patterns or additional ones)".into());
        }
        // Too many fields at the top: said before building any row.
        if root
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.len() > MAX_FIELDS)
        {
            return Err(format!("the schema has more than {MAX_FIELDS} fields"));
        }
        let mut rows = Vec::new();
        let start = value.map_or(Start::Defaults, |v| Start::Given(Some(v)));
        builder.properties(&mut rows, schema, "", 0, start);
        if builder.cut {
            return Err(format!("the schema has more than {MAX_FIELDS} fields"));
        }
        let named: std::collections::HashSet<&str> = rows
            .iter()
            .filter(|r| r.depth == 0)
            .map(|r| r.key.as_str())
            .collect();
        let extra = value
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| !named.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let mut form = Form {
            schema: Arc::new(schema.clone()),
            rows,
            selected: 0,
            cursor: 0,
            option: 0,
            extra,
            problems: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            typing_in: None,
        };
        form.place_cursor();
        Ok(form)
    }

    /// The value the rows make: each set row at its property; a row of rows when present.
    pub fn value(&self) -> Value {
        let mut map = Map::new();
        let mut i = 0;
        while i < self.rows.len() {
            if let Some(v) = self.value_of(i) {
                map.insert(self.rows[i].key.clone(), v);
            }
            i = self.end_of(i);
        }
        for (k, v) in &self.extra {
            map.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(map)
    }

    /// The value of row `i`, if it is in the whole.
    pub fn value_of(&self, i: usize) -> Option<Value> {
        let row = &self.rows[i];
        match (&row.spec.kind, &row.input) {
            (Kind::Object | Kind::Variants(_), _) => {
                let mut map = Map::new();
                for child in self.children(i) {
                    if let Some(v) = self.value_of(child) {
                        map.insert(self.rows[child].key.clone(), v);
                    }
                }
                row.present.then_some(Value::Object(map))
            }
            (Kind::Array(_), _) => {
                // An element not filled in yet holds its place: an empty string for text
                // (what it reads as), else null.
                let unset = |c: usize| match self.rows[c].spec.kind {
                    Kind::Text { .. } => Value::String(String::new()),
                    _ => Value::Null,
                };
                let items: Vec<Value> = self
                    .children(i)
                    .map(|c| self.value_of(c).unwrap_or_else(|| unset(c)))
                    .collect();
                (row.present || !items.is_empty()).then_some(Value::Array(items))
            }
            (_, Input::Unset | Input::Chosen(_)) => None,
            (_, Input::Value(v)) => Some(v.clone()),
            (Kind::Many(choices), Input::Picks(picks)) => Some(Value::Array(
                picks
                    .iter()
                    .filter_map(|p| choices.get(*p))
                    .map(|c| c.value.clone())
                    .collect(),
            )),
            (_, Input::Picks(_)) => None,
            (Kind::Text { .. }, Input::Text(t)) => Some(Value::String(t.clone())),
            (Kind::Loose, Input::Text(t)) if t.trim().is_empty() => None,
            (Kind::Loose, Input::Text(t)) => {
                Some(serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.clone())))
            }
            (_, Input::Text(t)) => serde_json::from_str::<Value>(t.trim())
                .ok()
                .filter(Value::is_number),
        }
    }

    /// Why row `i`'s input makes no value of its kind, before any schema check.
    fn own_problem(&self, i: usize) -> Option<String> {
        let row = &self.rows[i];
        match (&row.spec.kind, &row.input) {
            (Kind::Integer | Kind::Number, Input::Text(t)) if !t.trim().is_empty() => self
                .value_of(i)
                .is_none()
                .then(|| format!("not a number: {}", crate::untrusted::line(t, 40))),
            _ => None,
        }
    }

    /// Marks each row with its problem: its own, else the first violation at it (a missing
    /// required property at its row; a violation below a row at that row); the rest are the
    /// whole's. A folded row says how many of its rows have one.
    pub fn mark(&mut self, violations: &[Violation]) {
        self.problems.clear();
        for i in 0..self.rows.len() {
            self.rows[i].problem = self.own_problem(i);
        }
        let mut said_by_shape = Vec::new();
        for v in violations {
            if let Some(found) = self.shape_problems(v) {
                said_by_shape.extend(found);
                continue;
            }
            let pointer = match missing_name(v) {
                Some(name) => format!("{}/{}", v.instance_path, escape_segment(&name)),
                None => v.instance_path.clone(),
            };
            let message = if missing_name(v).is_some() {
                "required".to_string()
            } else {
                crate::untrusted::line(&v.message, 200).into_owned()
            };
            match self.row_at(&pointer) {
                Some(i) if self.rows[i].problem.is_none() => self.rows[i].problem = Some(message),
                Some(_) => {}
                None => self.problems.push(message),
            }
        }
        for (i, message) in said_by_shape {
            if self.rows[i].problem.is_none() {
                self.rows[i].problem = Some(message);
            }
        }
        for i in 0..self.rows.len() {
            if self.rows[i].folded && self.rows[i].problem.is_none() {
                let inside = (i + 1..self.end_of(i))
                    .filter(|c| self.rows[*c].problem.is_some())
                    .count();
                if inside > 0 {
                    self.rows[i].problem = Some(format!(
                        "{} inside",
                        crate::plural::count(inside, "problem")
                    ));
                }
            }
        }
    }

    /// For an `anyOf`/`oneOf` violation on a shape chooser ("not valid under any of the
    /// schemas"), what is wrong with the shape chosen: its value checked against that shape
    /// alone, each violation on its row and the chooser naming the shape. `None` when the
    /// violation is not of that kind or the chosen shape finds nothing.
    fn shape_problems(&self, v: &Violation) -> Option<Vec<(usize, String)>> {
        if !matches!(v.keyword.as_str(), "anyOf" | "oneOf") {
            return None;
        }
        let i = self
            .rows
            .iter()
            .position(|r| r.pointer == v.instance_path)?;
        let (Kind::Variants(shapes), Input::Chosen(chosen)) =
            (&self.rows[i].spec.kind, &self.rows[i].input)
        else {
            return None;
        };
        let shape = crate::schema::refs::bundled(&self.schema, &shapes.shape(*chosen));
        let value = self.value_of(i)?;
        let checked = crate::schema::Compiled::new(&shape).check(&value).ok()?;
        let name = shapes.options.get(*chosen).map_or("", |(n, _)| n.as_str());
        let first = checked.violations.first()?;
        let mut out = vec![(
            i,
            format!(
                "not a valid {}: {}",
                crate::untrusted::line(name, 60),
                crate::untrusted::line(&first.brief(), 200)
            ),
        )];
        for inner in &checked.violations {
            let pointer = format!("{}{}", v.instance_path, inner.instance_path);
            if let Some(row) = self.row_at(&pointer).filter(|r| *r != i) {
                out.push((
                    row,
                    crate::untrusted::line(&inner.message, 200).into_owned(),
                ));
            }
        }
        Some(out)
    }

    /// The row whose value is at `pointer`, or the nearest row holding it.
    fn row_at(&self, pointer: &str) -> Option<usize> {
        let mut at = pointer;
        loop {
            if let Some(i) = self.rows.iter().position(|r| r.pointer == at) {
                return Some(i);
            }
            at = &at[..at.rfind('/')?];
        }
    }

    /// One past the last row inside row `i`.
    pub fn end_of(&self, i: usize) -> usize {
        let depth = self.rows[i].depth;
        (i + 1..self.rows.len())
            .find(|j| self.rows[*j].depth <= depth)
            .unwrap_or(self.rows.len())
    }

    /// The rows directly inside row `i`.
    pub fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let depth = self.rows[i].depth + 1;
        (i + 1..self.end_of(i)).filter(move |j| self.rows[*j].depth == depth)
    }

    /// The row holding row `i`.
    pub fn parent(&self, i: usize) -> Option<usize> {
        let depth = self.rows[i].depth.checked_sub(1)?;
        (0..i).rev().find(|j| self.rows[*j].depth == depth)
    }

    /// The rows shown: those not inside a folded row.
    pub fn visible(&self) -> Vec<usize> {
        let mut shown = Vec::new();
        let mut i = 0;
        while i < self.rows.len() {
            shown.push(i);
            i = if self.rows[i].folded {
                self.end_of(i)
            } else {
                i + 1
            };
        }
        shown
    }

    /// The selected row.
    pub fn row(&self) -> Option<&Field> {
        self.rows.get(self.selected)
    }

    /// The selected row's text as typed (what a typed row shows).
    pub fn shown_text(&self, i: usize) -> String {
        match &self.rows[i].input {
            Input::Text(t) => t.clone(),
            Input::Value(v) => crate::untrusted::json(v, false),
            _ => String::new(),
        }
    }

    /// Puts the text cursor at the end of the selected row's text.
    pub fn place_cursor(&mut self) {
        self.cursor = if self.rows.is_empty() {
            0
        } else {
            self.shown_text(self.selected).chars().count()
        };
        self.option = 0;
        self.typing_in = None;
    }

    /// Selects the row whose value is at `pointer` (or the nearest holding it), unfolding what
    /// holds it.
    pub fn select_pointer(&mut self, pointer: &str) {
        if let Some(i) = self.row_at(pointer) {
            let mut at = Some(i);
            while let Some(p) = at.and_then(|a| self.parent(a)) {
                self.rows[p].folded = false;
                at = Some(p);
            }
            self.selected = i;
            self.place_cursor();
        }
    }

    /// Keeps the rows as they are for undo, before a change; typing on in the same row is
    /// the same step.
    pub fn remember(&mut self, typing: bool) {
        if typing && self.typing_in == Some(self.selected) {
            return;
        }
        self.typing_in = typing.then_some(self.selected);
        self.undo.push(self.rows.clone());
        self.redo.clear();
        while self.undo.len() > UNDO_STEPS
            || (self.undo.len() > 1 && self.undo.len() * self.rows.len() > UNDO_ROWS)
        {
            self.undo.remove(0);
        }
    }

    /// Undoes the last change (`redo`: the last undone); false when there is none.
    pub fn undo(&mut self, redo: bool) -> bool {
        let (from, to) = if redo {
            (&mut self.redo, &mut self.undo)
        } else {
            (&mut self.undo, &mut self.redo)
        };
        let Some(rows) = from.pop() else {
            return false;
        };
        to.push(std::mem::replace(&mut self.rows, rows));
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
        self.place_cursor();
        true
    }

    /// Marks the rows holding row `i` as present (a row in them was set).
    pub fn make_present(&mut self, i: usize) {
        let mut at = self.parent(i);
        while let Some(p) = at {
            self.rows[p].present = true;
            at = self.parent(p);
        }
    }

    /// Rebuilds the rows inside row `i` (a variant chosen, an element added) from the schema:
    /// the rows' defaults, then what the old rows at the same pointers held.
    pub fn rebuild_inside(&mut self, i: usize, extra_element: bool) {
        let schema = Arc::clone(&self.schema);
        let mut builder = Builder::new(&schema);
        let row = self.rows[i].clone();
        let old: Vec<Field> = self.rows.drain(i + 1..self.end_of(i)).collect();
        let mut fresh = Vec::new();
        match &row.spec.kind {
            Kind::Variants(shapes) => {
                let chosen = match row.input {
                    Input::Chosen(c) => c,
                    _ => 0,
                };
                let shape = shapes.shape(chosen);
                builder.properties(
                    &mut fresh,
                    &shape,
                    &row.pointer,
                    row.depth + 1,
                    Start::Defaults,
                );
            }
            Kind::Array(items) => {
                let count = old.iter().filter(|r| r.depth == row.depth + 1).count()
                    + usize::from(extra_element);
                for n in 0..count {
                    let at = format!("{}/{n}", row.pointer);
                    builder.field(
                        &mut fresh,
                        n.to_string(),
                        items,
                        at,
                        row.depth + 1,
                        true,
                        Start::Defaults,
                    );
                }
            }
            _ => {}
        }
        let by_pointer: std::collections::HashMap<&str, &Field> =
            old.iter().map(|o| (o.pointer.as_str(), o)).collect();
        for new in &mut fresh {
            if let Some(was) = by_pointer
                .get(new.pointer.as_str())
                .filter(|o| o.spec.kind == new.spec.kind)
            {
                let fixed = matches!(&new.spec.kind, Kind::Choice(c) if c.len() == 1);
                if !fixed {
                    new.input = was.input.clone();
                    new.present = was.present;
                    new.folded = was.folded;
                    new.fresh = was.fresh;
                }
            }
        }
        self.rows.splice(i + 1..i + 1, fresh);
    }

    /// Removes element row `i` from its array; the elements after it move up one.
    pub fn remove_element(&mut self, i: usize) -> bool {
        let Some(array) = self
            .parent(i)
            .filter(|p| matches!(self.rows[*p].spec.kind, Kind::Array(_)))
        else {
            return false;
        };
        let end = self.end_of(i);
        self.rows.drain(i..end);
        let prefix = self.rows[array].pointer.clone();
        let elements: Vec<usize> = self.children(array).collect();
        for (n, e) in elements.into_iter().enumerate() {
            let old = self.rows[e].pointer.clone();
            let new = format!("{prefix}/{n}");
            self.rows[e].key = n.to_string();
            for j in e..self.end_of(e) {
                let rest = self.rows[j].pointer[old.len()..].to_string();
                self.rows[j].pointer = format!("{new}{rest}");
            }
        }
        self.selected = i.min(self.rows.len().saturating_sub(1));
        if self.children(array).next().is_none() {
            self.selected = array;
        }
        true
    }
}

/// The property a `required` violation names (`"name" is a required property`).
fn missing_name(v: &Violation) -> Option<String> {
    if v.keyword != "required" {
        return None;
    }
    let mut stream = serde_json::Deserializer::from_str(&v.message).into_iter::<Value>();
    match stream.next() {
        Some(Ok(Value::String(name))) => Some(name),
        _ => None,
    }
}
