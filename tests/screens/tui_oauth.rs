//! The OAuth panel: in front of everything once the flow has a URL, keys of its own (typing
//! goes into the address line, `q` included), the URL copied or opened on a key, Esc cancels,
//! a failure stays until closed; a hostile URL and hostile steps drawn escaped.

use crate::tui;

use mcp_inspect::testing::app::effect::Effect;
use mcp_inspect::testing::app::update::{Msg, update};
use mcp_inspect::testing::mcp::{AuthStep, ServerEvent};
use tui::{demo_model, press, render, text, type_text};

fn step(model: &mut mcp_inspect::testing::app::model::Model, step: AuthStep) {
    update(model, Msg::Server(ServerEvent::Authorization(step)));
}

const URL: &str = "https://auth.example/authorize?response_type=code&client_id=mcp-inspect-client&state=s7a7e&code_challenge=abc&code_challenge_method=S256&redirect_uri=http%3A%2F%2F127.0.0.1%3A41234%2Fcallback&resource=https%3A%2F%2Fmcp.example%2Fmcp\u{1b}]52;c;aGk=\u{7}";

#[test]
fn the_panel_at_both_sizes_escaped() {
    let mut m = demo_model();
    step(
        &mut m,
        AuthStep::Said("discovering how https://mcp.example/mcp is authorized".into()),
    );
    step(
        &mut m,
        AuthStep::Said(
            "waiting for the browser's redirect to http://127.0.0.1:41234/callback\u{1b}[2J".into(),
        ),
    );
    step(&mut m, AuthStep::Open(URL.into()));
    type_text(&mut m, "http://127.0.0.1:41234/callback?code=");
    assert!(
        press(&mut m, &["ctrl-y", "ctrl-o"]).is_empty(),
        "never copied or opened"
    );
    assert_eq!(
        m.view.status.as_deref(),
        Some("the URL holds control characters: not copied or opened")
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = text(&render(&mut m, w, h));
        assert!(!screen.contains('\u{1b}'), "{screen}");
        insta::assert_snapshot!(format!("oauth_panel_{w}x{h}"), screen);
    }
}

#[test]
fn the_panels_keys_type_copy_open_send_and_cancel() {
    let mut m = demo_model();
    step(&mut m, AuthStep::Said("using the stored token".into()));
    assert!(
        m.authorizing.as_ref().is_some_and(|a| !a.shown()),
        "no URL yet: nothing in front"
    );
    step(
        &mut m,
        AuthStep::Open("https://auth.example/authorize?x=1".into()),
    );
    // `q` is a letter of the address here, not quit.
    press(&mut m, &["q", "backspace"]);
    assert!(!m.exit.quit);
    let copied = press(&mut m, &["ctrl-y"]);
    assert!(
        matches!(&copied[..], [Effect::Copy(c)] if c.text == "https://auth.example/authorize?x=1"),
        "{copied:?}"
    );
    assert_eq!(
        press(&mut m, &["ctrl-o"]),
        [Effect::OpenInBrowser(
            "https://auth.example/authorize?x=1".into()
        )]
    );
    assert!(press(&mut m, &["enter"]).is_empty(), "nothing pasted yet");
    update(
        &mut m,
        Msg::Paste("http://127.0.0.1:1/callback?code=c&state=s\n".into()),
    );
    assert_eq!(
        press(&mut m, &["enter"]),
        [Effect::PasteRedirect(
            "http://127.0.0.1:1/callback?code=c&state=s".into()
        )]
    );
    assert_eq!(
        press(&mut m, &["esc"]),
        [Effect::PasteRedirect(String::new())]
    );
    step(&mut m, AuthStep::Failed("cancelled by the user".into()));
    let screen = text(&render(&mut m, 100, 30));
    assert!(screen.contains("failed: cancelled by the user"), "{screen}");
    press(&mut m, &["esc"]);
    assert!(m.authorizing.is_none());
    step(
        &mut m,
        AuthStep::Open("https://auth.example/authorize?x=2".into()),
    );
    step(
        &mut m,
        AuthStep::Authorized("authorized as client c: scopes read".into()),
    );
    assert!(m.authorizing.is_none());
    let screen = text(&render(&mut m, 100, 30));
    assert!(
        screen.contains("authorized as client c: scopes read"),
        "{screen}"
    );
}
