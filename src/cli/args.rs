//! The command line as clap reads it: the connection flags every command shares and the
//! subcommands with their own flags. Definitions only; what they mean is `connection`'s and
//! each command's.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "mcp-inspect",
    version,
    about = "Inspect and exercise Model Context Protocol servers: a terminal UI and scriptable commands",
    after_help = "Examples:\n  mcp-inspect --demo\n  mcp-inspect -- npx -y @modelcontextprotocol/server-everything\n  mcp-inspect --url http://127.0.0.1:3001/mcp\n  mcp-inspect tools --format json -- uvx mcp-server-time\n  mcp-inspect call add --arg a=2 --arg b=40 --demo\n\nExit codes: 0 ok, 1 usage or error, 3 result violates its outputSchema or leaves out the structuredContent it declares (--strict), 4 server unreachable, 5 tool error or unknown tool.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub connection: ConnectionArgs,
    /// TUI: leave the mouse to the terminal (its own text selection) instead of clicking rows.
    #[arg(long)]
    pub no_mouse: bool,
    /// TUI: mark the tools that changed against this snapshot (`mcp-inspect snapshot`), with
    /// what changed and whether it breaks callers or consumers.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// TUI: restart the server whenever these files or folders change (a folder's whole tree,
    /// less .git, target, node_modules, caches and editors' swap files) and show what changed
    /// since the last start. With --url, reconnects instead.
    #[arg(long, value_name = "PATH", num_args = 1.., conflicts_with = "baseline")]
    pub watch: Vec<PathBuf>,
    /// TUI with --watch: after each restart, make each tool's last call of the session again
    /// and say what changed in its result (verdict, value); never a destructive tool's.
    #[arg(long, requires = "watch")]
    pub rerun: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List every tool (all pages): one line per tool, or JSON.
    Tools {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// One tool's full definition as JSON: schemas, annotations, signature.
    Inspect {
        /// The tool's name.
        tool: String,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Call a tool and print the result with its verdict against the outputSchema.
    Call {
        /// The tool's name.
        tool: String,
        /// All arguments as one JSON object.
        #[arg(long, conflicts_with = "arg")]
        args: Option<String>,
        /// One argument as key=value; the value is read as JSON when it parses, else as a string.
        #[arg(long = "arg", value_name = "KEY=VALUE")]
        arg: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
        /// Exit with 3 when the result violates its outputSchema or leaves out the
        /// structuredContent it declares.
        #[arg(long)]
        strict: bool,
        /// Call it as a task (tasks/get polled, then tasks/result); a tool whose
        /// execution.taskSupport is `required` is always called so.
        #[arg(long)]
        task: bool,
        /// Call a tool even when clients of this protocol era must exclude it (an invalid
        /// `x-mcp-header` in the 2026-07-28 era).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Lint every tool's schemas; exits 1 when there are errors.
    Check {
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// List every resource (all pages): one line each, or JSON.
    Resources {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// List every resource template (all pages): one line each, or JSON.
    Templates {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Read a resource: its contents as text, or the result as JSON; --out writes the first
    /// content's bytes (a blob decoded) to a new file.
    Read {
        /// The resource's URI.
        uri: String,
        /// Write the first content to this file (never over an existing one).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// List the server's skills (SEP-2640) from their entries: name, files, URI and
    /// description; nothing is fetched.
    Skills {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Load a skill as a host does: its SKILL.md read and verified against its entry (size,
    /// SHA-256, frontmatter) before it is shown; other files only when asked for, verified too.
    Skill {
        /// The skill's name, or the URI of its SKILL.md (a skill not listed is asked for by URI).
        skill: String,
        /// Also read this file of the skill (its path in the skill: `references/FORMS.md`).
        #[arg(long, value_name = "PATH", conflicts_with = "all")]
        file: Option<String>,
        /// Also read every file the skill lists.
        #[arg(long)]
        all: bool,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// List every prompt (all pages) with its arguments: one line each, or JSON.
    Prompts {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Get a prompt with arguments: its messages by role, or the result as JSON.
    Prompt {
        /// The prompt's name.
        name: String,
        /// One argument as key=value (prompt arguments are strings).
        #[arg(long = "arg", value_name = "KEY=VALUE")]
        arg: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Ask the server to complete an argument of a prompt or a resource template.
    Complete {
        /// The prompt whose argument is completed.
        #[arg(
            long,
            conflicts_with = "template",
            required_unless_present = "template"
        )]
        prompt: Option<String>,
        /// The resource template (its URI template) whose variable is completed.
        #[arg(long)]
        template: Option<String>,
        /// The argument (or template variable) to complete.
        argument: String,
        /// What is typed so far.
        #[arg(default_value = "")]
        prefix: String,
        /// An argument already chosen, as context (key=value, repeatable).
        #[arg(long = "context", value_name = "KEY=VALUE")]
        context: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Check the server's protocol conduct against the spec: unknown methods, tools and
    /// cursors, arguments its inputSchema refuses, ping, declared capabilities, logging,
    /// resources, stdout hygiene, calls in flight, Streamable HTTP sessions and headers, tasks
    /// and the tasks extension; each finding with its rule (MUST or SHOULD), what came back
    /// and a command that reproduces it. Only read-only tools are called unless allowed. Exit 1
    /// when a MUST fails
    Conform {
        /// Run only these checks (by id; repeatable, or comma-separated).
        #[arg(long, value_name = "ID", value_delimiter = ',')]
        only: Vec<String>,
        /// Leave these checks out: nothing of theirs is sent (by id; repeatable, or
        /// comma-separated).
        #[arg(long, value_name = "ID", value_delimiter = ',')]
        skip: Vec<String>,
        #[command(flatten)]
        allow: AllowArgs,
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Ping the server and print the round-trip time.
    Ping {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Send any request and print its result as the server sent it (the methods no other
    /// command covers, or exactly what one of them asks).
    Request {
        /// The JSON-RPC method: `tools/list`, `logging/setLevel`, a method of the server's own.
        method: String,
        /// The request's params: a JSON object.
        #[arg(long, value_name = "JSON")]
        params: Option<String>,
        /// text: the result pretty-printed; json: one line.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Run the built-in demo MCP server (stdio, or Streamable HTTP with --http).
    DemoServer {
        /// Serve Streamable HTTP at 127.0.0.1:PORT/mcp instead of stdio.
        #[arg(long, value_name = "PORT")]
        http: Option<u16>,
        /// List tools N per page (exercises pagination).
        #[arg(long, value_name = "N")]
        page_size: Option<usize>,
        /// Misbehave: hand out the same cursor again and again (with --page-size).
        #[arg(long, requires = "page_size")]
        repeat_cursor: bool,
    },
    /// The server's whole surface (server, capabilities, era, tools with their schemas and
    /// annotations, resources, templates, prompts) as deterministic JSON, to commit beside its
    /// code and `diff` against later.
    Snapshot {
        /// Write the snapshot to FILE (else to stdout).
        #[arg(short = 'o', long = "out", value_name = "FILE")]
        out: Option<PathBuf>,
        /// Start the server again whenever these files or folders change and print the judged
        /// diff of its tools against the previous start (rewriting FILE with -o), until
        /// interrupted.
        #[arg(long, value_name = "PATH", num_args = 1..)]
        watch: Vec<PathBuf>,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Compare a snapshot with another, or with the server given by the connection flags: each
    /// change judged breaking, compatible, unknown or info for callers and consumers. Exits 6
    /// when something breaks.
    Diff {
        /// The old snapshot file.
        #[arg(required_unless_present = "eras")]
        old: Option<PathBuf>,
        /// The new snapshot file; without it, the server the connection flags name, as it is now.
        new: Option<PathBuf>,
        /// The server in both protocol eras instead: the legacy (`initialize`) surface against
        /// the 2026-07-28 one (boxing, projected schemas, lists that differ).
        #[arg(long, conflicts_with_all = ["old", "new"])]
        eras: bool,
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Run the calls, prompts and reads of a test file (TOML) and check each against its
    /// expectations: exit 0 when all hold, 1 when any fails (naming the case, the expectation
    /// and what came instead).
    Test {
        /// The test file: `[[call]]` (tool, args), `[[prompt]]` (name, args) and `[[read]]`
        /// (uri) entries, each with an optional `[….expect]` table.
        file: PathBuf,
        /// Write what each case gives now into the file as its expectations (review the
        /// diff, commit); comments and hand-written keys stay.
        #[arg(long)]
        update: bool,
        /// Only the cases whose label contains TEXT.
        #[arg(long, value_name = "TEXT")]
        filter: Option<String>,
        #[arg(long, value_enum, default_value_t = TestFormat::Text)]
        format: TestFormat,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Call each tool with inputs generated from its inputSchema (boundary values, then random
    /// ones from a seed), judge every result against the outputSchema, and shrink each failure
    /// to its smallest input. Only read-only tools unless allowed. Exit 1 when anything failed.
    Verify {
        /// The tools to verify (every one that may be called, when none is named).
        tools: Vec<String>,
        /// Calls per tool at most (boundary values first).
        #[arg(long, default_value_t = 100, value_name = "N")]
        calls: usize,
        /// The seed of the random inputs (printed, so that a run can be repeated).
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Stop starting calls after this many seconds.
        #[arg(long, value_name = "SECONDS", value_parser = seconds)]
        time_budget: Option<f64>,
        /// Cancel a call silent (no result, no progress) for this many seconds; it is sent
        /// again and waited for up to ten times this: silent again, a timeout; alive, the tool
        /// is slow, and a read-only one's calls then run 16 at a time, each waited for up to
        /// ten times this (another's are left).
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = seconds)]
        call_timeout: f64,
        /// Also send inputs the inputSchema refuses (a property missing, of the wrong type, out
        /// of bounds): each must get a tool error or -32602, never a success or a crash.
        #[arg(long)]
        invalid: bool,
        #[command(flatten)]
        allow: AllowArgs,
        #[arg(long, value_enum, default_value_t = VerifyFormat::Text)]
        format: VerifyFormat,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Call one tool from concurrent callers and measure it: latency percentiles, calls per
    /// second, errors and verdict failures under load, a histogram. Exit 1 when any call failed.
    Load {
        /// The tool's name.
        tool: String,
        /// All arguments as one JSON object.
        #[arg(long, conflicts_with = "arg")]
        args: Option<String>,
        /// One argument as key=value (as with `call`).
        #[arg(long = "arg", value_name = "KEY=VALUE")]
        arg: Vec<String>,
        /// Calls in all (unless --duration).
        #[arg(short = 'n', long = "calls", default_value_t = 100, value_name = "N")]
        calls: usize,
        /// Callers at once (at most 10,000; never more than the calls to make).
        #[arg(
            short = 'c',
            long = "concurrency",
            default_value_t = 4,
            value_name = "C",
            value_parser = callers
        )]
        concurrency: usize,
        /// Call for this many seconds instead of N calls (at most a day).
        #[arg(long, value_name = "SECONDS", value_parser = seconds)]
        duration: Option<f64>,
        /// One connection per caller instead of one shared session.
        #[arg(long)]
        sessions: bool,
        /// Also load a tool that is not read-only (readOnlyHint not true) but not destructive.
        #[arg(long)]
        allow_writes: bool,
        /// Also load this destructive tool (destructiveHint true, or unsaid): name it again.
        #[arg(long, value_name = "TOOL", requires = "allow_writes")]
        allow_destructive: Vec<String>,
        /// Send arguments the tool's inputSchema refuses (a load test of its refusals).
        #[arg(long)]
        allow_invalid: bool,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        connection: ConnectionArgs,
    },
    /// Print a shell's completion script (bash: `source <(mcp-inspect completions bash)`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff: `mcp-inspect man > mcp-inspect.1; man -l mcp-inspect.1`).
    Man,
    /// OAuth tokens kept for servers (in $XDG_STATE_HOME/mcp-inspect/auth): list them, or
    /// forget one server's.
    Auth {
        #[command(subcommand)]
        action: AuthAction,
    },
    /// Sit between a host and a stdio server (put `mcp-inspect tap -- COMMAND ARGS…` in the
    /// host's config in place of the server's command, or let `tap install NAME` do it): every
    /// byte forwarded unchanged both ways, each session recorded in
    /// $XDG_STATE_HOME/mcp-inspect/taps/.
    #[command(args_conflicts_with_subcommands = true)]
    Tap {
        #[command(subcommand)]
        place: Option<TapPlace>,
        /// Sessions kept at most; the oldest are deleted.
        #[arg(long, default_value_t = 50, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        keep: u16,
        /// Environment for the server (repeatable); the values are never recorded.
        #[arg(short = 'e', long = "env", value_name = "KEY=VALUE")]
        env: Vec<String>,
        /// A Streamable HTTP server to tap: serve a local proxy for it (at --listen) instead of
        /// starting a stdio server; point the host at the proxy's URL.
        #[arg(
            long,
            value_name = "URL",
            conflicts_with = "command",
            requires = "listen"
        )]
        url: Option<String>,
        /// Where the HTTP proxy listens (this machine's address, e.g. 127.0.0.1:8765).
        #[arg(long, value_name = "ADDR:PORT", requires = "url")]
        listen: Option<String>,
        /// The server's command and its arguments.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// The sessions taps kept, newest first; or one session: each host call with its verdict
    /// against the outputSchema listed in it (exit 1 when a result breaks it).
    Taps {
        /// A session: its file name in the taps folder, or a path.
        #[arg(value_name = "SESSION")]
        session: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// A tapped session as it happens (the newest live one, or SESSION): in a terminal, the
    /// TUI watching it (the protocol pane, the host's calls judged in their tools' panels);
    /// else, or with --format, each message with when, which way and its size, each host call
    /// judged when its answer comes, ending with the tap (exit 1 when a result broke its
    /// outputSchema). q or Ctrl-C detaches; the session goes on.
    Attach {
        /// A session: its file name in the taps folder, or a path.
        #[arg(value_name = "SESSION")]
        session: Option<PathBuf>,
        /// Lines instead of the TUI: text, or json (one object a line as it happens:
        /// `message`, `call`, `notJsonRpc`, and `ended` last).
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
    /// Serve recordings made with --record as a stdio MCP server: each request gets the
    /// recorded answer to the same method and params.
    Replay {
        /// Recording files (JSON lines), read in order.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Run the built-in hostile MCP server (stdio): tools that crash, hang, flood, send escape
    /// sequences, huge results and schema bombs; --attack adds connection-wide misbehaviour.
    HostileServer {
        /// Connection-wide misbehaviours (comma-separated or repeated).
        #[arg(long, value_enum, value_delimiter = ',')]
        attack: Vec<crate::hostile::Attack>,
        /// Point remote `$ref`s and links at this URL (an inspector must never fetch it).
        #[arg(long, value_name = "URL")]
        ref_url: Option<String>,
        /// Write "PID GRANDCHILD_PID" here (for orphan checks).
        #[arg(long, value_name = "FILE")]
        pid_file: Option<PathBuf>,
        /// Serve Streamable HTTP on 127.0.0.1:PORT instead of stdio, breaking each rule of
        /// the transport (Host, Origin, sessions, headers, 202, GET) once.
        #[arg(long, value_name = "PORT")]
        http: Option<u16>,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// How `verify` reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    Text,
    Json,
    /// SARIF 2.1.0, a result per failure.
    Sarif,
}

/// How `test` reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TestFormat {
    Text,
    Json,
    /// JUnit XML, for CI systems' test reports.
    Junit,
}

/// How `diff` reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    /// A Markdown report for a pull-request comment.
    Markdown,
    /// SARIF 2.1.0, for CI annotations (located in the newer snapshot file when there is one).
    Sarif,
}

/// How `check` reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    /// SARIF 2.1.0, for CI annotations.
    Sarif,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TransportArg {
    /// Streamable HTTP, or legacy SSE when the URL path ends in /sse.
    Auto,
    Http,
    Sse,
}

/// Put a host's server through the tap, or take it out, in the host's own config.
#[derive(Subcommand, Debug, Clone)]
pub enum TapPlace {
    /// Rewrite the server NAME's entry in the host config that has it (Claude Desktop, Claude
    /// Code, Cursor, VS Code, Windsurf, Codex) to run through the tap; only its command and
    /// args change, and the file as it was is kept beside it (….mcp-inspect-backup).
    Install {
        /// The server's name in the host's config.
        name: String,
        /// The config file, when more than one has NAME (or it is not in a usual place).
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
    },
    /// Take the server NAME out of the tap again (its command and args as before).
    Uninstall {
        name: String,
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug, Clone)]
pub enum AuthAction {
    /// Every server with a kept token: URL, client, scopes, expiry (never the token).
    List {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Forget the token and client kept for a server URL.
    Logout {
        /// The server's URL, as given to --url.
        url: String,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    /// Try 2026-07-28 (server/discover), fall back to initialize.
    Auto,
    /// 2026-07-28 only.
    Modern,
    /// initialize (2025-11-25 and earlier) only.
    Legacy,
}

/// Which tools beyond read-only ones a command that calls tools by itself may call.
#[derive(Args, Debug, Default, Clone)]
pub struct AllowArgs {
    /// Also call tools that are not read-only (readOnlyHint not true) but not destructive.
    #[arg(long)]
    pub allow_writes: bool,
    /// Also call this destructive tool (destructiveHint true, or unsaid); repeat for more.
    #[arg(long, value_name = "TOOL", requires = "allow_writes")]
    pub allow_destructive: Vec<String>,
    /// Call every tool, destructive ones too: for a throwaway server whose state does not
    /// matter (a fresh fastmcp server has no annotations, so every tool is "maybe
    /// destructive").
    #[arg(long, conflicts_with_all = ["allow_writes", "allow_destructive"])]
    pub allow_all: bool,
}

impl AllowArgs {
    pub fn allow(&self) -> crate::verify::plan::Allow {
        crate::verify::plan::Allow {
            writes: self.allow_writes,
            destructive: self.allow_destructive.clone(),
            all: self.allow_all,
        }
    }
}

#[derive(Args, Debug, Default, Clone)]
pub struct ConnectionArgs {
    /// Connect to the built-in demo server (started from this binary over stdio).
    #[arg(long)]
    pub demo: bool,
    /// Connect to the built-in hostile server, with these attacks (`--hostile`, `--hostile=flood,garbage`).
    #[arg(long, value_enum, value_delimiter = ',', num_args = 0.., require_equals = true, value_name = "ATTACKS")]
    pub hostile: Option<Vec<crate::hostile::Attack>>,
    /// The server's URL (Streamable HTTP, or legacy SSE).
    #[arg(long)]
    pub url: Option<String>,
    /// HTTP transport.
    #[arg(long, value_enum)]
    pub transport: Option<TransportArg>,
    /// An HTTP header, `Name: value` (repeatable). Values never appear in output.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Send `Authorization: Bearer <token>` with the token read from this environment variable.
    #[arg(long, value_name = "VAR")]
    pub bearer_env: Option<String>,
    /// OAuth: a client registered with the authorization server beforehand (else a Client ID
    /// Metadata Document or dynamic registration is used).
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// OAuth: the pre-registered client's secret, read from this environment variable.
    #[arg(long, value_name = "VAR", requires = "client_id")]
    pub client_secret_env: Option<String>,
    /// OAuth: the HTTPS URL of a Client ID Metadata Document describing this client, used as
    /// its client id where the authorization server supports them.
    #[arg(long, value_name = "URL")]
    pub client_metadata_url: Option<String>,
    /// OAuth: the client credentials grant with --client-id and --client-secret-env (no
    /// browser, for machine-to-machine servers).
    #[arg(long, requires = "client_secret_env")]
    pub client_credentials: bool,
    /// OAuth: the client credentials grant as --client-id, authenticated by a JWT signed with
    /// this private key (P-256, PKCS#8 PEM; private_key_jwt, RFC 7523). No browser.
    #[arg(
        long,
        value_name = "FILE",
        requires = "client_id",
        conflicts_with = "client_credentials"
    )]
    pub client_key: Option<PathBuf>,
    /// OAuth: the JWT-bearer grant (RFC 7523; workload identity federation) with the JWT this
    /// file holds, read again at each grant. No browser.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["client_credentials", "client_key"])]
    pub assertion_file: Option<PathBuf>,
    /// OAuth, enterprise-managed (SEP-990): the identity provider's token endpoint where the
    /// ID token (--id-token-env) is exchanged for an authorization grant (ID-JAG), presented to
    /// the server's authorization server as --client-id with --client-secret-env. No browser.
    #[arg(long, value_name = "URL", requires_all = ["id_token_env", "client_id"], conflicts_with_all = ["client_credentials", "client_key", "assertion_file"])]
    pub idp_token_endpoint: Option<String>,
    /// OAuth, enterprise-managed: this client's id at the identity provider.
    #[arg(long, value_name = "ID", requires = "idp_token_endpoint")]
    pub idp_client_id: Option<String>,
    /// OAuth, enterprise-managed: the user's ID token from the identity provider, read from
    /// this environment variable.
    #[arg(long, value_name = "VAR", requires = "idp_token_endpoint")]
    pub id_token_env: Option<String>,
    /// OAuth: ask for DPoP-bound tokens (RFC 9449), each request proven with a key of this
    /// run, even when the server's challenge does not name DPoP (one that does gets them).
    #[arg(long)]
    pub dpop: bool,
    /// OAuth in a headless command: allow the browser flow (without it, a server that needs a
    /// new authorization ends the command with exit code 3).
    #[arg(long)]
    pub interactive_auth: bool,
    /// OAuth: print the authorization URL but do not start a browser.
    #[arg(long)]
    pub no_browser: bool,
    /// OAuth: keep tokens in memory only (not in the state directory).
    #[arg(long)]
    pub no_store: bool,
    /// Environment for a stdio server, KEY=VALUE (repeatable).
    #[arg(short = 'e', long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// Working directory for a stdio server.
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// An mcpServers JSON file (Claude Desktop, official Inspector); without --server the TUI
    /// lets you pick one of its servers.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The server's name in --config.
    #[arg(long, requires = "config")]
    pub server: Option<String>,
    /// Protocol era.
    #[arg(long, value_enum)]
    pub protocol: Option<ProtocolArg>,
    /// Seconds to wait for any answer (a tool call's wait restarts on progress, and stops while
    /// the server's request waits for your answer).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Seconds a tool call may take in all, however often it reports progress or its task
    /// changes status [default: 600].
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// The server's log level once connected: debug, info, notice, warning, error, critical,
    /// alert or emergency (2026 era: sent with every request).
    #[arg(long, value_name = "LEVEL", value_parser = log_level)]
    pub log_level: Option<&'static str>,
    /// A root offered to the server: a directory (repeatable; default: none, the roots
    /// capability is declared and the list is empty).
    #[arg(long = "roots", value_name = "DIR", num_args = 1..)]
    pub roots: Vec<PathBuf>,
    /// Declare no roots capability (the server sees a client without roots).
    #[arg(long, conflicts_with = "roots")]
    pub no_roots: bool,
    /// Declare no sampling capability.
    #[arg(long, conflicts_with = "on_sampling")]
    pub no_sampling: bool,
    /// Declare no elicitation capability.
    #[arg(long, conflicts_with = "on_elicitation")]
    pub no_elicitation: bool,
    /// How to answer the server's elicitation/create: decline (default), cancel, defaults
    /// (accept with each requested field's default; declined when a required field has
    /// none), or a file holding the JSON result.
    #[arg(long, value_name = "decline|cancel|defaults|FILE")]
    pub on_elicitation: Option<String>,
    /// How to answer the server's sampling/createMessage: reject (default), or a file holding
    /// the JSON result.
    #[arg(long, value_name = "reject|FILE")]
    pub on_sampling: Option<String>,
    /// Judge `format` mismatches as violations also where the schema's dialect (2019-09,
    /// 2020-12) makes `format` an annotation; otherwise they are shown beside the verdict.
    #[arg(long)]
    pub assert_formats: bool,
    /// Write every JSON-RPC message of the session to FILE, one JSON line each (serve it again
    /// with `mcp-inspect replay FILE`). Secrets given here are redacted.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The stdio server's command and arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Seconds for a run's length or budget: a finite number from 0 to a day (a `Duration` of
/// `1e30` seconds would panic, and no run is meant to last longer).
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=86_400.0).contains(&s) => Ok(s),
        _ => Err("a number of seconds from 0 to 86400 (a day)".into()),
    }
}

/// Callers at once: 1 to 10,000 (each holds a task and its buffers: a million is gigabytes).
fn callers(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=10_000).contains(&n) => Ok(n),
        _ => Err("a number of callers from 1 to 10000".into()),
    }
}

fn log_level(text: &str) -> Result<&'static str, String> {
    crate::mcp::session::logging::parse(text)
        .ok_or_else(|| format!("one of {}", crate::mcp::session::logging::LEVELS.join(", ")))
}
