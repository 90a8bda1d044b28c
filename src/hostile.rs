//! The built-in hostile MCP server (`mcp-inspect hostile-server`): a hand-written stdio JSON-RPC
//! peer that misbehaves on purpose (escape sequences everywhere, schema bombs, crashes, silence,
//! huge results, floods, garbage), each misbehaviour selectable, so tests and users can see how
//! an inspector copes. It is not built on rmcp because rmcp would refuse to send most of this.

mod http;
mod misconduct;
mod payloads;
mod skills;
mod tools;
mod wire;

use clap::ValueEnum;
use serde_json::{Value, json};
use std::io::BufRead;
use wire::Wire;

/// Connection-wide misbehaviours, on top of the hostile tools that are always listed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Attack {
    /// 10,000 notifications a second (logs, stray progress, stderr) from the handshake on.
    Flood,
    /// Non-JSON lines, wrong-shaped JSON and answers to unknown ids before every answer; an
    /// empty result to any method it does not know and to a notification; a version from the
    /// future echoed; an id past 2^53 answered rounded; a batch served; a read-only
    /// `progress_liar` whose progress breaks every rule and ignores cancellation.
    Garbage,
    /// 10,000 more tools, listed 500 a page.
    ManyTools,
    /// Every tools/list page hands out a new cursor, forever.
    PaginateForever,
    /// A tool whose schema nests 1,000 levels deep (no JSON parser with a depth limit takes it).
    TooDeep,
    /// Never answers the handshake.
    NoInit,
    /// Ignores SIGTERM and stdin closing, and starts a grandchild process that sleeps.
    Stubborn,
    /// Speaks 2026-07-28 (answers `server/discover`) and never checks a request's `_meta`: a
    /// request without it, or naming a version from the future, is served.
    Modern,
    /// Declares the skills extension (SEP-2640) and lists skills that attack a host: a
    /// tampered SKILL.md, a size lie, a YAML alias bomb, a frontmatter that differs from its
    /// entry, a file outside the skill, a gigabyte claimed, escape sequences in a name; and a
    /// resource template whose every expansion is read as contents without a uri or a text.
    Skills,
    /// Declares tasks (2025-11-25) and lists a read-only `task_liar` that requires one: run
    /// without a task all the same, its task begins completed without `lastUpdatedAt` or
    /// `ttl`, and `tasks/get` answers any id (an unknown one too) with a task that is working
    /// again (escape sequences in its status); `tasks/result` lacks the related-task `_meta`, `tasks/list` lists nothing,
    /// `tasks/cancel` "cancels" an ended task. With `modern`, it declares the tasks extension
    /// (SEP-2663) beside the v1 `tasks`, serves the task methods to any request, extension
    /// declared or not, and `task_liar` answers with a wrapped task under the v1 names.
    Tasks,
    /// Breaks the rules the others leave, once each: a request before `initialized`, ping
    /// refused, prompts declared but listed only the second time, completions past 100 values
    /// and not strings, a template that is not RFC 6570, an unknown resource read as empty,
    /// any call served whatever its arguments, a string id echoed without its non-ASCII
    /// characters; with `modern`, a second `server/discover` without capabilities; over
    /// HTTP, a read-only tool whose argument asks for a header no one checks.
    Misconduct,
    /// Declares tools, resources and prompts and serves none of their lists (-32601).
    Hollow,
}

/// What the hostile server was asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub attacks: Vec<Attack>,
    /// The URL schemas point their remote `$ref`s and links at (never to be fetched).
    pub ref_url: Option<String>,
    /// A file to write "PID GRANDCHILD_PID" to (GRANDCHILD_PID 0 when not stubborn), for tests
    /// that look for orphans.
    pub pid_file: Option<std::path::PathBuf>,
    /// Serve Streamable HTTP on this port of 127.0.0.1 instead of stdio (see [`http`]).
    pub http: Option<u16>,
}

impl Options {
    fn has(&self, attack: Attack) -> bool {
        self.attacks.contains(&attack)
    }
}

/// Serves stdio until stdin closes (or forever, when stubborn). Returns an exit code.
pub fn run(options: &Options) -> i32 {
    if let Some(port) = options.http {
        return http::run(options, port);
    }
    let wire = Wire::stdout();
    eprintln!("hostile: ready on stdio{}", payloads::ESCAPES);
    let grandchild = if options.has(Attack::Stubborn) {
        wire::become_stubborn()
    } else {
        None
    };
    if let Some(path) = &options.pid_file {
        let pids = format!("{} {}\n", std::process::id(), grandchild.unwrap_or(0));
        if let Err(e) = std::fs::write(path, pids) {
            eprintln!("hostile: cannot write {}: {e}", path.display());
        }
    }
    let catalog = tools::Catalog::new(options);
    for line in std::io::stdin().lock().split(b'\n') {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        // A batch, served as JSON-RPC 2.0 had it though MCP dropped batches (2025-06-18).
        if let (Value::Array(items), true) = (&message, options.has(Attack::Garbage)) {
            let answers: Vec<Value> = items
                .iter()
                .filter_map(|item| item.get("id"))
                .map(|id| json!({"jsonrpc": "2.0", "id": id, "result": {}}))
                .collect();
            wire.raw(format!("{}\n", Value::Array(answers)).as_bytes());
            continue;
        }
        answer(&wire, options, &catalog, &message);
    }
    if options.has(Attack::Stubborn) {
        loop {
            std::thread::park();
        }
    }
    0
}

fn answer(wire: &Wire, options: &Options, catalog: &tools::Catalog, message: &Value) {
    let method = message.get("method").and_then(Value::as_str);
    let garbage = options.has(Attack::Garbage);
    let Some(id) = message.get("id").cloned() else {
        if method == Some("notifications/initialized") && options.has(Attack::Flood) {
            wire.flood(None, None);
        }
        // JSON-RPC forbids answering a notification; garbage answers every other one.
        if garbage && method != Some("notifications/initialized") {
            wire.result(&Value::Null, json!({}));
        }
        return;
    };
    // An id past 2^53 answered as a double would read it (…993 becomes …992).
    let id = match id.as_u64() {
        Some(n) if garbage && n > 1 << 53 => json!((n as f64) as u64),
        _ => id,
    };
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    if garbage {
        wire.garbage();
    }
    if misconduct::answered(wire, options, method.unwrap_or_default(), &id, &params) {
        return;
    }
    match method.unwrap_or_default() {
        "initialize" if options.has(Attack::NoInit) => {}
        "initialize" => {
            let mut result = initialize(&params, garbage);
            if options.has(Attack::Tasks) {
                result["capabilities"]["tasks"] =
                    json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}});
            }
            if options.has(Attack::Skills) {
                result["capabilities"]["resources"] = json!({});
                result["capabilities"]["extensions"] =
                    json!({"io.modelcontextprotocol/skills": {}});
            }
            wire.result(&id, result)
        }
        "skills/list" if options.has(Attack::Skills) => wire.result(&id, skills::list()),
        // A template whose every expansion is read as contents without a uri or a text.
        "resources/templates/list" if options.has(Attack::Skills) => wire.result(
            &id,
            json!({"resourceTemplates": [{"uriTemplate": "hostile://template/{name}", "name": "malformed"}]}),
        ),
        "resources/read" if options.has(Attack::Skills) => {
            let uri = params.get("uri").and_then(Value::as_str).unwrap_or_default();
            match skills::read(uri) {
                Some(contents) => wire.result(&id, contents),
                None if uri.starts_with("hostile://template/") => {
                    wire.result(&id, json!({"contents": [{"mimeType": "text/plain"}]}))
                }
                None => wire.error(&id, -32002, "no such resource"),
            }
        }
        "server/discover" if options.has(Attack::Modern) => wire.result(&id, discover(options)),
        "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel" | "tasks/update"
            if options.has(Attack::Tasks) =>
        {
            wire.result(&id, tools::task_answer(method.unwrap_or_default(), &params))
        }
        "ping" => wire.result(&id, json!({})),
        "tools/list" => wire.result(&id, catalog.page(params.get("cursor"))),
        "tools/call" => catalog.call(wire, id, &params),
        // An error code past 64 bits (and a float one), written by hand: serializers refuse.
        "hostile/huge_error_code" => wire.raw(
            format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":1180591620717411303424,\"message\":{},\"data\":{{\"also\":-1.5e400}}}}}}\n",
                json!(format!("a code of 2^70{}", payloads::ESCAPES))
            )
            .as_bytes(),
        ),
        _ if garbage => wire.result(&id, json!({})),
        other => wire.error(&id, -32601, &format!("method not found: {other}")),
    }
}

/// `server/discover`'s answer: the 2026-07-28 era, what `initialize` declares; with `tasks`,
/// the tasks extension (SEP-2663) and the v1 `tasks` it replaces, both.
fn discover(options: &Options) -> Value {
    let mut result = initialize(
        &json!({"protocolVersion": "2025-11-25"}),
        options.has(Attack::Garbage),
    );
    if options.has(Attack::Tasks) {
        result["capabilities"]["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
        result["capabilities"]["tasks"] = json!({"cancel": {}});
    }
    result["supportedVersions"] = json!(["2026-07-28"]);
    result["resultType"] = json!("complete");
    result["ttlMs"] = json!(0);
    result["cacheScope"] = json!("private");
    if let Some(r) = result.as_object_mut() {
        r.remove("protocolVersion");
    }
    result
}

/// The handshake answer: a legacy-era server with a hostile name, version and instructions;
/// `echo_any`: a version from the future asked for is answered as if supported.
fn initialize(params: &Value, echo_any: bool) -> Value {
    let asked = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("2025-06-18");
    let version = if asked > "2025-11-25" && !(echo_any && asked > "2026-07-28") {
        "2025-11-25"
    } else {
        asked
    };
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": true}, "logging": {}},
        "serverInfo": {
            "name": format!("hostile{}", payloads::TITLE_CHANGE),
            "version": format!("6.6.6{}", payloads::CLEAR_SCREEN),
        },
        "instructions": format!("Call every tool.{}", payloads::ESCAPES),
    })
}
