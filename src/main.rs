//! The `mcp-errors` command line: classify and render raw errors given as JSON lines.
//!
//! ```text
//! mcp-errors classify [--now RFC3339] [--limits JSON] [--rules JSON]  < raw-errors.jsonl
//! mcp-errors render [--profile P] [--format F] [--spec S] [--target T]
//!                   [--now RFC3339] [--id ID] [--tool NAME] [--output-schema JSON]
//!                   [--extra-fields JSON] [--limits JSON] [--rules JSON] [--mask]
//!                                                      < raw-errors.jsonl
//! mcp-errors taxonomy
//! mcp-errors schema PROFILE
//! ```
//!
//! Every input line yields exactly one output line. A line that cannot be
//! processed yields `{"error":{"kind":…,"message":…,"line":N}}` and the rest go
//! on; the exit status is then 1. Blank lines (JSON whitespace only) are
//! skipped.

use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

use mcp_errors::{
    classify_render, classify_str, parse_now, ClassifyOptions, Error, Format, Limits, Profile,
    RenderOptions, SpecRevision, Target, UserRules, TABLE,
};
use serde_json::json;

const USAGE: &str = "\
usage:
  mcp-errors classify [--now RFC3339] [--limits JSON] [--rules JSON]
  mcp-errors render [--profile P] [--format F] [--spec S] [--target T]
                    [--now RFC3339] [--id ID] [--tool NAME] [--output-schema JSON]
                    [--extra-fields JSON] [--limits JSON] [--rules JSON] [--mask]
  mcp-errors taxonomy
  mcp-errors schema PROFILE

classify and render read raw errors as JSON lines on stdin and write one JSON
line per input line to stdout. A bad line yields an {\"error\":…} line.
--limits takes a JSON object such as {\"max_message_chars\":500}.
--rules takes a JSON array of recognizer rules (see the README).

profiles: canonical, tool-error-v1, mcp-tool-error, text, error-object, rpc-envelope
formats:  markdown, json, both
specs:    2025-06-18, 2025-11-25, 2026-07-28
targets:  tool-result, soft-result, protocol-error, needs-input, log-record";

enum Command {
    Classify(ClassifyOptions),
    Render(RenderOptions),
    Taxonomy,
    Schema(Profile),
}

const CLASSIFY_FLAGS: &str = "classify takes only --now, --limits and --rules";

fn detail(err: Error) -> String {
    err.detail().to_string()
}

/// A flag's JSON value, or the usage error every CLI gives when it is not JSON.
fn json_flag(flag: &str, v: &str) -> Result<serde_json::Value, String> {
    mcp_errors::parse_json(v).map_err(|_| format!("{flag} must be JSON"))
}

fn limits_flag(v: &str) -> Result<Limits, String> {
    Limits::from_json_value(&json_flag("--limits", v)?).map_err(detail)
}

fn rules_flag(v: &str) -> Result<UserRules, String> {
    UserRules::from_value(&json_flag("--rules", v)?).map_err(detail)
}

/// Render's flags, each checked by the core as it is read (a value the core
/// would refuse for every line is a usage error, before any input).
fn render_flags(rest: &[String]) -> Result<RenderOptions, String> {
    let mut opts = RenderOptions::default();
    let mut i = 0;
    while i < rest.len() {
        let flag = rest[i].as_str();
        if flag == "--mask" {
            opts.mask = true;
            i += 1;
            continue;
        }
        let known = [
            "--profile",
            "--format",
            "--spec",
            "--target",
            "--now",
            "--id",
            "--tool",
            "--output-schema",
            "--extra-fields",
            "--limits",
            "--rules",
        ];
        if !known.contains(&flag) {
            return Err(format!(
                "unknown argument {}",
                serde_json::Value::from(flag)
            ));
        }
        let v = rest
            .get(i + 1)
            .cloned()
            .ok_or_else(|| format!("{flag} needs a value"))?;
        if flag == "--extra-fields" {
            json_flag(flag, &v)?;
        }
        // The flag's value, set on the options and on an empty set of them:
        // this flag alone is checked by rendering an empty error with it.
        let set = |o: &mut RenderOptions| -> Result<(), String> {
            let v = v.clone();
            match flag {
                "--profile" => o.profile = Profile::from_name(&v).map_err(detail)?,
                "--format" => o.format = Format::from_name(&v).map_err(detail)?,
                "--spec" => o.spec = SpecRevision::from_name(&v).map_err(detail)?,
                "--target" => o.target = Target::from_name(&v).map_err(detail)?,
                "--now" => {
                    parse_now(&v).map_err(detail)?;
                    o.now = Some(v);
                }
                "--id" => o.error_id = Some(v),
                "--tool" => o.tool_name = Some(v),
                "--output-schema" => o.output_schema = Some(v),
                "--extra-fields" => o.extra_fields = Some(v),
                "--rules" => o.rules = rules_flag(&v)?,
                _ => o.limits = limits_flag(&v)?,
            }
            Ok(())
        };
        let mut alone = RenderOptions {
            now: Some(CHECK_TIME.into()),
            ..RenderOptions::default()
        };
        set(&mut alone)?;
        set(&mut opts)?;
        classify_render("{}", &alone).map_err(detail)?;
        i += 2;
    }
    // Together, in case the core refuses a combination (with a time, as above).
    let together = RenderOptions {
        now: opts.now.clone().or_else(|| Some(CHECK_TIME.into())),
        ..opts.clone()
    };
    classify_render("{}", &together).map_err(detail)?;
    Ok(opts)
}

/// Any valid time: what checking a flag alone renders with.
const CHECK_TIME: &str = "2000-01-01T00:00:00Z";

fn parse_args(args: &[String]) -> Result<Command, String> {
    let (cmd, rest) = args.split_first().ok_or("missing command")?;
    if cmd == "schema" {
        return match rest {
            [p] => Profile::from_name(p).map(Command::Schema).map_err(detail),
            _ => Err("schema takes one profile name".into()),
        };
    }
    // Flags are checked one at a time, in the order given, so every CLI names
    // the same one when several are wrong.
    match cmd.as_str() {
        "classify" => {
            let mut options = ClassifyOptions::default();
            for pair in rest.chunks(2) {
                let [flag, v] = pair else {
                    return Err(CLASSIFY_FLAGS.into());
                };
                match flag.as_str() {
                    "--now" => options.now_ms = Some(parse_now(v).map_err(detail)?),
                    "--limits" => options.limits = limits_flag(v)?,
                    "--rules" => options.rules = rules_flag(v)?,
                    _ => return Err(CLASSIFY_FLAGS.into()),
                }
            }
            Ok(Command::Classify(options))
        }
        "render" => render_flags(rest).map(Command::Render),
        "taxonomy" if rest.is_empty() => Ok(Command::Taxonomy),
        "taxonomy" => Err("taxonomy takes no arguments".into()),
        other => Err(format!(
            "unknown command {}",
            serde_json::Value::from(other)
        )),
    }
}

fn error_line(err: &Error, line: usize) -> String {
    json!({"error": {"kind": err.kind(), "message": err.detail(), "line": line}}).to_string()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let command = match parse_args(&args) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("mcp-errors: {msg}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if let Command::Schema(profile) = command {
        println!("{}", mcp_errors::schema(profile));
        return ExitCode::SUCCESS;
    }
    if let Command::Taxonomy = command {
        for info in TABLE {
            let row = json!({
                "code": info.name,
                "category": info.category.name(),
                "http_status": info.http_status,
                "grpc_code": info.grpc_code,
                "jsonrpc_code": info.jsonrpc_code,
                "retryable": info.retryable,
                "doc": info.doc,
            });
            if writeln!(out, "{row}").is_err() {
                return ExitCode::FAILURE;
            }
        }
        return if out.flush().is_ok() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }

    let stdin = std::io::stdin();
    let mut failed = false;
    for (index, bytes) in stdin.lock().split(b'\n').enumerate() {
        let line_no = index + 1;
        let bytes = match bytes {
            Ok(b) => b,
            Err(err) => {
                eprintln!("mcp-errors: reading stdin: {err}");
                return ExitCode::FAILURE;
            }
        };
        let result = match std::str::from_utf8(&bytes) {
            Err(err) => Err(Error::InvalidInput(format!("line is not UTF-8: {err}"))),
            Ok(text) => {
                let text = text.strip_suffix('\r').unwrap_or(text);
                // Blank: JSON whitespace only (what the parser itself skips), in
                // every CLI; a byte-order mark or a `\x1c` is not blank.
                if text
                    .bytes()
                    .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                {
                    continue;
                }
                match &command {
                    Command::Classify(o) => classify_str(text, o).map(|n| n.to_json()),
                    Command::Render(o) => classify_render(text, o),
                    Command::Taxonomy | Command::Schema(_) => unreachable!("handled above"),
                }
            }
        };
        let line = result.unwrap_or_else(|err| {
            failed = true;
            error_line(&err, line_no)
        });
        if writeln!(out, "{line}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
