//! Forms from real and hostile schemas: every property a row, titled choices, typing that
//! replaces placeholders, variants, arrays, undo, and the JSON draft in sync.

use super::draft::Draft;
use super::fields::{Input, Kind};
use super::state::Form;
use super::update::{Keyed, key};
use crate::schema::Compiled;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};

/// server-everything's `trigger-elicitation-request` schema (version 2026.8.31), as sent.
fn everything() -> Value {
    serde_json::from_str(include_str!(
        "../../../tests/fixtures/everything-elicitation.json"
    ))
    .expect("fixture")
}

fn press(form: &mut Form, code: KeyCode) -> Keyed {
    key(form, KeyEvent::new(code, KeyModifiers::NONE))
}

fn type_text(form: &mut Form, text: &str) {
    for c in text.chars() {
        press(form, KeyCode::Char(c));
    }
}

fn select(form: &mut Form, key_name: &str) {
    let i = form
        .rows
        .iter()
        .position(|r| r.key == key_name)
        .expect("row");
    form.selected = i;
    form.place_cursor();
}

fn marked(form: &mut Form, schema: &Value) {
    let checked = Compiled::new(schema)
        .check_within(&form.value(), std::time::Duration::from_secs(5))
        .expect("usable");
    form.mark(&checked.violations);
}

#[test]
fn every_elicitation_field_is_a_row_with_its_words_and_titled_choices() {
    let schema = everything();
    let form = Form::new(&schema, None).expect("a form");
    let keys: Vec<&str> = form.rows.iter().map(|r| r.key.as_str()).collect();
    // 13 in this version (the issue counted 12: `firstLine` came later).
    assert_eq!(keys.len(), 13, "{keys:?}");
    for name in ["name", "check", "email", "homepage", "birthdate"] {
        assert!(keys.contains(&name), "{name} shown");
    }
    let email = &form.rows[keys.iter().position(|k| *k == "email").expect("present")];
    assert_eq!(
        email.spec.title.as_deref(),
        Some("String with email format")
    );
    assert!(
        email.spec.about().contains("format: email"),
        "{}",
        email.spec.about()
    );
    let hero = &form.rows[keys
        .iter()
        .position(|k| *k == "titledSingleSelectEnum")
        .expect("present")];
    let Kind::Choice(choices) = &hero.spec.kind else {
        panic!("{:?}", hero.spec.kind)
    };
    assert_eq!(choices[0].label, "Superman");
    assert_eq!(hero.input, Input::Value(json!("hero-1")));
    let pets = &form.rows[keys
        .iter()
        .position(|k| *k == "legacyTitledEnum")
        .expect("present")];
    let Kind::Choice(pets) = &pets.spec.kind else {
        panic!()
    };
    assert_eq!(pets[1].label, "Dogs", "enumNames name the values");
    let fish = &form.rows[keys
        .iter()
        .position(|k| *k == "titledMultipleSelectEnum")
        .expect("present")];
    assert!(matches!(&fish.spec.kind, Kind::Many(c) if c[1].label == "Salmon"));
    assert_eq!(fish.input, Input::Picks(vec![0]));
    // Defaults are filled; the unset optional rows are left out; the required name is missing.
    let value = form.value();
    assert_eq!(value["integer"], json!(42));
    assert_eq!(value["titledMultipleSelectEnum"], json!(["fish-1"]));
    assert!(value.get("email").is_none() && value.get("name").is_none());
}

#[test]
fn typing_replaces_a_placeholder_and_is_checked_in_its_row() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "default": 0}}, "required": ["a", "b"]});
    let mut form = Form::new(&schema, None).expect("present");
    marked(&mut form, &schema);
    assert_eq!(form.rows[0].problem.as_deref(), Some("required"));
    type_text(&mut form, "21");
    assert_eq!(form.value(), json!({"a": 21, "b": 0}));
    press(&mut form, KeyCode::Down);
    type_text(&mut form, "5");
    assert_eq!(
        form.value()["b"],
        json!(5),
        "the default 0 was replaced, not kept as 05"
    );
    type_text(&mut form, "x");
    marked(&mut form, &schema);
    assert_eq!(form.rows[1].problem.as_deref(), Some("not a number: 5x"));
    assert_eq!(form.rows[0].problem, None);
    press(&mut form, KeyCode::Backspace);
    press(&mut form, KeyCode::Home);
    type_text(&mut form, "-");
    assert_eq!(
        form.value()["b"],
        json!(-5),
        "after a move, typing inserts at the cursor"
    );
}

#[test]
fn undo_steps_back_through_typing_and_picks() {
    let schema = everything();
    let mut form = Form::new(&schema, None).expect("present");
    select(&mut form, "name");
    type_text(&mut form, "Ada");
    select(&mut form, "check");
    press(&mut form, KeyCode::Char(' '));
    assert_eq!(form.value()["check"], json!(true));
    assert!(form.undo(false));
    assert!(form.value().get("check").is_none());
    assert_eq!(
        form.value()["name"],
        json!("Ada"),
        "typing in one row is one step"
    );
    assert!(form.undo(false));
    assert!(form.value().get("name").is_none());
    assert!(form.undo(true));
    assert_eq!(form.value()["name"], json!("Ada"));
}

#[test]
fn choices_are_picked_by_key_and_by_letter() {
    let schema = everything();
    let mut form = Form::new(&schema, None).expect("present");
    select(&mut form, "titledSingleSelectEnum");
    press(&mut form, KeyCode::Right);
    assert_eq!(form.value()["titledSingleSelectEnum"], json!("hero-2"));
    press(&mut form, KeyCode::Char('w'));
    assert_eq!(form.value()["titledSingleSelectEnum"], json!("hero-3"));
    select(&mut form, "untitledMultipleSelectEnum");
    press(&mut form, KeyCode::Right);
    press(&mut form, KeyCode::Char(' '));
    assert_eq!(
        form.value()["untitledMultipleSelectEnum"],
        json!(["Guitar", "Piano"])
    );
}

#[test]
fn variants_switch_by_title_keeping_shared_values_and_arrays_grow_and_shrink() {
    let schema = json!({
        "type": "object",
        "$defs": {"Card": {"title": "Card", "type": "object", "properties": {
            "kind": {"const": "card"}, "number": {"type": "string"}, "note": {"type": "string"}}}},
        "properties": {
            "payment": {"oneOf": [
                {"$ref": "#/$defs/Card"},
                {"type": "object", "properties": {"kind": {"const": "cash"}, "note": {"type": "string"}}}
            ]},
            "tags": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["payment"]
    });
    let mut form = Form::new(&schema, None).expect("present");
    assert_eq!(form.value(), json!({"payment": {"kind": "card"}}));
    select(&mut form, "note");
    type_text(&mut form, "hi");
    select(&mut form, "payment");
    press(&mut form, KeyCode::Right);
    assert_eq!(
        form.value(),
        json!({"payment": {"kind": "cash", "note": "hi"}})
    );
    select(&mut form, "tags");
    press(&mut form, KeyCode::Enter);
    type_text(&mut form, "a");
    select(&mut form, "tags");
    press(&mut form, KeyCode::Char('+'));
    type_text(&mut form, "b");
    assert_eq!(form.value()["tags"], json!(["a", "b"]));
    let first = form
        .rows
        .iter()
        .position(|r| r.pointer == "/tags/0")
        .expect("present");
    form.selected = first;
    key(
        &mut form,
        KeyEvent::new(KeyCode::Char('k'), KeyModifiers::CONTROL),
    );
    assert_eq!(form.value()["tags"], json!(["b"]));
    assert!(
        form.rows
            .iter()
            .any(|r| r.pointer == "/tags/0" && r.key == "0")
    );
}

#[test]
fn an_optional_object_is_left_out_until_a_row_in_it_is_set() {
    let schema = json!({"type": "object", "properties": {
        "options": {"type": "object", "properties": {"verbose": {"type": "boolean", "default": false}, "depth": {"type": "integer"}}}}});
    let mut form = Form::new(&schema, None).expect("present");
    assert!(form.rows[0].folded);
    assert_eq!(form.value(), json!({}));
    press(&mut form, KeyCode::Enter);
    press(&mut form, KeyCode::Down);
    press(&mut form, KeyCode::Down);
    type_text(&mut form, "3");
    assert_eq!(
        form.value(),
        json!({"options": {"verbose": false, "depth": 3}})
    );
    select(&mut form, "options");
    key(
        &mut form,
        KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL),
    );
    assert_eq!(form.value(), json!({}));
}

#[test]
fn the_json_draft_and_the_form_carry_the_same_value_and_nothing_is_lost() {
    let schema = everything();
    let mut draft = Draft::for_schema(&schema);
    assert!(draft.in_form);
    draft.toggle().expect("present");
    assert!(!draft.in_form);
    let mut value: Value = serde_json::from_str(&draft.text()).expect("present");
    value["name"] = json!("Ada");
    value["unnamed"] = json!({"kept": true});
    value["integer"] = json!("not a number");
    draft.set_text(&serde_json::to_string_pretty(&value).expect("present"));
    draft.toggle().expect("present");
    assert!(draft.in_form);
    assert_eq!(
        draft.value().expect("present"),
        value,
        "a value the form cannot show is kept"
    );
    let form = draft.form.as_ref().expect("present");
    let integer = form
        .rows
        .iter()
        .find(|r| r.key == "integer")
        .expect("present");
    assert_eq!(
        integer.spec.kind,
        Kind::Loose,
        "a string in an integer row is JSON text"
    );
    draft.set_text("{ not json");
    assert!(
        !draft.in_form,
        "text the form cannot hold is shown as it is"
    );
    assert!(
        draft
            .toggle()
            .expect_err("refused")
            .contains("does not parse")
    );
}

#[test]
fn a_json_draft_selects_its_first_placeholder_so_typing_replaces_it() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]});
    let mut draft = Draft::for_schema(&schema);
    draft.show_skeleton();
    assert!(!draft.in_form);
    for c in "21".chars() {
        draft.editor.insert_char(c);
    }
    assert_eq!(draft.value().expect("JSON"), json!({"a": 21, "b": 0}));
    draft.toggle().expect("back to the form");
    assert_eq!(draft.value().expect("a value"), json!({"a": 21, "b": 0}));
    let mut fresh =
        Draft::for_schema(&json!({"type": "object", "additionalProperties": {"type": "integer"}}));
    assert!(!fresh.in_form);
    assert!(
        fresh
            .no_form
            .as_deref()
            .expect("present")
            .contains("names no properties")
    );
    assert!(fresh.toggle().is_err());
    // Without a form, the skeleton is shown.
    assert_eq!(fresh.value().expect("JSON"), json!({}));
}

#[test]
fn hostile_schemas_are_bounded() {
    // Recursion through a required property stops at the depth limit as a JSON row.
    let recursive = json!({"$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}, "required": ["next"]}},
        "type": "object", "properties": {"root": {"$ref": "#/$defs/n"}}, "required": ["root"]});
    let form = Form::new(&recursive, None).expect("present");
    assert!(
        form.rows.len() <= super::fields::MAX_DEPTH + 1,
        "{}",
        form.rows.len()
    );
    assert_eq!(form.rows.last().expect("present").spec.kind, Kind::Loose);
    // K properties that each refer to the root: K^depth rows, cut at the budget.
    let mut properties = serde_json::Map::new();
    for k in 0..12 {
        properties.insert(format!("p{k}"), json!({"$ref": "#"}));
    }
    let fan = json!({"type": "object", "properties": properties, "required": (0..12).map(|k| format!("p{k}")).collect::<Vec<_>>()});
    let started = std::time::Instant::now();
    let why = Form::new(&fan, None).expect_err("refused");
    assert!(why.contains("more than"), "{why}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // Not objects at the root: said, not drawn.
    assert!(Form::new(&json!({"type": "array"}), None).is_err());
    // A property name with control characters is kept as it is (escaped where drawn).
    let odd = json!({"type": "object", "properties": {"a\u{1b}[2J/~b": {"type": "string"}}});
    let mut form = Form::new(&odd, None).expect("present");
    type_text(&mut form, "x");
    assert_eq!(form.value(), json!({"a\u{1b}[2J/~b": "x"}));
    assert_eq!(form.rows[0].pointer, "/a\u{1b}[2J~1~0b");
}

#[test]
fn a_long_text_scrolls_to_its_cursor() {
    let schema = json!({"type": "object", "properties": {"t": {"type": "string", "default": "x".repeat(5_000_000)}}});
    let mut form = Form::new(&schema, None).expect("a form");
    press(&mut form, KeyCode::End);
    type_text(&mut form, "END");
    assert!(
        form.value()["t"]
            .as_str()
            .is_some_and(|t| t.ends_with("xEND"))
    );
}

/// Pydantic's `Optional[Address] = None` and `Union[Cat, Dog, None] = None` (an `anyOf` of
/// `$ref`s and `null`, defaulting to null) are rows of the model and a shape chooser, left out
/// until filled in, never one "any JSON" row.
#[test]
fn optional_models_and_nullable_unions_are_rows_and_a_chooser() {
    let schema = json!({
        "$defs": {
            "Address": {"type": "object", "title": "Address", "properties": {"street": {"type": "string"}}, "required": ["street"]},
            "Cat": {"type": "object", "title": "Cat", "properties": {"meow": {"type": "boolean"}}, "required": ["meow"]},
            "Dog": {"type": "object", "title": "Dog", "properties": {"bark": {"type": "integer", "minimum": 0}}, "required": ["bark"], "additionalProperties": false}
        },
        "type": "object",
        "properties": {
            "home": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], "default": null},
            "pet2": {"anyOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}, {"type": "null"}], "default": null}
        }
    });
    let form = Form::new(&schema, None).expect("form");
    let row = |pointer: &str| {
        form.rows
            .iter()
            .find(|r| r.pointer == pointer)
            .unwrap_or_else(|| panic!("{pointer} in {:?}", form.rows))
    };
    assert_eq!(row("/home").spec.kind, Kind::Object);
    assert!(row("/home").spec.nullable && !row("/home").present);
    assert!(matches!(row("/home/street").spec.kind, Kind::Text { .. }));
    let Kind::Variants(shapes) = &row("/pet2").spec.kind else {
        panic!("{:?}", row("/pet2").spec.kind);
    };
    let names: Vec<&str> = shapes.options.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Cat", "Dog"]);
    assert!(row("/pet2").spec.nullable && !row("/pet2").present);
    // Left out, the value holds neither: the server's default (None) applies.
    assert_eq!(form.value(), json!({}));
    // A Dog with a bark below its minimum: the chooser says which shape failed and why, and
    // the row of the bark says it too (not only "not valid under any of the schemas").
    let given = json!({"pet2": {"bark": -3}});
    let mut form = Form::new(&schema, Some(&given)).expect("form");
    let checked = Compiled::new(&schema)
        .check(&form.value())
        .expect("checked");
    form.mark(&checked.violations);
    let problem = |pointer: &str| {
        form.rows
            .iter()
            .find(|r| r.pointer == pointer)
            .and_then(|r| r.problem.clone())
            .unwrap_or_default()
    };
    assert!(
        problem("/pet2").starts_with("not a valid Dog: at /bark (minimum)"),
        "{}",
        problem("/pet2")
    );
    assert!(
        problem("/pet2/bark").contains("less than the minimum of 0"),
        "{}",
        problem("/pet2/bark")
    );
}
