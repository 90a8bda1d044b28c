//! A headless command read off the command line once: what runs without a server, or the
//! connection, the output format and the work to do once connected. The one place that
//! matches on [`Command`]; what it hands on has no arm that cannot happen.

use super::output::Report;
use super::teller::Told;
use super::{
    call, check, conform, drift, inspect, load, prompts, request, resources, skills, test, tools,
    verify,
};
use crate::cli::{CheckFormat, Command, ConnectionArgs, DiffFormat, Format, TestFormat};
use crate::headless::exit;
use crate::mcp::Session;
use std::path::Path;

pub enum Plan<'a> {
    /// `diff OLD NEW`: two snapshot files, nothing to connect to.
    Files {
        old: &'a Path,
        new: &'a Path,
        format: DiffFormat,
    },
    /// `diff --eras`: the server once per protocol era.
    Eras {
        connection: &'a ConnectionArgs,
        format: DiffFormat,
    },
    /// Everything else: one connection, then the job.
    Connected {
        connection: &'a ConnectionArgs,
        format: Format,
        job: Job<'a>,
    },
    /// `snapshot --watch`: the server started again on every change.
    Watching {
        connection: &'a ConnectionArgs,
        out: Option<&'a Path>,
        paths: &'a [std::path::PathBuf],
    },
    /// `verify`: connected (and connected again after a crash) by itself.
    Verify {
        connection: &'a ConnectionArgs,
        options: verify::Options<'a>,
    },
    /// `load`: its own connections (one per caller with `--sessions`).
    Load {
        connection: &'a ConnectionArgs,
        options: load::Options<'a>,
    },
    /// Refused before connecting (a test file that does not read), said in `format`.
    Refused { message: String, format: Format },
    /// Not a headless command (the built-in servers, `replay`, `auth`: `main` runs those).
    Elsewhere,
}

/// The work of a command once connected.
pub enum Job<'a> {
    Tools,
    Inspect(&'a str),
    Call {
        tool: &'a str,
        args: Option<&'a str>,
        pairs: &'a [String],
        how: call::How,
    },
    Check(CheckFormat),
    Resources,
    Templates,
    Read {
        uri: &'a str,
        out: Option<&'a Path>,
    },
    Prompts,
    Prompt {
        name: &'a str,
        args: &'a [String],
    },
    Complete(prompts::Completing<'a>),
    Ping,
    /// `conform`: the server's protocol conduct; `words` name the connection in reproduce lines.
    Skills,
    Skill(skills::Load<'a>),
    Conform {
        words: Vec<String>,
        /// The server's command line, which the raw checks start again (`None` when it
        /// cannot be made: connecting says why).
        target: Option<crate::config::target::Target>,
        selection: crate::conform::Selection,
        format: CheckFormat,
    },
    /// `request METHOD`: any request, its result as sent.
    Request {
        method: &'a str,
        params: Option<&'a str>,
    },
    Snapshot(Option<&'a Path>),
    /// `test FILE`: the file's cases, read before connecting.
    Test(test::Suite<'a>),
    /// `diff OLD`: the snapshot against the server as it is now.
    Diff {
        old: &'a Path,
        format: DiffFormat,
    },
}

/// One connection, then `job`.
fn connected<'a>(connection: &'a ConnectionArgs, format: Format, job: Job<'a>) -> Plan<'a> {
    Plan::Connected {
        connection,
        format,
        job,
    }
}

pub fn plan(command: &Command) -> Plan<'_> {
    match command {
        Command::Diff {
            old,
            new,
            format,
            connection,
            ..
        } => diff(old.as_deref(), new.as_deref(), *format, connection),
        Command::Snapshot {
            out,
            watch,
            connection,
        } if !watch.is_empty() => Plan::Watching {
            connection,
            out: out.as_deref(),
            paths: watch,
        },
        Command::Snapshot {
            out, connection, ..
        } => connected(connection, Format::Text, Job::Snapshot(out.as_deref())),
        Command::Tools { format, connection } => connected(connection, *format, Job::Tools),
        Command::Check { format, connection } => {
            let shown = match format {
                CheckFormat::Text => Format::Text,
                _ => Format::Json,
            };
            connected(connection, shown, Job::Check(*format))
        }
        Command::Call { .. } => call_plan(command),
        Command::Inspect { tool, connection } => {
            connected(connection, Format::Json, Job::Inspect(tool))
        }
        Command::Resources { format, connection } => connected(connection, *format, Job::Resources),
        Command::Templates { format, connection } => connected(connection, *format, Job::Templates),
        Command::Prompts { format, connection } => connected(connection, *format, Job::Prompts),
        Command::Ping { format, connection } => connected(connection, *format, Job::Ping),
        Command::Conform { .. } | Command::Request { .. } => asking_plan(command),
        Command::Skills { .. } | Command::Skill { .. } => skills_plan(command),
        Command::Read {
            uri,
            out,
            format,
            connection,
        } => {
            let out = out.as_deref();
            connected(connection, *format, Job::Read { uri, out })
        }
        Command::Prompt {
            name,
            arg,
            format,
            connection,
        } => connected(connection, *format, Job::Prompt { name, args: arg }),
        Command::Complete { .. } => complete_plan(command),
        Command::Test { .. } => test_plan(command),
        Command::Verify { .. } => verify_plan(command),
        Command::Load { .. } => load_plan(command),
        Command::DemoServer { .. }
        | Command::Completions { .. }
        | Command::Man
        | Command::HostileServer { .. }
        | Command::Replay { .. }
        | Command::Tap { .. }
        | Command::Taps { .. }
        | Command::Attach { .. }
        | Command::Auth { .. } => Plan::Elsewhere,
    }
}

/// `skills` and `skill NAME`.
fn skills_plan(command: &Command) -> Plan<'_> {
    match command {
        Command::Skills { format, connection } => connected(connection, *format, Job::Skills),
        Command::Skill {
            skill,
            file,
            all,
            format,
            connection,
        } => {
            let load = skills::Load {
                skill,
                file: file.as_deref(),
                all: *all,
            };
            connected(connection, *format, Job::Skill(load))
        }
        _ => Plan::Elsewhere,
    }
}

/// `conform` and `request METHOD`: requests of the user's choosing or of the checks'.
fn asking_plan(command: &Command) -> Plan<'_> {
    match command {
        Command::Conform {
            only,
            skip,
            allow,
            format,
            connection,
        } => {
            let selection = crate::conform::Selection {
                only: only.clone(),
                skip: skip.clone(),
                allow: allow.allow(),
            };
            if let Some(unknown) = selection.unknown() {
                let message = format!(
                    "no check is called `{}`; the checks: {}",
                    crate::untrusted::line(unknown, 80),
                    crate::conform::checks().collect::<Vec<_>>().join(", ")
                );
                return Plan::Refused {
                    message,
                    format: Format::Text,
                };
            }
            let words = super::connection_words(connection);
            let target = connection.options().ok().map(|o| o.target);
            let report_format = match format {
                CheckFormat::Text => Format::Text,
                CheckFormat::Json | CheckFormat::Sarif => Format::Json,
            };
            let job = Job::Conform {
                words,
                target,
                selection,
                format: *format,
            };
            connected(connection, report_format, job)
        }
        Command::Request {
            method,
            params,
            format,
            connection,
        } => {
            let params = params.as_deref();
            connected(connection, *format, Job::Request { method, params })
        }
        _ => Plan::Elsewhere,
    }
}

/// `call TOOL`: the tool, its arguments and how it is called.
fn call_plan(command: &Command) -> Plan<'_> {
    let Command::Call {
        tool,
        args,
        arg,
        strict,
        task,
        force,
        format,
        connection,
    } = command
    else {
        return Plan::Elsewhere;
    };
    let how = call::How {
        strict: *strict,
        task: *task,
        force: *force,
    };
    let job = Job::Call {
        tool,
        args: args.as_deref(),
        pairs: arg.as_slice(),
        how,
    };
    Plan::Connected {
        connection,
        format: *format,
        job,
    }
}

/// `verify`: what may be called, how often, from which seed.
fn verify_plan(command: &Command) -> Plan<'_> {
    let Command::Verify {
        tools,
        calls,
        seed,
        time_budget,
        call_timeout,
        invalid,
        allow,
        format,
        connection,
    } = command
    else {
        return Plan::Elsewhere;
    };
    let options = verify::Options {
        tools,
        seed: *seed,
        settings: crate::verify::run::Settings {
            calls: *calls,
            budget: time_budget.map(|s| std::time::Duration::from_secs_f64(s.max(0.0))),
            call_limit: std::time::Duration::from_secs_f64(call_timeout.clamp(0.001, 86_400.0)),
            invalid: *invalid,
        },
        allow: allow.allow(),
        format: *format,
    };
    Plan::Verify {
        connection,
        options,
    }
}

/// `load TOOL`: the call, how many, by how many callers.
fn load_plan(command: &Command) -> Plan<'_> {
    let Command::Load {
        tool,
        args,
        arg,
        calls,
        concurrency,
        duration,
        sessions,
        allow_writes,
        allow_destructive,
        allow_invalid,
        format,
        connection,
    } = command
    else {
        return Plan::Elsewhere;
    };
    let options = load::Options {
        tool,
        args: args.as_deref(),
        pairs: arg,
        calls: *calls,
        // More callers than calls would only wait: capped by the calls (not with --duration).
        concurrency: match duration {
            Some(_) => *concurrency,
            None => (*concurrency).min((*calls).max(1)),
        },
        duration: duration.map(|s| std::time::Duration::from_secs_f64(s.max(0.0))),
        sessions: *sessions,
        format: *format,
        allow: crate::verify::plan::Allow {
            writes: *allow_writes,
            destructive: allow_destructive.clone(),
            all: false,
        },
        allow_invalid: *allow_invalid,
    };
    Plan::Load {
        connection,
        options,
    }
}

/// `test FILE`: the file read (and its cases picked) before connecting.
fn test_plan(command: &Command) -> Plan<'_> {
    let Command::Test {
        file,
        update,
        filter,
        format,
        connection,
    } = command
    else {
        return Plan::Elsewhere;
    };
    let shown = match format {
        TestFormat::Json => Format::Json,
        TestFormat::Text | TestFormat::Junit => Format::Text,
    };
    match test::read(file, filter.as_deref()) {
        Ok(cases) => {
            let suite = test::Suite {
                file,
                cases,
                update: *update,
                format: *format,
            };
            Plan::Connected {
                connection,
                format: shown,
                job: Job::Test(suite),
            }
        }
        Err(message) => Plan::Refused {
            message,
            format: shown,
        },
    }
}

/// `complete`: what is completed, and the context given.
fn complete_plan(command: &Command) -> Plan<'_> {
    let Command::Complete {
        prompt,
        template,
        argument,
        prefix,
        context,
        format,
        connection,
    } = command
    else {
        return Plan::Elsewhere;
    };
    let what = prompts::Completing {
        prompt: prompt.as_deref(),
        template: template.as_deref(),
        argument,
        prefix,
        context,
    };
    Plan::Connected {
        connection,
        format: *format,
        job: Job::Complete(what),
    }
}

/// `diff OLD NEW` compares files; `diff OLD` the file with the server; `diff --eras` the server
/// in both eras (clap asks for OLD unless --eras is given).
fn diff<'a>(
    old: Option<&'a Path>,
    new: Option<&'a Path>,
    format: DiffFormat,
    connection: &'a ConnectionArgs,
) -> Plan<'a> {
    match (old, new) {
        (Some(old), Some(new)) => Plan::Files { old, new, format },
        (Some(old), None) => Plan::Connected {
            connection,
            format: drift::report_for(format).format,
            job: Job::Diff { old, format },
        },
        (None, _) => Plan::Eras { connection, format },
    }
}

impl Job<'_> {
    /// `told`: what the connection noticed so far, and goes on noticing.
    /// What the job starts before the session connects: `conform`'s copy of a stdio server
    /// for the calls in flight (its start is then off the longest path).
    pub fn early(&self) -> crate::conform::Early {
        match self {
            Job::Conform {
                target, selection, ..
            } => crate::conform::Early::start(target.as_ref(), selection),
            _ => crate::conform::Early::none(),
        }
    }

    pub async fn run(
        self,
        session: &Session,
        report: &Report,
        told: &Told,
        early: crate::conform::Early,
    ) -> i32 {
        match self {
            Job::Tools => tools::run(session, report).await,
            Job::Inspect(tool) => inspect::run(session, tool, report).await,
            Job::Call {
                tool,
                args,
                pairs,
                how,
            } => call::run(session, tool, args, pairs, how, report).await,
            Job::Check(format) => check::run(session, report, format).await,
            Job::Resources => resources::list(session, false, report).await,
            Job::Templates => resources::list(session, true, report).await,
            Job::Read { uri, out } => resources::read(session, uri, out, report).await,
            Job::Prompts => prompts::list(session, report).await,
            Job::Prompt { name, args } => prompts::get(session, name, args, report).await,
            Job::Complete(what) => prompts::complete(session, what, report).await,
            Job::Ping => ping(session, report).await,
            Job::Skills => skills::list(session, report).await,
            Job::Skill(load) => skills::load(session, load, report).await,
            Job::Conform {
                words,
                target,
                selection,
                format,
            } => {
                let asked = conform::Asked {
                    words: &words,
                    target: target.as_ref(),
                    selection: &selection,
                    format,
                    early,
                };
                conform::run(session, report, told, asked).await
            }
            Job::Request { method, params } => request::run(session, method, params, report).await,
            Job::Snapshot(out) => drift::take(session, out, report).await,
            Job::Test(suite) => test::run(session, suite, report).await,
            Job::Diff { old, format } => drift::live(session, old, format).await,
        }
    }
}

/// `ping`: the round trip of one `ping` request. The 2026-07-28 protocol has no `ping`; there
/// the cheapest request, `server/discover`, is timed instead, and the output says so.
async fn ping(session: &Session, report: &Report) -> i32 {
    let (took, method) = match session.ping().await {
        Ok(pinged) => pinged,
        Err(e) => return super::failed("ping", e, report),
    };
    let ms = took.as_secs_f64() * 1e3;
    match report.format {
        Format::Json => report.json(&serde_json::json!({ "ms": ms, "method": method })),
        Format::Text if method == "ping" => report.line(&format!("pong in {ms:.1} ms")),
        Format::Text => report.line(&format!(
            "round trip {ms:.1} ms (server/discover: the 2026-07-28 protocol has no ping)"
        )),
    }
    exit::OK
}
