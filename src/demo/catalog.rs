//! The demo server's tools as JSON definitions: each one exercises something an inspector must
//! handle (nesting, unions, recursion, dialects, boxing, bad outputs, errors, progress).

use serde_json::{Value, json};

/// Every tool, as advertised to a client of the given era (`modern` allows non-object output
/// schemas; for legacy clients they are projected into a `{result}` box, as the TypeScript SDK does).
pub fn tools(modern: bool, extra: bool) -> Vec<Value> {
    let mut list = vec![
        json!({"name": "echo", "title": "Echo", "description": "Returns the message as text.",
            "inputSchema": {"type": "object", "properties": {"message": {"type": "string", "minLength": 1, "description": "What to echo"}}, "required": ["message"]},
            "annotations": {"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}}),
        json!({"name": "search", "title": "Search documents", "description": "Searches a small built-in corpus.\nResults are scored between 0 and 1.",
            "inputSchema": search_input(), "outputSchema": search_output(), "annotations": {"readOnlyHint": true}}),
        json!({"name": "configure", "description": "Accepts a configuration that uses oneOf, allOf, if/then/else, dependentRequired, patternProperties, prefixItems and not.",
            "inputSchema": configure_input(),
            "outputSchema": {"type": "object", "properties": {"applied": {"type": "boolean"}, "summary": {"type": "string"}}, "required": ["applied", "summary"]}}),
        json!({"name": "build_tree", "description": "Builds a tree of the given depth (recursive $defs).",
            "inputSchema": {"type": "object", "properties": {"depth": {"type": "integer", "minimum": 1, "maximum": 5, "default": 2}}},
            "outputSchema": tree_output()}),
        json!({"name": "lookup_user", "description": "Looks up a user (draft-07 schemas with definitions, as zod-based servers write them).",
            "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"id": {"type": "string", "format": "uuid"}}, "required": ["id"], "additionalProperties": false},
            "outputSchema": user_output(), "annotations": {"readOnlyHint": true}}),
        json!({"name": "add", "description": "Adds two integers. Boxed the fastmcp way (x-fastmcp-wrap-result).",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"], "additionalProperties": false},
            "outputSchema": {"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"], "x-fastmcp-wrap-result": true}}),
        json!({"name": "word_count", "description": "Counts words. Boxed the dedalus way (x-dedalus-box names the field).",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            "outputSchema": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0}}, "required": ["count"], "additionalProperties": false, "x-dedalus-box": {"field": "count"}}}),
        json!({"name": "is_even", "description": "Tells whether a number is even. Boxed like the official Python SDK: no marker.",
            "inputSchema": {"type": "object", "title": "is_evenArguments", "properties": {"n": {"type": "integer", "title": "N"}}, "required": ["n"]},
            "outputSchema": {"type": "object", "title": "is_evenOutput", "properties": {"result": {"type": "boolean", "title": "Result"}}, "required": ["result"]}}),
        json!({"name": "primes", "description": "The first N primes: an array output schema (boxed for legacy clients).",
            "inputSchema": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0, "maximum": 100, "default": 5}}},
            "outputSchema": for_era(json!({"type": "array", "items": {"type": "integer"}}), modern)}),
        json!({"name": "pi", "description": "Pi: a primitive number output schema (boxed for legacy clients).",
            "inputSchema": {"type": "object"}, "outputSchema": for_era(json!({"type": "number"}), modern)}),
        json!({"name": "falsy", "description": "Returns a falsy value (0, false, \"\" or null) as structuredContent.",
            "inputSchema": {"type": "object", "properties": {"kind": {"enum": ["zero", "false", "empty", "null"]}}, "required": ["kind"]},
            "outputSchema": for_era(json!({"type": ["integer", "boolean", "string", "null"]}), modern)}),
        json!({"name": "bad_output", "description": "Returns structuredContent that violates its own outputSchema in three places.",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0}, "status": {"enum": ["ok", "degraded"]}, "items": {"type": "array", "items": {"type": "string"}}}, "required": ["count", "status", "items"]}}),
        json!({"name": "dangling_ref", "description": "Declares an outputSchema whose $ref points nowhere: results cannot be checked.",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "properties": {"value": {"$ref": "#/$defs/Missing"}}}}),
        json!({"name": "fail", "description": "Always fails with isError: true.",
            "inputSchema": {"type": "object", "properties": {"reason": {"type": "string", "default": "the demo says no"}}},
            "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}}),
        json!({"name": "slow", "description": "Works for a while, reporting progress and logging each step at a level rising from debug (set the lowest shown with L or --log-level); honours cancellation.",
            "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number", "minimum": 0, "maximum": 120, "default": 5}, "steps": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 10}}},
            "annotations": {"readOnlyHint": true}}),
        json!({"name": "delete_everything", "title": "Delete everything", "description": "Destructive-hinted (it deletes nothing: this is a demo).",
            "inputSchema": {"type": "object", "properties": {"confirm": {"const": true}}, "required": ["confirm"]},
            "annotations": {"destructiveHint": true, "readOnlyHint": false, "idempotentHint": false, "openWorldHint": true}}),
        json!({"name": "toggle_extra", "description": "Adds or removes the tool `extra` and announces that the tool list changed.",
            "inputSchema": {"type": "object"}}),
    ];
    if extra {
        list.push(json!({"name": "extra", "description": "Appears and disappears with toggle_extra.", "inputSchema": {"type": "object"}}));
    }
    list
}

/// Legacy clients get a non-object schema wrapped as `{result: S}`, without a marker.
fn for_era(schema: Value, modern: bool) -> Value {
    if modern {
        schema
    } else {
        json!({"type": "object", "properties": {"result": schema}, "required": ["result"]})
    }
}

fn search_input() -> Value {
    json!({"type": "object", "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Words to look for"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
        "mode": {"enum": ["fast", "thorough"], "default": "fast", "description": "How hard to look"},
        "filters": {"type": "object", "properties": {
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "since": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}], "default": null}
        }, "additionalProperties": false}
    }, "required": ["query"], "additionalProperties": false})
}

fn search_output() -> Value {
    json!({"type": "object", "properties": {
        "results": {"type": "array", "items": {"type": "object", "properties": {
            "title": {"type": "string"}, "score": {"type": "number", "minimum": 0, "maximum": 1}, "url": {"type": "string", "format": "uri"}
        }, "required": ["title", "score", "url"]}},
        "total": {"type": "integer", "minimum": 0}
    }, "required": ["results", "total"]})
}

fn configure_input() -> Value {
    json!({"type": "object", "properties": {
        "target": {"oneOf": [
            {"type": "object", "title": "File", "properties": {"kind": {"const": "file"}, "path": {"type": "string"}}, "required": ["kind", "path"]},
            {"type": "object", "title": "Url", "properties": {"kind": {"const": "url"}, "url": {"type": "string", "format": "uri"}}, "required": ["kind", "url"]}
        ]},
        "retry": {"allOf": [{"$ref": "#/$defs/Retry"}, {"properties": {"jitter": {"type": "boolean", "default": true}}}]},
        "mode": {"enum": ["copy", "move"]},
        "overwrite": {"type": "boolean"},
        "labels": {"type": "object", "patternProperties": {"^[a-z]+$": {"type": "string"}}, "additionalProperties": false},
        "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false},
        "name": {"type": "string", "not": {"const": "root"}, "deprecated": true}
    }, "required": ["target", "mode"],
    "if": {"properties": {"mode": {"const": "move"}}}, "then": {"required": ["overwrite"]},
    "dependentRequired": {"overwrite": ["mode"]},
    "$defs": {"Retry": {"type": "object", "properties": {
        "attempts": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
        "backoff": {"enum": ["linear", "exponential"]}}}}})
}

fn tree_output() -> Value {
    json!({"type": "object", "description": "A tree node.", "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
    }, "required": ["name", "children"],
    "$defs": {"Node": {"type": "object", "description": "A tree node.", "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
    }, "required": ["name", "children"]}}})
}

fn user_output() -> Value {
    json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "properties": {"user": {"$ref": "#/definitions/User"}}, "required": ["user"], "additionalProperties": false,
        "definitions": {"User": {"type": "object", "properties": {
            "id": {"type": "string", "format": "uuid"},
            "email": {"type": "string", "format": "email"},
            "role": {"type": "string", "enum": ["admin", "member"]},
            "manager": {"anyOf": [{"$ref": "#/definitions/User"}, {"type": "null"}]}
        }, "required": ["id", "email", "role"], "additionalProperties": false}}})
}
