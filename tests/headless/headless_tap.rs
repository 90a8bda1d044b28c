//! `tap` between a host (this test) and real servers: the demo server's bytes forwarded
//! unchanged both ways and the session recorded (private); a server's exit code,
//! a banner on stdout flagged, a reflected secret forwarded but never recorded; a signal to
//! the tap ends the server's whole tree.

use crate::cli::BIN;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

fn state_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-inspect-tap-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn start(args: &[&str], state: &Path) -> Child {
    Command::new(BIN)
        .args(args)
        .env("XDG_STATE_HOME", state)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start")
}

/// What a host sees: the handshake and a listing sent, their answers awaited, stdin closed,
/// then everything the server wrote until it exits; and its exit code.
fn converse(child: Child) -> (Vec<u8>, i32) {
    converse_with(child, &[INITIALIZE, INITIALIZED, LIST], 2)
}

/// `lines` sent, `answers` answers awaited, then as [`converse`].
fn converse_with(mut child: Child, lines: &[&str], answers: usize) -> (Vec<u8>, i32) {
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("write");
    }
    let stdout = child.stdout.take().expect("stdout");
    let (lines, seen) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut all = Vec::new();
        let mut answered = 0;
        loop {
            let mut line = Vec::new();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let text = String::from_utf8_lossy(&line).into_owned();
            all.extend_from_slice(&line);
            let answer = serde_json::from_str::<Value>(&text)
                .is_ok_and(|m| m.get("id").is_some() && m.get("method").is_none());
            if answer {
                answered += 1;
                if answered == answers {
                    let _ = lines.send(None);
                }
            }
        }
        let _ = lines.send(Some(all));
    });
    let first = seen
        .recv_timeout(Duration::from_secs(20))
        .expect("answered");
    assert!(first.is_none(), "both answers came before the end");
    drop(stdin);
    let all = seen
        .recv_timeout(Duration::from_secs(20))
        .expect("the end")
        .expect("bytes");
    let code = child.wait().expect("wait").code().unwrap_or(-1);
    (all, code)
}

fn sessions(state: &Path) -> Vec<PathBuf> {
    let dir = state.join("mcp-inspect/taps");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    found.sort();
    found
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).expect("meta").permissions().mode() & 0o777
}

#[test]
fn a_tap_forwards_every_byte_and_records_the_session() {
    let state = state_dir("demo");
    let (direct, code) = converse(start(&["demo-server"], &state));
    assert_eq!(code, 0);
    let (tapped, code) = converse(start(&["tap", "--", BIN, "demo-server"], &state));
    assert_eq!(code, 0);
    assert_eq!(
        String::from_utf8_lossy(&tapped),
        String::from_utf8_lossy(&direct),
        "the host sees the server's bytes, unchanged"
    );
    let files = sessions(&state);
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(mode(&state.join("mcp-inspect/taps")), 0o700);
    assert_eq!(mode(&files[0]), 0o600);
    let name = files[0]
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with("mcp-inspect-") && name.ends_with(".jsonl"),
        "{name}"
    );
    let recorded = std::fs::read_to_string(&files[0]).expect("read");
    let entries: Vec<Value> = recorded
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let sent: Vec<&Value> = (entries.iter().filter(|e| e["dir"] == "out"))
        .map(|e| &e["message"])
        .collect();
    let methods: Vec<&str> = sent.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(
        methods,
        ["initialize", "notifications/initialized", "tools/list"]
    );
    let answers: Vec<Value> = String::from_utf8_lossy(&tapped)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let received: Vec<Value> = (entries.iter().filter(|e| e["dir"] == "in"))
        .map(|e| e["message"].clone())
        .collect();
    assert_eq!(received, answers, "every answer recorded as forwarded");
    let _ = std::fs::remove_dir_all(&state);
}

#[test]
fn a_tap_passes_on_exit_codes_and_banners_and_never_records_a_secret() {
    let state = state_dir("sh");
    let secret = "S3CR3T'q<u>&x";
    let script = r#"echo "starting up, token $TOKEN"; read line; printf '{"jsonrpc":"2.0","id":1,"result":{"t":"%s"}}\n' "$TOKEN"; exit 3"#;
    let env = format!("TOKEN={secret}");
    let mut child = start(&["tap", "-e", &env, "--", "sh", "-c", script], &state);
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"ping"}}"#).expect("write");
    drop(stdin);
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read");
    assert_eq!(
        child.wait().expect("wait").code(),
        Some(3),
        "the server's exit code"
    );
    assert_eq!(
        out,
        format!(
            "starting up, token {secret}\n{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"t\":\"{secret}\"}}}}\n"
        ),
        "forwarded as the server wrote it"
    );
    let files = sessions(&state);
    assert_eq!(files.len(), 1, "{files:?}");
    let recorded = std::fs::read_to_string(&files[0]).expect("read");
    assert!(!recorded.contains("S3CR3T"), "{recorded}");
    let banner: Value = recorded
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json"))
        .find(|e| e.get("notJsonRpc").is_some())
        .expect("the banner is flagged");
    assert_eq!(banner["notJsonRpc"], "starting up, token [redacted]");
    assert!(
        banner["note"]
            .as_str()
            .is_some_and(|n| n.contains("strict host"))
    );
    let _ = std::fs::remove_dir_all(&state);
}

/// The envelope of a recorded line is the tap's own: a secret that reads like part of it (here
/// `message`; a numeric one could match the time) is redacted in the message only, so every
/// line still reads back as a message.
#[test]
fn a_secret_never_breaks_a_recorded_lines_envelope() {
    let state = state_dir("envelope");
    let script = r#"read line; printf '{"jsonrpc":"2.0","id":1,"result":{"said":"%s"}}\n' "$WORD""#;
    let mut child = start(
        &["tap", "-e", "WORD=message", "--", "sh", "-c", script],
        &state,
    );
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"ping"}}"#).expect("write");
    drop(stdin);
    let mut out = String::new();
    let mut stdout = child.stdout.take().expect("stdout");
    stdout.read_to_string(&mut out).expect("read");
    child.wait().expect("wait");
    let files = sessions(&state);
    assert_eq!(files.len(), 1, "{files:?}");
    let recorded = std::fs::read_to_string(&files[0]).expect("read");
    let lines: Vec<Value> = recorded
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 2, "{recorded}");
    assert_eq!(lines[0]["dir"], "out", "{recorded}");
    assert_eq!(lines[0]["message"]["method"], "ping", "{recorded}");
    assert_eq!(lines[1]["dir"], "in", "{recorded}");
    assert_eq!(
        lines[1]["message"]["result"]["said"], "[redacted]",
        "{recorded}"
    );
    let _ = std::fs::remove_dir_all(&state);
}

#[test]
fn a_signal_to_the_tap_ends_the_whole_server_tree() {
    let state = state_dir("signal");
    let mut child = start(
        &["tap", "--", "sh", "-c", "sleep 300 & echo $!; wait"],
        &state,
    );
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    reader.read_line(&mut line).expect("the grandchild's pid");
    let grandchild: i32 = line.trim().parse().expect("a pid");
    let tap = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(tap, nix::sys::signal::Signal::SIGTERM).expect("kill");
    assert_eq!(
        child.wait().expect("wait").code(),
        Some(143),
        "128 + SIGTERM"
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while Path::new(&format!("/proc/{grandchild}")).exists() {
        let stat = std::fs::read_to_string(format!("/proc/{grandchild}/stat")).unwrap_or_default();
        if stat.contains(") Z ") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the server's child was left running"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&state);
}

/// `taps` reads a tapped session back: each host call with its verdict against the schema the
/// server listed in that session, and says which break it (exit 1).
#[test]
fn taps_judges_every_call_of_a_tapped_session() {
    let state = state_dir("judged");
    let call = |id: u32, tool: &str, args: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{args}}}}}"#
        )
    };
    let calls = [
        call(3, "bad_output", "{}"),
        call(4, "add", r#"{"a":1,"b":2}"#),
    ];
    let lines = [INITIALIZE, INITIALIZED, LIST, &calls[0], &calls[1]];
    let (_, code) = converse_with(start(&["tap", "--", BIN, "demo-server"], &state), &lines, 4);
    assert_eq!(code, 0);
    let files = sessions(&state);
    let name = files[0]
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let taps = |args: &[&str]| {
        Command::new(BIN)
            .arg("taps")
            .args(args)
            .env("XDG_STATE_HOME", &state)
            .output()
            .expect("taps")
    };
    let shown = taps(&[&name]);
    let text = String::from_utf8_lossy(&shown.stdout);
    assert_eq!(
        shown.status.code(),
        Some(1),
        "a result breaks its schema: {text}"
    );
    assert!(
        text.contains("2 calls · 1 violating")
            && text.contains("bad_output {} → 3 violations")
            && text.contains("✗ at /count (minimum): -3 is less than the minimum of 0")
            && text.contains(r#"add {"a":1,"b":2} → conforms"#),
        "{text}"
    );
    let listed = taps(&["--format", "json"]);
    let json: Value = serde_json::from_slice(&listed.stdout).expect("json");
    assert_eq!(json["sessions"][0]["session"], name.as_str());
    assert_eq!(json["sessions"][0]["violating"], 1);
    let _ = std::fs::remove_dir_all(&state);
}

/// A server that floods and writes a line over the recording's cap: every byte still reaches
/// the host, the overlong line is left out of the recording, and what the recording could
/// not keep up with is dropped from it (and said), never from the conversation.
#[test]
fn a_flood_and_an_overlong_line_pass_through_whole() {
    let state = state_dir("flood");
    let flood = r#"head -c 20000000 /dev/zero | tr '\0' x; echo; yes '{"jsonrpc":"2.0","method":"m"}' | head -n 200000"#;
    let child = Command::new(BIN)
        .args(["tap", "--", "sh", "-c", flood])
        .env("XDG_STATE_HOME", &state)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    let line = r#"{"jsonrpc":"2.0","method":"m"}"#;
    assert_eq!(out.stdout.len(), 20_000_001 + 200_000 * (line.len() + 1));
    assert!(out.stdout[..20_000_000].iter().all(|b| *b == b'x'));
    assert!(out.stdout.ends_with(format!("{line}\n").as_bytes()));
    let files = sessions(&state);
    let recorded = std::fs::read_to_string(&files[0]).expect("read");
    assert!(
        !recorded.contains("xxxxxxxxxx"),
        "the overlong line is not recorded"
    );
    // Every line is recorded, or the tap says how many were dropped, or that the recording
    // had not caught up when the server ended (a busy machine).
    let kept = recorded.lines().count();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let dropped: usize = (stderr.split(" lines were not recorded").next())
        .and_then(|head| head.rsplit(' ').next()?.parse().ok())
        .unwrap_or(0);
    assert!(
        kept + dropped == 200_000 || stderr.contains("may lack its last lines"),
        "{kept} kept, {dropped} said dropped: {stderr}"
    );
    assert!(dropped == 0 || kept + dropped <= 200_000, "{stderr}");
    let _ = std::fs::remove_dir_all(&state);
}

/// The built-in hostile server through the tap, reflecting a secret that holds a quote, a
/// backslash and markup (\u-escaped on the wire) among garbage lines and escape sequences:
/// the host gets every byte the server wrote, the recording never holds the secret in any
/// form, and `taps` reads the session back terminal-safe.
#[test]
fn the_hostile_server_through_the_tap_never_puts_a_secret_in_the_recording() {
    let state = state_dir("hostile");
    let secret = r#"S3CR3T"q\uo<&>"#;
    let env = format!("API_TOKEN={secret}");
    let reflect = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"reflect_secrets","arguments":{}}}"#;
    let lines = [INITIALIZE, INITIALIZED, LIST, reflect];
    let args = [
        "tap",
        "-e",
        &env,
        "--",
        BIN,
        "hostile-server",
        "--attack",
        "garbage",
    ];
    let (forwarded, code) = converse_with(start(&args, &state), &lines, 3);
    assert_eq!(code, 0);
    let forwarded = String::from_utf8_lossy(&forwarded);
    assert!(
        forwarded
            .lines()
            .any(|l| serde_json::from_str::<Value>(l).is_err()),
        "the garbage lines reach the host as the server wrote them"
    );
    // The host gets the secret reflected (the server's to send): decoded, it is there.
    let reflected = forwarded
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|m| m["id"] == 3 && m.get("result").is_some())
        .expect("reflect_secrets answered");
    assert!(reflected.to_string().contains("S3CR3T"), "{reflected}");
    let files = sessions(&state);
    assert_eq!(files.len(), 1, "{files:?}");
    let recorded = std::fs::read_to_string(&files[0]).expect("read");
    for form in ["S3CR3T", r#"S3CR3T\"q"#, "\\u0053\\u0033"] {
        assert!(
            !recorded.contains(form),
            "{form} in the recording:\n{recorded}"
        );
    }
    assert!(
        recorded
            .lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok()),
        "every recorded line is JSON"
    );
    let name = files[0]
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let shown = Command::new(BIN)
        .args(["taps", &name])
        .env("XDG_STATE_HOME", &state)
        .output()
        .expect("taps");
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains("reflect_secrets"), "{text}");
    assert!(!text.contains("S3CR3T"), "{text}");
    crate::hostile::assert_terminal_safe("taps of a hostile session", &text);
    let _ = std::fs::remove_dir_all(&state);
}

/// `attach` shows a session as it happens: the messages before it came, then each new one, a
/// host call judged when its answer comes; `taps` says the session is live meanwhile; the
/// viewer ends with the tap (exit 1: a result broke its schema). With no tap running it says
/// so.
#[test]
fn attach_follows_a_live_session_and_judges_each_call() {
    use crate::hostile::StderrLines;
    let state = state_dir("attach");
    let nobody = Command::new(BIN)
        .arg("attach")
        .env("XDG_STATE_HOME", &state)
        .output()
        .expect("attach");
    assert_eq!(nobody.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&nobody.stderr).contains("no tap is running"),
        "{}",
        String::from_utf8_lossy(&nobody.stderr)
    );
    let mut tap = start(&["tap", "--", BIN, "demo-server"], &state);
    let mut host_in = tap.stdin.take().expect("stdin");
    let mut host_out = StderrLines::of_stdout(&mut tap);
    for line in [INITIALIZE, INITIALIZED, LIST] {
        writeln!(host_in, "{line}").expect("write");
    }
    host_out.wait_for(r#""id":2"#, Duration::from_secs(20));
    let listed = Command::new(BIN)
        .args(["taps", "--format", "json"])
        .env("XDG_STATE_HOME", &state)
        .output()
        .expect("taps");
    let json: Value = serde_json::from_slice(&listed.stdout).expect("json");
    assert_eq!(json["sessions"][0]["live"], true, "{json}");
    let mut viewer = Command::new(BIN)
        .arg("attach")
        .env("XDG_STATE_HOME", &state)
        .stdout(Stdio::piped())
        .spawn()
        .expect("attach");
    let mut seen = StderrLines::of_stdout(&mut viewer);
    // What came before the viewer.
    seen.wait_for(
        "server → host  result to tools/list (id 2)",
        Duration::from_secs(20),
    );
    writeln!(
        host_in,
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"bad_output","arguments":{{}}}}}}"#
    )
    .expect("write");
    seen.wait_for(
        "host → server  tools/call bad_output {} (id 3)",
        Duration::from_secs(20),
    );
    seen.wait_for("bad_output {} → 3 violations", Duration::from_secs(20));
    seen.wait_for("✗ at /count (minimum)", Duration::from_secs(20));
    drop(host_in);
    assert!(tap.wait().expect("tap").success());
    let code = viewer.wait().expect("viewer").code();
    let all = seen.all();
    assert_eq!(code, Some(1), "{all}");
    assert!(
        all.contains("session ended: 7 messages · 1 call · 1 violating"),
        "{all}"
    );
    // The same session as JSON lines, one object an event, the end last.
    let files = sessions(&state);
    let json = Command::new(BIN)
        .args(["attach", &files[0].to_string_lossy(), "--format", "json"])
        .env("XDG_STATE_HOME", &state)
        .output()
        .expect("attach");
    assert_eq!(json.status.code(), Some(1));
    let events: Vec<Value> = String::from_utf8_lossy(&json.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(
        events.iter().filter(|e| e.get("message").is_some()).count(),
        6
    );
    let call = events.iter().find_map(|e| e.get("call")).expect("the call");
    assert_eq!(call["tool"], "bad_output");
    assert_eq!(call["outcome"]["status"], "violations");
    let last = events.last().expect("events");
    assert_eq!(last["ended"]["violating"], 1, "{last}");
    let _ = std::fs::remove_dir_all(&state);
}

/// `tap install NAME` rewrites the host's entry so the host runs the server through the tap:
/// started as the host would start the new entry, the demo answers and the session is
/// recorded; only the entry's command and args changed, a backup is kept, and `tap uninstall`
/// puts them back. A name in two configs needs `--file`.
#[test]
fn tap_install_puts_a_hosts_server_through_the_tap_and_uninstall_takes_it_out() {
    let home = state_dir("install");
    let claude = home.join(".config/Claude/claude_desktop_config.json");
    std::fs::create_dir_all(claude.parent().expect("dir")).expect("dir");
    let original = format!(
        "{{\n  \"mcpServers\": {{\n    \"demo\": {{\"command\": {}, \"args\": [\"demo-server\"], \"env\": {{\"TOKEN\": \"S3CR3T'q\\\"\"}}}}\n  }}\n}}\n",
        serde_json::to_string(BIN).expect("json")
    );
    std::fs::write(&claude, &original).expect("config");
    let run = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_STATE_HOME", home.join("state"))
            .current_dir(&home)
            .output()
            .expect("run")
    };
    let installed = run(&["tap", "install", "demo"]);
    assert!(
        installed.status.success(),
        "{}",
        String::from_utf8_lossy(&installed.stderr)
    );
    let text = std::fs::read_to_string(&claude).expect("config");
    let json: Value = serde_json::from_str(&text).expect("still JSON");
    let entry = &json["mcpServers"]["demo"];
    assert_eq!(entry["args"][0], "tap");
    assert_eq!(entry["args"][3], "demo-server");
    assert_eq!(entry["env"]["TOKEN"], "S3CR3T'q\"", "the rest kept");
    let backup = claude.with_file_name("claude_desktop_config.json.mcp-inspect-backup");
    assert_eq!(std::fs::read_to_string(&backup).expect("backup"), original);
    assert_eq!(mode(&backup), 0o600);
    // The host starts the entry as it now reads.
    let words: Vec<String> = std::iter::once(entry["command"].as_str().expect("cmd").to_string())
        .chain(
            (entry["args"].as_array().expect("args").iter())
                .map(|a| a.as_str().expect("word").to_string()),
        )
        .collect();
    let host = Command::new(&words[0])
        .args(&words[1..])
        .env("XDG_STATE_HOME", home.join("state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the entry starts");
    let (out, code) = converse(host);
    assert_eq!(code, 0);
    assert!(String::from_utf8_lossy(&out).contains(r#""id":2"#));
    assert_eq!(
        sessions(&home.join("state")).len(),
        1,
        "the session was recorded"
    );
    // Out again: the file is as it was, byte for byte.
    let removed = run(&["tap", "uninstall", "demo"]);
    assert!(removed.status.success());
    assert_eq!(std::fs::read_to_string(&claude).expect("config"), original);
    // VS Code's mcp.json, with comments and trailing commas: in and out, byte for byte.
    let vscode = home.join(".config/Code/User/mcp.json");
    std::fs::create_dir_all(vscode.parent().expect("dir")).expect("dir");
    let written = "{\n  // mine\n  \"servers\": {\n    \"weather\": {\n      \"type\": \"stdio\",\n      \"command\": \"python3\", /* é */\n      \"args\": [\n        \"server.py\", // the entry point\n        \"--port\", \"8'0\",\n      ],\n    },\n  },\n}\n";
    std::fs::write(&vscode, written).expect("mcp.json");
    let installed = run(&["tap", "install", "weather"]);
    assert!(
        installed.status.success(),
        "{}",
        String::from_utf8_lossy(&installed.stderr)
    );
    let tapped = std::fs::read_to_string(&vscode).expect("mcp.json");
    assert!(
        tapped.contains(
            "\"args\": [\"tap\", \"--\", \"python3\", \n        \"server.py\", // the entry point"
        ),
        "{tapped}"
    );
    assert!(run(&["tap", "uninstall", "weather"]).status.success());
    assert_eq!(std::fs::read_to_string(&vscode).expect("mcp.json"), written);
    // The same name in a second config: which one is asked for.
    let codex = home.join(".codex/config.toml");
    std::fs::create_dir_all(codex.parent().expect("dir")).expect("dir");
    std::fs::write(&codex, "[mcp_servers.demo]\ncommand = \"x\"\n").expect("codex");
    let ambiguous = run(&["tap", "install", "demo"]);
    assert_eq!(ambiguous.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&ambiguous.stderr).contains("name one with --file"));
    let chosen = run(&["tap", "install", "demo", "--file", &codex.to_string_lossy()]);
    assert!(
        chosen.status.success(),
        "{}",
        String::from_utf8_lossy(&chosen.stderr)
    );
    assert!(
        std::fs::read_to_string(&codex)
            .expect("codex")
            .contains(r#""tap", "--", "x""#)
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// `tap --listen --url` between a client and a Streamable HTTP server (the demo's): every
/// answer passes through as the server gave it, the session is recorded and judged like a
/// stdio one, a page of another site is refused, and SIGINT ends it with the recording whole.
#[test]
fn an_http_tap_passes_a_session_through_and_records_it() {
    let state = state_dir("http");
    let server_port = crate::cli::free_port();
    let mut demo = Command::new(BIN);
    demo.args(["demo-server", "--http", &server_port.to_string()]);
    let _demo = crate::cli::start_listening(demo, server_port);
    let (mut tap, port) = http_tap(&state, server_port);
    let proxy = format!("http://127.0.0.1:{port}/mcp");
    // In the 2025 era, with a session of its own; `tools` then speaks 2026-07-28, stateless.
    let called = crate::cli::run(&[
        "call",
        "bad_output",
        "--protocol",
        "legacy",
        "--url",
        &proxy,
    ]);
    assert!(
        called.stdout.contains("violat") || called.stderr.contains("violat"),
        "{}{}",
        called.stdout,
        called.stderr
    );
    let listed = crate::cli::run(&["tools", "--url", &proxy]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert!(listed.stdout.contains("echo(message: string)"));
    // A page of another site (DNS rebinding) is refused before it reaches the server.
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: evil.example.com\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        .expect("write");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    interrupted(&mut tap);
    // A recording for the session, one for the stateless requests.
    let files = sessions(&state);
    assert_eq!(files.len(), 2, "{files:?}");
    let shown = |file: &Path| {
        let shown = Command::new(BIN)
            .args(["taps", &file.to_string_lossy()])
            .env("XDG_STATE_HOME", &state)
            .output()
            .expect("taps");
        String::from_utf8_lossy(&shown.stdout).into_owned()
    };
    let texts: Vec<String> = files.iter().map(|f| shown(f)).collect();
    let session = texts
        .iter()
        .find(|t| t.contains("bad_output {} → 3 violations"))
        .unwrap_or_else(|| panic!("{texts:?}"));
    assert!(session.contains("1 call"), "the session's own: {session}");
    assert!(texts.iter().any(|t| t.contains("0 calls")), "{texts:?}");
    assert!(files.iter().all(|f| mode(f) == 0o600));
    let _ = std::fs::remove_dir_all(&state);
}

/// Bodies larger than the pieces the HTTP tap sends them in: a 600 KB argument reaches the
/// server whole and comes back echoed; a 6 MB body the server refuses (its limit is 4 MiB)
/// gets the refusal, or, when the server's close wins the race, a 502 that says what is
/// likely.
#[test]
fn an_http_tap_passes_large_bodies_on_whole_and_says_why_one_failed() {
    let state = state_dir("http-large");
    let server_port = crate::cli::free_port();
    let mut demo = Command::new(BIN);
    demo.args(["demo-server", "--http", &server_port.to_string()]);
    let _demo = crate::cli::start_listening(demo, server_port);
    let (mut tap, port) = http_tap(&state, server_port);
    let call = |message: &str| {
        let body = serde_json::json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"message": message}, "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}}}})
        .to_string();
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .expect("write");
        // The server may refuse before reading it all: what could not be written is its call.
        let _ = stream.write_all(body.as_bytes());
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    };
    // (The answer may come chunked: its chunk sizes are hex digits, never a `y`.)
    let echoed = call(&"y".repeat(600_000));
    assert!(
        echoed.starts_with("HTTP/1.1 200"),
        "{}",
        &echoed[..echoed.len().min(300)]
    );
    let ys = echoed.bytes().filter(|b| *b == b'y').count();
    assert!(ys >= 600_000, "the argument came back whole: {ys} of it");
    let refused = call(&"x".repeat(6 << 20));
    let head = &refused[..refused.len().min(400)];
    assert!(
        head.starts_with("HTTP/1.1 413")
            || (head.starts_with("HTTP/1.1 502") && head.contains("refused it as too large")),
        "{head}"
    );
    interrupted(&mut tap);
    let _ = std::fs::remove_dir_all(&state);
}

/// `tap --listen` on a free port in front of the server on `server_port`, recording in
/// `state`; started once it listens.
fn http_tap(state: &Path, server_port: u16) -> (crate::cli::Background, u16) {
    let port = crate::cli::free_port();
    let mut tap = Command::new(BIN);
    tap.args([
        "tap",
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--url",
        &format!("http://127.0.0.1:{server_port}/mcp"),
    ])
    .env("XDG_STATE_HOME", state);
    (crate::cli::start_listening(tap, port), port)
}

/// SIGINT to an HTTP tap: it ends at once, with success.
fn interrupted(tap: &mut crate::cli::Background) {
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(tap.0.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .expect("signal");
    assert!(tap.0.wait().expect("tap").success());
}

/// A server that reflects the host's `Authorization` header in its answer (written here:
/// no real server does it on purpose): the host gets the answer as sent, and the HTTP tap's
/// recording never holds the token, quotes and all.
#[test]
fn an_http_tap_never_records_a_token_the_server_reflects() {
    let state = state_dir("http-secret");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let server_port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            reflect(stream);
        }
    });
    let (mut tap, port) = http_tap(&state, server_port);
    let token = r#"S3CR3T'q"u\ote&<>"#;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        answer.contains("S3CR3T"),
        "the host gets what the server sent: {answer}"
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(tap.0.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("signal");
    assert!(tap.0.wait().expect("tap").success());
    let files = sessions(&state);
    let recorded = std::fs::read_to_string(&files[0]).expect("recording");
    assert!(recorded.contains(r#""method":"ping""#), "{recorded}");
    assert!(
        recorded.contains("\"in\""),
        "the answer is recorded: {recorded}"
    );
    assert!(!recorded.contains("S3CR3T"), "{recorded}");
    assert!(
        recorded.contains(r#""you":"#),
        "the reflecting answer is kept: {recorded}"
    );
    let _ = std::fs::remove_dir_all(&state);
}

/// Answers one HTTP request with a JSON-RPC result holding its `Authorization` header.
/// One HTTP request read from `stream`: its header lines (as sent) and its body.
fn read_request(stream: &std::net::TcpStream) -> (Vec<String>, Vec<u8>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let (mut headers, mut length) = (Vec::new(), 0);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
        headers.push(line);
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    (headers, body)
}

fn reflect(mut stream: std::net::TcpStream) {
    let (headers, _) = read_request(&stream);
    let authorization = (headers.iter())
        .find(|line| line.to_ascii_lowercase().starts_with("authorization:"))
        .map_or(String::new(), |line| {
            line["authorization:".len()..].trim().to_string()
        });
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"you": authorization}})
        .to_string();
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
        answer.len()
    );
}

/// A hostile host: invalid UTF-8, escape sequences in and out of JSON, a flood of lines and a
/// 6 MB last line with no newline, written to a server that echoes every byte (`cat`). The
/// host gets back exactly what it wrote; the recording, `taps` and `attach` stay
/// terminal-safe.
#[test]
fn a_hostile_host_is_forwarded_exactly_and_read_back_safely() {
    let state = state_dir("hostile-host");
    let mut written: Vec<u8> = Vec::new();
    written.extend_from_slice(b"\xff\xfe not utf-8 \x9b2J\n");
    written.extend_from_slice(b"\x1b]0;owned\x07\x1b[2J plain escapes\n");
    written.extend_from_slice(
        br#"{"jsonrpc":"2.0","id":"\u001b[2J","method":"tools/call","params":{"name":"x\u009b","arguments":{"a":"\u202e"}}}"#,
    );
    written.push(b'\n');
    for i in 0..50_000 {
        written
            .extend_from_slice(format!("{{\"jsonrpc\":\"2.0\",\"method\":\"n{i}\"}}\n").as_bytes());
    }
    written.extend(std::iter::repeat_n(b'y', 6 << 20));
    let mut child = Command::new(BIN)
        .args(["tap", "--", "cat"])
        .env("XDG_STATE_HOME", &state)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    let mut stdin = child.stdin.take().expect("stdin");
    let sent = written.clone();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&sent).expect("write");
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stdout == written,
        "the host got back every byte it wrote"
    );
    let files = sessions(&state);
    let recorded = std::fs::read_to_string(&files[0]).expect("read");
    crate::hostile::assert_terminal_safe("the recording", &recorded);
    let name = files[0]
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    for args in [
        vec!["taps", name.as_str()],
        vec!["attach", name.as_str(), "--format", "text"],
    ] {
        let shown = Command::new(BIN)
            .args(&args)
            .env("XDG_STATE_HOME", &state)
            .output()
            .expect("read back");
        let text = String::from_utf8_lossy(&shown.stdout);
        crate::hostile::assert_terminal_safe(&args.join(" "), &text);
        assert!(text.contains("not JSON-RPC"), "{}: {text}", args.join(" "));
    }
    let _ = std::fs::remove_dir_all(&state);
}

/// Two `initialize`s in flight through one HTTP tap at once (a server that answers neither
/// until both have come): each session's recording holds its own handshake and what came
/// after in that session, never the other's.
#[test]
fn initializes_in_flight_at_once_are_recorded_apart() {
    let state = state_dir("http-overlap");
    let upstream = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let server_port = upstream.local_addr().expect("addr").port();
    let server = std::thread::spawn(move || overlapping_server(&upstream));
    let (mut tap, port) = http_tap(&state, server_port);
    let hosts = ["first-host", "second-host"].map(|name| {
        std::thread::spawn(move || {
            let initialize = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"{name}","version":"1"}}}}}}"#
            );
            let answer = post(port, &initialize, None);
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            let session = format!("s-{name}");
            assert!(answer.contains(&session), "{answer}");
            let initialized = format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/initialized","params":{{"_meta":{{"from":"{name}"}}}}}}"#
            );
            let answer = post(port, &initialized, Some(&session));
            assert!(answer.starts_with("HTTP/1.1 202"), "{answer}");
        })
    });
    for host in hosts {
        host.join().expect("host");
    }
    server.join().expect("server");
    interrupted(&mut tap);
    let files = sessions(&state);
    assert_eq!(files.len(), 2, "{files:?}");
    for file in &files {
        let recorded = std::fs::read_to_string(file).expect("read");
        let lines: Vec<&str> = recorded.lines().collect();
        assert_eq!(
            lines.len(),
            3,
            "its handshake and its notification: {recorded}"
        );
        let asked_by = ["first-host", "second-host"]
            .into_iter()
            .find(|h| lines[0].contains(h))
            .expect("a host's initialize");
        assert!(lines[1].contains(&format!("for {asked_by}")), "{recorded}");
        assert!(
            lines[2].contains(&format!("\"from\":\"{asked_by}\"")),
            "{recorded}"
        );
    }
    let _ = std::fs::remove_dir_all(&state);
}

/// POSTs `body` to the tap on `port` (in `session`, when given); the whole answer.
fn post(port: u16, body: &str, session: Option<&str>) -> String {
    let session = session.map_or(String::new(), |s| format!("Mcp-Session-Id: {s}\r\n"));
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{session}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// A server that reads two `initialize`s before it answers either (each with a session named
/// for its host, and the host's name in its answer), then takes two notifications (202).
fn overlapping_server(upstream: &std::net::TcpListener) {
    let read = |stream: &std::net::TcpStream| {
        serde_json::from_slice::<Value>(&read_request(stream).1).unwrap_or_default()
    };
    let asked: Vec<(std::net::TcpStream, String)> = (0..2)
        .map(|_| {
            let (stream, _) = upstream.accept().expect("accept");
            let request = read(&stream);
            let name = request["params"]["clientInfo"]["name"]
                .as_str()
                .unwrap_or("?");
            (stream, name.to_string())
        })
        .collect();
    for (mut stream, name) in asked {
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "serverInfo": {"name": format!("for {name}"), "version": "1"}}})
        .to_string();
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s-{name}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
            answer.len()
        );
    }
    for _ in 0..2 {
        let (mut stream, _) = upstream.accept().expect("accept");
        read(&stream);
        let _ = write!(
            stream,
            "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
    }
}
