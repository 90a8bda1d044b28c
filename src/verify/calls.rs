//! One call of `verify`, sent over a [`Link`] and waited for: a progress notification extends
//! its wait up to the hard maximum, and a call silent for the whole wait is sent again to tell
//! a slow tool from a hung one.

use crate::mcp::surface::result::CallResult;
use crate::mcp::surface::tool::Tool;
use crate::mcp::{RequestError, Session};
use futures::future::{BoxFuture, FutureExt, Shared};
use futures::stream::{FuturesUnordered, StreamExt};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Where calls go: a session, or why there is none.
pub trait Link: Send {
    /// Why no session could be had, in the link's own words (the headless link: the exit code
    /// of the failure it already told); the run ends and hands it back.
    type Lost: Send;

    fn session(&mut self) -> impl Future<Output = Result<&Session, Self::Lost>> + Send;

    /// Resolves when the run is to stop: a call in flight is then cancelled (the server told).
    fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        std::future::pending()
    }
}

/// The TUI's session as it is: once closed, or once `stop` says so, the run ends.
pub struct Live<'s> {
    pub session: &'s Session,
    pub stop: tokio::sync::watch::Receiver<bool>,
}

impl Link for Live<'_> {
    /// The session closed or the run was stopped: the TUI says which itself.
    type Lost = ();

    async fn session(&mut self) -> Result<&Session, ()> {
        match self.session.is_closed() || *self.stop.borrow() {
            true => Err(()),
            false => Ok(self.session),
        }
    }

    fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut stop = self.stop.clone();
        async move {
            let _ = stop.wait_for(|stopped| *stopped).await;
        }
    }
}

/// How a tool's calls wait.
#[derive(Debug, Clone, Copy)]
pub struct Wait {
    /// Silence (no result, no progress) past this is a timeout (`--call-timeout`).
    pub limit: Duration,
    /// A call silent for `limit` is sent again, waited for up to the hard maximum (see
    /// [`patient`]); not while shrinking, where a timeout only tells a candidate apart.
    pub patient: bool,
    /// When the time budget is spent: no call is started after it.
    pub until: Option<Instant>,
}

impl Wait {
    /// Whether a call may still be started (the time budget not spent).
    pub fn in_budget(&self) -> bool {
        self.until.is_none_or(|until| Instant::now() <= until)
    }

    /// The hard maximum of a call: [`PROGRESS_EXTENDS`] times `limit`.
    pub fn hard(&self) -> Duration {
        self.limit.saturating_mul(PROGRESS_EXTENDS)
    }
}

/// How a call went.
pub enum Called {
    /// An outcome to judge, and, when it came only when the call was sent again, the words
    /// that say the tool is slow.
    Ended(Box<Result<CallResult, RequestError>>, Option<String>),
    /// Silent, then alive when sent again (cut at its first sign of life): the tool is slow,
    /// this call not judged; in these words.
    Alive(String),
    /// Silent, and the time budget spent before it could be sent again: slow or hung is not
    /// told, the tool is left; in these words.
    Unsent(String),
}

/// One call sent, a silent one sent again to tell slow from hung (see [`patient`]).
pub async fn called<L: Link>(
    link: &mut L,
    tool: &Tool,
    args: &Value,
    wait: Wait,
) -> Result<Called, L::Lost> {
    // Silent for `limit`, cancelled (progress restarts the wait, as the spec allows, up to
    // the hard maximum in all).
    match sent(link, tool, args, wait.limit, Some(wait.hard()))
        .await?
        .0
    {
        Err(RequestError::Timeout(_)) if wait.patient => patient(link, tool, args, wait).await,
        outcome => Ok(Called::Ended(Box::new(outcome), None)),
    }
}

/// A call silent for `--call-timeout` is sent again with the same input, and waited for up to
/// the hard maximum (10 × `--call-timeout`) or its first sign of life: a tool whose normal run
/// takes that long answers or reports progress then, and is slow, not hung (said so; its
/// calls then run together when it is read-only, see [`Together`]); one silent again the
/// whole time is hung (the timeout failure, its message saying both waits).
async fn patient<L: Link>(
    link: &mut L,
    tool: &Tool,
    args: &Value,
    wait: Wait,
) -> Result<Called, L::Lost> {
    let limit = wait.limit.as_secs_f64();
    let silent = format!("a call was silent for {limit} s");
    if !wait.in_budget() {
        return Ok(Called::Unsent(format!(
            "{silent}, and the time budget was spent before it could be sent again (slow or hung: not told)"
        )));
    }
    let hard = wait.hard();
    let began = Instant::now();
    let (outcome, alive) = sent(link, tool, args, hard, None).await?;
    let after = began.elapsed().as_secs_f64();
    if alive {
        return Ok(Called::Alive(format!(
            "{silent}, then alive when sent again (progress after {after:.1} s): slow, not hung"
        )));
    }
    // Silent again (hung), stopped, or gone with the server: nothing answered.
    let answered = !matches!(
        outcome,
        Err(RequestError::Timeout(_) | RequestError::Cancelled | RequestError::Closed(_))
    );
    let slow = answered.then(|| {
        format!("{silent}, then answered in {after:.1} s when sent again: slow, not hung")
    });
    Ok(Called::Ended(Box::new(outcome), slow))
}

/// Progress extends a call's wait up to this many times `--call-timeout` in all: a server that
/// reports progress for ever (or floods it) is still cut. The hard maximum of a call.
pub const PROGRESS_EXTENDS: u32 = 10;

/// Sends one call, waiting up to `wait` for each sign of life and `cap` in all, or with no
/// cap only until its first sign of life; cancelled at either limit, at that sign of life, or
/// when the run stops. The outcome, and whether it was cut at a sign of life.
async fn sent<L: Link>(
    link: &mut L,
    tool: &Tool,
    args: &Value,
    wait: Duration,
    cap: Option<Duration>,
) -> Result<(Result<CallResult, RequestError>, bool), L::Lost> {
    let stopped = link.stopped();
    let session = link.session().await?;
    Ok(sent_on(session, stopped, tool, args, (wait, cap)).await)
}

/// [`sent`] on a session had already, `stopped` resolving when the run is to stop.
async fn sent_on(
    session: &Session,
    stopped: impl Future<Output = ()>,
    tool: &Tool,
    args: &Value,
    (wait, cap): (Duration, Option<Duration>),
) -> (Result<CallResult, RequestError>, bool) {
    let as_task = tool.task_support() == Some("required");
    let started = session
        .start_call_waiting(&tool.name, args.clone(), as_task, wait)
        .await;
    let began = tokio::time::Instant::now();
    let alive = AtomicBool::new(false);
    let outcome = match started {
        Ok(pending) => {
            let life = pending.shows_life();
            let cancel = async {
                let most = cap.unwrap_or(Duration::MAX);
                tokio::select! {
                    () = tokio::time::sleep(most), if cap.is_some() => {}
                    () = stopped => {}
                    () = life, if cap.is_none() => alive.store(true, Ordering::Relaxed),
                }
            };
            pending.result_or_cancel(cancel).await
        }
        Err(e) => Err(e),
    };
    let alive = alive.load(Ordering::Relaxed);
    // Cancelled at the cap, not by a stop: the call was still working (a silent one ends at
    // `wait` with a timeout, before the cap).
    match (outcome, cap) {
        (Err(RequestError::Cancelled), Some(cap)) if began.elapsed() >= cap => {
            (Err(RequestError::TooLong(cap)), false)
        }
        (other, _) => (other, alive),
    }
}

/// Calls of a slow tool run together: once a tool is known to be slow (it answered, or showed
/// life, only after a silence of `--call-timeout`), its calls each wait up to the hard maximum
/// (10 × `--call-timeout`, silent or not), [`TOGETHER`] at a time, so that its planned calls
/// are made in the time of a few. Only for a read-only tool: calls that change state could
/// meet each other.
pub struct Together<'s> {
    session: &'s Session,
    tool: &'s Tool,
    stopped: Shared<BoxFuture<'static, ()>>,
    hard: Duration,
    running: FuturesUnordered<BoxFuture<'s, (Value, Result<CallResult, RequestError>)>>,
}

/// How many calls of a slow tool run at once.
pub const TOGETHER: usize = 16;

impl<'s> Together<'s> {
    /// Calls to `tool` on `link`'s session, each waiting up to the hard maximum of `wait`.
    pub async fn new<L: Link>(
        link: &'s mut L,
        tool: &'s Tool,
        wait: Wait,
    ) -> Result<Together<'s>, L::Lost> {
        let stopped = link.stopped().boxed().shared();
        Ok(Together {
            session: link.session().await?,
            tool,
            stopped,
            hard: wait.hard(),
            running: FuturesUnordered::new(),
        })
    }

    /// The era the session speaks, for judging results.
    pub fn era(&self) -> crate::schema::Era {
        self.session.server.era
    }

    /// Whether another call may start now.
    pub fn has_room(&self) -> bool {
        self.running.len() < TOGETHER
    }

    /// Starts a call with `args`.
    pub fn start(&mut self, args: Value) {
        let (session, tool, hard) = (self.session, self.tool, self.hard);
        let stopped = self.stopped.clone();
        self.running.push(Box::pin(async move {
            let (outcome, _) = sent_on(session, stopped, tool, &args, (hard, Some(hard))).await;
            (args, outcome)
        }));
    }

    /// The next call to end, with its input; `None` when none is running.
    pub async fn next(&mut self) -> Option<(Value, Result<CallResult, RequestError>)> {
        self.running.next().await
    }

    /// The longest a call waits, in seconds.
    pub fn hard_secs(&self) -> f64 {
        self.hard.as_secs_f64()
    }
}
