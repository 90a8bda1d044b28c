//! `--watch`: a change to the server's files restarts it (a new handshake, every listing
//! redone) and the TUI says what changed since the last start that listed: tools judged by the
//! drift engine (Δ in the list, each change in the tool's pane, a line in the log), and the
//! resources, templates and prompts added, removed or changed. The selected tool and the call
//! panels' drafts stay. A server that fails to start says why and is retried on the next change.
//! Pure.

use crate::app::call::state::{Outcome, Record};
use crate::app::effect::Effect;
use crate::app::library::state::{Item, Kind};
use crate::app::model::{LogKind, Model};
use crate::app::server::state::{Before, Connection};
use crate::suite::expect::Got;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Files changed (`what`, described): the server is restarted, or once the handshake under
/// way is over.
pub fn changed(model: &mut Model, what: &str) -> Vec<Effect> {
    let what = crate::untrusted::line(what, 200);
    if model.session.connection == Connection::Connecting {
        model.session.watch.pending = true;
        model.push_log(
            LogKind::Event,
            format!("changed: {what}: restarting once connected"),
        );
        return Vec::new();
    }
    model.push_log(
        LogKind::Event,
        format!("changed: {what}: restarting the server"),
    );
    restart(model)
}

/// The handshake is over (done or failed): a change that came meanwhile restarts again.
pub fn settled(model: &mut Model) -> Vec<Effect> {
    if !std::mem::take(&mut model.session.watch.pending) {
        return Vec::new();
    }
    model.push_log(
        LogKind::Event,
        "files changed while connecting: restarting again".into(),
    );
    restart(model)
}

/// The server did not start: with files watched, the next change tries again.
pub fn failed(model: &mut Model) -> Vec<Effect> {
    if model.session.watch.on && !model.session.watch.pending {
        model.push_log(
            LogKind::Event,
            "watching: the next change to the files starts the server again (r: now)".into(),
        );
    }
    settled(model)
}

fn restart(model: &mut Model) -> Vec<Effect> {
    // After a start that never listed its tools (it failed), the comparison stays with the
    // last start that did.
    let compared = !matches!(
        model.session.watch.before,
        Some(Before { tools: Some(_), .. })
    );
    if compared {
        model.session.watch.before = Some(Before {
            tools: (!model.tools.list.is_empty() || model.session.server.is_some())
                .then(|| Arc::new(crate::app::tools::drift::listing(model))),
            library: model.library.listed.then(|| keyed(&model.library.items)),
        });
    }
    model.session.watch.restarts += 1;
    model.session.watch.rerun_due = model.session.watch.rerun;
    crate::app::server::reconnect::reconnect(model)
}

/// The restarted server listed its tools: they are compared with the last start's.
pub fn tools_listed(model: &mut Model) {
    let tools = model.tools.list.iter().map(|e| &e.tool);
    let unsafe_now = tools.filter(|t| !t.annotations.safe_to_repeat());
    (model.session.watch.unsafe_seen).extend(unsafe_now.map(|t| t.name.clone()));
    let Some(before) = model.session.watch.before.as_mut() else {
        return;
    };
    if let Some(tools) = before.tools.take() {
        model.tools.baseline = Some(tools);
        model.tools.since_last_start = true;
    }
    // Without a library listed before, there is nothing more to compare.
    if before.library.is_none() {
        model.session.watch.before = None;
    }
}

/// `--rerun`, once the restarted server listed its tools: the last call of each tool this
/// session, made again (never one that any start this session listed as destructive or
/// without saying it is safe to repeat).
pub fn rerun(model: &mut Model) -> Vec<Effect> {
    if !std::mem::take(&mut model.session.watch.rerun_due) {
        return Vec::new();
    }
    let mut again = Vec::new();
    for (tool, state) in model.calls() {
        let last = state
            .history
            .iter()
            .rev()
            .find(|r| r.made == crate::app::call::state::Made::Here);
        if let Some(Record {
            arguments,
            elapsed,
            outcome: Outcome::Result {
                result, verdict, ..
            },
            ..
        }) = last
        {
            let ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
            let got = crate::suite::run::got(result, verdict, ms);
            again.push((tool.clone(), arguments.clone(), got));
        }
    }
    again.sort_by(|a, b| a.0.cmp(&b.0));
    let mut effects = Vec::new();
    for (tool, arguments, got) in again {
        if !model.tools.list.iter().any(|e| e.tool.name == tool) {
            let said = format!(
                "not made again: `{}` is gone",
                crate::untrusted::line(&tool, 80)
            );
            model.push_log(LogKind::Event, said);
            continue;
        }
        if model.session.watch.unsafe_seen.contains(&tool) {
            let said = format!(
                "not made again: `{}` is or was destructive, or does not say it is not (ctrl-s in its panel makes it)",
                crate::untrusted::line(&tool, 80)
            );
            model.push_log(LogKind::Event, said);
            continue;
        }
        if let Some((id, effect)) =
            crate::app::call::update::call_again(model, &tool, arguments.clone())
        {
            model
                .session
                .watch
                .reruns
                .insert(id, (tool, arguments, got));
            effects.push(effect);
        }
    }
    effects
}

/// A call made again finished: what changed since its previous result, said.
pub fn rerun_finished(model: &mut Model, tool: &str, id: u64) {
    let Some((_, arguments, before)) = model.session.watch.reruns.remove(&id) else {
        return;
    };
    let label = crate::untrusted::line(&format!("{tool} {arguments}"), 100).into_owned();
    let now = model.call(tool).and_then(|s| s.history.last());
    let changes = match now.map(|r| &r.outcome) {
        Some(Outcome::Result {
            result, verdict, ..
        }) => {
            let after = crate::suite::run::got(result, verdict, 0);
            differences(&before, &after)
        }
        Some(Outcome::Failed(e)) => vec![format!("failed: {e}")],
        _ => vec!["cancelled".into()],
    };
    let (kind, said) = match changes.is_empty() {
        true => (LogKind::Event, format!("made again: {label}: as before")),
        false => (
            LogKind::Problem,
            format!("made again: {label}: {}", changes.join("; ")),
        ),
    };
    model.push_log(kind, crate::untrusted::line(&said, 600).into_owned());
}

/// How a result differs from the previous one: verdict, isError, value (or text).
fn differences(before: &Got, after: &Got) -> Vec<String> {
    let mut said = Vec::new();
    if before.verdict != after.verdict {
        let word = |g: &Got| g.verdict.unwrap_or("none");
        said.push(format!("verdict {} → {}", word(before), word(after)));
    }
    if before.is_error != after.is_error {
        said.push(format!("isError {} → {}", before.is_error, after.is_error));
    }
    match (&before.value, &after.value) {
        (Some(a), Some(b)) => said.extend(
            crate::value_diff::differences(a, b, &[])
                .into_iter()
                .map(|d| format!("value {d}")),
        ),
        (None, None) if before.text != after.text => said.push("text changed".into()),
        (None, None) => {}
        (Some(_), None) => said.push("no value now".into()),
        (None, Some(_)) => said.push("a value now".into()),
    }
    said
}

/// The restarted server listed its library: what was added, removed or changed, said.
pub fn library_listed(model: &mut Model) {
    let Some(Before {
        library: Some(old), ..
    }) = model.session.watch.before.take()
    else {
        return;
    };
    let new = keyed(&model.library.items);
    let mut said = Vec::new();
    for kind in [Kind::Resource, Kind::Template, Kind::Prompt] {
        let of =
            |map: &BTreeMap<(Kind, String), Value>, key: &(Kind, String)| map.get(key).cloned();
        let keys = old.keys().chain(new.keys()).filter(|(k, _)| *k == kind);
        let (mut added, mut removed, mut changed) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen = std::collections::BTreeSet::new();
        for key in keys {
            if !seen.insert(key.clone()) {
                continue;
            }
            let name = crate::untrusted::line(&key.1, 80).into_owned();
            match (of(&old, key), of(&new, key)) {
                (None, Some(_)) => added.push(name),
                (Some(_), None) => removed.push(name),
                (Some(a), Some(b)) if a != b => changed.push(name),
                _ => {}
            }
        }
        for (sign, names) in [("+", added), ("−", removed), ("~", changed)] {
            if !names.is_empty() {
                let heading = kind.heading().to_lowercase();
                said.push(format!("{heading} {sign} {}", names.join(", ")));
            }
        }
    }
    let text = if said.is_empty() {
        "resources, templates and prompts unchanged".to_string()
    } else {
        said.join("; ")
    };
    model.push_log(LogKind::Event, format!("since the last start: {text}"));
}

/// Items by kind and key (a resource's or a skill's URI, a template's URI template, a
/// prompt's name).
fn keyed(items: &[Item]) -> BTreeMap<(Kind, String), Value> {
    items
        .iter()
        .map(|item| {
            let field = match item.kind {
                Kind::Resource | Kind::Skill => "uri",
                Kind::Template => "uriTemplate",
                Kind::Prompt => "name",
            };
            let key = item.json.get(field).and_then(Value::as_str).unwrap_or("");
            ((item.kind, key.to_string()), item.json.clone())
        })
        .collect()
}
