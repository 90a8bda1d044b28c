//! A test run told three ways: text for a person (one line a case, what failed under it),
//! JSON for scripts, and JUnit XML for CI systems. Server text is escaped for each.

use super::file::Case;
use super::run::Ran;
use crate::untrusted::xml;
use serde_json::json;

/// Lines of text: `ok`/`FAIL`, the label and time, each failure indented, then the counts.
pub fn text(cases: &[&Case], ran: &[Ran], seconds: f64) -> Vec<String> {
    let mut lines = Vec::new();
    for (case, ran) in cases.iter().zip(ran) {
        let mark = if ran.passed() { "ok  " } else { "FAIL" };
        let label = crate::untrusted::line(&case.label, 100);
        lines.push(format!(
            "{mark} {label}  ({} ms, line {})",
            ran.ms, case.line
        ));
        for failure in &ran.failures {
            lines.push(format!("     {}", crate::untrusted::line(failure, 600)));
        }
    }
    lines.push(summary(ran, seconds));
    lines
}

/// `3 passed, 1 failed (4 tests, 0.21 s)`.
pub fn summary(ran: &[Ran], seconds: f64) -> String {
    let failed = ran.iter().filter(|r| !r.passed()).count();
    format!(
        "{} passed, {failed} failed ({}, {seconds:.2} s)",
        ran.len() - failed,
        crate::plural::count(ran.len(), "test")
    )
}

/// One JSON document: each case with its label, line, time and failures, then the counts.
pub fn json(cases: &[&Case], ran: &[Ran], seconds: f64) -> serde_json::Value {
    let tests: Vec<_> = cases
        .iter()
        .zip(ran)
        .map(|(case, ran)| {
            json!({
                "label": case.label,
                "kind": case.action.table(),
                "line": case.line,
                "passed": ran.passed(),
                "ms": ran.ms,
                "failures": ran.failures,
            })
        })
        .collect();
    let failed = ran.iter().filter(|r| !r.passed()).count();
    json!({
        "tests": tests,
        "passed": ran.len() - failed,
        "failed": failed,
        "seconds": seconds,
    })
}

/// What a JUnit report is about: the suite's name, the test file as given (for each case's
/// `file` and `line`, which CI systems use to annotate the file), and how long it took.
pub struct Run<'a> {
    pub suite: &'a str,
    pub file: &'a str,
    pub seconds: f64,
}

/// A JUnit XML report: one `<testsuite>` named after the file, a `<testcase>` per case (with
/// the file and line it stands at) with a `<failure>` holding what failed.
pub fn junit(run: &Run<'_>, cases: &[&Case], ran: &[Ran]) -> String {
    let failed = ran.iter().filter(|r| !r.passed()).count();
    let (suite, file, seconds) = (xml(run.suite), xml(run.file), run.seconds);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"mcp-inspect\" tests=\"{}\" failures=\"{failed}\" time=\"{seconds:.3}\">\n",
        ran.len()
    ));
    out.push_str(&format!(
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{failed}\" errors=\"0\" time=\"{seconds:.3}\">\n",
        ran.len()
    ));
    for (case, ran) in cases.iter().zip(ran) {
        let name = xml(&case.label);
        let time = ran.ms as f64 / 1e3;
        let open = format!(
            "    <testcase name=\"{name}\" classname=\"{suite}.{}\" time=\"{time:.3}\" file=\"{file}\" line=\"{}\"",
            case.action.table(),
            case.line
        );
        if ran.passed() {
            out.push_str(&format!("{open}/>\n"));
            continue;
        }
        let first = xml(ran.failures.first().map_or("", String::as_str));
        let all = xml(&ran.failures.join("\n"));
        out.push_str(&format!(
            "{open}>\n      <failure message=\"{first}\" type=\"expectation\">{all}</failure>\n    </testcase>\n"
        ));
    }
    out.push_str("  </testsuite>\n</testsuites>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::file::parse;

    #[test]
    fn junit_names_each_case_and_escapes_what_the_server_said() {
        let cases =
            parse("[[call]]\ntool = \"a\"\n[[call]]\ntool = \"b\"\nlabel = \"<b> & 'c'\"\n")
                .expect("reads");
        let cases: Vec<&Case> = cases.iter().collect();
        let ran = [
            Ran {
                got: None,
                failures: vec![],
                ms: 5,
            },
            Ran {
                got: None,
                failures: vec!["text: expected \"x\", got \"</failure>\u{1b}[2J\u{0}\"".into()],
                ms: 1500,
            },
        ];
        let run = Run {
            suite: "demo.toml",
            file: "tests/demo.toml",
            seconds: 1.5,
        };
        let xml = junit(&run, &cases, &ran);
        assert!(
            xml.contains("<testsuite name=\"demo.toml\" tests=\"2\" failures=\"1\""),
            "{xml}"
        );
        assert!(
            xml.contains("<testcase name=\"a {}\" classname=\"demo.toml.call\" time=\"0.005\" file=\"tests/demo.toml\" line=\"1\"/>"),
            "{xml}"
        );
        assert!(
            xml.contains("name=\"&lt;b&gt; &amp; &apos;c&apos;\""),
            "{xml}"
        );
        assert!(xml.contains("&lt;/failure&gt;\\u{1b}[2J\\u{0}"), "{xml}");
        assert_eq!(xml.matches("<failure ").count(), 1);
        assert_eq!(summary(&ran, 1.5), "1 passed, 1 failed (2 tests, 1.50 s)");
    }
}
