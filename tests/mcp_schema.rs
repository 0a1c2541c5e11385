//! Every rendered result validates against the official MCP schema of every
//! revision (`tests/mcp-schema/`, copied verbatim from the MCP repository).

mod common;

use common::*;
use mcp_errors::{classify_render, RenderOptions, SpecRevision, Target};
use serde_json::Value;

/// A validator for one definition of one revision's schema document.
fn validator(spec: SpecRevision, definition: &str) -> jsonschema::Validator {
    let path = vectors_dir()
        .parent()
        .unwrap()
        .join("mcp-schema")
        .join(format!("{}.json", spec.name()));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    let defs = if doc.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    assert!(
        doc[defs].get(definition).is_some(),
        "{} has no {definition}",
        path.display()
    );
    doc["$ref"] = Value::String(format!("#/{defs}/{definition}"));
    jsonschema::validator_for(&doc).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn definition(spec: SpecRevision, target: Target) -> &'static str {
    match target {
        Target::ToolResult | Target::SoftResult | Target::NeedsInput => "CallToolResult",
        Target::ProtocolError if spec == SpecRevision::V20250618 => "JSONRPCError",
        Target::ProtocolError => "JSONRPCErrorResponse",
        Target::LogRecord => unreachable!("a log record is not an MCP message"),
        other => panic!("no MCP schema definition chosen for {other:?} yet"),
    }
}

/// A protocol error is checked inside a JSON-RPC error response.
fn as_message(target: Target, rendered: Value) -> Value {
    match target {
        Target::ProtocolError => serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": rendered}),
        _ => rendered,
    }
}

#[test]
fn every_render_vector_validates_under_every_revision() {
    let cases = cases("render.json");
    let mut checked = 0;
    let mut failures = Vec::new();
    for spec in SpecRevision::ALL {
        for target in Target::ALL.iter().filter(|t| **t != Target::LogRecord) {
            let validator = validator(*spec, definition(*spec, *target));
            for (i, case) in cases.iter().enumerate() {
                let base = render_options(case);
                if base.target != *target {
                    continue;
                }
                let options = RenderOptions {
                    spec: *spec,
                    // The proposed toolFailure `_meta`, on every other case.
                    tool_failure: base.tool_failure || i % 2 == 1,
                    ..base
                };
                let out = classify_render(&raw(case), &options).expect("renders");
                let value = as_message(*target, serde_json::from_str(&out).unwrap());
                let errors: Vec<String> = validator
                    .iter_errors(&value)
                    .map(|e| e.to_string())
                    .collect();
                if !errors.is_empty() {
                    failures.push(format!(
                        "{} under {}: {errors:?}\n  {out}",
                        name(case),
                        spec.name()
                    ));
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 3 * 90, "only {checked} results checked");
    report("MCP schema validation", checked, failures);
}

/// The schemas are strict enough to catch what matters: a 2026-07-28 result
/// without `resultType` fails, and so does a protocol error without a code.
#[test]
fn the_schema_check_can_fail() {
    let v = validator(SpecRevision::V20260728, "CallToolResult");
    let no_result_type = serde_json::json!({"content": [], "isError": true});
    assert!(!v.is_valid(&no_result_type));
    let v = validator(SpecRevision::V20251125, "JSONRPCErrorResponse");
    let no_code = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"message": "x"}});
    assert!(!v.is_valid(&no_code));
}

/// Each profile's exported JSON Schema accepts every object that profile renders.
#[test]
fn profile_schemas_accept_what_the_profiles_render() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases("render.json") {
        let options = render_options(&case);
        if options.target != Target::ToolResult {
            continue;
        }
        let schema: Value = serde_json::from_str(&mcp_errors::schema(options.profile)).unwrap();
        let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
        let out = classify_render(
            &raw(&case),
            &RenderOptions {
                format: mcp_errors::Format::Json,
                ..options.clone()
            },
        )
        .unwrap();
        let out: Value = serde_json::from_str(&out).unwrap();
        let object: Value =
            serde_json::from_str(out["content"][0]["text"].as_str().unwrap()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&object)
            .map(|e| e.to_string())
            .collect();
        if !errors.is_empty() {
            failures.push(format!(
                "{} ({}): {errors:?}\n  {object}",
                name(&case),
                options.profile.name()
            ));
        }
        checked += 1;
    }
    report("profile schemas", checked, failures);
}
