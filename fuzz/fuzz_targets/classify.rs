#![no_main]
//! Any bytes: a typed error or a normalized error whose JSON parses.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(n) = mcp_errors::classify_str(text, &mcp_errors::ClassifyOptions::default()) {
            serde_json::from_str::<serde_json::Value>(&n.to_json()).expect("valid JSON");
        }
    }
});
