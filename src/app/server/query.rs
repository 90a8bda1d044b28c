//! What the server pane shows of the server's state, in words.

use std::time::Duration;

/// A round trip in words: milliseconds with one decimal below 10 ms.
pub fn round_trip(took: Duration) -> String {
    let ms = took.as_secs_f64() * 1e3;
    if ms < 10.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.0} ms")
    }
}
