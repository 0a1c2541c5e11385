//! Loading the shared vectors in `tests/vectors/`, for the native and wasmtime runners.
#![allow(dead_code)] // each test binary uses its own part of this module

use std::path::PathBuf;

use mcp_errors::{Format, Profile, RenderOptions, SpecRevision, Target};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("vectors")
}

/// The `cases` of one vector file.
pub fn cases(file: &str) -> Vec<Value> {
    let path = vectors_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let doc: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    doc["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("{} has no cases", path.display()))
        .clone()
}

pub fn name(case: &Value) -> &str {
    case["name"].as_str().expect("every case has a name")
}

/// The raw input text of a case: `raw` as is, or `input` serialized.
pub fn raw(case: &Value) -> String {
    match case.get("raw") {
        Some(Value::String(s)) => s.clone(),
        _ => serde_json::to_string(&case["input"]).expect("serializable input"),
    }
}

/// The exact bytes a host must produce for a case's `expected` value.
pub fn expected_text(case: &Value) -> String {
    serde_json::to_string(&case["expected"]).expect("serializable expected")
}

pub fn option_str(case: &Value, key: &str) -> Option<String> {
    case["options"]
        .get(key)
        .and_then(Value::as_str)
        .map(String::from)
}

/// A case's `options` as render options (absent = default).
pub fn render_options(case: &Value) -> RenderOptions {
    let o = |k: &str| option_str(case, k);
    RenderOptions {
        profile: o("profile").map_or(Profile::default(), |s| Profile::from_name(&s).unwrap()),
        format: o("format").map_or(Format::default(), |s| Format::from_name(&s).unwrap()),
        spec: o("spec").map_or(SpecRevision::default(), |s| {
            SpecRevision::from_name(&s).unwrap()
        }),
        target: o("target").map_or(Target::default(), |s| Target::from_name(&s).unwrap()),
        tool_name: o("tool_name"),
        now: o("now"),
        error_id: o("error_id"),
        output_schema: o("output_schema"),
        extra_fields: o("extra_fields"),
        mask: case["options"].get("mask") == Some(&Value::Bool(true)),
        masked_message: o("masked_message"),
        tool_failure: case["options"].get("tool_failure") == Some(&Value::Bool(true)),
        limits: limits(case),
        rules: rules(case).expect("vector rules"),
    }
}

/// A case's options as classify options (the vector's time must be valid).
pub fn classify_options(case: &Value) -> mcp_errors::ClassifyOptions {
    mcp_errors::ClassifyOptions {
        now_ms: option_str(case, "now").map(|t| mcp_errors::parse_now(&t).expect("vector time")),
        limits: limits(case),
        rules: rules(case).expect("vector rules"),
    }
}

/// Run the CLI with `args` and `input` on its standard input: its exit
/// status and its standard output, one string per line.
pub fn run_cli(args: &[&str], input: &str) -> (Option<i32>, Vec<String>) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-errors"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the CLI starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    (
        out.status.code(),
        stdout.lines().map(String::from).collect(),
    )
}

/// A case's `rules` option (absent = none).
pub fn rules(case: &Value) -> Result<mcp_errors::UserRules, mcp_errors::Error> {
    match case["options"].get("rules") {
        None => Ok(mcp_errors::UserRules::default()),
        Some(v) => mcp_errors::UserRules::from_value(v),
    }
}

/// A case's `limits` option (absent fields = the defaults), taken as is:
/// error vectors hold values out of range, which the library must reject.
pub fn limits(case: &Value) -> mcp_errors::Limits {
    let mut l = mcp_errors::Limits::default();
    let Some(Value::Object(given)) = case["options"].get("limits") else {
        return l;
    };
    for (key, v) in given {
        let v = v.as_u64().expect("vector limits are integers") as usize;
        match key.as_str() {
            "max_message_chars" => l.max_message_chars = v,
            "max_string_chars" => l.max_string_chars = v,
            "max_depth" => l.max_depth = v,
            "max_members" => l.max_members = v,
            "max_rendered_bytes" => l.max_rendered_bytes = v,
            other => panic!("unknown limit {other:?} in a vector"),
        }
    }
    l
}

/// Record a mismatch between the wanted bytes and a result.
pub fn check<E: std::fmt::Debug>(
    failures: &mut Vec<String>,
    label: &str,
    want: &str,
    got: &Result<String, E>,
) {
    if got.as_ref().ok().map(String::as_str) != Some(want) {
        failures.push(format!("{label}\n  want {want}\n  got  {got:?}"));
    }
}

/// Record a mismatch between a wanted library error `{kind, message}` and a result.
pub fn check_error<T: std::fmt::Debug>(
    failures: &mut Vec<String>,
    label: &str,
    want: &Value,
    got: &Result<T, (&str, &str)>,
) {
    let ok =
        matches!(got, Err((kind, message)) if want["kind"] == *kind && want["message"] == *message);
    if !ok {
        failures.push(format!("{label}\n  want error {want}\n  got  {got:?}"));
    }
}

/// Whether rendered output `out` reproduces the seed example a case names:
/// the whole result or its (last) JSON content block, compared as JSON
/// values, without the keys the seed lists as not reproduced.
pub fn seed_matches(case: &Value, out: &str) -> Result<(), String> {
    let seed = &case["seed"];
    let out: Value = serde_json::from_str(out).map_err(|e| format!("output is not JSON: {e}"))?;
    let got = match seed["where"].as_str() {
        Some("result") => out,
        Some("json-block") => {
            let blocks = out["content"].as_array().ok_or("no content")?;
            let text = blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .rfind(|t| t.trim_start().starts_with('{'))
                .ok_or("no JSON content block")?;
            serde_json::from_str(text).map_err(|e| format!("JSON block: {e}"))?
        }
        other => return Err(format!("unknown seed location {other:?}")),
    };
    let mut want = seed["value"].clone();
    if let (Some(obj), Some(skip)) = (want.as_object_mut(), seed["not_reproduced"].as_array()) {
        for k in skip {
            obj.remove(k.as_str().unwrap_or_default());
        }
    }
    if got == want {
        Ok(())
    } else {
        Err(format!("\n  seed {want}\n  got  {got}"))
    }
}

/// Fail with every mismatch at once, not just the first.
pub fn report(suite: &str, total: usize, failures: Vec<String>) {
    assert!(total > 0, "{suite}: no cases ran");
    if !failures.is_empty() {
        panic!(
            "{suite}: {} of {total} cases failed:\n\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
}

/// Random JSON shaped like raw errors, for property tests.
/// Keys the classifier reads, so random inputs reach its deep paths.
const KEYS: &[&str] = &[
    "status",
    "statusCode",
    "headers",
    "body",
    "name",
    "code",
    "errno",
    "message",
    "cause",
    "errors",
    "error",
    "response",
    "data",
    "details",
    "issues",
    "detail",
    "type",
    "reason",
    "retryable",
    "retry_after_ms",
    "expected",
    "suggestions",
    "tool",
    "app_code",
    "app_type",
    "retry-after",
    "Retry-After",
    "x-should-retry",
    "__type",
    "Error",
    "Code",
    "kind",
    "retryDelay",
    "@type",
    "$metadata",
    "httpStatusCode",
    "loc",
    "msg",
    "path",
];

const WORDS: &[&str] = &[
    "ECONNRESET",
    "UND_ERR_SOCKET",
    "fetch failed",
    "TypeError",
    "AbortError",
    "14 UNAVAILABLE: x",
    "MCP error -32001: Request timed out",
    "Status",
    "NotFound",
    "RESOURCE_EXHAUSTED",
    "type.googleapis.com/google.rpc.RetryInfo",
    "26s",
    "overloaded_error",
    "429",
    "Mon, 27 Oct 2025 14:33:00 GMT",
    "ThrottlingException",
    "[Errno 104] x",
    "An error occurred (SlowDown) when",
    "rate limit",
    "",
    "certificate has expired",
    "ZodError",
    "{\"error\":{\"code\":503}}",
    "[{\"a\":1}]",
    "\u{0}\u{7f}é😀",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-40000i64..700).prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        proptest::sample::select(WORDS).prop_map(|s| json!(s)),
        ".{0,40}".prop_map(Value::String),
    ]
}

pub fn any_json() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        proptest::sample::select(KEYS).prop_map(String::from),
                        ".{0,8}"
                    ],
                    inner
                ),
                0..8
            )
            .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
