//! What classification gathers while it walks a raw error, and the options
//! it reads: shared by `classify` (which decides) and `signals` (which reads
//! a node), so neither depends on the other's internals.

use crate::taxonomy::Code;
use crate::text::TrimFast;
use crate::time;

/// How decisive a signal is. Higher wins.
pub(crate) type Strength = u8;

/// Options for classification: what the host knows that the core cannot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassifyOptions {
    /// The current time in milliseconds since the epoch, for HTTP-date `Retry-After`.
    pub now_ms: Option<i64>,
    /// Bounds on the normalized error's message, details and original.
    pub limits: crate::Limits,
    /// The user's recognizer rules: they beat every built-in signal (an
    /// explicit canonical `code` in the raw error still wins).
    pub rules: crate::rules::UserRules,
}

/// A candidate classification from one signal.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub code: Code,
    pub strength: Strength,
    pub depth: usize,
    pub order: usize,
    pub evidence: String,
    /// A rule's own retry verdict, used when this candidate wins.
    pub retry: Option<bool>,
}

/// Everything gathered while walking the raw error.
#[derive(Debug, Default)]
pub(crate) struct Gathered {
    pub candidates: Vec<Candidate>,
    /// Retry delay and its evidence; the first (outermost, most specific) wins.
    pub retry_after: Option<(u64, String)>,
    /// An explicit retryability verdict (header or hint) and its evidence.
    pub retry_verdict: Option<(bool, String, u8)>,
    /// A TLS certificate failure was seen (never retryable).
    pub tls: Option<String>,
    /// A host name that does not resolve was seen (never retryable).
    pub unresolved: Option<String>,
    /// The error (or a cause) is a validation library's class (ZodError,
    /// pydantic's ValidationError).
    pub validation_class: bool,
    pub http_status: Option<u16>,
    pub body_message: Option<String>,
    /// The error names a long quota window (per day, per month, billing):
    /// a rate limit that says so is a spent quota.
    pub quota_window: Option<String>,
    /// A window the error states in a structured field (Google's
    /// `QuotaFailure`): `true` for a long one. It overrules words.
    pub window_structured: Option<(bool, String)>,
    /// Skip writing evidence lines (they are empty): for results that never
    /// show them. What is decided does not depend on them.
    pub quiet: bool,
    /// The current time (the host's `now`), for a time a message states.
    pub now_ms: Option<i64>,
    /// Why a stated delay was not taken (an impossible `Retry-After` date):
    /// the first, for the evidence.
    pub ignored_delay: Option<String>,
    /// Words that named two codes equally and so decided nothing, for the
    /// evidence of an error nothing else decided ("words tie NOT_FOUND GONE").
    pub words_tie: Option<String>,
}

impl Gathered {
    pub(crate) fn push(&mut self, code: Code, strength: Strength, depth: usize, evidence: String) {
        let order = self.candidates.len();
        self.candidates.push(Candidate {
            code,
            strength,
            depth,
            order,
            evidence,
            retry: None,
        });
    }

    /// A rule's candidate, with its retry verdict.
    pub(crate) fn push_rule(
        &mut self,
        code: Code,
        strength: Strength,
        depth: usize,
        evidence: String,
        retry: Option<bool>,
    ) {
        self.push(code, strength, depth, evidence);
        if let Some(c) = self.candidates.last_mut() {
            c.retry = retry;
        }
    }

    /// The first delay stated wins, except that a finer one refines a
    /// whole-second `Retry-After` it rounds up to (Discord sends
    /// `Retry-After: 65` with `retry_after: 64.57`).
    pub(crate) fn retry_after(&mut self, ms: u64, evidence: String) {
        match &self.retry_after {
            None => self.retry_after = Some((ms, evidence)),
            Some((have, _)) if have % 1000 == 0 && ms < *have && have - ms < 1000 => {
                self.retry_after = Some((ms, evidence));
            }
            Some(_) => {}
        }
    }

    /// Record an explicit retry verdict; a higher `rank` wins, then the first one.
    pub(crate) fn verdict(&mut self, retry: bool, evidence: String, rank: u8) {
        match &self.retry_verdict {
            Some((_, _, r)) if *r >= rank => {}
            _ => self.retry_verdict = Some((retry, evidence, rank)),
        }
    }
}

/// Parse a `Retry-After` value: delay seconds or an HTTP-date (needs `now`).
pub(crate) fn parse_retry_after(v: &str, now_ms: Option<i64>) -> Result<u64, RetryAfter> {
    let v = v.trim_fast();
    if v.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return crate::text::parse_decimal(v, 3)
            .map(|ms| ms.min(u64::MAX / 2))
            .ok_or(RetryAfter::Unreadable);
    }
    let at = time::parse_http_date(v).ok_or(RetryAfter::Unreadable)?;
    let now = now_ms.ok_or(RetryAfter::NoNow)?;
    Ok(at.saturating_sub(now).max(0) as u64)
}

/// Why a `Retry-After` value gives no delay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RetryAfter {
    /// Neither seconds nor an HTTP-date that exists (`Mon, 31 Feb 2025 …`).
    Unreadable,
    /// An HTTP-date, but the host gave no `now` to count from.
    NoNow,
}
