//! The OAuth panel's updates: the flow's steps as they come, the address typed or pasted, and
//! the panel's commands (send, cancel, copy or open the URL). Pure.

use crate::app::authorize::state::MAX_PASTED;
use crate::app::command::Command;
use crate::app::copy::Clipping;
use crate::app::effect::Effect;
use crate::app::model::Model;
use crate::mcp::AuthStep;

/// A step of the flow, from the connection.
pub fn on_step(model: &mut Model, step: AuthStep) {
    use crate::app::model::LogKind;
    let label = |t: &str| crate::untrusted::label(t).into_owned();
    match step {
        AuthStep::Said(text) => {
            let text = label(&text);
            model.push_log(LogKind::Event, format!("oauth: {text}"));
            model.authorizing.get_or_insert_default().step(text);
        }
        AuthStep::Open(url) => model.authorizing.get_or_insert_default().url = Some(url),
        AuthStep::Authorized(text) => {
            let text = label(&text);
            model.push_log(LogKind::Event, format!("oauth: {text}"));
            model.view.status = Some(text);
            model.authorizing = None;
        }
        AuthStep::Failed(why) => {
            let why = label(&why);
            model.push_log(LogKind::Problem, format!("oauth failed: {why}"));
            // Shown in the panel while it is open; a panel the user closed (Esc) stays closed.
            match model.authorizing.as_mut() {
                Some(panel) => panel.failed = Some(why),
                None => model.view.status = Some(format!("oauth failed: {why}")),
            }
        }
    }
}

/// Text typed or pasted into the panel's address line.
pub fn type_text(model: &mut Model, text: &str) {
    if let Some(panel) = model.authorizing.as_mut() {
        let room = MAX_PASTED.saturating_sub(panel.pasted.chars().count());
        let clean = text.chars().filter(|c| !c.is_control()).take(room);
        panel.pasted.extend(clean);
    }
}

pub fn backspace(model: &mut Model) {
    if let Some(panel) = model.authorizing.as_mut() {
        panel.pasted.pop();
    }
}

/// A command of the panel's layer.
pub fn run(model: &mut Model, command: Command) -> Vec<Effect> {
    let Some(panel) = model.authorizing.as_mut() else {
        return Vec::new();
    };
    match command {
        // After a failure both close the panel; before, Esc cancels the flow (an empty paste)
        // and closes it too, so the keys are the main screen's again at once.
        Command::AuthSend | Command::AuthCancel if panel.failed.is_some() => {
            model.authorizing = None;
            Vec::new()
        }
        Command::AuthCancel => {
            model.authorizing = None;
            vec![Effect::PasteRedirect(String::new())]
        }
        Command::AuthSend if panel.pasted.trim().is_empty() => {
            model.view.status = Some("paste the address the browser ended at first".into());
            Vec::new()
        }
        Command::AuthSend => {
            let pasted = std::mem::take(&mut panel.pasted);
            panel.step("the pasted address was sent".into());
            vec![Effect::PasteRedirect(pasted.trim().to_string())]
        }
        // A URL with control characters (the server's metadata wrote them) is shown escaped
        // and neither copied nor opened: pasted into a terminal it would act.
        Command::AuthCopyUrl | Command::AuthOpen
            if panel
                .url
                .as_ref()
                .is_some_and(|u| u.chars().any(crate::untrusted::is_dangerous)) =>
        {
            model.view.status =
                Some("the URL holds control characters: not copied or opened".into());
            Vec::new()
        }
        Command::AuthCopyUrl => match &panel.url {
            Some(url) => vec![Effect::Copy(Clipping {
                label: "authorization URL".into(),
                text: url.clone(),
            })],
            None => Vec::new(),
        },
        Command::AuthOpen => match &panel.url {
            Some(url) => vec![Effect::OpenInBrowser(url.clone())],
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The browser was started on the authorization URL, or could not be.
pub fn browser_opened(model: &mut Model, outcome: Result<String, String>) {
    model.view.status = Some(match outcome {
        Ok(with) => format!("opened the URL with {with}"),
        Err(why) => why,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        Model::new(
            "http://host/mcp".into(),
            crate::app::keymap::Keymap::default_map(),
            crate::app::theme::Theme { color: false },
        )
    }

    #[test]
    fn the_panel_shows_from_the_url_on_and_closes_when_authorized() {
        let mut m = model();
        on_step(&mut m, AuthStep::Said("discovering".into()));
        assert!(!m.authorizing.as_ref().expect("kept").shown());
        on_step(&mut m, AuthStep::Open("https://as/authorize?x=1".into()));
        assert!(m.authorizing.as_ref().expect("kept").shown());
        type_text(&mut m, "http://127.0.0.1:1/callback?code=a\u{1b}[2J");
        assert_eq!(
            m.authorizing.as_ref().expect("open").pasted,
            "http://127.0.0.1:1/callback?code=a[2J"
        );
        let sent = run(&mut m, Command::AuthSend);
        assert_eq!(
            sent,
            [Effect::PasteRedirect(
                "http://127.0.0.1:1/callback?code=a[2J".into()
            )]
        );
        assert_eq!(
            run(&mut m, Command::AuthOpen),
            [Effect::OpenInBrowser("https://as/authorize?x=1".into())]
        );
        on_step(
            &mut m,
            AuthStep::Authorized("authorized as client c".into()),
        );
        assert!(m.authorizing.is_none());
        assert_eq!(m.view.status.as_deref(), Some("authorized as client c"));
    }

    #[test]
    fn esc_cancels_and_a_failure_stays_until_closed() {
        let mut m = model();
        on_step(&mut m, AuthStep::Open("https://as/authorize".into()));
        assert_eq!(
            run(&mut m, Command::AuthCancel),
            [Effect::PasteRedirect(String::new())]
        );
        // Closed at once (q and every other key are the main screen's again), and the flow's
        // end does not open it again: it is said in the status line and the log.
        assert!(m.authorizing.is_none());
        on_step(&mut m, AuthStep::Failed("cancelled by the user".into()));
        assert!(m.authorizing.is_none());
        assert_eq!(
            m.view.status.as_deref(),
            Some("oauth failed: cancelled by the user")
        );
        // A failure while the panel is open stays until closed.
        on_step(&mut m, AuthStep::Open("https://as/authorize".into()));
        on_step(&mut m, AuthStep::Failed("the server said no".into()));
        assert!(m.authorizing.as_ref().expect("stays").shown());
        assert!(run(&mut m, Command::AuthCancel).is_empty());
        assert!(m.authorizing.is_none());
    }
}
