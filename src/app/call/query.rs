//! What the call panel asks of a call's state without changing it.

use crate::app::asked::state::AskPanel;
use crate::app::call::state::InFlight;
use crate::app::server::state::CallLimits;
use std::time::{Duration, Instant};

/// Time left at `now` before the call times out (the wait restarts on progress).
pub fn remaining(flight: &InFlight, limits: CallLimits, now: Instant) -> Duration {
    let quiet = now.saturating_duration_since(flight.last_activity);
    let running = now.saturating_duration_since(flight.started);
    let idle_left = limits.timeout.saturating_sub(quiet);
    idle_left.min(limits.max_time.saturating_sub(running))
}

/// Whether a request of the server's waits for the user's answer (not one of our own forms):
/// the session does not time calls meanwhile.
pub fn server_waits_on_user(asked: &std::collections::VecDeque<AskPanel>) -> bool {
    asked.iter().any(|panel| panel.own.is_none())
}
