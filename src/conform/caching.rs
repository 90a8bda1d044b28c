//! `caching-hints`: in the 2026-07-28 era (SEP-2549) `server/discover`, every list result and
//! `resources/read` carry `ttlMs` (a non-negative integer) and `cacheScope` (`public` or
//! `private`): the schema makes both required, and a host caches by them.

use super::{Finding, Level, Status, finding};
use crate::mcp::Session;
use crate::schema::Era;
use serde_json::{Value, json};

/// The results that must carry the hints, with the capability that makes each apply.
const CACHEABLE: [(Option<&str>, &str); 5] = [
    (None, "server/discover"),
    (Some("tools"), "tools/list"),
    (Some("prompts"), "prompts/list"),
    (Some("resources"), "resources/list"),
    (Some("resources"), "resources/templates/list"),
];

pub async fn check(session: &Session) -> Finding {
    let check = finding(
        "caching-hints",
        "server/discover, list results and resources/read carry ttlMs (a non-negative integer) and cacheScope (public or private)",
        Level::Must,
        "server/utilities/caching, 2026-07-28 (SEP-2549)",
    );
    if session.server.era != Era::Modern {
        return check.not_applicable(
            "caching hints came with 2026-07-28; the server speaks an earlier version",
        );
    }
    let mut asked = Vec::new();
    let mut first_uri = None;
    for (capability, method) in CACHEABLE {
        if capability.is_some_and(|c| !session.server.declares(c)) {
            continue;
        }
        // A request that fails is its own check's finding (tools-list, server-discover …).
        let Ok(result) = session.any_request(method, Some(json!({}))).await else {
            continue;
        };
        if method == "resources/list" {
            first_uri = result.pointer("/resources/0/uri").cloned();
        }
        if let Some(why) = hints_missing(&result) {
            return check.judged(
                (method, json!({})),
                (Status::Fail, format!("{method}: {why}")),
            );
        }
        asked.push(method);
    }
    if let Some(uri) = first_uri {
        let params = json!({"uri": uri});
        if let Ok(result) = session
            .any_request("resources/read", Some(params.clone()))
            .await
        {
            if let Some(why) = hints_missing(&result) {
                let said = format!("resources/read: {why}");
                return check.judged(("resources/read", params), (Status::Fail, said));
            }
            asked.push("resources/read");
        }
    }
    check.concluded(match asked.is_empty() {
        true => (
            Status::NotApplicable,
            "no cacheable result was answered".into(),
        ),
        false => (Status::Pass, format!("both hints on {}", asked.join(", "))),
    })
}

/// What a cacheable result lacks, if anything.
pub fn hints_missing(result: &Value) -> Option<String> {
    let shown = |v: &Value| crate::untrusted::line(&v.to_string(), 40).into_owned();
    match result.get("ttlMs") {
        None => return Some("no ttlMs".into()),
        Some(ttl) if !ttl.is_u64() => {
            return Some(format!(
                "ttlMs {} is not a non-negative integer",
                shown(ttl)
            ));
        }
        Some(_) => {}
    }
    match result.get("cacheScope") {
        None => Some("no cacheScope".into()),
        Some(Value::String(scope)) if scope == "public" || scope == "private" => None,
        Some(other) => Some(format!(
            "cacheScope {} is neither \"public\" nor \"private\"",
            shown(other)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_hints_are_required_and_each_has_its_form() {
        let ok = json!({"tools": [], "ttlMs": 0, "cacheScope": "private"});
        assert_eq!(hints_missing(&ok), None);
        let cases = [
            (json!({"tools": [], "cacheScope": "public"}), "no ttlMs"),
            (
                json!({"ttlMs": -1, "cacheScope": "public"}),
                "not a non-negative integer",
            ),
            (
                json!({"ttlMs": 1.5, "cacheScope": "public"}),
                "not a non-negative integer",
            ),
            (
                json!({"ttlMs": "60000", "cacheScope": "public"}),
                "not a non-negative integer",
            ),
            (json!({"ttlMs": 60000}), "no cacheScope"),
            (json!({"ttlMs": 60000, "cacheScope": "shared"}), "neither"),
        ];
        for (result, why) in cases {
            let found = hints_missing(&result).unwrap_or_default();
            assert!(found.contains(why), "{result}: {found}");
        }
    }
}
