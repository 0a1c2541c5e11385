//! The host contract, generated: `npm/src/contract.ts` and
//! `bindings/python/src/mcp_errors/_contract.py` are written from the core's
//! taxonomy, option enums, limits, hint names and conversion bounds
//! (`mcp_errors::contract`). The hosts define none of these by hand, and this
//! test fails when a checked-in file differs from what the core generates.
//! `MCP_ERRORS_UPDATE_API=1 cargo test --test contract` rewrites them.

use mcp_errors::contract::{
    CONVERT_MAX_DEPTH, CONVERT_MAX_ITEMS, CONVERT_MAX_STRING, FAILURE_MARKS, FAILURE_PREFIXES,
    HINTS, LIMITS, LIMIT_DOCS, MAY_HAVE_HAD_EFFECTS, NEVER_COPIED, PROXY_HTTP_USAGE,
    REFUSAL_STATUSES,
};
use mcp_errors::{Category, Format, Profile, SpecRevision, Target, TABLE};

const HEADER: &str = "Generated from the Rust core (src/taxonomy.rs, src/render.rs, \
src/contract.rs) by tests/contract.rs; do not edit. \
`MCP_ERRORS_UPDATE_API=1 cargo test --test contract` rewrites it.";

fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The option enums: TypeScript constant and type names, Python name, values.
fn enums() -> Vec<(&'static str, &'static str, &'static str, Vec<&'static str>)> {
    vec![
        (
            "PROFILES",
            "Profile",
            "Which wire contract to produce.",
            Profile::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "FORMATS",
            "Format",
            "Which content blocks a tool result carries.",
            Format::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "SPEC_REVISIONS",
            "SpecRevision",
            "The MCP revision whose schema the output satisfies.",
            SpecRevision::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "TARGETS",
            "Target",
            "What to render.",
            Target::ALL.iter().map(|v| v.name()).collect(),
        ),
    ]
}

/// Each value as a string literal in `quote`s, a backslash or the quote
/// inside escaped (`'Couldn\'t '`): the same in TypeScript, Python and Go.
fn quoted_list(values: &[&str], quote: char) -> String {
    values
        .iter()
        .map(|v| {
            let escaped = v
                .replace('\\', "\\\\")
                .replace(quote, &format!("\\{quote}"));
            format!("{quote}{escaped}{quote}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn typescript() -> String {
    let mut s = format!("// {HEADER}\n\n");
    s.push_str(
        "/** Every canonical error code, in taxonomy order. */\nexport const ERROR_CODES = [\n",
    );
    for info in TABLE {
        s.push_str(&format!("  '{}', // {}\n", info.name, info.doc));
    }
    s.push_str("] as const;\n/** A canonical error code (see the taxonomy in the README). */\n");
    s.push_str("export type ErrorCode = (typeof ERROR_CODES)[number];\n\n");
    let categories: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
    s.push_str(&format!(
        "/** Every category, in declaration order. */\nexport const CATEGORIES = [{}] as const;\n\
         /** What kind of action can fix an error. */\n\
         export type Category = (typeof CATEGORIES)[number];\n",
        quoted_list(&categories, '\'')
    ));
    for (constant, ty, doc, values) in enums() {
        s.push_str(&format!(
            "\n/** Every {ty} name, in declaration order. */\nexport const {constant} = [{}] as const;\n\
             /** {doc} */\nexport type {ty} = (typeof {constant})[number];\n",
            quoted_list(&values, '\'')
        ));
    }
    s.push_str(
        "\n/** Each limit: its option name, its snake_case name in JSON options, its default and range. */\n\
         export const LIMITS = [\n",
    );
    for (name, default, min, max) in LIMITS {
        s.push_str(&format!(
            "  {{ name: '{}', json: '{name}', default: {default}, min: {min}, max: {max} }},\n",
            camel(name)
        ));
    }
    s.push_str("] as const;\n/** The names of the limits, in the core's order. */\n");
    s.push_str("export const LIMIT_NAMES = [");
    s.push_str(&quoted_list(
        &LIMITS
            .iter()
            .map(|l| camel(l.0))
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        '\'',
    ));
    s.push_str("] as const;\n\n");
    s.push_str("/** Bounds on what is kept and rendered; an absent field takes its default, a value out of range is an `invalid_option` error. */\n");
    s.push_str("export interface Limits {\n");
    for ((name, default, min, max), doc) in LIMITS.iter().zip(LIMIT_DOCS) {
        s.push_str(&format!(
            "  /** {doc} Default {default}; {min} to {max}. */\n  {}?: number;\n",
            camel(name)
        ));
    }
    s.push_str("}\n\n");
    s.push_str("/** Each hint (its option name) and its raw-error field, in the order they are added. */\n");
    s.push_str("export const HINT_FIELDS = [\n");
    for (field, name) in HINTS {
        s.push_str(&format!("  ['{name}', '{field}'],\n"));
    }
    s.push_str("] as const;\n\n");
    s.push_str(&format!(
        "/** How deep the converter follows a thrown value's properties and causes. */\n\
         export const CONVERT_MAX_DEPTH = {CONVERT_MAX_DEPTH};\n\
         /** The most members or items the converter copies from one object or array. */\n\
         export const CONVERT_MAX_ITEMS = {CONVERT_MAX_ITEMS};\n\
         /** The longest string the converter copies, in UTF-16 units. */\n\
         export const CONVERT_MAX_STRING = {CONVERT_MAX_STRING};\n\
         /** Properties the converter never copies: stacks are not shown, request configurations carry credentials. */\n\
         export const NEVER_COPIED = [{}] as const;\n\n\
         /** Failures that may have had effects: called again only for a read-only or idempotent tool, when its annotations are known. */\n\
         export const MAY_HAVE_HAD_EFFECTS = [{}] as const;\n\
         /** HTTP statuses that refuse a request before any work: an UNAVAILABLE with one is retried for any tool. */\n\
         export const REFUSAL_STATUSES = [{}] as const;\n\
         /** How a text block starts when it reports a failure (quotes and white space aside): parsed even without isError. */\n\
         export const FAILURE_PREFIXES = [{}] as const;\n\
         /** What, starting a line of a text block, marks it a failure: parsed even without isError. */\n\
         export const FAILURE_MARKS = [{}] as const;\n\n\
         /** The proxy's usage text for the Streamable HTTP form the CLI serves; `{{host}}` is the CLI's name. */\n\
         export const PROXY_HTTP_USAGE = {};\n",
        quoted_list(&NEVER_COPIED, '\''),
        quoted_list(&MAY_HAVE_HAD_EFFECTS, '\''),
        REFUSAL_STATUSES.map(|s| s.to_string()).join(", "),
        quoted_list(&FAILURE_PREFIXES, '\''),
        quoted_list(&FAILURE_MARKS, '\''),
        serde_json::to_string(PROXY_HTTP_USAGE).unwrap()
    ));
    s
}

fn python() -> String {
    let mut s = format!(
        "\"\"\"{HEADER}\"\"\"\n\nfrom __future__ import annotations\n\n\
         from enum import Enum\nfrom typing import Literal\n\n\n\
         class ErrorCode(str, Enum):\n    \"\"\"The canonical codes (see the taxonomy in the README).\"\"\"\n\n"
    );
    for info in TABLE {
        s.push_str(&format!(
            "    #: {}\n    {} = \"{}\"\n",
            info.doc, info.name, info.name
        ));
    }
    s.push_str(
        "\n\nclass Category(str, Enum):\n    \"\"\"What kind of action can fix an error.\"\"\"\n\n",
    );
    for c in Category::ALL {
        s.push_str(&format!(
            "    {} = \"{}\"\n",
            c.name().to_ascii_uppercase(),
            c.name()
        ));
    }
    s.push('\n');
    for (_, ty, doc, values) in enums() {
        s.push_str(&format!(
            "\n#: {doc}\n{ty} = Literal[{}]\n",
            quoted_list(&values, '"')
        ));
    }
    s.push_str("\n#: Each limit: its name, default and range.\nLIMITS = (\n");
    for (name, default, min, max) in LIMITS {
        s.push_str(&format!("    (\"{name}\", {default}, {min}, {max}),\n"));
    }
    s.push_str(")\n#: The names of the limits, in the core's order.\nLIMIT_NAMES = (");
    s.push_str(&quoted_list(
        &LIMITS.iter().map(|l| l.0).collect::<Vec<_>>(),
        '"',
    ));
    s.push_str(")\n\n#: The hints (raw-error fields a tool author sets), in the order they are added.\nHINTS = (");
    s.push_str(&quoted_list(
        &HINTS.iter().map(|h| h.0).collect::<Vec<_>>(),
        '"',
    ));
    s.push_str(&format!(
        ")\n\n#: How deep the converter follows an exception's values and causes.\n\
         CONVERT_MAX_DEPTH = {CONVERT_MAX_DEPTH}\n\
         #: The most members or items the converter copies from one mapping or sequence.\n\
         CONVERT_MAX_ITEMS = {CONVERT_MAX_ITEMS}\n\
         #: The longest string the converter copies, in code points.\n\
         CONVERT_MAX_STRING = {CONVERT_MAX_STRING}\n\
         #: Attributes the converter never copies: stacks are not shown, request configurations carry credentials.\n\
         NEVER_COPIED = ({})\n\n\
         #: Failures that may have had effects: called again only for a read-only or idempotent tool, when its annotations are known.\n\
         MAY_HAVE_HAD_EFFECTS = ({})\n\
         #: HTTP statuses that refuse a request before any work: an UNAVAILABLE with one is retried for any tool.\n\
         REFUSAL_STATUSES = ({})\n\
         #: How a text block starts when it reports a failure (quotes and white space aside): parsed even without isError.\n\
         FAILURE_PREFIXES = ({})\n\
         #: What, starting a line of a text block, marks it a failure: parsed even without isError.\n\
         FAILURE_MARKS = ({},)\n\n\
         #: The proxy's usage text for the Streamable HTTP form the CLI serves; `{{host}}` is the CLI's name.\n\
         PROXY_HTTP_USAGE = {}\n",
        quoted_list(&NEVER_COPIED, '"'),
        quoted_list(&MAY_HAVE_HAD_EFFECTS, '"'),
        REFUSAL_STATUSES.map(|s| s.to_string()).join(", "),
        quoted_list(&FAILURE_PREFIXES, '"'),
        quoted_list(&FAILURE_MARKS, '"'),
        serde_json::to_string(PROXY_HTTP_USAGE).unwrap()
    ));
    s
}

fn go() -> String {
    format!(
        "// {HEADER}\n\npackage mcperrors\n\n\
         // mayHaveHadEffects are the failures that may have had effects: called\n\
         // again only for a read-only or idempotent tool, when its annotations are known.\n\
         var mayHaveHadEffects = []Code{{{}}}\n\n\
         // refusalStatuses are the HTTP statuses that refuse a request before any\n\
         // work: an UNAVAILABLE with one is retried for any tool.\n\
         var refusalStatuses = []int{{{}}}\n\n\
         // failurePrefixes are how a text block starts when it reports a failure\n\
         // (quotes and white space aside): parsed even without isError.\n\
         var failurePrefixes = []string{{{}}}\n\n\
         // failureMarks, starting a line of a text block, mark it a failure:\n\
         // parsed even without isError.\n\
         var failureMarks = []string{{{}}}\n",
        MAY_HAVE_HAD_EFFECTS
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(", "),
        REFUSAL_STATUSES.map(|s| s.to_string()).join(", "),
        quoted_list(&FAILURE_PREFIXES, '"'),
        quoted_list(&FAILURE_MARKS, '"')
    )
}

fn check(relative: &str, generated: &str) {
    let path = format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var("MCP_ERRORS_UPDATE_API").as_deref() == Ok("1") {
        std::fs::write(&path, generated).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        generated == want,
        "{relative} differs from what the core generates: run \
         MCP_ERRORS_UPDATE_API=1 cargo test --test contract, review the diff, commit it"
    );
}

#[test]
fn the_typescript_contract_is_generated_from_the_core() {
    check("npm/src/contract.ts", &typescript());
}

#[test]
fn the_go_contract_is_generated_from_the_core() {
    check("go/contract.go", &go());
}

#[test]
fn the_python_contract_is_generated_from_the_core() {
    check("bindings/python/src/mcp_errors/_contract.py", &python());
}

/// The generated files carry every code and name (a generator that dropped one
/// would still match the file it wrote).
#[test]
fn the_generated_contract_names_everything() {
    let ts = typescript();
    let py = python();
    for info in TABLE {
        assert!(ts.contains(&format!("'{}'", info.name)), "{}", info.name);
        assert!(
            py.contains(&format!("    {0} = \"{0}\"", info.name)),
            "{}",
            info.name
        );
    }
    for (_, _, _, values) in enums() {
        for v in values {
            assert!(
                ts.contains(&format!("'{v}'")) && py.contains(&format!("\"{v}\"")),
                "{v}"
            );
        }
    }
    for (field, name) in HINTS {
        assert!(
            ts.contains(&format!("['{name}', '{field}']")) && py.contains(&format!("\"{field}\""))
        );
    }
    assert_eq!(Category::ALL.len(), 7);
    assert!(ts.contains("export const CONVERT_MAX_STRING = 65536;"));
    assert!(py.contains("CONVERT_MAX_STRING = 65536\n"));
}
