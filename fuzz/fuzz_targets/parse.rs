#![no_main]
//! Any bytes as a server's tool result: a typed error, nothing, or a
//! normalized error whose JSON parses; never a panic.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let options = mcp_errors::ClassifyOptions { now_ms: Some(1_761_575_535_000), ..Default::default() };
        if let Ok(Some(n)) = mcp_errors::parse_result(text, &options) {
            serde_json::from_str::<serde_json::Value>(&n.to_json()).expect("valid JSON");
        }
    }
});
