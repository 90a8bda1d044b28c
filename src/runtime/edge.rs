//! What the event loop needs of the outside besides the connection: the terminal, input, the
//! clipboard and an editor ([`Edge`]); the real one is `crossterm_edge`, tests use a
//! `TestBackend`.

use crossterm::event::KeyEvent;
use ratatui::Terminal;
use ratatui::backend::Backend;

/// One input from the user's side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Key(KeyEvent),
    Mouse(crossterm::event::MouseEvent),
    Paste(String),
    Resize,
    /// SIGTERM, SIGHUP or the end of input: quit cleanly.
    Quit,
}

/// Everything the loop touches besides the connection.
#[allow(async_fn_in_trait)] // used generically, never as a trait object
pub trait Edge {
    type Backend: Backend;
    fn terminal(&mut self) -> &mut Terminal<Self::Backend>;
    /// The next input. Must be cancel-safe: the loop drops it when a server event comes first,
    /// and asks again after the next frame.
    async fn next_input(&mut self) -> std::io::Result<Input>;
    /// Puts text on a clipboard; says how, or why not.
    fn copy(&mut self, text: &str) -> Result<String, String>;
    /// Lets the user edit `text` in an external editor; the new text, or why not.
    async fn edit(&mut self, text: &str) -> std::io::Result<Result<String, String>>;
    /// The UI is done: give the terminal back now, before the server is waited for.
    fn release(&mut self);
}

/// How a session of the UI ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The user quit (the exit code); the terminal is given back.
    Quit(i32),
    /// The user asked for another server (`S`): the terminal is kept for the picker.
    SwitchServer,
}
