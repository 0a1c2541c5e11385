//! Property tests: any JSON input classifies and renders without panicking,
//! within bounds, and always yields valid JSON.

use mcp_errors::{
    classify_render, classify_str, classify_value, ClassifyOptions, Format, Limits, Profile,
    RenderOptions, SpecRevision, Target,
};
mod common;

use common::any_json;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// A tool's outputSchema that no error object satisfies.
const SCHEMA: &str =
    r#"{"type":"object","properties":{"temp":{"type":"number"}},"required":["temp"]}"#;

/// Small limits inside their ranges (they cut the most).
fn limits() -> impl Strategy<Value = Limits> {
    (
        16usize..300,
        16usize..300,
        1usize..10,
        1usize..8,
        1_024usize..4_096,
    )
        .prop_map(|(message, string, depth, members, rendered)| Limits {
            max_message_chars: message,
            max_string_chars: string,
            max_depth: depth,
            max_members: members,
            max_rendered_bytes: rendered,
        })
}

fn options() -> impl Strategy<Value = RenderOptions> {
    (
        proptest::option::of(limits()),
        proptest::sample::select(Profile::ALL),
        proptest::sample::select(Target::ALL),
        proptest::sample::select(Format::ALL),
        proptest::sample::select(SpecRevision::ALL),
        proptest::option::of(".{0,12}"),
        proptest::option::of(".{0,12}"),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(limits, profile, target, format, spec, tool, id, schema, mask, tool_failure)| {
                // Any sentence for a masked error, too (here: the tool's name).
                let masked_message = tool.as_ref().map(|t| format!("{t} failed"));
                RenderOptions {
                    profile,
                    format,
                    spec,
                    target,
                    masked_message,
                    tool_name: tool,
                    now: Some("2025-10-27T14:32:15Z".into()),
                    error_id: id,
                    output_schema: schema.then(|| SCHEMA.into()),
                    extra_fields: None,
                    mask,
                    tool_failure,
                    limits: limits.unwrap_or_default(),
                    rules: Default::default(),
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_json_classifies_to_a_consistent_result(input in any_json()) {
        let n = classify_value(&input, &ClassifyOptions { now_ms: Some(1_761_575_535_000), ..Default::default() });
        prop_assert_eq!(n.category, n.code.info().category);
        prop_assert!(!n.evidence.is_empty());
        prop_assert!(!n.message.is_empty());
        // classify's output is already sanitized: doing it again changes nothing.
        prop_assert_eq!(&n.clone().sanitized(false), &n);
        let for_model = n.clone().sanitized(true);
        prop_assert_eq!(&for_model.clone().sanitized(true), &for_model);
        let text = n.to_json();
        // The crate's own writer gives serde's bytes for the struct.
        prop_assert_eq!(&text, &serde_json::to_string(&n).unwrap());
        let back: Value = serde_json::from_str(&text).expect("valid JSON");
        prop_assert_eq!(&back["code"], &json!(n.code.name()));
        // The JSON text and the value give the same result.
        let again = classify_str(&serde_json::to_string(&input).unwrap(), &ClassifyOptions { now_ms: Some(1_761_575_535_000), ..Default::default() });
        if let Ok(again) = again {
            prop_assert_eq!(again.to_json(), text);
        }
    }

    #[test]
    fn any_json_renders_to_valid_json(input in any_json(), opts in options()) {
        let raw = serde_json::to_string(&input).unwrap();
        // Every option is valid here, so every input renders.
        let out = classify_render(&raw, &opts).expect("renders");
        let v: Value = serde_json::from_str(&out).expect("valid JSON");
        match opts.target {
            Target::ToolResult | Target::SoftResult | Target::NeedsInput => {
                // A soft result of a tool whose output schema rules the error
                // object out is an error result: no valid success result exists.
                let is_error = opts.target == Target::ToolResult
                    || (opts.target == Target::SoftResult && opts.output_schema.is_some());
                prop_assert_eq!(&v["isError"], &json!(is_error));
                prop_assert!(v["content"].as_array().is_some_and(|c| !c.is_empty()));
                prop_assert_eq!(v.get("resultType").is_some(), opts.spec == SpecRevision::V20260728);
                // Never structured content that breaks the tool's outputSchema.
                if opts.output_schema.is_some() {
                    prop_assert!(v.get("structuredContent").is_none());
                }
            }
            Target::ProtocolError => {
                let code = v["code"].as_i64().expect("an integer code");
                prop_assert!(!(-32099..=-32020).contains(&code) || opts.spec != SpecRevision::V20260728);
                prop_assert!(!v["message"].as_str().unwrap().starts_with("MCP error"));
            }
            Target::LogRecord => prop_assert!(v["level"].is_string()),
            other => prop_assert!(false, "no property for target {:?} yet", other),
        }
    }

    /// Whatever a server sends back, parse answers with an error, nothing, or
    /// a typed error of its own: never a panic, never invalid JSON.
    #[test]
    fn any_json_parses_to_an_error_nothing_or_a_typed_error(input in any_json(), wrap in 0..4u8) {
        let input = match wrap {
            0 => input,
            1 => json!({"content": [{"type": "text", "text": input.to_string()}], "isError": true}),
            2 => json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "x", "data": input}}),
            _ => json!({"content": [], "structuredContent": input, "isError": false}),
        };
        let raw = serde_json::to_string(&input).unwrap();
        let options = ClassifyOptions { now_ms: Some(1_761_575_535_000), ..Default::default() };
        match mcp_errors::parse_result_json(&raw, &options) {
            Ok(Some(text)) => {
                let v: Value = serde_json::from_str(&text).expect("valid JSON");
                prop_assert!(v["evidence"][0].as_str().unwrap().starts_with("dialect "));
            }
            Ok(None) => prop_assert!(wrap != 1 && wrap != 2, "an error result read as none"),
            Err(e) => prop_assert_eq!(e.kind(), "invalid_input"),
        }
    }

    /// What render writes for any raw error and any options, parse reads back
    /// to an error that renders to the same bytes.
    #[test]
    fn parse_inverts_render_for_any_error(input in any_json(), opts in options()) {
        prop_assume!(matches!(opts.target, Target::ToolResult | Target::SoftResult | Target::ProtocolError));
        let raw = serde_json::to_string(&input).unwrap();
        let out = classify_render(&raw, &opts).expect("renders");
        let options = ClassifyOptions { now_ms: Some(1_761_575_535_000), ..Default::default() };
        let parsed = mcp_errors::parse_result(&out, &options).expect("reads").expect("an error");
        prop_assert_eq!(mcp_errors::render_value(parsed, &opts).expect("renders"), out);
    }

    #[test]
    fn classification_keeps_within_any_limits(input in any_json(), limits in limits()) {
        let n = classify_value(&input, &ClassifyOptions { now_ms: None, limits, ..Default::default() });
        // The cut text plus its marker (`…[truncated; N bytes in all]`).
        let marker = 40;
        prop_assert!(n.message.chars().count() <= limits.max_message_chars + marker);
        // Sanitizing again with the same limits changes nothing.
        prop_assert_eq!(&n.clone().sanitized_with(false, &limits), &n);
        fn within(v: &Value, depth: usize, l: &Limits) -> bool {
            match v {
                Value::String(s) => s.chars().count() <= l.max_string_chars + 40,
                Value::Array(a) => depth < l.max_depth && a.len() <= l.max_members + 1
                    && a.iter().all(|x| within(x, depth + 1, l)),
                Value::Object(m) => depth < l.max_depth && m.len() <= l.max_members + 1
                    && m.values().all(|x| within(x, depth + 1, l)),
                _ => true,
            }
        }
        if let Some(d) = &n.details {
            prop_assert!(within(&Value::Object(d.clone()), 0, &limits));
        }
        if let Some(o) = &n.original {
            prop_assert!(within(o, 0, &limits));
        }
    }

    #[test]
    fn any_text_gives_a_result_or_a_typed_error(raw in ".{0,200}") {
        match classify_str(&raw, &ClassifyOptions::default()) {
            Ok(n) => { serde_json::from_str::<Value>(&n.to_json()).expect("valid JSON"); }
            Err(e) => prop_assert_eq!(e.kind(), "invalid_json"),
        }
    }
}

const DEPTH: usize = 100_000;

/// A cause chain far deeper than the walk goes still classifies, by its outer layers.
#[test]
fn very_deep_cause_chain_is_bounded() {
    // Built by moving each layer in: `json!` would copy the whole chain each time.
    let mut v = json!({"code": "ECONNRESET", "message": "innermost"});
    for i in 0..DEPTH {
        let mut layer = Map::new();
        layer.insert("message".into(), Value::String(format!("layer {i}")));
        layer.insert("cause".into(), v);
        v = Value::Object(layer);
    }
    let n = classify_value(&v, &ClassifyOptions::default());
    assert_eq!(
        n.code,
        mcp_errors::Code::Unknown,
        "the reset is below the depth bound"
    );
    assert_eq!(n.message, format!("layer {}", DEPTH - 1));
    // Dropping 100 000 nested values recursively would overflow the stack; leak it.
    std::mem::forget(v);
}

#[test]
fn very_wide_aggregate_is_bounded() {
    let members: Vec<Value> = (0..200_000).map(|_| json!({"code": "ETIMEDOUT"})).collect();
    let n = classify_value(&json!({"errors": members}), &ClassifyOptions::default());
    assert_eq!(n.code, mcp_errors::Code::Timeout);
    assert!(n.evidence.len() <= 8, "{:?}", n.evidence);
}

#[test]
fn oversized_input_is_a_typed_error() {
    let raw = format!(
        "{{\"message\":\"{}\"}}",
        "x".repeat(mcp_errors::MAX_INPUT_BYTES)
    );
    let err = classify_str(&raw, &ClassifyOptions::default()).unwrap_err();
    assert_eq!(err.kind(), "invalid_input");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    /// Rendering writes JSON itself; its bytes must be serde_json's, compact
    /// and pretty, for any value: every control character, quote, backslash,
    /// non-ASCII text, nesting, empty containers, and any number.
    #[test]
    fn the_json_writer_writes_serde_json_bytes(
        input in any_json(),
        text in any::<String>(),
        big in any::<u64>(),
    ) {
        prop_assert!(mcp_errors::json_writer_agrees_with_serde(&input));
        let edges = json!([i64::MIN, i64::MAX, u64::MAX, 0, -1, 0.5, -0.0, 1e300]);
        let mixed = json!({"text": text, "big": big, "list": [text, [], {}], "nested": input, "edges": edges});
        prop_assert!(mcp_errors::json_writer_agrees_with_serde(&mixed));
        prop_assert!(mcp_errors::json_writer_agrees_with_serde(&json!(text)));
    }
}

/// The classifier's own parser (`src/input.rs`) must accept exactly what
/// serde_json accepts, with the same value, and word errors as serde_json.
fn parses_like_serde(text: &str) -> Result<(), TestCaseError> {
    let serde: Result<Value, String> = serde_json::from_str(text).map_err(|e| e.to_string());
    let own = mcp_errors::input_parse_to_serde(text);
    // `Value`'s `==` compares floats by value: -0.0 and 0.0 would pass.
    prop_assert_eq!(format!("{own:?}"), format!("{serde:?}"), "{:?}", text);
    prop_assert_eq!(own, serde, "{:?}", text);
    Ok(())
}

/// JSON text as other writers send it: every non-ASCII character and some
/// ASCII ones as `\u` escapes (surrogate pairs included).
fn escaped(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii() && c != 'e' {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04X}"));
            }
        }
    }
    out
}

/// Bytes that make and break JSON.
const JSON_BYTES: &[u8] = b"{}[]\":,\\u0123456789-+.eE tfnrl\n\t\x01\x1fDd8Cc";

/// JSON number texts of every shape: short and 900-digit integer parts,
/// fractions with long runs of zeros, exponents near `f64`'s edges and past
/// `i32`, and some that are not numbers at all.
fn number_text() -> impl Strategy<Value = String> {
    let int = prop_oneof![
        Just("0".to_string()),
        "[1-9][0-9]{0,22}",
        "[1-9][0-9]{20,900}",
        "0[0-9]",
    ];
    let frac = prop_oneof![
        Just(String::new()),
        "\\.[0-9]{1,22}",
        "\\.0{0,330}[0-9]{1,30}",
        "\\.[0-9]{300,900}",
        Just(".".to_string()),
    ];
    let exp = prop_oneof![
        Just(String::new()),
        "[eE][+-]?[0-9]{1,3}",
        "[eE][+-]?3[0-4][0-9]",
        "[eE]-?[0-9]{9,12}",
        "[eE][+-]?",
    ];
    ("-?", int, frac, exp).prop_map(|(s, i, f, e)| format!("{s}{i}{f}{e}"))
}

/// The decimal text of the point halfway between the finite `f64` with
/// these bits (made positive) and the next one up: exactly where rounding
/// decides, with 750 digits at the small end.
fn halfway_text(bits: u64) -> String {
    let b = bits % 0x7FF0_0000_0000_0000;
    let (field, frac) = ((b >> 52) as i64, b & ((1 << 52) - 1));
    let (m, e) = if field == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, field - 1075)
    };
    // (2m + 1) * 2^(e - 1), in decimal digits, most significant first.
    let mut digits: Vec<u8> = (2 * m + 1).to_string().bytes().map(|d| d - b'0').collect();
    let times = |digits: &mut Vec<u8>, f: u8| {
        let mut carry = 0;
        for d in digits.iter_mut().rev() {
            let v = *d * f + carry;
            *d = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            digits.insert(0, carry);
        }
    };
    let k = e - 1;
    // 2^k is 5^-k times 10^k.
    for _ in 0..k.unsigned_abs() {
        times(&mut digits, if k < 0 { 5 } else { 2 });
    }
    let text: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    format!("{text}e{}", k.min(0))
}

/// Floats read as the standard library reads them (correctly rounded), and
/// everything (out of range included) as serde_json reads it.
fn reads_floats_exactly(text: &str) -> Result<(), TestCaseError> {
    parses_like_serde(text)?;
    if let (Ok(Value::Number(n)), Ok(exact)) =
        (mcp_errors::input_parse_to_serde(text), text.parse::<f64>())
    {
        if n.is_f64() {
            prop_assert_eq!(
                n.as_f64().map(f64::to_bits),
                Some(exact.to_bits()),
                "{}",
                text
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_input_parser_reads_numbers_as_serde_json_does(text in number_text(), bits in any::<u64>()) {
        reads_floats_exactly(&text)?;
        let half = halfway_text(bits);
        reads_floats_exactly(&half)?;
        // Just above the halfway point rounds up; the digits end in 5 or are even.
        let (digits, exp) = half.split_once('e').unwrap();
        let exp: i64 = exp.parse().unwrap();
        reads_floats_exactly(&format!("{digits}000000001e{}", exp - 9))?;
        reads_floats_exactly(&format!("-{digits}e{exp}"))?;
        // The float itself, in Rust's shortest form and with 17 digits.
        let x = f64::from_bits(bits % 0x7FF0_0000_0000_0000);
        reads_floats_exactly(&format!("{x:e}"))?;
        reads_floats_exactly(&format!("{x:.16e}"))?;
    }

    #[test]
    fn the_input_parser_reads_any_json_as_serde_json_does(input in any_json(), text in any::<String>()) {
        let compact = serde_json::to_string(&input).unwrap();
        parses_like_serde(&compact)?;
        parses_like_serde(&serde_json::to_string_pretty(&input).unwrap())?;
        // Escapes only occur in strings, where `e` and non-ASCII text do.
        let with_escapes = serde_json::to_string(&json!([text, input])).unwrap();
        parses_like_serde(&escaped(&with_escapes))?;
    }

    #[test]
    fn the_input_parser_rejects_what_serde_json_rejects(
        input in any_json(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(JSON_BYTES)), 1..4),
    ) {
        let mut bytes = serde_json::to_string(&input).unwrap().into_bytes();
        for (at, op, b) in edits {
            let i = at.index(bytes.len() + 1);
            match op {
                0 => bytes.insert(i, b),
                1 if i < bytes.len() => { bytes.remove(i); }
                _ if i < bytes.len() => bytes[i] = b,
                _ => bytes.push(b),
            }
        }
        if let Ok(text) = String::from_utf8(bytes) {
            parses_like_serde(&text)?;
        }
    }
}

#[test]
fn the_input_parser_agrees_with_serde_json_on_edge_cases() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let deep_objects = |n: usize| format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n));
    let many: String = (0..40)
        .map(|i| format!(r#""k{i}":{i}"#))
        .collect::<Vec<_>>()
        .join(",");
    let cases: Vec<String> = [
        "0",
        "-0",
        "-0.0",
        "1",
        "-1",
        "1.5",
        "1e3",
        "1E+2",
        "1e-2",
        "2.5E-3",
        "1e400",
        "-1e400",
        "1e-400",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901234567890",
        "01",
        "-01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "+1",
        "00",
        "1.5e",
        "0x10",
        "NaN",
        "Infinity",
        "truex",
        "nul",
        "[1,]",
        "{\"a\":1,}",
        "[,1]",
        "{,}",
        "{\"a\" 1}",
        "{\"a\":}",
        "{1:2}",
        "[1 2]",
        "",
        " ",
        "\u{feff}{}",
        "{} {}",
        "[]]",
        r#""\u00e9\ud83d\ude00""#,
        r#""\ud83d""#,
        r#""\ude00""#,
        r#""\ud83d\u0041""#,
        r#""\ud83dx""#,
        r#""\uZZZZ""#,
        r#""\u12""#,
        r#""\x""#,
        "\"a\u{1}b\"",
        "\"a\u{7f}b\"",
        r#""\/\b\f\n\r\t\"\\""#,
        "\"unterminated",
        "\"abc\\",
        r#"{"a":1,"a":2,"b":3,"a":4}"#,
        r#"{"a":{"x":1},"a":[2]}"#,
        " \t\n\r[ 1 , { \"a\" : null } ]\r\n",
        "[true,false,null]",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "-1.7976931348623159e308",
        "4.9e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2.2250738585072011e-308",
        "2.2250738585072014e-308",
        "0.30000000000000004",
        "9007199254740993",
        "9007199254740993.0",
        "-9007199254740993e0",
        "1E22",
        "1e23",
        "8.5e22",
        "123456789012345.6e-3",
        "1e2147483647",
        "1e2147483648",
        "1e+2147483648",
        "0e2147483648",
        "0.000e99999999999999",
        "1e-2147483649",
        "-0e99999999999",
        "-5e-99999999999",
        "123.456e-999999999999",
        "1.5e9999999999 ",
        "[1e99999999999,2]",
        "0.0000",
        "-0.0e-0",
        "1e-0",
        "1.0e+0",
        "1.e1",
        "1e+-1",
        "-a",
        "-.5",
        "1ee1",
        "[-]",
        "[1.]",
        "{\"a\":1e}",
        "\n\n  [1,\n  }",
        "[1,\r\n2,,3]",
        "\"\\ud800\\ud800\"",
        "\"\\ud800\\\"",
        "\"\\ud800\\",
        "\"\\ud800",
        "\"\\ud800\\u12",
        "\"\\ud800\\uzzzz\"",
        "\"\\u",
        "\"\\u00\"",
        "\"\\u00é\"",
        "\"é\\é\"",
        "trué",
        "nulé",
        "[1,é]",
        "{\"é\" é}",
        "\u{1}",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        deep(127),
        deep(128),
        deep(129),
        deep_objects(127),
        deep_objects(128),
    ])
    .chain([format!("{{{many}}}"), format!(r#"{{{many},"k3":"again"}}"#)])
    .chain([
        format!("{}e-800", "1".repeat(900)),
        format!("0.{}1", "0".repeat(400)),
        format!("1{}e-1000", "0".repeat(1000)),
        format!("{}.5e-9", "9".repeat(300)),
        format!("{}1e-1080", "4".repeat(800)),
    ])
    .collect();
    for text in &cases {
        parses_like_serde(text).unwrap();
    }
    // The places counted as serde_json counts them, spelled out once.
    assert_eq!(
        mcp_errors::input_parse_to_serde("[1,\n 2,\n ]"),
        Err("trailing comma at line 3 column 2".to_string())
    );
    assert_eq!(
        mcp_errors::input_parse_to_serde("\"a\nb\""),
        Err(
            "control character (\\u0000-\\u001F) found while parsing a string at line 2 column 0"
                .to_string()
        )
    );
}

proptest! {
    /// The 8-bytes-at-a-time search finds what a byte loop finds.
    #[test]
    fn the_json_special_byte_search_is_exact(
        text in proptest::collection::vec(prop::sample::select(b"ab\"\\\x00\x1f\x20\x7f\xc3\xa9 ".as_slice()), 0..40),
        from in any::<prop::sample::Index>(),
    ) {
        let from = from.index(text.len() + 1);
        let naive = text[from..].iter().position(|&b| b < 0x20 || b == b'"' || b == b'\\').map(|p| from + p);
        prop_assert_eq!(mcp_errors::find_json_special(&text, from), naive);
    }
}

/// Field values for normalized errors, right and wrong.
fn field_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        Just(json!(429)),
        Just(json!(65535)),
        Just(json!(65536)),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(1_u64 << 40)),
        Just(json!(1.5)),
        Just(json!(2.0)),
        prop::sample::select(vec![
            "RATE_LIMITED",
            "NOT_FOUND",
            "rate_limited",
            "limit",
            "client",
            "",
            "a message",
        ])
        .prop_map(Value::from),
        Just(json!(["try again", "later"])),
        Just(json!(["ok", 1])),
        Just(json!({"a": 1, "token": "sk-abcdefghijklmnopqrstuvwx"})),
        Just(json!([])),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, failure_persistence: None, ..ProptestConfig::default() })]

    /// `render_json` reads a normalized error by hand (the component has no
    /// serde derive): it must accept exactly what `Normalized`'s derived
    /// `Deserialize` accepts, and render the same bytes.
    #[test]
    fn render_json_reads_normalized_errors_as_serde_does(
        fields in proptest::collection::vec((
            prop::sample::select(vec![
                "code", "category", "retryable", "retry_after_ms", "http_status", "message",
                "tool", "app_code", "app_type", "expected", "details", "suggestions",
                "evidence", "original", "other",
            ]),
            field_value(),
        ), 0..6),
        base in any::<bool>(),
    ) {
        let mut m = Map::new();
        if base {
            // A valid error to start from, so that many cases get past the required fields.
            m.insert("code".into(), json!("RATE_LIMITED"));
            m.insert("category".into(), json!("limit"));
            m.insert("retryable".into(), json!(true));
            m.insert("message".into(), json!("slow down"));
        }
        for (k, v) in fields {
            m.insert(k.into(), v);
        }
        let text = Value::Object(m).to_string();
        let options = r#"{"profile":"canonical","format":"both"}"#;
        let reference = serde_json::from_str::<mcp_errors::Normalized>(&text)
            .map_err(|e| e.to_string())
            .and_then(|mut n| {
                n.category = n.code.info().category;
                mcp_errors::render(&n, &RenderOptions::from_json(options).unwrap())
                    .map_err(|e| e.to_string())
            });
        let got = mcp_errors::render_json(&text, options);
        match (&reference, &got) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(_), Err(e)) => prop_assert_eq!(e.kind(), "invalid_input", "{}", e),
            _ => prop_assert!(false, "{} -> serde {:?}, render_json {:?}", text, reference, got),
        }
    }
}
