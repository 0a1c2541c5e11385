//! `classify`: a raw error (any JSON) in, one normalized error out.
//!
//! The raw error is read as a tree of nodes: the error itself, its `cause`
//! chain and its `errors` members (AggregateError, ExceptionGroup). Every node
//! yields *signals*: a candidate code with a strength and a line of evidence.
//! The strongest signal wins (ties go to the outermost node); the signals that
//! agree with it, and what decided retryability and the retry delay, become
//! the `evidence`.

use std::borrow::Cow;

use crate::input::{Map, Value};
use crate::text::TrimFast;

use crate::gather::{Candidate, Gathered};
use crate::normalized::Normalized;
use crate::signals::{self, Field};
use crate::taxonomy::Code;

pub use crate::gather::ClassifyOptions;

/// A wait this long (an hour) makes a rate limit a spent quota.
const QUOTA_WAIT_MS: u64 = 3_600_000;
/// The strongest signal of a spent quota a short stated wait overrules: a
/// quota read in a message, or a status (a provider's own code is stronger).
const SHORT_WAIT_MAX: crate::gather::Strength = 55;
/// A user's rule: a window does not overrule it.
const USER_RULE: crate::gather::Strength = crate::rules::form::USER_STRENGTH;

/// How far `cause` chains and `errors` members are followed.
pub const MAX_DEPTH: usize = 16;
/// How many nodes of a cause tree are read at most.
pub const MAX_NODES: usize = 64;

/// Raw-error fields the classifier reads; every other top-level field is kept in `details`.
/// Stack traces are never kept: not for the model, not for the log.
const STACK_FIELDS: &[&str] = &[
    "stack",
    "stacktrace",
    "stack_trace",
    "traceback",
    "backtrace",
];

pub(crate) const KNOWN_FIELDS: &[&str] = &[
    "status",
    "statusCode",
    "status_code",
    "http_status",
    "headers",
    "body",
    "response",
    "original",
    "name",
    "code",
    "errno",
    "message",
    "cause",
    "errors",
    "tool",
    "app_code",
    "app_type",
    "details",
    "suggestions",
    "expected",
    "input_validated",
    "retryable",
    "retry_after_ms",
    "category",
    "evidence",
    "stack",
    "traceback",
    "$metadata",
];

/// Classify a raw error given as JSON text.
pub fn classify_str(raw: &str, opts: &ClassifyOptions) -> Result<Normalized, crate::Error> {
    opts.limits.checked()?;
    Ok(classify_sanitized(crate::parse_input(raw)?, opts))
}

/// Classify a raw error given as a JSON value. Never fails: anything that is
/// not an object is read as well as it can be (a string is a message, a number
/// a code, an array the members of an aggregate). Limits out of range are
/// pulled into range.
pub fn classify_value(value: &serde_json::Value, opts: &ClassifyOptions) -> Normalized {
    classify_sanitized(Value::from_serde(value), opts)
}

/// Classify with evidence, then redact and bound (limits pulled into range).
fn classify_sanitized(value: Value<'_>, opts: &ClassifyOptions) -> Normalized {
    classify_unsanitized(value, opts, true).sanitized_with(false, &opts.limits)
}

/// [`classify_value`] before redaction and bounds: for callers that sanitize
/// the result themselves (rendering does), so the work is done once. Without
/// `evidence` the result has none (rendering anything but a log record drops
/// it), and no evidence line is written.
pub(crate) fn classify_unsanitized(
    value: Value<'_>,
    opts: &ClassifyOptions,
    evidence: bool,
) -> Normalized {
    let owned = match value {
        Value::Object(map) => map,
        Value::String(_) => Map::single("message", value),
        Value::Number(_) => Map::single("code", value),
        Value::Array(_) => Map::single("errors", value),
        Value::Null | Value::Bool(_) => Map::new(),
    };
    let root = &owned;

    let mut g = Gathered {
        quiet: !evidence,
        now_ms: opts.now_ms,
        // A typical error gathers five to ten: no growing on the way.
        candidates: Vec::with_capacity(12),
        ..Gathered::default()
    };
    walk(root, opts, &mut g);

    // The winner: strongest, then outermost, then first seen.
    let winner = g
        .candidates
        .iter()
        .min_by(|a, b| {
            b.strength
                .cmp(&a.strength)
                .then(a.depth.cmp(&b.depth))
                .then(a.order.cmp(&b.order))
        })
        .cloned();
    // The error's words, read once when a step needs them (most errors a
    // specific signal decides need none).
    let mut words = None;
    let winner = read_words(root, winner, &mut g, &mut words);
    let mut code = winner.as_ref().map_or(Code::Unknown, |c| c.code);
    // A rate limit over a long window (per day, per month, a billing limit)
    // or with a wait of an hour or more is a spent quota: retrying soon
    // will not help. A user's rule or an explicit code is taken as it is.
    let long_wait = g
        .retry_after
        .as_ref()
        .is_some_and(|(ms, _)| *ms >= QUOTA_WAIT_MS);
    let window =
        if code == Code::RateLimited && winner.as_ref().is_some_and(|w| w.strength < USER_RULE) {
            match (&g.window_structured, &g.quota_window, long_wait) {
                (Some((true, ev)), _, _) => Some(ev.clone()),
                (Some((false, _)), _, _) => None,
                (None, Some(ev), _) => Some(ev.clone()),
                (None, None, true) => Some("wait of an hour or more".to_string()),
                _ => None,
            }
        } else {
            None
        };
    if window.is_some() {
        code = Code::QuotaExhausted;
    }
    // A quota that words or a status read, with a wait under an hour stated:
    // calling again soon helps, which makes it a rate limit.
    let short_wait = code == Code::QuotaExhausted
        && window.is_none()
        && winner
            .as_ref()
            .is_some_and(|w| w.strength <= SHORT_WAIT_MAX)
        && g.retry_after
            .as_ref()
            .is_some_and(|(ms, _)| *ms < QUOTA_WAIT_MS);
    if short_wait {
        code = Code::RateLimited;
    }
    // A validation error (ZodError, pydantic's ValidationError) raised by a
    // tool whose arguments the framework had already validated checked other
    // data (an upstream payload, the tool's own): not the caller's input.
    let inside = code == Code::InvalidArgument
        && g.validation_class
        && winner
            .as_ref()
            .is_some_and(|w| w.strength <= crate::signals::VALIDATION)
        && matches!(root.field("input_validated"), Some(Value::Bool(true)));
    if inside {
        code = Code::Internal;
    }
    let info = code.info();

    // Without evidence (`quiet`) the lines are empty: none is gathered.
    let quiet = g.quiet;
    let mut evidence: Vec<String> = Vec::new();
    if !quiet {
        let all = &g.candidates;
        let mut agreeing: Vec<usize> = (0..all.len())
            .filter(|&i| {
                all[i].code == code
                    || (window.is_some() && all[i].code == Code::RateLimited)
                    || (short_wait && all[i].code == Code::QuotaExhausted)
                    || (inside && all[i].code == Code::InvalidArgument)
            })
            .collect();
        // Strongest, then outermost, then first seen (`order` tells any two apart).
        let rank = |c: &Candidate| (std::cmp::Reverse(c.strength), c.depth, c.order);
        crate::sort::merge_sort(&mut agreeing, &|a, b| rank(&all[a]) <= rank(&all[b]));
        for c in agreeing.into_iter().map(|i| &all[i]) {
            if !evidence.contains(&c.evidence) && evidence.len() < 6 {
                evidence.push(c.evidence.clone());
            }
        }
        if evidence.is_empty() {
            evidence.push(g.words_tie.take().unwrap_or_else(|| "no signal".into()));
        }
        if let Some(w) = &window {
            evidence.push(w.clone());
        }
        if inside {
            evidence.push(
                "input_validated: raised inside the tool, not about the caller's input".into(),
            );
        }
        if short_wait {
            evidence.push("a stated wait under an hour: a rate limit".into());
        }
    }

    let mut retryable = info.retryable;
    // The winning rule's own verdict (a deadlock is a retryable CONFLICT),
    // unless a window or a stated wait changed the code it was given for.
    if let Some(r) = winner
        .as_ref()
        .and_then(|w| w.retry)
        .filter(|_| window.is_none() && !short_wait)
    {
        retryable = r;
    }
    for never in [&g.tls, &g.unresolved].into_iter().flatten() {
        if code == Code::NetworkError {
            retryable = false;
            if !quiet && !evidence.contains(never) {
                evidence.push(never.clone());
            }
        }
    }
    if let Some((verdict, ev, _)) = &g.retry_verdict {
        retryable = *verdict;
        if !quiet {
            evidence.push(ev.clone());
        }
    }
    // A conflict, a state that does not allow the call yet, or something
    // not found yet, that invites the caller to call again ("Please try
    // again.", "retry later") or says when ("You must wait one minute before
    // trying to edit a submission a second time"), is retryable; an explicit
    // verdict stands.
    if !retryable
        && g.retry_verdict.is_none()
        && matches!(
            code,
            Code::Conflict | Code::FailedPrecondition | Code::NotFound
        )
    {
        if g.retry_after.is_some() {
            retryable = true;
        } else {
            let words = words.get_or_insert_with(|| crate::lexicon::words(root));
            if let Some(p) = crate::lexicon::retry_invitation(words) {
                retryable = true;
                if !quiet {
                    evidence.push(["words invite a retry: ", p].concat());
                }
            }
        }
    }
    let retry_after_ms = g.retry_after.as_ref().map(|(ms, ev)| {
        if !quiet {
            evidence.push(ev.clone());
        }
        *ms
    });
    if let (None, Some(why)) = (retry_after_ms, &g.ignored_delay) {
        evidence.push(why.clone());
    }

    let hints = signals::hints(root);
    let message = compose_message(root, &g, info.doc);
    let details = collect_details(root);
    let original = signals::original(root);

    Normalized {
        code,
        category: info.category,
        retryable,
        retry_after_ms,
        http_status: g.http_status,
        message,
        tool: hints.tool,
        app_code: hints.app_code,
        app_type: hints.app_type,
        expected: hints.expected,
        details,
        suggestions: hints.suggestions,
        evidence,
        original,
    }
}

/// The strongest signal the words of an error may overrule: an HTTP status
/// (or a status stated in text), a class picked from the status, a wrapper
/// or catch-all class, a JSON-RPC catch-all, a phrase in a message. A
/// provider's code, a library code or a meaningful class is stronger.
const GENERIC_MAX: crate::gather::Strength = 50;
/// Between [`CATCH_ALL_MAX`] and this, the signal was itself read from text (a
/// rule's phrase, a wrapper class): the lexicon, which reads all of the
/// text, replaces it only when it weighs its own code [`TEXT_MARGIN`] more.
/// Above it (a status) and at or below `CATCH_ALL_MAX` (a catch-all class
/// such as `TypeError`, JSON-RPC's −32603), the words may only refine the
/// code toward one the lexicon's `refine` allows.
const TEXT_MAX: crate::gather::Strength = 40;
const CATCH_ALL_MAX: crate::gather::Strength = 15;
/// The words need only outweigh the phrase's code: a rule's phrase is one
/// match, read out of context ("not found" in "The server was not found or
/// was not accessible"), where the lexicon read all of the text (3 until
/// 2026-11-27).
const TEXT_MARGIN: u32 = 1;

/// The general reader's verdict (`lexicon.rs`) against the winning signal:
/// it decides when nothing did, replaces a reading of the same text it
/// weighs less, and refines a generic status toward a compatible, more
/// specific code. It never overrules a specific structured signal.
fn read_words(
    root: &Map<'_>,
    winner: Option<Candidate>,
    g: &mut Gathered,
    words: &mut Option<crate::lexicon::Words>,
) -> Option<Candidate> {
    let strength = winner.as_ref().map_or(0, |w| w.strength);
    let current = winner.as_ref().map_or(Code::Unknown, |w| w.code);
    // A specific signal that is no limit: the words cannot change it.
    let limit = matches!(current, Code::RateLimited | Code::QuotaExhausted);
    // JSON-RPC −32602, the specification's answer for an unknown tool or a
    // bad argument, which servers also send for a refusal its words name (a
    // permission, a login, a state): those words move it, and only those (an
    // unknown tool stays −32602 when it is rendered again, and so does a
    // payload too large, which the renderer sends as −32602 too).
    let params = strength == crate::signals::RPC_PARAMS && current == Code::InvalidArgument;
    if strength > GENERIC_MAX && !limit && !params {
        return winner;
    }
    let words = &*words.insert(crate::lexicon::words(root));
    // A window of a day or more that the words name makes a rate limit a
    // spent quota (read below, with the structured windows).
    let long = crate::lexicon::long_window(words);
    // A window of minutes the words name, and none of a day: a billing or
    // credits page the message points to does not make the limit a quota
    // ("60 queries per minute … upgrade on the billing page").
    if long.is_none()
        && g.quota_window.is_some()
        && g.window_structured.is_none()
        && crate::lexicon::short_window(words).is_some()
    {
        g.quota_window = None;
    }
    if let (None, Some(w)) = (&g.quota_window, long) {
        g.quota_window = Some(if g.quiet {
            String::new()
        } else {
            format!("words window {w}")
        });
    }
    if strength > GENERIC_MAX && !params {
        return winner;
    }
    // A quota that a generic signal read, over a window of minutes, refills
    // soon: a rate limit.
    if current == Code::QuotaExhausted && long.is_none() && g.window_structured.is_none() {
        if let Some(w) = crate::lexicon::short_window(words) {
            let evidence = || format!("words window {w}");
            return Some(words_win(g, Code::RateLimited, strength, evidence, None));
        }
    }
    // Supporting words of a limit ("limit exceeded") decide beside a wait
    // the error states ("try again in 4h"): a refusal that says when to
    // come back is a limit (the wait then tells a rate limit from a quota).
    let stated_wait = g.retry_after.is_some();
    // A class named after a status (`InternalServerError`) restates one: no
    // status's reason phrase is evidence beside it.
    let status = g
        .http_status
        .or((strength == crate::signals::SDK_STATUS).then_some(0));
    let v = match crate::lexicon::read(words, status) {
        Some(v)
            if v.decides()
                || (stated_wait
                    && v.weight > v.rival
                    && matches!(v.code, Code::RateLimited | Code::QuotaExhausted)) =>
        {
            v
        }
        read => {
            // Words that name two codes as heavily decide nothing: the
            // evidence says so when nothing else decided either.
            let tie = read.and_then(|v| Some((v.code, v.tied_with()?)));
            if let (None, false, Some((a, b))) = (&winner, g.quiet, tie) {
                g.words_tie = Some(format!("words tie {} {}", a.name(), b.name()));
            }
            return winner;
        }
    };
    // Words of a spent quota over a window of minutes, and none of a day: a
    // limit that refills soon ("run out of API credits for the current
    // minute"), a rate limit, as it stands when a signal read one.
    let minutes = (v.code == Code::QuotaExhausted && long.is_none())
        .then(|| crate::lexicon::short_window(words))
        .flatten();
    // A bug the words name inside a response body (a server's reply that
    // says `NullPointerException`) is that server's, not the tool's.
    let remote_bug = v.code == Code::Internal && root.field("body").is_some();
    let code = if minutes.is_some() {
        Code::RateLimited
    } else if remote_bug {
        Code::UpstreamError
    } else {
        v.code
    };
    // A rate limit over a long window the error states is read below, with
    // its own evidence.
    let window = g.quota_window.is_some() || g.window_structured.is_some();
    let takes = match &winner {
        // Words of the code a generic signal read say whether it passes (a
        // 409 whose words name a deadlock): their retry verdict stands, with
        // them as evidence, unless the signal is a rule with a verdict of
        // its own.
        Some(w) if code == current => {
            w.retry.is_none()
                && v.code == code
                && v.retry.is_some_and(|r| r != code.info().retryable)
        }
        _ if code == current => false,
        _ if current == Code::RateLimited && window => false,
        None => true,
        // A phrase a rule knows: only words that weigh much more move it.
        Some(w) if w.strength > CATCH_ALL_MAX && w.strength <= TEXT_MAX => {
            v.weight >= v.weight_of(current) + TEXT_MARGIN
                && crate::lexicon::refines(Code::Unknown, code)
        }
        // A catch-all (a JSON-RPC −32603, −32000 or −32001, an unrecognized
        // code): the words decide, as when nothing did.
        Some(w) if w.strength <= CATCH_ALL_MAX => crate::lexicon::refines(Code::Unknown, code),
        Some(_) if params => matches!(
            code,
            Code::PermissionDenied | Code::Unauthenticated | Code::FailedPrecondition
        ),
        // A catch-all class or a status: toward a compatible code only (a
        // bug the words name in a response body, as the bug they name: a
        // 400 whose body says "Error Fatal" is the upstream's failure).
        Some(_) => crate::lexicon::refines(current, if remote_bug { v.code } else { code }),
    };
    if !takes {
        return winner;
    }
    if let Some(w) = minutes {
        let evidence = || format!("words {} window {w}", v.phrase);
        return Some(words_win(g, code, strength, evidence, Some(true)));
    }
    let place = if remote_bug {
        " in a response body"
    } else {
        ""
    };
    let evidence = || format!("words {} {}{place}", v.phrase, v.code.name());
    let retry = if remote_bug { None } else { v.retry };
    Some(words_win(g, code, strength, evidence, retry))
}

/// The words' candidate, just above the signal it overrules, gathered with
/// the others (its evidence line written only when evidence is kept).
fn words_win(
    g: &mut Gathered,
    code: Code,
    over: crate::gather::Strength,
    evidence: impl FnOnce() -> String,
    retry: Option<bool>,
) -> Candidate {
    let c = Candidate {
        code,
        strength: over + 1,
        depth: 0,
        order: g.candidates.len(),
        evidence: if g.quiet { String::new() } else { evidence() },
        retry,
    };
    g.candidates.push(c.clone());
    c
}

/// Walk the error, its causes and its members, breadth first and bounded.
fn walk(root: &Map<'_>, opts: &ClassifyOptions, g: &mut Gathered) {
    // Breadth first. The next node is held apart while the queue is empty:
    // a chain of causes (the common shape) needs no queue.
    let mut queue: std::collections::VecDeque<(&Map<'_>, usize, Cow<'static, str>)> =
        std::collections::VecDeque::new();
    let mut next = Some((root, 0, Cow::Borrowed("")));
    let mut seen = 0usize;
    while let Some((node, depth, path)) = next.take().or_else(|| queue.pop_front()) {
        seen += 1;
        if seen > MAX_NODES {
            break;
        }
        signals::read_node(node, depth, &path, opts, g);
        if depth >= MAX_DEPTH {
            continue;
        }
        if let Some(Value::Object(cause)) = node.field("cause") {
            let step = (cause, depth + 1, join(&path, Cow::Borrowed("cause")));
            if queue.is_empty() {
                next = Some(step);
            } else {
                queue.push_back(step);
            }
        } else if let Some(Value::String(s)) = node.field("cause") {
            // A cause given as bare text (e.g. Python's str(exc.__cause__)):
            // read it as a message-only error.
            let text_node = Map::single("message", Value::String(s.clone()));
            seen += 1;
            signals::read_node(
                &text_node,
                depth + 1,
                &join(&path, Cow::Borrowed("cause")),
                opts,
                g,
            );
        }
        if let Some(Value::Array(members)) = node.field("errors") {
            for (i, m) in members.iter().enumerate().take(MAX_NODES) {
                if let Value::Object(member) = m {
                    let step = format!("errors[{i}]");
                    queue.push_back((member, depth + 1, join(&path, Cow::Owned(step))));
                }
            }
        }
    }
}

/// The path of a step below `path`: the step itself (no copy) at the root.
fn join(path: &str, step: Cow<'static, str>) -> Cow<'static, str> {
    if path.is_empty() {
        step
    } else {
        Cow::Owned([path, ".", &step].concat())
    }
}

/// Messages that say nothing beyond "something under me failed".
fn is_wrapper_message(m: &str) -> bool {
    let l = m.trim_fast();
    // A serialized list of issues (zod's own message) or pydantic's multi-line
    // report ("1 validation error for Weather\ncity\n  Field required …") says
    // less than the one-line summary of its issues.
    if l.starts_with("[{") || l.starts_with("[\n") {
        return true;
    }
    // A count first (as `u32` parses it: a digit or `+`), else no search for the space.
    let counted = l
        .as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_digit() || *b == b'+');
    if let Some((count, rest)) = counted.then(|| l.split_once(' ')).flatten() {
        let head = rest.as_bytes().get(..16);
        if count.parse::<u32>().is_ok()
            && head.is_some_and(|h| h.eq_ignore_ascii_case(b"validation error"))
        {
            return true;
        }
    }
    // Compared without case, without building a lowercase copy.
    signals::is_network_message(l)
        || ["", "error", "unknown error", "aggregateerror"]
            .iter()
            .any(|w| l.eq_ignore_ascii_case(w))
}

fn text_of<'m>(node: &'m Map<'_>, key: &str) -> Option<&'m str> {
    match node.field(key)? {
        Value::String(s) if !s.trim_fast().is_empty() => Some(s.trim_fast()),
        _ => None,
    }
}

/// The message: the error's own, then what the upstream body said, then the
/// first informative cause; the code's documentation line if nothing speaks.
/// Borrowed from the error until the end: one string is built.
fn compose_message(root: &Map<'_>, g: &Gathered, fallback: &str) -> String {
    let own = text_of(root, "message");
    let mut message: Cow<'_, str> = match (own, &g.body_message) {
        (Some(m), Some(b)) if !is_wrapper_message(m) && !already_says(m, b) => {
            Cow::Owned([m, ": ", b].concat())
        }
        (Some(m), _) if !is_wrapper_message(m) => Cow::Borrowed(m),
        (_, Some(b)) => Cow::Borrowed(b.as_str()),
        (Some(m), None) => Cow::Borrowed(m),
        (None, None) => Cow::Borrowed(""),
    };
    if is_wrapper_message(&message) {
        // Follow the cause chain (or the first member) to something informative.
        let mut node = root;
        for _ in 0..MAX_DEPTH {
            let next = match node.field("cause") {
                Some(Value::Object(c)) => c,
                Some(Value::String(s)) if !s.trim_fast().is_empty() => {
                    message = Cow::Owned(join_message(&message, s.trim_fast()));
                    break;
                }
                _ => match node.field("errors") {
                    Some(Value::Array(a)) => match a.first() {
                        Some(Value::Object(c)) => c,
                        _ => break,
                    },
                    _ => break,
                },
            };
            if let Some(m) = text_of(next, "message") {
                if !is_wrapper_message(m) {
                    message = Cow::Owned(join_message(&message, m));
                    break;
                }
            }
            node = next;
        }
    }
    if message.trim_fast().is_empty() {
        fallback.to_string()
    } else {
        message.into_owned()
    }
}

/// Whether message `m` already says `b`, line ends aside: a message read back
/// from a result has LF line ends where the upstream body it came from had
/// CRLF (an Entra ID `error_description`).
fn already_says(m: &str, b: &str) -> bool {
    crate::text::contains(m, b)
        || (b.contains('\r') && crate::text::contains(m, &crate::text::split(b, "\r\n").join("\n")))
}

fn join_message(outer: &str, inner: &str) -> String {
    if outer.trim_fast().is_empty() {
        inner.to_string()
    } else {
        [outer.trim_fast(), ": ", inner].concat()
    }
}

/// The author's `details` (an object; anything else is kept under `value`)
/// plus every top-level field the classifier does not read.
fn collect_details(root: &Map<'_>) -> Option<serde_json::Map<String, serde_json::Value>> {
    let mut details = match root.field("details") {
        Some(Value::Object(m)) => m.to_serde(),
        Some(Value::Null) | None => serde_json::Map::new(),
        Some(other) => {
            let mut m = serde_json::Map::new();
            m.insert("value".into(), other.to_serde());
            m
        }
    };
    for (k, v) in root.iter() {
        if !KNOWN_FIELDS.contains(&k) && !STACK_FIELDS.contains(&k) && !details.contains_key(k) {
            details.insert(k.to_string(), v.to_serde());
        }
    }
    if details.is_empty() {
        None
    } else {
        Some(details)
    }
}
