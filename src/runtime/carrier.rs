//! Carries out `update`'s effects: requests to the connection task, copies, the external
//! editor, and the slow work (file writes, large trees, the browser) on blocking threads whose
//! outcome comes back as a message. Also loads and keeps the saved calls.

use crate::app::call::state::CallState;
use crate::app::effect::{Effect, Handed, Listed, SessionRequest};
use crate::app::model::Model;
use crate::app::tools::state::ToolDetail;
use crate::app::update::Msg;
use crate::mcp::ConnectOptions;
use crate::runtime::edge::Edge;
use crate::schema::Compiled;
use std::path::PathBuf;
use tokio::sync::mpsc::{Sender, UnboundedSender};
use tokio::task::JoinHandle;

/// What carrying out an effect gave at once.
#[derive(Default)]
pub struct Carried {
    /// A message for `update` now.
    pub answer: Option<Msg>,
    /// The screen is drawn at once (the user just came back from the editor).
    pub urgent: bool,
}

impl Carried {
    /// `msg` for `update` now, the screen drawn at its usual pace.
    fn now(msg: Msg) -> Carried {
        Carried {
            answer: Some(msg),
            urgent: false,
        }
    }
}

pub struct Carrier {
    /// To the connection task. Unbounded: what the UI asks (a call, an answer to the server, a
    /// cancel, a re-judgement per restored tool) is never lost to a full queue; the UI makes
    /// at most one request per key or message it handles, so this grows only as fast as it.
    requests: UnboundedSender<SessionRequest>,
    to_ui: Sender<Msg>,
    /// Where a redirect address pasted into the authorization panel goes.
    pasted: Option<crate::mcp::oauth::Pasted>,
    /// Where this server's calls are kept between sessions (when they are).
    saved_dir: Option<PathBuf>,
    /// Writes of saved calls under way: the writes at the end wait for them, so the newest
    /// state of a panel is the one left on disk.
    saving: Vec<JoinHandle<()>>,
}

/// What the UI is told of a request the connection task does not take (it ended, or the TUI
/// only watches a tap): a call or a run ends with the reason; anything else is said in the log.
pub(super) fn refusal(request: SessionRequest, why: &str) -> Msg {
    match request {
        SessionRequest::Call { tool, id, .. } => {
            let outcome = Err(crate::mcp::RequestError::Refused(why.into()));
            Msg::CallFinished { tool, id, outcome }
        }
        SessionRequest::Verify { run, .. } | SessionRequest::Load { run, .. } => {
            let why = why.to_string();
            Msg::Trial(crate::app::trial::update::Update::Ended { run, why })
        }
        other => Msg::Server(crate::mcp::ServerEvent::Notice(format!(
            "{why}: {} not sent",
            other.name()
        ))),
    }
}

impl Carrier {
    /// Ready to carry effects; what earlier sessions with this server kept is read off the UI
    /// thread and arrives as a message.
    /// `options` is `None` when the TUI is attached to a tap: nothing is kept or pasted then.
    pub fn new(
        options: Option<&ConnectOptions>,
        saving: bool,
        requests: UnboundedSender<SessionRequest>,
        to_ui: Sender<Msg>,
    ) -> Carrier {
        let target = options.map(|o| &o.target);
        let saved_dir = target.filter(|_| saving).and_then(super::saved_calls::dir);
        let read_from = target
            .zip(saved_dir.as_deref())
            .map(|(target, dir)| super::saved_calls::read_dir_of(target, dir));
        if let Some(dir) = read_from.clone() {
            let load = move || Msg::SavedLoaded(super::saved_calls::load(&dir));
            off_the_ui(&to_ui, load, |_| None);
        }
        if let Some(dir) = read_from {
            let load = move || Msg::TestsLoaded(super::saved_calls::load_tests(&dir));
            off_the_ui(&to_ui, load, |_| None);
        }
        Carrier {
            requests,
            to_ui,
            pasted: options.and_then(|o| o.auth.pasted.clone()),
            saved_dir,
            saving: Vec::new(),
        }
    }

    /// Hands `request` to the connection task; refused only once that task has ended, and
    /// then said (never silent).
    fn request(&self, request: SessionRequest) -> Option<Msg> {
        self.requests
            .send(request)
            .err()
            .map(|refused| refusal(refused.0, "the connection task has ended"))
    }

    /// Carries out one effect: what it answers at once, for `update`.
    pub async fn carry<E: Edge>(
        &mut self,
        edge: &mut E,
        effect: Effect,
    ) -> std::io::Result<Carried> {
        match effect {
            // `update` routes every handoff before it returns its effects.
            Effect::Handoff(_) => {}
            Effect::Session(request) => {
                if let Some(refused) = self.request(request) {
                    return Ok(Carried::now(refused));
                }
            }
            Effect::Copy(copy) => {
                let outcome = edge.copy(&copy.text);
                let label = copy.label;
                return Ok(Carried::now(Msg::Copied { label, outcome }));
            }
            Effect::Save {
                path,
                bytes,
                overwrite,
            } => off_the_ui(
                &self.to_ui,
                move || Msg::Saved(write_file(&path, &bytes, overwrite)),
                |e| Some(Msg::Saved(Err(format!("writing failed: {e}")))),
            ),
            Effect::BuildDetail(Listed(entry)) => off_the_ui(
                &self.to_ui,
                move || {
                    let detail = Box::new(ToolDetail::build(&entry));
                    Msg::DetailBuilt { entry, detail }
                },
                |_| None,
            ),
            Effect::BuildCall(Listed(entry)) => build_call(&self.to_ui, entry),
            Effect::CompileInput(Listed(entry)) => off_the_ui(
                &self.to_ui,
                move || {
                    let input = Handed::new(Compiled::new(&entry.tool.input_schema));
                    Msg::InputCompiled { entry, input }
                },
                |_| None,
            ),
            Effect::SaveCalls(saved) => self.save_calls(saved),
            Effect::KeepTest(keep) => {
                let dir = self.saved_dir.clone();
                let (tool, arguments) = (keep.tool.clone(), keep.arguments.clone());
                let keeping = move || Msg::TestKept {
                    outcome: super::saved_calls::keep_test(&keep, dir.as_deref()),
                    tool,
                    arguments,
                };
                off_the_ui(&self.to_ui, keeping, |e| {
                    Some(Msg::Saved(Err(format!("keeping the test failed: {e}"))))
                });
            }
            // The opener is watched a moment for a failure: never on the UI's task.
            Effect::OpenInBrowser(url) => off_the_ui(
                &self.to_ui,
                move || Msg::BrowserOpened(crate::mcp::oauth::open_in_browser(&url)),
                |e| Some(Msg::BrowserOpened(Err(format!("the opener failed: {e}")))),
            ),
            Effect::CheckRoots(entries) => off_the_ui(&self.to_ui, check_roots(entries), |_| None),
            Effect::PasteRedirect(address) => {
                if let Some(pasted) = &self.pasted {
                    pasted.paste(address);
                }
            }
            Effect::EditExternally { tool, text } => {
                let text = edge.edit(&text).await?;
                return Ok(Carried {
                    answer: Some(Msg::EditorClosed { tool, text }),
                    urgent: true,
                });
            }
        }
        Ok(Carried::default())
    }

    /// Keeps one tool's calls on disk, off the UI thread.
    fn save_calls(&mut self, saved: crate::app::saved::state::SavedTool) {
        let (Some(dir), to_ui) = (self.saved_dir.clone(), self.to_ui.clone()) else {
            return;
        };
        self.saving.retain(|w| !w.is_finished());
        self.saving.push(tokio::spawn(async move {
            let written =
                tokio::task::spawn_blocking(move || super::saved_calls::write(&dir, &saved));
            // Never waits on the UI: the loop may be ending and waiting for this.
            if let Ok(Err(why)) = written.await {
                let _ = to_ui.try_send(Msg::Saved(Err(why)));
            }
        }));
    }

    /// The session ends: every panel's draft is kept as it was left (results were kept as
    /// they came), after the writes under way.
    pub async fn finish(self, model: &Model) {
        drop(self.requests);
        for write in self.saving {
            let _ = write.await;
        }
        if let Some(dir) = &self.saved_dir {
            for (tool, state) in model.calls() {
                let _ = super::saved_calls::write(
                    dir,
                    &crate::app::saved::state::SavedTool::of(tool, state),
                );
            }
        }
    }
}

/// Runs `work` on a blocking thread and sends the message it makes to the UI; if the work
/// panicked, what `failed` makes of that.
/// A call panel built off the UI thread: the panel first, then its arguments' validator (the
/// largest schemas take most of their time compiling, and the panel need not wait for it).
fn build_call(to_ui: &Sender<Msg>, entry: std::sync::Arc<crate::app::tools::entry::ToolEntry>) {
    let sender = to_ui.clone();
    let build = move || {
        let state = Handed::new(CallState::drafted(&entry.tool));
        let built = Msg::CallBuilt {
            entry: entry.clone(),
            state,
        };
        let _ = sender.blocking_send(built);
        let input = Handed::new(Compiled::new(&entry.tool.input_schema));
        Msg::InputCompiled { entry, input }
    };
    off_the_ui(to_ui, build, |_| None);
}

fn off_the_ui(
    to_ui: &Sender<Msg>,
    work: impl FnOnce() -> Msg + Send + 'static,
    failed: fn(tokio::task::JoinError) -> Option<Msg>,
) {
    let to_ui = to_ui.clone();
    tokio::spawn(async move {
        let msg = tokio::task::spawn_blocking(work)
            .await
            .map_or_else(failed, Some);
        if let Some(msg) = msg {
            let _ = to_ui.send(msg).await;
        }
    });
}

/// The work of checking the roots form's entries: why one is not a directory, if one is not.
fn check_roots(entries: Vec<String>) -> impl FnOnce() -> Msg + Send + 'static {
    move || {
        let problem = crate::mcp::session::client_side::root_uris(&entries).err();
        Msg::RootsChecked { entries, problem }
    }
}

/// Writes `bytes` to `path`: a new file, unless `overwrite`. Says what was written where.
fn write_file(path: &std::path::Path, bytes: &[u8], overwrite: bool) -> Result<String, String> {
    use std::os::unix::fs::OpenOptionsExt;
    // Server data: the user's alone (0600) when made here.
    let mut options = std::fs::OpenOptions::new();
    options.write(true).mode(0o600);
    if overwrite {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let shown = path.display();
    match options.open(path) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(format!(
            "{shown} exists: not overwritten (w again, with \"overwrite\": true, replaces it)"
        )),
        Err(e) => Err(format!("cannot write {shown}: {e}")),
        Ok(mut file) => std::io::Write::write_all(&mut file, bytes)
            .map(|()| {
                format!(
                    "wrote {} to {shown}",
                    crate::plural::count(bytes.len(), "byte")
                )
            })
            .map_err(|e| format!("cannot write {shown}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn carrier() -> (
        Carrier,
        tokio::sync::mpsc::UnboundedReceiver<SessionRequest>,
    ) {
        let (requests, received) = tokio::sync::mpsc::unbounded_channel();
        let (to_ui, _) = tokio::sync::mpsc::channel(1);
        let carrier = Carrier {
            requests,
            to_ui,
            pasted: None,
            saved_dir: None,
            saving: Vec::new(),
        };
        (carrier, received)
    }

    #[test]
    fn every_request_arrives_however_many_come_at_once() {
        // More re-judgements than any queue of the old size held, with answers and cancels
        // between them, while the connection task reads none: each arrives, in order.
        let (carrier, mut received) = carrier();
        let mut sent = Vec::new();
        for i in 0..1_000u64 {
            let request = match i % 3 {
                0 => SessionRequest::Rejudge {
                    tool: format!("tool_{i}"),
                    output: None,
                    calls: Vec::new(),
                },
                1 => SessionRequest::Answer {
                    id: i,
                    result: Ok(serde_json::json!({"action": "accept"})),
                },
                _ => SessionRequest::Cancel { id: i },
            };
            assert!(carrier.request(request.clone()).is_none());
            sent.push(request);
        }
        let mut arrived = Vec::new();
        while let Ok(request) = received.try_recv() {
            arrived.push(request);
        }
        assert_eq!(arrived, sent);
    }

    #[test]
    fn a_request_the_ended_task_cannot_take_is_said() {
        let (carrier, received) = carrier();
        drop(received);
        let call = SessionRequest::Call {
            tool: "add".into(),
            id: 7,
            arguments: serde_json::json!({}),
            output: None,
            as_task: false,
        };
        match carrier.request(call) {
            Some(Msg::CallFinished { id: 7, outcome, .. }) => {
                assert!(outcome.is_err_and(|e| e.to_string().contains("has ended")));
            }
            other => panic!("{other:?}"),
        }
        let answer = SessionRequest::Answer {
            id: 1,
            result: Err("declined".into()),
        };
        match carrier.request(answer) {
            Some(Msg::Server(crate::mcp::ServerEvent::Notice(text))) => {
                assert_eq!(
                    text,
                    "the connection task has ended: an answer to the server not sent"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
