//! `resource-templates`: each resource template the server lists names its URIs with an RFC 6570
//! URI template (what a client expands with the user's values): expressions closed, an
//! operator the RFC defines, variable names of its alphabet, prefixes of 1 to 9999.
//! `template-read`: a URI expanded from a template (each variable given the server's first
//! completion for it, or a plain word) is read, or refused with an error: answered either way,
//! with a result of the shape `resources/read` has. Pure but for the requests.

use super::{Finding, Level, Status, finding};
use crate::mcp::surface::library;
use crate::mcp::{RequestError, Session};
use serde_json::{Value, json};

/// Templates expanded and read at most.
const READ_AT_MOST: usize = 3;
/// A variable's value when the server completes none.
const PLAIN: &str = "mcp-inspect";

pub async fn check(session: &Session) -> Finding {
    let check = finding(
        "resource-templates",
        "each resource template's uriTemplate is an RFC 6570 URI template",
        Level::Must,
        "server/resources#resource-templates (RFC 6570)",
    );
    let templates = match listed(session).await {
        Ok(templates) => templates,
        Err(why) => return check.not_applicable(why),
    };
    let templates: Vec<&str> = templates.iter().map(String::as_str).collect();
    check.judged(("resources/templates/list", json!({})), judged(&templates))
}

/// The `uriTemplate` of each template the server lists (its first page), or why there are none.
async fn listed(session: &Session) -> Result<Vec<String>, &'static str> {
    if !session.server.declares("resources") {
        return Err("`resources` is not declared");
    }
    let listed = (session.any_request("resources/templates/list", Some(json!({})))).await;
    let Ok(listed) = listed else {
        return Err("resources/templates/list was not answered with a result");
    };
    let templates: Vec<String> = (listed["resourceTemplates"].as_array().into_iter().flatten())
        .filter_map(|t| t["uriTemplate"].as_str())
        .map(String::from)
        .collect();
    match templates.is_empty() {
        true => Err("no resource template is listed"),
        false => Ok(templates),
    }
}

pub async fn read_check(session: &Session) -> Finding {
    let check = finding(
        "template-read",
        "a URI expanded from a resource template is answered: read (each content with its uri and a text or blob) or refused with an error",
        Level::Must,
        "server/resources#reading-resources",
    );
    let templates: Vec<String> = match listed(session).await {
        Ok(listed) => (listed.into_iter())
            .filter(|t| parse(t).is_ok())
            .take(READ_AT_MOST)
            .collect(),
        Err(why) => return check.not_applicable(why),
    };
    if templates.is_empty() {
        return check.not_applicable("no listed resource template is valid by RFC 6570");
    }
    let completes = session.server.declares("completions");
    let mut said = Vec::new();
    let mut last = None;
    for template in &templates {
        let Some(uri) = expanded(session, template, completes).await else {
            continue;
        };
        let outcome = (session.any_request("resources/read", Some(json!({"uri": uri})))).await;
        let verdict = read_judged(&uri, &outcome);
        let params = json!({"uri": uri});
        if verdict.0 == Status::Fail {
            return check.judged(("resources/read", params), verdict);
        }
        said.push(verdict.1);
        last = Some(params);
    }
    match last {
        Some(params) => check.judged(("resources/read", params), (Status::Pass, said.join("; "))),
        None => check.not_applicable("no listed template could be expanded"),
    }
}

/// `template` expanded, each variable given the server's first completion for it (when it
/// declares `completions`) or a plain word.
async fn expanded(session: &Session, template: &str, completes: bool) -> Option<String> {
    let mut values = serde_json::Map::new();
    for name in library::variables(template) {
        let value = match completes {
            true => first_completion(session, template, &name).await,
            false => None,
        };
        values.insert(name, json!(value.unwrap_or_else(|| PLAIN.into())));
    }
    library::expand(template, &values).ok()
}

/// The first value the server completes for `variable` of `template`, if a short one.
async fn first_completion(session: &Session, template: &str, variable: &str) -> Option<String> {
    let params = json!({"ref": {"type": "ref/resource", "uri": template},
        "argument": {"name": variable, "value": ""}});
    let answer = session
        .any_request("completion/complete", Some(params))
        .await
        .ok()?;
    let first = answer.pointer("/completion/values/0")?.as_str()?;
    (!first.is_empty() && first.chars().count() <= 200).then(|| first.to_string())
}

/// The verdict on reading `uri`: passes on a result whose `contents` each have a `uri` and a
/// `text` or `blob` string, or on a JSON-RPC error; fails on anything else (no answer, a
/// result of another shape).
pub fn read_judged(uri: &str, outcome: &Result<Value, RequestError>) -> (Status, String) {
    let shown = crate::untrusted::line(uri, 200);
    let result = match outcome {
        Err(RequestError::Server { code, .. }) => {
            return (Status::Pass, format!("{shown}: refused with error {code}"));
        }
        Err(e) => return (Status::Fail, format!("{shown}: {e}")),
        Ok(result) => result,
    };
    let Some(contents) = result["contents"].as_array() else {
        return (
            Status::Fail,
            format!("{shown}: a result without a `contents` array"),
        );
    };
    let malformed = contents
        .iter()
        .position(|c| !c["uri"].is_string() || !(c["text"].is_string() || c["blob"].is_string()));
    match malformed {
        Some(at) => (
            Status::Fail,
            format!("{shown}: contents[{at}] lacks a uri string or a text or blob string"),
        ),
        None => (
            Status::Pass,
            format!(
                "{shown}: read ({})",
                crate::plural::count(contents.len(), "content")
            ),
        ),
    }
}

/// Passes when every template parses; fails naming the first that does not, and why.
pub fn judged(templates: &[&str]) -> (Status, String) {
    for template in templates {
        if let Err(why) = parse(template) {
            let shown = crate::untrusted::line(template, 200);
            return (Status::Fail, format!("`{shown}`: {why}"));
        }
    }
    (
        Status::Pass,
        crate::plural::count(templates.len(), "template"),
    )
}

/// Checks one template against RFC 6570's grammar (levels 1 to 4).
pub fn parse(template: &str) -> Result<(), String> {
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err("a `}` with no `{`".into());
        }
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or("an expression not closed")?;
        expression(&after[..close])?;
        rest = &after[close + 1..];
    }
    Ok(())
}

fn expression(text: &str) -> Result<(), String> {
    let list = match text.chars().next() {
        Some('+' | '#' | '.' | '/' | ';' | '?' | '&') => &text[1..],
        Some('=' | ',' | '!' | '@' | '|') => {
            return Err(format!("`{{{text}}}`: an operator RFC 6570 reserves"));
        }
        Some(_) => text,
        None => return Err("an empty expression `{}`".into()),
    };
    for spec in list.split(',') {
        let (name, modifier) = match spec.split_once(':') {
            Some((name, prefix)) => (name, Some(prefix)),
            None => (spec.strip_suffix('*').unwrap_or(spec), None),
        };
        if name.is_empty() || !name.split('.').all(varchars) {
            return Err(format!("`{{{text}}}`: `{spec}` is not a variable name"));
        }
        // max-length = %x31-39 0*3DIGIT: 1 to 9999, no leading zero.
        let valid_prefix = |prefix: &str| {
            !prefix.starts_with('0')
                && prefix.bytes().all(|b| b.is_ascii_digit())
                && prefix
                    .parse::<u16>()
                    .is_ok_and(|n| (1..10_000).contains(&n))
        };
        if let Some(prefix) = modifier
            && !valid_prefix(prefix)
        {
            return Err(format!(
                "`{{{text}}}`: a prefix of 1 to 9999 characters, not `{prefix}`"
            ));
        }
    }
    Ok(())
}

/// varchar = ALPHA / DIGIT / "_" / pct-encoded, at least one.
fn varchars(part: &str) -> bool {
    let bytes = part.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) =>
            {
                i += 3
            }
            b if b.is_ascii_alphanumeric() || b == b'_' => i += 1,
            _ => return false,
        }
    }
    !bytes.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_read_by_rfc_6570() {
        for good in [
            "file:///{path}",
            "demo://user/{id}",
            "https://x/{+path}/{?q,limit:10}{&page}",
            "x{#frag}{.ext*}{/seg*}{;param}{a.b}{%41}",
            "no expressions at all",
        ] {
            assert_eq!(parse(good), Ok(()), "{good}");
        }
        for bad in [
            "demo://{id",
            "demo://id}",
            "demo://{}",
            "demo://{user id}",
            "demo://{=x}",
            "demo://{x:0}",
            "demo://{x:10000}",
            "demo://{x:abc}",
            "demo://{x:+1}",
            "demo://{x-y}",
            "demo://{%4}",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(judged(&["a://{x}", "b://{y"]).0, Status::Fail);
        assert!(judged(&["a://{x}", "b://{y"]).1.contains("`b://{y`"));
        assert_eq!(judged(&["a://{x}"]).0, Status::Pass);
    }

    #[test]
    fn a_read_is_judged_by_its_shape_or_its_error() {
        let read = |v: Value| read_judged("demo://x", &Ok(v)).0;
        assert_eq!(
            read(json!({"contents": [{"uri": "demo://x", "text": "hi"}]})),
            Status::Pass
        );
        assert_eq!(
            read(json!({"contents": [{"uri": "demo://x", "blob": "aGk="}]})),
            Status::Pass
        );
        assert_eq!(read(json!({"contents": []})), Status::Pass);
        assert_eq!(
            read(json!({"contents": [{"text": "no uri"}]})),
            Status::Fail
        );
        assert_eq!(
            read(json!({"contents": [{"uri": "demo://x"}]})),
            Status::Fail
        );
        assert_eq!(read(json!({"content": []})), Status::Fail);
        let refused = Err(RequestError::Server {
            code: -32002,
            message: "not found".into(),
            data: None,
        });
        assert_eq!(read_judged("demo://x", &refused).0, Status::Pass);
    }
}
