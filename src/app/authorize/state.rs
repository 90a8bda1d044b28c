//! An OAuth authorization under way, as the TUI shows it: its steps, the URL to open (copied
//! or opened on a key, never opened unasked twice), and a line to paste the address the browser
//! ended at when it cannot reach this machine (SSH). Pure.

/// Steps kept (the oldest go first).
const MAX_STEPS: usize = 24;
/// Characters a pasted address may have.
pub const MAX_PASTED: usize = 16 * 1024;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Authorizing {
    pub steps: Vec<String>,
    /// The URL to open, once the flow has one.
    pub url: Option<String>,
    /// What the user typed or pasted: the address the browser ended at.
    pub pasted: String,
    /// Why it failed; the panel stays until the user closes it.
    pub failed: Option<String>,
}

impl Authorizing {
    /// Whether the panel is in front: once there is something to do or to read.
    pub fn shown(&self) -> bool {
        self.url.is_some() || self.failed.is_some()
    }

    pub fn step(&mut self, text: String) {
        if self.steps.len() == MAX_STEPS {
            self.steps.remove(0);
        }
        self.steps.push(text);
    }
}
