//! The headless subcommands (`tools`, `inspect`, `call`, `check`): the same engine as the TUI,
//! printing text or JSON for scripts and CI, with documented exit codes.

mod call;
mod check;
mod inspect;
mod output;
mod tools;

use crate::cli::{Command, ConnectionArgs, Format};
use crate::mcp::error::exit;
use crate::mcp::{EventSink, Session};
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
    let session = match connect(connection, &report, &mut signals).await {
        Ok(s) => s,
        Err(code) => return code,
    };
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
    code
}

async fn connect(
    connection: &ConnectionArgs,
    report: &Report,
    signals: &mut Signals,
) -> Result<Session, i32> {
    let options = connection
        .options()
        .map_err(|e| report.error(&e, exit::ERROR))?;
    let (events, _receiver) = EventSink::new();
    tokio::select! {
        result = Session::connect(&options, &events) => result.map_err(|e| report.error(&e.to_string(), e.exit_code())),
        signal = signals.next() => Err(report.error(&format!("interrupted by {signal}"), 130)),
    }
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
