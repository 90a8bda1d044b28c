//! Command-line parsing: the clap definitions (`args`) and the connection options built from
//! them (`connection`). The headless commands and the TUI take what this gives them.

mod args;
mod connection;
pub mod reference;

pub use args::{
    AuthAction, CheckFormat, Cli, Command, ConnectionArgs, DiffFormat, Format, ProtocolArg,
    TapPlace, TestFormat, VerifyFormat,
};

/// Prints `shell`'s completion script for every command and flag; the exit code.
pub fn completions(shell: clap_complete::Shell) -> i32 {
    use clap::CommandFactory;
    let mut command = Cli::command();
    // Made whole first: clap_complete panics on a failed write, and a reader that stops early
    // (`| head`) closes the pipe. A closed pipe ends the command quietly.
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "mcp-inspect", &mut out);
    if shell == clap_complete::Shell::Bash {
        out = bash_labels_matched(&out);
    }
    use std::io::Write;
    let _ = std::io::stdout().write_all(&out);
    0
}

/// clap_complete's bash script (4.6) names a subcommand's branch `mcp__subcmd__inspect__…`
/// but sets `cmd` to `mcp__inspect__…` for a binary with a hyphen in its name, so no
/// subcommand's flags ever complete: the labels are made to match what `cmd` is set to.
fn bash_labels_matched(script: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(script)
        .replace("mcp__subcmd__inspect", "mcp__inspect")
        .into_bytes()
}

/// Prints the manual page (roff), every subcommand's section included; the exit code.
pub fn man() -> i32 {
    use clap::CommandFactory;
    let command = Cli::command();
    let mut main = Vec::new();
    if let Err(e) = clap_mangen::Man::new(command.clone()).render(&mut main) {
        eprintln!("error: cannot render the manual page: {e}");
        return 1;
    }
    // clap_mangen names each subcommand's own page (`mcp-inspect-tools(1)`); here they are
    // sections of this one page, named as typed.
    let mut page = String::from_utf8_lossy(&main).into_owned();
    for sub in command.get_subcommands() {
        let name = sub.get_name().replace('-', "\\-");
        page = page.replace(
            &format!("mcp\\-inspect\\-{name}(1)"),
            &format!("\\fBmcp\\-inspect {name}\\fR (below)"),
        );
    }
    // clap's own `help` subcommand has no section.
    page = page.replace("mcp\\-inspect\\-help(1)", "\\fBmcp\\-inspect help\\fR");
    let page = with_synopsis(&page, MAIN_SYNOPSIS);
    let mut out = page.into_bytes();
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("mcp-inspect {}", sub.get_name());
        out.extend(short_synopsis(sub, &name).into_bytes());
        let page = clap_mangen::Man::new(sub.clone().bin_name(name));
        let rendered = (page.render_description_section(&mut out))
            .and_then(|()| page.render_options_section(&mut out));
        if let Err(e) = rendered {
            eprintln!("error: cannot render the manual page: {e}");
            return 1;
        }
    }
    use std::io::Write;
    let _ = std::io::stdout().write_all(&out);
    0
}

/// The ways to start the TUI, in roff: the flags are listed under OPTIONS, not in a wall here.
const MAIN_SYNOPSIS: &str = "\\fBmcp\\-inspect\\fR [\\fIOPTIONS\\fR] \\fB\\-\\-\\fR \\fISERVER\\-COMMAND\\fR [\\fIARGS\\fR]...
.br
\\fBmcp\\-inspect\\fR [\\fIOPTIONS\\fR] \\fB\\-\\-url\\fR \\fIURL\\fR
.br
\\fBmcp\\-inspect\\fR [\\fIOPTIONS\\fR] \\fB\\-\\-server\\fR \\fINAME\\fR | \\fB\\-\\-demo\\fR
.br
\\fBmcp\\-inspect\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fB\\-\\-\\fR \\fISERVER\\-COMMAND\\fR...]
";

/// `page` with its SYNOPSIS section's body replaced by `synopsis`.
fn with_synopsis(page: &str, synopsis: &str) -> String {
    let head = ".SH SYNOPSIS\n";
    let Some(start) = page.find(head).map(|i| i + head.len()) else {
        return page.to_string();
    };
    let end = page[start..]
        .find("\n.SH ")
        .and_then(|i| page[start..start + i].rfind("\n.ie ").or(Some(i)))
        .map_or(page.len(), |i| start + i + 1);
    format!("{}{synopsis}{}", &page[..start], &page[end..])
}

/// A subcommand's synopsis, in roff: its name, `[OPTIONS]` and its own arguments (its flags
/// are listed under its OPTIONS).
fn short_synopsis(sub: &clap::Command, name: &str) -> String {
    let escape = |s: &str| s.replace('-', "\\-");
    let mut line = format!(".SH SYNOPSIS\n\\fB{}\\fR [\\fIOPTIONS\\fR]", escape(name));
    for arg in sub.get_positionals() {
        let value = arg
            .get_value_names()
            .and_then(|names| names.first())
            .map_or_else(
                || arg.get_id().to_string().to_uppercase(),
                |n| n.to_string(),
            );
        let many = matches!(arg.get_num_args(), Some(range) if range.max_values() > 1);
        let value = format!(
            "\\fI{}\\fR{}",
            escape(&value),
            if many { "..." } else { "" }
        );
        let value = if arg.is_last_set() {
            format!("\\fB\\-\\-\\fR {value}")
        } else {
            value
        };
        line.push_str(&match arg.is_required_set() {
            true => format!(" {value}"),
            false => format!(" [{value}]"),
        });
    }
    line.push('\n');
    line
}

/// A stdio server's command given without `--` before it (`mcp-inspect node index.js`): clap
/// calls its first word an unexpected argument; this says where it goes. Only the words from
/// the server's command on are repeated (the flags before may hold secrets).
pub fn missing_double_dash(error: &clap::Error, args: &[std::ffi::OsString]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(word)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    if word.starts_with('-') {
        return None;
    }
    let at = args
        .iter()
        .position(|a| a.to_str() == Some(word.as_str()))?;
    let command: Vec<String> = args[at..]
        .iter()
        .map(|a| crate::untrusted::line(&a.to_string_lossy(), 200).into_owned())
        .collect();
    // The subcommand, when one was given before the server's words.
    let subcommand = args
        .get(1)
        .and_then(|a| a.to_str())
        .filter(|a| {
            at > 1
                && <Cli as clap::CommandFactory>::command()
                    .find_subcommand(a)
                    .is_some()
        })
        .map(|a| format!(" {a}"))
        .unwrap_or_default();
    Some(format!(
        "tip: a stdio server's command goes after `--`: mcp-inspect{subcommand} [FLAGS] -- {}",
        command.join(" ")
    ))
}
