//! The server's protocol conduct in the Server pane (`C`, as `mcp-inspect conform`): a line a
//! check, failures first, each with what came back and the command that reproduces it.

use crate::app::model::Model;
use crate::app::server::state::Conduct;
use crate::conform::{Finding, Level, Status};
use crate::untrusted;
use ratatui::text::{Line, Span};

/// The conduct section's lines.
pub fn lines(model: &Model) -> Vec<Line<'static>> {
    let theme = model.view.theme;
    let heading = |text: String| Line::styled(text, theme.heading());
    match &model.session.conduct {
        Conduct::NotAsked => vec![Line::styled(
            "conduct: C checks it (as mcp-inspect conform)",
            theme.dim(),
        )],
        Conduct::Checking => vec![heading(
            "conduct: checking… (a stdio server is started twice more for the raw checks)".into(),
        )],
        Conduct::Failed(why) => vec![Line::styled(
            format!("conduct: could not check: {}", untrusted::line(why, 300)),
            theme.error(),
        )],
        Conduct::Found(found) => found_lines(model, found),
    }
}

fn found_lines(model: &Model, found: &[Finding]) -> Vec<Line<'static>> {
    let theme = model.view.theme;
    let count = |status| found.iter().filter(|f| f.status == status).count();
    let must = (found.iter())
        .filter(|f| f.status == Status::Fail && f.level == Level::Must)
        .count();
    let mut lines = vec![Line::styled(
        format!(
            "conduct: {} passed, {} failed ({must} of a MUST), {} not applicable (C again)",
            count(Status::Pass),
            count(Status::Fail),
            count(Status::NotApplicable)
        ),
        theme.heading(),
    )];
    let order = [Status::Fail, Status::Pass, Status::NotApplicable];
    for status in order {
        for finding in found.iter().filter(|f| f.status == status) {
            let (mark, style) = match status {
                Status::Fail => ("✗", theme.error()),
                Status::Pass => ("✓", theme.kind()),
                Status::NotApplicable => ("–", theme.dim()),
            };
            let level = match finding.level {
                Level::Must => "MUST  ",
                Level::Should => "SHOULD",
            };
            let rule = match status {
                // Why it does not apply says more than the rule.
                Status::NotApplicable => format!(": {}", untrusted::line(&finding.said, 200)),
                _ => format!(": {}", finding.rule),
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{mark} {level} {}", finding.id), style),
                Span::styled(rule, theme.dim()),
            ]));
            if status != Status::Fail {
                continue;
            }
            let said = untrusted::line(&finding.said, 300).into_owned();
            lines.push(Line::raw(format!("    got: {said}")));
            lines.push(Line::styled(
                format!("    spec: {}", finding.spec),
                theme.dim(),
            ));
            if let Some(line) = &finding.reproduce {
                let line = untrusted::line(line, 2_000).into_owned();
                lines.push(Line::styled(format!("    reproduce: {line}"), theme.dim()));
            }
        }
    }
    lines
}
