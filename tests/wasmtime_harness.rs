//! The component, hosted by wasmtime: it imports nothing, and every shared
//! vector gives the same bytes through it as natively.
//!
//! The component is built by `cargo xtask build` (which `cargo xtask test`
//! runs first). Without it this test fails and says so; it never skips.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use common::*;
use wasmtime::component::{Component, Linker};
use wasmtime::{Config, Engine, Store};

wasmtime::component::bindgen!({
    path: "wit",
    world: "mcp-errors",
});

use exports::mcp_errors::core::types as wit;

fn component_path() -> PathBuf {
    match std::env::var_os("MCP_ERRORS_WASM") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/mcp-errors.wasm"),
    }
}

fn engine_and_component() -> &'static (Engine, Component) {
    static LOADED: OnceLock<(Engine, Component)> = OnceLock::new();
    LOADED.get_or_init(|| {
        let path = component_path();
        let bytes = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "the component {} is missing ({e}); build it with `cargo xtask build` \
                 (`cargo xtask test` does this first)",
                path.display()
            )
        });
        let mut config = Config::new();
        config.wasm_component_model(true);
        let engine = Engine::new(&config).expect("engine");
        let component = Component::new(&engine, &bytes).expect("a valid component");
        (engine, component)
    })
}

/// A fresh instance in a fresh store. The linker is empty: nothing to import.
fn instance() -> (Store<()>, McpErrors) {
    let (engine, component) = engine_and_component();
    let mut store = Store::new(engine, ());
    let linker: Linker<()> = Linker::new(engine);
    let bindings = McpErrors::instantiate(&mut store, component, &linker).expect("instantiates");
    (store, bindings)
}

fn wit_render_options(case: &serde_json::Value) -> wit::RenderOptions {
    let o = render_options(case);
    wit::RenderOptions {
        profile: match o.profile {
            mcp_errors::Profile::Canonical => wit::Profile::Canonical,
            mcp_errors::Profile::ToolErrorV1 => wit::Profile::ToolErrorV1,
            mcp_errors::Profile::McpToolError => wit::Profile::McpToolError,
            mcp_errors::Profile::Text => wit::Profile::Text,
            mcp_errors::Profile::ErrorObject => wit::Profile::ErrorObject,
            mcp_errors::Profile::RpcEnvelope => wit::Profile::RpcEnvelope,
            other => panic!("no WIT case for {other:?}"),
        },
        format: match o.format {
            mcp_errors::Format::Markdown => wit::Format::Markdown,
            mcp_errors::Format::Json => wit::Format::Json,
            mcp_errors::Format::Both => wit::Format::Both,
            other => panic!("no WIT case for {other:?}"),
        },
        spec: match o.spec {
            mcp_errors::SpecRevision::V20250618 => wit::SpecRevision::V20250618,
            mcp_errors::SpecRevision::V20251125 => wit::SpecRevision::V20251125,
            mcp_errors::SpecRevision::V20260728 => wit::SpecRevision::V20260728,
            other => panic!("no WIT case for {other:?}"),
        },
        target: match o.target {
            mcp_errors::Target::ToolResult => wit::Target::ToolResult,
            mcp_errors::Target::SoftResult => wit::Target::SoftResult,
            mcp_errors::Target::ProtocolError => wit::Target::ProtocolError,
            mcp_errors::Target::NeedsInput => wit::Target::NeedsInput,
            mcp_errors::Target::LogRecord => wit::Target::LogRecord,
            other => panic!("no WIT case for {other:?}"),
        },
        tool_name: o.tool_name,
        now: o.now,
        error_id: o.error_id,
        output_schema: o.output_schema,
        extra_fields: o.extra_fields,
        mask: o.mask,
        masked_message: o.masked_message,
        tool_failure: o.tool_failure,
        limits: wit_limits(case),
        rules: wit_rules(case),
    }
}

/// A case's `limits` option as the component's record, values as given.
/// A case's `rules` option as the JSON text the WIT record takes.
/// A case's options as the WIT classify options.
fn wit_classify_options(case: &serde_json::Value) -> wit::ClassifyOptions {
    wit::ClassifyOptions {
        now: option_str(case, "now"),
        limits: wit_limits(case),
        rules: wit_rules(case),
    }
}

fn wit_rules(case: &serde_json::Value) -> Option<String> {
    case["options"].get("rules").map(|r| r.to_string())
}

fn wit_limits(case: &serde_json::Value) -> Option<wit::Limits> {
    let l = case["options"].get("limits")?;
    let field = |k: &str| l.get(k).and_then(|v| v.as_u64()).map(|v| v as u32);
    Some(wit::Limits {
        max_message_chars: field("max_message_chars"),
        max_string_chars: field("max_string_chars"),
        max_depth: field("max_depth"),
        max_members: field("max_members"),
        max_rendered_bytes: field("max_rendered_bytes"),
    })
}

fn no_limits() -> Option<wit::Limits> {
    None
}

fn wit_error_parts(e: &wit::Error) -> (&'static str, &str) {
    match e {
        wit::Error::InvalidJson(m) => ("invalid_json", m),
        wit::Error::InvalidInput(m) => ("invalid_input", m),
        wit::Error::InvalidOption(m) => ("invalid_option", m),
    }
}

#[test]
fn component_imports_nothing() {
    let (engine, component) = engine_and_component();
    let ty = component.component_type();
    let imports: Vec<String> = ty
        .imports(engine)
        .map(|(name, _)| name.to_string())
        .collect();
    assert!(imports.is_empty(), "the component imports {imports:?}");
    let exports: Vec<String> = ty
        .exports(engine)
        .map(|(name, _)| name.to_string())
        .collect();
    assert!(
        exports
            .iter()
            .any(|e| e.starts_with("mcp-errors:core/api@")),
        "exports {exports:?}"
    );
}

#[test]
fn classify_vectors_through_the_component() {
    let (mut store, bindings) = instance();
    let api = bindings.mcp_errors_core_api();
    let cases = cases("classify.json");
    let mut failures = Vec::new();
    for case in &cases {
        let options = wit_classify_options(case);
        let got = api
            .call_classify_json(&mut store, &raw(case), &options)
            .expect("no trap");
        let want = expected_text(case);
        check(&mut failures, name(case), &want, &got);
        // The typed result says the same as the JSON one.
        let typed = api
            .call_classify(&mut store, &raw(case), &options)
            .expect("no trap")
            .expect("classifies");
        let expected = &case["expected"];
        if typed.message != expected["message"]
            || typed.retryable != expected["retryable"]
            || typed.evidence
                != expected["evidence"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
            || typed.retry_after_ms != expected.get("retry_after_ms").and_then(|v| v.as_u64())
            || typed.http_status.map(u64::from)
                != expected.get("http_status").and_then(|v| v.as_u64())
        {
            failures.push(format!("{}: typed result differs: {typed:?}", name(case)));
        }
    }
    report("classify.json (wasmtime)", cases.len(), failures);
}

#[test]
fn parse_vectors_through_the_component() {
    let (mut store, bindings) = instance();
    let api = bindings.mcp_errors_core_api();
    let cases = cases("parse.json");
    let mut failures = Vec::new();
    for case in &cases {
        let options = wit_classify_options(case);
        let got = api
            .call_parse_json(&mut store, &raw(case), &options)
            .expect("no trap");
        check(&mut failures, name(case), &expected_text(case), &got);
    }
    report("parse.json (wasmtime)", cases.len(), failures);
}

#[test]
fn render_vectors_through_the_component() {
    let (mut store, bindings) = instance();
    let api = bindings.mcp_errors_core_api();
    let cases = cases("render.json");
    let mut failures = Vec::new();
    for case in &cases {
        let options = wit_render_options(case);
        let want = expected_text(case);
        let got = api
            .call_classify_render(&mut store, &raw(case), &options)
            .expect("no trap");
        check(&mut failures, name(case), &want, &got);
        // classify, then render the typed value: the same bytes.
        let normalized = api
            .call_classify(
                &mut store,
                &raw(case),
                &wit::ClassifyOptions {
                    now: options.now.clone(),
                    limits: wit_limits(case),
                    rules: wit_rules(case),
                },
            )
            .expect("no trap")
            .expect("classifies");
        let got = api
            .call_render(&mut store, &normalized, &options)
            .expect("no trap");
        let label = format!("{} (classify + render)", name(case));
        check(&mut failures, &label, &want, &got);
        // The JSON-options entry point, as string-only hosts call it.
        let got = api
            .call_classify_render_json(&mut store, &raw(case), &case["options"].to_string())
            .expect("no trap");
        let label = format!("{} (classify-render-json)", name(case));
        check(&mut failures, &label, &want, &got);
    }
    report("render.json (wasmtime)", cases.len(), failures);
}

#[test]
fn error_vectors_through_the_component() {
    let (mut store, bindings) = instance();
    let api = bindings.mcp_errors_core_api();
    let cases = cases("errors.json");
    let mut failures = Vec::new();
    for case in &cases {
        let got = match case["api"].as_str() {
            Some("classify") => api
                .call_classify_json(&mut store, &raw(case), &wit_classify_options(case))
                .expect("no trap"),
            Some("render-json") => api
                .call_render_json(&mut store, &raw(case), &case["options"].to_string())
                .expect("no trap"),
            Some("parse") => api
                .call_parse_json(&mut store, &raw(case), &wit_classify_options(case))
                .expect("no trap"),
            _ => {
                // JSON options (an unknown profile is no typed option); typed
                // options, when they parse, must fail the same way.
                let options = case["options"].to_string();
                let got = api
                    .call_classify_render_json(&mut store, &raw(case), &options)
                    .expect("no trap");
                if mcp_errors::RenderOptions::from_json(&options).is_ok() {
                    let typed = api
                        .call_classify_render(&mut store, &raw(case), &wit_render_options(case))
                        .expect("no trap");
                    assert_eq!(
                        typed.as_ref().map_err(wit_error_parts),
                        got.as_ref().map_err(wit_error_parts),
                        "{}",
                        name(case)
                    );
                }
                got
            }
        };
        let got = got.as_ref().map_err(wit_error_parts);
        check_error(&mut failures, name(case), &case["expected_error"], &got);
    }
    report("errors.json (wasmtime)", cases.len(), failures);
}

#[test]
fn render_rejects_bad_typed_input_without_trapping() {
    let (mut store, bindings) = instance();
    let api = bindings.mcp_errors_core_api();
    let mut n = api
        .call_classify(
            &mut store,
            "{}",
            &wit::ClassifyOptions {
                now: None,
                limits: no_limits(),
                rules: None,
            },
        )
        .unwrap()
        .unwrap();
    n.details = Some("[1, 2]".into());
    let got = api
        .call_render(
            &mut store,
            &n,
            &wit_render_options(&serde_json::json!({"options": {}})),
        )
        .expect("no trap");
    assert!(
        matches!(&got, Err(wit::Error::InvalidInput(m)) if m == "`details` must be a JSON object"),
        "{got:?}"
    );
    n.details = Some("{oops".into());
    let got = api
        .call_render(
            &mut store,
            &n,
            &wit_render_options(&serde_json::json!({"options": {}})),
        )
        .expect("no trap");
    assert!(matches!(got, Err(wit::Error::InvalidJson(_))), "{got:?}");
}

#[test]
fn schemas_through_the_component_are_the_core_s() {
    let (mut store, bindings) = instance();
    let api = bindings.mcp_errors_core_api();
    let pairs = [
        (wit::Profile::Canonical, mcp_errors::Profile::Canonical),
        (wit::Profile::ToolErrorV1, mcp_errors::Profile::ToolErrorV1),
        (
            wit::Profile::McpToolError,
            mcp_errors::Profile::McpToolError,
        ),
        (wit::Profile::Text, mcp_errors::Profile::Text),
        (wit::Profile::ErrorObject, mcp_errors::Profile::ErrorObject),
        (wit::Profile::RpcEnvelope, mcp_errors::Profile::RpcEnvelope),
    ];
    for (w, p) in pairs {
        let got = api.call_schema(&mut store, w).expect("no trap");
        assert_eq!(got, mcp_errors::schema(p));
    }
}

#[test]
fn taxonomy_through_the_component_is_the_table() {
    let (mut store, bindings) = instance();
    let rows = bindings
        .mcp_errors_core_api()
        .call_taxonomy(&mut store)
        .expect("no trap");
    assert_eq!(rows.len(), mcp_errors::TABLE.len());
    for (row, info) in rows.iter().zip(mcp_errors::TABLE) {
        assert_eq!(row.name, info.name);
        assert_eq!(row.http_status, info.http_status);
        assert_eq!(row.grpc_code, info.grpc_code);
        assert_eq!(row.jsonrpc_code, info.jsonrpc_code);
        assert_eq!(row.retryable, info.retryable);
        assert_eq!(row.doc, info.doc);
        // The WIT enum case is the kebab-case form of the wire name.
        let case = format!("{:?}", row.code);
        let camel: String = info
            .name
            .split('_')
            .map(|w| w[..1].to_string() + &w[1..].to_ascii_lowercase())
            .collect();
        assert_eq!(case.trim_start_matches("ErrorCode::"), camel);
        let category = format!("{:?}", row.category);
        assert_eq!(
            category
                .trim_start_matches("Category::")
                .to_ascii_lowercase(),
            info.category.name()
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, failure_persistence: None, ..Default::default() })]

    /// Random inputs give the same bytes through the component as natively.
    #[test]
    fn component_and_native_agree_on_random_input(input in any_json()) {
        let raw = serde_json::to_string(&input).unwrap();
        let (mut store, bindings) = instance();
        let api = bindings.mcp_errors_core_api();
        let now = "2025-10-27T14:32:15Z";
        let got = api
            .call_classify_json(&mut store, &raw, &wit::ClassifyOptions { now: Some(now.into()), limits: no_limits(), rules: None })
            .expect("no trap");
        let native = mcp_errors::classify_str(
            &raw,
            &mcp_errors::ClassifyOptions { now_ms: Some(mcp_errors::parse_now(now).unwrap()), ..Default::default() },
        )
        .map(|n| n.to_json());
        proptest::prop_assert_eq!(got.ok(), native.ok());
        for profile in mcp_errors::Profile::ALL {
            let opts = serde_json::json!({"options": {
                "profile": profile.name(), "format": "both", "now": now, "error_id": "e"
            }});
            let got = api
                .call_classify_render(&mut store, &raw, &wit_render_options(&opts))
                .expect("no trap");
            let native = mcp_errors::classify_render(&raw, &render_options(&opts));
            proptest::prop_assert_eq!(got.ok(), native.ok());
        }
    }
}

/// The test-only trapping build (`cargo xtask test` builds it): a trap is an
/// error for the host, the trapped instance refuses further calls, and a
/// fresh instance of the same component works.
#[test]
fn a_trap_is_contained_by_a_fresh_instance() {
    let path = std::env::var_os("MCP_ERRORS_TRAP_WASM")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/mcp-errors-trap.wasm")
        });
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}); run `cargo xtask test`",
            path.display()
        )
    });
    let (engine, _) = engine_and_component();
    let component = Component::new(engine, &bytes).expect("a valid component");
    let linker: Linker<()> = Linker::new(engine);
    let options = wit::ClassifyOptions {
        now: None,
        limits: no_limits(),
        rules: None,
    };
    let mut store = Store::new(engine, ());
    let bindings = McpErrors::instantiate(&mut store, &component, &linker).unwrap();
    let api = bindings.mcp_errors_core_api();
    assert!(api
        .call_classify_json(&mut store, "{}", &options)
        .unwrap()
        .is_ok());
    let trapped = api.call_classify_json(&mut store, "\"mcp-errors: trap now\"", &options);
    assert!(
        trapped.is_err(),
        "the trap surfaces as an error: {trapped:?}"
    );
    assert!(
        api.call_classify_json(&mut store, "{}", &options).is_err(),
        "a trapped instance is done"
    );
    let mut store = Store::new(engine, ());
    let bindings = McpErrors::instantiate(&mut store, &component, &linker).unwrap();
    let got =
        bindings
            .mcp_errors_core_api()
            .call_classify_json(&mut store, "{\"status\":404}", &options);
    assert!(got.unwrap().unwrap().contains("NOT_FOUND"));
}

/// Records how far the component's memory has grown.
#[derive(Default)]
struct Grown {
    bytes: usize,
}

impl wasmtime::ResourceLimiter for Grown {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.bytes = self.bytes.max(desired);
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        _desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(true)
    }
}

/// The component's allocator (`bindings/component/src/alloc.rs`) reuses what
/// a call freed: one instance serving the same mix of calls (every classify
/// vector, a 1 MB body, user rules) over and over stops growing its memory
/// after the first rounds.
#[test]
fn memory_stays_flat_over_many_calls_in_one_instance() {
    let (engine, component) = engine_and_component();
    let mut store = Store::new(engine, Grown::default());
    store.limiter(|g| g);
    let linker: Linker<Grown> = Linker::new(engine);
    let bindings = McpErrors::instantiate(&mut store, component, &linker).expect("instantiates");
    let api = bindings.mcp_errors_core_api();
    let big = serde_json::json!({"status": 502, "body": "x".repeat(1 << 20)}).to_string();
    let mut inputs: Vec<(String, String)> = cases("classify.json")
        .iter()
        .map(|c| {
            (
                raw(c),
                serde_json::json!({"rules": c["options"]["rules"]}).to_string(),
            )
        })
        .collect();
    inputs.push((big, "{}".to_string()));
    let round = |store: &mut Store<Grown>| {
        for (raw, options) in &inputs {
            let out = api
                .call_classify_render_json(&mut *store, raw, options)
                .expect("no trap");
            assert!(out.is_ok(), "{raw:.80}: {out:?}");
        }
    };
    for _ in 0..3 {
        round(&mut store);
    }
    let after_warm_up = store.data().bytes;
    assert!(
        after_warm_up > 1 << 20,
        "the 1 MB body was held: {after_warm_up}"
    );
    for _ in 0..30 {
        round(&mut store);
    }
    assert_eq!(
        store.data().bytes,
        after_warm_up,
        "memory grew over {} more calls",
        30 * inputs.len()
    );
}

#[test]
fn the_cli_through_the_component_is_the_core_s() {
    use exports::mcp_errors::core::cli::Plan;
    use mcp_errors::cli::{self as native, Start};
    let (mut store, bindings) = instance();
    let cli = bindings.mcp_errors_core_cli();
    let argv = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // What ends at once: help, usage errors, taxonomy, schema.
    for args in [
        argv(&["--help"]),
        argv(&[]),
        argv(&["taxonomy"]),
        argv(&["schema", "rpc-envelope"]),
        argv(&["render", "--profile", "nope"]),
        argv(&["classify", "--now", "2025-02-31T00:00:00Z"]),
        argv(&["frøbnicate\u{1}"]),
    ] {
        let Plan::Finish(got) = cli.call_start(&mut store, &args).expect("no trap") else {
            panic!("{args:?}: expected finish");
        };
        let Start::Finish(want) = native::start(&args) else {
            panic!("{args:?}: expected finish natively");
        };
        assert_eq!(
            (got.stdout, got.stderr, got.status),
            (want.stdout, want.stderr, want.status),
            "{args:?}"
        );
    }
    // Every classify vector as one line each, with hostile lines between.
    let args = argv(&["render", "--profile", "text", "--tool", "t"]);
    let Plan::Lines(command) = cli.call_start(&mut store, &args).expect("no trap") else {
        panic!("expected lines");
    };
    let Start::Lines(want_command) = native::start(&args) else {
        panic!("expected lines natively");
    };
    assert_eq!(command, want_command.text());
    let mut lines: Vec<String> = cases("classify.json").iter().map(raw).collect();
    lines.extend(
        [
            "\u{feff}",
            "",
            " \t\r",
            "\u{1c}",
            "{\"status\":429}\r",
            "{x",
        ]
        .map(String::from),
    );
    for (i, line) in lines.iter().enumerate() {
        let n = i as u64 + 1;
        let got = cli
            .call_line(&mut store, &command, line, n)
            .expect("no trap")
            .map(|l| (l.text, l.failed));
        let want = want_command.line(line, n).map(|l| (l.text, l.failed));
        assert_eq!(got, want, "line {n}: {line:?}");
    }
    // A command text that `start` did not give is an error line, not a trap.
    let got = cli
        .call_line(&mut store, "[\"schema\"]", "{}", 9)
        .expect("no trap")
        .expect("a line");
    assert!(
        got.failed && got.text.contains("\"line\":9"),
        "{}",
        got.text
    );
    // Bytes that are not UTF-8, whole or from a skipped valid prefix.
    for (skipped, bytes) in [
        (0u64, &b"{\xff}"[..]),
        (5, b"\xe2\x82"),
        (2, b"\xed\xa0\x80"),
    ] {
        let got = cli
            .call_bad_line(&mut store, skipped, bytes, 3)
            .expect("no trap");
        let want = native::bad_line(skipped, bytes, 3);
        assert_eq!((got.text, got.failed), (want.text, want.failed));
    }
}
