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

/// `(Variant, NAME)` for each canonical code, read from the taxonomy table.
fn codes() -> Vec<(String, String)> {
    let src = std::fs::read_to_string("src/taxonomy.rs").expect("src/taxonomy.rs");
    let mut out = Vec::new();
    for line in src.lines() {
        let l = line.trim();
        // `Cancelled = "CANCELLED", doc: "…" {`
        if let Some((variant, rest)) = l.split_once(" = \"") {
            if let Some((name, _)) = rest.split_once("\", doc:") {
                if variant.chars().all(|c| c.is_ascii_alphanumeric()) {
                    out.push((variant.to_string(), name.to_string()));
                }
            }
        }
    }
    assert!(out.len() >= 10, "the taxonomy's codes were not found");
    out
}

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

    fn loc(&mut self, path: &str) -> String {
        let segs: Vec<String> = path
            .split('.')
            .map(|s| match s.strip_suffix("[]") {
                Some(k) => format!("Seg::Each(Cow::Borrowed({k:?}))"),
                None => format!("Seg::Key(Cow::Borrowed({s:?}))"),
            })
            .collect();
        let s = self.stat("Seg", &segs);
        format!("Loc(Cow::Borrowed(&{s}))")
    }

    fn strs(&mut self, l: &[String]) -> String {
        let items: Vec<String> = l.iter().map(|s| format!("Cow::Borrowed({s:?})")).collect();
        let s = self.stat("S", &items);
        format!("Cow::Borrowed(&{s})")
    }
}

fn main() {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=src/rules/form.rs");
    println!("cargo:rerun-if-changed=src/taxonomy.rs");
    let codes = codes();
    let names: Vec<&str> = codes.iter().map(|(_, n)| n.as_str()).collect();
    let variant = |name: &str| -> &str {
        &codes
            .iter()
            .find(|(_, n)| n == name)
            .expect("checked by the parser")
            .0
    };

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
    let mut anchors: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut unanchored = Vec::new();
    let mut families = Vec::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(path).expect("rule file");
        let value: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
        let file =
            form::parse_file(&value, &names).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rows: usize = file.rules.iter().map(|r| r.rows.len()).sum();
        families.push(format!(
            "({:?}, {:?}, {:?}, {rows})",
            file.family, file.tag, file.source
        ));
        for spec in &file.rules {
            let index = tables.len();
            let tier = spec
                .tier
                .clone()
                .unwrap_or_else(|| form::default_tier(spec).to_string());
            let mut rows = spec.rows.clone();
            rows.sort_by(|a, b| a.key.cmp(&b.key));
            if let Some(w) = rows.windows(2).find(|w| w[0].key == w[1].key) {
                panic!(
                    "{}: rule {}: key {:?} twice",
                    path.display(),
                    spec.id,
                    w[0].key
                );
            }
            let rows: Vec<String> = rows
                .iter()
                .map(|r| {
                    let delay = match &r.retry_after {
                        Some(d) => format!(
                            "Some(Delay {{ at: {}, scale_ms: {} }})",
                            out.loc(&d.path),
                            d.scale_ms
                        ),
                        None => "None".into(),
                    };
                    let key = match &r.key {
                        Some(k) => format!("Some(Cow::Borrowed({k:?}))"),
                        None => "None".into(),
                    };
                    format!(
                        "Row {{ key: {key}, code: Code::{}, retryable: {:?}, delay: {delay} }}",
                        variant(&r.code),
                        r.retryable
                    )
                })
                .collect();
            let rows = out.stat("Row", &rows);
            let at: Vec<String> = spec.at.iter().map(|p| out.loc(p)).collect();
            let at = out.stat("Loc", &at);
            let when: Vec<String> = spec
                .when
                .iter()
                .map(|c| match c {
                    form::CondSpec::Status(r) => {
                        let items: Vec<String> =
                            r.iter().map(|(a, b)| format!("({a}, {b})")).collect();
                        let s = out.stat("(u16, u16)", &items);
                        format!("Cond::Status(Cow::Borrowed(&{s}))")
                    }
                    form::CondSpec::Path { path, test } => {
                        let l = out.loc(path);
                        let t = match test {
                            form::TestSpec::In(v) => format!("Test::In({})", out.strs(v)),
                            form::TestSpec::NameIn(v) => format!("Test::NameIn({})", out.strs(v)),
                            form::TestSpec::Contains(p) => {
                                format!("Test::Contains(Cow::Borrowed({p:?}))")
                            }
                            form::TestSpec::Prefix(p) => {
                                format!("Test::Prefix(Cow::Borrowed({p:?}))")
                            }
                            form::TestSpec::Exists(b) => format!("Test::Exists({b})"),
                        };
                        format!("Cond::At({l}, {t})")
                    }
                })
                .collect();
            let when = out.stat("Cond", &when);
            tables.push(format!(
                "Table {{ tag: Cow::Borrowed({:?}), at: Cow::Borrowed(&{at}), take: Take::{:?}, when: Cow::Borrowed(&{when}), strength: {}, rows: Cow::Borrowed(&{rows}) }}",
                file.tag,
                spec.take,
                form::tier_strength(&tier)
            ));
            // The anchor: the first segment of every `at` path, else of the first path condition.
            let firsts: Vec<String> = if spec.at.is_empty() {
                spec.when
                    .iter()
                    .find_map(|c| match c {
                        form::CondSpec::Path { path, test }
                            if *test != form::TestSpec::Exists(false) =>
                        {
                            Some(vec![first_seg(path)])
                        }
                        _ => None,
                    })
                    .unwrap_or_default()
            } else {
                spec.at.iter().map(|p| first_seg(p)).collect()
            };
            if firsts.is_empty() {
                unanchored.push(index);
            }
            let mut firsts = firsts;
            firsts.sort();
            firsts.dedup();
            for f in firsts {
                anchors.entry(f).or_default().push(index);
            }
        }
    }
    assert!(tables.len() < u16::MAX as usize);

    let mut code = String::new();
    code.push_str("// Generated by build.rs from rules/*.json. Do not edit.\n");
    code.push_str(&out.statics);
    let _ = writeln!(
        code,
        "static BUILTIN: &[Table] = &[{}];",
        tables.join(",\n")
    );
    let anchors: Vec<String> = anchors
        .iter()
        .map(|(k, v)| {
            let v: Vec<String> = v.iter().map(|i| i.to_string()).collect();
            format!("({k:?}, &[{}])", v.join(", "))
        })
        .collect();
    let _ = writeln!(
        code,
        "static ANCHORS: &[(&str, &[u16])] = &[{}];",
        anchors.join(", ")
    );
    let un: Vec<String> = unanchored.iter().map(|i| i.to_string()).collect();
    let _ = writeln!(code, "static UNANCHORED: &[u16] = &[{}];", un.join(", "));
    let _ = writeln!(
        code,
        "static FAMILIES: &[(&str, &str, &str, usize)] = &[{}];",
        families.join(", ")
    );
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("builtin_rules.rs");
    std::fs::write(dest, code).expect("writing the tables");
}

/// Where a location starts: `body`, `headers`, or the node's own member.
fn first_seg(p: &str) -> String {
    let s = p.split('.').next().unwrap_or(p);
    s.strip_suffix("[]").unwrap_or(s).to_string()
}
