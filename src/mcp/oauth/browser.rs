//! Opening the authorization URL in the user's browser: `$BROWSER` when set (as other terminal
//! tools read it: a `:`-separated list of commands, `%s` standing for the URL), else the
//! platform's opener. The URL comes from the server's metadata, so only `http`/`https` URLs are
//! ever handed over, as one argument, never through a shell.

use std::process::{Command, Stdio};

/// Starts the browser on `url` without waiting for it; says why when it cannot.
pub fn open(url: &str) -> Result<String, String> {
    if url.chars().any(crate::untrusted::is_dangerous) {
        return Err("not opened: the URL holds control characters".into());
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("not a URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!(
            "not opened: its scheme is `{}`, not http or https",
            crate::untrusted::line(parsed.scheme(), 40)
        ));
    }
    let browser = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty());
    let commands: Vec<Vec<String>> = match &browser {
        Some(list) => list.split(':').map(|c| argv(c, url)).collect(),
        None if cfg!(target_os = "macos") => vec![vec!["open".into(), url.into()]],
        None => vec![vec!["xdg-open".into(), url.into()]],
    };
    let mut failures = Vec::new();
    for argv in commands.into_iter().filter(|a| !a.is_empty()) {
        match Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(mut child) => match exited_early(&mut child) {
                // An opener that fails does so at once (xdg-open with no browser exits 3 on a
                // server reached over SSH): the next entry is tried, and the user told.
                Some(status) if !status.success() => {
                    failures.push(format!("{}: exited with {status}", argv[0]))
                }
                _ => {
                    // Reaped in the background: a browser may stay open for hours.
                    std::thread::spawn(move || child.wait());
                    return Ok(argv[0].clone());
                }
            },
            Err(e) => failures.push(format!("{}: {e}", argv[0])),
        }
    }
    Err(format!("no browser started ({})", failures.join("; ")))
}

/// How long an opener is watched for a failure before it counts as started.
const OPENER_GRACE: std::time::Duration = std::time::Duration::from_millis(1_500);

/// The opener's exit status when it ends within [`OPENER_GRACE`] (openers hand the URL to a
/// browser and exit); `None` while it still runs (a browser started in the foreground).
fn exited_early(child: &mut std::process::Child) -> Option<std::process::ExitStatus> {
    let until = std::time::Instant::now() + OPENER_GRACE;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if std::time::Instant::now() < until => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            _ => return None,
        }
    }
}

/// One `$BROWSER` entry as arguments: `%s` replaced by the URL, or the URL appended.
fn argv(command: &str, url: &str) -> Vec<String> {
    let mut words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    if words.iter().any(|w| w.contains("%s")) {
        for word in &mut words {
            *word = word.replace("%s", url);
        }
    } else if !words.is_empty() {
        words.push(url.to_string());
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_entries_take_the_url_as_one_argument() {
        let url = "https://as.example/authorize?a=1&b=$(rm -rf ~)";
        assert_eq!(
            argv("firefox --new-window", url),
            ["firefox", "--new-window", url]
        );
        assert_eq!(argv("lynx '%s'", url), ["lynx", &format!("'{url}'")]);
        assert!(argv("  ", url).is_empty());
    }

    #[test]
    fn only_web_urls_are_opened() {
        let refused = open("file:///etc/passwd").expect_err("refused");
        assert!(refused.contains("`file`"), "{refused}");
        assert!(open("javascript:alert(1)").is_err());
        assert!(open("not a url").is_err());
        assert!(open("https://as.example/\u{1b}]52;c;aGk=\u{7}").is_err());
    }
}
