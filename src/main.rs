//! The `mcp-inspect` binary: parses the command line and hands off to the TUI, a headless
//! command or the demo server.

use clap::Parser;
use mcp_inspect::cli::{Cli, Command};

fn main() {
    // The guard between the inspector and a stdio server (see `mcp::guard`): plain syscalls,
    // before anything else starts.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args
        .get(1)
        .is_some_and(|a| a == mcp_inspect::mcp::transport::guard::GUARD_ARG)
    {
        std::process::exit(mcp_inspect::mcp::transport::guard::run(&args[2..]));
    }
    // Usage errors exit 1, as documented (clap's own code is 2); help and version exit 0.
    let cli = Cli::try_parse().unwrap_or_else(|e| {
        let code = if e.use_stderr() { 1 } else { 0 };
        let _ = e.print();
        std::process::exit(code)
    });
    // The hostile server is plain threads and blocking IO, and must block SIGTERM before any
    // thread exists (see `hostile::Attack::Stubborn`): it runs before the async runtime.
    if let Some(Command::HostileServer {
        attack,
        ref_url,
        pid_file,
    }) = cli.command
    {
        let options = mcp_inspect::hostile::Options {
            attacks: attack,
            ref_url,
            pid_file,
        };
        std::process::exit(mcp_inspect::hostile::run(&options));
    }
    if let Some(Command::Auth { action }) = &cli.command {
        std::process::exit(mcp_inspect::headless::auth::run(action));
    }
    if let Some(Command::Replay { files }) = &cli.command {
        std::process::exit(mcp_inspect::replay::run(files));
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            std::process::exit(1);
        }
    };
    let code = runtime.block_on(async {
        match cli.command {
            Some(Command::DemoServer {
                http,
                page_size,
                repeat_cursor,
            }) => {
                let paging = mcp_inspect::demo::Paging {
                    page_size,
                    repeat_cursor,
                };
                mcp_inspect::demo::run(http, paging).await
            }
            Some(command) => mcp_inspect::headless::run(command).await,
            None => {
                let baseline = cli.baseline.as_deref();
                mcp_inspect::runtime::run(cli.connection, !cli.no_mouse, baseline).await
            }
        }
    });
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    std::process::exit(code);
}
