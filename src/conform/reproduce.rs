//! The command that shows a finding again: a `request` command for a check made in the
//! session, `printf '%s\n' LINE… | COMMAND` for one that wrote raw lines to a stdio server, a
//! bash line of `curl` commands for one that sent raw HTTP. Quoted for a shell; a header's
//! value (a secret) never written.

use super::{Finding, HttpSent};
use crate::config::target::{Header, Target};

/// `mcp-inspect request METHOD [--params '…'] <connection>`, or for a check that spoke raw
/// lines, `printf '%s\n' LINE… | COMMAND`; quoted for a shell.
pub fn line(finding: &Finding, words: &[String], target: Option<&Target>) -> Option<String> {
    let quote = crate::escape::shell_quote;
    if !finding.http.is_empty() {
        let Some(Target::Http { url, headers, .. }) = target else {
            return None;
        };
        return Some(curl_lines(url, headers, &finding.http));
    }
    if !finding.wrote.is_empty() {
        let Some(Target::Stdio { command, args, .. }) = target else {
            return None;
        };
        let lines: Vec<String> = finding.wrote.iter().map(|l| quote(l)).collect();
        let command: Vec<String> = std::iter::once(command)
            .chain(args)
            .map(|w| quote(w))
            .collect();
        return Some(format!(
            "printf '%s\\n' {} | {}",
            lines.join(" "),
            command.join(" ")
        ));
    }
    let (method, params) = finding.sent.as_ref()?;
    let mut line = format!("mcp-inspect request {}", quote(method));
    if !params.is_null() {
        line.push_str(&format!(" --params {}", quote(&params.to_string())));
    }
    for word in words {
        line.push(' ');
        line.push_str(&quote(word));
    }
    Some(line)
}

/// The bash that sends `sent` again with curl: the first request's session id kept in `$s` when
/// a later one carries it; the user's `--header`s named by shell variables, never their values.
fn curl_lines(url: &str, headers: &[Header], sent: &[HttpSent]) -> String {
    let quote = crate::escape::shell_quote;
    let keeps_session = sent.iter().skip(1).any(|s| s.with_session);
    let lines: Vec<String> = sent
        .iter()
        .enumerate()
        .map(|(i, request)| {
            let mut words = vec![format!("curl -sS --max-time 10 -X {}", request.method)];
            words.push(quote(url));
            for header in headers {
                let variable: String = header
                    .name
                    .chars()
                    .map(|c| match c.is_ascii_alphanumeric() {
                        true => c.to_ascii_uppercase(),
                        false => '_',
                    })
                    .collect();
                words.push(format!("-H {}\"${{{variable}:?}}\"", quote(&format!("{}: ", header.name))));
            }
            for (name, value) in &request.headers {
                words.push(format!("-H {}", quote(&format!("{name}: {value}"))));
            }
            if request.with_session {
                words.push("-H \"Mcp-Session-Id: $s\"".into());
            }
            if let Some(body) = &request.body {
                words.push(format!("--data-binary {}", quote(body)));
            }
            match i == 0 && keeps_session {
                true => format!(
                    "s=$({} -D - -o /dev/null | awk 'tolower($1)==\"mcp-session-id:\"{{print $2}}' | tr -d '\\r')",
                    words.join(" ")
                ),
                false => format!("{} -i", words.join(" ")),
            }
        })
        .collect();
    lines.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A user's header (a secret with quotes in it) is named by a shell variable, never
    /// written; the session id the first request gets is kept for the ones that carry it; the
    /// whole is one line bash can parse.
    #[test]
    fn a_curl_line_names_the_users_headers_by_variable_never_by_value() {
        let headers = vec![Header {
            name: "Authorization".into(),
            value: "Bearer S3CR3T'q\"u\\ote".into(),
        }];
        let sent = vec![
            HttpSent {
                method: "POST",
                headers: vec![("Content-Type".into(), "application/json".into())],
                body: Some(r#"{"a":"it's $HOME"}"#.into()),
                with_session: false,
            },
            HttpSent {
                method: "DELETE",
                headers: vec![],
                body: None,
                with_session: true,
            },
        ];
        let line = curl_lines("http://localhost:1/mcp", &headers, &sent);
        assert!(!line.contains("S3CR3T"), "{line}");
        assert!(
            line.contains("'Authorization: '\"${AUTHORIZATION:?}\""),
            "{line}"
        );
        assert!(line.starts_with("s=$(curl "), "{line}");
        assert!(line.contains("-H \"Mcp-Session-Id: $s\""), "{line}");
        let parsed = std::process::Command::new("bash")
            .args(["-n", "-c", &line])
            .status()
            .expect("bash");
        assert!(parsed.success(), "{line}");
    }
}
