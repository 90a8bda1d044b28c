//! What a shell gets from the binary: completion scripts that load and complete, and a manual
//! page that `man` renders, both from the clap definitions.

use crate::cli::run;

/// What bash completes for `words` (the last one being typed), as the shell calls the
/// completion function: the command, the word under the cursor, the word before it.
fn bash_completes(script: &std::path::Path, words: &[&str]) -> String {
    let (current, before) = (words[words.len() - 1], words[words.len() - 2]);
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {}; COMP_WORDS=({}); COMP_CWORD={}; _mcp__inspect mcp-inspect {current} {before}; echo \"${{COMPREPLY[@]}}\"",
            script.display(),
            words.join(" "),
            words.len() - 1
        ))
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn the_bash_completion_loads_and_completes_a_subcommand_and_its_flags() {
    let script = run(&["completions", "bash"]);
    assert_eq!(script.code, 0, "{}", script.stderr);
    let path = std::env::temp_dir().join(format!(
        "mcp-inspect-completion-{}.bash",
        std::process::id()
    ));
    std::fs::write(&path, &script.stdout).expect("write");
    let subcommand = bash_completes(&path, &["mcp-inspect", "ve"]);
    // A subcommand's own flags (clap_complete's labels once never matched them), and a
    // nested subcommand.
    let flag = bash_completes(&path, &["mcp-inspect", "verify", "--allow-w"]);
    let nested = bash_completes(&path, &["mcp-inspect", "auth", "lo"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(subcommand, "verify");
    assert_eq!(flag, "--allow-writes");
    assert_eq!(nested, "logout");
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let r = run(&["completions", shell]);
        assert!(
            r.code == 0 && r.stdout.contains("verify"),
            "{shell}: {}",
            r.stderr
        );
    }
}

#[test]
fn the_manual_page_renders_with_every_command() {
    let page = run(&["man"]);
    assert_eq!(page.code, 0, "{}", page.stderr);
    assert!(
        page.stdout.starts_with(".ie \\n(.g .ds Aq \\(aq")
            || page.stdout.contains(".TH mcp-inspect"),
        "{}",
        &page.stdout[..200.min(page.stdout.len())]
    );
    // One page: subcommands are its sections, never pages of their own (`mcp-inspect-tools(1)`).
    assert!(
        !page.stdout.contains("(1)"),
        "a page that does not exist is named"
    );
    assert!(page.stdout.contains("\\fBmcp\\-inspect tools\\fR (below)"));
    let path = std::env::temp_dir().join(format!("mcp-inspect-{}.1", std::process::id()));
    std::fs::write(&path, &page.stdout).expect("write");
    let Ok(out) = std::process::Command::new("man")
        .arg("-l")
        .arg(&path)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
    else {
        let _ = std::fs::remove_file(&path);
        eprintln!("skipped: no man here");
        return;
    };
    let _ = std::fs::remove_file(&path);
    // `man` justifies lines: runs of spaces are one.
    let text = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The synopsis says how to start it; the forty flags are under OPTIONS, not a wall here.
    let synopsis = (text.split("SYNOPSIS").nth(1))
        .and_then(|s| s.split("DESCRIPTION").next())
        .unwrap_or_default();
    assert!(
        synopsis.contains("mcp-inspect [OPTIONS] -- SERVER-COMMAND [ARGS]...")
            && synopsis.contains("--url URL")
            && !synopsis.contains("--bearer-env"),
        "{synopsis}"
    );
    assert!(
        text.contains("mcp-inspect verify [OPTIONS] [TOOLS...] [-- COMMAND...]"),
        "a command's synopsis is short"
    );
    for command in [
        "mcp-inspect verify",
        "mcp-inspect test",
        "mcp-inspect load",
        "--watch",
    ] {
        assert!(text.contains(command), "{command} not in the page");
    }
}

/// `completions bash | head -1` and `man | head -1`: a reader that stops early closes the pipe,
/// and the command ends quietly (it once panicked on the failed write).
#[test]
fn a_closed_pipe_ends_completions_and_man_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    // Both print over 64 KiB, more than a pipe holds unread.
    for args in [&["completions", "bash"][..], &["man"][..]] {
        let mut child = Command::new(crate::cli::BIN)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run");
        let stdout = child.stdout.take().expect("stdout");
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("a line");
        // The reader is gone: the rest is written into a closed pipe.
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!first.is_empty(), "{args:?}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
