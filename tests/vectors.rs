//! The shared vectors, run natively through the core crate and through the CLI.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::*;
use mcp_errors::{classify_render, classify_str, parse_now, ClassifyOptions};

fn classify_options(case: &serde_json::Value) -> ClassifyOptions {
    ClassifyOptions {
        now_ms: option_str(case, "now").map(|t| parse_now(&t).expect("vector time")),
    }
}

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

#[test]
fn error_vectors() {
    let cases = cases("errors.json");
    let mut failures = Vec::new();
    for case in &cases {
        let raw = raw(case);
        let got = match case["api"].as_str() {
            Some("classify") => match option_str(case, "now").map(|t| parse_now(&t)) {
                Some(Err(e)) => Err(e),
                other => {
                    let now_ms = other.map(|r| r.unwrap());
                    classify_str(&raw, &ClassifyOptions { now_ms }).map(|n| n.to_json())
                }
            },
            Some("render") => classify_render(&raw, &render_options(case)),
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
        .filter(|c| option_str(c, "now").is_none())
        .collect();
    let mut input = String::new();
    for (i, case) in cases.iter().enumerate() {
        input.push_str(&raw(case));
        input.push('\n');
        if i == 3 {
            input.push_str("{not json\n");
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-errors"))
        .arg("classify")
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
    assert_eq!(
        out.status.code(),
        Some(1),
        "a bad line makes the exit status 1"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
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

#[test]
fn cli_render_takes_every_flag() {
    let case = &cases("render.json")[2];
    let o = &case["options"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-errors"))
        .args(["render", "--format", "both", "--tool"])
        .arg(o["tool_name"].as_str().unwrap())
        .arg("--now")
        .arg(o["now"].as_str().unwrap())
        .arg("--id")
        .arg(o["error_id"].as_str().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the CLI starts");
    writeln!(child.stdin.take().unwrap(), "{}", raw(case)).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        expected_text(case)
    );
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
