//! Compiles the shipped recognizer rules (`rules/*.json`) into static tables.
//!
//! The files are read by the same parser user rules go through
//! (`src/rules/form.rs`, included as it is); a bad file stops the build with
//! the parser's message. Rows are sorted for binary search; the sources stay
//! in the JSON (the binary carries only what matching needs).

#[path = "src/rules/form.rs"]
#[allow(dead_code)]
mod form;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The canonical code names, in taxonomy order, read from the taxonomy table.
fn codes() -> Vec<String> {
    let src = std::fs::read_to_string("src/taxonomy.rs").expect("src/taxonomy.rs");
    let mut out = Vec::new();
    for line in src.lines() {
        let l = line.trim();
        // `Cancelled = "CANCELLED", doc: "…" {`
        if let Some((variant, rest)) = l.split_once(" = \"") {
            if let Some((name, _)) = rest.split_once("\", doc:") {
                if variant.chars().all(|c| c.is_ascii_alphanumeric()) {
                    out.push(name.to_string());
                }
            }
        }
    }
    assert!(out.len() >= 10, "the taxonomy's codes were not found");
    out
}

/// The statics the tables point into, each written once.
struct Out {
    statics: String,
    n: usize,
}

impl Out {
    fn stat(&mut self, ty: &str, items: &[String]) -> String {
        let name = format!("S{}", self.n);
        self.n += 1;
        let _ = writeln!(
            self.statics,
            "static {name}: [{ty}; {}] = [{}];",
            items.len(),
            items.join(", ")
        );
        name
    }

    /// A location: its path, as it is written.
    fn loc(&self, l: &form::Loc) -> String {
        format!("Loc(Cow::Borrowed({:?}))", l.0)
    }

    /// A parsed table as a static expression.
    fn table(&mut self, t: &form::Table) -> String {
        let rows: Vec<String> = t
            .rows
            .iter()
            .map(|r| {
                format!(
                    "Row {{ end: {}, delay: {}, code: {}, retryable: {:?} }}",
                    r.end, r.delay, r.code, r.retryable
                )
            })
            .collect();
        let rows = self.stat("Row", &rows);
        let delays: Vec<String> = t
            .delays
            .iter()
            .map(|d| {
                format!(
                    "Delay {{ at: {}, scale_ms: {} }}",
                    self.loc(&d.at),
                    d.scale_ms
                )
            })
            .collect();
        let delays = self.stat("Delay", &delays);
        let at: Vec<String> = t.at.iter().map(|l| self.loc(l)).collect();
        let at = self.stat("Loc", &at);
        let when: Vec<String> = t
            .when
            .iter()
            .map(|c| match c {
                form::Cond::Status(r) => {
                    let items: Vec<String> = r.iter().map(|(a, b)| format!("({a}, {b})")).collect();
                    let s = self.stat("(u16, u16)", &items);
                    format!("Cond::Status(Cow::Borrowed(&{s}))")
                }
                form::Cond::At(l, test) => {
                    let l = self.loc(l);
                    let t = match test {
                        form::Test::In(v) => format!("Test::In(Cow::Borrowed({v:?}))"),
                        form::Test::NameIn(v) => format!("Test::NameIn(Cow::Borrowed({v:?}))"),
                        form::Test::Contains(p) => format!("Test::Contains(Cow::Borrowed({p:?}))"),
                        form::Test::Prefix(p) => format!("Test::Prefix(Cow::Borrowed({p:?}))"),
                        form::Test::Exists(b) => format!("Test::Exists({b})"),
                    };
                    format!("Cond::At({l}, {t})")
                }
            })
            .collect();
        let when = self.stat("Cond", &when);
        format!(
            "View {{ tag: {:?}, {}at: &{at}, take: Take::{:?}, when: &{when}, strength: {}, keys: {:?}, rows: &{rows}, delays: &{delays} }}",
            t.tag,
            providers_field(&format!("{:?}", t.providers)),
            t.take,
            t.strength,
            t.keys
        )
    }
}

/// A table's `providers` field set to `value`, as the generated code writes
/// it: only the evaluation's build (the `leave-out` feature) reads which
/// providers a rule knows, so no other build has the field (about 300 bytes
/// gzipped of the component).
fn providers_field(value: &str) -> String {
    if std::env::var_os("CARGO_FEATURE_LEAVE_OUT").is_some() {
        format!("providers: {value}, ")
    } else {
        String::new()
    }
}

/// `rules/lexicon.json` as statics for `src/lexicon.rs`: each phrase as the
/// matcher looks for it (` words `, or ` words` for a stem), its code's
/// index, weight and retry verdict (-1 none, 0 no, 1 yes); the refinements by
/// code index; the negators and the least deciding weight.
fn lexicon(codes: &[String]) -> String {
    let path = "rules/lexicon.json";
    println!("cargo:rerun-if-changed={path}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect(path)).expect(path);
    let code_index = |name: &str| -> usize {
        codes
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("{path}: unknown code {name}"))
    };
    let mut phrases: Vec<(String, usize, u64, i8)> = Vec::new();
    for g in v["groups"].as_array().expect("lexicon groups") {
        let code = code_index(g["code"].as_str().expect("group code"));
        assert!(
            g["source"].as_str().is_some_and(|s| s.len() > 10),
            "{path}: a group without a source"
        );
        let retry = match g.get("retryable").and_then(|r| r.as_bool()) {
            None => -1,
            Some(false) => 0,
            Some(true) => 1,
        };
        // A group's phrases in byte order: neighbours that share their
        // first words compress better (90 bytes of the component).
        let mut sorted: Vec<_> = g["phrases"].as_object().expect("phrases").iter().collect();
        sorted.sort_by_key(|(p, _)| p.as_str());
        for (phrase, w) in sorted {
            // A weight, or `{"weight", "source"}` for a phrase with a source of its own.
            let w = match w {
                serde_json::Value::Object(o) => {
                    assert!(
                        o["source"].as_str().is_some_and(|s| s.len() > 10),
                        "{path}: {phrase}: a source"
                    );
                    &o["weight"]
                }
                _ => w,
            };
            let w = w.as_u64().filter(|w| (1..=5).contains(w));
            let w = w.unwrap_or_else(|| panic!("{path}: {phrase}: weight 1 to 5"));
            // A phrase with letters outside ASCII (Chinese, Japanese, Korean,
            // accented or Cyrillic words): matched anywhere in the words, in
            // small letters as the words have them (`form::small_letter`:
            // "Доступ запрещен" is read as "доступ запрещен").
            if phrase.bytes().any(|b| b >= 0x80) {
                assert!(
                    !phrase.starts_with(' ')
                        && !phrase.ends_with(' ')
                        && !phrase.contains("  ")
                        && phrase.len() >= 3
                        && phrase.chars().all(|c| !c.is_ascii()
                            || c.is_ascii_lowercase()
                            || c.is_ascii_digit()
                            || c == ' '),
                    "{path}: {phrase:?}: single spaces, no capitals"
                );
                let small: String = phrase.chars().map(form::small_letter).collect();
                phrases.push((small, code, w, retry));
                continue;
            }
            let (words, stem) = match phrase.strip_suffix('*') {
                Some(p) => (p, true),
                None => (phrase.as_str(), false),
            };
            // A gap (`no _ found`): one `_` between words, one to four words
            // of any kind in the text (src/lexicon.rs), never with a stem.
            let gaps = words.split(' ').filter(|w| *w == "_").count();
            assert!(
                words.split(' ').all(|w| w == "_" || !w.contains('_'))
                    && (gaps == 0
                        || (gaps == 1
                            && !stem
                            && !words.starts_with("_ ")
                            && !words.ends_with(" _"))),
                "{path}: {phrase:?}: one `_` between words, and no `*`"
            );
            assert!(
                !words.is_empty()
                    && !words.starts_with(' ')
                    && !words.ends_with(' ')
                    && !words.contains("  ")
                    && words.bytes().all(|b| b.is_ascii_lowercase()
                        || b.is_ascii_digit()
                        || b == b' '
                        || b == b'_'),
                "{path}: {phrase:?} is not lowercase words"
            );
            let pattern = if stem {
                format!(" {words}")
            } else {
                format!(" {words} ")
            };
            assert!(
                !phrases.iter().any(|p| p.0 == pattern && p.1 == code),
                "{path}: {phrase:?} twice for one code"
            );
            phrases.push((pattern, code, w, retry));
        }
    }
    let mut refine = vec![Vec::new(); codes.len()];
    for (from, to) in v["refine"].as_object().expect("refine") {
        refine[code_index(from)] = to
            .as_array()
            .expect("refine list")
            .iter()
            .map(|c| code_index(c.as_str().expect("code")))
            .collect();
    }
    let negators: Vec<String> = v["negators"]
        .as_array()
        .expect("negators")
        .iter()
        .map(|n| format!("{:?}", n.as_str().expect("negator")))
        .collect();
    let mut out = String::new();
    // One text of patterns (a line each), their weights, and the runs of
    // rows that share a code and a retry verdict (a group): a table of string
    // slices would cost the component a pointer and a length per phrase, a
    // triple per row three bytes (src/lexicon.rs joins them once).
    let text: Vec<&str> = phrases.iter().map(|(p, ..)| p.as_str()).collect();
    let weights: Vec<String> = phrases.iter().map(|(_, _, w, _)| w.to_string()).collect();
    let mut runs: Vec<(usize, usize, i8)> = Vec::new();
    for (i, &(_, c, _, r)) in phrases.iter().enumerate() {
        match runs.last_mut() {
            Some((end, lc, lr)) if (*lc, *lr) == (c, r) => *end = i + 1,
            _ => runs.push((i + 1, c, r)),
        }
    }
    let runs: Vec<String> = runs
        .iter()
        .map(|(end, c, r)| format!("({end}, {c}, {r})"))
        .collect();
    let _ = writeln!(
        out,
        "pub(crate) static LEXICON_PATTERNS: &str = {:?};",
        text.join("\n")
    );
    let _ = writeln!(
        out,
        "pub(crate) static LEXICON_WEIGHTS: &[u8] = &[{}];",
        weights.join(", ")
    );
    let _ = writeln!(
        out,
        "pub(crate) static LEXICON_RUNS: &[(u16, u8, i8)] = &[{}];",
        runs.join(", ")
    );
    let refine: Vec<String> = refine.iter().map(|r| format!("&{r:?}")).collect();
    let _ = writeln!(
        out,
        "pub(crate) static LEXICON_REFINE: &[&[u8]] = &[{}];",
        refine.join(", ")
    );
    let _ = writeln!(
        out,
        "pub(crate) static LEXICON_NEGATORS: &[&str] = &[{}];",
        negators.join(", ")
    );
    let _ = writeln!(
        out,
        "pub(crate) const LEXICON_MIN_WEIGHT: u32 = {};",
        v["min_weight"].as_u64().expect("min_weight")
    );
    for (key, name) in [
        ("long_windows", "LONG_WINDOWS"),
        ("short_windows", "SHORT_WINDOWS"),
        ("retry_invitations", "RETRY_INVITATIONS"),
    ] {
        let list: Vec<String> = v[key]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: {key}"))
            .iter()
            .map(|w| {
                // A word, or {"word", "source"}; a word in a script without
                // spaces (Chinese, Japanese) is matched anywhere, as written.
                let word = match w {
                    serde_json::Value::Object(o) => {
                        assert!(
                            o["source"].as_str().is_some_and(|s| !s.is_empty()),
                            "{path}: {key}: {w}: a source"
                        );
                        o["word"].as_str()
                    }
                    _ => w.as_str(),
                }
                .unwrap_or_else(|| panic!("{path}: {key}: {w}"));
                if word.bytes().any(|b| b >= 0x80) {
                    let small: String = word.chars().map(form::small_letter).collect();
                    format!("{small:?}")
                } else {
                    format!("{:?}", format!(" {word} "))
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "pub(crate) static LEXICON_{name}: &[&str] = &[{}];",
            list.join(", ")
        );
    }
    out
}

/// The tables of `rules/signals/` looked up by key (`Table` in src/signals.rs).
const KEYED_TABLES: [&str; 8] = [
    "SYS_CODES",
    "WEAK_CODES",
    "AWS",
    "PROVIDER_CODES",
    "K8S",
    "GOOGLE_REASONS",
    "NAMES",
    "DOTTED",
];

/// `rules/signals/*.json`: the lookup tables `src/signals.rs` reads (Node
/// and libuv codes, errno, exception class names, AWS, provider, Kubernetes
/// and Google codes, HTTP reason phrases), as the statics it names, in the
/// files' row order. Every row has a source.
fn signal_tables(codes: &[String]) -> String {
    println!("cargo:rerun-if-changed=rules/signals");
    let variant = |name: &str, file: &str| -> String {
        assert!(
            codes.iter().any(|c| c == name),
            "{file}: unknown code {name}"
        );
        name.split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next().map_or(String::new(), |f| {
                    f.to_string() + &c.as_str().to_ascii_lowercase()
                })
            })
            .collect()
    };
    let mut files: Vec<_> = std::fs::read_dir("rules/signals")
        .expect("rules/signals/")
        .map(|e| e.expect("rules/signals/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = String::new();
    let mut seen = Vec::new();
    for path in &files {
        let file = path.display().to_string();
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect(&file)).expect(&file);
        let table = v["table"]
            .as_str()
            .unwrap_or_else(|| panic!("{file}: table"));
        seen.push(table.to_string());
        let rows = v["rows"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: rows"));
        let source_of = |r: &serde_json::Value| {
            let s = r["source"].as_str().unwrap_or("");
            assert!(s.len() > 10, "{file}: a row without a source: {r}");
        };
        let str_of = |r: &serde_json::Value, k: &str| -> String {
            source_of(r);
            let s = r[k]
                .as_str()
                .unwrap_or_else(|| panic!("{file}: {k} of {r}"));
            format!("{s:?}")
        };
        let code_of = |r: &serde_json::Value| -> String {
            let c = r["code"]
                .as_str()
                .unwrap_or_else(|| panic!("{file}: code of {r}"));
            format!("Code::{}", variant(c, &file))
        };
        let providers: Vec<&str> = v["providers"]
            .as_array()
            .map(|p| p.iter().filter_map(|x| x.as_str()).collect())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "/// The providers whose knowledge `{table}` is (`{file}`).\n#[allow(dead_code)]\npub(crate) const {table}_PROVIDERS: &str = {:?};",
            providers.join(" ")
        );
        let about = v["about"].as_str().unwrap_or("");
        if KEYED_TABLES.contains(&table) {
            // A keyed table: its keys as one text and their ends, its values,
            // and its index's slots, so the component holds no pointer per row.
            let keys: Vec<&str> = rows
                .iter()
                .map(|r| {
                    source_of(r);
                    r["key"]
                        .as_str()
                        .unwrap_or_else(|| panic!("{file}: key of {r}"))
                })
                .collect();
            let mut ends = Vec::new();
            let mut at = 0usize;
            for k in &keys {
                at += k.len();
                ends.push(u16::try_from(at).expect("keys under 64 KiB").to_string());
            }
            // Class names weigh as their row says; every other key is a code.
            let named = table == "NAMES" || table == "DOTTED";
            let values: Vec<String> = rows
                .iter()
                .map(|r| {
                    if !named {
                        return code_of(r);
                    }
                    let strength = r["strength"].as_str().unwrap_or("");
                    assert!(
                        [
                            "NAME",
                            "GENERIC",
                            "VALIDATION",
                            "WEAK",
                            "SDK_STATUS",
                            "WRAPPER"
                        ]
                        .contains(&strength),
                        "{file}: strength {strength:?}"
                    );
                    format!("({}, {strength})", code_of(r))
                })
                .collect();
            let value = if named { "(Code, Strength)" } else { "Code" };
            let mut slots_n = 8usize;
            while keys.len() * 4 > slots_n * 3 {
                slots_n *= 2;
            }
            assert!(keys.len() < 255, "{file}: at most 254 keys");
            let mut slots = vec![0u8; slots_n];
            for (i, k) in keys.iter().enumerate() {
                let mut at = form::key_hash(k.as_bytes()) as usize & (slots_n - 1);
                loop {
                    match slots[at] {
                        0 => {
                            slots[at] = u8::try_from(i + 1).expect("254 keys");
                            break;
                        }
                        s if keys[usize::from(s) - 1] == *k => break,
                        _ => at = (at + 1) & (slots_n - 1),
                    }
                }
            }
            let _ = writeln!(
                out,
                "/// {about} (`{file}`)\nstatic {table}: Table<{value}, {slots_n}> = Table {{ keys: {:?}, ends: &[{}], values: &[{}], slots: {slots:?}, {} }};",
                keys.concat(),
                ends.join(", "),
                values.join(", "),
                providers_field(&format!("{table}_PROVIDERS")),
            );
        } else {
            // A plain table: its rows as a static (a constant array for the
            // TLS phrases the message scan names one by one).
            let (kind, ty, items): (&str, String, Vec<String>) = match table {
                "TLS_CODES" => (
                    "static",
                    "&[&str]".into(),
                    rows.iter().map(|r| str_of(r, "key")).collect(),
                ),
                "TLS_MESSAGES" => (
                    "const",
                    format!("[&str; {}]", rows.len()),
                    rows.iter().map(|r| str_of(r, "key")).collect(),
                ),
                "ERRNO" => (
                    "static",
                    "&[(i64, &str)]".into(),
                    rows.iter()
                        .map(|r| {
                            format!(
                                "({}, {})",
                                r["key"].as_i64().expect("errno"),
                                str_of(r, "name")
                            )
                        })
                        .collect(),
                ),
                "REASONS" => (
                    "static",
                    "&[(u16, &str)]".into(),
                    rows.iter()
                        .map(|r| {
                            format!(
                                "({}, {})",
                                r["status"].as_u64().expect("status"),
                                str_of(r, "phrase")
                            )
                        })
                        .collect(),
                ),
                other => panic!("{file}: no table {other} in src/signals.rs"),
            };
            let _ = writeln!(
                out,
                "/// {about} (`{file}`)\n{kind} {table}: {ty} = {}[{}];",
                if ty.starts_with('&') { "&" } else { "" },
                items.join(", ")
            );
        }
        // Rows marked as only restating a status, or as a catch-all.
        let marked = |flag: &dyn Fn(&serde_json::Value) -> bool| -> Vec<String> {
            rows.iter()
                .filter(|r| flag(r))
                .map(|r| str_of(r, "key"))
                .collect()
        };
        match table {
            "AWS" => {
                let mut keys = marked(&|r| r["restates_status"].as_bool() == Some(true));
                for r in v["restates_status_only"]
                    .as_array()
                    .expect("restates_status_only")
                {
                    keys.push(str_of(r, "key"));
                }
                let _ = writeln!(
                    out,
                    "/// AWS codes that only restate an HTTP status (`{file}`).\nstatic AWS_RESTATES_A_STATUS: &[&str] = &[{}];",
                    keys.join(", ")
                );
            }
            "PROVIDER_CODES" => {
                let keys = marked(&|r| r["strength"].as_str() == Some("GENERIC"));
                let _ = writeln!(
                    out,
                    "/// Provider catch-all types (`{file}`).\nstatic PROVIDER_CATCH_ALLS: &[&str] = &[{}];",
                    keys.join(", ")
                );
            }
            _ => {}
        }
    }
    for want in [
        "SYS_CODES",
        "WEAK_CODES",
        "TLS_CODES",
        "TLS_MESSAGES",
        "ERRNO",
        "NAMES",
        "DOTTED",
        "AWS",
        "PROVIDER_CODES",
        "K8S",
        "GOOGLE_REASONS",
        "REASONS",
    ] {
        assert!(
            seen.iter().any(|s| s == want),
            "rules/signals: no {want} table"
        );
    }
    out
}

/// An alphabet of `rules/credentials.json` as the matcher's index (see
/// `src/credentials.rs`, `ALPHABETS`).
fn alphabet_index(name: &str) -> usize {
    const NAMES: [&str; 10] = [
        "alnum",
        "alnum_",
        "alnum-",
        "alnum_-",
        "base64",
        "hex",
        "hex_lower",
        "upper_alnum",
        "lower_alnum",
        "digits",
    ];
    NAMES
        .iter()
        .position(|n| *n == name)
        .unwrap_or_else(|| panic!("rules/credentials.json: unknown alphabet {name}"))
}

/// A body run or segment as `Piece` source: `Piece::Run(alphabet, extra, min, exact)`.
fn piece(v: &serde_json::Value, what: &str) -> String {
    if let Some(sep) = v.get("sep").and_then(|s| s.as_str()) {
        return format!("S{sep}");
    }
    let alpha = alphabet_index(
        v["alphabet"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: no alphabet")),
    );
    let extra = v.get("extra_chars").and_then(|e| e.as_str()).unwrap_or("");
    let (min, exact) = match (
        v.get("length").and_then(|l| l.as_u64()),
        v.get("min_length").and_then(|l| l.as_u64()),
    ) {
        (Some(n), _) => (n, true),
        (None, Some(n)) => (n, false),
        _ => panic!("{what}: no length or min_length"),
    };
    assert!(min > 0 && min < 4096, "{what}: length out of range");
    // A run: `=` exact or `>` at least, alphabet, length, extra characters.
    format!(
        "{}{alpha}{}{min}{}{extra}",
        if exact { '=' } else { '>' },
        PART,
        PART
    )
}

/// Between the fields of a format in `FORMAT_TEXT` (src/redact/formats.rs
/// reads them back), between a body's pieces, and between a piece's parts:
/// control characters no credential format has.
const FIELD: char = '\u{1}';
const PIECE: char = '\u{2}';
const PART: char = '\u{3}';

/// `rules/credentials.json` as statics for `src/redact/formats.rs`: each
/// format's id, kind, prefix, look-back, body pieces, suffix and boundary,
/// as one text (a line a format: a table of string slices would cost the
/// component pointers), and the names the keyword-only kinds are given under.
fn credentials() -> String {
    let path = "rules/credentials.json";
    println!("cargo:rerun-if-changed={path}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect(path)).expect(path);
    let mut rows = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for f in v["formats"].as_array().expect("formats") {
        let id = f["id"].as_str().expect("format id");
        assert!(ids.insert(id.to_string()), "{path}: {id} twice");
        assert!(
            f["source"].as_str().is_some_and(|s| s.len() > 10),
            "{path}: {id} has no source"
        );
        let prefix = f["prefix"].as_str().expect("prefix");
        assert!(
            prefix.len() >= 3,
            "{path}: {id}: a prefix of 3 bytes or more"
        );
        let kind = match f["kind"].as_str() {
            Some("token") => 0,
            Some("url") => 1,
            Some("pem") => 2,
            other => panic!("{path}: {id}: kind {other:?}"),
        };
        let before = match f.get("before") {
            Some(b) => format!(
                "{}{PART}{}{PART}{}",
                alphabet_index(b["alphabet"].as_str().expect("before alphabet")),
                b["length"].as_u64().expect("before length"),
                b.get("extra_chars").and_then(|e| e.as_str()).unwrap_or(""),
            ),
            None => String::new(),
        };
        let pieces: Vec<String> = if kind == 2 {
            Vec::new()
        } else if let Some(segs) = f.get("segments").and_then(|s| s.as_array()) {
            segs.iter().map(|s| piece(s, id)).collect()
        } else {
            vec![piece(f, id)]
        };
        let suffix = f.get("suffix").and_then(|s| s.as_str()).unwrap_or("");
        let boundary = f.get("boundary").and_then(|b| b.as_bool()).unwrap_or(true);
        let row = format!(
            "{id}{FIELD}{kind}{FIELD}{prefix}{FIELD}{before}{FIELD}{}{FIELD}{suffix}{FIELD}{}",
            pieces.join(&PIECE.to_string()),
            u8::from(boundary)
        );
        assert!(
            row.split(FIELD).count() == 7 && !row.contains('\n'),
            "{path}: {id}: a field holds a control character"
        );
        rows.push(row);
    }
    let mut names = std::collections::BTreeSet::new();
    for k in v["keyword_only"].as_array().expect("keyword_only") {
        let id = k["id"].as_str().expect("keyword id");
        assert!(ids.insert(id.to_string()), "{path}: {id} twice");
        for w in k["keywords"].as_array().expect("keywords") {
            let w = w.as_str().expect("keyword");
            // Identifier-like names only (an environment variable, a header,
            // a field): a bare word such as a provider's name is no key.
            let identifier = w
                .bytes()
                .any(|b| b.is_ascii_uppercase() || b == b'_' || b == b'-')
                && !w.contains(' ');
            if identifier {
                let n: String = w
                    .bytes()
                    .filter(|b| !matches!(b, b'_' | b'-'))
                    .map(|b| char::from(b.to_ascii_lowercase()))
                    .collect();
                if n.len() >= 3 {
                    names.insert(n);
                }
            }
        }
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    format!(
        "pub(crate) static FORMAT_TEXT: &str = {:?};\npub(crate) static CREDENTIAL_NAMES: &str = {:?};\n",
        rows.join("\n"),
        names.join("\n")
    )
}

fn main() {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=src/rules/form.rs");
    println!("cargo:rerun-if-changed=src/taxonomy.rs");
    let codes = codes();
    let names: Vec<&str> = codes.iter().map(String::as_str).collect();

    let mut files: Vec<_> = std::fs::read_dir("rules")
        .expect("rules/")
        .map(|e| e.expect("rules/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();

    let mut out = Out {
        statics: String::new(),
        n: 0,
    };
    let mut tables = Vec::new();
    // Table indexes by anchor, with the screening flags (see `each_match`).
    let mut anchors: BTreeMap<String, Vec<(usize, usize, form::Take)>> = BTreeMap::new();
    let mut filter = [0u64; 64];
    // Per member: the phrase tables at it (merged into one index below).
    let mut phrase_index: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut parsed: Vec<form::Table> = Vec::new();
    let mut unanchored = Vec::new();
    let mut families = Vec::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(path).expect("rule file");
        let value: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
        // The lexicon and the credential formats are compiled below.
        if value.get("rules").is_none() {
            continue;
        }
        let file =
            form::parse_file(&value, &names).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rows: usize = file.rules.iter().map(|r| r.rows.len()).sum();
        families.push(format!("({:?}, {:?}, {rows})", file.family, file.tag));
        for t in &file.rules {
            let index = tables.len();
            tables.push(out.table(t));
            // How the matcher screens the table (see `each_match`): a table
            // keyed at members of the node sets its keys' bits in the key
            // filter under each member; one that also reads `body` or
            // `headers` is screened so only when the node has neither; a
            // phrase table at one member joins that member's phrase index.
            let members: Vec<&str> =
                t.at.iter()
                    .filter(|l| l.is_member())
                    .map(|l| l.first())
                    .collect();
            // Sets a key's bits under a member and take.
            let mut set = |m: &str, take: form::Take, k: &[u8]| {
                for bit in form::filter_bits(form::key_hash(k), form::filter_seed(m, take)) {
                    filter[bit / 64] |= 1 << (bit % 64);
                }
            };
            // A rule with no `at` whose first condition is a list a member's
            // value must be in is screened by that list.
            let listed = match t.when.first() {
                Some(form::Cond::At(l, form::Test::In(list) | form::Test::NameIn(list)))
                    if t.at.is_empty() && l.is_member() =>
                {
                    let take = match &t.when[0] {
                        form::Cond::At(_, form::Test::NameIn(_)) => form::Take::Name,
                        _ => form::Take::Exact,
                    };
                    Some((l.first(), take, list))
                }
                _ => None,
            };
            let (flag, screen) = if let Some((m, take, list)) = listed {
                for k in list.split('\n') {
                    set(m, take, k.as_bytes());
                }
                (KEYED, take)
            } else if t.at.is_empty() || members.is_empty() {
                (0, t.take)
            } else if t.take == form::Take::Phrase {
                if t.at.len() == 1 {
                    phrase_index
                        .entry(members[0].to_string())
                        .or_default()
                        .push(index);
                    (PHRASED, t.take)
                } else {
                    (0, t.take)
                }
            } else {
                for m in &members {
                    for i in 0..t.rows.len() {
                        set(m, t.take, t.view().key(i));
                    }
                }
                if members.len() == t.at.len() {
                    (KEYED, t.take)
                } else {
                    (KEYED_BARE, t.take)
                }
            };
            parsed.push(t.clone());
            // The anchor: the first member of every `at` location, else of
            // the first location a condition needs present.
            let mut firsts: Vec<String> = if t.at.is_empty() {
                t.when
                    .iter()
                    .find_map(|c| match c {
                        form::Cond::At(l, test) if *test != form::Test::Exists(false) => {
                            Some(vec![l.first().to_string()])
                        }
                        _ => None,
                    })
                    .unwrap_or_default()
            } else {
                t.at.iter().map(|l| l.first().to_string()).collect()
            };
            if firsts.is_empty() {
                unanchored.push(index);
            }
            firsts.sort();
            firsts.dedup();
            for f in firsts {
                // A keyed table is screened only at the members it reads
                // (at `args` of `args[]`, say, the keys are in the array).
                let flag = match flag {
                    KEYED | KEYED_BARE if !members.contains(&f.as_str()) && listed.is_none() => 0,
                    _ => flag,
                };
                anchors.entry(f).or_default().push((index, flag, screen));
            }
        }
    }
    assert!(tables.len() < usize::from(u16::MAX), "too many tables");

    let mut code = String::new();
    code.push_str("// Generated by build.rs from rules/*.json. Do not edit.\n");
    code.push_str(&out.statics);
    let _ = writeln!(
        code,
        "static BUILTIN: &[View<'static>] = &[{}];",
        tables.join(",\n")
    );
    // Each anchor: its tables in order, and as bit masks over them (bit
    // `j` is its `j`th table) the keyed ones by take, the ones keyed only
    // when the node has no body or headers, by take, and the phrase ones.
    let anchor_names: Vec<&String> = anchors.keys().collect();
    let anchors: Vec<String> = anchors
        .iter()
        .map(|(k, v)| {
            assert!(v.len() <= 64, "anchor {k}: more than 64 tables (widen `Anchor`'s masks)");
            let tables: Vec<String> = v.iter().map(|(i, _, _)| i.to_string()).collect();
            let masks = |want: usize| -> String {
                let mut by_take: Vec<(form::Take, u64)> = Vec::new();
                for (j, (_, flag, take)) in v.iter().enumerate() {
                    if *flag == want {
                        match by_take.iter_mut().find(|(t, _)| t == take) {
                            Some((_, m)) => *m |= 1 << j,
                            None => by_take.push((*take, 1 << j)),
                        }
                    }
                }
                let items: Vec<String> = by_take
                    .iter()
                    .map(|(t, m)| format!("(Take::{t:?}, {m}, {})", form::filter_seed(k, *t)))
                    .collect();
                format!("&[{}]", items.join(", "))
            };
            let phrased: u64 = v
                .iter()
                .enumerate()
                .filter(|(_, (_, flag, _))| *flag == PHRASED)
                .fold(0, |m, (j, _)| m | 1 << j);
            format!(
                "Anchor {{ member: {k:?}, tables: &[{}], keyed: {}, keyed_bare: {}, phrased: {phrased} }}",
                tables.join(", "),
                masks(KEYED),
                masks(KEYED_BARE)
            )
        })
        .collect();
    let _ = writeln!(
        code,
        "static ANCHORS: &[Anchor] = &[{}];",
        anchors.join(",\n")
    );
    let names: Vec<String> = anchor_names.iter().map(|k| format!("{k:?}")).collect();
    let _ = writeln!(
        code,
        "const ANCHOR_NAMES: &[&str] = &[{}];",
        names.join(", ")
    );
    let _ = writeln!(code, "static KEY_FILTER: [u64; 64] = {filter:?};");
    // Each member's phrase index: every key of its phrase tables, sorted,
    // as (table, row), and the byte pairs they start with.
    let mut index = Vec::new();
    for (m, ts) in &phrase_index {
        let mut entries: Vec<(&[u8], usize, usize)> = Vec::new();
        let mut starts = [0u32; 36];
        for &ti in ts {
            let t = &parsed[ti];
            for i in 0..t.rows.len() {
                let k = t.view().key(i);
                starts[usize::from(form::start_class(k[0]))] |= 1 << (k[1] & 31);
                entries.push((k, ti, i));
            }
        }
        entries.sort();
        let rows: Vec<String> = entries
            .iter()
            .map(|(_, ti, i)| format!("({ti}, {i})"))
            .collect();
        let pairs: Vec<String> = entries
            .iter()
            .map(|(k, _, _)| u16::from_be_bytes([k[0], k[1]]).to_string())
            .collect();
        // Each key's head (`form::head`), and how many bytes of it the key fills.
        let heads: Vec<String> = entries
            .iter()
            .map(|(k, _, _)| form::head(k).to_string())
            .collect();
        let lens: Vec<String> = entries
            .iter()
            .map(|(k, _, _)| k.len().min(8).to_string())
            .collect();
        index.push(format!(
            "PhraseIndex {{ member: {m:?}, starts: {starts:?}, rows: &[{}], pairs: &[{}], heads: &[{}], lens: &[{}] }}",
            rows.join(", "),
            pairs.join(", "),
            heads.join(", "),
            lens.join(", ")
        ));
    }
    let _ = writeln!(
        code,
        "static PHRASE_INDEX: &[PhraseIndex] = &[{}];",
        index.join(", ")
    );
    let _ = writeln!(
        code,
        "const BUILTIN_WORDS: usize = {};",
        tables.len().div_ceil(64)
    );
    let un: Vec<String> = unanchored.iter().map(|i| i.to_string()).collect();
    let _ = writeln!(code, "static UNANCHORED: &[u16] = &[{}];", un.join(", "));
    let _ = writeln!(
        code,
        "static FAMILIES: &[(&str, &str, usize)] = &[{}];",
        families.join(", ")
    );
    code.push_str(&lexicon(&codes));
    let dest_s = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("signal_tables.rs");
    std::fs::write(dest_s, signal_tables(&codes)).expect("writing the signal tables");
    let credentials_code = credentials();
    let dest_c = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("credentials.rs");
    std::fs::write(dest_c, credentials_code).expect("writing the credential formats");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("builtin_rules.rs");
    std::fs::write(dest, code).expect("writing the tables");
}

/// In `ANCHORS`: the table is keyed at members only; screened by the key filter.
const KEYED: usize = 1 << 15;
/// In `ANCHORS`: the table is keyed at members and at `body` or `headers`;
/// screened by the key filter when the node has neither.
const KEYED_BARE: usize = 1 << 14;
/// In `ANCHORS`: the table finds phrases at one member; found through the
/// member's phrase index.
const PHRASED: usize = 1 << 13;
