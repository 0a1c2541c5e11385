//! `parse`: the shared parse vectors, and parse as the exact inverse of render.

mod common;

use common::*;
use mcp_errors::{
    classify_render, parse_now, parse_result, parse_result_json, render_value, ClassifyOptions,
    Format, Profile, RenderOptions, SpecRevision, Target,
};

#[test]
fn parse_vectors() {
    let cases = cases("parse.json");
    assert!(cases.len() >= 40, "at least 40 parse cases");
    let mut failures = Vec::new();
    for case in &cases {
        let got = parse_result_json(&raw(case), &classify_options(case))
            .map(|n| n.unwrap_or_else(|| "null".into()));
        check(&mut failures, name(case), &expected_text(case), &got);
    }
    report("parse.json", cases.len(), failures);
}

const PROFILES: [Profile; 6] = [
    Profile::Canonical,
    Profile::ToolErrorV1,
    Profile::McpToolError,
    Profile::Text,
    Profile::ErrorObject,
    Profile::RpcEnvelope,
];
const FORMATS: [Format; 3] = [Format::Markdown, Format::Json, Format::Both];
const SPECS: [SpecRevision; 3] = [
    SpecRevision::V20250618,
    SpecRevision::V20251125,
    SpecRevision::V20260728,
];
const TARGETS: [Target; 3] = [
    Target::ToolResult,
    Target::SoftResult,
    Target::ProtocolError,
];

/// For every render and classify vector, in every profile, format and target
/// (and each revision in turn): the rendered result parses to an error, and
/// rendering that error again with the same options gives the same bytes.
#[test]
fn parse_is_the_inverse_of_render() {
    let mut cases = cases("render.json");
    cases.extend(cases_of("classify.json"));
    let mut failures = Vec::new();
    let mut checked = 0usize;
    let mut replaced = 0usize;
    let mut words_read = 0usize;
    for (i, case) in cases.iter().enumerate() {
        let mut base = render_options(case);
        if base.now.is_none() {
            base.now = Some("2026-11-24T10:00:00Z".into());
        }
        let parse_options = ClassifyOptions {
            now_ms: Some(parse_now(base.now.as_deref().unwrap()).unwrap()),
            ..ClassifyOptions::default()
        };
        for profile in PROFILES {
            for format in FORMATS {
                for target in TARGETS {
                    let options = RenderOptions {
                        profile,
                        format,
                        target,
                        spec: SPECS[i % 3],
                        // The proposed toolFailure `_meta`, on every other case.
                        tool_failure: i % 2 == 1,
                        ..base.clone()
                    };
                    let Ok(rendered) = classify_render(&raw(case), &options) else {
                        continue;
                    };
                    // Extra fields that replace one of the profile's own
                    // members (a host's `message`) hide what the error said:
                    // no reader can undo that. Counted, and there is one such case.
                    if replaces_own_member(case, &options) {
                        replaced += 1;
                        continue;
                    }
                    checked += 1;
                    let label = format!(
                        "{} ({} {} {} {})",
                        name(case),
                        profile.name(),
                        format.name(),
                        target.name(),
                        options.spec.name()
                    );
                    let parsed = match parse_result(&rendered, &parse_options) {
                        Ok(Some(n)) => n,
                        other => {
                            failures.push(format!("{label}\n  {rendered}\n  parsed {other:?}"));
                            continue;
                        }
                    };
                    let again = render_value(parsed.clone(), &options);
                    // A bare JSON-RPC −32603 (no `data`: the text profile
                    // before 2025-11-25) is what SDKs send for any failure,
                    // so parse reads its message's words; when they name a
                    // code of another JSON-RPC family, nothing in the error
                    // says it was ours. Counted: three cases (an Azure quota
                    // detail, a ZodError raised inside a tool, Sequelize's
                    // "Validation error" whose class named the other code of
                    // a tie), three formats each.
                    if again.as_deref() != Ok(rendered.as_str())
                        && read_bare_internal(&rendered, &parsed)
                    {
                        words_read += 1;
                        if std::env::var_os("MCP_ERRORS_SHOW_WORDS_READ").is_some() {
                            eprintln!("{label}: {rendered} -> {}", parsed.to_json());
                        }
                        continue;
                    }
                    if again.as_deref() != Ok(rendered.as_str()) {
                        failures.push(format!(
                            "{label}\n  want {rendered}\n  got  {again:?}\n  parsed {}",
                            parsed.to_json()
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 20_000, "only {checked} renders checked");
    assert!(
        replaced <= 60,
        "{replaced} renders skipped for extra fields"
    );
    assert!(
        words_read <= 9,
        "{words_read} bare -32603 errors read by their words"
    );
    report("parse ∘ render", checked, failures);
}

/// A JSON-RPC error −32603 without `data`, parsed by the words of its message.
fn read_bare_internal(rendered: &str, parsed: &mcp_errors::Normalized) -> bool {
    let v: serde_json::Value = serde_json::from_str(rendered).unwrap_or_default();
    v.get("code").and_then(|c| c.as_i64()) == Some(-32603)
        && v.get("data").is_none()
        && parsed.evidence.iter().any(|e| e.starts_with("words "))
}

fn cases_of(file: &str) -> Vec<serde_json::Value> {
    cases(file)
}

/// Whether the options' extra fields name a member the profile's object
/// writes itself (the object rendered without them, as JSON, has that key).
fn replaces_own_member(case: &serde_json::Value, options: &RenderOptions) -> bool {
    let Some(extra) = &options.extra_fields else {
        return false;
    };
    let extra: serde_json::Map<String, serde_json::Value> = serde_json::from_str(extra).unwrap();
    let plain = RenderOptions {
        extra_fields: None,
        format: Format::Json,
        target: Target::ToolResult,
        ..options.clone()
    };
    let result: serde_json::Value =
        serde_json::from_str(&classify_render(&raw(case), &plain).unwrap()).unwrap();
    let text = result["content"][0]["text"].as_str().unwrap_or("{}");
    let object: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let object = object
        .get("error")
        .filter(|_| options.profile == Profile::ErrorObject)
        .unwrap_or(&object);
    extra.keys().any(|k| object.get(k).is_some())
}

/// `mcp-errors parse` prints exactly the library's bytes, `null` for a
/// non-error, and an error line for a line that is no result.
#[test]
fn cli_parse_matches_the_vectors() {
    let cases = cases("parse.json");
    let now = "2026-11-24T10:00:00Z";
    assert!(cases
        .iter()
        .all(|c| option_str(c, "now").as_deref() == Some(now)));
    let mut input: String = cases.iter().map(|c| raw(c) + "\n").collect();
    input.push_str("[1]\n");
    let (status, lines) = run_cli(&["parse", "--now", now], &input);
    assert_eq!(status, Some(1), "the bad last line fails the run");
    assert_eq!(lines.len(), cases.len() + 1);
    for (case, line) in cases.iter().zip(&lines) {
        assert_eq!(*line, expected_text(case), "{}", name(case));
    }
    assert!(lines[cases.len()].starts_with(r#"{"error":{"kind":"invalid_input""#));
}
