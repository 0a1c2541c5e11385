//! The `mcp-errors` command line: classify and render raw errors given as JSON lines.
//!
//! ```text
//! mcp-errors classify [--now RFC3339] [--limits JSON]  < raw-errors.jsonl
//! mcp-errors render [--profile P] [--format F] [--spec S] [--target T]
//!                   [--now RFC3339] [--id ID] [--tool NAME] [--output-schema JSON]
//!                   [--extra-fields JSON] [--limits JSON] [--mask]
//!                                                      < raw-errors.jsonl
//! mcp-errors taxonomy
//! mcp-errors schema PROFILE
//! ```
//!
//! Every input line yields exactly one output line. A line that cannot be
//! processed yields `{"error":{"kind":…,"message":…,"line":N}}` and the rest go
//! on; the exit status is then 1. Blank lines are skipped.

use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

use mcp_errors::{
    classify_render, classify_str, parse_now, ClassifyOptions, Error, Format, Limits, Profile,
    RenderOptions, SpecRevision, Target, TABLE,
};
use serde_json::json;

const USAGE: &str = "\
usage:
  mcp-errors classify [--now RFC3339] [--limits JSON]
  mcp-errors render [--profile P] [--format F] [--spec S] [--target T]
                    [--now RFC3339] [--id ID] [--tool NAME] [--output-schema JSON]
                    [--extra-fields JSON] [--limits JSON] [--mask]
  mcp-errors taxonomy
  mcp-errors schema PROFILE

classify and render read raw errors as JSON lines on stdin and write one JSON
line per input line to stdout. A bad line yields an {\"error\":…} line.
--limits takes a JSON object such as {\"max_message_chars\":500}.

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

fn parse_args(args: &[String]) -> Result<Command, String> {
    let (cmd, rest) = args.split_first().ok_or("missing command")?;
    if cmd == "schema" {
        return match rest {
            [p] => Profile::from_name(p)
                .map(Command::Schema)
                .map_err(|e| e.detail().to_string()),
            _ => Err("schema takes one profile name".into()),
        };
    }
    let mut opts = RenderOptions::default();
    let mut now = None;
    let mut limits = Limits::default();
    let mut i = 0;
    while i < rest.len() {
        let flag = rest[i].as_str();
        let value = || {
            rest.get(i + 1)
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let e = |err: Error| err.detail().to_string();
        match flag {
            "--profile" => opts.profile = Profile::from_name(&value()?).map_err(e)?,
            "--format" => opts.format = Format::from_name(&value()?).map_err(e)?,
            "--spec" => opts.spec = SpecRevision::from_name(&value()?).map_err(e)?,
            "--target" => opts.target = Target::from_name(&value()?).map_err(e)?,
            "--now" => {
                let v = value()?;
                parse_now(&v).map_err(e)?;
                now = Some(v);
            }
            "--id" => opts.error_id = Some(value()?),
            "--tool" => opts.tool_name = Some(value()?),
            "--output-schema" => opts.output_schema = Some(value()?),
            "--extra-fields" => opts.extra_fields = Some(value()?),
            "--limits" => {
                let v = mcp_errors::parse_json(&value()?)
                    .map_err(|_| "--limits must be JSON".to_string())?;
                limits = Limits::from_json_value(&v).map_err(e)?
            }
            "--mask" => {
                opts.mask = true;
                i += 1;
                continue;
            }
            other => {
                return Err(format!(
                    "unknown argument {}",
                    mcp_errors::json_quoted(other)
                ))
            }
        }
        i += 2;
    }
    match cmd.as_str() {
        "classify" => {
            if opts != RenderOptions::default() {
                return Err("classify takes only --now and --limits".into());
            }
            let now_ms = now
                .as_deref()
                .map(parse_now)
                .transpose()
                .map_err(|e| e.to_string())?;
            Ok(Command::Classify(ClassifyOptions { now_ms, limits }))
        }
        "render" => {
            opts.now = now;
            opts.limits = limits;
            Ok(Command::Render(opts))
        }
        "taxonomy" if rest.is_empty() => Ok(Command::Taxonomy),
        "taxonomy" => Err("taxonomy takes no arguments".into()),
        other => Err(format!(
            "unknown command {}",
            mcp_errors::json_quoted(other)
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
                let text = text.trim_end_matches('\r');
                if text.trim().is_empty() {
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
