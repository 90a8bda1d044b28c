//! The server picker's loop on the terminal: draws the picker, hands it each key, and turns
//! the server picked into connection options (the command line's other flags applied), or
//! the tap picked into its session to watch.

use super::event_loop::{Edge, Input};
use crate::app::picker::{Picked, Picker};
use crate::cli::ConnectionArgs;
use crate::mcp::ConnectOptions;

/// What the user picked.
pub enum Chosen {
    Connect(Box<ConnectOptions>),
    Attach(std::path::PathBuf),
}

/// Lets the user pick a server or a running tap; `None` when they quit instead.
pub async fn pick<E: Edge>(
    edge: &mut E,
    picker: &mut Picker,
    connection: &ConnectionArgs,
) -> std::io::Result<Option<Chosen>> {
    picker.set_taps(live_taps());
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
            Picked::Attach(path) => return Ok(Some(Chosen::Attach(path))),
        };
        let Ok(target) = picker.found.servers[index].target.clone() else {
            continue;
        };
        match connection.options_for(target) {
            Ok(options) => return Ok(Some(Chosen::Connect(Box::new(options)))),
            Err(why) => picker.status = Some(crate::untrusted::line(&why, 300).into_owned()),
        }
    }
}

/// The taps running now, newest first.
fn live_taps() -> Vec<crate::app::picker::LiveTap> {
    use crate::tap::sessions;
    let Some(dir) = sessions::dir() else {
        return Vec::new();
    };
    (sessions::kept(&dir).into_iter().rev())
        .filter(|(_, path)| sessions::is_live(path))
        .map(|(_, path)| crate::app::picker::LiveTap {
            name: (path.file_name()).map_or(String::new(), |n| n.to_string_lossy().into_owned()),
            path,
        })
        .collect()
}
