//! The README's taxonomy table is the code's, row for row.

#[test]
fn readme_taxonomy_table_matches_the_code() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let rows: Vec<Vec<String>> = readme
        .lines()
        .filter(|l| l.starts_with("| `") && l.split('|').count() == 9)
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    assert_eq!(
        rows.len(),
        mcp_errors::TABLE.len(),
        "one README row per code"
    );
    for (row, info) in rows.iter().zip(mcp_errors::TABLE) {
        let want = [
            format!("`{}`", info.name),
            info.category.name().to_string(),
            info.http_status.to_string(),
            info.grpc_code.to_string(),
            info.jsonrpc_code.to_string(),
            (if info.retryable { "yes" } else { "no" }).to_string(),
            info.doc.to_string(),
        ];
        assert_eq!(&row[1..8], &want[..], "README row for {}", info.name);
    }
}

/// The README's limits table gives the code's defaults and ranges.
#[test]
fn readme_limits_table_matches_the_code() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let number = |s: &str| -> usize { s.replace(' ', "").parse().expect("a number") };
    let rows: Vec<(String, usize, usize, usize)> = readme
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("| `max_"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let (lo, hi) = cells[4].split_once('–').expect("a range lo – hi");
            (
                cells[1].trim_matches('`').to_string(),
                number(cells[3]),
                number(lo),
                number(hi),
            )
        })
        .collect();
    let defaults = mcp_errors::Limits::default();
    let default_of = [
        defaults.max_message_chars,
        defaults.max_string_chars,
        defaults.max_depth,
        defaults.max_members,
        defaults.max_rendered_bytes,
    ];
    let want: Vec<(String, usize, usize, usize)> = mcp_errors::Limits::RANGES
        .iter()
        .zip(default_of)
        .map(|((name, lo, hi), d)| (name.to_string(), d, *lo, *hi))
        .collect();
    assert_eq!(rows, want);
}

/// The README's table of recognised families is the compiled rules' list.
#[test]
fn readme_families_table_matches_the_rules() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let rows: Vec<(String, usize)> = readme
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("| ") && l.contains("| `rules/"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].to_string(), cells[3].parse().expect("a row count"))
        })
        .collect();
    let want: Vec<(String, usize)> = mcp_errors::rules::families()
        .iter()
        .map(|(family, _, rows)| (family.to_string(), *rows))
        .collect();
    assert_eq!(rows, want);
}

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// One version: `Cargo.toml`'s workspace version (`CARGO_PKG_VERSION`) is
/// the one every other file carries (`cargo xtask version NEW` writes them).
#[test]
fn every_file_carries_the_crate_version() {
    let v = env!("CARGO_PKG_VERSION");
    for (file, want) in [
        ("npm/package.json", format!("\"version\": \"{v}\"")),
        (
            "bindings/python/pyproject.toml",
            format!("\nversion = \"{v}\"\n"),
        ),
        (
            "wit/mcp-errors.wit",
            format!("package mcp-errors:core@{v};"),
        ),
        (
            "bindings/python/src/mcp_errors/_engine.py",
            format!("_API = \"mcp-errors:core/api@{v}\""),
        ),
    ] {
        assert!(read(file).contains(&want), "{file} does not say {want:?}");
    }
    let lock: serde_json::Value = serde_json::from_str(&read("npm/package-lock.json")).unwrap();
    assert_eq!(lock["version"], v);
    assert_eq!(lock["packages"][""]["version"], v);
}

/// One licence: Apache-2.0 in every manifest, its text at the root and in
/// each published package.
#[test]
fn one_licence_everywhere() {
    let text = read("LICENSE");
    assert!(text.contains("Apache License") && text.contains("Version 2.0, January 2004"));
    for copy in ["npm/LICENSE", "bindings/python/LICENSE"] {
        assert_eq!(read(copy), text, "{copy} differs from LICENSE");
    }
    assert!(read("Cargo.toml").contains("license = \"Apache-2.0\""));
    let npm: serde_json::Value = serde_json::from_str(&read("npm/package.json")).unwrap();
    assert_eq!(npm["license"], "Apache-2.0");
    let lock: serde_json::Value = serde_json::from_str(&read("npm/package-lock.json")).unwrap();
    assert_eq!(lock["packages"][""]["license"], "Apache-2.0");
    assert!(read("bindings/python/pyproject.toml").contains("license = { text = \"Apache-2.0\" }"));
    assert!(
        read("README.md").contains("Apache-2.0"),
        "the README states the licence"
    );
}

/// The taxonomy table is in the order of the WIT contract's `error-code`
/// enum (hosts map codes by position), and its names are the WIT's in
/// SCREAMING_SNAKE_CASE.
#[test]
fn taxonomy_order_is_the_wit_enum_order() {
    let wit = read("wit/mcp-errors.wit");
    let body = &wit[wit.find("enum error-code {").expect("the enum")..];
    let body = &body[..body.find('}').unwrap()];
    let wit_names: Vec<String> = body
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(|l| {
            l.trim_end_matches(',')
                .replace('-', "_")
                .to_ascii_uppercase()
        })
        .collect();
    let table: Vec<&str> = mcp_errors::TABLE.iter().map(|i| i.name).collect();
    assert_eq!(wit_names, table);
}

/// The API report: every `pub` item of the crate (not `pub(crate)`), file by file, with its
/// signature line, checked in as `tests/api-report.txt`. A change of public API is deliberate:
/// this test fails until the report is updated (`MCP_ERRORS_UPDATE_API=1 cargo test`).
#[test]
fn the_public_items_are_the_checked_in_api_report() {
    let src = format!("{}/src", env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(&src)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("main.rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut report = String::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.strip_prefix(&src).unwrap().display().to_string();
        let mut in_tests = false;
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let mut l = line.trim().to_string();
            if l == "#[cfg(test)]" {
                in_tests = true;
            }
            // A `pub use a::{…};` over several lines, as one.
            if l.starts_with("pub use ") && l.ends_with('{') {
                for more in lines.by_ref() {
                    l.push_str(more.trim());
                    if more.trim_end().ends_with("};") {
                        break;
                    }
                }
            }
            let l = l.as_str();
            let public = [
                "fn ", "struct ", "enum ", "const ", "static ", "trait ", "type ", "mod ", "use ",
            ]
            .iter()
            .any(|k| l.starts_with(&format!("pub {k}")));
            if public && !in_tests {
                let sig = l.trim_end_matches('{').trim_end();
                report.push_str(&format!("{name}: {sig}\n"));
            }
        }
    }
    let path = format!("{}/tests/api-report.txt", env!("CARGO_MANIFEST_DIR"));
    if std::env::var("MCP_ERRORS_UPDATE_API").as_deref() == Ok("1") {
        std::fs::write(&path, &report).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        report == want,
        "the public items changed: review the diff, then run MCP_ERRORS_UPDATE_API=1 cargo test --test docs"
    );
}
