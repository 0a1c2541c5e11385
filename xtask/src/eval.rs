//! `cargo xtask eval`: the verdict measured on the evaluation corpus
//! (`eval/`, see `eval/COLLECTING.md`).
//!
//! - **classify**: every raw error of `eval/shared/classify.jsonl` and
//!   `eval/classify/*.jsonl`; **parse**: every error result of
//!   `eval/shared/parse.jsonl` and `eval/parse/*.jsonl`.
//! - **lopo**: the same cases, each scored with every rule tagged for its
//!   provider turned off (`mcp_errors::leave_out`).
//! - **sealed**: `eval/sealed/*.jsonl`, collected by a reader who did not
//!   write the reader; only its aggregates are ever printed.
//!
//! A case is right when its code is `code` or in `accept`, the retry verdict
//! matches (unless `retry_any`), the delay matches (when one is stated), and
//! for parse the message keeps `message_contains`.
//!
//! - **parse-ok**: `eval/parse-ok/*.jsonl`, successful results of real
//!   servers (many that speak of failures as data: a log tail, a test run, an
//!   empty search): right when `parse` reads no failure in them.
//!
//! The last line is `eval: classify A/B, classify-lopo C/D, classify-sealed
//! E/F, parse G/H, parse-lopo I/J, parse-sealed K/L`; the line before it is
//! the redaction corpus's (`crate::secrets`). `eval/baseline.json` is a
//! ratchet: the run fails when a figure falls below it. `--record` writes the
//! figures as the new baseline and the README's accuracy table; `--misses`
//! prints the open corpus's misses (never the sealed part's);
//! `--verdict-only` skips the redaction corpus (and records nothing).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mcp_errors::{ClassifyOptions, Code, Normalized};
use serde_json::Value;

use crate::Result;

/// One labelled case of either corpus.
struct Case {
    id: String,
    provider: String,
    /// The raw error (classify) or the result as JSON-RPC or CallToolResult text (parse).
    input: String,
    now_ms: Option<i64>,
    code: Code,
    accept: Vec<Code>,
    retryable: bool,
    retry_any: bool,
    retry_after_ms: Option<u64>,
    message_contains: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Classify,
    Parse,
}

/// What the reader answered for one case.
struct Answer {
    code: Code,
    retryable: bool,
    retry_after_ms: Option<u64>,
    message: String,
    evidence: Vec<String>,
    /// Parse said the result is no error at all.
    none: bool,
}

/// How one case was scored.
struct Score {
    code: bool,
    retry: bool,
    delay: bool,
    message: bool,
}

impl Score {
    fn right(&self) -> bool {
        self.code && self.retry && self.delay && self.message
    }
}

/// A corpus part's tally.
#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
struct Tally {
    right: usize,
    total: usize,
}

impl Tally {
    fn add(&mut self, right: bool) {
        self.total += 1;
        self.right += usize::from(right);
    }
    fn text(&self) -> String {
        format!("{}/{}", self.right, self.total)
    }
    fn pct(&self) -> String {
        if self.total == 0 {
            "n/a".into()
        } else {
            format!("{:.1} %", 100.0 * self.right as f64 / self.total as f64)
        }
    }
}

fn root() -> PathBuf {
    crate::root()
}

/// Every non-empty line of `files` as JSON, with where it is (`file:line`).
fn json_lines(files: &[PathBuf]) -> Result<Vec<(String, Value)>> {
    let mut lines = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("reading {}: {e}", file.display()))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{}:{}", file.display(), n + 1);
            let v: Value =
                serde_json::from_str(line).map_err(|e| format!("{at}: not JSON: {e}"))?;
            lines.push((at, v));
        }
    }
    Ok(lines)
}

fn load(kind: Kind, files: &[PathBuf]) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    for (at, v) in json_lines(files)? {
        cases.push(case(kind, &v).map_err(|e| format!("{at}: {e}"))?);
    }
    Ok(cases)
}

fn case(kind: Kind, v: &Value) -> std::result::Result<Case, String> {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let code_of = |name: &str| Code::from_name(name).ok_or_else(|| format!("unknown code {name}"));
    let id = s("id").ok_or("no id")?;
    let provider = s("provider").ok_or_else(|| format!("{id}: no provider"))?;
    if s("source").is_none_or(|x| x.trim().is_empty()) {
        return Err(format!("{id}: no source"));
    }
    let input = match kind {
        Kind::Classify => v
            .get("input")
            .ok_or_else(|| format!("{id}: no input"))?
            .to_string(),
        Kind::Parse => {
            let r = v.get("result").ok_or_else(|| format!("{id}: no result"))?;
            match r.get("jsonrpc_error") {
                Some(e) => serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": e}).to_string(),
                None => r.to_string(),
            }
        }
    };
    let now_ms = match s("now") {
        Some(t) => Some(mcp_errors::parse_now(&t).map_err(|e| format!("{id}: {e}"))?),
        None => None,
    };
    let mut accept = Vec::new();
    for a in v
        .get("accept")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        accept.push(code_of(a.as_str().ok_or_else(|| format!("{id}: accept"))?)?);
    }
    Ok(Case {
        code: code_of(&s("code").ok_or_else(|| format!("{id}: no code"))?)?,
        accept,
        retryable: v.get("retryable").and_then(Value::as_bool).unwrap_or(false),
        retry_any: v.get("retry_any").and_then(Value::as_bool).unwrap_or(false),
        retry_after_ms: v.get("retry_after_ms").and_then(Value::as_u64),
        message_contains: s("message_contains").filter(|m| !m.is_empty()),
        now_ms,
        input,
        id,
        provider,
    })
}

fn answer(kind: Kind, c: &Case) -> Answer {
    let opts = ClassifyOptions {
        now_ms: c.now_ms,
        ..ClassifyOptions::default()
    };
    let got: std::result::Result<Option<Normalized>, String> = match kind {
        Kind::Classify => mcp_errors::classify_str(&c.input, &opts)
            .map(Some)
            .map_err(|e| e.to_string()),
        Kind::Parse => mcp_errors::parse_result(&c.input, &opts).map_err(|e| e.to_string()),
    };
    match got {
        Ok(Some(n)) => Answer {
            code: n.code,
            retryable: n.retryable,
            retry_after_ms: n.retry_after_ms,
            message: n.message,
            evidence: n.evidence,
            none: false,
        },
        Ok(None) => Answer {
            code: Code::Unknown,
            retryable: false,
            retry_after_ms: None,
            message: String::new(),
            evidence: vec!["parse: not an error".into()],
            none: true,
        },
        Err(e) => Answer {
            code: Code::Unknown,
            retryable: false,
            retry_after_ms: None,
            message: String::new(),
            evidence: vec![format!("error: {e}")],
            none: true,
        },
    }
}

fn score(c: &Case, a: &Answer) -> Score {
    Score {
        code: !a.none && (a.code == c.code || c.accept.contains(&a.code)),
        retry: c.retry_any || a.retryable == c.retryable,
        delay: c.retry_after_ms.is_none() || a.retry_after_ms == c.retry_after_ms,
        message: c.message_contains.as_ref().is_none_or(|m| {
            a.message
                .to_ascii_lowercase()
                .contains(&m.to_ascii_lowercase())
        }),
    }
}

/// The figures of one kind.
#[derive(Default)]
struct Figures {
    open: Tally,
    lopo: Tally,
    sealed: Tally,
    code: Tally,
    retry: Tally,
    delay: Tally,
    providers: usize,
    /// Per code: (predicted and right, predicted, expected and right, expected).
    per_code: BTreeMap<&'static str, [usize; 4]>,
    /// The sealed part's misses by kind, in aggregate only: [no code
    /// (UNKNOWN or none) where one was expected, a wrong code given, the
    /// retry verdict only, the delay only, the message only].
    sealed_misses: [usize; 5],
    /// The sealed part's answers per code: (right, answered).
    sealed_answers: BTreeMap<&'static str, [usize; 2]>,
    /// Open-corpus misses (printed with --misses).
    misses: Vec<String>,
    lopo_misses: Vec<String>,
}

fn run_kind(kind: Kind, open: &[Case], sealed: &[Case]) -> Figures {
    let mut f = Figures::default();
    let providers: BTreeSet<&str> = open.iter().map(|c| c.provider.as_str()).collect();
    f.providers = providers.len();
    for c in open {
        let a = answer(kind, c);
        let s = score(c, &a);
        f.open.add(s.right());
        f.code.add(s.code);
        f.retry.add(s.retry);
        if c.retry_after_ms.is_some() {
            f.delay.add(s.delay);
        }
        if !a.none {
            let p = f.per_code.entry(a.code.name()).or_default();
            p[1] += 1;
            p[0] += usize::from(s.code);
        }
        let e = f.per_code.entry(c.code.name()).or_default();
        e[3] += 1;
        e[2] += usize::from(s.code);
        if !s.right() {
            f.misses.push(miss(c, &a, &s));
        }
        let left = mcp_errors::leave_out::without(&c.provider, || answer(kind, c));
        let ls = score(c, &left);
        f.lopo.add(ls.right());
        if !ls.right() && s.right() {
            f.lopo_misses.push(miss(c, &left, &ls));
        }
    }
    for c in sealed {
        let a = answer(kind, c);
        let s = score(c, &a);
        f.sealed.add(s.right());
        if !a.none && a.code != Code::Unknown {
            let p = f.sealed_answers.entry(a.code.name()).or_default();
            p[0] += usize::from(s.code);
            p[1] += 1;
        }
        if !s.right() {
            let kind = if !s.code && (a.none || a.code == Code::Unknown) {
                0
            } else if !s.code {
                1
            } else if !s.retry {
                2
            } else if !s.delay {
                3
            } else {
                4
            };
            f.sealed_misses[kind] += 1;
        }
    }
    f
}

fn miss(c: &Case, a: &Answer, s: &Score) -> String {
    let mut want = c.code.name().to_string();
    for x in &c.accept {
        want.push('|');
        want.push_str(x.name());
    }
    let mut wrong = Vec::new();
    if !s.code {
        wrong.push(format!(
            "code {} (want {want})",
            if a.none { "none" } else { a.code.name() }
        ));
    }
    if !s.retry {
        wrong.push(format!("retryable {} (want {})", a.retryable, c.retryable));
    }
    if !s.delay {
        wrong.push(format!(
            "delay {:?} (want {:?})",
            a.retry_after_ms, c.retry_after_ms
        ));
    }
    if !s.message {
        wrong.push(format!(
            "message lacks {:?}: {:?}",
            c.message_contains.as_deref().unwrap_or(""),
            a.message.chars().take(120).collect::<String>()
        ));
    }
    format!(
        "{} [{}]: {}; evidence {:?}",
        c.id,
        c.provider,
        wrong.join(", "),
        a.evidence
    )
}

fn jsonl_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The corpus of one kind: (open, sealed).
fn corpus(kind: Kind) -> Result<(Vec<Case>, Vec<Case>)> {
    let name = match kind {
        Kind::Classify => "classify",
        Kind::Parse => "parse",
    };
    let eval = root().join("eval");
    let mut files = vec![eval.join("shared").join(format!("{name}.jsonl"))];
    files.extend(jsonl_in(&eval.join(name)));
    let open = load(kind, &files)?;
    let sealed_file = eval.join("sealed").join(format!("{name}.jsonl"));
    let sealed = if sealed_file.exists() {
        load(kind, &[sealed_file])?
    } else {
        Vec::new()
    };
    let mut ids = BTreeSet::new();
    for c in open.iter().chain(&sealed) {
        if !ids.insert(c.id.as_str()) {
            return Err(format!("eval: case id {} appears twice ({name})", c.id).into());
        }
    }
    // The sealed part's providers appear nowhere else: a rule written for an
    // open case must not be scored as generalizing to it.
    let open_providers: BTreeSet<&str> = open.iter().map(|c| c.provider.as_str()).collect();
    let shared = sealed
        .iter()
        .filter(|c| open_providers.contains(c.provider.as_str()))
        .count();
    if shared > 0 {
        eprintln!("eval: warning: {shared} sealed {name} cases are from providers the open corpus has too");
    }
    Ok((open, sealed))
}

/// The successful results (`eval/parse-ok/`): how many `parse` reads as no
/// failure, the servers they come from, and (for `--misses`) the others.
#[derive(Default)]
struct Successes {
    right: Tally,
    servers: usize,
    misses: Vec<String>,
}

fn successes() -> Result<Successes> {
    let mut f = Successes::default();
    let mut servers = BTreeSet::new();
    let mut ids = BTreeSet::new();
    for (at, v) in json_lines(&jsonl_in(&root().join("eval").join("parse-ok")))? {
        let s = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .filter(|x| !x.trim().is_empty())
        };
        let (Some(id), Some(provider), Some(_), Some(result)) =
            (s("id"), s("provider"), s("source"), v.get("result"))
        else {
            return Err(format!("{at}: id, provider, source and result are required").into());
        };
        if !ids.insert(id.to_string()) {
            return Err(format!("{at}: case id {id} appears twice").into());
        }
        servers.insert(provider.to_string());
        let got = mcp_errors::parse_result(&result.to_string(), &ClassifyOptions::default());
        let right = matches!(got, Ok(None));
        f.right.add(right);
        if !right {
            let said = match got {
                Ok(Some(n)) => format!("{} {:?}", n.code.name(), n.evidence),
                Ok(None) => String::new(),
                Err(e) => format!("error: {e}"),
            };
            f.misses.push(format!("{id}: read as a failure: {said}"));
        }
    }
    f.servers = servers.len();
    Ok(f)
}

/// The eight figures of the last line, as the baseline records them.
fn line(c: &Figures, p: &Figures) -> String {
    format!(
        "eval: classify {}, classify-lopo {}, classify-sealed {}, parse {}, parse-lopo {}, parse-sealed {}",
        c.open.text(),
        c.lopo.text(),
        c.sealed.text(),
        p.open.text(),
        p.lopo.text(),
        p.sealed.text()
    )
}

fn print_kind(name: &str, f: &Figures) {
    println!(
        "{name}: {} right ({}) over {} providers: code {}, retry {}, delay {} (of cases stating one)",
        f.open.text(),
        f.open.pct(),
        f.providers,
        f.code.text(),
        f.retry.text(),
        f.delay.text()
    );
    println!(
        "{name}: leave-one-provider-out {} ({}); sealed {} ({})",
        f.lopo.text(),
        f.lopo.pct(),
        f.sealed.text(),
        f.sealed.pct()
    );
    let [none, wrong, retry, delay, message] = f.sealed_misses;
    let given: Vec<String> = f
        .sealed_answers
        .iter()
        .filter(|(_, [r, n])| r < n)
        .map(|(code, [r, n])| format!("{code} {r}/{n}"))
        .collect();
    println!(
        "{name}: sealed misses (aggregate): {none} no code, {wrong} a wrong code, {retry} the retry verdict, {delay} the delay, {message} the message; codes given and right where not all were: {}",
        if given.is_empty() { "none".to_string() } else { given.join(", ") }
    );
    println!("{name}: per code (precision = right / answered, recall = right / expected):");
    for (code, [pr, pn, rr, rn]) in &f.per_code {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                "    -".to_string()
            } else {
                format!("{:5.1}", 100.0 * a as f64 / b as f64)
            }
        };
        println!(
            "  {code:<20} precision {} % ({pr}/{pn})  recall {} % ({rr}/{rn})",
            pct(*pr, *pn),
            pct(*rr, *rn)
        );
    }
}

/// The baseline: each figure's right and total.
fn baseline_path() -> PathBuf {
    root().join("eval").join("baseline.json")
}

fn figures_json(c: &Figures, p: &Figures, ok: &Successes) -> Value {
    let t = |t: &Tally| serde_json::json!([t.right, t.total]);
    serde_json::json!({
        "classify": t(&c.open), "classify-lopo": t(&c.lopo), "classify-sealed": t(&c.sealed),
        "parse": t(&p.open), "parse-lopo": t(&p.lopo), "parse-sealed": t(&p.sealed),
        "parse-ok": t(&ok.right),
    })
}

/// Figures below the baseline's, by rate; a changed corpus size must be recorded anew.
fn ratchet(now: &Value, base: &Value) -> Vec<String> {
    let mut falls = Vec::new();
    let Some(base) = base.as_object() else {
        return vec!["eval/baseline.json is not an object".into()];
    };
    for (k, b) in base {
        let pair =
            |v: &Value| -> Option<(u64, u64)> { Some((v.get(0)?.as_u64()?, v.get(1)?.as_u64()?)) };
        let (Some((br, bt)), Some((nr, nt))) = (pair(b), now.get(k).and_then(pair)) else {
            falls.push(format!("{k}: missing"));
            continue;
        };
        if bt != nt {
            falls.push(format!(
                "{k}: the corpus has {nt} cases, the baseline {bt}: run `cargo xtask eval --record`"
            ));
        } else if nr < br {
            falls.push(format!("{k}: {nr}/{nt}, below the baseline's {br}/{bt}"));
        }
    }
    falls
}

/// The README's accuracy table.
fn readme_table(c: &Figures, p: &Figures, ok: &Successes) -> String {
    let row = |name: &str, f: &Figures| {
        format!(
            "| {name} | {} | {} | {} ({}) | {} ({}) | {} ({}) |\n",
            f.open.total,
            f.providers,
            f.open.text(),
            f.open.pct(),
            f.lopo.text(),
            f.lopo.pct(),
            f.sealed.text(),
            f.sealed.pct(),
        )
    };
    format!(
        "| | cases | providers | right | leave-one-provider-out | sealed |\n|---|---|---|---|---|---|\n{}{}| `parse`, successful results (right: no failure read) | {} | {} | {} ({}) | | |\n",
        row("`classify`", c),
        row("`parse`", p),
        ok.right.total,
        ok.servers,
        ok.right.text(),
        ok.right.pct(),
    )
}

/// `readme` with the block between `<!-- NAME:begin … -->` and
/// `<!-- NAME:end -->` replaced by `content`; `None` without the markers.
fn with_block(readme: &str, name: &str, content: &str) -> Option<String> {
    let begin = format!("<!-- {name}:begin (cargo xtask eval --record writes this) -->\n");
    let end = format!("<!-- {name}:end -->");
    let start = readme.find(&begin)? + begin.len();
    let stop = start + readme[start..].find(&end)?;
    Some([&readme[..start], content, &readme[stop..]].concat())
}

/// The README with both generated blocks of this run.
fn readme_now(
    readme: &str,
    c: &Figures,
    p: &Figures,
    ok: &Successes,
    secrets: &crate::secrets::Figures,
) -> Option<String> {
    let r = with_block(readme, "eval", &readme_table(c, p, ok))?;
    with_block(&r, "eval-secrets", &format!("{}.\n", secrets.summary()))
}

pub fn eval(args: &[String]) -> Result<()> {
    let record =
        args.iter().any(|a| a == "--record") && !args.iter().any(|a| a == "--verdict-only");
    let misses = args.iter().any(|a| a == "--misses");
    let (co, cs) = corpus(Kind::Classify)?;
    let (po, ps) = corpus(Kind::Parse)?;
    let c = run_kind(Kind::Classify, &co, &cs);
    let p = run_kind(Kind::Parse, &po, &ps);
    let ok = successes()?;
    if misses {
        for (name, f) in [("classify", &c), ("parse", &p)] {
            for m in &f.misses {
                println!("miss {name}: {m}");
            }
            for m in &f.lopo_misses {
                println!("lopo-miss {name}: {m}");
            }
        }
        for m in &ok.misses {
            println!("miss parse-ok: {m}");
        }
    }
    print_kind("classify", &c);
    print_kind("parse", &p);
    println!(
        "parse-ok: {} successful results read as no failure ({}) over {} servers",
        ok.right.text(),
        ok.right.pct(),
        ok.servers
    );
    let secrets = if args.iter().any(|a| a == "--verdict-only") {
        crate::secrets::Figures::default()
    } else {
        crate::secrets::eval(misses)?
    };
    let now = figures_json(&c, &p, &ok);
    let readme_path = root().join("README.md");
    let readme = std::fs::read_to_string(&readme_path)?;
    let generated = readme_now(&readme, &c, &p, &ok, &secrets);
    let mut failures = Vec::new();
    if record {
        std::fs::write(baseline_path(), format!("{:#}\n", now))?;
        match generated {
            Some(r) => std::fs::write(&readme_path, r)?,
            None => failures.push("README.md has no eval markers".to_string()),
        }
    } else if !args.iter().any(|a| a == "--verdict-only") {
        let base: Value = serde_json::from_str(&std::fs::read_to_string(baseline_path())?)?;
        failures.extend(ratchet(&now, &base));
        if generated.as_deref() != Some(readme.as_str()) {
            failures.push(
                "README.md's accuracy table is not this run's: run `cargo xtask eval --record`"
                    .into(),
            );
        }
    }
    failures.extend(secrets.failures());
    println!("{}", secrets.line());
    println!("{}", line(&c, &p));
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}
