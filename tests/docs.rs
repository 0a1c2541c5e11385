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
