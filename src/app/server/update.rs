//! The commands about the server as a whole: ping (`p`), the conduct checks (`C`) and the log
//! level picker (`L`).

use crate::app::command::Command;
use crate::app::effect::{Effect, SessionRequest};
use crate::app::model::{LogKind, Model, Overlay, Pane};
use crate::app::server::query::round_trip;
use crate::app::server::state::{Conduct, Connection};
use crate::mcp::session::logging::{self, LEVELS};
use crate::mcp::{RequestError, ServerSummary};
use crate::untrusted;
use std::time::Duration;

/// The handshake is done: said in the log, and the tools asked for.
pub fn connected(model: &mut Model, server: ServerSummary) -> Vec<Effect> {
    model.push_log(
        LogKind::Event,
        format!(
            "connected to {} {} over {} (protocol {})",
            untrusted::label(&server.name),
            untrusted::label(&server.version),
            server.transport,
            server.protocol_version
        ),
    );
    model.session.server = Some(server);
    model.session.connection = Connection::Connected;
    let mut effects = vec![Effect::Session(SessionRequest::ListTools)];
    effects.extend(crate::app::server::watch::settled(model));
    effects
}

pub fn connect_failed(model: &mut Model, reason: &str) -> Vec<Effect> {
    let text = untrusted::block(reason);
    model.push_log(LogKind::Problem, text.clone());
    model.session.connection = Connection::Failed(text);
    crate::app::server::watch::failed(model)
}

/// `tools/list` failed. Decided by the error's kind: a closed connection is lost, anything
/// else is news for the status line.
pub fn list_failed(model: &mut Model, error: RequestError) {
    let text = untrusted::block(&format!("tools/list failed: {error}"));
    model.push_log(LogKind::Problem, text.clone());
    if model.session.connection != Connection::Connected || matches!(error, RequestError::Closed(_))
    {
        model.session.connection = Connection::Lost(text);
    } else {
        model.view.status = Some(text.lines().next().unwrap_or_default().to_string());
    }
}

/// Times a round trip, when connected.
pub fn ping(model: &mut Model) -> Vec<Effect> {
    if model.session.connection != Connection::Connected {
        model.view.status = Some("not connected: nothing to ping".into());
        return Vec::new();
    }
    model.view.status = Some("ping…".into());
    vec![Effect::Session(SessionRequest::Ping)]
}

pub fn pinged(model: &mut Model, outcome: Result<(Duration, &'static str), RequestError>) {
    let said = match outcome {
        Ok((took, method)) => {
            model.session.last_ping = Some((took, method));
            format!("ping: {} ({method})", round_trip(took))
        }
        Err(e) => format!("ping failed: {e}"),
    };
    model.push_log(LogKind::Event, said.clone());
    model.view.status = Some(said);
}

/// Asks for the conduct checks (`C`): the Server pane shows them as they come back.
pub fn conform(model: &mut Model) -> Vec<Effect> {
    if model.session.connection != Connection::Connected {
        model.view.status = Some("not connected: no conduct to check".into());
        return Vec::new();
    }
    if model.session.conduct == Conduct::Checking {
        model.view.status = Some("the conduct checks are running".into());
        return Vec::new();
    }
    let stdio = model
        .session
        .server
        .as_ref()
        .is_some_and(|s| s.transport == "stdio");
    let seen = crate::conform::Seen {
        non_json_lines: model.session.non_json.0,
        first_non_json: model.session.non_json.1.clone(),
        stdio,
    };
    model.session.conduct = Conduct::Checking;
    model.view.focus = Pane::Server;
    model.view.status = Some("checking the server's conduct…".into());
    vec![Effect::Session(SessionRequest::Conform(seen))]
}

/// The conduct checks came back: kept for the Server pane, summed up in the status line.
pub fn conformed(model: &mut Model, outcome: Result<Vec<crate::conform::Finding>, String>) {
    use crate::conform::{Level, Status};
    let said = match &outcome {
        Ok(found) => {
            let count = |status| found.iter().filter(|f| f.status == status).count();
            let must = found
                .iter()
                .filter(|f| f.status == Status::Fail && f.level == Level::Must)
                .count();
            format!(
                "conduct: {} passed, {} failed ({must} of a MUST), {} not applicable",
                count(Status::Pass),
                count(Status::Fail),
                count(Status::NotApplicable)
            )
        }
        Err(why) => format!("conduct checks failed: {why}"),
    };
    model.session.conduct = match outcome {
        Ok(found) => Conduct::Found(found),
        Err(why) => Conduct::Failed(why),
    };
    model.push_log(LogKind::Event, said.clone());
    model.view.status = Some(said);
}

/// Opens the picker on the level asked so far (info when none was).
pub fn open_levels(model: &mut Model) {
    let current = model.session.log_level.unwrap_or("info");
    let cursor = LEVELS.iter().position(|l| *l == current).unwrap_or(1);
    model.view.overlay = Some(Overlay::LogLevel(cursor));
}

pub fn move_in_levels(model: &mut Model, motion: Command) {
    if let Some(Overlay::LogLevel(cursor)) = &mut model.view.overlay {
        *cursor = match motion {
            Command::Down => (*cursor + 1).min(LEVELS.len() - 1),
            Command::Up => cursor.saturating_sub(1),
            Command::First => 0,
            Command::Last => LEVELS.len() - 1,
            _ => *cursor,
        };
    }
}

/// Asks the server for the level under the picker's cursor.
pub fn set_log_level(model: &mut Model) -> Vec<Effect> {
    let Some(Overlay::LogLevel(cursor)) = model.view.overlay.take() else {
        return Vec::new();
    };
    let level = LEVELS[cursor.min(LEVELS.len() - 1)];
    if model.session.connection != Connection::Connected {
        model.session.log_level = Some(level);
        model.view.status = Some(format!("log level {level}: asked once connected"));
    }
    vec![Effect::Session(SessionRequest::SetLogLevel(level))]
}

pub fn log_level_set(model: &mut Model, level: &'static str, outcome: Result<(), RequestError>) {
    let said = match outcome {
        Ok(()) => {
            model.session.log_level = Some(level);
            let how = model
                .session
                .server
                .as_ref()
                .map(|s| logging::how(s.era))
                .unwrap_or_default();
            format!("log level {level}: {how}")
        }
        Err(e) => format!("log level {level} refused: {e}"),
    };
    model.push_log(LogKind::Event, said.clone());
    model.view.status = Some(said);
}
