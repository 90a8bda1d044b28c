//! Runs the real `mcp-inspect` binary the way a user would, and reads what it printed.
#![allow(dead_code)]

use serde_json::Value;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_mcp-inspect");

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub took: Duration,
}

impl Run {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }

    pub fn error_json(&self) -> Value {
        serde_json::from_str(self.stderr.trim())
            .unwrap_or_else(|e| panic!("stderr is not one JSON object ({e}): {}", self.stderr))
    }
}

pub fn run(args: &[&str]) -> Run {
    let start = Instant::now();
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(BIN)
        .args(args)
        .output()
        .expect("run mcp-inspect");
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        took: start.elapsed(),
    }
}

/// A free loopback port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// A child process killed when dropped (servers started for a test).
pub struct Background(pub std::process::Child);

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts a command and waits until `port` accepts connections.
pub fn start_listening(mut cmd: Command, port: u16) -> Background {
    let child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start server");
    let bg = Background(child);
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "server did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    bg
}

/// Options that start this binary as a stdio server (`demo-server …`, `hostile-server …`), the
/// way `--demo` and `--hostile` do, for in-process sessions.
pub fn this_binary(
    args: Vec<String>,
    protocol: mcp_inspect::testing::mcp::ProtocolChoice,
) -> mcp_inspect::testing::mcp::ConnectOptions {
    let target = mcp_inspect::testing::config::target::Target::Stdio {
        command: BIN.into(),
        args,
        env: vec![],
        cwd: None,
    };
    options(target, protocol)
}

/// Options for an in-process session with `target`: a 10 s timeout, the default client.
pub fn options(
    target: mcp_inspect::testing::config::target::Target,
    protocol: mcp_inspect::testing::mcp::ProtocolChoice,
) -> mcp_inspect::testing::mcp::ConnectOptions {
    mcp_inspect::testing::mcp::ConnectOptions {
        target,
        protocol,
        timeout: Duration::from_secs(10),
        max_time: Duration::from_secs(600),
        log_level: None,
        client: Default::default(),
        record: None,
        wire: None,
        auth: Default::default(),
    }
}
