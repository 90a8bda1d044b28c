//! The headless subcommands (`tools`, `inspect`, `call`, `check`, `resources`, `templates`,
//! `read`, `prompts`, `prompt`, `complete`, `ping`, `snapshot`, `diff`, `auth`): the same engine as the TUI, printing text
//! or JSON for scripts and CI, with documented exit codes.

pub mod auth;
mod call;
mod check;
mod drift;
mod inspect;
mod output;
mod prompts;
mod resources;
mod tools;

use crate::cli::{Command, ConnectionArgs, Format};
use crate::mcp::session::error::exit;
use crate::mcp::{EventReceiver, EventSink, ServerEvent, Session};
use output::Report;

/// Runs one headless command and returns the process exit code.
pub async fn run(command: Command) -> i32 {
    // Two snapshot files: nothing to connect to.
    match &command {
        Command::Diff {
            old: Some(old),
            new: Some(new),
            format,
            ..
        } => return drift::files(old, new, *format),
        Command::Diff {
            eras: true,
            format,
            connection,
            ..
        } => return drift::eras(connection, *format).await,
        _ => {}
    }
    let (format, connection) = match &command {
        Command::Snapshot { connection, .. } => (Format::Text, connection),
        Command::Diff {
            format, connection, ..
        } => (drift::report_for(*format).format, connection),
        Command::Tools { format, connection } => (*format, connection),
        Command::Check { format, connection } => (
            match format {
                crate::cli::CheckFormat::Text => Format::Text,
                _ => Format::Json,
            },
            connection,
        ),
        Command::Call {
            format, connection, ..
        } => (*format, connection),
        Command::Inspect { connection, .. } => (Format::Json, connection),
        Command::Resources { format, connection }
        | Command::Templates { format, connection }
        | Command::Prompts { format, connection }
        | Command::Ping { format, connection }
        | Command::Read {
            format, connection, ..
        }
        | Command::Prompt {
            format, connection, ..
        }
        | Command::Complete {
            format, connection, ..
        } => (*format, connection),
        Command::DemoServer { .. }
        | Command::HostileServer { .. }
        | Command::Replay { .. }
        | Command::Auth { .. } => {
            return exit::ERROR;
        }
    };
    let report = Report { format };
    // Listening from the start, once: a signal that arrives between two waits is kept.
    let mut signals = Signals::new();
    let (events, mut receiver) = EventSink::new();
    let session = match connect(connection, &report, &mut signals, &events, &mut receiver).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    // What the connection notices from now on is printed as it comes.
    let teller = std::sync::Arc::new(std::sync::Mutex::new(Teller::default()));
    let told = tokio::spawn({
        let teller = teller.clone();
        async move {
            while let Some(event) = receiver.recv().await {
                if let Ok(mut teller) = teller.lock() {
                    teller.tell(&report, event);
                }
            }
        }
    });
    let work = async {
        match &command {
            Command::Tools { .. } => tools::run(&session, &report).await,
            Command::Inspect { tool, .. } => inspect::run(&session, tool, &report).await,
            Command::Call {
                tool,
                args,
                arg,
                strict,
                task,
                force,
                ..
            } => {
                let how = call::How {
                    strict: *strict,
                    task: *task,
                    force: *force,
                };
                call::run(&session, tool, args.as_deref(), arg, how, &report).await
            }
            Command::Check { format, .. } => check::run(&session, &report, *format).await,
            Command::Resources { .. } => resources::list(&session, false, &report).await,
            Command::Templates { .. } => resources::list(&session, true, &report).await,
            Command::Read { uri, out, .. } => {
                resources::read(&session, uri, out.as_deref(), &report).await
            }
            Command::Prompts { .. } => prompts::list(&session, &report).await,
            Command::Prompt { name, arg, .. } => prompts::get(&session, name, arg, &report).await,
            Command::Complete {
                prompt,
                template,
                argument,
                prefix,
                context,
                ..
            } => {
                let what = prompts::Completing {
                    prompt: prompt.as_deref(),
                    template: template.as_deref(),
                    argument,
                    prefix,
                    context,
                };
                prompts::complete(&session, what, &report).await
            }
            Command::Ping { .. } => ping(&session, &report).await,
            Command::Snapshot { out, .. } => drift::take(&session, out.as_deref(), &report).await,
            Command::Diff {
                old: Some(old),
                format,
                ..
            } => drift::live(&session, old, *format).await,
            Command::Diff { .. } => exit::ERROR,
            Command::DemoServer { .. }
            | Command::HostileServer { .. }
            | Command::Replay { .. }
            | Command::Auth { .. } => exit::ERROR,
        }
    };
    let code = tokio::select! {
        code = work => code,
        signal = signals.next() => {
            report.error(&format!("interrupted by {signal}"), 130);
            130
        }
    };
    session.shutdown().await;
    // What the server said before the end is still told: once the session's senders are gone
    // the teller ends by itself (bounded: the event queue is).
    drop(events);
    let mut told = told;
    if tokio::time::timeout(std::time::Duration::from_secs(1), &mut told)
        .await
        .is_err()
    {
        told.abort();
    }
    if let Ok(mut teller) = teller.lock() {
        teller.flush(&report);
    }
    code
}

/// `None` when the server declares `capability`; else the error, reported (asking anyway would
/// call a method the server said it does not serve).
fn declared(session: &Session, capability: &str, report: &Report) -> Option<i32> {
    if session.server.declares(capability) {
        return None;
    }
    Some(report.error(
        &format!("the server does not declare the `{capability}` capability"),
        exit::ERROR,
    ))
}

/// A request that failed: a server error (an unknown resource or prompt) exits 5, anything
/// else 1.
fn failed(method: &str, error: crate::mcp::RequestError, report: &Report) -> i32 {
    let code = match error {
        crate::mcp::RequestError::Server { .. } => exit::TOOL_ERROR,
        _ => exit::ERROR,
    };
    report.error(&format!("{method} failed: {error}"), code)
}

/// `ping`: the round trip of one `ping` request. The 2026-07-28 protocol has no `ping`; there
/// the cheapest request, `server/discover`, is timed instead, and the output says so.
async fn ping(session: &Session, report: &Report) -> i32 {
    let (took, method) = match session.ping().await {
        Ok(pinged) => pinged,
        Err(e) => return failed("ping", e, report),
    };
    let ms = took.as_secs_f64() * 1e3;
    match report.format {
        Format::Json => report.json(&serde_json::json!({ "ms": ms, "method": method })),
        Format::Text if method == "ping" => report.line(&format!("pong in {ms:.1} ms")),
        Format::Text => report.line(&format!(
            "round trip {ms:.1} ms (server/discover: the 2026-07-28 protocol has no ping)"
        )),
    }
    exit::OK
}

/// Progress, log and request lines printed a second at most, and warnings apart; the rest are
/// counted, then said.
const CHATTER_PER_SECOND: u32 = 20;

/// Prints on stderr what happens on the way: what the connection noticed (a non-JSON line, a
/// repeated key, a late answer) as warnings, the server's requests and our answers as notes, and
/// its progress and log notifications, a bounded number a second. Stderr lines are not told:
/// they are the server's own output, not the protocol's.
#[derive(Default)]
struct Teller {
    /// Whether a pasted redirect address is read from stdin.
    pasting: bool,
    chatter: Budget,
    /// Warnings have a budget of their own: a flood of progress never hides one, and a flood
    /// of them (a server answering requests nobody sent, over and over) is counted too.
    warnings: Budget,
}

/// Lines printed in the current second, and those left out since the last was said.
#[derive(Default)]
struct Budget {
    second: Option<std::time::Instant>,
    shown: u32,
    skipped: u64,
}

impl Teller {
    fn tell(&mut self, report: &Report, event: ServerEvent) {
        match event {
            ServerEvent::Notice(text) => {
                if self.warnings.room(report, WARNINGS) {
                    report.warn(&text);
                }
            }
            // Requests are told like progress: a flood of them is counted, not printed.
            ServerEvent::Request(text) => {
                if self.chatter.room(report, CHATTER) {
                    report.note(&format!("the server asked {text}"));
                }
            }
            ServerEvent::Authorization(
                crate::mcp::AuthStep::Said(text) | crate::mcp::AuthStep::Authorized(text),
            ) => report.note(&format!("oauth: {text}")),
            ServerEvent::Authorization(crate::mcp::AuthStep::Open(url)) => {
                let url = crate::untrusted::line(&url, 8_000);
                report.note(&format!("oauth: open this URL to authorize: {url}"));
                if self.pasting {
                    report.note("oauth: if the browser cannot reach this machine (over SSH), paste here the address it ended at and press Enter");
                }
            }
            ServerEvent::Authorization(crate::mcp::AuthStep::Failed(why)) => {
                report.warn(&format!("oauth failed: {why}"))
            }
            ServerEvent::ResourceUpdated(uri) => report.note(&format!(
                "resource updated: {}",
                crate::untrusted::line(&uri, 300)
            )),
            ServerEvent::Progress {
                progress,
                total,
                message,
                ..
            } => {
                if self.chatter.room(report, CHATTER) {
                    let of = total.map(|t| format!("/{t}")).unwrap_or_default();
                    let said = message.map(|m| format!(" {m}")).unwrap_or_default();
                    report.note(&format!("progress {progress}{of}{said}"));
                }
            }
            ServerEvent::Log {
                level,
                logger,
                data,
            } => {
                if self.chatter.room(report, CHATTER) {
                    let from = logger.map(|l| format!(" {l}")).unwrap_or_default();
                    let data = match data {
                        serde_json::Value::String(s) => s,
                        other => crate::untrusted::json(&other, false),
                    };
                    report.note(&format!("log {level}{from}: {data}"));
                }
            }
            // Headless policies never ask (`Asked` comes only from the TUI's `Ask` policy).
            ServerEvent::Stderr(_)
            | ServerEvent::ToolsChanged
            | ServerEvent::LibraryChanged
            | ServerEvent::Closed(_)
            | ServerEvent::Asked { .. } => {}
        }
    }

    /// Says how many lines were left out, if any.
    fn flush(&mut self, report: &Report) {
        self.chatter.flush(report, CHATTER);
        self.warnings.flush(report, WARNINGS);
    }
}

/// What a budget's lines are, for the count of those left out.
const CHATTER: &str = "progress or log line";
const WARNINGS: &str = "warning";

impl Budget {
    /// Says how many `what` lines were left out, if any.
    fn flush(&mut self, report: &Report, what: &str) {
        if self.skipped > 0 {
            report.note(&format!(
                "{} not shown (more than {CHATTER_PER_SECOND} a second)",
                crate::plural::count(self.skipped as usize, what)
            ));
            self.skipped = 0;
        }
    }

    /// Whether one more line fits in this second.
    fn room(&mut self, report: &Report, what: &str) -> bool {
        let now = std::time::Instant::now();
        if self
            .second
            .is_none_or(|s| now.duration_since(s) >= std::time::Duration::from_secs(1))
        {
            self.flush(report, what);
            (self.second, self.shown) = (Some(now), 0);
        }
        self.shown += 1;
        if self.shown > CHATTER_PER_SECOND {
            self.skipped += 1;
        }
        self.shown <= CHATTER_PER_SECOND
    }
}

/// Connects, printing what the connection notices meanwhile, all of it before any error (the
/// notice often says why the handshake failed: "the server wrote a non-JSON line …").
async fn connect(
    connection: &ConnectionArgs,
    report: &Report,
    signals: &mut Signals,
    events: &EventSink,
    receiver: &mut EventReceiver,
) -> Result<Session, i32> {
    let mut options = connection
        .options()
        .map_err(|e| report.error(&e, exit::ERROR))?;
    let mut teller = Teller::default();
    // OAuth over SSH: the address the browser ended at can be pasted on a terminal's stdin.
    use std::io::IsTerminal;
    if options.auth.interactive && std::io::stdin().is_terminal() {
        let pasted = crate::mcp::oauth::Pasted::default();
        options.auth.pasted = Some(pasted.clone());
        teller.pasting = true;
        // A blocked read does not keep the process alive: it exits from main.
        std::thread::spawn(move || {
            for line in std::io::stdin().lines().map_while(Result::ok) {
                if !line.trim().is_empty() {
                    pasted.paste(line);
                }
            }
        });
    }
    let connecting = crate::mcp::connect(&options, events);
    tokio::pin!(connecting);
    let result = loop {
        tokio::select! {
            Some(event) = receiver.recv() => teller.tell(report, event),
            result = &mut connecting => break result,
            signal = signals.next() => return Err(report.error(&format!("interrupted by {signal}"), 130)),
        }
    };
    while let Some(event) = receiver.try_recv() {
        teller.tell(report, event);
    }
    teller.flush(report);
    result.map_err(|e| report.error(&e.to_string(), e.exit_code()))
}

/// Ctrl-C, SIGTERM and SIGHUP, listened to for the whole command.
struct Signals {
    streams: Option<[tokio::signal::unix::Signal; 3]>,
}

impl Signals {
    fn new() -> Signals {
        use tokio::signal::unix::{SignalKind, signal};
        let streams = match (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) {
            (Ok(int), Ok(term), Ok(hup)) => Some([int, term, hup]),
            _ => None,
        };
        Signals { streams }
    }

    /// Resolves on the next of them, naming which.
    async fn next(&mut self) -> &'static str {
        let Some([int, term, hup]) = &mut self.streams else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = int.recv() => "Ctrl-C",
            _ = term.recv() => "SIGTERM",
            _ = hup.recv() => "SIGHUP",
        }
    }
}
