//! One output schema compiled once, shared (an `Arc`) by everything that judges a tool's
//! results: the call panel and the connection task, results kept from earlier sessions judged
//! again, `call`, `verify` (every attempt and shrink), `load` and `test`. Compiled the first
//! time a result is judged, on the thread that judges it (never the UI's). Pure.

use super::Compiled;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// A tool's output schema with its validator.
pub struct Judge {
    pub schema: Value,
    compiled: std::sync::OnceLock<Compiled>,
}

impl Judge {
    pub fn new(schema: &Value) -> Judge {
        Judge {
            schema: schema.clone(),
            compiled: std::sync::OnceLock::new(),
        }
    }

    /// Its validator, compiled now if it was not yet.
    pub fn compiled(&self) -> &Compiled {
        self.compiled.get_or_init(|| Compiled::new(&self.schema))
    }

    /// As the verdict takes it.
    pub fn parts(&self) -> (&Value, &Compiled) {
        (&self.schema, self.compiled())
    }
}

impl PartialEq for Judge {
    fn eq(&self, other: &Self) -> bool {
        self.schema == other.schema
    }
}

impl Eq for Judge {}

impl std::fmt::Debug for Judge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Judge")
    }
}

/// The judges of one connection's tools: each compiled the first time a result of its tool
/// is judged, and again only when the tool's output schema changes.
#[derive(Default)]
pub struct Judges {
    by_tool: HashMap<String, Arc<Judge>>,
}

impl Judges {
    /// `tool`'s judge for `schema` (none without one).
    pub fn of(&mut self, tool: &str, schema: Option<&Value>) -> Option<Arc<Judge>> {
        let Some(schema) = schema else {
            self.by_tool.remove(tool);
            return None;
        };
        match self.by_tool.get(tool) {
            Some(judge) if judge.schema == *schema => Some(Arc::clone(judge)),
            _ => {
                let judge = Arc::new(Judge::new(schema));
                self.by_tool.insert(tool.to_string(), Arc::clone(&judge));
                Some(judge)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_judge_is_compiled_once_per_tool_and_schema() {
        let mut judges = Judges::default();
        let schema = json!({"type": "object"});
        let first = judges.of("t", Some(&schema)).expect("a judge");
        let again = judges.of("t", Some(&schema)).expect("a judge");
        assert!(Arc::ptr_eq(&first, &again), "the same compiled schema");
        let changed = judges
            .of("t", Some(&json!({"type": "array"})))
            .expect("a judge");
        assert!(
            !Arc::ptr_eq(&first, &changed),
            "a changed schema is compiled again"
        );
        assert!(judges.of("t", None).is_none());
    }
}
