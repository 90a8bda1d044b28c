//! Every screen drawn from what the built-in hostile server really sends (its tool list, its
//! results, its logs, stderr and notices) holds no raw control or bidi character in any cell,
//! and showing, validating and calling its schemas never touches the URLs they point at.

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/tui.rs"]
mod tui;

#[path = "support/cli.rs"]
mod cli;

use hostile::is_unsafe;
use mcp_inspect::app::calls::Judged;
use mcp_inspect::app::keymap::Keymap;
use mcp_inspect::app::model::Model;
use mcp_inspect::app::theme::Theme;
use mcp_inspect::app::update::{Effect, Msg, update};
use mcp_inspect::mcp::{ConnectOptions, EventSink, ProtocolChoice, Session};
use tui::{press, render};

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

fn assert_screen_safe(model: &mut Model, what: &str) {
    for (w, h) in [(80, 24), (120, 40)] {
        let buffer = render(model, w, h);
        for y in 0..h {
            for x in 0..w {
                let symbol = buffer[(x, y)].symbol();
                assert!(
                    !symbol.chars().any(is_unsafe),
                    "{what} at {w}x{h}: cell ({x}, {y}) holds {symbol:?}\n{}",
                    tui::text(&buffer)
                );
            }
        }
    }
}

/// Sends a call from the model to the real session and feeds its outcome back.
async fn call(model: &mut Model, session: &Session) {
    press(model, &["a"]);
    let effects = press(model, &["ctrl-s", "ctrl-s"]);
    let Some(Effect::Call {
        tool,
        id,
        arguments,
        output,
    }) = effects
        .into_iter()
        .find(|e| matches!(e, Effect::Call { .. }))
    else {
        panic!("no call sent: {:?}", model.status);
    };
    let era = session.server.era;
    let outcome = session
        .call_tool(&tool, arguments)
        .await
        .map(|result| Box::new(Judged::new(result, output.as_deref(), era)));
    update(model, Msg::CallFinished { tool, id, outcome });
}

#[tokio::test]
async fn every_pane_stays_free_of_raw_control_characters() {
    let listener = hostile::CountingListener::start();
    let url = listener.url.clone();
    let (sink, mut events) = EventSink::new();
    let session = Session::connect(&hostile(&["garbage"], &url), &sink)
        .await
        .expect("connect");
    let list = session.list_tools().await.expect("list");
    let mut model = Model::new(
        "hostile".into(),
        Keymap::default_map(),
        Theme { color: true },
    );
    update(&mut model, Msg::Connected(session.server.clone()));
    update(&mut model, Msg::ToolsListed(list));
    let count = model.tools.len();
    assert!(count >= 17, "{count} tools");
    for index in 0..count {
        assert_screen_safe(&mut model, &format!("tool {index}"));
        press(&mut model, &["enter"]);
        assert_screen_safe(&mut model, &format!("tool {index} opened"));
        press(&mut model, &["1", "j"]);
    }
    press(&mut model, &["g"]);
    for name in [
        "escape_result",
        "lying_output",
        "garbage_answer",
        "remote_ref",
    ] {
        press(&mut model, &["/"]);
        tui::type_text(&mut model, name);
        press(&mut model, &["enter"]);
        call(&mut model, &session).await;
        assert_screen_safe(&mut model, name);
        press(&mut model, &["esc", "1", "esc"]);
    }
    while let Some(event) = events.try_recv() {
        update(&mut model, Msg::Server(event));
    }
    press(&mut model, &["4"]);
    assert_screen_safe(&mut model, "log");
    press(&mut model, &["3"]);
    assert_screen_safe(&mut model, "server");
    session.shutdown().await;
    assert_eq!(listener.connections(), 0, "a remote ref was fetched");
}
