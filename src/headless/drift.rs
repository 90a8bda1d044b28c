//! `snapshot` and `diff`: a server's surface kept as a file, and compared with another snapshot
//! or with the server as it is now; exit 6 when a change breaks callers or consumers.

use super::output::Report;
use crate::cli::{DiffFormat, Format};
use crate::drift::{compare, report, snapshot};
use crate::headless::exit;
use crate::mcp::Session;
use crate::mcp::session::requests::LibraryList;
use crate::mcp::surface::tool::Tool;
use serde_json::{Value, json};
use std::path::Path;

/// The live server's snapshot document.
pub async fn surface(session: &Session) -> Result<Value, String> {
    let list = session
        .list_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    if let Some(problem) = list.problem {
        return Err(problem);
    }
    let server = &session.server;
    // Every item of a list the server declares (`None` when it does not).
    let listed = async |list: LibraryList| {
        if !server.declares(list.capability()) {
            return Ok(None);
        }
        match session.list_library(list).await {
            Ok(listing) => Ok(Some(listing.items)),
            Err(e) => Err(format!("{} failed: {e}", list.method())),
        }
    };
    let resources = listed(LibraryList::Resources).await?;
    let templates = listed(LibraryList::Templates).await?;
    let prompts = listed(LibraryList::Prompts).await?;
    Ok(snapshot::build(snapshot::Surface {
        server: json!({
            "name": server.name,
            "title": server.title,
            "version": server.version,
            "protocolVersion": server.protocol_version,
        }),
        capabilities: server.capabilities.clone(),
        era: match server.era {
            crate::schema::Era::Legacy => "legacy",
            crate::schema::Era::Modern => "modern",
        },
        tools: list.tools.into_iter().map(Tool::into_definition).collect(),
        resources,
        templates,
        prompts,
    }))
}

/// `snapshot`: to `out`, or stdout.
pub async fn take(session: &Session, out: Option<&Path>, report: &Report) -> i32 {
    let doc = match surface(session).await {
        Ok(doc) => doc,
        Err(why) => return report.error(&why, exit::ERROR),
    };
    match out {
        None => report.json(&doc),
        Some(path) => {
            let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
            if let Err(e) = crate::private_files::replace(path, &text) {
                return report.error(
                    &format!("cannot write {}: {e}", path.display()),
                    exit::ERROR,
                );
            }
            let count = |list: &str, what: &str| {
                let n = doc[list].as_array().map_or(0, Vec::len);
                crate::plural::count(n, what)
            };
            let mut what = count("tools", "tool");
            for (list, word) in [
                ("prompts", "prompt"),
                ("resources", "resource"),
                ("resourceTemplates", "template"),
            ] {
                if doc.get(list).is_some() {
                    what.push_str(&format!(", {}", count(list, word)));
                }
            }
            report.note(&format!("snapshot of {what} written to {}", path.display()));
        }
    }
    exit::OK
}

/// A snapshot file read at most: a 10,000-tool snapshot is a few MiB, and a diff holds two.
const MAX_SNAPSHOT_BYTES: u64 = 64 << 20;

fn read(path: &Path) -> Result<Value, String> {
    let text = crate::private_files::read_named(path, MAX_SNAPSHOT_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    snapshot::read(&text).map_err(|why| format!("{}: {why}", path.display()))
}

pub fn report_for(format: DiffFormat) -> Report {
    Report {
        format: match format {
            DiffFormat::Json | DiffFormat::Sarif => Format::Json,
            DiffFormat::Text | DiffFormat::Markdown => Format::Text,
        },
    }
}

/// `diff OLD NEW`: two files, no server.
pub fn files(old: &Path, new: &Path, format: DiffFormat) -> i32 {
    let report = report_for(format);
    match (read(old), read(new)) {
        (Ok(a), Ok(b)) => show(&a, &b, format, &report, Some(new)),
        (Err(why), _) | (_, Err(why)) => report.error(&why, exit::ERROR),
    }
}

/// `diff OLD` against the server as it is now.
pub async fn live(session: &Session, old: &Path, format: DiffFormat) -> i32 {
    let report = report_for(format);
    let old_doc = match read(old) {
        Ok(doc) => doc,
        Err(why) => return report.error(&why, exit::ERROR),
    };
    match surface(session).await {
        Ok(new) => show(&old_doc, &new, format, &report, Some(old)),
        Err(why) => report.error(&why, exit::ERROR),
    }
}

/// Prints the changes from `old` to `new`; `file`: the snapshot file SARIF locates them in.
pub fn show(
    old: &Value,
    new: &Value,
    format: DiffFormat,
    report: &Report,
    file: Option<&Path>,
) -> i32 {
    let changes = crate::drift::changes(old, new);
    let summary = report::Summary::of(&changes);
    match format {
        DiffFormat::Sarif => {
            let findings: Vec<crate::sarif::Finding> = changes
                .iter()
                .map(|c| crate::sarif::Finding {
                    rule: match c.verdict {
                        compare::Verdict::Breaking => "drift/breaking",
                        compare::Verdict::Unknown => "drift/unknown",
                        compare::Verdict::Compatible => "drift/compatible",
                        compare::Verdict::Info => "drift/info",
                    },
                    level: match c.verdict {
                        compare::Verdict::Breaking => "error",
                        compare::Verdict::Unknown => "warning",
                        _ => "note",
                    },
                    tool: &c.name,
                    kind: c.kind,
                    pointer: &c.pointer,
                    message: c.what.clone(),
                })
                .collect();
            let text =
                file.and_then(|f| crate::private_files::read_named(f, MAX_SNAPSHOT_BYTES).ok());
            let uri = file.map(|f| f.to_string_lossy().into_owned());
            let artifact = match (&uri, &text) {
                (Some(uri), Some(text)) => Some(crate::sarif::Artifact { uri, text }),
                _ => None,
            };
            report.json(&crate::sarif::log(&findings, artifact.as_ref()));
        }
        DiffFormat::Json => report.json(&json!({"changes": changes, "summary": summary})),
        DiffFormat::Markdown => report.line(&report::markdown(&changes)),
        DiffFormat::Text => {
            for line in report::text(&changes) {
                report.line(&line);
            }
        }
    }
    if summary.breaking > 0 {
        exit::BREAKING
    } else if summary.unknown > 0 {
        exit::UNKNOWN
    } else {
        exit::OK
    }
}

/// `diff --eras`: the server connected in the legacy era, then in the 2026-07-28 era, and the
/// two surfaces compared (informational: exit 0 unless an era cannot be reached).
pub async fn eras(connection: &crate::cli::ConnectionArgs, format: crate::cli::DiffFormat) -> i32 {
    use crate::cli::ProtocolArg;
    let report = report_for(format);
    let mut signals = super::Signals::new();
    let mut surfaces = Vec::new();
    for (era, protocol) in [
        ("legacy", ProtocolArg::Legacy),
        ("2026-07-28", ProtocolArg::Modern),
    ] {
        let mut connection = connection.clone();
        connection.protocol = Some(protocol);
        let (events, mut receiver) = crate::mcp::EventSink::new();
        let session = match super::connect(
            &connection,
            &report,
            &mut signals,
            &events,
            &mut receiver,
        )
        .await
        {
            Ok(s) => s,
            Err(code) => {
                report.note(&format!("the {era} era could not be reached"));
                return code;
            }
        };
        let surface = surface(&session).await;
        report.note(&format!(
            "{era} era: protocol {}",
            crate::untrusted::line(&session.server.protocol_version, 40)
        ));
        session.shutdown().await;
        match surface {
            Ok(s) => surfaces.push(s),
            Err(why) => return report.error(&why, exit::ERROR),
        }
    }
    report.note("changes read from the legacy era to the 2026-07-28 era");
    show(&surfaces[0], &surfaces[1], format, &report, None);
    exit::OK
}
