//! The one form of a recognizer rule, as JSON, and its parser.
//!
//! The rules the library ships (`rules/*.json`, compiled into tables by
//! `build.rs`) and the rules a user passes (the `rules` option) are read by
//! this same parser; it depends on nothing but `serde_json`, so the build
//! script includes it as it is.
//!
//! A rule is a matcher and a verdict:
//!
//! ```json
//! {"id": "slow-down",
//!  "when": {"path": "body.fault.kind", "equals": "SLOW_DOWN"},
//!  "code": "RATE_LIMITED", "retryable": true,
//!  "retry_after": {"path": "body.fault.wait", "unit": "s"}}
//! ```
//!
//! A table is many rules that differ in one value: `at` names where the
//! value is, `rows` maps each value to its verdict, `when` holds for all.
//!
//! ```json
//! {"id": "sqlstate", "at": ["code", "pgcode"],
//!  "rows": {"23505": {"code": "ALREADY_EXISTS"},
//!           "40001": {"code": "CONFLICT", "retryable": true}}}
//! ```

use serde_json::Value;

/// A parsed rule or table: a single rule is a table with one row whose key
/// is `None` (it matches whenever `when` holds).
#[derive(Debug, Clone, PartialEq)]
pub struct TableSpec {
    pub id: String,
    /// Where the key is: the first location that holds a value gives it.
    pub at: Vec<String>,
    pub take: Take,
    pub when: Vec<CondSpec>,
    /// A named strength tier, when the default (from `at` and `when`) is not right.
    pub tier: Option<String>,
    pub rows: Vec<RowSpec>,
}

/// How a located value is compared with the rows' keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// The value (a string, or a number or boolean as its JSON text) equals the key.
    Exact,
    /// An error class name: the whole name or its last segment (after `.`,
    /// `:` or `$`) equals the key.
    Name,
    /// The text contains the key, in any ASCII case, starting at a word.
    Phrase,
    /// The text's first word (up to a space or `:`) equals the key.
    FirstWord,
    /// The value's first two characters equal the key (SQLSTATE classes).
    Prefix2,
}

impl Take {
    pub const ALL: [(&'static str, Take); 5] = [
        ("exact", Take::Exact),
        ("name", Take::Name),
        ("phrase", Take::Phrase),
        ("first_word", Take::FirstWord),
        ("prefix2", Take::Prefix2),
    ];
}

#[derive(Debug, Clone, PartialEq)]
pub struct RowSpec {
    /// `None` for a single rule.
    pub key: Option<String>,
    pub code: String,
    pub retryable: Option<bool>,
    pub retry_after: Option<DelaySpec>,
}

/// A condition that must hold for a rule to match.
#[derive(Debug, Clone, PartialEq)]
pub enum CondSpec {
    /// The HTTP status is one of these inclusive ranges.
    Status(Vec<(u16, u16)>),
    /// The value at `path` passes `test`.
    Path { path: String, test: TestSpec },
}

#[derive(Debug, Clone, PartialEq)]
pub enum TestSpec {
    /// Equals one of these (strings; numbers and booleans as their JSON text).
    In(Vec<String>),
    /// A class name, whole or its last segment, is one of these.
    NameIn(Vec<String>),
    /// Text containing this phrase (lowercase), any case, at a word start.
    Contains(String),
    /// Text starting with this, any case.
    Prefix(String),
    /// The value is present (`true`) or absent (`false`).
    Exists(bool),
}

#[derive(Debug, Clone, PartialEq)]
pub struct DelaySpec {
    pub path: String,
    /// Milliseconds per unit of the value: 1000 for seconds, 1 for milliseconds.
    pub scale_ms: u32,
}

/// The tiers a rule may name, strongest first (see `signals` for the numbers).
pub const TIERS: [&str; 10] = [
    "user",
    "refine",
    "body",
    "provider",
    "code",
    "code_class",
    "name",
    "status",
    "message",
    "wrapper",
];

/// The strength of a user's rule: above every built-in signal, below an
/// explicit canonical code (100).
pub const USER_STRENGTH: u8 = 99;

/// The strength of a tier: higher wins. The classifier's own signals sit
/// between (explicit code 100, validation 85, HTTP status 50, message words 20).
pub fn tier_strength(tier: &str) -> u8 {
    match tier {
        "user" => USER_STRENGTH,
        // A rule that narrows a provider's code by context (a 413 whose body
        // says rate_limit_exceeded is a request too large).
        "refine" => 84,
        "body" => 82,
        "provider" => 78,
        "code" => 70,
        "code_class" => 66,
        "name" => 60,
        "status" => 48,
        "wrapper" => 30,
        // message: never above a structured signal or the HTTP status
        _ => 40,
    }
}

/// A rule's tier when it names none: from where its key is, else from its
/// first path condition, else (status only) `status`.
pub fn default_tier(spec: &TableSpec) -> &'static str {
    let first = spec.at.first().map(String::as_str).or_else(|| {
        spec.when.iter().find_map(|c| match c {
            CondSpec::Path { path, .. } => Some(path.as_str()),
            CondSpec::Status(_) => None,
        })
    });
    match (spec.take, first) {
        (_, None) => "status",
        (Take::Prefix2, _) => "code_class",
        (Take::Phrase, _) => "message",
        (_, Some(p)) if p == "body" || p.starts_with("body.") || p.starts_with("headers.") => {
            "body"
        }
        (_, Some("name")) => "name",
        (_, Some("message")) => "message",
        _ => "code",
    }
}

/// The most rules (tables) and rows a user rule set may hold: matching stays small.
pub const MAX_USER_RULES: usize = 256;
pub const MAX_USER_ROWS: usize = 4096;

fn err(id: &str, what: impl std::fmt::Display) -> String {
    if id.is_empty() {
        format!("rule: {what}")
    } else {
        format!("rule {id:?}: {what}")
    }
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn texts(id: &str, key: &str, v: &Value) -> Result<Vec<String>, String> {
    let list = match v {
        Value::Array(a) => a.iter().map(text).collect::<Option<Vec<_>>>(),
        other => text(other).map(|t| vec![t]),
    };
    match list {
        Some(l) if !l.is_empty() => Ok(l),
        _ => Err(err(
            id,
            format_args!(
                "`{key}` must be a string, number or boolean, or a non-empty list of them"
            ),
        )),
    }
}

/// A location: `code`, `body.error.code`, `body.errors[].extensions.code`,
/// `headers.retry-after`, `cause.name`. Segments are non-empty; `[]` only
/// ends a segment.
pub fn check_path(id: &str, p: &str) -> Result<(), String> {
    if p.is_empty() || p.len() > 256 {
        return Err(err(id, format_args!("path {p:?} must have 1 to 256 bytes")));
    }
    for seg in p.split('.') {
        let name = seg.strip_suffix("[]").unwrap_or(seg);
        if name.is_empty() || name.contains('[') || name.contains(']') {
            return Err(err(
                id,
                format_args!("path {p:?} has an empty or malformed segment"),
            ));
        }
    }
    if p.starts_with("headers.") && p.split('.').count() != 2 {
        return Err(err(
            id,
            format_args!("path {p:?}: a header path is `headers.NAME`"),
        ));
    }
    Ok(())
}

fn status_ranges(id: &str, v: &Value) -> Result<Vec<(u16, u16)>, String> {
    let one = |v: &Value| -> Option<(u16, u16)> {
        match v {
            Value::Number(n) => {
                let n = n.as_u64().filter(|n| (100..=599).contains(n))? as u16;
                Some((n, n))
            }
            Value::String(s) if s.len() == 3 && s.ends_with("xx") => {
                let d = s.as_bytes()[0];
                (b'1'..=b'5')
                    .contains(&d)
                    .then(|| (u16::from(d - b'0') * 100, u16::from(d - b'0') * 100 + 99))
            }
            _ => None,
        }
    };
    let list = match v {
        Value::Array(a) if !a.is_empty() => a.iter().map(one).collect::<Option<Vec<_>>>(),
        Value::Array(_) => None,
        other => one(other).map(|r| vec![r]),
    };
    list.ok_or_else(|| {
        err(
            id,
            "`status` must be an HTTP status (100-599), a class such as \"5xx\", or a list of them",
        )
    })
}

/// One `when` object: every key in it is a condition, all must hold.
fn conditions(id: &str, v: &Value, out: &mut Vec<CondSpec>) -> Result<(), String> {
    let Value::Object(m) = v else {
        return Err(err(id, "`when` must be an object or a list of objects"));
    };
    let path = match m.get("path") {
        Some(Value::String(p)) => {
            check_path(id, p)?;
            Some(p.clone())
        }
        Some(_) => return Err(err(id, "`path` must be a string")),
        None => None,
    };
    let mut tests = 0;
    for (k, v) in m {
        match k.as_str() {
            "path" => {}
            "status" => out.push(CondSpec::Status(status_ranges(id, v)?)),
            "name" => out.push(CondSpec::Path {
                path: "name".into(),
                test: TestSpec::NameIn(texts(id, k, v)?),
            }),
            "code" => out.push(CondSpec::Path {
                path: "code".into(),
                test: TestSpec::In(texts(id, k, v)?),
            }),
            "message" => out.push(CondSpec::Path {
                path: "message".into(),
                test: TestSpec::Contains(phrase(id, k, v)?),
            }),
            "equals" | "in" | "contains" | "prefix" | "exists" => {
                tests += 1;
                let Some(p) = &path else {
                    return Err(err(id, format_args!("`{k}` needs a `path`")));
                };
                let test = match k.as_str() {
                    "equals" | "in" => TestSpec::In(texts(id, k, v)?),
                    "contains" => TestSpec::Contains(phrase(id, k, v)?),
                    "prefix" => TestSpec::Prefix(phrase(id, k, v)?),
                    _ => match v {
                        Value::Bool(b) => TestSpec::Exists(*b),
                        _ => return Err(err(id, "`exists` must be true or false")),
                    },
                };
                out.push(CondSpec::Path {
                    path: p.clone(),
                    test,
                });
            }
            other => {
                return Err(err(
                    id,
                    format_args!(
                        "unknown condition {other:?} (status, name, code, message, path with equals / in / contains / prefix / exists)"
                    ),
                ))
            }
        }
    }
    if path.is_some() && tests != 1 {
        return Err(err(
            id,
            "a `path` takes exactly one of equals, in, contains, prefix, exists",
        ));
    }
    Ok(())
}

fn phrase(id: &str, key: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) if !s.trim().is_empty() && s.len() <= 256 => Ok(s.to_ascii_lowercase()),
        _ => Err(err(
            id,
            format_args!("`{key}` must be a non-empty string of at most 256 bytes"),
        )),
    }
}

fn delay(id: &str, v: &Value) -> Result<DelaySpec, String> {
    let bad = || {
        err(
            id,
            "`retry_after` must be {\"path\": \"…\", \"unit\": \"s\" or \"ms\"}",
        )
    };
    let Value::Object(m) = v else {
        return Err(bad());
    };
    let path = match m.get("path") {
        Some(Value::String(p)) => {
            check_path(id, p)?;
            p.clone()
        }
        _ => return Err(bad()),
    };
    let scale_ms = match m.get("unit").and_then(Value::as_str) {
        None | Some("s") => 1000,
        Some("ms") => 1,
        Some(_) => return Err(bad()),
    };
    if m.keys().any(|k| k != "path" && k != "unit") {
        return Err(bad());
    }
    Ok(DelaySpec { path, scale_ms })
}

fn verdict(
    id: &str,
    key: Option<String>,
    m: &serde_json::Map<String, Value>,
    codes: &[&str],
) -> Result<RowSpec, String> {
    let code = match m.get("code") {
        Some(Value::String(c)) if codes.contains(&c.as_str()) => c.clone(),
        Some(Value::String(c)) => {
            return Err(err(
                id,
                format_args!("unknown code {c:?} (one of {})", codes.join(", ")),
            ))
        }
        _ => return Err(err(id, "`code` (a canonical code) is required")),
    };
    let retryable = match m.get("retryable") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => return Err(err(id, "`retryable` must be true or false")),
    };
    let retry_after = m.get("retry_after").map(|v| delay(id, v)).transpose()?;
    Ok(RowSpec {
        key,
        code,
        retryable,
        retry_after,
    })
}

/// One rule or table. `codes` are the canonical code names; `ids` a rule
/// needs one (user rules), or takes the position as `#N`.
pub fn parse_rule(v: &Value, index: usize, codes: &[&str]) -> Result<TableSpec, String> {
    let Value::Object(m) = v else {
        return Err(format!("rule #{index}: a rule must be a JSON object"));
    };
    let id = match m.get("id") {
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 128 => s.clone(),
        Some(_) => {
            return Err(format!(
                "rule #{index}: `id` must be a string of 1 to 128 bytes"
            ))
        }
        None => format!("#{index}"),
    };
    let id = id.as_str();
    const KEYS: [&str; 11] = [
        "id",
        "source",
        "when",
        "at",
        "take",
        "tier",
        "rows",
        "code",
        "retryable",
        "retry_after",
        "note",
    ];
    if let Some(k) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(err(id, format_args!("unknown field {k:?}")));
    }
    let mut when = Vec::new();
    match m.get("when") {
        None => {}
        Some(Value::Array(list)) => {
            for c in list {
                conditions(id, c, &mut when)?;
            }
        }
        Some(c) => conditions(id, c, &mut when)?,
    }
    let at = match m.get("at") {
        None => Vec::new(),
        Some(Value::String(p)) => vec![p.clone()],
        Some(Value::Array(a)) if !a.is_empty() && a.len() <= 8 => a
            .iter()
            .map(|p| p.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| err(id, "`at` must be a path or a list of 1 to 8 paths"))?,
        Some(_) => return Err(err(id, "`at` must be a path or a list of 1 to 8 paths")),
    };
    for p in &at {
        check_path(id, p)?;
    }
    let take = match m.get("take") {
        None => Take::Exact,
        Some(Value::String(t)) => Take::ALL
            .iter()
            .find(|(n, _)| n == t)
            .map(|(_, t)| *t)
            .ok_or_else(|| err(id, format_args!("unknown `take` {t:?}")))?,
        Some(_) => return Err(err(id, "`take` must be a string")),
    };
    let tier = match m.get("tier") {
        None => None,
        Some(Value::String(t)) if TIERS.contains(&t.as_str()) && t != "user" => Some(t.clone()),
        Some(_) => {
            return Err(err(
                id,
                format_args!("`tier` must be one of {}", TIERS[1..].join(", ")),
            ))
        }
    };
    let rows = match (m.get("rows"), at.is_empty()) {
        (Some(Value::Object(rows)), false) => {
            if m.contains_key("code") || m.contains_key("retryable") {
                return Err(err(id, "a table gives `code` and `retryable` per row"));
            }
            if rows.is_empty() {
                return Err(err(id, "`rows` is empty"));
            }
            let mut out = Vec::with_capacity(rows.len());
            for (key, row) in rows {
                let Value::Object(r) = row else {
                    return Err(err(id, format_args!("row {key:?} must be an object")));
                };
                if let Some(k) = r.keys().find(|k| {
                    !["code", "retryable", "retry_after", "note", "source"].contains(&k.as_str())
                }) {
                    return Err(err(id, format_args!("row {key:?}: unknown field {k:?}")));
                }
                let key = if take == Take::Phrase {
                    key.to_ascii_lowercase()
                } else {
                    key.clone()
                };
                if key.is_empty() || key.len() > 256 {
                    return Err(err(id, "a row key must have 1 to 256 bytes"));
                }
                let mut row = verdict(id, Some(key), r, codes)?;
                if row.retry_after.is_none() {
                    row.retry_after = m.get("retry_after").map(|v| delay(id, v)).transpose()?;
                }
                out.push(row);
            }
            out
        }
        (None, true) => {
            if when.is_empty() {
                return Err(err(id, "`when` must hold at least one condition"));
            }
            vec![verdict(id, None, m, codes)?]
        }
        (Some(_), true) => return Err(err(id, "`rows` needs `at`")),
        (_, false) => return Err(err(id, "`at` needs `rows` (an object of value -> verdict)")),
    };
    if take == Take::Phrase
        && rows.iter().any(|r| {
            r.key
                .as_deref()
                .is_some_and(|k| k.len() < 2 || !k.as_bytes()[0].is_ascii_alphanumeric())
        })
    {
        return Err(err(
            id,
            "a phrase key has two bytes or more and starts with a letter or digit",
        ));
    }
    Ok(TableSpec {
        id: id.to_string(),
        at,
        take,
        when,
        tier,
        rows,
    })
}

/// A user rule set: a JSON array of rules (or `{"rules": [...]}`).
pub fn parse_rules(v: &Value, codes: &[&str]) -> Result<Vec<TableSpec>, String> {
    let list = match v {
        Value::Array(a) => a,
        Value::Object(m) if m.len() == 1 && m.get("rules").is_some_and(Value::is_array) => {
            m["rules"].as_array().expect("checked")
        }
        _ => return Err("rules must be a JSON array of rules".into()),
    };
    if list.len() > MAX_USER_RULES {
        return Err(format!(
            "rules: {} rules; at most {MAX_USER_RULES}",
            list.len()
        ));
    }
    let mut out = Vec::with_capacity(list.len());
    let mut rows = 0;
    for (i, r) in list.iter().enumerate() {
        let t = parse_rule(r, i, codes)?;
        rows += t.rows.len();
        if rows > MAX_USER_ROWS {
            return Err(format!("rules: more than {MAX_USER_ROWS} rows in all"));
        }
        out.push(t);
    }
    Ok(out)
}

/// A shipped rule file: `{"family", "tag", "source", "rules": [...]}`.
#[derive(Debug, Clone, PartialEq)]
pub struct FileSpec {
    pub family: String,
    pub tag: String,
    pub source: String,
    pub rules: Vec<TableSpec>,
}

pub fn parse_file(v: &Value, codes: &[&str]) -> Result<FileSpec, String> {
    let field = |k: &str| -> Result<String, String> {
        v.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .ok_or_else(|| format!("a rule file needs a non-empty `{k}`"))
    };
    let (family, tag, source) = (field("family")?, field("tag")?, field("source")?);
    let Some(Value::Array(list)) = v.get("rules") else {
        return Err("a rule file needs `rules`, a list".into());
    };
    let rules = list
        .iter()
        .enumerate()
        .map(|(i, r)| parse_rule(r, i, codes).map_err(|e| format!("{tag}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FileSpec {
        family,
        tag,
        source,
        rules,
    })
}
