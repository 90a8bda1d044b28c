//! The headless subcommands (`tools`, `inspect`, `call`, `check`): the same engine as the TUI,
//! printing text or JSON for scripts and CI, with documented exit codes.

mod call;
mod check;
mod inspect;
mod output;
mod tools;

use crate::cli::{Command, ConnectionArgs, Format};
use crate::mcp::error::exit;
use crate::mcp::{EventReceiver, EventSink, ServerEvent, Session};
use output::Report;

/// Runs one headless command and returns the process exit code.
pub async fn run(command: Command) -> i32 {
    let (format, connection) = match &command {
        Command::Tools { format, connection } | Command::Check { format, connection } => {
            (*format, connection)
        }
        Command::Call {
            format, connection, ..
        } => (*format, connection),
        Command::Inspect { connection, .. } => (Format::Json, connection),
        Command::DemoServer { .. } | Command::HostileServer { .. } => return exit::ERROR,
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
    let warnings = tokio::spawn(async move {
        while let Some(event) = receiver.recv().await {
            warn_of(&report, event);
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
                ..
            } => call::run(&session, tool, args.as_deref(), arg, *strict, &report).await,
            Command::Check { .. } => check::run(&session, &report).await,
            Command::DemoServer { .. } | Command::HostileServer { .. } => exit::ERROR,
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
    warnings.abort();
    code
}

/// Prints what the connection noticed (a non-JSON line, a repeated key, a late answer) as a
/// warning; the server's own logs, progress and stderr are not the command's output.
fn warn_of(report: &Report, event: ServerEvent) {
    match event {
        ServerEvent::Notice(text) => report.warn(&text),
        ServerEvent::Request(text) => report.note(&format!("the server asked {text}")),
        _ => {}
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
    let options = connection
        .options()
        .map_err(|e| report.error(&e, exit::ERROR))?;
    let connecting = crate::mcp::connect(&options, events);
    tokio::pin!(connecting);
    let result = loop {
        tokio::select! {
            Some(event) = receiver.recv() => warn_of(report, event),
            result = &mut connecting => break result,
            signal = signals.next() => return Err(report.error(&format!("interrupted by {signal}"), 130)),
        }
    };
    while let Some(event) = receiver.try_recv() {
        warn_of(report, event);
    }
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
