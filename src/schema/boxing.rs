//! Scalar boxing (`{"result": x}`): which framework wrapped a tool's output, in which field, and
//! whether we know (a marker) or guess (an unmarked shape). Pure.

use serde::Serialize;
use serde_json::Value;

/// Who boxed the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Boxer {
    /// fastmcp: `x-fastmcp-wrap-result` in the schema or `_meta.fastmcp.wrap_result` on the result.
    Fastmcp,
    /// dedalus-mcp: `x-dedalus-box: {"field": …}`.
    Dedalus,
    /// The official Python SDK: unmarked, root title `<fn>Output`, property title `Result`.
    PythonSdk,
    /// Unmarked `{result}` wrapper, as the TypeScript SDK projects non-object schemas for legacy clients.
    Unmarked,
}

impl Boxer {
    pub fn name(self) -> &'static str {
        match self {
            Boxer::Fastmcp => "fastmcp",
            Boxer::Dedalus => "dedalus",
            Boxer::PythonSdk => "python-sdk",
            Boxer::Unmarked => "unmarked",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Boxing {
    pub boxer: Boxer,
    pub field: String,
    /// True for a marker; false for a shape that only looks like boxing.
    pub certain: bool,
}

impl Boxing {
    /// Words for a badge: `boxed by fastmcp` or `probably boxed (python-sdk shape)`.
    pub fn describe(&self) -> String {
        if self.certain {
            format!("boxed by {} in `{}`", self.boxer.name(), self.field)
        } else {
            format!(
                "probably boxed in `{}` ({} shape)",
                self.field,
                self.boxer.name()
            )
        }
    }
}

/// Boxing declared or suggested by an output schema, refined by the result's `_meta` if any.
pub fn detect(output_schema: &Value, result_meta: Option<&Value>) -> Option<Boxing> {
    let fastmcp_meta = result_meta
        .and_then(|m| m.pointer("/fastmcp/wrap_result"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if output_schema.get("x-fastmcp-wrap-result") == Some(&Value::Bool(true)) || fastmcp_meta {
        return Some(Boxing {
            boxer: Boxer::Fastmcp,
            field: "result".into(),
            certain: true,
        });
    }
    if let Some(field) = output_schema
        .pointer("/x-dedalus-box/field")
        .and_then(Value::as_str)
    {
        return Some(Boxing {
            boxer: Boxer::Dedalus,
            field: field.into(),
            certain: true,
        });
    }
    unmarked(output_schema)
}

/// The unmarked wrapper: an object whose only property, and only required one, is `result`.
fn unmarked(schema: &Value) -> Option<Boxing> {
    let props = schema.get("properties")?.as_object()?;
    let required = schema.get("required")?.as_array()?;
    let only_result = props.len() == 1 && props.contains_key("result");
    if !only_result || required.len() != 1 || required[0] != "result" {
        return None;
    }
    if schema.get("type").is_some_and(|t| t != "object") {
        return None;
    }
    let python = schema
        .get("title")
        .and_then(Value::as_str)
        .is_some_and(|t| t.ends_with("Output"))
        && props["result"].get("title").and_then(Value::as_str) == Some("Result");
    Some(Boxing {
        boxer: if python {
            Boxer::PythonSdk
        } else {
            Boxer::Unmarked
        },
        field: "result".into(),
        certain: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wrapper(extra: Value) -> Value {
        let mut s = json!({"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"]});
        if let (Some(m), Value::Object(e)) = (s.as_object_mut(), extra) {
            m.extend(e);
        }
        s
    }

    #[test]
    fn fastmcp_marker_is_certain() {
        let b = detect(&wrapper(json!({"x-fastmcp-wrap-result": true})), None).expect("boxed");
        assert_eq!(
            (b.boxer, b.certain, b.field.as_str()),
            (Boxer::Fastmcp, true, "result")
        );
    }

    #[test]
    fn fastmcp_result_meta_is_certain_without_schema_marker() {
        let b = detect(
            &wrapper(json!({})),
            Some(&json!({"fastmcp": {"wrap_result": true}})),
        )
        .expect("boxed");
        assert_eq!((b.boxer, b.certain), (Boxer::Fastmcp, true));
    }

    #[test]
    fn dedalus_field_comes_from_the_marker() {
        let schema = json!({"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"],
            "additionalProperties": false, "x-dedalus-box": {"field": "value"}});
        let b = detect(&schema, None).expect("boxed");
        assert_eq!(
            (b.boxer, b.certain, b.field.as_str()),
            (Boxer::Dedalus, true, "value")
        );
    }

    #[test]
    fn python_sdk_shape_is_a_guess() {
        let schema = json!({"type": "object", "title": "addOutput", "properties": {"result": {"type": "integer", "title": "Result"}}, "required": ["result"]});
        let b = detect(&schema, None).expect("boxed");
        assert_eq!((b.boxer, b.certain), (Boxer::PythonSdk, false));
        assert_eq!(
            b.describe(),
            "probably boxed in `result` (python-sdk shape)"
        );
    }

    #[test]
    fn plain_result_wrapper_is_unmarked_guess() {
        let b = detect(&wrapper(json!({})), None).expect("boxed");
        assert_eq!((b.boxer, b.certain), (Boxer::Unmarked, false));
    }

    #[test]
    fn other_shapes_are_not_boxing() {
        assert!(detect(&json!({"type": "object", "properties": {"result": {}, "x": {}}, "required": ["result"]}), None).is_none());
        assert!(
            detect(
                &json!({"type": "object", "properties": {"result": {}}}),
                None
            )
            .is_none()
        );
        assert!(detect(&json!({"type": "array"}), None).is_none());
        assert!(
            detect(
                &json!({"type": "object", "properties": {"value": {}}, "required": ["value"]}),
                None
            )
            .is_none()
        );
    }
}
