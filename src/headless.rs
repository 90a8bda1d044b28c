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
    let session = match connect(connection, &report).await {
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
        signal = interrupted() => {
            report.error(&format!("interrupted by {signal}"), 130);
            130
        }
    };
    session.shutdown().await;
    code
}

async fn connect(connection: &ConnectionArgs, report: &Report) -> Result<Session, i32> {
    let options = connection
        .options()
        .map_err(|e| report.error(&e, exit::ERROR))?;
    let (events, _receiver) = EventSink::new();
    tokio::select! {
        result = Session::connect(&options, &events) => result.map_err(|e| report.error(&e.to_string(), e.exit_code())),
        signal = interrupted() => Err(report.error(&format!("interrupted by {signal}"), 130)),
    }
}

/// Resolves on Ctrl-C, SIGTERM or SIGHUP, naming which.
async fn interrupted() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut hangup)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => "Ctrl-C",
        _ = term.recv() => "SIGTERM",
        _ = hangup.recv() => "SIGHUP",
    }
}
