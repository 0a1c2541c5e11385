//! The normalized error: the output of `classify`, the input of `render`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::taxonomy::{Category, Code};

/// One canonical error. Serializes to the canonical JSON the CLIs print;
/// absent values are omitted, never written as `null`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Normalized {
    /// The canonical code.
    pub code: Code,
    /// The code's category (always the table's).
    pub category: Category,
    /// Whether retrying the same call may succeed.
    pub retryable: bool,
    /// How long to wait before retrying, when the error said so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// The HTTP status observed in the raw error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    /// The human-readable message.
    pub message: String,
    /// The tool that failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The tool author's own code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_code: Option<String>,
    /// The tool author's own error type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_type: Option<String>,
    /// True for a deliberate error whose message is safe to show.
    #[serde(default, skip_serializing_if = "is_false")]
    pub expected: bool,
    /// Structured details (an object).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Map<String, Value>>,
    /// Actionable recovery steps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
    /// The signals that decided the classification.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// The upstream response `{status, body}`, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<Value>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Normalized {
    /// Redacted and bounded (see [`crate::redact`]): secrets replaced, stack
    /// traces stripped, strings, nesting and sizes cut. With `for_model`,
    /// local file paths are masked too. Idempotent: sanitizing a sanitized error
    /// changes nothing.
    pub fn sanitized(self, for_model: bool) -> Normalized {
        self.sanitized_with(for_model, &crate::Limits::default())
    }

    /// [`Normalized::sanitized`] with the given limits (pulled into range).
    pub fn sanitized_with(self, for_model: bool, limits: &crate::Limits) -> Normalized {
        use crate::redact::{
            bounded_owned, sanitize_value_with, strip_stack_owned, truncate_owned,
        };
        let limits = limits.clamped();
        // Strings are taken over: one with nothing to redact, mask or cut is
        // kept as it is, without a copy.
        let text = |s: String, max: usize| bounded_owned(s, for_model, max);
        let value = |v: &Value| sanitize_value_with(v, for_model, &limits);
        let details = self.details.map(|d| match value(&Value::Object(d)) {
            Value::Object(m) => m,
            _ => Map::new(),
        });
        Normalized {
            message: text(strip_stack_owned(self.message), limits.max_message_chars),
            tool: self.tool.map(|t| truncate_owned(t, 200)),
            app_code: self.app_code.map(|t| truncate_owned(t, 200)),
            app_type: self.app_type.map(|t| truncate_owned(t, 200)),
            details,
            suggestions: self
                .suggestions
                .into_iter()
                .take(20)
                .map(|s| text(s, 500))
                .collect(),
            evidence: self
                .evidence
                .into_iter()
                .take(20)
                .map(|s| text(s, 300))
                .collect(),
            original: self.original.as_ref().map(value),
            ..self
        }
    }

    /// Read a normalized error from parsed JSON, accepting exactly what its
    /// `Deserialize` accepts (the component does not carry serde's derived
    /// reader: 10 KB). The category is the code's.
    pub(crate) fn from_input(v: &crate::input::Value<'_>) -> Result<Normalized, String> {
        use crate::input::Value as V;
        let V::Object(m) = v else {
            return Err("expected an object".into());
        };
        let wrong = |field: &str, expected: &str| format!("`{field}` must be {expected}");
        let required = |field: &str| {
            m.get(field)
                .ok_or_else(|| format!("missing field `{field}`"))
        };
        // Absent and null are both "none" for an optional field.
        let optional = |field: &str| m.get(field).filter(|v| !v.is_null());
        let string = |field: &str, v: &V<'_>| match v {
            V::String(s) => Ok(s.to_string()),
            _ => Err(wrong(field, "a string")),
        };
        let opt_string = |field: &str| optional(field).map(|v| string(field, v)).transpose();
        let boolean = |field: &str, v: &V<'_>| match v {
            V::Bool(b) => Ok(*b),
            _ => Err(wrong(field, "a boolean")),
        };
        let strings = |field: &str| match m.get(field) {
            None => Ok(Vec::new()),
            Some(V::Array(items)) => items
                .iter()
                .map(|s| string(field, s).map_err(|_| wrong(field, "an array of strings")))
                .collect(),
            Some(_) => Err(wrong(field, "an array of strings")),
        };
        let code = match required("code")? {
            V::String(s) => Code::from_name(s)
                .ok_or_else(|| format!("unknown code {}", crate::json::quoted(s)))?,
            _ => return Err(wrong("code", "a string")),
        };
        match required("category")? {
            V::String(s) if Category::ALL.iter().any(|c| c.name() == s.as_ref()) => {}
            V::String(s) => return Err(format!("unknown category {}", crate::json::quoted(s))),
            _ => return Err(wrong("category", "a string")),
        }
        let retry_after_ms = match optional("retry_after_ms") {
            None => None,
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| wrong("retry_after_ms", "a non-negative integer"))?,
            ),
        };
        let http_status = match optional("http_status") {
            None => None,
            Some(v) => Some(
                v.as_u64()
                    .and_then(|n| u16::try_from(n).ok())
                    .ok_or_else(|| wrong("http_status", "an integer from 0 to 65535"))?,
            ),
        };
        Ok(Normalized {
            code,
            category: code.info().category,
            retryable: boolean("retryable", required("retryable")?)?,
            retry_after_ms,
            http_status,
            message: string("message", required("message")?)?,
            tool: opt_string("tool")?,
            app_code: opt_string("app_code")?,
            app_type: opt_string("app_type")?,
            expected: m
                .get("expected")
                .map_or(Ok(false), |v| boolean("expected", v))?,
            details: match optional("details") {
                None => None,
                Some(V::Object(d)) => Some(d.to_serde()),
                Some(_) => return Err(wrong("details", "an object")),
            },
            suggestions: strings("suggestions")?,
            evidence: strings("evidence")?,
            original: optional("original").map(|v| v.to_serde()),
        })
    }

    /// `code`, `category`, `retryable`, `retry_after_ms`?, `http_status`?:
    /// the fields the canonical object, its JSON text and a log record begin
    /// with.
    pub(crate) fn insert_classification<'s>(&'s self, o: &mut crate::json::Obj<'s>) {
        use crate::json::{key, J};
        o.set(key!("code"), self.code.name());
        o.set(key!("category"), self.category.name());
        o.set(key!("retryable"), self.retryable);
        if let Some(ms) = self.retry_after_ms {
            o.set(key!("retry_after_ms"), J::UInt(ms));
        }
        if let Some(status) = self.http_status {
            o.set(key!("http_status"), J::UInt(u64::from(status)));
        }
    }

    /// The canonical JSON text (one line, fields in a fixed order): byte for
    /// byte what `serde_json::to_string` gives for this struct (a test holds
    /// it to that), written by the crate's own writer, which keeps serde's
    /// serializer out of the component.
    pub fn to_json(&self) -> String {
        use crate::json::{key, Obj, J};
        let mut o = Obj::new();
        self.insert_classification(&mut o);
        o.set(key!("message"), &self.message);
        for (k, v) in [
            (key!("tool"), &self.tool),
            (key!("app_code"), &self.app_code),
            (key!("app_type"), &self.app_type),
        ] {
            if let Some(v) = v {
                o.set(k, v);
            }
        }
        if self.expected {
            o.set(key!("expected"), true);
        }
        if let Some(d) = &self.details {
            o.set(key!("details"), J::Map(d));
        }
        if !self.suggestions.is_empty() {
            o.set(key!("suggestions"), J::Strs(&self.suggestions));
        }
        o.set(key!("evidence"), J::Strs(&self.evidence));
        if let Some(v) = &self.original {
            o.set(key!("original"), J::Val(v));
        }
        J::Obj(o).compact()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `to_json` writes every field as serde's derive does: present,
    /// absent, escaped, nested and float values alike.
    #[test]
    fn to_json_is_serdes_text() {
        let full = Normalized {
            code: Code::RateLimited,
            category: Category::Limit,
            retryable: true,
            retry_after_ms: Some(1500),
            http_status: Some(429),
            message: "slow \"down\"\n\u{1}é".into(),
            tool: Some("t".into()),
            app_code: Some("E_1".into()),
            app_type: Some("Quota".into()),
            expected: true,
            details: serde_json::json!({"a": [1, -2, 2.5, 1e300, null, true], "b": {"c": "d"}})
                .as_object()
                .cloned(),
            suggestions: vec!["wait".into(), "\t".into()],
            evidence: vec!["http 429".into()],
            original: Some(serde_json::json!({"status": 429, "body": "x"})),
        };
        let bare = Normalized {
            retry_after_ms: None,
            http_status: None,
            tool: None,
            app_code: None,
            app_type: None,
            expected: false,
            details: None,
            suggestions: vec![],
            evidence: vec![],
            original: None,
            ..full.clone()
        };
        let empty_details = Normalized {
            details: Some(Map::new()),
            ..bare.clone()
        };
        for n in [full, bare, empty_details] {
            assert_eq!(n.to_json(), serde_json::to_string(&n).unwrap());
        }
    }
}
