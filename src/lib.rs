//! mcp-inspect: inspect and exercise Model Context Protocol servers from a terminal UI or scripts.

mod app;
mod cli;
mod config;
mod conform;
mod demo;
mod drift;
mod escape;
mod file_watch;
mod headless;
mod hostile;
mod mcp;
mod plural;
mod private_files;
mod replay;
mod runtime;
mod sarif;
mod schema;
mod secrets;
mod skills;
mod suite;
mod tap;
pub mod testing;
mod ui;
mod untrusted;
mod value_diff;
mod verify;

use clap::Parser;
use cli::{Cli, Command};

/// The `mcp-inspect` binary, as a function returning its exit code: parses the command line
/// and hands off to the TUI, a headless command or a built-in server.
pub fn main() -> i32 {
    // The guard between the inspector and a stdio server (see `mcp::guard`): plain syscalls,
    // before anything else starts.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args
        .get(1)
        .is_some_and(|a| a == crate::mcp::transport::guard::GUARD_ARG)
    {
        return crate::mcp::transport::guard::run(&args[2..]);
    }
    // Usage errors exit 1, as documented (clap's own code is 2); help and version exit 0.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            if let Some(tip) = cli::missing_double_dash(&e, &args) {
                eprintln!("\n{tip}");
            }
            return if e.use_stderr() { 1 } else { 0 };
        }
    };
    // The hostile server is plain threads and blocking IO, and must block SIGTERM before any
    // thread exists (see `hostile::Attack::Stubborn`): it runs before the async runtime.
    if let Some(Command::HostileServer {
        attack,
        ref_url,
        pid_file,
        http,
    }) = cli.command
    {
        let options = crate::hostile::Options {
            attacks: attack,
            ref_url,
            pid_file,
            http,
        };
        return crate::hostile::run(&options);
    }
    if let Some(code) = cli.command.as_ref().and_then(without_runtime) {
        return code;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return 1;
        }
    };
    let code = runtime.block_on(with_runtime(cli));
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    code
}

/// The commands that run on the async runtime: the TUI, a headless command, a built-in server.
async fn with_runtime(cli: Cli) -> i32 {
    match cli.command {
        Some(Command::DemoServer {
            http,
            page_size,
            repeat_cursor,
        }) => {
            let paging = crate::demo::Paging {
                page_size,
                repeat_cursor,
            };
            crate::demo::run(http, paging).await
        }
        Some(Command::Attach { session, .. }) => {
            crate::runtime::attach(session.as_deref(), !cli.no_mouse).await
        }
        // On a worker, where the connection's tasks run: the main thread, which only
        // waits, is not woken for every answer (a call cost a switch of threads more).
        Some(command) => match tokio::spawn(crate::headless::run(command)).await {
            Ok(code) => code,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => 1,
        },
        None => {
            let flags = crate::runtime::Flags::of(&cli);
            crate::runtime::run(cli.connection.clone(), flags).await
        }
    }
}

/// The commands that need no async runtime, run; `None` for the others.
fn without_runtime(command: &Command) -> Option<i32> {
    Some(match command {
        Command::Completions { shell } => cli::completions(*shell),
        Command::Man => cli::man(),
        Command::Auth { action } => crate::headless::auth::run(action),
        Command::Replay { files } => crate::replay::run(files),
        Command::Taps { session, format } => {
            crate::tap::show::run(session.as_deref(), *format == cli::Format::Json)
        }
        Command::Attach { session, format }
            if format.is_some() || !crate::runtime::has_a_terminal() =>
        {
            crate::tap::follow::run(session.as_deref(), *format == Some(cli::Format::Json))
        }
        Command::Tap {
            place: Some(place), ..
        } => {
            use crate::tap::install::{Change, run};
            match place {
                cli::TapPlace::Install { name, file } => {
                    run(Change::Install, name, file.as_deref())
                }
                cli::TapPlace::Uninstall { name, file } => {
                    run(Change::Uninstall, name, file.as_deref())
                }
            }
        }
        Command::Tap {
            keep,
            url: Some(url),
            listen: Some(listen),
            place: None,
            ..
        } => match tokio::runtime::Runtime::new() {
            Ok(runtime) => runtime.block_on(crate::tap::http::run(listen, url, usize::from(*keep))),
            Err(e) => {
                eprintln!("mcp-inspect tap: {e}");
                1
            }
        },
        Command::Tap {
            keep,
            env,
            command,
            place: None,
            ..
        } => crate::tap::run(&crate::tap::Options {
            command,
            env,
            keep: usize::from(*keep),
        }),
        _ => return None,
    })
}
