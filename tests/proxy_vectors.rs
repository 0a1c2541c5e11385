//! The proxy's relay on recorded exchanges (`tests/vectors/proxy.json`): what
//! the Rust core forwards for each line. The npm and Python packages run the
//! same file through the component (`npm/test/proxy-vectors.test.mjs`,
//! `bindings/python/tests/test_proxy_vectors.py`), so the three hosts of
//! `mcp-errors proxy` behave byte for byte alike.
//!
//! `MCP_ERRORS_UPDATE_VECTORS=1 cargo test --test proxy_vectors` writes the
//! expectations from the core (review the diff).

use mcp_errors::proxy::{start, Stamp, Start};
use serde_json::{json, Value};

/// What the core does with one case: its arguments, then every event.
fn run(case: &Value) -> Value {
    let args: Vec<String> = case["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let mut run = match start(&args) {
        Start::Finish(f) => {
            return json!({"finish": {"stdout": f.stdout, "stderr": f.stderr, "status": f.status}})
        }
        Start::Run(run) => run,
    };
    let mut events = Vec::new();
    for e in case["events"].as_array().unwrap() {
        if e["from"] == "timer" {
            // A `retry`'s wait is over.
            let id = e["id"].as_str().unwrap();
            events.push(json!({"line": run.relay.resend(id)}));
            continue;
        }
        let line = e["line"].as_str().unwrap();
        if e["from"] == "client" {
            events.push(json!({"line": run.relay.from_client(line)}));
        } else {
            let stamp = || Stamp {
                now: e["now"].as_str().map(str::to_string),
                error_id: e["error_id"].as_str().map(str::to_string),
            };
            let f = run.relay.from_server(line, stamp);
            let retry = f.retry.map(|r| json!({"id": r.id, "delay_ms": r.delay_ms}));
            events
                .push(json!({"line": f.line, "log": f.log, "warning": f.warning, "retry": retry}));
        }
    }
    let gone = if case["server_gone"] == true {
        json!(run.relay.server_gone())
    } else {
        Value::Null
    };
    json!({"log": run.log, "command": run.command, "events": events, "gone": gone})
}

#[test]
fn the_relay_forwards_what_the_vectors_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/proxy.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let update = std::env::var_os("MCP_ERRORS_UPDATE_VECTORS").is_some();
    let cases = doc["cases"].as_array_mut().unwrap();
    assert!(cases.len() >= 5);
    let mut rewritten = 0;
    for case in cases.iter_mut() {
        let got = run(case);
        if update {
            case["expected"] = got;
        } else {
            assert_eq!(got, case["expected"], "{}", case["name"]);
            if let Some(events) = got["events"].as_array() {
                rewritten += events.iter().filter(|e| !e["log"].is_null()).count();
            }
        }
    }
    if update {
        std::fs::write(path, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap();
    } else {
        // The vectors rewrite failures, not only pass lines through.
        assert!(rewritten >= 3, "{rewritten}");
    }
}
