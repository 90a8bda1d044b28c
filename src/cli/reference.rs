//! `docs/flags.md`: every command and flag as clap defines them, so the reference cannot drift
//! from `--help` (a test compares the file with this). Pure.

use super::{Cli, ConnectionArgs};
use clap::{Arg, Args, CommandFactory};
use std::fmt::Write;

/// The flags reference in Markdown: the connection flags once, then each command's own.
pub fn flags_markdown() -> String {
    let root = Cli::command();
    let connection = ConnectionArgs::augment_args(clap::Command::new("connection"));
    let shared: Vec<&str> = connection
        .get_arguments()
        .map(|a| a.get_id().as_str())
        .collect();
    let mut out = String::from(
        "# Every flag\n\nGenerated from the command-line definitions (`UPDATE_DOCS=1 cargo test --test logic docs`\nwrites it; a test fails when it differs). `mcp-inspect COMMAND --help` says the same.\n\n",
    );
    out.push_str("## Connection flags\n\nTaken by the TUI (`mcp-inspect` with no command) and by every command that connects to a\nserver. The server's command goes after `--`.\n\n");
    table(
        &mut out,
        connection.get_arguments().filter(|a| !a.is_hide_set()),
    );
    for sub in root.get_subcommands().filter(|s| !s.is_hide_set()) {
        let _ = write!(out, "\n## `mcp-inspect {}`\n\n", sub.get_name());
        if let Some(about) = sub.get_long_about().or_else(|| sub.get_about()) {
            let _ = writeln!(out, "{}\n", one_line(&about.to_string()));
        }
        let own: Vec<&Arg> = sub
            .get_arguments()
            .filter(|a| !a.is_hide_set() && !shared.contains(&a.get_id().as_str()))
            .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
            .collect();
        let connects = sub
            .get_arguments()
            .any(|a| shared.contains(&a.get_id().as_str()));
        if own.is_empty() {
            out.push_str("No flags of its own.\n");
        } else {
            table(&mut out, own.into_iter());
        }
        if connects {
            out.push_str("\nAnd the [connection flags](#connection-flags).\n");
        }
    }
    out
}

/// One row per argument: how it is written, what it takes, what it does, its default.
fn table<'a>(out: &mut String, args: impl Iterator<Item = &'a Arg>) {
    out.push_str("| flag | what | default |\n| --- | --- | --- |\n");
    for arg in args.filter(|a| !matches!(a.get_id().as_str(), "help" | "version")) {
        let names = arg.get_value_names().unwrap_or_default();
        let value = match arg.get_action().takes_values() {
            true => names.iter().map(|n| format!(" {n}")).collect::<String>(),
            false => String::new(),
        };
        let written = match (arg.get_long(), arg.get_short()) {
            (Some(long), Some(short)) => format!("`-{short}`, `--{long}{value}`"),
            (Some(long), None) => format!("`--{long}{value}`"),
            (None, Some(short)) => format!("`-{short}{value}`"),
            (None, None) => match names.first() {
                Some(name) => format!("`{name}`"),
                None => format!("`{}`", arg.get_id().as_str().to_uppercase()),
            },
        };
        let help = arg
            .get_long_help()
            .or_else(|| arg.get_help())
            .map(|h| one_line(&h.to_string()))
            .unwrap_or_default();
        let choices: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| format!("`{}`", v.get_name()))
            .collect();
        let help = match choices.is_empty() || !arg.get_action().takes_values() {
            true => help,
            false => format!("{help} ({})", choices.join(", ")),
        };
        let default: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| format!("`{}`", v.to_string_lossy()))
            .collect();
        let cell = |text: &str| text.replace('|', "\\|");
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            cell(&written),
            cell(&help),
            default.join(", ")
        );
    }
}

/// Help text on one line (a table cell).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
