//! Checks of tool calls in flight, on a fresh copy of a stdio server: progress notifications for
//! a call's `progressToken` (each for a token of a request still active, its progress rising)
//! and cancellation (once the server has read `notifications/cancelled`, no answer and no more
//! progress for that call). Only read-only tools are called, with their schema's typical
//! arguments (those mentioning progress first): each twice at once, one call watched, the other
//! cancelled at its first progress notification. A server may send no progress at all: then
//! neither check applies.

use super::http_raw::{LAST_WITH_SESSIONS, Raw};
use super::http_stream::HttpStream;
use super::hygiene::{INITIALIZED, SPOKEN, handshake_failed, initialize, not_run, ping};
use super::probe::{Next, Probe, is_response};
use super::{Finding, Level, Selection, Status, finding};
use crate::config::target::Target;
use crate::mcp::Session;
use crate::schema::Era;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::time::Instant;

/// The ids of the checks here, in the order they run.
pub const IDS: [&str; 2] = ["progress-notifications", "cancellation-respected"];

/// Tools tried at most, looking for one that reports progress.
const TOOLS_TRIED: usize = 4;
/// How long both calls of a tool may be silent before the next tool is tried.
const SILENT: Duration = Duration::from_secs(3);
/// How long one tool's calls are watched at most (a server flooding progress never goes quiet).
const PER_TOOL: Duration = Duration::from_secs(15);
/// The longest wait, once the cancel was read, for an answer or progress that should not come.
const SETTLE_MAX: Duration = Duration::from_secs(5);
/// Events kept (a flood of progress is read, not kept).
const MAX_EVENTS: usize = 10_000;
/// The id of the ping written after a cancel: its answer says the cancel was read.
const AFTER_CANCEL: &str = "after-cancel";

/// What the probe saw of the calls it made, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A `notifications/progress`, as sent.
    Progress {
        token: Value,
        progress: Value,
        total: Option<Value>,
    },
    /// A response to one of the calls (by its id).
    Answered(Value),
    /// The server has read the cancel of the call with this id (the ping after it answered).
    CancelRead(Value),
}

/// One call made: its JSON-RPC id and its progress token.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub id: Value,
    pub token: Value,
}

impl Call {
    fn new(role: &str, n: usize) -> Call {
        Call {
            id: json!(format!("conform-{role}-{n}")),
            token: json!(format!("conform-{role}-token-{n}")),
        }
    }

    fn line(&self, tool: &str, arguments: &Value) -> String {
        json!({"jsonrpc": "2.0", "id": self.id, "method": "tools/call", "params": {
            "name": tool, "arguments": arguments, "_meta": {"progressToken": self.token}}})
        .to_string()
    }

    fn cancel_line(&self) -> String {
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {
            "requestId": self.id, "reason": "mcp-inspect conform: cancellation check"}})
        .to_string()
    }
}

fn progress_notifications() -> Finding {
    finding(
        "progress-notifications",
        "progress notifications name the progressToken of a request still in flight, and its progress rises with each",
        Level::Must,
        "basic/utilities/progress",
    )
}

fn cancellation_respected() -> Finding {
    finding(
        "cancellation-respected",
        "once a call's notifications/cancelled is read, no answer and no more progress come for it",
        Level::Should,
        "basic/utilities/cancellation",
    )
}

/// A copy of a stdio server started and initialized for the checks here before the session
/// connects (it needs none): its start is then off the checks' path, the longest of `conform`.
pub struct Early(Option<tokio::task::JoinHandle<Result<Probe, String>>>);

impl Early {
    pub fn none() -> Early {
        Early(None)
    }

    /// Starts the copy when `target` is a stdio server and `selection` wants the checks.
    pub fn start(target: Option<&Target>, selection: &Selection) -> Early {
        let wanted = IDS.iter().any(|id| selection.wants(id));
        match target {
            Some(target @ Target::Stdio { .. }) if wanted => {
                let target = target.clone();
                Early(Some(tokio::spawn(async move { open_stdio(&target).await })))
            }
            _ => Early(None),
        }
    }

    /// The copy, once it is up (`None` when none was started, or its task failed).
    async fn taken(self) -> Option<Result<Probe, String>> {
        self.0?.await.ok()
    }

    /// Ends the copy unused.
    pub async fn discard(self) {
        if let Some(Ok(probe)) = self.taken().await {
            probe.end().await;
        }
    }
}

/// The checks here `selection` wants, on a fresh copy of the server `target` names (`early`,
/// when it was started already).
pub async fn run(
    session: &Session,
    target: &Target,
    selection: &Selection,
    early: Early,
) -> Vec<Finding> {
    if !IDS.iter().any(|id| selection.wants(id)) {
        early.discard().await;
        return Vec::new();
    }
    let mut found = every_check(session, target, selection, early).await;
    found.retain(|f| selection.wants(f.id));
    found
}

async fn every_check(
    session: &Session,
    target: &Target,
    selection: &Selection,
    early: Early,
) -> Vec<Finding> {
    let checks = [progress_notifications(), cancellation_respected()];
    let tools = candidates(session, selection, true).await;
    if tools.is_empty() {
        early.discard().await;
        return not_run(
            checks,
            &format!("no tool it may call ({})", super::NO_TOOL_ALLOWED),
        );
    }
    let opened = match early.taken().await {
        Some(started) => started.map(Channel::Stdio),
        None => Channel::open(target, session).await,
    };
    let channel = match opened {
        Ok(channel) => channel,
        Err(why) => return not_run(checks, &why),
    };
    let mut watch = Watch {
        channel,
        events: Vec::new(),
        calls: Vec::new(),
    };
    let mut cancelled = None;
    for (n, (tool, arguments)) in tools.iter().enumerate() {
        cancelled = watch.try_tool(n + 1, tool, arguments).await;
        if cancelled.is_some() {
            break;
        }
    }
    let Watch {
        channel,
        events,
        calls,
    } = watch;
    let [progress, cancellation] = checks;
    let progress = channel.judged(progress, progress_judged(&events, &calls));
    let cancellation = match cancelled {
        Some((call, settle)) => {
            channel.judged(cancellation, cancellation_judged(&events, &call, settle))
        }
        None => cancellation.not_applicable(&format!(
            "no read-only tool reported progress, so none was seen in flight to cancel (tried {})",
            tools
                .iter()
                .map(|(name, _)| name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    };
    channel.end().await;
    vec![progress, cancellation]
}

/// Where the calls are made and read: a fresh copy of a stdio server, or a session opened by
/// hand on a Streamable HTTP server.
enum Channel<'a> {
    Stdio(Probe),
    Http(HttpStream<'a>),
}

impl<'a> Channel<'a> {
    /// A copy of the server started and initialized, or a session opened; why not, if not.
    async fn open(target: &'a Target, session: &Session) -> Result<Channel<'a>, String> {
        if let Some(raw) = Raw::of(target) {
            // `initialize` and sessions belong to the eras before 2026-07-28.
            let version = match session.server.era {
                Era::Modern => LAST_WITH_SESSIONS,
                Era::Legacy => session.server.protocol_version.as_str(),
            };
            let opened = (raw.open(version).await)
                .map_err(|why| format!("an initialize of its own failed: {why}"))?;
            return Ok(Channel::Http(HttpStream::new(raw, opened)));
        }
        open_stdio(target).await.map(Channel::Stdio)
    }

    async fn write(&mut self, line: &str) {
        match self {
            Channel::Stdio(probe) => {
                probe.write(line).await;
            }
            Channel::Http(stream) => stream.write(line).await,
        }
    }

    async fn next_message(&mut self, deadline: Instant) -> Next {
        match self {
            Channel::Stdio(probe) => probe.next_message(deadline).await,
            Channel::Http(stream) => stream.next_message(deadline).await,
        }
    }

    /// `check` judged, with what reproduces it: the lines written, or the requests sent.
    fn judged(&self, check: Finding, verdict: (Status, String)) -> Finding {
        match self {
            Channel::Stdio(probe) => check.judged_raw(&probe.wrote, verdict),
            Channel::Http(stream) => check.judged_http(stream.sent.clone(), verdict),
        }
    }

    async fn end(self) {
        match self {
            Channel::Stdio(probe) => probe.end().await,
            Channel::Http(stream) => stream.end().await,
        }
    }
}

/// A fresh copy of the stdio server `target` names, started and initialized; why not, if not.
async fn open_stdio(target: &Target) -> Result<Probe, String> {
    let mut probe = match Probe::start(target) {
        None => return Err("needs a stdio or Streamable HTTP server".into()),
        Some(Err(e)) => {
            return Err(format!("could not start a second copy of the server: {e}"));
        }
        Some(Ok(probe)) => probe,
    };
    let waited = probe.ask(&initialize(SPOKEN), &json!(1)).await;
    if let Some(why) = handshake_failed(&waited.reply) {
        probe.end().await;
        return Err(why);
    }
    probe.write(INITIALIZED).await;
    Ok(probe)
}

/// The tools `selection` lets a check call (read-only ones, unless allowed), those whose name or
/// description mentions progress first (or last, when not `progress_first`), each with its
/// inputSchema's typical arguments.
pub(super) async fn candidates(
    session: &Session,
    selection: &Selection,
    progress_first: bool,
) -> Vec<(String, Value)> {
    let Ok(list) = session.list_tools().await else {
        return Vec::new();
    };
    let mut tools: Vec<_> = (list.tools.iter())
        .filter(|t| selection.may_call(&list, t))
        .collect();
    let mentions_progress = |t: &&crate::mcp::surface::tool::Tool| {
        let words = format!(
            "{} {}",
            t.name,
            t.description.as_deref().unwrap_or_default()
        );
        words.to_lowercase().contains("progress")
    };
    tools.sort_by_key(|t| mentions_progress(t) != progress_first);
    (tools.into_iter().take(TOOLS_TRIED))
        .map(|t| {
            (
                t.name.clone(),
                crate::schema::generate::skeleton(&t.input_schema),
            )
        })
        .collect()
}

/// A channel and what it saw of the calls made on it.
struct Watch<'a> {
    channel: Channel<'a>,
    events: Vec<Event>,
    calls: Vec<Call>,
}

impl Watch<'_> {
    /// Calls `tool` twice at once; cancels the second call at its first progress notification
    /// and watches until the server has read the cancel and the settling time passed. Returns
    /// the cancelled call and that time, or `None` when no progress came (both answered, or
    /// silent for [`SILENT`]).
    async fn try_tool(
        &mut self,
        n: usize,
        tool: &str,
        arguments: &Value,
    ) -> Option<(Call, Duration)> {
        let (watched, cancelled) = (Call::new("watched", n), Call::new("cancelled", n));
        for call in [&watched, &cancelled] {
            self.channel.write(&call.line(tool, arguments)).await;
            self.calls.push(call.clone());
        }
        let started = Instant::now();
        let mut quiet_after = started + SILENT;
        let mut settle = None;
        let mut read_at = None;
        loop {
            let deadline = match read_at {
                Some(at) => at + settle.unwrap_or(SETTLE_MAX),
                None => quiet_after,
            };
            let message = match self
                .channel
                .next_message(deadline.min(started + PER_TOOL))
                .await
            {
                Next::Message(message) => message,
                Next::Quiet | Next::Ended => break,
            };
            quiet_after = Instant::now() + SILENT;
            if is_response(&message) && message["id"] == json!(AFTER_CANCEL) {
                self.push(Event::CancelRead(cancelled.id.clone()));
                read_at = Some(Instant::now());
                continue;
            }
            let Some(event) = event_of(&message, &[&watched, &cancelled]) else {
                continue;
            };
            let of_cancelled = match &event {
                Event::Progress { token, .. } => *token == cancelled.token,
                Event::Answered(id) => *id == cancelled.id,
                Event::CancelRead(_) => false,
            };
            let first_progress =
                settle.is_none() && of_cancelled && matches!(event, Event::Progress { .. });
            self.push(event);
            if read_at.is_some() && of_cancelled {
                // What should not come came: the verdict is in.
                break;
            }
            if first_progress {
                // A server that goes on sends its next step about as late as its first came.
                settle =
                    Some((started.elapsed() * 5 / 4 + Duration::from_millis(250)).min(SETTLE_MAX));
                self.channel.write(&cancelled.cancel_line()).await;
                self.channel
                    .write(&ping(&format!("\"{AFTER_CANCEL}\"")))
                    .await;
            }
            if settle.is_none() && self.answered(&watched) && self.answered(&cancelled) {
                return None;
            }
        }
        // What is still running is told to stop, not waited for.
        for call in [&watched, &cancelled] {
            if !self.answered(call) && (settle.is_none() || *call == watched) {
                self.channel.write(&call.cancel_line()).await;
            }
        }
        settle.map(|settle| (cancelled, settle))
    }

    fn push(&mut self, event: Event) {
        if self.events.len() < MAX_EVENTS {
            self.events.push(event);
        }
    }

    fn answered(&self, call: &Call) -> bool {
        self.events.contains(&Event::Answered(call.id.clone()))
    }
}

/// `message` as an event of `calls`: a progress notification (any token: one no call carried
/// is a finding), or a response to one of them.
fn event_of(message: &Value, calls: &[&Call]) -> Option<Event> {
    if is_response(message) {
        let id = &message["id"];
        return calls
            .iter()
            .any(|c| c.id == *id)
            .then(|| Event::Answered(id.clone()));
    }
    if message["method"] != "notifications/progress" {
        return None;
    }
    let params = &message["params"];
    Some(Event::Progress {
        token: params["progressToken"].clone(),
        progress: params["progress"].clone(),
        total: params.get("total").cloned(),
    })
}

/// A value as a finding quotes it (the server's text, escaped and cut).
fn shown(value: &Value) -> String {
    crate::untrusted::line(&value.to_string(), 80).into_owned()
}

/// Progress notifications judged: each for the token of a call made whose answer has not come,
/// its progress a number above the last for that token, its total (when given) a number. A
/// cancelled call's progress after its cancel was read is the cancellation check's. None at
/// all: not applicable (a server may send none).
pub fn progress_judged(events: &[Event], calls: &[Call]) -> (Status, String) {
    let fail = |why: String| (Status::Fail, why);
    let mut done: Vec<&Value> = Vec::new();
    let mut last: Vec<(&Value, f64)> = Vec::new();
    let mut seen = 0;
    for event in events {
        let (token, progress, total) = match event {
            Event::Answered(id) | Event::CancelRead(id) => {
                done.extend(calls.iter().filter(|c| c.id == *id).map(|c| &c.token));
                continue;
            }
            Event::Progress {
                token,
                progress,
                total,
            } => (token, progress, total),
        };
        if !calls.iter().any(|c| c.token == *token) {
            return fail(format!(
                "a progress notification for the token {}, which no request carried",
                shown(token)
            ));
        }
        if done.contains(&token) {
            let cancelled = events.contains(&Event::CancelRead(id_of(calls, token)));
            if cancelled {
                continue;
            }
            return fail(format!(
                "progress for the token {} after its call was answered",
                shown(token)
            ));
        }
        let Some(now) = progress.as_f64() else {
            return fail(format!("a progress of {}, not a number", shown(progress)));
        };
        if let Some(total) = total.as_ref().filter(|t| !t.is_number()) {
            return fail(format!("a total of {}, not a number", shown(total)));
        }
        if let Some((_, before)) = last.iter().find(|(t, _)| *t == token)
            && now <= *before
        {
            return fail(format!(
                "progress went from {before} to {now} for the token {}: it must rise with each notification",
                shown(token)
            ));
        }
        last.retain(|(t, _)| *t != token);
        last.push((token, now));
        seen += 1;
    }
    if seen == 0 {
        return (
            Status::NotApplicable,
            "no progress notification came for a progressToken (the spec lets a server send none)"
                .into(),
        );
    }
    (
        Status::Pass,
        format!(
            "{}, each for its call's token, rising",
            crate::plural::count(seen, "progress notification")
        ),
    )
}

fn id_of(calls: &[Call], token: &Value) -> Value {
    (calls.iter().find(|c| c.token == *token))
        .map(|c| c.id.clone())
        .unwrap_or_default()
}

/// The cancelled call judged: once the server read the cancel (the ping written after it was
/// answered), neither its answer nor its progress may come. An answer before then is the race
/// the spec allows.
pub fn cancellation_judged(events: &[Event], call: &Call, settle: Duration) -> (Status, String) {
    // Without it the watch ran out before the server was seen to read the cancel: unknown,
    // not a verdict.
    let Some(read) = events
        .iter()
        .position(|e| *e == Event::CancelRead(call.id.clone()))
    else {
        return (
            Status::NotApplicable,
            "not checked: the ping written after the cancel was not answered while watched".into(),
        );
    };
    let answer = Event::Answered(call.id.clone());
    if events[..read].contains(&answer) {
        return (
            Status::Pass,
            "answered before the cancel was read (a race the spec allows)".into(),
        );
    }
    let after = &events[read + 1..];
    if after.contains(&answer) {
        return (
            Status::Fail,
            "the cancelled call was answered after the cancel was read".into(),
        );
    }
    let progress = (after.iter())
        .filter(|e| matches!(e, Event::Progress { token, .. } if *token == call.token))
        .count();
    if progress > 0 {
        return (
            Status::Fail,
            format!(
                "{} for the cancelled call after the cancel was read: it went on working",
                crate::plural::count(progress, "progress notification")
            ),
        );
    }
    (
        Status::Pass,
        format!(
            "no answer and no progress in the {} ms after the cancel was read",
            settle.as_millis()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(token: &Value, progress: Value) -> Event {
        Event::Progress {
            token: token.clone(),
            progress,
            total: Some(json!(10)),
        }
    }

    #[test]
    fn progress_passes_only_when_rising_for_a_live_token() {
        let (a, b) = (Call::new("watched", 1), Call::new("cancelled", 1));
        let calls = [a.clone(), b.clone()];
        let rising = [
            progress(&a.token, json!(1)),
            progress(&b.token, json!(1)),
            progress(&a.token, json!(2.5)),
            Event::Answered(a.id.clone()),
        ];
        assert_eq!(progress_judged(&rising, &calls).0, Status::Pass);
        let flat = [progress(&a.token, json!(2)), progress(&a.token, json!(2))];
        assert_eq!(progress_judged(&flat, &calls).0, Status::Fail);
        let stranger = [progress(&json!("someone-else"), json!(1))];
        assert!(
            progress_judged(&stranger, &calls)
                .1
                .contains("no request carried")
        );
        let late = [Event::Answered(a.id.clone()), progress(&a.token, json!(3))];
        assert!(
            progress_judged(&late, &calls)
                .1
                .contains("after its call was answered")
        );
        let text = [progress(&a.token, json!("half"))];
        assert_eq!(progress_judged(&text, &calls).0, Status::Fail);
        // A cancelled call's later progress is judged by the cancellation check.
        let cancelled = [
            progress(&b.token, json!(1)),
            Event::CancelRead(b.id.clone()),
            progress(&b.token, json!(2)),
        ];
        assert_eq!(progress_judged(&cancelled, &calls).0, Status::Pass);
        assert_eq!(progress_judged(&[], &calls).0, Status::NotApplicable);
    }

    #[test]
    fn cancellation_fails_on_an_answer_or_progress_after_the_cancel_was_read() {
        let b = Call::new("cancelled", 1);
        let settle = Duration::from_millis(500);
        let read = Event::CancelRead(b.id.clone());
        let answered = Event::Answered(b.id.clone());
        let quiet = [progress(&b.token, json!(1)), read.clone()];
        assert_eq!(cancellation_judged(&quiet, &b, settle).0, Status::Pass);
        let raced = [progress(&b.token, json!(1)), answered.clone(), read.clone()];
        assert_eq!(cancellation_judged(&raced, &b, settle).0, Status::Pass);
        let answered_anyway = [read.clone(), answered];
        assert_eq!(
            cancellation_judged(&answered_anyway, &b, settle).0,
            Status::Fail
        );
        let went_on = [read, progress(&b.token, json!(2))];
        assert!(
            cancellation_judged(&went_on, &b, settle)
                .1
                .contains("went on working")
        );
        let never_read = [progress(&b.token, json!(1))];
        let (status, said) = cancellation_judged(&never_read, &b, settle);
        assert_eq!(
            status,
            Status::NotApplicable,
            "a watch that ran out is no verdict"
        );
        assert!(said.starts_with("not checked"), "{said}");
    }
}
