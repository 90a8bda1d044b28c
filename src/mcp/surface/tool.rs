//! Tools as the project sees them, decoded one by one from raw `tools/list` JSON so one malformed
//! tool is reported instead of losing the whole page. Pure.

pub use crate::mcp::surface::schema_text::{Schema, compact};
use crate::schema::budget::count_values;
use crate::schema::headers::header_problems;
use crate::schema::lint::ToolSchemas;
use crate::schema::refs::{Document, RefTarget, all_refs};
use crate::schema::{Boxing, boxing};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Hints a server gives about a tool. Untrusted: shown, never relied on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Annotations {
    pub title: Option<String>,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
}

impl Annotations {
    /// Whether the tool says a call can be made again without harm: read-only, or explicitly
    /// not destructive (the spec's default for `destructiveHint` is true).
    pub fn safe_to_repeat(&self) -> bool {
        self.read_only == Some(true) || self.destructive == Some(false)
    }

    /// The hints in words, e.g. `["read-only", "idempotent"]`; unset hints are left out.
    pub fn words(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let pairs = [
            (self.read_only, "read-only", "writes"),
            (self.destructive, "destructive", "non-destructive"),
            (self.idempotent, "idempotent", "not idempotent"),
            (self.open_world, "open-world", "closed-world"),
        ];
        for (hint, yes, no) in pairs {
            match hint {
                Some(true) => out.push(yes),
                Some(false) => out.push(no),
                None => {}
            }
        }
        out
    }
}

/// What a tool list needs of a tool's schemas, found when it is decoded (the schemas are then
/// kept as text until a person opens the tool).
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaFacts {
    /// How the output schema boxes a scalar, when it does.
    pub boxing: Option<Boxing>,
    /// The property names of both schemas' top levels, space-separated (the filter reads them).
    pub property_names: String,
    /// A `$ref` in either schema that does not resolve inside it.
    pub has_problem: bool,
    /// The first broken `x-mcp-header` rule in the input schema (2026 clients drop the tool).
    pub header_problem: Option<String>,
    /// JSON values in both schemas, counted up to [`SchemaFacts::COUNTED`].
    pub values: usize,
}

impl SchemaFacts {
    pub const COUNTED: usize = 1_000_000;

    pub fn of(input: &Value, output: Option<&Value>) -> SchemaFacts {
        let schemas = || std::iter::once(input).chain(output);
        let property_names = schemas()
            .filter_map(|s| s.get("properties").and_then(Value::as_object))
            .flat_map(|props| props.keys().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let has_problem = schemas().any(|s| {
            let doc = Document::new(s);
            all_refs(s)
                .iter()
                .any(|(_, r)| !matches!(doc.resolve(r), RefTarget::Found { .. }))
        });
        SchemaFacts {
            boxing: output.and_then(|s| boxing::detect(s, None)),
            property_names,
            has_problem,
            header_problem: header_problems(input)
                .into_iter()
                .next()
                .map(|(at, why)| format!("{why} (at /inputSchema{at})")),
            values: schemas()
                .map(|s| count_values(s, Self::COUNTED))
                .sum::<usize>()
                .min(Self::COUNTED),
        }
    }
}

/// One tool definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub input_schema: Schema,
    /// `None` when the server defines no outputSchema.
    pub output_schema: Option<Schema>,
    /// What the tool list needs of the schemas, found while they were parsed.
    pub facts: SchemaFacts,
    pub annotations: Annotations,
    /// The definition as the server sent it, less the schemas held above (each kept once: a
    /// gateway's 10,000 tools are memory enough). [`Tool::definition`] puts them back.
    rest: Map<String, Value>,
    /// Where `inputSchema` and `outputSchema` stood among the keys.
    schema_places: [Option<usize>; 2],
}

impl Tool {
    /// Why a client of `era` must leave this tool out, if it must: in the 2026-07-28 era a tool
    /// whose `x-mcp-header` annotations break the rules is excluded by every client.
    pub fn excluded_in(&self, era: crate::schema::Era) -> Option<String> {
        match era {
            crate::schema::Era::Modern => self
                .facts
                .header_problem
                .as_ref()
                .map(|p| format!("clients of the 2026-07-28 era exclude it: {p}")),
            crate::schema::Era::Legacy => None,
        }
    }

    /// The definition exactly as the server sent it, keys in their order.
    pub fn definition(&self) -> Value {
        self.clone().into_definition()
    }

    /// [`Tool::definition`], the tool given up for it: each schema parsed once, not copied.
    pub fn into_definition(self) -> Value {
        let mut map = self.rest;
        let mut places = [
            (
                self.schema_places[0],
                "inputSchema",
                Some(self.input_schema),
            ),
            (self.schema_places[1], "outputSchema", self.output_schema),
        ];
        places.sort_by_key(|(at, ..)| *at);
        for (at, key, schema) in places {
            if let (Some(at), Some(schema)) = (at, schema) {
                map.shift_insert(at.min(map.len()), key.into(), schema.into_value());
            }
        }
        Value::Object(map)
    }

    /// `execution.taskSupport`: `required`, `optional` or `forbidden` (absent: forbidden).
    pub fn task_support(&self) -> Option<&str> {
        self.field("execution")?.get("taskSupport")?.as_str()
    }

    /// A field of the definition other than the schemas (`title`, `annotations`, `_meta`, …).
    pub fn field(&self, key: &str) -> Option<&Value> {
        self.rest.get(key)
    }

    /// The name a person reads: `title`, then `annotations.title`, then `name`.
    pub fn display_title(&self) -> &str {
        self.title
            .as_deref()
            .or(self.annotations.title.as_deref())
            .unwrap_or(&self.name)
    }

    pub fn schemas(&self) -> ToolSchemas<'_> {
        ToolSchemas {
            name: &self.name,
            description: self.description.as_deref(),
            input: &self.input_schema,
            output: self.output_schema.as_deref(),
        }
    }
}

/// A tool the server listed that could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RejectedTool {
    pub index: usize,
    pub name: Option<String>,
    pub reason: String,
}

impl std::fmt::Display for RejectedTool {
    /// "tool #3 `name` rejected: reason", escaped for a terminal.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tool #{}", self.index)?;
        if let Some(name) = &self.name {
            write!(f, " `{}`", crate::untrusted::line(name, 80))?;
        }
        write!(f, " rejected: {}", crate::untrusted::label(&self.reason))
    }
}

/// One `tools/list` page: its tools, the ones rejected, and the cursor to the next page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolPage {
    pub tools: Vec<Tool>,
    pub rejected: Vec<RejectedTool>,
    pub next_cursor: Option<String>,
}

/// Decodes a `tools/list` result, keeping every well-formed tool.
pub fn decode_page(result: &Value) -> Result<ToolPage, String> {
    decode_next_page(result, &mut HashSet::new())
}

/// Why a tool whose name came before is rejected.
pub const LISTED_TWICE: &str = "a tool of the same name came before it (calls go by name)";

/// Decodes one page of a listing; `seen` holds the names of earlier pages. A tool whose name
/// came before is rejected: calls go by name, so only the first can ever be called.
pub fn decode_next_page(result: &Value, seen: &mut HashSet<String>) -> Result<ToolPage, String> {
    let Some(items) = result.get("tools").and_then(Value::as_array) else {
        return Err("the tools/list result has no `tools` array".into());
    };
    let mut page = ToolPage {
        next_cursor: match result.get("nextCursor") {
            Some(Value::String(c)) => Some(c.clone()),
            _ => None,
        },
        ..ToolPage::default()
    };
    for (index, item) in items.iter().enumerate() {
        match decode_tool(item) {
            Ok(tool) if !seen.insert(tool.name.clone()) => page.rejected.push(RejectedTool {
                index,
                name: Some(tool.name),
                reason: LISTED_TWICE.into(),
            }),
            Ok(tool) => page.tools.push(tool),
            Err(reason) => page.rejected.push(RejectedTool {
                index,
                name: item.get("name").and_then(Value::as_str).map(String::from),
                reason,
            }),
        }
    }
    Ok(page)
}

/// Decodes one tool; optional fields of the wrong type are treated as absent.
pub fn decode_tool(item: &Value) -> Result<Tool, String> {
    let Some(obj) = item.as_object() else {
        return Err(format!(
            "a tool must be an object, got {}",
            crate::schema::verdict::kind_of(item)
        ));
    };
    let name = match obj.get("name") {
        Some(Value::String(n)) if !n.is_empty() => n.clone(),
        Some(Value::String(_)) => return Err("empty `name`".into()),
        Some(other) => {
            return Err(format!(
                "`name` is {}, not a string",
                crate::schema::verdict::kind_of(other)
            ));
        }
        None => return Err("no `name`".into()),
    };
    match obj.get("inputSchema") {
        Some(Value::Object(_)) => {}
        Some(other) => {
            return Err(format!(
                "`inputSchema` is {}, not an object",
                crate::schema::verdict::kind_of(other)
            ));
        }
        None => return Err("no `inputSchema`".into()),
    }
    let text = |key: &str| obj.get(key).and_then(Value::as_str).map(String::from);
    let ann = obj.get("annotations");
    let hint = |key: &str| ann.and_then(|a| a.get(key)).and_then(Value::as_bool);
    let annotations = Annotations {
        title: ann
            .and_then(|a| a.get("title"))
            .and_then(Value::as_str)
            .map(String::from),
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        idempotent: hint("idempotentHint"),
        open_world: hint("openWorldHint"),
    };
    let (title, description) = (text("title"), text("description"));
    let place = |key: &str| obj.keys().position(|k| k == key);
    let input = obj.get("inputSchema").unwrap_or(&Value::Null);
    let output = match obj.get("outputSchema") {
        Some(Value::Null) | None => None,
        Some(schema) => Some(schema),
    };
    let facts = SchemaFacts::of(input, output);
    let output_schema = output.map(Schema::new);
    let schema_places = [
        place("inputSchema"),
        output_schema.as_ref().and(place("outputSchema")),
    ];
    let held =
        |key: &str| key == "inputSchema" || (key == "outputSchema" && output_schema.is_some());
    let mut rest = Map::with_capacity(obj.keys().filter(|k| !held(k)).count());
    for (key, value) in obj.iter().filter(|(k, _)| !held(k)) {
        rest.insert(key.clone(), compact(value));
    }
    let input_schema = Schema::new(input);
    Ok(Tool {
        title,
        description,
        output_schema,
        annotations,
        name,
        input_schema,
        facts,
        rest,
        schema_places,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_definition_comes_back_exactly_with_each_schema_held_once() {
        for text in [
            r#"{"name":"a","inputSchema":{"type":"object"},"title":"T","outputSchema":{"type":"object"},"_meta":{"x":1}}"#,
            r#"{"outputSchema":{"type":"object"},"name":"b","inputSchema":{"type":"object"}}"#,
            r#"{"name":"c","outputSchema":null,"inputSchema":{"type":"object"}}"#,
            r#"{"name":"d","inputSchema":{"type":"object"},"outputSchema":"nonsense"}"#,
        ] {
            let raw: Value = serde_json::from_str(text).expect("json");
            let tool = decode_tool(&raw).expect("tool");
            assert_eq!(
                serde_json::to_string(&tool.definition()).expect("json"),
                text
            );
            assert!(tool.field("inputSchema").is_none());
        }
    }

    #[test]
    fn good_tools_survive_a_bad_neighbour() {
        let page = decode_page(&json!({"tools": [
            {"name": "ok", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
            {"name": 7, "inputSchema": {}},
            {"name": "no-schema"},
            "garbage",
            {"name": "also-ok", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}, "title": 5}
        ], "nextCursor": "p2"}))
        .expect("page");
        let names: Vec<&str> = page.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["ok", "also-ok"]);
        assert_eq!(page.next_cursor.as_deref(), Some("p2"));
        let reasons: Vec<&str> = page.rejected.iter().map(|r| r.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "`name` is a number, not a string",
                "no `inputSchema`",
                "a tool must be an object, got a string"
            ]
        );
        assert_eq!(page.rejected[1].name.as_deref(), Some("no-schema"));
        assert_eq!(page.tools[0].annotations.words(), ["read-only"]);
        assert_eq!(page.tools[1].title, None);
    }

    #[test]
    fn a_page_without_tools_is_an_error() {
        assert!(decode_page(&json!({"items": []})).is_err());
    }
}
