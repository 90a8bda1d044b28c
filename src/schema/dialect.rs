//! The JSON Schema dialect a schema declares with `$schema`, and the validator draft it maps to. Pure.

use serde_json::Value;

/// A dialect we can validate, or the URI of one we cannot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dialect {
    Draft4,
    Draft6,
    Draft7,
    Draft2019,
    Draft2020,
    Unknown(String),
}

impl Dialect {
    /// The dialect of a root schema: its `$schema`, or 2020-12 when there is none (MCP's default).
    pub fn of(schema: &Value) -> Dialect {
        match schema.get("$schema") {
            None => Dialect::Draft2020,
            Some(Value::String(uri)) => Dialect::from_uri(uri),
            Some(other) => Dialect::Unknown(other.to_string()),
        }
    }

    fn from_uri(uri: &str) -> Dialect {
        let bare = uri.trim().trim_end_matches('#');
        let bare = bare
            .strip_prefix("https://")
            .or_else(|| bare.strip_prefix("http://"))
            .unwrap_or(bare);
        match bare {
            "json-schema.org/draft/2020-12/schema" => Dialect::Draft2020,
            "json-schema.org/draft/2019-09/schema" => Dialect::Draft2019,
            "json-schema.org/draft-07/schema" => Dialect::Draft7,
            "json-schema.org/draft-06/schema" => Dialect::Draft6,
            "json-schema.org/draft-04/schema" => Dialect::Draft4,
            _ => Dialect::Unknown(uri.to_string()),
        }
    }

    /// The short name used in verdicts: `2020-12`, `draft-07`, or `unknown <uri>`.
    pub fn name(&self) -> String {
        match self {
            Dialect::Draft4 => "draft-04".into(),
            Dialect::Draft6 => "draft-06".into(),
            Dialect::Draft7 => "draft-07".into(),
            Dialect::Draft2019 => "2019-09".into(),
            Dialect::Draft2020 => "2020-12".into(),
            Dialect::Unknown(uri) => format!("unknown {uri}"),
        }
    }

    /// The validator draft, or `None` for an unknown dialect (never validated as something else).
    pub fn draft(&self) -> Option<jsonschema::Draft> {
        Some(match self {
            Dialect::Draft4 => jsonschema::Draft::Draft4,
            Dialect::Draft6 => jsonschema::Draft::Draft6,
            Dialect::Draft7 => jsonschema::Draft::Draft7,
            Dialect::Draft2019 => jsonschema::Draft::Draft201909,
            Dialect::Draft2020 => jsonschema::Draft::Draft202012,
            Dialect::Unknown(_) => return None,
        })
    }

    /// Before 2019-09, `items` as an array is a tuple and `$ref` replaces its siblings.
    pub fn is_pre_2019(&self) -> bool {
        matches!(self, Dialect::Draft4 | Dialect::Draft6 | Dialect::Draft7)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn absent_schema_means_2020_12() {
        assert_eq!(Dialect::of(&json!({"type": "object"})), Dialect::Draft2020);
        assert_eq!(Dialect::of(&json!(true)), Dialect::Draft2020);
    }

    #[test]
    fn known_uris_in_their_spellings() {
        let cases = [
            ("http://json-schema.org/draft-07/schema#", Dialect::Draft7),
            ("https://json-schema.org/draft-07/schema", Dialect::Draft7),
            ("http://json-schema.org/draft-04/schema#", Dialect::Draft4),
            ("http://json-schema.org/draft-06/schema#", Dialect::Draft6),
            (
                "https://json-schema.org/draft/2019-09/schema",
                Dialect::Draft2019,
            ),
            (
                "https://json-schema.org/draft/2020-12/schema",
                Dialect::Draft2020,
            ),
        ];
        for (uri, dialect) in cases {
            assert_eq!(Dialect::of(&json!({ "$schema": uri })), dialect, "{uri}");
        }
    }

    #[test]
    fn unknown_uri_is_named_not_guessed() {
        let d = Dialect::of(&json!({"$schema": "https://example.com/my-dialect"}));
        assert_eq!(d.name(), "unknown https://example.com/my-dialect");
        assert!(d.draft().is_none());
        assert!(matches!(
            Dialect::of(&json!({"$schema": 7})),
            Dialect::Unknown(_)
        ));
    }
}
