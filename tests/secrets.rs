//! The secret corpus: every secret shape, in every position of a raw error,
//! through every profile × format × target (and classify itself): zero leaks.

use mcp_errors::{
    classify_render, classify_str, ClassifyOptions, Format, Profile, RenderOptions, SpecRevision,
    Target,
};
use serde_json::json;

/// (secret, the part of it that must never appear)
const SECRETS: &[(&str, &str)] = &[
    ("AKIAIOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"),
    ("ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "A1b2C3d4E5f6G7h8I9j0"),
    ("gho_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "A1b2C3d4E5f6G7h8I9j0"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", "11ABCDEFG0123456789"),
    ("xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "AbCdEfGhIjKlMnOpQrStUvWx"),
    ("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "XXXXXXXXXXXXXXXXXXXXXXXX"),
    ("sk_live_51HqLyjWDarjtT1zdp7dcXYZ123", "51HqLyjWDarjtT1zdp7dc"),
    ("rk_test_51HqLyjWDarjtT1zdp7dcXYZ123", "51HqLyjWDarjtT1zdp7dc"),
    ("sk-proj-AbCdEf1234567890GhIjKlMnOpQrStUv", "AbCdEf1234567890GhIj"),
    ("sk-ant-api03-AbCdEf1234567890GhIjKlMnOpQrStUv-xyz", "AbCdEf1234567890GhIj"),
    ("AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "SyA1b2C3d4E5f6G7h8I9"),
    ("glpat-AbCdEf1234567890GhIj", "AbCdEf1234567890GhIj"),
    ("npm_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "A1b2C3d4E5f6G7h8I9j0"),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "dozjgNryP4J3jVmNHl0w5N"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq98vZ\n-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA7bq98vZ"),
    ("Bearer abcDEF123456ghiJKL", "abcDEF123456ghiJKL"),
    ("Basic dXNlcjpodW50ZXIyMjI=", "dXNlcjpodW50ZXIyMjI"),
    ("postgres://admin:hunter2secret@db.internal:5432/app", "hunter2secret"),
    ("https://api.example.com/v1?access_token=tok9876543210zyx&x=1", "tok9876543210zyx"),
    ("https://bucket.s3.amazonaws.com/k?X-Amz-Signature=abcdef0123456789sig&X-Amz-Credential=AKIDCRED123", "abcdef0123456789sig"),
    ("client_secret=cs_0123456789abcdef", "cs_0123456789abcdef"),
    ("password=hunter2hunter2", "hunter2hunter2"),
];

/// Every place a secret can hide in a raw error.
fn positions(secret: &str) -> Vec<serde_json::Value> {
    vec![
        json!({"message": format!("request failed: {secret}")}),
        json!({"status": 500, "body": format!("upstream said {secret}")}),
        json!({"status": 400, "body": {"error": {"message": format!("bad: {secret}"), "debug": {"deep": [secret]}}}}),
        json!({"message": "x", "details": {"request": {"url": secret, "notes": [format!("{secret} again")]}}}),
        json!({"status": 401, "headers": {"Authorization": secret, "X-Api-Key": secret, "Cookie": secret}}),
        json!({"status": 401, "headers": [["authorization", secret], ["set-cookie", secret]]}),
        json!({"name": "TypeError", "message": "fetch failed", "cause": {"message": format!("connect to {secret}"), "code": "ECONNREFUSED"}}),
        json!({"message": "x", "config": {"password": secret, "token": secret, "api_key": secret}}),
        json!({"message": "y", "suggestions": [format!("retry with {secret}")], "app_code": "E1"}),
        json!({"message": "z", "response": {"status": 403, "data": {"session": secret, "csrf_token": secret}}}),
        json!({"message": "w", "stack": format!("Error: w\n    at f ({secret}:1:1)")}),
    ]
}

#[test]
fn no_secret_survives_any_profile_format_or_target() {
    let mut checked = 0;
    let mut leaks = Vec::new();
    for (secret, core) in SECRETS {
        for raw in positions(secret) {
            let raw = raw.to_string();
            let normalized = classify_str(&raw, &ClassifyOptions::default())
                .unwrap()
                .to_json();
            if normalized.contains(core) {
                leaks.push(format!("classify: {core} in {normalized}"));
            }
            for profile in Profile::ALL {
                for format in Format::ALL {
                    for target in Target::ALL {
                        let options = RenderOptions {
                            profile: *profile,
                            format: *format,
                            target: *target,
                            spec: SpecRevision::V20251125,
                            now: Some("2025-10-27T14:32:15Z".into()),
                            ..RenderOptions::default()
                        };
                        let out = classify_render(&raw, &options).unwrap();
                        checked += 1;
                        if out.contains(core) {
                            leaks.push(format!(
                                "{} {} {}: {core} in {out}",
                                profile.name(),
                                format.name(),
                                target.name()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
    assert!(
        leaks.is_empty(),
        "{} leaks, e.g.:\n{}",
        leaks.len(),
        leaks[..leaks.len().min(5)].join("\n")
    );
}

#[test]
fn huge_inputs_give_bounded_results() {
    let body = "x".repeat(10 * 1024 * 1024);
    let raw = json!({"status": 502, "body": body, "message": "m".repeat(100_000)}).to_string();
    let headers: Vec<_> = (0..100_000)
        .map(|i| json!([format!("x-h{i}"), "v"]))
        .collect();
    let raw_headers = json!({"status": 503, "headers": headers}).to_string();
    for raw in [raw, raw_headers] {
        let n = classify_str(&raw, &ClassifyOptions::default()).unwrap();
        assert!(n.to_json().len() < 64 * 1024, "{}", n.to_json().len());
        for profile in Profile::ALL {
            let options = RenderOptions {
                profile: *profile,
                format: Format::Both,
                now: Some("2025-10-27T14:32:15Z".into()),
                ..RenderOptions::default()
            };
            let out = classify_render(&raw, &options).unwrap();
            assert!(out.len() <= 64 * 1024 + 16 * 1024, "{} bytes", out.len());
            serde_json::from_str::<serde_json::Value>(&out).unwrap();
        }
    }
    let n = classify_str(
        &json!({"message": "m".repeat(100_000)}).to_string(),
        &ClassifyOptions::default(),
    )
    .unwrap();
    assert!(
        n.message.ends_with("…[truncated; 100000 bytes in all]"),
        "{}",
        &n.message[n.message.len() - 40..]
    );
}
