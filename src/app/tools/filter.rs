//! The tools filter: fuzzy over names and titles, plain words over descriptions and property
//! names (fuzzy there matches nearly everything), with matched name letters for highlighting. Pure.

use crate::app::tools::entry::ToolEntry;
use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use std::sync::Arc;

/// One visible tool: its index in the full list and the matched char positions in its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visible {
    pub index: usize,
    pub name_hits: Vec<u32>,
}

#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub text: String,
    /// True while the user is typing into the filter.
    pub editing: bool,
    pub visible: Vec<Visible>,
}

impl Filter {
    /// Recomputes the visible tools: all in list order without a filter, else best match first.
    pub fn apply(&mut self, tools: &[Arc<ToolEntry>]) {
        if self.text.trim().is_empty() {
            self.visible = (0..tools.len())
                .map(|index| Visible {
                    index,
                    name_hits: Vec::new(),
                })
                .collect();
            return;
        }
        let pattern = Pattern::parse(&self.text, CaseMatching::Ignore, Normalization::Smart);
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        let words: Vec<String> = self
            .text
            .to_lowercase()
            .split_whitespace()
            .map(String::from)
            .collect();
        let mut scored: Vec<(u32, Visible)> = tools
            .iter()
            .enumerate()
            .filter_map(|(index, entry)| {
                let mut name_hits = Vec::new();
                pattern.indices(
                    Utf32Str::new(&entry.tool.name, &mut buf),
                    &mut matcher,
                    &mut name_hits,
                );
                name_hits.sort_unstable();
                name_hits.dedup();
                // A name or title match outranks one found only in descriptions or properties.
                let score = match pattern.score(Utf32Str::new(&entry.names, &mut buf), &mut matcher)
                {
                    Some(s) => s + 1_000,
                    None if words.iter().all(|w| entry.haystack.contains(w.as_str())) => 1,
                    None => return None,
                };
                Some((score, Visible { index, name_hits }))
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.index.cmp(&b.1.index)));
        self.visible = scored.into_iter().map(|(_, v)| v).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::surface::tool::decode_tool;
    use serde_json::json;

    fn entries() -> Vec<Arc<ToolEntry>> {
        [
            json!({"name": "build_tree", "description": "Builds a tree", "inputSchema": {"type": "object"}}),
            json!({"name": "search", "description": "Searches documents", "inputSchema": {"type": "object", "properties": {"query": {}}}}),
            json!({"name": "echo", "title": "Echo back", "description": "Returns text", "inputSchema": {"type": "object"}}),
        ]
        .iter()
        .map(|t| {
                let tool = decode_tool(t).expect("tool");
                Arc::new(ToolEntry::new(tool, crate::schema::Era::Legacy))
            })
        .collect()
    }

    fn names(filter: &Filter, tools: &[Arc<ToolEntry>]) -> Vec<String> {
        filter
            .visible
            .iter()
            .map(|v| tools[v.index].tool.name.clone())
            .collect()
    }

    #[test]
    fn names_match_fuzzily_and_descriptions_by_words() {
        let tools = entries();
        let mut f = Filter {
            text: "bltr".into(),
            ..Filter::default()
        };
        f.apply(&tools);
        assert_eq!(names(&f, &tools), ["build_tree"]);
        assert_eq!(f.visible[0].name_hits, [0, 3, 6, 7]);
        f.text = "query".into();
        f.apply(&tools);
        assert_eq!(names(&f, &tools), ["search"], "property names are searched");
        f.text = "documents".into();
        f.apply(&tools);
        assert_eq!(names(&f, &tools), ["search"]);
        f.text = "back".into();
        f.apply(&tools);
        assert_eq!(names(&f, &tools), ["echo"], "titles are searched");
        f.text = String::new();
        f.apply(&tools);
        assert_eq!(names(&f, &tools), ["build_tree", "search", "echo"]);
    }
}
