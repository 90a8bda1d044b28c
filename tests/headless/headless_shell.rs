//! What a shell gets from the binary: completion scripts that load and complete, and a manual
//! page that `man` renders, both from the clap definitions.

use crate::cli::run;

#[test]
fn the_bash_completion_loads_and_completes_a_subcommand() {
    let script = run(&["completions", "bash"]);
    assert_eq!(script.code, 0, "{}", script.stderr);
    let path = std::env::temp_dir().join(format!(
        "mcp-inspect-completion-{}.bash",
        std::process::id()
    ));
    std::fs::write(&path, &script.stdout).expect("write");
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {}; COMP_WORDS=(mcp-inspect ve); COMP_CWORD=1; _mcp__inspect mcp-inspect ve mcp-inspect; echo \"${{COMPREPLY[@]}}\"",
            path.display()
        ))
        .output()
        .expect("bash");
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "verify",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    for command in [
        "mcp-inspect verify",
        "mcp-inspect test",
        "mcp-inspect load",
        "--watch",
    ] {
        assert!(text.contains(command), "{command} not in the page");
    }
}
