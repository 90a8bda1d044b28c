//! One function per MCP method the inspector asks beyond tools, typed, so the TUI and the
//! headless commands build the same request and read capabilities by the same rule.

use crate::mcp::session::error::RequestError;
use crate::mcp::session::{Listing, ServerSummary, Session};
use rmcp::service::PeerRequestOptions;
use serde_json::{Map, Value, json};

/// A library list a server may declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LibraryList {
    Resources,
    Templates,
    Prompts,
}

impl LibraryList {
    pub const ALL: [LibraryList; 3] = [
        LibraryList::Resources,
        LibraryList::Templates,
        LibraryList::Prompts,
    ];

    /// The capability that declares it.
    pub fn capability(self) -> &'static str {
        match self {
            LibraryList::Resources | LibraryList::Templates => "resources",
            LibraryList::Prompts => "prompts",
        }
    }

    /// Its method.
    pub fn method(self) -> &'static str {
        match self {
            LibraryList::Resources => "resources/list",
            LibraryList::Templates => "resources/templates/list",
            LibraryList::Prompts => "prompts/list",
        }
    }

    /// The result's field that holds the items.
    pub fn field(self) -> &'static str {
        match self {
            LibraryList::Resources => "resources",
            LibraryList::Templates => "resourceTemplates",
            LibraryList::Prompts => "prompts",
        }
    }
}

/// What a completion is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompletionRef {
    /// A prompt's argument: the prompt's name.
    Prompt(String),
    /// A resource template's variable: the template.
    Template(String),
}

/// A `completion/complete` request: the argument being typed, its value so far, and the other
/// arguments as filled (sent only when there are some: `context` is optional).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub reference: CompletionRef,
    pub argument: String,
    pub value: String,
    pub context: Map<String, Value>,
}

impl Completion {
    fn params(&self) -> Value {
        let reference = match &self.reference {
            CompletionRef::Prompt(name) => json!({"type": "ref/prompt", "name": name}),
            CompletionRef::Template(uri) => json!({"type": "ref/resource", "uri": uri}),
        };
        let mut params = json!({
            "ref": reference,
            "argument": {"name": self.argument, "value": self.value},
        });
        if !self.context.is_empty() {
            params["context"] = json!({ "arguments": self.context });
        }
        params
    }
}

/// A request that opens a library item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenRequest {
    /// `resources/read`.
    Read { uri: String },
    /// `prompts/get`, with the arguments given (empty ones left out by the caller).
    GetPrompt {
        name: String,
        arguments: Map<String, Value>,
    },
    /// A skill (SEP-2640) loaded from its entry as listed: its `SKILL.md` read and verified
    /// (see `Session::load_skill`), given as a read's result.
    LoadSkill { entry: Value },
}

impl OpenRequest {
    /// Its method, for messages.
    pub fn method(&self) -> &'static str {
        match self {
            OpenRequest::Read { .. } => "resources/read",
            OpenRequest::GetPrompt { .. } => "prompts/get",
            OpenRequest::LoadSkill { .. } => "loading the skill",
        }
    }
}

impl ServerSummary {
    /// Whether the server declares `capability`: present and not `null`.
    pub fn declares(&self, capability: &str) -> bool {
        declares(&self.capabilities, capability)
    }
}

/// Whether `capabilities` declare `capability`: present and not `null`.
pub fn declares(capabilities: &Value, capability: &str) -> bool {
    capabilities.get(capability).is_some_and(|c| !c.is_null())
}

impl Session {
    /// Hands the server a new list of roots (`file://` URIs; the TUI's roots editor): the next
    /// `roots/list` answers it, and a server of the sessionful era is told
    /// (`notifications/roots/list_changed`). The 2026 era has no notifications from the client:
    /// its server asks again within its next request (`input_required`). Says which.
    pub async fn set_roots(&self, uris: Vec<String>) -> Result<&'static str, String> {
        let Some(roots) = &self.service.service().client.roots else {
            return Err("roots are not declared (--no-roots)".into());
        };
        roots.set(uris);
        if self.server.era == crate::schema::Era::Modern {
            return Ok("the server asks for them within its next request");
        }
        (self.peer().notify_roots_list_changed().await)
            .map_err(|e| format!("the server could not be told: {e}"))?;
        Ok("the server was told (notifications/roots/list_changed)")
    }

    /// Every item of one library list, across its pages.
    pub async fn list_library(&self, list: LibraryList) -> Result<Listing, RequestError> {
        self.list_all(list.method(), list.field()).await
    }

    /// `completion/complete`.
    pub async fn complete(&self, completion: &Completion) -> Result<Value, RequestError> {
        self.request("completion/complete", Some(completion.params()))
            .await
    }

    /// Any request the user names (`mcp-inspect request METHOD`), its result as sent; a
    /// result that asks for input (SEP-2322) is settled as for every request.
    pub async fn any_request(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, RequestError> {
        self.request(method, params).await
    }

    /// Any request whose `_meta` declares, for this request alone, the client's capabilities
    /// and `extension` beside them (2026 era: capabilities travel with each request, SEP-2575);
    /// its result as sent, never settled. How `conform` opts one call into the tasks
    /// extension (SEP-2663) without declaring it for every request.
    pub async fn any_request_declaring(
        &self,
        method: &str,
        params: Option<Value>,
        extension: &str,
    ) -> Result<Value, RequestError> {
        let options = PeerRequestOptions::with_timeout(self.timeout);
        let handle = (self.send(method, params, self.declaring(options, extension))).await?;
        self.finish(handle).await
    }

    /// Every skill entry (`skills/list`, SEP-2640), across its pages, as sent.
    pub async fn list_skills(&self) -> Result<Listing, RequestError> {
        self.list_all("skills/list", "skills").await
    }

    /// One skill's entry by the URI of its `SKILL.md` (`skills/get`): the result as sent.
    pub async fn get_skill(&self, uri: &str) -> Result<Value, RequestError> {
        self.request("skills/get", Some(json!({ "uri": uri })))
            .await
    }

    pub async fn open(&self, request: &OpenRequest) -> Result<Value, RequestError> {
        let params = match request {
            OpenRequest::Read { uri } => json!({ "uri": uri }),
            OpenRequest::GetPrompt { name, arguments } => {
                json!({"name": name, "arguments": arguments})
            }
            OpenRequest::LoadSkill { entry } => return self.open_skill(entry).await,
        };
        self.request(request.method(), Some(params)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completion_sends_context_only_when_there_is_some() {
        let mut completion = Completion {
            reference: CompletionRef::Prompt("greet".into()),
            argument: "name".into(),
            value: "A".into(),
            context: Map::new(),
        };
        assert_eq!(
            completion.params(),
            json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "name", "value": "A"}})
        );
        completion
            .context
            .insert("team".into(), Value::String("x".into()));
        assert_eq!(
            completion.params()["context"],
            json!({"arguments": {"team": "x"}})
        );
    }

    #[test]
    fn a_capability_set_to_null_is_not_declared() {
        let capabilities = json!({"prompts": {}, "resources": null});
        assert!(declares(&capabilities, "prompts"));
        assert!(!declares(&capabilities, "resources"));
        assert!(!declares(&capabilities, "completions"));
    }
}
