//! The server picker's loop on the terminal: draws the picker, hands it each key, and turns
//! the server picked into connection options (the command line's other flags applied).

use super::event_loop::{Edge, Input};
use crate::app::picker::{Picked, Picker};
use crate::cli::ConnectionArgs;
use crate::mcp::ConnectOptions;

/// Lets the user pick a server; `None` when they quit instead.
pub async fn pick<E: Edge>(
    edge: &mut E,
    picker: &mut Picker,
    connection: &ConnectionArgs,
) -> std::io::Result<Option<ConnectOptions>> {
    loop {
        let mut scroll = picker.scroll;
        edge.terminal()
            .draw(|frame| scroll = crate::ui::draw_picker(frame, picker))
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        picker.scroll = scroll;
        let key = match edge.next_input().await? {
            Input::Key(key) => key,
            Input::Quit => return Ok(None),
            Input::Mouse(_) | Input::Paste(_) | Input::Resize => continue,
        };
        let index = match picker.key(key) {
            Picked::Stay => continue,
            Picked::Quit => return Ok(None),
            Picked::Connect(index) => index,
        };
        let Ok(target) = picker.found.servers[index].target.clone() else {
            continue;
        };
        match connection.options_for(target) {
            Ok(options) => return Ok(Some(options)),
            Err(why) => picker.status = Some(crate::untrusted::line(&why, 300).into_owned()),
        }
    }
}
