//! The `mcp-inspect` binary: everything is in the library's [`mcp_inspect::main`].

fn main() {
    std::process::exit(mcp_inspect::main());
}
