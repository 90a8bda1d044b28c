//! What `verify` and `load` report: one type each, made by the engine, read as types by the
//! TUI and the headless text, and written to JSON once by serde (field names as
//! `--format json` gives them). Pure.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One tool's verify run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ToolReport {
    pub tool: String,
    pub status: Status,
    pub calls: usize,
    /// `--invalid`: the calls made with inputs the inputSchema refuses.
    pub invalid_calls: usize,
    /// Results with `isError`: the tool's answer, not a failure.
    pub tool_errors: usize,
    /// Results with an outputSchema to answer to that could not be judged.
    pub not_checked: usize,
    /// The distinct failures kept, in the order found.
    pub failures: Vec<Failure>,
    /// Why the run stopped short or what it could not check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Calls that hit a failure past the distinct ones kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unkept_failures: Option<usize>,
}

impl ToolReport {
    /// The calls that failed, not only the distinct failures: half the calls breaking the
    /// schema is not "1 failure".
    pub fn failed_calls(&self) -> usize {
        self.failures.iter().filter_map(|f| f.hits).sum::<usize>()
            + self.unkept_failures.unwrap_or(0)
    }
}

/// How a tool's run ended. Never `Ok` by default: a run that made fewer calls than planned,
/// or could not judge a result, is not a pass (invariant 11).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    Failed,
    #[default]
    NotChecked,
}

impl Status {
    /// Its head in text reports.
    pub fn head(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Failed => "FAIL",
            Status::NotChecked => "NOT CHECKED",
        }
    }
}

/// One distinct failure: how, where, and the input that shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    pub kind: FailureKind,
    /// The outputSchema location of the first violation, for a schema break.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    pub message: String,
    /// The input shown: the smallest found, or as found.
    pub input: Value,
    /// The input the failure was first found with.
    pub found: Value,
    #[serde(default)]
    pub shrink_calls: usize,
    /// Whether no pass found a smaller failing input (false: shrinking was cut short); none
    /// for inputs not shrunk (`--invalid`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smallest: Option<bool>,
    /// The calls that hit it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<usize>,
    /// The command line that repeats it (headless only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
}

/// Why a call failed, as the report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    BreaksOutputSchema,
    MissingStructuredContent,
    ServerError,
    Timeout,
    Crash,
    MalformedAnswer,
    AcceptedInvalidInput,
}

impl FailureKind {
    /// The kind in words.
    pub fn words(self) -> &'static str {
        match self {
            FailureKind::BreaksOutputSchema => "breaks its outputSchema",
            FailureKind::MissingStructuredContent => "leaves out structuredContent",
            FailureKind::ServerError => "JSON-RPC error to a valid input",
            FailureKind::Timeout => "timeout",
            FailureKind::Crash => "crash",
            FailureKind::MalformedAnswer => "malformed answer",
            FailureKind::AcceptedInvalidInput => "accepted an invalid input",
        }
    }
}

/// A load run in numbers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LoadSummary {
    pub tool: String,
    pub calls: usize,
    /// Calls asked for but never sent (the server closed the connection); none for a run
    /// that lasts a time.
    pub not_made: Option<usize>,
    pub concurrency: usize,
    pub sessions: usize,
    pub seconds: f64,
    pub calls_per_second: f64,
    /// Every call's latency, failures too.
    pub latency_ms: Latency,
    pub succeeded: usize,
    pub successes_per_second: f64,
    /// The successes' latency apart: a server failing fast is not a fast server.
    pub success_latency_ms: Latency,
    pub errors: Errors,
    pub tool_errors: usize,
    pub verdict_failures: usize,
    pub not_checked: usize,
    pub failed: usize,
    pub histogram: Vec<Bucket>,
    /// The first words said of each kind of failure, by kind (see `load::said_words`).
    #[serde(with = "said")]
    pub said: Vec<(String, String)>,
    /// Answers nothing awaited: a request answered twice, or an id never sent (headless).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stray_answers: Option<u64>,
    /// Answers after a cancel (headless).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late_answers: Option<u64>,
    /// The signal that stopped the run (headless).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<String>,
}

/// Latency percentiles in milliseconds (nearest rank; 0 with no calls).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Latency {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
}

/// Failed calls by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Errors {
    pub server: usize,
    pub timeout: usize,
    pub closed: usize,
    pub other: usize,
}

/// One histogram bar: the calls at most `le_ms` (none: the rest).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Bucket {
    pub le_ms: Option<f64>,
    pub count: usize,
}

/// `said` as a JSON object, its keys in the order the kinds were first seen.
mod said {
    use serde::ser::SerializeMap;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(said: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(said.len()))?;
        for (key, words) in said {
            map.serialize_entry(key, words)?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
        let map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        Ok(map
            .into_iter()
            .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_string()))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The JSON the headless commands always gave, field for field and in order.
    #[test]
    fn reports_serialise_as_the_json_reports_did() {
        let report = ToolReport {
            tool: "add".into(),
            status: Status::Failed,
            calls: 100,
            failures: vec![Failure {
                kind: FailureKind::BreaksOutputSchema,
                at: Some("/properties/result/maximum".into()),
                message: "too big".into(),
                input: json!({"a": 1001}),
                found: json!({"a": 73_310}),
                shrink_calls: 41,
                smallest: Some(true),
                hits: Some(3),
                reproduce: None,
            }],
            unkept_failures: Some(2),
            ..ToolReport::default()
        };
        assert_eq!(
            serde_json::to_string(&report).expect("json"),
            r#"{"tool":"add","status":"failed","calls":100,"invalidCalls":0,"toolErrors":0,"notChecked":0,"failures":[{"kind":"breaks_output_schema","at":"/properties/result/maximum","message":"too big","input":{"a":1001},"found":{"a":73310},"shrinkCalls":41,"smallest":true,"hits":3}],"unkeptFailures":2}"#
        );
        assert_eq!(report.failed_calls(), 5);
        let summary = LoadSummary {
            said: vec![
                ("timeout".into(), "no answer".into()),
                ("other".into(), "x".into()),
            ],
            histogram: vec![
                Bucket {
                    le_ms: Some(1.0),
                    count: 3,
                },
                Bucket {
                    le_ms: None,
                    count: 0,
                },
            ],
            ..LoadSummary::default()
        };
        let json = serde_json::to_value(&summary).expect("json");
        assert_eq!(json["said"], json!({"timeout": "no answer", "other": "x"}));
        assert_eq!(json["histogram"][1], json!({"le_ms": null, "count": 0}));
        assert_eq!(
            json["latencyMs"],
            json!({"p50": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0})
        );
        assert!(json.get("strayAnswers").is_none());
        let back: LoadSummary = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, summary);
    }
}
