//! Putting text on the clipboard: the system clipboard (arboard) where a local display server is
//! reachable, OSC 52 through the terminal otherwise (over SSH, in tmux, on a console).

use std::io::Write;

/// Copies `text` and says how it was delivered.
/// The text is passed through [`crate::untrusted::sink`] first: copies are built escaped, and
/// this last guard makes sure no control character or secret reaches a clipboard whatever
/// built them.
pub fn copy(text: &str) -> Result<String, String> {
    let text = &*crate::untrusted::sink(text);
    let remote =
        std::env::var_os("SSH_CONNECTION").is_some() || std::env::var_os("SSH_TTY").is_some();
    let display =
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    if display && !remote {
        let system = arboard::Clipboard::new().and_then(|mut c| c.set_text(text.to_string()));
        if system.is_ok() {
            return Ok(format!("{}, system clipboard", size(text)));
        }
    }
    osc52(text)?;
    Ok(format!("{}, via OSC 52", size(text)))
}

fn osc52(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout();
    crossterm::execute!(
        out,
        crossterm::clipboard::CopyToClipboard::to_clipboard_from(text.as_bytes())
    )
    .map_err(|e| format!("cannot write OSC 52: {e}"))?;
    out.flush().map_err(|e| e.to_string())
}

fn size(text: &str) -> String {
    match text.len() {
        n if n < 1024 => crate::plural::count(n, "byte"),
        n => format!("{:.1} KB", n as f64 / 1024.0),
    }
}
