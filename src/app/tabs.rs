//! The tabs across the left pane: Tools, then Resources, Templates, Prompts and Skills where the
//! server declares them (`resources` gives the first two, `prompts` the third, the skills
//! extension the last). Pure.

use crate::app::library::state::Kind;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Tools,
    Library(Kind),
}

impl Tab {
    /// The tabs a server with these capabilities has, in order.
    pub fn declared(capabilities: Option<&Value>) -> Vec<Tab> {
        let declares = |name: &str| {
            capabilities.is_some_and(|c| crate::mcp::session::requests::declares(c, name))
        };
        let mut tabs = vec![Tab::Tools];
        if declares("resources") {
            tabs.extend([Tab::Library(Kind::Resource), Tab::Library(Kind::Template)]);
        }
        if declares("prompts") {
            tabs.push(Tab::Library(Kind::Prompt));
        }
        if capabilities.is_some_and(crate::skills::declared) {
            tabs.push(Tab::Library(Kind::Skill));
        }
        tabs
    }

    /// The tab `step` places on from `self` among `tabs`, round (`self` when it is not there).
    pub fn step(self, tabs: &[Tab], forward: bool) -> Tab {
        let Some(at) = tabs.iter().position(|t| *t == self) else {
            return self;
        };
        let next = if forward {
            (at + 1) % tabs.len()
        } else {
            (at + tabs.len() - 1) % tabs.len()
        };
        tabs[next]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tab_for_each_declared_kind_and_steps_go_round() {
        assert_eq!(Tab::declared(None), [Tab::Tools]);
        let prompts = json!({"tools": {}, "prompts": {}});
        assert_eq!(
            Tab::declared(Some(&prompts)),
            [Tab::Tools, Tab::Library(Kind::Prompt)]
        );
        let all = Tab::declared(Some(&json!({"resources": {}, "prompts": {}})));
        assert_eq!(all.len(), 4);
        assert_eq!(Tab::Tools.step(&all, false), Tab::Library(Kind::Prompt));
        assert_eq!(Tab::Library(Kind::Prompt).step(&all, true), Tab::Tools);
        assert_eq!(Tab::Tools.step(&all, true), Tab::Library(Kind::Resource));
        let skills = json!({"extensions": {"io.modelcontextprotocol/skills": {}}});
        assert_eq!(
            Tab::declared(Some(&skills)),
            [Tab::Tools, Tab::Library(Kind::Skill)]
        );
        let gone = Tab::Library(Kind::Template);
        assert_eq!(gone.step(&[Tab::Tools], true), gone, "not there: stays");
    }
}
