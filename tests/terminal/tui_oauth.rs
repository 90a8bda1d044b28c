//! OAuth in a real terminal, against the official conformance suite's authorization server
//! (scenario `auth/metadata-default`, held open while this test is its client through the TUI):
//! the browser is on "another machine" (it cannot reach our loopback), so the address it ended
//! at is pasted into the panel; the token is kept, used by the next start without asking, and
//! forgotten with `auth logout`.

use crate::peers;
use crate::tui_tmux::{Tmux, release_binary};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Waits (bounded) for a file another process writes; returns its trimmed text.
fn wait_for_file(path: &std::path::Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.ends_with('\n')
        {
            return text.trim().to_string();
        }
        assert!(
            Instant::now() < deadline,
            "{} never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn oauth_pasted_over_ssh_then_kept_then_forgotten() {
    let Some(bin) = release_binary() else { return };
    let (Some(runner), Some(python)) = (peers::conformance(), peers::python()) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("mcp-inspect-oauth-tmux-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let (url_file, done, seen) = (dir.join("url"), dir.join("done"), dir.join("browser"));
    // The suite's "client": says where its server is, then holds it open until we are done.
    let holder = dir.join("holder.sh");
    std::fs::write(
        &holder,
        format!(
            "echo \"$1\" > {0}\ni=0\nwhile [ ! -f {1} ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done\n",
            url_file.display(),
            done.display()
        ),
    )
    .expect("holder");
    // A browser on another machine: it is told the URL, and cannot reach this one.
    let browser = dir.join("browser.sh");
    std::fs::write(&browser, format!("echo \"$1\" > {}\n", seen.display())).expect("browser");
    let node_bin = std::path::Path::new(&runner)
        .parent()
        .expect("bin")
        .to_path_buf();
    let suite = Command::new(&runner)
        .args(["client", "--command", &format!("sh {}", holder.display())])
        .args(["--scenario", "auth/metadata-default", "--timeout", "150000"])
        .env(
            "PATH",
            format!(
                "{}:{}",
                node_bin.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the conformance suite");
    let url = wait_for_file(&url_file);

    let tmux = Tmux::start("oauth", 110, 34);
    tmux.wait_for("$");
    tmux.type_line(&format!(
        "BROWSER='sh {}' {bin} --url {url}",
        browser.display()
    ));
    tmux.wait_for("Open this URL to authorize");
    // On the other machine the browser signs in and ends at our loopback address, which it
    // cannot reach: that address is what the user pastes.
    let authorize = wait_for_file(&seen);
    let follow_once = "import sys, urllib.request, urllib.error\n\
        class Stop(urllib.request.HTTPRedirectHandler):\n    def redirect_request(self, *a): return None\n\
        try: urllib.request.build_opener(Stop).open(sys.argv[1])\n\
        except urllib.error.HTTPError as e: print(e.headers['Location'])";
    let out = Command::new(&python)
        .args(["-c", follow_once, &authorize])
        .output()
        .expect("python");
    let ended_at = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(ended_at.contains("code="), "{ended_at:?}");
    tmux.run(&["send-keys", "-t", "main", "-l", &ended_at]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("1 tool listed");
    assert!(screen.contains("test-tool"), "{screen}");
    assert!(screen.contains("authorized as client"), "{screen}");
    tmux.keys(&["q"]);
    tmux.type_line("echo first-$((1+1))");
    tmux.wait_for("first-2");

    // The next start uses the kept token: no panel, no browser.
    std::fs::remove_file(&seen).expect("seen");
    tmux.type_line(&format!(
        "BROWSER='sh {}' {bin} --url {url}",
        browser.display()
    ));
    tmux.wait_for("using the stored token");
    let screen = tmux.wait_for("1 tool listed");
    assert!(!screen.contains("Open this URL"), "{screen}");
    assert!(!seen.exists(), "the browser was started again");
    tmux.keys(&["q"]);

    tmux.type_line(&format!("{bin} auth list"));
    tmux.wait_for(&format!("{url}  client test-client-id"));
    tmux.type_line(&format!("{bin} auth logout {url}"));
    tmux.wait_for(&format!("forgot the token for {url}"));
    tmux.type_line(&format!("{bin} auth list"));
    tmux.wait_for("no tokens kept");

    std::fs::write(&done, "").expect("done");
    let report = suite.wait_with_output().expect("the suite's report");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&report.stdout),
        String::from_utf8_lossy(&report.stderr)
    );
    assert!(report.contains("OVERALL: PASSED"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}
