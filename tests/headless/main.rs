//! Tier 3, the headless runtime against real servers: the built-in demo and hostile servers,
//! an attacker written apart from the product, and third-party MCP servers started the way a
//! user starts them.

mod headless_attacks;
mod headless_conform;
mod headless_demo;
mod headless_drift;
mod headless_failures;
mod headless_hostile;
mod headless_peers;
mod headless_shell;
mod headless_skills;
mod headless_tap;
mod headless_tap_hosts;
mod headless_test_files;
mod headless_verify;
mod session_demo;

#[path = "../support/cli.rs"]
mod cli;
#[path = "../support/hostile.rs"]
mod hostile;
#[path = "../support/peers.rs"]
mod peers;
