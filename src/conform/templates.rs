//! `resource-templates`: each resource template the server lists names its URIs with an RFC 6570
//! URI template (what a client expands with the user's values): expressions closed, an
//! operator the RFC defines, variable names of its alphabet, prefixes of 1 to 9999. Pure but
//! for the one request.

use super::{Finding, Level, Status, finding};
use crate::mcp::Session;
use serde_json::json;

pub async fn check(session: &Session) -> Finding {
    let check = finding(
        "resource-templates",
        "each resource template's uriTemplate is an RFC 6570 URI template",
        Level::Must,
        "server/resources#resource-templates (RFC 6570)",
    );
    if !session.server.declares("resources") {
        return check.not_applicable("`resources` is not declared");
    }
    let listed = session
        .any_request("resources/templates/list", Some(json!({})))
        .await;
    let Ok(listed) = listed else {
        return check.not_applicable("resources/templates/list was not answered with a result");
    };
    let templates: Vec<&str> = (listed["resourceTemplates"].as_array().into_iter().flatten())
        .filter_map(|t| t["uriTemplate"].as_str())
        .collect();
    if templates.is_empty() {
        return check.not_applicable("no resource template is listed");
    }
    check.judged(("resources/templates/list", json!({})), judged(&templates))
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
}
