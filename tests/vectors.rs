//! The shared vectors, run natively through the core crate and through the CLI.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::*;
use mcp_errors::{
    classify_render, classify_render_json, classify_str, parse_now, render_json, ClassifyOptions,
    RenderOptions,
};

#[test]
fn classify_vectors() {
    let cases = cases("classify.json");
    assert!(cases.len() >= 80, "at least 80 classify cases");
    let mut failures = Vec::new();
    for case in &cases {
        let got = classify_str(&raw(case), &classify_options(case)).map(|n| n.to_json());
        let want = expected_text(case);
        check(&mut failures, name(case), &want, &got);
    }
    report("classify.json", cases.len(), failures);
}

#[test]
fn render_vectors() {
    let cases = cases("render.json");
    let mut failures = Vec::new();
    for case in &cases {
        let got = classify_render(&raw(case), &render_options(case));
        let want = expected_text(case);
        check(&mut failures, name(case), &want, &got);
    }
    report("render.json", cases.len(), failures);
}

/// One classification for a failure's log record and result gives each the
/// bytes of its own `classify_render`, for every render and classify vector.
#[test]
fn log_record_and_result_from_one_classification() {
    let mut n = 0;
    for case in cases("render.json")
        .iter()
        .chain(cases("classify.json").iter())
    {
        let mut options = render_options(case);
        for target in [mcp_errors::Target::ToolResult, options.target] {
            options.target = target;
            let (log, result) = mcp_errors::classify_render_with_log(&raw(case), &options)
                .unwrap_or_else(|e| panic!("{}: {e}", name(case)));
            assert_eq!(
                result,
                classify_render(&raw(case), &options).unwrap(),
                "{}",
                name(case)
            );
            let log_options = mcp_errors::RenderOptions {
                target: mcp_errors::Target::LogRecord,
                ..options.clone()
            };
            assert_eq!(
                log,
                classify_render(&raw(case), &log_options).unwrap(),
                "{}",
                name(case)
            );
            n += 1;
        }
    }
    assert!(n > 600, "{n}");
    // The JSON-options form says the same (a render vector's options are its options JSON).
    for case in &cases("render.json") {
        let json = serde_json::to_string(&case["options"]).unwrap();
        let pair = mcp_errors::classify_render_with_log_json(&raw(case), &json).unwrap();
        let typed = mcp_errors::classify_render_with_log(&raw(case), &render_options(case));
        assert_eq!(pair, typed.unwrap(), "{}", name(case));
    }
}

/// The JSON-options entry points give the same bytes: a vector's `options`
/// object is exactly their options JSON.
#[test]
fn render_vectors_with_json_options() {
    let cases = cases("render.json");
    let mut failures = Vec::new();
    for case in &cases {
        let options = case["options"].to_string();
        let want = expected_text(case);
        check(
            &mut failures,
            name(case),
            &want,
            &classify_render_json(&raw(case), &options),
        );
        let normalized = classify_str(&raw(case), &classify_options(case))
            .unwrap()
            .to_json();
        let label = format!("{} (render_json)", name(case));
        check(
            &mut failures,
            &label,
            &want,
            &render_json(&normalized, &options),
        );
    }
    report("render.json (JSON options)", cases.len(), failures);
}

#[test]
fn json_options_are_checked() {
    let bad = [
        ("[]", "render options must be a JSON object"),
        ("{\"profle\":\"text\"}", "unknown render option \"profle\""),
        (
            "{\"mask\":\"yes\"}",
            "render option \"mask\" must be a boolean",
        ),
        (
            "{\"format\":3}",
            "render option \"format\" must be a string",
        ),
        (
            "{\"spec\":\"2024\"}",
            "unknown spec revision \"2024\"; expected one of: 2025-06-18, 2025-11-25, 2026-07-28",
        ),
    ];
    for (options, message) in bad {
        let err = classify_render_json("{}", options).unwrap_err();
        assert_eq!(
            (err.kind(), err.detail()),
            ("invalid_option", message),
            "{options}"
        );
    }
    let err = render_json("{\"code\":\"NOPE\"}", "{}").unwrap_err();
    assert_eq!(err.kind(), "invalid_input");
    // Nulls take the defaults; objects are accepted for the JSON-valued options.
    let out = classify_render_json(
        "{}",
        r#"{"profile":null,"extra_fields":{"a":1},"output_schema":{"type":"object"}}"#,
    )
    .unwrap();
    assert!(out.contains(r#""a":1"#), "{out}");
}

/// Every seed example a render vector names is reproduced, field for field.
#[test]
fn seed_examples_are_reproduced() {
    let cases: Vec<_> = cases("render.json")
        .into_iter()
        .filter(|c| c.get("seed").is_some())
        .collect();
    assert!(cases.len() >= 40, "every seed example has a vector");
    let mut failures = Vec::new();
    for case in &cases {
        let out = classify_render(&raw(case), &render_options(case)).expect("renders");
        if let Err(why) = seed_matches(case, &out) {
            failures.push(format!("{}: {why}", name(case)));
        }
    }
    report("seed examples", cases.len(), failures);
}

#[test]
fn error_vectors() {
    let cases = cases("errors.json");
    let mut failures = Vec::new();
    for case in &cases {
        let raw = raw(case);
        let got = match case["api"].as_str() {
            Some(api @ ("classify" | "parse")) => {
                match option_str(case, "now").map(|t| parse_now(&t)) {
                    Some(Err(e)) => Err(e),
                    other => {
                        let now_ms = other.map(|r| r.unwrap());
                        let limits = common::limits(case);
                        common::rules(case).and_then(|rules| {
                            let options = ClassifyOptions {
                                now_ms,
                                limits,
                                rules,
                            };
                            if api == "parse" {
                                mcp_errors::parse_result_json(&raw, &options)
                                    .map(Option::unwrap_or_default)
                            } else {
                                classify_str(&raw, &options).map(|n| n.to_json())
                            }
                        })
                    }
                }
            }
            Some("render") => {
                // Through the JSON options (an unknown profile name cannot be a
                // typed option); when the options parse, the typed entry point
                // must fail the same way.
                let options = case["options"].to_string();
                let got = classify_render_json(&raw, &options);
                if let Ok(typed) = RenderOptions::from_json(&options) {
                    assert_eq!(classify_render(&raw, &typed), got, "{}", name(case));
                }
                got
            }
            Some("render-json") => render_json(&raw, &case["options"].to_string()),
            other => panic!("{}: unknown api {other:?}", name(case)),
        };
        let got = got.as_ref().map_err(|e| (e.kind(), e.detail()));
        check_error(&mut failures, name(case), &case["expected_error"], &got);
    }
    report("errors.json", cases.len(), failures);
}

/// The CLI prints exactly the library's bytes, one line per input line, and a
/// bad line in the middle yields an error line while the rest go on.
#[test]
fn cli_classify_matches_vectors_line_for_line() {
    let cases: Vec<_> = cases("classify.json")
        .into_iter()
        .filter(|c| {
            option_str(c, "now").is_none()
                && c["options"].get("limits").is_none()
                && c["options"].get("rules").is_none()
        })
        .collect();
    let mut input = String::new();
    for (i, case) in cases.iter().enumerate() {
        input.push_str(&raw(case));
        input.push('\n');
        if i == 3 {
            input.push_str("{not json\n");
        }
    }
    let (status, lines) = run_cli(&["classify"], &input);
    assert_eq!(status, Some(1), "a bad line makes the exit status 1");
    assert_eq!(
        lines.len(),
        cases.len() + 1,
        "one output line per input line"
    );
    assert_eq!(
        lines[4],
        r#"{"error":{"kind":"invalid_json","message":"key must be a string at line 1 column 2","line":5}}"#
    );
    let mut got = lines.clone();
    got.remove(4);
    for (case, line) in cases.iter().zip(got) {
        assert_eq!(line, expected_text(case), "{}", name(case));
    }
}

/// Classify vectors with rules, through the CLI's `--rules` (one run each).
#[test]
fn cli_classify_takes_rules() {
    let cases: Vec<_> = cases("classify.json")
        .into_iter()
        .filter(|c| c["options"].get("rules").is_some())
        .collect();
    assert!(cases.len() >= 4, "rule vectors exist");
    for case in &cases {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-errors"));
        cmd.args(["classify", "--rules"])
            .arg(case["options"]["rules"].to_string());
        let got = one_line(cmd, &raw(case));
        assert_eq!(got, Ok(expected_text(case)), "{}", name(case));
    }
}

/// Classify vectors with limits, through the CLI's `--limits`.
#[test]
fn cli_classify_takes_limits() {
    let cases: Vec<_> = cases("classify.json")
        .into_iter()
        .filter(|c| c["options"].get("limits").is_some())
        .collect();
    assert!(!cases.is_empty(), "classify.json has a case with limits");
    for case in &cases {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-errors"));
        cmd.args(["classify", "--limits"])
            .arg(case["options"]["limits"].to_string());
        let got = one_line(cmd, &raw(case));
        assert_eq!(got, Ok(expected_text(case)), "{}", name(case));
    }
}

/// Run the CLI on one input line; its output without the final newline.
fn one_line(mut cmd: Command, line: &str) -> Result<String, String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the CLI starts");
    writeln!(child.stdin.take().unwrap(), "{line}").unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .map(|s| s.trim_end().to_string())
        .map_err(|e| e.to_string())
}

/// Every render vector, through the CLI with its options as flags.
#[test]
fn cli_render_matches_every_render_vector() {
    const FLAGS: &[(&str, &str)] = &[
        ("profile", "--profile"),
        ("format", "--format"),
        ("spec", "--spec"),
        ("target", "--target"),
        ("tool_name", "--tool"),
        ("now", "--now"),
        ("error_id", "--id"),
        ("output_schema", "--output-schema"),
        ("extra_fields", "--extra-fields"),
        ("limits", "--limits"),
        ("masked_message", "--masked-message"),
    ];
    let cases = cases("render.json");
    let mut failures = Vec::new();
    for case in &cases {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-errors"));
        cmd.arg("render");
        for (key, value) in case["options"].as_object().unwrap() {
            if key == "mask" || key == "tool_failure" {
                if value == true {
                    cmd.arg(if key == "mask" {
                        "--mask"
                    } else {
                        "--tool-failure"
                    });
                }
                continue;
            }
            let flag = FLAGS
                .iter()
                .find(|(k, _)| k == key)
                .unwrap_or_else(|| panic!("{}: no flag for option {key}", name(case)))
                .1;
            match value {
                serde_json::Value::String(s) => cmd.arg(flag).arg(s),
                other => cmd.arg(flag).arg(other.to_string()),
            };
        }
        let got = one_line(cmd, &raw(case));
        check(&mut failures, name(case), &expected_text(case), &got);
    }
    report("render.json (CLI)", cases.len(), failures);
}

#[test]
fn cli_rejects_unknown_options_with_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-errors"))
        .args(["render", "--profile", "nope"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("unknown profile \"nope\""), "{stderr}");
}

/// One classification serves several results: rendering the classified
/// error (`classify-json`, then `render-json`) gives the same bytes as
/// classifying and rendering in one call, for a log record and a masked
/// tool result, on every classify and render vector. The wrappers (npm
/// `withErrors`, Python `tool_errors`) rely on it to classify a failure once.
#[test]
fn rendering_a_classified_error_equals_classify_render() {
    let mut failures = Vec::new();
    let mut n = 0;
    for file in ["classify.json", "render.json"] {
        for case in &cases(file) {
            let mut options = match &case["options"] {
                serde_json::Value::Object(m) => m.clone(),
                _ => serde_json::Map::new(),
            };
            options
                .entry("now")
                .or_insert_with(|| "2025-10-27T14:32:15Z".into());
            let classify = ClassifyOptions {
                now_ms: Some(parse_now(options["now"].as_str().unwrap()).unwrap()),
                limits: common::limits(case),
                rules: common::rules(case).expect("vector rules"),
            };
            let Ok(normalized) = classify_str(&raw(case), &classify) else {
                continue;
            };
            let normalized = normalized.to_json();
            for (target, mask) in [("log-record", false), ("tool-result", true)] {
                let mut o = options.clone();
                o.insert("target".into(), target.into());
                o.insert("mask".into(), mask.into());
                let o = serde_json::Value::Object(o).to_string();
                let once = render_json(&normalized, &o);
                let twice = classify_render_json(&raw(case), &o);
                if once.as_ref().ok() != twice.as_ref().ok() {
                    failures.push(format!(
                        "{} ({target}):\n  classify-render {twice:?}\n  render(classify) {once:?}",
                        name(case)
                    ));
                }
                n += 1;
            }
        }
    }
    assert!(n > 800, "{n}");
    assert!(
        failures.is_empty(),
        "{} of {n}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
