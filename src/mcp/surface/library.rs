//! Resources, resource templates and prompts in words, for the headless commands and the TUI:
//! one line per listed item, a read's contents, a prompt message's content. Every server string
//! escaped and bounded. Pure.

use crate::untrusted;
use base64::Engine;
use serde_json::{Map, Value};

/// `URI  name (title)  mime  size  [annotations]  description`, escaped and bounded.
pub fn resource_line(item: &Value, template: bool) -> String {
    resource_parts(item, template).join("  ")
}

/// The parts of [`resource_line`], the URI first and the name (title) second.
pub fn resource_parts(item: &Value, template: bool) -> Vec<String> {
    let text = |key: &str| item.get(key).and_then(Value::as_str);
    let uri = text(if template { "uriTemplate" } else { "uri" }).unwrap_or("(no uri)");
    let mut parts = vec![untrusted::line(uri, 300).into_owned()];
    let mut name = untrusted::line(text("name").unwrap_or("(no name)"), 100).into_owned();
    if let Some(title) = text("title").filter(|t| Some(*t) != text("name")) {
        name.push_str(&format!(" ({})", untrusted::line(title, 100)));
    }
    parts.push(name);
    if let Some(mime) = text("mimeType") {
        parts.push(untrusted::line(mime, 80).into_owned());
    }
    if let Some(size) = item.get("size").and_then(Value::as_u64) {
        parts.push(crate::plural::count(size as usize, "byte"));
    }
    if let Some(a) = item.get("annotations").and_then(Value::as_object) {
        let mut words = Vec::new();
        if let Some(audience) = a.get("audience").and_then(Value::as_array) {
            let who: Vec<&str> = audience.iter().filter_map(Value::as_str).collect();
            words.push(format!("for {}", who.join(", ")));
        }
        if let Some(p) = a.get("priority").filter(|p| p.is_number()) {
            words.push(format!("priority {p}"));
        }
        if let Some(t) = a.get("lastModified").and_then(Value::as_str) {
            words.push(format!("modified {t}"));
        }
        if !words.is_empty() {
            parts.push(format!("[{}]", untrusted::line(&words.join(", "), 200)));
        }
    }
    if let Some(first) = text("description").and_then(|d| d.lines().find(|l| !l.trim().is_empty()))
    {
        parts.push(untrusted::line(first.trim(), 160).into_owned());
    }
    parts
}

/// `name(required*, optional?)  (title)  description`, escaped and bounded.
pub fn prompt_line(prompt: &Value) -> String {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    let name = text(prompt, "name").unwrap_or_else(|| "(no name)".into());
    let arguments: Vec<String> = prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|a| {
            let mark = if a.get("required") == Some(&Value::Bool(true)) {
                "*"
            } else {
                "?"
            };
            format!("{}{mark}", text(a, "name").unwrap_or_default())
        })
        .collect();
    let mut line = untrusted::line(&format!("{name}({})", arguments.join(", ")), 300).into_owned();
    if let Some(title) = text(prompt, "title").filter(|t| *t != name) {
        line.push_str(&format!("  ({})", untrusted::line(&title, 100)));
    }
    if let Some(first) =
        text(prompt, "description").and_then(|d| d.lines().next().map(str::to_string))
    {
        line.push_str(&format!("  {}", untrusted::line(first.trim(), 160)));
    }
    line
}

/// A message's content in words: text as it is (escaped), anything else by type and size.
pub fn describe_content(content: &Value) -> String {
    let text = |key: &str| content.get(key).and_then(Value::as_str);
    match text("type") {
        Some("text") => untrusted::block(text("text").unwrap_or_default()),
        Some(kind @ ("image" | "audio")) => {
            let data = text("data").unwrap_or_default();
            let decoded = base64::engine::general_purpose::STANDARD.decode(data);
            let size = match &decoded {
                Ok(bytes) => crate::plural::count(bytes.len(), "byte"),
                Err(_) => format!("{} base64 chars, not valid base64", data.len()),
            };
            let seen = decoded
                .ok()
                .and_then(|b| crate::mcp::surface::image::dimensions(&b));
            let seen = seen.map(|(format, w, h)| format!(", {format} {w}×{h}"));
            format!(
                "{kind} ({}, {size}{})",
                untrusted::line(text("mimeType").unwrap_or("no type"), 80),
                seen.unwrap_or_default()
            )
        }
        Some("resource") => {
            let resource = content.get("resource").unwrap_or(&Value::Null);
            let uri = resource.get("uri").and_then(Value::as_str).unwrap_or("?");
            let size = match resource.get("text").and_then(Value::as_str) {
                Some(t) => format!("text, {}", crate::plural::count(t.chars().count(), "char")),
                None => "blob".into(),
            };
            format!("resource {} ({size})", untrusted::line(uri, 300))
        }
        Some("resource_link") => format!(
            "link {} {}",
            untrusted::line(text("uri").unwrap_or("?"), 300),
            untrusted::line(text("name").unwrap_or_default(), 100)
        ),
        _ => untrusted::json(content, false),
    }
}

/// A content's bytes: its text as UTF-8, or its blob decoded.
pub fn content_bytes(content: &Value) -> Result<Vec<u8>, String> {
    if let Some(text) = content.get("text").and_then(Value::as_str) {
        return Ok(text.as_bytes().to_vec());
    }
    let blob = content
        .get("blob")
        .and_then(Value::as_str)
        .ok_or("the content has neither `text` nor `blob`")?;
    base64::engine::general_purpose::STANDARD
        .decode(blob)
        .map_err(|e| format!("the blob is not valid base64: {e}"))
}

/// One content of a read: `contents[i]: URI  mime`, then its text (at most `max_lines`, the
/// rest counted) or its blob's size.
pub fn content_lines(index: usize, content: &Value, max_lines: usize) -> Vec<String> {
    let text = |key: &str| content.get(key).and_then(Value::as_str);
    let mut head = format!(
        "contents[{index}]: {}",
        untrusted::line(text("uri").unwrap_or("(no uri)"), 300)
    );
    if let Some(mime) = text("mimeType") {
        head.push_str(&format!("  {}", untrusted::line(mime, 80)));
    }
    let mut lines = vec![head];
    match (text("text"), content_bytes(content)) {
        (Some(body), _) => {
            let (shown, more) = untrusted::first_lines(body, max_lines);
            lines.extend(shown.into_iter().map(|line| format!("  {line}")));
            if more > 0 {
                lines.push(format!("  … {more} more lines (--format json shows all)"));
            }
        }
        (None, Ok(bytes)) => {
            let seen = crate::mcp::surface::image::dimensions(&bytes);
            let seen = seen.map(|(format, w, h)| format!(", {format} {w}×{h}"));
            lines.push(format!(
                "  blob: {}{} (read URI --out FILE writes them; w in the TUI)",
                crate::plural::count(bytes.len(), "byte"),
                seen.unwrap_or_default()
            ));
        }
        (None, Err(e)) => lines.push(format!("  {}", untrusted::line(&e, 200))),
    }
    lines
}

/// The variable names of a URI template, in order, each once.
pub fn variables(template: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for expression in template.split('{').skip(1) {
        let Some((inside, _)) = expression.split_once('}') else {
            continue;
        };
        let inside = inside.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for name in inside.split(',') {
            let name = name.trim_end_matches('*');
            let name = name.split(':').next().unwrap_or_default();
            if !name.is_empty() && !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// A URI template expanded with string values (RFC 6570, every level).
pub fn expand(template: &str, values: &Map<String, Value>) -> Result<String, String> {
    use iri_string::spec::UriSpec;
    use iri_string::template::UriTemplateStr;
    use iri_string::template::simple_context::SimpleContext;
    let template = UriTemplateStr::new(template).map_err(|e| format!("not a URI template: {e}"))?;
    let mut context = SimpleContext::new();
    for (name, value) in values {
        if let Some(text) = value.as_str().filter(|t| !t.is_empty()) {
            context.insert(name.as_str(), text);
        }
    }
    template
        .expand::<UriSpec, _>(&context)
        .map(|expanded| expanded.to_string())
        .map_err(|e| format!("the template does not expand: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_give_their_variables_and_expand_by_rfc_6570() {
        assert_eq!(
            variables("demo://users/{id}{?fields*,page}{#frag:3}"),
            ["id", "fields", "page", "frag"]
        );
        let values = serde_json::json!({"id": "a b/c", "page": ""});
        let values = values.as_object().expect("an object");
        assert_eq!(
            expand("demo://users/{id}{?page}", values),
            Ok("demo://users/a%20b%2Fc".into())
        );
    }
}
