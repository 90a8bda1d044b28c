//! A diff's changes as text (grouped by item) or as Markdown for a pull-request comment, and
//! their counts. Every server string escaped. Pure.

use super::compare::{Change, Kind, Verdict};
use serde::Serialize;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub breaking: usize,
    pub unknown: usize,
    pub compatible: usize,
    pub info: usize,
}

impl Summary {
    pub fn of(changes: &[Change]) -> Summary {
        let mut s = Summary::default();
        for c in changes {
            match c.verdict {
                Verdict::Breaking => s.breaking += 1,
                Verdict::Unknown => s.unknown += 1,
                Verdict::Compatible => s.compatible += 1,
                Verdict::Info => s.info += 1,
            }
        }
        s
    }

    pub fn line(&self) -> String {
        format!(
            "{} breaking, {} unknown, {} compatible, {} info",
            self.breaking, self.unknown, self.compatible, self.info
        )
    }
}

/// How a group of changes is headed: a tool by its name, anything else by its kind too.
fn heading(c: &Change) -> String {
    let name = crate::untrusted::line(&c.name, 120);
    match c.kind {
        Kind::Tool => name.into_owned(),
        kind => format!("{} {name}", kind.word()),
    }
}

/// The changes grouped by item, one line each: verdict, audience, pointer, what.
pub fn text(changes: &[Change]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut item: Option<(Kind, &str)> = None;
    for c in changes {
        if item != Some((c.kind, c.name.as_str())) {
            item = Some((c.kind, c.name.as_str()));
            lines.push(format!("{}:", heading(c)));
        }
        lines.push(format!(
            "  {:<10} {:<9} {}  {}",
            c.verdict.word(),
            audience(c),
            crate::untrusted::line(&c.pointer, 200),
            crate::untrusted::line(&c.what, 400)
        ));
    }
    if changes.is_empty() {
        lines.push("no changes".into());
    }
    lines.push(Summary::of(changes).line());
    lines
}

fn audience(c: &Change) -> &'static str {
    match c.audience {
        super::compare::Audience::Callers => "callers",
        super::compare::Audience::Consumers => "consumers",
        super::compare::Audience::Everyone => "all",
    }
}

/// A Markdown report: the summary, then a table per item with changes.
pub fn markdown(changes: &[Change]) -> String {
    let summary = Summary::of(changes);
    let mut out = format!("### mcp-inspect diff: {}\n", summary.line());
    if summary.breaking > 0 {
        out.push_str("\n**Breaking changes found.**\n");
    }
    let mut item: Option<(Kind, &str)> = None;
    for c in changes {
        if item != Some((c.kind, c.name.as_str())) {
            item = Some((c.kind, c.name.as_str()));
            let kind = match c.kind {
                Kind::Tool => String::new(),
                kind => format!("{} ", kind.word()),
            };
            out.push_str(&format!(
                "\n#### {kind}`{}`\n\n| verdict | for | where | change |\n| --- | --- | --- | --- |\n",
                cell(&c.name)
            ));
        }
        out.push_str(&format!(
            "| {} | {} | `{}` | {} |\n",
            c.verdict.word(),
            audience(c),
            cell(&c.pointer),
            cell(&c.what)
        ));
    }
    out
}

/// Text safe inside a Markdown table cell (and a code span): pipes, backticks and line breaks
/// never end it.
fn cell(text: &str) -> String {
    crate::untrusted::line(text, 400)
        .replace('|', "\\|")
        .replace('`', "'")
}
