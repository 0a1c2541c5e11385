#![no_main]
//! Any bytes as a raw error, under every profile and target: output or a typed error.
use libfuzzer_sys::fuzz_target;
use mcp_errors::{classify_render, Profile, RenderOptions, Target};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let options = RenderOptions {
        profile: Profile::ALL[selector as usize % Profile::ALL.len()],
        target: Target::ALL[(selector as usize / 8) % Target::ALL.len()],
        now: Some("2025-10-27T14:32:15Z".into()),
        mask: selector & 0x80 != 0,
        ..RenderOptions::default()
    };
    if let Ok(out) = classify_render(text, &options) {
        serde_json::from_str::<serde_json::Value>(&out).expect("valid JSON");
    }
});
