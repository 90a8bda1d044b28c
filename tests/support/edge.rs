//! A scripted edge for the real event loop: a `TestBackend` terminal, keys fed from a script
//! whose steps can wait for text on the screen (never for time), copies recorded, and a check
//! run on every frame the loop draws.
#![allow(dead_code)]

use mcp_inspect::testing::runtime::event_loop::{Edge, Input};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use std::collections::VecDeque;

/// One step of a script.
pub enum Step {
    /// Keys written as in the keymap (`j`, `enter`, `ctrl-s`).
    Keys(Vec<String>),
    /// Characters typed one by one.
    Type(String),
    /// Waits until the screen shows this text.
    WaitFor(String),
    /// Resizes the terminal.
    Resize(u16, u16),
}

pub fn keys(keys: &[&str]) -> Step {
    Step::Keys(keys.iter().map(|k| k.to_string()).collect())
}

pub fn wait_for(text: &str) -> Step {
    Step::WaitFor(text.to_string())
}

pub struct ScriptedEdge {
    terminal: Terminal<TestBackend>,
    script: VecDeque<Step>,
    /// Run on the screen each time the loop asks for input (after every frame it drew).
    check: Box<dyn FnMut(&Buffer)>,
    pub copies: Vec<String>,
    /// The text of the step being waited for, for a failing test's message.
    pub waiting_for: Option<String>,
}

impl ScriptedEdge {
    pub fn new(width: u16, height: u16, script: Vec<Step>) -> ScriptedEdge {
        ScriptedEdge {
            terminal: Terminal::new(TestBackend::new(width, height)).expect("terminal"),
            script: script.into(),
            check: Box::new(|_| {}),
            copies: Vec::new(),
            waiting_for: None,
        }
    }

    pub fn checking(mut self, check: impl FnMut(&Buffer) + 'static) -> ScriptedEdge {
        self.check = Box::new(check);
        self
    }

    pub fn screen(&self) -> String {
        super::tui::text(self.terminal.backend().buffer())
    }
}

impl Edge for ScriptedEdge {
    type Backend = TestBackend;

    fn terminal(&mut self) -> &mut Terminal<TestBackend> {
        &mut self.terminal
    }

    async fn next_input(&mut self) -> std::io::Result<Input> {
        (self.check)(self.terminal.backend().buffer());
        loop {
            let Some(step) = self.script.front_mut() else {
                return Ok(Input::Quit);
            };
            match step {
                Step::Keys(keys) if keys.is_empty() => {}
                Step::Keys(keys) => {
                    let key = keys.remove(0);
                    return Ok(Input::Key(super::tui::key_event(&key)));
                }
                Step::Type(text) if text.is_empty() => {}
                Step::Type(text) => {
                    let c = text.remove(0);
                    let key = crossterm::event::KeyEvent::new(
                        crossterm::event::KeyCode::Char(c),
                        crossterm::event::KeyModifiers::NONE,
                    );
                    return Ok(Input::Key(key));
                }
                Step::WaitFor(text) => {
                    if !super::tui::text(self.terminal.backend().buffer()).contains(text.as_str()) {
                        self.waiting_for = Some(text.clone());
                        // Asked again after the next frame (the loop drops this future when
                        // a server event arrives).
                        std::future::pending::<()>().await;
                    }
                    self.waiting_for = None;
                }
                Step::Resize(w, h) => {
                    let (w, h) = (*w, *h);
                    self.script.pop_front();
                    self.terminal.backend_mut().resize(w, h);
                    self.terminal.autoresize().expect("resize");
                    return Ok(Input::Resize);
                }
            }
            self.script.pop_front();
        }
    }

    fn copy(&mut self, text: &str) -> Result<String, String> {
        self.copies.push(text.to_string());
        Ok("recorded by the test".into())
    }

    async fn edit(&mut self, _text: &str) -> std::io::Result<Result<String, String>> {
        Ok(Err("no editor in tests".into()))
    }

    fn release(&mut self) {}
}

/// The real event loop and connection task on the demo server, driven by `script` to its `q`.
pub async fn run_on_the_demo(script: Vec<Step>) {
    use mcp_inspect::testing::mcp::ProtocolChoice;
    let options = crate::cli::this_binary(vec!["demo-server".into()], ProtocolChoice::Auto);
    run_to_the_end(&mut ScriptedEdge::new(120, 40, script), options, 60).await;
}

/// Runs the real event loop on `edge`'s script to its `q`, within `seconds`: it must end
/// cleanly, or the screen and the step waited for are shown.
pub async fn run_to_the_end(
    edge: &mut ScriptedEdge,
    options: mcp_inspect::testing::mcp::ConnectOptions,
    seconds: u64,
) {
    use mcp_inspect::testing::app::keymap::Keymap;
    use mcp_inspect::testing::app::model::Model;
    use mcp_inspect::testing::app::theme::Theme;
    use mcp_inspect::testing::runtime::event_loop::{Ended, run_loop};
    let model = Model::new("test".into(), Keymap::default_map(), Theme { color: true });
    let ended = tokio::time::timeout(
        std::time::Duration::from_secs(seconds),
        run_loop(edge, options, model, None),
    )
    .await;
    assert!(
        matches!(ended, Ok(Ok(Ended::Quit(0)))),
        "the loop did not end cleanly ({ended:?}), waiting for {:?}:\n{}",
        edge.waiting_for,
        edge.screen()
    );
}
