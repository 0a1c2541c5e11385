//! `cargo bench`: classify + render natively, per profile, for a small, a
//! typical and a large (1 MB body) error; and the same through the component
//! in wasmtime (build it first with `cargo xtask build`).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use mcp_errors::{classify_render, classify_render_json, Profile, RenderOptions};
use serde_json::json;

fn inputs() -> Vec<(&'static str, String)> {
    let small = json!({"status": 429}).to_string();
    let typical = json!({
        "name": "TypeError", "message": "fetch failed",
        "cause": {"code": "ECONNREFUSED", "errno": -111, "syscall": "connect",
                  "message": "connect ECONNREFUSED 127.0.0.1:8080"},
        "tool": "fetch_page", "suggestions": ["Check the URL"]
    })
    .to_string();
    let large = json!({"status": 502, "headers": {"retry-after": "5"},
                       "body": "x".repeat(1024 * 1024), "message": "bad gateway"})
    .to_string();
    vec![("small", small), ("typical", typical), ("large-1MB", large)]
}

fn options(profile: Profile) -> RenderOptions {
    RenderOptions {
        profile,
        now: Some("2025-10-27T14:32:15Z".into()),
        ..RenderOptions::default()
    }
}

fn native(c: &mut Criterion) {
    let mut g = c.benchmark_group("native classify+render");
    for (size, raw) in inputs() {
        for profile in Profile::ALL {
            let o = options(*profile);
            g.bench_with_input(BenchmarkId::new(profile.name(), size), &raw, |b, raw| {
                b.iter(|| classify_render(black_box(raw), &o).unwrap())
            });
        }
    }
    g.finish();
}

/// Results a client reads back: a rendered error (this project's canonical
/// profile), another server's text error, and a successful result.
fn results() -> Vec<(&'static str, String)> {
    let typical = &inputs()[1].1;
    let own = classify_render(typical, &options(Profile::Canonical)).unwrap();
    let foreign = json!({"content": [{"type": "text", "text":
        "search code: GitHub API rate limit exceeded. Retry after 30m0s."}], "isError": true})
    .to_string();
    let success = json!({"content": [{"type": "text", "text": "3 results"}]}).to_string();
    vec![
        ("own-canonical", own),
        ("foreign-text", foreign),
        ("success", success),
    ]
}

fn native_parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("native parse");
    let o = mcp_errors::ClassifyOptions::default();
    for (kind, raw) in results() {
        g.bench_with_input(BenchmarkId::from_parameter(kind), &raw, |b, raw| {
            b.iter(|| mcp_errors::parse_result_json(black_box(raw), &o).unwrap())
        });
    }
    g.finish();
}

mod component {
    wasmtime::component::bindgen!({ path: "wit", world: "mcp-errors" });
}

fn through_wasmtime(c: &mut Criterion) {
    use wasmtime::component::{Component, Linker};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/target/mcp-errors.wasm");
    let Ok(bytes) = std::fs::read(path) else {
        eprintln!("{path} is missing: run `cargo xtask build` to benchmark the component");
        return;
    };
    let engine = wasmtime::Engine::default();
    let component = Component::new(&engine, &bytes).unwrap();
    let mut store = wasmtime::Store::new(&engine, ());
    let linker: Linker<()> = Linker::new(&engine);
    let bindings = component::McpErrors::instantiate(&mut store, &component, &linker).unwrap();
    let api = bindings.mcp_errors_core_api();
    let mut g = c.benchmark_group("wasmtime classify-render-json");
    for (size, raw) in inputs() {
        for profile in [Profile::Canonical, Profile::ToolErrorV1] {
            let o = format!(
                r#"{{"profile":"{}","now":"2025-10-27T14:32:15Z"}}"#,
                profile.name()
            );
            g.bench_with_input(BenchmarkId::new(profile.name(), size), &raw, |b, raw| {
                b.iter(|| {
                    api.call_classify_render_json(&mut store, raw, &o)
                        .unwrap()
                        .unwrap()
                })
            });
        }
    }
    g.finish();
    // Keep the two entry points honest: the JSON-options path is the same work.
    assert_eq!(
        classify_render_json(&inputs()[1].1, r#"{"now":"2025-10-27T14:32:15Z"}"#).unwrap(),
        classify_render(&inputs()[1].1, &options(Profile::Canonical)).unwrap()
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = native, native_parse, through_wasmtime
}
criterion_main!(benches);
