//! The signals that end a headless command (Ctrl-C, SIGTERM, SIGHUP), listened to from the
//! start so one that arrives between two waits is kept.

/// Ctrl-C, SIGTERM and SIGHUP, listened to for the whole command.
pub struct Signals {
    streams: Option<[tokio::signal::unix::Signal; 3]>,
}

impl Signals {
    pub fn new() -> Signals {
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
    pub async fn next(&mut self) -> &'static str {
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
