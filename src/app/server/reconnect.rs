//! A new handshake asked for (by the user, or by `--watch` after a change): the calls in
//! flight and the server's open requests are given up first. Pure.

use crate::app::effect::{Effect, SessionRequest};
use crate::app::model::{LogKind, Model};
use crate::app::server::state::Connection;

/// A new handshake, whether the connection looks alive or not: an HTTP session the server
/// forgot (it restarted) looks alive until a request fails.
pub fn reconnect(model: &mut Model) -> Vec<Effect> {
    if model.session.connection == Connection::Connecting {
        model.view.status = Some("already connecting".into());
        return Vec::new();
    }
    model.session.connection = Connection::Connecting;
    model.push_log(LogKind::Event, "reconnecting: a new handshake".into());
    crate::app::call::update::abandon_all(model, "abandoned: reconnecting");
    // The old session's requests die with it: nobody can take their answers now.
    model.asked.clear();
    vec![Effect::Session(SessionRequest::Reconnect)]
}
