//! Every command a key can run, declared once: the keymap's `run` names are parsed into it when
//! the keymap loads (an unknown name is an error there, not a key that silently does nothing),
//! and `update` matches on it exhaustively. Pure.

macro_rules! commands {
    ($($variant:ident = $name:literal,)*) => {
        /// A command, as named in the keymap's `run`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Command {
            $($variant,)*
        }

        impl Command {
            /// Every command, in declaration order.
            pub const ALL: &[Command] = &[$(Command::$variant,)*];

            /// The name the keymap uses.
            pub fn name(self) -> &'static str {
                match self {
                    $(Command::$variant => $name,)*
                }
            }
        }
    };
}

commands! {
    Quit = "quit",
    Help = "help",
    Close = "close",
    CopyMenu = "copy-menu",
    FocusNext = "focus-next",
    FocusPrev = "focus-prev",
    FocusTools = "focus-tools",
    FocusTool = "focus-tool",
    FocusServer = "focus-server",
    FocusLog = "focus-log",
    FocusProtocol = "focus-protocol",
    FocusLibrary = "focus-library",
    NextTab = "next-tab",
    PrevTab = "prev-tab",
    ToggleTask = "toggle-task",
    Complete = "complete",
    Subscribe = "subscribe",
    Save = "save",
    Reconnect = "reconnect",
    KeepTest = "keep-test",
    Verify = "verify",
    Load = "load",
    StopTrial = "stop-trial",
    EditRoots = "edit-roots",
    SwitchServer = "switch-server",
    Zoom = "zoom",
    NarrowLeft = "narrow-left",
    WidenLeft = "widen-left",
    Ping = "ping",
    Conform = "conform",
    ComposeRequest = "compose-request",
    LogLevel = "log-level",
    SetLogLevel = "set-log-level",
    Open = "open",
    Back = "back",
    Call = "call",
    Down = "down",
    Up = "up",
    PageDown = "page-down",
    PageUp = "page-up",
    First = "first",
    Last = "last",
    Filter = "filter",
    FilterAccept = "filter-accept",
    FilterCancel = "filter-cancel",
    FilterClear = "filter-clear",
    FilterDelete = "filter-delete",
    Toggle = "toggle",
    Expand = "expand",
    Collapse = "collapse",
    ExpandAll = "expand-all",
    CollapseAll = "collapse-all",
    FollowLink = "follow-link",
    ToggleRawOutput = "toggle-raw-output",
    ToggleDescription = "toggle-description",
    Edit = "edit",
    LeaveEditor = "leave-editor",
    Undo = "undo",
    Redo = "redo",
    ResetArguments = "reset-arguments",
    FormatArguments = "format-arguments",
    ToggleForm = "toggle-form",
    ClearArguments = "clear-arguments",
    ExternalEditor = "external-editor",
    Send = "send",
    Rerun = "rerun",
    CancelCall = "cancel-call",
    OlderResult = "older-result",
    NewerResult = "newer-result",
    ToggleRawValue = "toggle-raw-value",
    NextViolation = "next-violation",
    PrevViolation = "prev-violation",
    CopyInput = "copy-input",
    CopyOutput = "copy-output",
    CopyOutputUnboxed = "copy-output-unboxed",
    CopySubtree = "copy-subtree",
    CopyPointer = "copy-pointer",
    CopyJq = "copy-jq",
    CopyTool = "copy-tool",
    CopyResult = "copy-result",
    CopyValue = "copy-value",
    CopyRequest = "copy-request",
    CopyCommandLine = "copy-command",
    CopyMessage = "copy-message",
    CopyConduct = "copy-conduct",
    AnswerSend = "answer-send",
    AnswerDecline = "answer-decline",
    AnswerCancel = "answer-cancel",
    AuthSend = "auth-send",
    AuthCancel = "auth-cancel",
    AuthCopyUrl = "auth-copy-url",
    AuthOpen = "auth-open",
    LinkCopy = "link-copy",
    LinkOpen = "link-open",
    ReadLink = "read-link",
    TrialSettings = "trial-settings",
}

impl Command {
    /// The command a keymap name stands for.
    pub fn parse(name: &str) -> Option<Command> {
        Command::ALL.iter().copied().find(|c| c.name() == name)
    }

    /// Commands every layer shares: while the call panel has focus, all others are the panel's.
    pub fn is_shared(self) -> bool {
        use Command::*;
        matches!(
            self,
            Quit | Help
                | Close
                | CopyMenu
                | FocusNext
                | FocusPrev
                | FocusTools
                | FocusTool
                | FocusServer
                | FocusLog
                | FocusProtocol
                | FocusLibrary
                | NextTab
                | PrevTab
                | Reconnect
                | SwitchServer
                | Zoom
                | NarrowLeft
                | WidenLeft
                | Ping
                | Conform
                | LogLevel
        )
    }

    /// Whether it copies something (the copy menu's commands).
    pub fn is_copy(self) -> bool {
        use Command::*;
        matches!(
            self,
            CopyInput
                | CopyOutput
                | CopyOutputUnboxed
                | CopySubtree
                | CopyPointer
                | CopyJq
                | CopyTool
                | CopyResult
                | CopyValue
                | CopyRequest
                | CopyCommandLine
                | CopyMessage
                | CopyConduct
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        for c in Command::ALL {
            assert_eq!(Command::parse(c.name()), Some(*c));
        }
        let mut names: Vec<_> = Command::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Command::ALL.len());
        assert_eq!(Command::parse("qiut"), None);
    }
}
