//! `K` on a call's result: the call and what it gave kept as a test (`mcp-inspect test`) in
//! a test file chosen once per server (asked the first time, remembered beside its saved
//! calls); a result whose call is kept so is marked `test`. Pure.

use crate::app::asked::state::AskPanel;
use crate::app::call::state::Outcome;
use crate::app::effect::Effect;
use crate::app::model::{LogKind, Model};
use crate::app::saved::state::{KeepTest, KeptTests, key};
use serde_json::Value;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

/// Keeps the shown result's call as a test; asks for the file the first time.
pub fn keep(model: &mut Model) -> Vec<Effect> {
    let Some(name) = model.selected_entry().map(|e| e.tool.name.clone()) else {
        return Vec::new();
    };
    let record = (model.tools.per_tool.get(&name))
        .and_then(|p| p.call.as_ref())
        .and_then(|c| c.shown_record());
    let Some(record) = record else {
        model.view.status = Some("no result to keep as a test: send the call first".into());
        return Vec::new();
    };
    let Outcome::Result {
        result, verdict, ..
    } = &record.outcome
    else {
        model.view.status = Some("only a call that got a result can be kept as a test".into());
        return Vec::new();
    };
    let ms = u64::try_from(record.elapsed.as_millis()).unwrap_or(u64::MAX);
    let keep = KeepTest {
        file: PathBuf::new(),
        tool: name,
        arguments: record.arguments.clone(),
        got: crate::suite::run::got(result, verdict, ms),
    };
    match &model.saved.tests {
        Some(kept) => vec![Effect::KeepTest(KeepTest {
            file: kept.file.clone(),
            ..keep
        })],
        None => {
            let suggested = suggested_file(model);
            model
                .asked
                .push_back(AskPanel::for_test_file(keep, &suggested));
            Vec::new()
        }
    }
}

/// The file asked for was given: kept there, and it stays this server's test file.
pub fn chosen(
    model: &mut Model,
    keep: Arc<KeepTest>,
    answer: Result<Value, String>,
) -> Vec<Effect> {
    let accepted = answer.ok().filter(|a| a["action"] == "accept");
    let Some(path) = accepted
        .as_ref()
        .and_then(|a| a["content"]["path"].as_str())
        .filter(|p| !p.trim().is_empty())
    else {
        return Vec::new();
    };
    let file = PathBuf::from(path.trim());
    model.saved.tests = Some(KeptTests {
        file: file.clone(),
        cases: HashSet::new(),
    });
    let keep = Arc::unwrap_or_clone(keep);
    vec![Effect::KeepTest(KeepTest { file, ..keep })]
}

/// The test file an earlier session chose, unless one was chosen meanwhile (`K` before this
/// came).
pub fn loaded(model: &mut Model, kept: Option<KeptTests>) {
    if model.saved.tests.is_none() {
        model.saved.tests = kept;
    }
}

/// A keeping ended: said, and the call marked as a test.
pub fn kept(model: &mut Model, tool: &str, arguments: &Value, outcome: Result<String, String>) {
    let (kind, said) = match outcome {
        Ok(said) => {
            if let Some(tests) = &mut model.saved.tests {
                tests.cases.insert(key(tool, arguments));
            }
            (LogKind::Event, said)
        }
        Err(why) => (LogKind::Problem, format!("not kept as a test: {why}")),
    };
    model.view.status = Some(crate::untrusted::line(&said, 300).into_owned());
    model.push_log(kind, crate::untrusted::block(&said));
}

/// `<server>.tests.toml`, the server's name made safe for a file name.
fn suggested_file(model: &Model) -> String {
    let name = model
        .session
        .server
        .as_ref()
        .map_or("", |s| s.name.as_str());
    let safe: String = (name.chars())
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                true => c,
                false => '-',
            },
        )
        .take(60)
        .collect();
    let safe = safe.trim_matches('-');
    format!(
        "{}.tests.toml",
        if safe.is_empty() { "server" } else { safe }
    )
}
