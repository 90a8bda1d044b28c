//! The connection engine in-process against the demo server started as a user would (this
//! binary, `demo-server`, over stdio): list changes in both eras, progress, cancellation,
//! stderr, pagination.

use crate::cli;
use mcp_inspect::testing::mcp::session::requests::OpenRequest;

use mcp_inspect::testing::mcp::EventReceiver;
use mcp_inspect::testing::mcp::{
    ConnectOptions, EventSink, ProtocolChoice, RequestError, ServerEvent,
};
use serde_json::json;
use std::time::Duration;

fn demo(protocol: ProtocolChoice, extra: &[&str]) -> ConnectOptions {
    let mut args = vec!["demo-server".to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    cli::this_binary(args, protocol)
}

/// Waits for the first event that `want` accepts, returning it.
async fn wait_for(events: &mut EventReceiver, want: impl Fn(&ServerEvent) -> bool) -> ServerEvent {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let e = events.recv().await.expect("events end");
            if want(&e) {
                return e;
            }
        }
    })
    .await
    .expect("event never came")
}

#[tokio::test]
async fn list_changes_arrive_in_both_eras() {
    for (protocol, era) in [
        (ProtocolChoice::Auto, "modern"),
        (ProtocolChoice::Legacy, "legacy"),
    ] {
        let (sink, mut events) = EventSink::new();
        let session = mcp_inspect::testing::mcp::connect(&demo(protocol, &[]), &sink)
            .await
            .expect("connect");
        assert_eq!(format!("{:?}", session.server.era).to_lowercase(), era);
        let before = session.list_tools().await.expect("list");
        assert!(!before.tools.iter().any(|t| t.name == "extra"));
        let toggled = session
            .call_tool("toggle_extra", json!({}), false)
            .await
            .expect("call");
        assert_eq!(toggled.texts(), ["extra added"]);
        wait_for(&mut events, |e| *e == ServerEvent::ToolsChanged).await;
        let after = session.list_tools().await.expect("list");
        assert!(
            after.tools.iter().any(|t| t.name == "extra"),
            "{era}: the re-fetched list has the new tool"
        );
        session.shutdown().await;
    }
}

/// A subscribed resource's updates arrive: after `resources/subscribe` in the legacy era, on a
/// new `subscriptions/listen` stream naming it in the 2026 era; an unsubscribed one's stop.
/// A resource the server does not have is refused in words.
#[tokio::test]
async fn a_subscribed_resource_says_when_it_changed_in_both_eras() {
    const TICKER: &str = "demo://ticker";
    for protocol in [ProtocolChoice::Auto, ProtocolChoice::Legacy] {
        let (sink, mut events) = EventSink::new();
        let session = mcp_inspect::testing::mcp::connect(&demo(protocol, &[]), &sink)
            .await
            .expect("connect");
        let era = session.server.era;
        session.subscribe(TICKER, true).await.expect("subscribe");
        let updated = |e: &ServerEvent| *e == ServerEvent::ResourceUpdated(TICKER.into());
        wait_for(&mut events, updated).await;
        let read = session
            .open(&OpenRequest::Read { uri: TICKER.into() })
            .await
            .expect("read");
        let text = read["contents"][0]["text"].as_str().unwrap_or_default();
        assert!(text.starts_with("tick "), "{era:?}: {read}");
        assert_ne!(
            text, "tick 0",
            "{era:?}: it ticked before the update was told"
        );
        session.subscribe(TICKER, false).await.expect("unsubscribe");
        // Once the end is acknowledged (and what was already on its way has come: a tick may
        // have crossed the request; a ping answered after it comes after them), no update
        // comes for two ticks.
        session.ping().await.expect("ping");
        while events.try_recv().is_some() {}
        let quiet = tokio::time::timeout(Duration::from_millis(2_500), async {
            loop {
                let e = events.recv().await.expect("events end");
                if updated(&e) {
                    return e;
                }
            }
        })
        .await;
        assert!(
            quiet.is_err(),
            "{era:?}: an update came after unsubscribing"
        );
        let refused = session.subscribe("demo://nowhere", true).await;
        let why = refused.expect_err("no such resource").to_string();
        assert!(
            why.contains("no resource demo://nowhere") || why.contains("leaves out demo://nowhere"),
            "{era:?}: {why}"
        );
        session.shutdown().await;
    }
}

#[tokio::test]
async fn progress_is_reported_and_cancel_reaches_the_server() {
    let (sink, mut events) = EventSink::new();
    let session = mcp_inspect::testing::mcp::connect(&demo(ProtocolChoice::Auto, &[]), &sink)
        .await
        .expect("connect");
    let call = session
        .start_call("slow", json!({"seconds": 20, "steps": 200}), false)
        .await
        .expect("start");
    let token = call.progress_token.clone();
    let (cancel_tx, cancel_rx) = tokio::sync::oneshot::channel::<()>();
    let waiter = async {
        let first = wait_for(&mut events, |e| matches!(e, ServerEvent::Progress { .. })).await;
        let ServerEvent::Progress {
            token: got,
            total,
            message,
            ..
        } = first
        else {
            unreachable!()
        };
        assert_eq!(got, token, "progress carries our token");
        assert_eq!(total, Some(200.0));
        assert!(message.is_some_and(|m| m.starts_with("step 1 of 200")));
        let _ = cancel_tx.send(());
        wait_for(
            &mut events,
            |e| matches!(e, ServerEvent::Stderr(l) if l.contains("slow cancelled")),
        )
        .await;
    };
    let (result, ()) = tokio::join!(
        call.result_or_cancel(async {
            let _ = cancel_rx.await;
        }),
        waiter
    );
    assert_eq!(result, Err(RequestError::Cancelled));
    session.shutdown().await;
}

#[tokio::test]
async fn pagination_is_followed_and_a_repeated_cursor_stops_it() {
    let (sink, _events) = EventSink::new();
    let session = mcp_inspect::testing::mcp::connect(
        &demo(ProtocolChoice::Legacy, &["--page-size", "4"]),
        &sink,
    )
    .await
    .expect("connect");
    let list = session.list_tools().await.expect("list");
    assert_eq!(list.tools.len(), 17);
    assert_eq!(list.pages, 5);
    assert_eq!(list.problem, None);
    session.shutdown().await;
    let session = mcp_inspect::testing::mcp::connect(
        &demo(
            ProtocolChoice::Legacy,
            &["--page-size", "4", "--repeat-cursor"],
        ),
        &sink,
    )
    .await
    .expect("connect");
    let list = session.list_tools().await.expect("list");
    assert_eq!(
        list.problem.as_deref(),
        Some("the server repeated the cursor `4` after 2 pages: listing stopped")
    );
    assert_eq!(list.tools.len(), 8, "the tools found so far are kept");
    session.shutdown().await;
}

#[tokio::test]
async fn a_timeout_is_a_clear_error() {
    let (sink, _events) = EventSink::new();
    let mut options = demo(ProtocolChoice::Auto, &[]);
    options.timeout = Duration::from_millis(500);
    let session = mcp_inspect::testing::mcp::connect(&options, &sink)
        .await
        .expect("connect");
    let err = session
        .call_tool("slow", json!({"seconds": 5, "steps": 1}), false)
        .await
        .expect_err("times out");
    assert_eq!(err, RequestError::Timeout(Duration::from_millis(500)));
    assert_eq!(
        err.to_string(),
        "no answer within 0.5s (timeout; raise it with --timeout)"
    );
    session.shutdown().await;
}
