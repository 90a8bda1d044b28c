//! `mcp-inspect test`: test files run against the demo and against a Python server of an
//! author's own (the official SDK), updated, broken by an edit to the server, reported as text,
//! JSON and JUnit; bad files and hostile servers fail cases, never the run.

use crate::cli::{BIN, run};
use crate::peers;
use std::path::{Path, PathBuf};

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-inspect-suite-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn write(path: &Path, text: &str) -> String {
    std::fs::write(path, text).expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn update_then_test_passes_on_the_demo_and_a_broken_expectation_fails_in_every_format() {
    let dir = scratch("demo");
    let file = write(
        &dir.join("demo.toml"),
        "# kept\n[[call]]\ntool = \"add\"\nargs = { a = 1, b = 2 }\n\n[[call]]\ntool = \"bad_output\"\n\n[[prompt]]\nname = \"review_code\"\nargs = { code = \"x = 1\" }\n\n[[read]]\nuri = \"demo://readme\"\n",
    );
    let updated = run(&["test", &file, "--update", "--demo"]);
    assert_eq!(updated.code, 0, "{}{}", updated.stdout, updated.stderr);
    assert!(
        updated.stdout.contains("the expectations of 4 cases"),
        "{}",
        updated.stdout
    );
    let text = std::fs::read_to_string(&file).expect("read back");
    assert!(text.starts_with("# kept\n"), "{text}");
    assert!(
        text.contains("verdict = \"conforms\"\nis_error = false\nvalue = 3\n"),
        "{text}"
    );
    assert!(text.contains("verdict = \"violations\""), "{text}");
    let passed = run(&["test", &file, "--demo"]);
    assert_eq!(passed.code, 0, "{}{}", passed.stdout, passed.stderr);
    assert!(
        passed.stdout.contains("4 passed, 0 failed (4 tests"),
        "{}",
        passed.stdout
    );
    // An expectation the server does not meet fails, named.
    write(
        &dir.join("demo.toml"),
        &text.replacen("value = 3", "value = 4", 1).replacen(
            "verdict = \"violations\"",
            "verdict = \"conforms\"",
            1,
        ),
    );
    let failed = run(&["test", &file, "--demo"]);
    assert_eq!(failed.code, 1, "{}{}", failed.stdout, failed.stderr);
    assert!(
        failed.stdout.contains("FAIL add {\"a\":1,\"b\":2}  (")
            && failed.stdout.contains("value at /: expected 4, got 3"),
        "{}",
        failed.stdout
    );
    // A verdict not as expected is said with the violations that made it.
    assert!(
        failed
            .stdout
            .contains("verdict: expected conforms, got violations (at /"),
        "{}",
        failed.stdout
    );
    let junit = run(&["test", &file, "--format", "junit", "--demo"]);
    assert_eq!(junit.code, 1);
    assert!(junit.stdout.starts_with("<?xml"), "{}", junit.stdout);
    // Each case where it stands, for CI annotations: `add` is the file's first case.
    assert!(
        junit
            .stdout
            .contains(&format!("file=\"{file}\" line=\"2\">")),
        "{}",
        junit.stdout
    );
    assert_eq!(
        junit.stdout.matches("<failure ").count(),
        2,
        "{}",
        junit.stdout
    );
    assert!(
        junit
            .stdout
            .contains("<testcase name=\"read demo://readme\""),
        "{}",
        junit.stdout
    );
    let json = run(&[
        "test", &file, "--format", "json", "--filter", "add", "--demo",
    ])
    .json();
    assert_eq!(json["failed"], 1);
    assert_eq!(json["tests"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        json["tests"][0]["failures"][0],
        "value at /: expected 4, got 3"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_edited_python_server_fails_its_tests_naming_the_call() {
    let Some(python) = peers::python() else {
        return;
    };
    let dir = scratch("author");
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/author_server.py"),
    )
    .expect("author server");
    let server = write(&dir.join("server.py"), &source);
    let file = write(
        &dir.join("server.toml"),
        "[[call]]\ntool = \"add\"\nargs = { a = 2, b = 40 }\n\n[[call]]\ntool = \"total\"\nargs = { values = [1, 2, 3] }\n\n[[prompt]]\nname = \"hello\"\nargs = { name = \"Ada\" }\n",
    );
    let updated = run(&["test", &file, "--update", "--", &python, &server]);
    assert_eq!(updated.code, 0, "{}{}", updated.stdout, updated.stderr);
    let passed = run(&["test", &file, "--", &python, &server]);
    assert_eq!(passed.code, 0, "{}{}", passed.stdout, passed.stderr);
    write(
        &dir.join("server.py"),
        &source.replace("return a + b", "return a + b + 1"),
    );
    let failed = run(&["test", &file, "--format", "junit", "--", &python, &server]);
    assert_eq!(failed.code, 1, "{}{}", failed.stdout, failed.stderr);
    assert_eq!(
        failed.stdout.matches("<failure ").count(),
        1,
        "{}",
        failed.stdout
    );
    assert!(
        failed
            .stdout
            .contains("<testcase name=\"add {&quot;a&quot;:2,&quot;b&quot;:40}\"")
            && failed.stdout.contains("value at /: expected 42, got 43"),
        "{}",
        failed.stdout
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_that_does_not_read_is_refused_with_its_line_before_connecting() {
    let dir = scratch("bad");
    let file = write(
        &dir.join("bad.toml"),
        "[[call]]\ntool = \"add\"\nexpect.verdict = \"conforms\"\nexpected = 1\n",
    );
    // The server named does not exist: the file is read first, so its error is what is said.
    let refused = run(&["test", &file, "--", "/nonexistent/server"]);
    assert_eq!(refused.code, 1);
    assert!(
        refused
            .stderr
            .contains("bad.toml:4:1: unknown field `expected`"),
        "{}",
        refused.stderr
    );
    let empty = write(&dir.join("empty.toml"), "# nothing yet\n");
    let refused = run(&["test", &empty, "--demo"]);
    assert_eq!(refused.code, 1);
    assert!(
        refused
            .stderr
            .contains("no [[call]], [[prompt]] or [[read]] entries"),
        "{}",
        refused.stderr
    );
    let fine = write(&dir.join("fine.toml"), "[[call]]\ntool = \"add\"\n");
    let none = run(&["test", &fine, "--filter", "zzz", "--demo"]);
    assert_eq!(none.code, 1);
    assert!(
        none.stderr.contains("no case's label contains `zzz`"),
        "{}",
        none.stderr
    );
    let missing = run(&[
        "test",
        &dir.join("missing.toml").to_string_lossy(),
        "--demo",
    ]);
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("missing.toml: No such file"),
        "{}",
        missing.stderr
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_hostile_server_fails_cases_and_a_crash_fails_the_rest_with_its_stderr() {
    let dir = scratch("hostile");
    let file = write(
        &dir.join("hostile.toml"),
        "[[call]]\ntool = \"escape_result\"\nexpect.text_contains = \"nothing\"\n\n[[call]]\ntool = \"no_such_tool\"\n\n[[call]]\ntool = \"crash_mid_call\"\n\n[[call]]\ntool = \"lying_output\"\n",
    );
    let r = run(&["test", &file, "--", BIN, "hostile-server"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    crate::hostile::assert_terminal_safe("test report", &r.stdout);
    assert!(
        r.stdout.contains("unknown tool `no_such_tool` (known: "),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("FAIL crash_mid_call {}"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("tools/call failed: the connection closed"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("FAIL lying_output {}")
            && r.stdout.contains("not run: the connection closed earlier"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("0 passed, 4 failed (4 tests"),
        "{}",
        r.stdout
    );
    let junit = run(&[
        "test",
        &file,
        "--format",
        "junit",
        "--",
        BIN,
        "hostile-server",
    ]);
    assert!(!junit.stdout.contains('\u{1b}'), "{}", junit.stdout);
    assert_eq!(
        junit.stdout.matches("<failure ").count(),
        4,
        "{}",
        junit.stdout
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn watching_a_path_that_does_not_exist_is_a_usage_error() {
    let r = run(&["--watch", "/nonexistent/server.py", "--demo"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("--watch /nonexistent/server.py: No such file or directory"),
        "{}",
        r.stderr
    );
}

#[test]
fn snapshot_watch_prints_the_judged_diff_after_each_edit() {
    let Some(python) = peers::python() else {
        return;
    };
    let dir = scratch("snapshot-watch");
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/author_server.py"),
    )
    .expect("author server");
    let server = write(&dir.join("server.py"), &source);
    let snapshot = dir.join("snapshot.json");
    let mut child = Killed(
        std::process::Command::new(BIN)
            .args(["snapshot", "--watch", &server, "-o"])
            .arg(&snapshot)
            .args(["--", &python, &server])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start"),
    );
    let mut out = crate::hostile::StderrLines::of_stdout(&mut child.0);
    let within = std::time::Duration::from_secs(20);
    out.wait_for(
        "started: 2 tools, 0 resources, 0 templates, 1 prompt",
        within,
    );
    write(
        &dir.join("server.py"),
        &source.replace("def add(a: int, b: int)", "def add(a: int, b: str)"),
    );
    out.wait_for("changed: server.py", within);
    out.wait_for(
        "/inputSchema/properties/b  type changed: integer → string",
        within,
    );
    out.wait_for("1 breaking, 0 unknown, 0 compatible, 0 info", within);
    let written = std::fs::read_to_string(&snapshot).expect("snapshot written");
    assert!(written.contains("\"mcpInspectSnapshot\": 1"), "{written}");
    drop(child);
    let _ = std::fs::remove_dir_all(dir);
}

/// A child that runs until killed: killed when dropped, even when an assertion fails first.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn deep_wide_and_secret_reflecting_inputs_are_refused_or_redacted() {
    let dir = scratch("attacks");
    let n = 100_000;
    let deep = format!(
        "[[call]]\ntool = \"add\"\nargs = {{ a = {}{} }}\n",
        "[".repeat(n),
        "]".repeat(n)
    );
    let deep = write(&dir.join("deep.toml"), &deep);
    let r = run(&["test", &deep, "--demo"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("deep.toml:3:") && r.stderr.contains("recursion"),
        "{}",
        r.stderr
    );
    let wide = write(
        &dir.join("wide.toml"),
        &"[[call]]\ntool = \"add\"\n".repeat(10_001),
    );
    let r = run(&["test", &wide, "--demo"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("10001 entries, more than the 10000"),
        "{}",
        r.stderr
    );
    // The outside attacker echoes the environment it was given: --update keeps it out.
    let secret = "sk-live-0123456789abcdef";
    let pair = format!("ATTACKER_ECHO={secret}");
    let file = write(&dir.join("leak.toml"), "[[call]]\ntool = \"leak\"\n");
    let attacker = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/attacker.py");
    let attacker = attacker.to_string_lossy();
    let r = run(&[
        "test", &file, "--update", "-e", &pair, "--", "python3", &attacker, "secrets",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let written = std::fs::read_to_string(dir.join("leak.toml")).expect("updated");
    assert!(
        !written.contains(secret) && written.contains("[redacted]"),
        "{written}"
    );
    let r = run(&[
        "test", &file, "--format", "junit", "-e", &pair, "--", "python3", &attacker, "secrets",
    ]);
    assert!(
        !r.stdout.contains(secret) && !r.stderr.contains(secret),
        "{}{}",
        r.stdout,
        r.stderr
    );
    let _ = std::fs::remove_dir_all(dir);
}
