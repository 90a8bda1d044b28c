//! The layers hold: no import circle between the files of `src/` (folders declared inline
//! included), the pure layers never use the
//! drawing or the runtime, drawing never writes the model, and MCP methods are asked only
//! through `mcp`'s typed functions. Read from the source text.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A file's module path (`src/app/model.rs` → `app::model`; `src/lib.rs` → ``).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text without its test module (inline `mod tests` uses `super::` for the file itself)
/// and without comments.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path a file names from `crate`, `super` or `self`, with `use` groups expanded, every
/// path through a module a `use` brought in by name (`use crate::app::library;` then
/// `library::update::motion` is `crate::app::library::update::motion`), and every path
/// through a module the file declares (`mod reproduce;` then `reproduce::line` is
/// `self::reproduce::line`).
fn paths_in(code: &str) -> Vec<String> {
    let bytes: Vec<char> = code.chars().collect();
    let mut found = paths_from(&bytes, &["crate", "super", "self"], &BTreeMap::new());
    let mut aliases: BTreeMap<String, String> = found
        .iter()
        .filter_map(|p| {
            let last = p.rsplit("::").next()?;
            let module_like = last.chars().next()?.is_lowercase()
                && !["crate", "super", "self", "*"].contains(&last);
            module_like.then(|| (last.to_string(), p.clone()))
        })
        .collect();
    for line in code.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let declared = match words.as_slice() {
            ["mod", name] | ["pub", "mod", name] | ["pub(crate)", "mod", name] => name,
            _ => continue,
        };
        if let Some(name) = declared.strip_suffix(';') {
            aliases.insert(name.to_string(), format!("self::{name}"));
        }
    }
    let names: Vec<&str> = aliases.keys().map(String::as_str).collect();
    found.extend(paths_from(&bytes, &names, &aliases));
    found
}

/// The paths that start with one of `roots` (`root::…` at a word boundary), each root
/// replaced by what `aliases` says it stands for.
fn paths_from(bytes: &[char], roots: &[&str], aliases: &BTreeMap<String, String>) -> Vec<String> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0
            || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_' || bytes[i - 1] == ':');
        let root = boundary
            .then(|| {
                roots.iter().find(|r| {
                    let prefix = format!("{r}::");
                    let end = i + prefix.chars().count();
                    end <= bytes.len() && bytes[i..end].iter().collect::<String>() == prefix
                })
            })
            .flatten();
        if let Some(root) = root {
            let (tree, end) = read_tree(bytes, i);
            let tree = match aliases.get(*root) {
                Some(full) => format!("{full}{}", &tree[root.len()..]),
                None => tree,
            };
            found.extend(expand(&tree));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// Reads a path with an optional brace group (`a::b::{c, d::e}`) starting at `i`.
fn read_tree(chars: &[char], mut i: usize) -> (String, usize) {
    let mut out = String::new();
    let mut depth = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            c if depth == 0 && !(c.is_alphanumeric() || c == '_' || c == ':') => break,
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    (out, i)
}

/// `a::{b, c::{d}}` → `a::b`, `a::c::d`.
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        return vec![tree.trim_end_matches(':').to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .map(|p| p.split_whitespace().collect::<String>())
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{prefix}{p}")))
        .collect()
}

/// The module file a path leads to: its longest prefix that is a module of the crate. A
/// folder whose module is declared inline (`pub mod server { pub mod state; }` in `app.rs`)
/// has no file of its own: the path goes on through it to the file it names.
fn resolve(
    from: &[String],
    path: &str,
    modules: &BTreeMap<Vec<String>, PathBuf>,
) -> Option<Vec<String>> {
    let is_folder = |m: &[String]| {
        modules
            .range(m.to_vec()..)
            .next()
            .is_some_and(|(k, _)| k.len() > m.len() && k.starts_with(m))
    };
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<String> = match segments.first() {
        Some(&"crate") => Vec::new(),
        Some(&"self") => from.to_vec(),
        Some(&"super") => {
            let mut b = from.to_vec();
            while segments.first() == Some(&"super") {
                b.pop();
                segments.remove(0);
            }
            segments.insert(0, "super");
            b
        }
        _ => return None,
    };
    for s in segments.iter().skip(1) {
        if *s == "self" || *s == "*" {
            break;
        }
        base.push(s.to_string());
        if !modules.contains_key(&base) && !is_folder(&base) {
            base.pop();
            break;
        }
    }
    // A path that ends at a folder names the nearest module file above it.
    while !modules.contains_key(&base) && !base.is_empty() {
        base.pop();
    }
    modules.contains_key(&base).then_some(base)
}

struct Crate {
    modules: BTreeMap<Vec<String>, PathBuf>,
    edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    code: BTreeMap<Vec<String>, String>,
}

fn read_crate() -> Crate {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<_, _> = files
        .iter()
        .filter(|f| !f.ends_with("main.rs"))
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
    let mut edges = BTreeMap::new();
    let mut code = BTreeMap::new();
    for (module, file) in &modules {
        let text = code_of(&std::fs::read_to_string(file).expect("read"));
        // A module's use of its own ancestors is not an edge: they declare it, and a parent
        // and its child using each other (types up, functions down) is how Rust is written.
        let targets: BTreeSet<Vec<String>> = paths_in(&text)
            .iter()
            .filter_map(|p| resolve(module, p, &modules))
            .filter(|t| !module.starts_with(t))
            .collect();
        edges.insert(module.clone(), targets);
        code.insert(module.clone(), text);
    }
    Crate {
        modules,
        edges,
        code,
    }
}

fn name(module: &[String]) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

/// A circle through `start`, if the graph has one (depth-first search).
fn circle_from(
    start: &Vec<String>,
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Option<Vec<String>> {
    let mut stack = vec![(start.clone(), vec![start.clone()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in edges.get(&node).into_iter().flatten() {
            if next == start {
                return Some(path.iter().map(|m| name(m)).collect());
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn no_file_imports_in_a_circle() {
    let krate = read_crate();
    assert!(krate.modules.len() > 50, "the crate was read");
    let path = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
    assert!(
        krate.edges[&path("app::update")].contains(&path("app::model")),
        "imports are seen"
    );
    // Through folders declared inline in `app.rs`, to the file (once all counted as `app`).
    assert!(
        krate.edges[&path("app::server::update")].contains(&path("app::server::watch")),
        "imports into inline folders are seen"
    );
    // A planted circle is found.
    let mut planted = krate.edges.clone();
    planted
        .entry(path("app::model"))
        .or_default()
        .insert(path("app::update"));
    assert!(circle_from(&path("app::model"), &planted).is_some());
    let circles: Vec<String> = krate
        .modules
        .keys()
        .filter_map(|m| circle_from(m, &krate.edges))
        .map(|c| c.join(" → "))
        .collect();
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn pure_layers_never_use_drawing_or_the_runtime() {
    let krate = read_crate();
    for (module, targets) in &krate.edges {
        let layer = module.first().map(String::as_str).unwrap_or("");
        let forbidden: &[&str] = match layer {
            "schema" => &["mcp", "app", "ui", "runtime", "headless"],
            "drift" => &["mcp", "app", "ui", "runtime", "headless"],
            "mcp" => &["app", "ui", "runtime", "headless"],
            "app" => &["ui", "runtime", "headless"],
            "ui" => &["runtime", "headless"],
            _ => &[],
        };
        for target in targets {
            let to = target.first().map(String::as_str).unwrap_or("");
            assert!(
                !forbidden.contains(&to),
                "{} uses {}: {layer} must not use {to}",
                name(module),
                name(target)
            );
        }
    }
}

#[test]
fn drawing_only_reads_the_model() {
    let krate = read_crate();
    for (module, code) in &krate.code {
        if module.first().map(String::as_str) == Some("ui") {
            assert!(
                !code.contains("&mut Model") && !code.contains("&mut crate::app::model::Model"),
                "{} takes the model mutably",
                name(module)
            );
        }
    }
}

#[test]
fn drawing_reads_state_and_queries_never_updates() {
    // A function the drawing needs lives in its feature's `query`, so what `ui` may call
    // never changes the model and an `update` file is free to change.
    let krate = read_crate();
    for (module, targets) in &krate.edges {
        if module.first().map(String::as_str) != Some("ui") {
            continue;
        }
        for target in targets {
            assert!(
                !target
                    .iter()
                    .any(|s| s == "update" || s.starts_with("update_")),
                "{} uses {}: drawing reads a feature's state and query only",
                name(module),
                name(target)
            );
        }
    }
}

/// The features whose `update` `module` imports, other than its own.
fn other_updates(module: &[String], targets: &BTreeSet<Vec<String>>) -> Vec<(String, String)> {
    let feature_update = |m: &[String]| match m {
        [app, feature, update] if app == "app" && update == "update" => Some(feature.clone()),
        _ => None,
    };
    let Some(feature) = feature_update(module) else {
        return Vec::new();
    };
    targets
        .iter()
        .filter_map(|t| feature_update(t))
        .filter(|other| *other != feature)
        .map(|other| (feature.clone(), other))
        .collect()
}

#[test]
fn no_feature_update_imports_another() {
    let krate = read_crate();
    let mut found: BTreeSet<(String, String)> = BTreeSet::new();
    for (module, targets) in &krate.edges {
        found.extend(other_updates(module, targets));
    }
    // Features talk through messages and handoffs (`Effect::Handoff`, routed by `update`).
    assert!(
        found.is_empty(),
        "a feature's update imports another's: {found:?}"
    );
    // A planted import is caught.
    let path = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
    let planted = BTreeSet::from([path("app::tools::update"), path("app::tools::state")]);
    // Through a module brought in by name, too.
    assert!(
        paths_in("use crate::app::library;\nfn f() { library::update::motion(); }")
            .contains(&"crate::app::library::update::motion".to_string())
    );
    // Through a module the file declares (a parent calling its child: how a circle through
    // `conform` → `conform::reproduce` → `app::copy` → … once hid from this test).
    assert!(
        paths_in("pub mod reproduce;\nfn f() { reproduce::line(); }")
            .contains(&"self::reproduce::line".to_string())
    );
    assert_eq!(
        other_updates(&path("app::trial::update"), &planted),
        [("trial".to_string(), "tools".to_string())]
    );
}

#[test]
fn the_app_is_in_feature_folders() {
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut flat = Vec::new();
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(&app).expect("read src/app") {
        let entry = entry.expect("entry");
        let file = entry.file_name().to_string_lossy().to_string();
        if entry.path().is_dir() {
            folders.push(file);
        } else {
            flat.push(file);
        }
    }
    assert!(
        flat.len() <= 12,
        "{} files directly in src/app (at most 12): {flat:?}",
        flat.len()
    );
    for feature in [
        "tools",
        "call",
        "asked",
        "authorize",
        "library",
        "protocol",
        "server",
    ] {
        assert!(
            folders.iter().any(|f| f == feature),
            "no src/app/{feature}/"
        );
    }
    assert!(
        !flat.iter().any(|f| f.starts_with("update_")),
        "a feature's update lives in its folder: {flat:?}"
    );
}

#[test]
fn the_model_is_a_handful_of_parts() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app/model.rs"))
            .expect("read model.rs");
    let body = text
        .split("pub struct Model {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("struct Model");
    let fields = body
        .lines()
        .filter(|l| l.trim_start().starts_with("pub "))
        .count();
    assert!(fields >= 5, "the fields were read");
    assert!(
        fields <= 12,
        "Model has {fields} public fields (at most 12)"
    );
}

#[test]
fn the_library_surface_is_one_module_so_dead_code_is_reported() {
    // A `pub mod` at the root exports all it holds, and rustc never calls an exported item
    // unused. The tests reach the crate through `testing`, which names each item they need.
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("read lib.rs");
    let public: Vec<&str> = lib.lines().filter(|l| l.starts_with("pub mod ")).collect();
    assert!(
        lib.lines().filter(|l| l.starts_with("mod ")).count() > 10,
        "the modules were read"
    );
    assert!(public.len() <= 3, "public modules in lib.rs: {public:?}");
    assert!(
        !lib.contains("allow(dead_code)"),
        "dead code is reported, not allowed"
    );
}

/// Each function's length in lines, from its `fn` line to the brace that closes it at the same
/// indentation (a declaration ending in `;` has none).
fn function_lengths(code: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let signature = [
            "fn ",
            "pub fn ",
            "async fn ",
            "pub async fn ",
            "pub(crate) fn ",
        ]
        .iter()
        .chain(&[
            "pub(super) fn ",
            "pub(crate) async fn ",
            "pub(super) async fn ",
        ])
        .find_map(|p| body.strip_prefix(p));
        let Some(rest) = signature else { continue };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if body.trim_end().ends_with(';') {
            continue;
        }
        let close = format!("{indent}}}");
        if let Some(end) = lines[i..].iter().position(|l| l.trim_end() == close) {
            found.push((name, end + 1));
        }
    }
    found
}

#[test]
fn functions_stay_short() {
    let krate = read_crate();
    let mut long: Vec<(usize, String)> = Vec::new();
    for (module, code) in &krate.code {
        for (function, lines) in function_lengths(code) {
            if lines > 80 {
                long.push((lines, format!("{}::{function}", name(module))));
            }
        }
    }
    long.sort_unstable_by(|a, b| b.cmp(a));
    assert!(
        !function_lengths("fn a() {\n    x();\n}\n").is_empty(),
        "functions are found"
    );
    assert!(long.is_empty(), "functions over 80 lines: {long:?}");
}

#[test]
fn mcp_methods_are_asked_only_through_typed_functions() {
    // A method named by a string outside `mcp` is a second implementation of it waiting to
    // disagree with the first (as the TUI and `snapshot` once did on what "declared" means).
    let krate = read_crate();
    for (module, code) in &krate.code {
        if module.first().map(String::as_str) == Some("mcp") {
            continue;
        }
        for asks in [".request(\"", ".list_all(", "capabilities.get("] {
            assert!(
                !code.contains(asks),
                "{} asks `{asks}` itself: use the typed function in mcp::session::requests",
                name(module)
            );
        }
    }
}

#[test]
fn use_groups_are_expanded() {
    assert_eq!(
        expand("crate::app::{keymap, model::{Model, Pane}}"),
        [
            "crate::app::keymap",
            "crate::app::model::Model",
            "crate::app::model::Pane"
        ]
    );
    assert_eq!(
        paths_in("let x = super::keep_in_view(1);"),
        ["super::keep_in_view"]
    );
}
