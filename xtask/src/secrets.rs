//! The redaction corpus (`eval/secrets/`): credentials of every kind in
//! `rules/credentials.json`, generated from their documented formats with a
//! fixed seed, placed where errors carry them (`eval/secrets/places.json`),
//! and benign look-alikes (`eval/secrets/lookalikes.json`) that must come out
//! untouched. Every output path is checked: the normalized error, each
//! profile's tool result, the log record, the JSON-RPC error, and `parse` of a
//! server result that carries the secret.
//!
//! A leak is the secret's value, or its distinctive body, found in an output;
//! an over-redaction is a look-alike that does not come out whole.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use crate::Result;

/// At most this share of look-alikes may be over-redacted.
const MAX_OVER_REDACTED: f64 = 0.01;

#[derive(Default)]
pub struct Figures {
    pub leaks: usize,
    pub kinds: usize,
    pub placed: usize,
    pub over: usize,
    pub lookalikes: usize,
    pub leaked_kinds: BTreeSet<String>,
}

impl Figures {
    pub fn line(&self) -> String {
        format!(
            "eval-secrets: {} leaks over {} kinds, {}/{} look-alikes over-redacted",
            self.leaks, self.kinds, self.over, self.lookalikes
        )
    }

    pub fn summary(&self) -> String {
        format!(
            "{} leaks of {} secrets of {} kinds placed where errors carry them, {}/{} benign look-alikes over-redacted",
            self.leaks, self.placed, self.kinds, self.over, self.lookalikes
        )
    }

    pub fn failures(&self) -> Vec<String> {
        let mut f = Vec::new();
        if self.leaks > 0 {
            f.push(format!(
                "eval-secrets: {} leaks ({} kinds: {})",
                self.leaks,
                self.leaked_kinds.len(),
                self.leaked_kinds
                    .iter()
                    .take(20)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if self.over as f64 > MAX_OVER_REDACTED * self.lookalikes as f64 {
            f.push(format!(
                "eval-secrets: {}/{} look-alikes over-redacted (at most 1 %)",
                self.over, self.lookalikes
            ));
        }
        f
    }
}

/// A small deterministic generator (SplitMix64): the same corpus every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The characters of an alphabet named in `rules/credentials.json`.
pub fn alphabet(name: &str) -> Option<&'static str> {
    const UP: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const LOW: &str = "abcdefghijklmnopqrstuvwxyz";
    const DIG: &str = "0123456789";
    Some(match name {
        "alnum" => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        "alnum_" => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_",
        "alnum-" => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-",
        "alnum_-" | "base64url" => {
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
        }
        "base64" => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        "hex" => "0123456789abcdefABCDEF",
        "hex_lower" => "0123456789abcdef",
        "hex_upper" => "0123456789ABCDEF",
        "upper_alnum" => "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        "lower_alnum" => "abcdefghijklmnopqrstuvwxyz0123456789",
        "digits" => DIG,
        "upper" => UP,
        "lower" => LOW,
        _ => return None,
    })
}

fn body(rng: &mut Rng, alpha: &str, len: usize) -> String {
    let chars: Vec<char> = alpha.chars().collect();
    // Mixed enough to look like a real token: not all one class.
    (0..len).map(|_| chars[rng.below(chars.len())]).collect()
}

fn span(rng: &mut Rng, spec: &Value) -> Result<usize> {
    if let Some(n) = spec.get("length").and_then(Value::as_u64) {
        return Ok(n as usize);
    }
    let lo = spec.get("min_length").and_then(Value::as_u64).unwrap_or(16) as usize;
    let hi = spec
        .get("max_length")
        .and_then(Value::as_u64)
        .map_or(lo.max(40), |h| h as usize)
        .max(lo);
    Ok(lo + rng.below(hi - lo + 1))
}

/// One credential of a format row.
fn generate(rng: &mut Rng, row: &Value) -> Result<String> {
    let id = row.get("id").and_then(Value::as_str).unwrap_or("?");
    let mut out = String::new();
    if row.get("kind").and_then(Value::as_str) == Some("pem") {
        let lines: Vec<String> = (0..6)
            .map(|_| body(rng, alphabet("base64").unwrap_or(""), 64))
            .collect();
        let begin = row.get("prefix").and_then(Value::as_str).unwrap_or("");
        let end = row.get("suffix").and_then(Value::as_str).unwrap_or("");
        return Ok(format!("{begin}\n{}\n{end}", lines.join("\n")));
    }
    // Characters before the prefix that belong to the key (Microsoft's identifiable keys).
    if let Some(b) = row.get("before") {
        let a = b
            .get("alphabet")
            .and_then(Value::as_str)
            .and_then(alphabet)
            .ok_or_else(|| format!("{id}: `before` without a known alphabet"))?;
        let n = b.get("length").and_then(Value::as_u64).unwrap_or(0) as usize;
        out.push_str(&body(rng, a, n));
    }
    out.push_str(row.get("prefix").and_then(Value::as_str).unwrap_or(""));
    match row.get("segments").and_then(Value::as_array) {
        Some(segs) => {
            for s in segs {
                if let Some(sep) = s.get("sep").and_then(Value::as_str) {
                    out.push_str(sep);
                    continue;
                }
                if let Some(lit) = s.get("literal").and_then(Value::as_str) {
                    out.push_str(lit);
                    continue;
                }
                let a = s
                    .get("alphabet")
                    .and_then(Value::as_str)
                    .and_then(alphabet)
                    .ok_or_else(|| format!("{id}: a segment without a known alphabet"))?;
                let n = span(rng, s)?;
                out.push_str(&body(rng, a, n));
            }
        }
        None => {
            let a = row
                .get("alphabet")
                .and_then(Value::as_str)
                .and_then(alphabet)
                .ok_or_else(|| format!("{id}: no known alphabet"))?;
            let n = span(rng, row)?;
            out.push_str(&body(rng, a, n));
        }
    }
    out.push_str(row.get("suffix").and_then(Value::as_str).unwrap_or(""));
    Ok(out)
}

/// The raw error that carries `value` in `field` (`cause.message` at `depth`).
fn raw_error(field: &str, depth: u64, value: Value) -> Value {
    match field {
        "body" => json!({"status": 401, "message": "request failed", "body": value}),
        "headers" => json!({"status": 401, "message": "request failed", "headers": value}),
        "details" => json!({"message": "request failed", "details": value}),
        "cause.message" => {
            let mut node = json!({"message": value});
            for _ in 1..depth.max(1) {
                node = json!({"message": "wrapped", "cause": node});
            }
            json!({"message": "request failed", "cause": node})
        }
        _ => json!({"message": value}),
    }
}

/// Fill a template: `{SECRET}` and `{KEYNAME}` in strings and keys, at any depth.
fn fill(template: &Value, secret: &str, keyname: &str) -> Value {
    let text = |s: &str| s.replace("{SECRET}", secret).replace("{KEYNAME}", keyname);
    match template {
        Value::String(s) => Value::String(text(s)),
        Value::Array(a) => Value::Array(a.iter().map(|v| fill(v, secret, keyname)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (text(k), fill(v, secret, keyname)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(A[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The secret written as the place's `encoding` says (`places.json`).
fn encode(secret: &str, encoding: &str) -> String {
    let json_string = |s: &str| {
        let q = Value::String(s.to_string()).to_string();
        q[1..q.len() - 1].to_string()
    };
    match encoding {
        "percent" => secret
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                    char::from(b).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect(),
        "basic-auth" => base64(format!("deploy:{secret}").as_bytes()),
        "shell" => {
            if secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./:@%+=,".contains(&b))
            {
                secret.to_string()
            } else {
                format!("'{}'", secret.replace('\'', "'\\''"))
            }
        }
        "json-string" => json_string(secret),
        "json-string-twice" => json_string(&json_string(secret)),
        "yaml-single-quoted" => secret.replace('\'', "''"),
        "xml-attribute" => secret
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('"', "&quot;"),
        "java-properties" => {
            let mut out = String::new();
            for (i, c) in secret.chars().enumerate() {
                if matches!(c, '\\' | '=' | ':' | '#' | '!') || (i == 0 && c == ' ') {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        }
        "python-repr" => secret.replace('\\', "\\\\").replace('\'', "\\'"),
        "html" => secret
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;"),
        _ => secret.to_string(),
    }
}

/// Every output a raw error reaches, as text.
fn outputs(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let opts = mcp_errors::ClassifyOptions::default();
    if let Ok(n) = mcp_errors::classify_str(raw, &opts) {
        out.push(n.to_json());
    }
    for profile in [
        "canonical",
        "tool-error-v1",
        "mcp-tool-error",
        "text",
        "error-object",
        "rpc-envelope",
    ] {
        for target in ["tool-result", "soft-result", "protocol-error", "log-record"] {
            let o = json!({"profile": profile, "target": target, "format": "both", "now": "2026-01-01T00:00:00Z", "error_id": "err_1"});
            if let Ok(s) = mcp_errors::classify_render_json(raw, &o.to_string()) {
                out.push(s);
            }
        }
    }
    // A server that sent the secret back in its result: what parse gives.
    let result = json!({"content": [{"type": "text", "text": raw}], "isError": true});
    if let Ok(Some(s)) = mcp_errors::parse_result_json(&result.to_string(), &opts) {
        out.push(s);
    }
    out
}

/// The forms of a secret that must not appear in any output: itself, as
/// placed, as a JSON string holds each, its distinctive body (after a
/// documented prefix), and a PEM block's base64 lines.
fn forms(secret: &str, placed: &str, prefix: &str) -> Vec<String> {
    let mut f = vec![secret.to_string(), placed.to_string()];
    for s in [secret, placed] {
        let escaped = Value::String(s.to_string()).to_string();
        f.push(escaped[1..escaped.len() - 1].to_string());
    }
    let body = secret.strip_prefix(prefix).unwrap_or(secret);
    if body.len() >= 8 && body != secret {
        f.push(body.to_string());
    }
    for line in secret
        .lines()
        .filter(|l| l.len() >= 40 && !l.starts_with("-----"))
    {
        f.push(line.to_string());
    }
    f.retain(|x| !x.is_empty());
    f
}

fn read(path: &std::path::Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    Ok(serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?)
}

/// One secret to place: its kind's id, what fills `{SECRET}`, its prefix,
/// what kind of place takes it, and the name it is given under (if any).
struct Secret {
    id: String,
    value: String,
    prefix: String,
    kind: &'static str,
    keyname: Option<String>,
}

/// Three credentials of a format row, to be placed.
fn three_of(
    rng: &mut Rng,
    row: &Value,
    kind: &'static str,
    keyname: Option<&str>,
) -> Result<Vec<Secret>> {
    let text = |k: &str| row.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    (0..3)
        .map(|_| {
            Ok(Secret {
                value: generate(rng, row)?,
                prefix: text("prefix"),
                kind,
                keyname: keyname.map(str::to_string),
                id: text("id"),
            })
        })
        .collect()
}

pub fn eval(misses: bool) -> Result<Figures> {
    let root = crate::root();
    let mut f = Figures::default();
    let formats = read(&root.join("rules").join("credentials.json"))?;
    let places_file = read(&root.join("eval").join("secrets").join("places.json"))?;
    let lookalikes = read(&root.join("eval").join("secrets").join("lookalikes.json"))?;
    let places = places_file
        .get("places")
        .and_then(Value::as_array)
        .ok_or("eval/secrets/places.json: no list of places")?
        .clone();
    let mut rng = Rng(std::env::var("MCP_ERRORS_SECRETS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6d63_702d_6572_7273)); // "mcp-errs"
    let mut secrets: Vec<Secret> = Vec::new();
    let empty = Vec::new();
    for row in formats
        .get("formats")
        .and_then(Value::as_array)
        .unwrap_or(&empty)
    {
        let pem = row.get("kind").and_then(Value::as_str) == Some("pem");
        f.kinds += 1;
        secrets.extend(three_of(
            &mut rng,
            row,
            if pem { "pem" } else { "token" },
            None,
        )?);
    }
    for row in formats
        .get("keyword_only")
        .and_then(Value::as_array)
        .unwrap_or(&empty)
    {
        // Named as an identifier names it: an environment variable, a header, a field.
        let Some(keyname) = row
            .get("keywords")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .find(|k| {
                k.bytes()
                    .any(|b| b.is_ascii_uppercase() || b == b'_' || b == b'-')
                    && !k.contains(' ')
            })
        else {
            continue;
        };
        f.kinds += 1;
        secrets.extend(three_of(&mut rng, row, "token", Some(keyname))?);
    }
    for p in places_file
        .get("passwords")
        .and_then(Value::as_array)
        .unwrap_or(&empty)
    {
        let Some(p) = p.as_str() else { continue };
        f.kinds += 1;
        for _ in 0..3 {
            secrets.push(Secret {
                value: p.to_string(),
                prefix: String::new(),
                kind: "password",
                keyname: None,
                id: "password".into(),
            });
        }
    }
    for secret in &secrets {
        let fitting: Vec<&Value> = places
            .iter()
            .filter(|p| {
                let want = p.get("secret").and_then(Value::as_str).unwrap_or("any");
                let named = p
                    .get("template")
                    .is_some_and(|t| t.to_string().contains("{KEYNAME}"));
                // A credential whose prefix holds a space is a scheme or a
                // config line (`SSWS 00…`, `PrivateKey = …`): it stands in
                // prose, not in a query or a cookie.
                let scheme = secret.prefix.contains(' ');
                let prose = p.get("field").and_then(Value::as_str) == Some("message")
                    && p.get("encoding").and_then(Value::as_str) == Some("raw")
                    && !p
                        .get("id")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .starts_with("cmd-");
                (want == secret.kind || (want == "any" && secret.kind != "pem"))
                    && (secret.keyname.is_none() || named)
                    && (!scheme || prose)
            })
            .collect();
        if fitting.is_empty() {
            continue;
        }
        let place = fitting[rng.below(fitting.len())];
        let field = place
            .get("field")
            .and_then(Value::as_str)
            .unwrap_or("message");
        let depth = place.get("depth").and_then(Value::as_u64).unwrap_or(1);
        let encoding = place
            .get("encoding")
            .and_then(Value::as_str)
            .unwrap_or("raw");
        let Some(template) = place.get("template") else {
            continue;
        };
        let keyname = match &secret.keyname {
            Some(k) => k.clone(),
            None => {
                let names: Vec<&str> = place
                    .get("keynames")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                if names.is_empty() {
                    "api_key".to_string()
                } else {
                    names[rng.below(names.len())].to_string()
                }
            }
        };
        let placed = encode(&secret.value, encoding);
        let raw = raw_error(field, depth, fill(template, &placed, &keyname)).to_string();
        f.placed += 1;
        let forms = forms(&secret.value, &placed, &secret.prefix);
        if let Some(out) = outputs(&raw)
            .into_iter()
            .find(|o| forms.iter().any(|s| o.contains(s.as_str())))
        {
            f.leaks += 1;
            f.leaked_kinds.insert(secret.id.clone());
            if misses {
                let place_id = place.get("id").and_then(Value::as_str).unwrap_or("?");
                println!(
                    "leak {} at {place_id}: {}",
                    secret.id,
                    out.chars().take(400).collect::<String>()
                );
            }
        }
    }
    let list = lookalikes
        .get("lookalikes")
        .and_then(Value::as_array)
        .ok_or("eval/secrets/lookalikes.json: no list")?;
    for l in list {
        let text = l.get("text").and_then(Value::as_str).unwrap_or("");
        f.lookalikes += 1;
        let raw = json!({"message": text}).to_string();
        let n = mcp_errors::classify_str(&raw, &mcp_errors::ClassifyOptions::default());
        let kept = n.is_ok_and(|n| n.message.contains(text));
        if !kept {
            f.over += 1;
            if misses {
                println!(
                    "over-redacted {}: {text}",
                    l.get("id").and_then(Value::as_str).unwrap_or("?")
                );
            }
        }
    }
    Ok(f)
}
