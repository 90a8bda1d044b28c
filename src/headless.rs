//! The headless subcommands (`tools`, `inspect`, `call`, `check`, `resources`, `templates`,
//! `read`, `prompts`, `prompt`, `complete`, `ping`, `snapshot`, `diff`, `auth`): the same engine as the TUI, printing text
//! or JSON for scripts and CI, with documented exit codes.

pub mod auth;
mod call;
mod check;
mod conform;
mod drift;
pub mod exit;
mod inspect;
mod load;
mod output;
mod plan;
mod prompts;
mod request;
mod resources;
mod signals;
mod skills;
mod snapshot_watch;
mod status;
mod teller;
mod test;
mod tools;
mod verify;

use crate::cli::{Command, ConnectionArgs};
use crate::mcp::{EventReceiver, EventSink, Session};
use output::Report;
use plan::Plan;
use signals::Signals;
use teller::Teller;

/// Runs one headless command and returns the process exit code.
pub async fn run(command: Command) -> i32 {
    let (connection, format, job) = match plan::plan(&command) {
        Plan::Files { old, new, format } => return drift::files(old, new, format),
        Plan::Refused { message, format } => return Report { format }.error(&message, exit::ERROR),
        Plan::Watching {
            connection,
            out,
            paths,
        } => return snapshot_watch::snapshots(connection, out, paths).await,
        Plan::Verify {
            connection,
            options,
        } => return verify::run(connection, options).await,
        Plan::Load {
            connection,
            options,
        } => return load::run(connection, options).await,
        Plan::Eras { connection, format } => return drift::eras(connection, format).await,
        Plan::Elsewhere => return exit::ERROR,
        Plan::Connected {
            connection,
            format,
            job,
        } => (connection, format, job),
    };
    let report = Report { format };
    // Listening from the start, once: a signal that arrives between two waits is kept.
    let mut signals = Signals::new();
    let (events, mut receiver) = EventSink::new();
    let early = job.early();
    let connected = connect_telling(connection, &report, &mut signals, &events, &mut receiver);
    let (session, told_so_far) = match connected.await {
        Ok(connected) => connected,
        Err(code) => return code,
    };
    // What the connection notices from now on is printed as it comes.
    let teller = std::sync::Arc::new(std::sync::Mutex::new(told_so_far));
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
    let work = job.run(&session, &report, &teller, early);
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

/// Connects, printing what the connection notices meanwhile, all of it before any error (the
/// notice often says why the handshake failed: "the server wrote a non-JSON line …").
async fn connect(
    connection: &ConnectionArgs,
    report: &Report,
    signals: &mut Signals,
    events: &EventSink,
    receiver: &mut EventReceiver,
) -> Result<Session, i32> {
    let connected = connect_telling(connection, report, signals, events, receiver).await;
    connected.map(|(session, _)| session)
}

/// [`connect`], with what was told on the way (a non-JSON line before the handshake counts).
async fn connect_telling(
    connection: &ConnectionArgs,
    report: &Report,
    signals: &mut Signals,
    events: &EventSink,
    receiver: &mut EventReceiver,
) -> Result<(Session, Teller), i32> {
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
    match result {
        Ok(session) => Ok((session, teller)),
        Err(e) => Err(report.error(&e.to_string(), exit::of_connect(&e))),
    }
}

/// How a reproduce line connects: as this run was asked to (`--demo` stays `--demo`,
/// `--hostile=…` stays that, not the command line it stands for).
fn connection_words(connection: &ConnectionArgs) -> Vec<String> {
    match (connection.demo, &connection.hostile) {
        (true, _) => vec!["--demo".to_string()],
        (false, Some(attacks)) => vec![hostile_flag(attacks)],
        (false, None) => (connection.options())
            .map(|o| o.target.words())
            .unwrap_or_default(),
    }
}

/// `--hostile` as given: its attacks by name, or none.
fn hostile_flag(attacks: &[crate::hostile::Attack]) -> String {
    use clap::ValueEnum;
    let names: Vec<String> = attacks
        .iter()
        .filter_map(|a| a.to_possible_value().map(|v| v.get_name().to_string()))
        .collect();
    match names.is_empty() {
        true => "--hostile".into(),
        false => format!("--hostile={}", names.join(",")),
    }
}
