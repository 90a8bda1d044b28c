//! What a tapped host was given of the server's resources, templates and prompts: each list
//! answer recorded, a page after one that said more follow added to it, as the Resources,
//! Templates and Prompts tabs show a connection's own listing (for the TUI attached to a tap).

use crate::app::library::state::{Item, Kind};
use crate::app::update::Msg;
use serde_json::Value;

/// Items kept of each kind (a server may list without end; the tabs show what was kept).
const MAX_ITEMS: usize = 10_000;

/// Why a tab is empty before the host listed anything.
pub const NOT_YET: &str = "attached to a tap: the host has not listed resources, templates or prompts yet (they appear here when it does)";

/// The listing of each kind, and whether its last page said more follow.
#[derive(Default)]
pub struct HostLibrary {
    kinds: [(Vec<Value>, bool); 3],
    cut: bool,
}

/// The list methods, the kind each lists, and the field of the answer that holds them.
const LISTS: [(&str, Kind, &str); 3] = [
    ("resources/list", Kind::Resource, "resources"),
    (
        "resources/templates/list",
        Kind::Template,
        "resourceTemplates",
    ),
    ("prompts/list", Kind::Prompt, "prompts"),
];

impl HostLibrary {
    /// Takes the server's answer to `method` when it is a list of the library: what the UI is
    /// told then.
    pub fn answered(&mut self, method: &str, result: &Value) -> Option<Msg> {
        let at = LISTS.iter().position(|(m, ..)| *m == method)?;
        let (items, more) = &mut self.kinds[at];
        if !*more {
            items.clear();
        }
        let listed = result[LISTS[at].2].as_array().into_iter().flatten();
        for item in listed.filter(|i| i.is_object()) {
            if items.len() == MAX_ITEMS {
                self.cut = true;
                break;
            }
            items.push(item.clone());
        }
        *more = result.get("nextCursor").is_some_and(|c| !c.is_null());
        Some(self.listed())
    }

    /// Everything listed so far, as the library's message.
    pub fn listed(&self) -> Msg {
        let items = (LISTS.iter().zip(&self.kinds))
            .flat_map(|((_, kind, _), (items, _))| {
                items.iter().map(|json| Item {
                    kind: *kind,
                    json: json.clone(),
                })
            })
            .collect();
        let problems = match self.cut {
            true => vec![format!(
                "more than {MAX_ITEMS} of a kind were listed: the rest are not kept"
            )],
            false => Vec::new(),
        };
        Msg::LibraryListed { items, problems }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(msg: &Msg) -> Vec<String> {
        let Msg::LibraryListed { items, .. } = msg else {
            panic!("not a listing")
        };
        (items.iter())
            .map(|i| {
                format!(
                    "{}:{}",
                    i.kind.heading(),
                    i.json["name"].as_str().unwrap_or("?")
                )
            })
            .collect()
    }

    #[test]
    fn pages_add_up_and_a_new_listing_replaces_the_last() {
        let mut library = HostLibrary::default();
        assert!(
            library
                .answered("tools/list", &json!({"tools": []}))
                .is_none()
        );
        let first = json!({"resources": [{"name": "a", "uri": "x:a"}, 7], "nextCursor": "2"});
        library.answered("resources/list", &first);
        library.answered("prompts/list", &json!({"prompts": [{"name": "p"}]}));
        let second = library.answered("resources/list", &json!({"resources": [{"name": "b"}]}));
        let told = names(&second.expect("told"));
        assert_eq!(told, ["Resources:a", "Resources:b", "Prompts:p"]);
        let again = library.answered("resources/list", &json!({"resources": [{"name": "c"}]}));
        assert_eq!(names(&again.expect("told")), ["Resources:c", "Prompts:p"]);
    }

    #[test]
    fn an_endless_listing_is_kept_cut() {
        let mut library = HostLibrary::default();
        let page: Vec<Value> = (0..4_000).map(|i| json!({"name": i.to_string()})).collect();
        let mut last = None;
        for _ in 0..4 {
            last = library.answered("prompts/list", &json!({"prompts": page, "nextCursor": "n"}));
        }
        let Some(Msg::LibraryListed { items, problems }) = last else {
            panic!("not a listing")
        };
        assert_eq!(items.len(), MAX_ITEMS);
        assert!(problems[0].contains("not kept"), "{problems:?}");
    }
}
