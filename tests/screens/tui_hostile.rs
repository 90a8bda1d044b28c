//! Every screen drawn from what the built-in hostile server really sends (its tool list, its
//! results, its logs, stderr and notices) holds no raw control or bidi character in any cell,
//! and showing, validating and calling its schemas never touches the URLs they point at. The
//! real event loop and connection task run it, on a scripted terminal.

use crate::hostile;
use crate::tui;

use crate::cli;
use crate::edge;

use edge::{ScriptedEdge, Step, keys, run_to_the_end, wait_for};
use hostile::is_unsafe;
use mcp_inspect::testing::mcp::{ConnectOptions, EventSink, ProtocolChoice};
use ratatui::buffer::Buffer;

fn hostile(attacks: &[&str], ref_url: &str) -> ConnectOptions {
    let mut args = vec![
        "hostile-server".to_string(),
        "--ref-url".into(),
        ref_url.into(),
    ];
    for a in attacks {
        args.extend(["--attack".to_string(), a.to_string()]);
    }
    cli::this_binary(args, ProtocolChoice::Auto)
}

/// Panics naming the cell when a screen holds a raw control, bidi or invisible character.
fn assert_safe(buffer: &Buffer, what: &str) {
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            let symbol = buffer[(x, y)].symbol();
            assert!(
                !symbol.chars().any(is_unsafe),
                "{what}: cell ({x}, {y}) holds {symbol:?}\n{}",
                tui::text(buffer)
            );
        }
    }
}

/// The real event loop and connection task on the real hostile server, driven like a person:
/// every tool shown and opened, four calls answered, the log and server panes; every frame
/// drawn is checked.
async fn walk_every_pane(width: u16, height: u16, tools: usize, url: &str) {
    let mut script = vec![wait_for(&format!("Tools ({tools})"))];
    for _ in 0..tools {
        script.push(keys(&["enter", "1", "j"]));
    }
    script.push(keys(&["g"]));
    for name in [
        "escape_result",
        "lying_output",
        "garbage_answer",
        "remote_ref",
    ] {
        script.push(keys(&["/"]));
        script.push(Step::Type(name.to_string()));
        // The second press confirms where the draft needs it; else it may send a second call.
        script.push(keys(&["enter", "a", "ctrl-s", "ctrl-s"]));
        // A call of this tool's fresh panel ended: its line shows the time it took.
        script.push(wait_for(" ms · "));
        if name == "escape_result" {
            // Its resource link, read on `o`: the link's escapes stay escaped in the library.
            script.push(keys(&["o"]));
            script.push(wait_for("read http://127.0.0.1:9/"));
        }
        script.push(keys(&["esc", "1", "esc"]));
    }
    script.push(keys(&["4"]));
    script.push(wait_for(" Log"));
    script.push(keys(&["3", "q"]));
    let what = format!("{width}x{height}");
    let mut edge =
        ScriptedEdge::new(width, height, script).checking(move |buffer| assert_safe(buffer, &what));
    run_to_the_end(&mut edge, hostile(&["garbage"], url), 120).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_pane_stays_free_of_raw_control_characters() {
    let listener = hostile::CountingListener::start();
    let url = listener.url.clone();
    // How many tools the server lists, to walk them all.
    let (sink, _events) = EventSink::new();
    let session = mcp_inspect::testing::mcp::connect(&hostile(&["garbage"], &url), &sink)
        .await
        .expect("connect");
    let tools = session.list_tools().await.expect("list").tools.len();
    session.shutdown().await;
    assert!(tools >= 17, "{tools} tools");
    for (width, height) in [(80, 24), (120, 40)] {
        walk_every_pane(width, height, tools, &url).await;
    }
    assert_eq!(listener.connections(), 0, "a remote ref was fetched");
}

/// A call's timeout is kept while another request is pending and busy: `never_answer` with a
/// 5 s timeout ends (said in its panel) while `flood_during_call` still runs beside it,
/// sending progress thousands of times a second. (A first session saw a timeout overshoot
/// while another request was pending; not reproduced since: this holds it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_holds_while_another_call_floods() {
    let listener = hostile::CountingListener::start();
    let mut options = hostile(&[], &listener.url);
    // Not shorter: the timeout also bounds the handshake, which a loaded machine slows.
    options.timeout = std::time::Duration::from_secs(5);
    let call = |tool: &str| {
        vec![
            keys(&["/"]),
            Step::Type(tool.to_string()),
            keys(&["enter", "a"]),
        ]
    };
    let mut script = vec![wait_for("tools listed")];
    script.extend(call("never_answer"));
    script.push(keys(&["ctrl-s"]));
    script.push(wait_for("running"));
    script.push(keys(&["esc", "1", "esc"]));
    // The flood for 63 s (the cursor starts on `seconds`' value, 3).
    script.extend(call("flood_during_call"));
    script.push(Step::Type("6".into()));
    script.push(keys(&["ctrl-s"]));
    script.push(wait_for("progress"));
    script.push(keys(&["esc", "1", "esc"]));
    script.extend(call("never_answer"));
    script.push(keys(&["esc"]));
    script.push(wait_for("no answer within 5s"));
    // The flood still runs: cancelled here, and the inspector quits.
    script.push(keys(&["1", "esc"]));
    script.extend(call("flood_during_call"));
    script.push(keys(&["esc"]));
    script.push(wait_for("running"));
    script.push(keys(&["x"]));
    script.push(wait_for("cancelled"));
    script.push(keys(&["q"]));
    run_to_the_end(&mut ScriptedEdge::new(120, 40, script), options, 60).await;
}

/// `C` runs the conduct checks through the real connection task on the hostile server (with
/// copies of it started for the raw checks): its breaks are listed in the Server pane, each
/// with what came back and its reproduce line, and every frame stays safe.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conduct_checks_list_the_hostile_servers_breaks() {
    let listener = hostile::CountingListener::start();
    let options = hostile(&[], &listener.url);
    let script = vec![
        wait_for("tools listed"),
        keys(&["C"]),
        // logging/setLevel "not found", and progress_late serves a label its schema refuses.
        wait_for("failed (2 of a MUST)"),
        keys(&["z"]),
        wait_for("✗ MUST   logging-set-level"),
        wait_for("✗ MUST   invalid-arguments"),
        wait_for("reproduce: mcp-inspect request logging/setLevel"),
        keys(&["q"]),
    ];
    let mut edge = ScriptedEdge::new(160, 60, script)
        .checking(move |buffer| assert_safe(buffer, "the conduct checks"));
    run_to_the_end(&mut edge, options, 90).await;
    assert_eq!(listener.connections(), 0, "a remote ref was fetched");
}
