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
