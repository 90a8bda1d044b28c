//! When each tool call in flight last showed life: its progress notifications, and its task's
//! status told as progress. A call times out only once its timeout passed without either, and
//! never while the user is being asked something by the server (a form can take longer to
//! fill than a call may stay silent): see `PendingCall::result_or_cancel`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// The calls in flight, by progress token, and when each last showed life.
#[derive(Debug, Default)]
pub struct CallClocks {
    calls: Mutex<HashMap<String, Instant>>,
}

impl CallClocks {
    /// A call with `token` began now.
    pub fn start(&self, token: &str) {
        if let Ok(mut calls) = self.calls.lock() {
            calls.insert(token.to_string(), Instant::now());
        }
    }

    /// The call with `token` showed life now (a token no call in flight has is ignored: a
    /// server cannot grow this map by naming tokens).
    pub fn touch(&self, token: &str) {
        if let Ok(mut calls) = self.calls.lock()
            && let Some(last) = calls.get_mut(token)
        {
            *last = Instant::now();
        }
    }

    /// The call with `token` is over.
    pub fn end(&self, token: &str) {
        if let Ok(mut calls) = self.calls.lock() {
            calls.remove(token);
        }
    }

    /// When the call with `token` last showed life.
    pub fn last(&self, token: &str) -> Option<Instant> {
        self.calls.lock().ok()?.get(token).copied()
    }
}

/// How often a silent call's clock is looked at (a timeout is told within this of its time).
pub const LOOK_EVERY: Duration = Duration::from_millis(250);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_calls_in_flight_are_timed() {
        let clocks = CallClocks::default();
        clocks.touch("stranger");
        assert_eq!(clocks.last("stranger"), None);
        clocks.start("1");
        let began = clocks.last("1").expect("in flight");
        clocks.touch("1");
        assert!(clocks.last("1").expect("in flight") >= began);
        clocks.end("1");
        assert_eq!(clocks.last("1"), None);
    }
}
