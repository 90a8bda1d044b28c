//! Loads the verbatim server traffic in `tests/captures` for tests: the listing and the calls
//! (request and answer) captured from real servers, copied into the repository.
#![allow(dead_code)]

use mcp_inspect::testing::mcp::surface::result::CallResult;
use mcp_inspect::testing::mcp::surface::tool::{Tool, decode_page};
use mcp_inspect::testing::schema::Era;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/captures")
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One captured server: its folder name, era, tools and calls (`label`, tool name, result).
pub struct Capture {
    pub name: String,
    pub era: Era,
    pub tools: Vec<Tool>,
    pub calls: Vec<(String, String, CallResult)>,
}

pub fn all() -> Vec<Capture> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root())
        .expect("tests/captures exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("tools_list.json").exists())
        .collect();
    dirs.sort();
    dirs.iter().map(|d| load(d)).collect()
}

fn load(dir: &Path) -> Capture {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    let page = decode_page(&read(&dir.join("tools_list.json"))["result"]).expect("tools page");
    assert!(page.rejected.is_empty(), "{name}: {:?}", page.rejected);
    let mut calls = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let f = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            f.starts_with("call_") && !f.ends_with(".request.json")
        })
        .collect();
    files.sort();
    for file in files {
        let label = file
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .trim_start_matches("call_")
            .to_string();
        let request = read(&file.with_extension("request.json"));
        let tool = request["params"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let response = read(&file);
        let result = match response.get("result") {
            Some(r) => r.clone(),
            None => continue, // a JSON-RPC error (unknown tool): no result to judge
        };
        calls.push((label, tool, CallResult::decode(result)));
    }
    Capture {
        era: if name.ends_with("-2026") {
            Era::Modern
        } else {
            Era::Legacy
        },
        name,
        tools: page.tools,
        calls,
    }
}
