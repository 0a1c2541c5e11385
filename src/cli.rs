//! The command line's logic, shared by every host's CLI: the Rust binary, the
//! npm `mcp-errors` command and `python -m mcp_errors` only read arguments and
//! lines and write what this module returns.
//!
//! ```text
//! start(args)            → Start::Finish (help, usage error, taxonomy, schema)
//!                        | Start::Lines(command)
//! command.line(text, n)  → one output line, or nothing for a blank line
//! bad_line(bytes, n)     → the error line for a line that is not UTF-8
//! ```
//!
//! Every input line yields exactly one output line. A line that cannot be
//! processed yields `{"error":{"kind":…,"message":…,"line":N}}` and the rest go
//! on; the exit status is then 1. Blank lines (JSON whitespace only, after one
//! trailing `\r` is dropped) are skipped; a byte-order mark or a `\x1c` is not
//! blank.

use crate::json::quoted;
use crate::{
    classify_render, classify_str, parse_now, ClassifyOptions, Error, Format, Limits, Profile,
    RenderOptions, SpecRevision, Target, UserRules, TABLE,
};

/// The text of `--help`, and of every usage error after its first line.
pub const USAGE: &str = "\
usage:
  mcp-errors classify [--now RFC3339] [--limits JSON] [--rules JSON]
  mcp-errors parse [--now RFC3339] [--limits JSON] [--rules JSON]
  mcp-errors render [--profile P] [--format F] [--spec S] [--target T]
                    [--now RFC3339] [--id ID] [--tool NAME] [--output-schema JSON]
                    [--extra-fields JSON] [--limits JSON] [--rules JSON] [--mask]
                    [--masked-message TEXT] [--tool-failure]
  mcp-errors taxonomy
  mcp-errors schema PROFILE

classify and render read raw errors as JSON lines on stdin and write one JSON
line per input line to stdout. A bad line yields an {\"error\":…} line.
parse reads tool results (a CallToolResult, a JSON-RPC response or error) and
writes the canonical error, or null for a result that is not an error.
--limits takes a JSON object such as {\"max_message_chars\":500}.
--rules takes a JSON array of recognizer rules (see the README).

profiles: canonical, tool-error-v1, mcp-tool-error, text, error-object, rpc-envelope
formats:  markdown, json, both
specs:    2025-06-18, 2025-11-25, 2026-07-28
targets:  tool-result, soft-result, protocol-error, needs-input, log-record";

/// What a CLI prints before it exits, without reading any input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finish {
    /// Written to standard output as is (it ends with a newline when not empty).
    pub stdout: String,
    /// Written to standard error as is.
    pub stderr: String,
    /// The exit status: 0, or 2 for a usage error.
    pub status: u8,
}

/// What the arguments ask for.
#[derive(Debug, Clone)]
pub enum Start {
    /// Print this and exit: `--help`, a usage error, `taxonomy`, `schema`.
    Finish(Finish),
    /// Read JSON lines from standard input and pass each to [`Command::line`].
    Lines(Command),
}

/// A `classify` or `render` command, its flags checked.
#[derive(Debug, Clone)]
pub struct Command {
    mode: Mode,
    text: String,
}

#[derive(Debug, Clone)]
enum Mode {
    Classify(ClassifyOptions),
    Parse(ClassifyOptions),
    Render(RenderOptions),
}

/// One output line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The line, without its newline.
    pub text: String,
    /// True for an error line: the CLI's exit status becomes 1.
    pub failed: bool,
}

/// What a CLI does with its arguments (the program name left out).
pub fn start(args: &[String]) -> Start {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Start::Finish(Finish {
            stdout: format!("{USAGE}\n"),
            stderr: String::new(),
            status: 0,
        });
    }
    let usage_error = |msg: String| {
        Start::Finish(Finish {
            stdout: String::new(),
            stderr: format!("mcp-errors: {msg}\n\n{USAGE}\n"),
            status: 2,
        })
    };
    match args.split_first() {
        None => usage_error("missing command".into()),
        Some((cmd, rest)) if cmd == "schema" => match rest {
            [p] => match Profile::from_name(p) {
                Ok(p) => Start::Finish(Finish {
                    stdout: format!("{}\n", crate::schema(p)),
                    stderr: String::new(),
                    status: 0,
                }),
                Err(e) => usage_error(e.detail().into()),
            },
            _ => usage_error("schema takes one profile name".into()),
        },
        Some((cmd, rest)) if cmd == "taxonomy" => {
            if !rest.is_empty() {
                return usage_error("taxonomy takes no arguments".into());
            }
            Start::Finish(Finish {
                stdout: taxonomy_lines(),
                stderr: String::new(),
                status: 0,
            })
        }
        Some(_) => match Command::from_args(args) {
            Ok(c) => Start::Lines(c),
            Err(msg) => usage_error(msg),
        },
    }
}

/// One JSON line per code, in table order.
fn taxonomy_lines() -> String {
    let mut out = String::new();
    for info in TABLE {
        out.push_str(&format!(
            "{{\"code\":\"{}\",\"category\":\"{}\",\"http_status\":{},\"grpc_code\":{},\
             \"jsonrpc_code\":{},\"retryable\":{},\"doc\":{}}}\n",
            info.name,
            info.category.name(),
            info.http_status,
            info.grpc_code,
            info.jsonrpc_code,
            info.retryable,
            quoted(info.doc),
        ));
    }
    out
}

/// The error line for input line `number`.
pub fn error_line(err: &Error, number: u64) -> Line {
    Line {
        text: format!(
            "{{\"error\":{{\"kind\":\"{}\",\"message\":{},\"line\":{number}}}}}",
            err.kind(),
            quoted(err.detail())
        ),
        failed: true,
    }
}

/// The error line for input line `number` when its bytes are not UTF-8.
/// `bytes` is the line, or its end from a character boundary at or before
/// the first bad sequence: a host that already decoded a valid prefix may
/// skip it and say how many bytes it skipped. Only the four bytes from the
/// bad sequence's start decide the message, so a host may cut there too.
pub fn bad_line(skipped: u64, bytes: &[u8], number: u64) -> Line {
    let detail = match std::str::from_utf8(bytes) {
        Err(e) => {
            let at = skipped.saturating_add(e.valid_up_to() as u64);
            match e.error_len() {
                Some(n) => format!("invalid utf-8 sequence of {n} bytes from index {at}"),
                None => format!("incomplete utf-8 byte sequence from index {at}"),
            }
        }
        // A host that called this for valid bytes: still an error line.
        Ok(_) => "no invalid sequence found".into(),
    };
    error_line(
        &Error::InvalidInput(format!("line is not UTF-8: {detail}")),
        number,
    )
}

impl Command {
    /// The command whose [`text`](Command::text) this is (a host that cannot
    /// keep a `Command` between calls passes the text back with each line).
    pub fn from_text(text: &str) -> Result<Command, Error> {
        let bad = || Error::InvalidOption("not a command text from `start`".into());
        let value = crate::parse_json(text).map_err(|_| bad())?;
        let args = value
            .as_array()
            .ok_or_else(bad)?
            .iter()
            .map(|a| a.as_str().map(str::to_string).ok_or_else(bad))
            .collect::<Result<Vec<String>, Error>>()?;
        Command::from_args(&args).map_err(Error::InvalidOption)
    }

    /// The command as text (its arguments as a JSON array).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The output line for input line `number` (counted from 1), given as
    /// text; `None` for a blank line.
    pub fn line(&self, line: &str, number: u64) -> Option<Line> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line
            .bytes()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            return None;
        }
        let result = match &self.mode {
            Mode::Classify(o) => classify_str(line, o).map(|n| n.to_json()),
            Mode::Parse(o) => {
                crate::parse_result_json(line, o).map(|n| n.unwrap_or_else(|| "null".into()))
            }
            Mode::Render(o) => classify_render(line, o),
        };
        Some(match result {
            Ok(text) => Line {
                text,
                failed: false,
            },
            Err(e) => error_line(&e, number),
        })
    }

    /// [`Command::line`] for a line given as bytes.
    pub fn line_bytes(&self, line: &[u8], number: u64) -> Option<Line> {
        match std::str::from_utf8(line) {
            Ok(text) => self.line(text, number),
            Err(_) => Some(bad_line(0, line, number)),
        }
    }

    /// `classify …` or `render …`, every flag checked in the order given (so
    /// that every CLI names the same one when several are wrong); the usage
    /// error's first line otherwise.
    fn from_args(args: &[String]) -> Result<Command, String> {
        let (cmd, rest) = args.split_first().ok_or("missing command")?;
        let mode = match cmd.as_str() {
            "classify" => Mode::Classify(classify_flags(rest, CLASSIFY_FLAGS)?),
            "parse" => Mode::Parse(classify_flags(rest, PARSE_FLAGS)?),
            "render" => Mode::Render(render_flags(rest)?),
            other => return Err(format!("unknown command {}", quoted(other))),
        };
        let mut text = String::from("[");
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&quoted(a));
        }
        text.push(']');
        Ok(Command { mode, text })
    }
}

const CLASSIFY_FLAGS: &str = "classify takes only --now, --limits and --rules";
const PARSE_FLAGS: &str = "parse takes only --now, --limits and --rules";

fn detail(err: Error) -> String {
    err.detail().to_string()
}

/// A flag's JSON value, or the usage error every CLI gives when it is not JSON.
fn json_flag(flag: &str, v: &str) -> Result<serde_json::Value, String> {
    crate::parse_json(v).map_err(|_| format!("{flag} must be JSON"))
}

fn limits_flag(v: &str) -> Result<Limits, String> {
    Limits::from_json_value(&json_flag("--limits", v)?).map_err(detail)
}

fn rules_flag(v: &str) -> Result<UserRules, String> {
    UserRules::from_value(&json_flag("--rules", v)?).map_err(detail)
}

/// The flags of `classify` and `parse`; `usage` is the error for any other.
fn classify_flags(rest: &[String], usage: &str) -> Result<ClassifyOptions, String> {
    let mut options = ClassifyOptions::default();
    for pair in rest.chunks(2) {
        let [flag, v] = pair else {
            return Err(usage.into());
        };
        match flag.as_str() {
            "--now" => options.now_ms = Some(parse_now(v).map_err(detail)?),
            "--limits" => options.limits = limits_flag(v)?,
            "--rules" => options.rules = rules_flag(v)?,
            _ => return Err(usage.into()),
        }
    }
    Ok(options)
}

/// Render's flags, each checked by the core as it is read (a value the core
/// would refuse for every line is a usage error, before any input).
pub(crate) fn render_flags(rest: &[String]) -> Result<RenderOptions, String> {
    const KNOWN: [&str; 12] = [
        "--profile",
        "--masked-message",
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
    let mut opts = RenderOptions::default();
    let mut i = 0;
    while i < rest.len() {
        let flag = rest[i].as_str();
        let switch = match flag {
            "--mask" => Some(&mut opts.mask),
            "--tool-failure" => Some(&mut opts.tool_failure),
            _ => None,
        };
        if let Some(on) = switch {
            *on = true;
            i += 1;
            continue;
        }
        if !KNOWN.contains(&flag) {
            return Err(format!("unknown argument {}", quoted(flag)));
        }
        let v = rest
            .get(i + 1)
            .ok_or_else(|| format!("{flag} needs a value"))?;
        if flag == "--extra-fields" {
            json_flag(flag, v)?;
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
                "--masked-message" => o.masked_message = Some(v),
                "--output-schema" => o.output_schema = Some(v),
                "--extra-fields" => o.extra_fields = Some(v),
                "--rules" => o.rules = rules_flag(&v)?,
                _ => o.limits = limits_flag(&v)?,
            }
            Ok(())
        };
        let mut alone = RenderOptions::default();
        set(&mut alone)?;
        set(&mut opts)?;
        alone.check().map_err(detail)?;
        i += 2;
    }
    // Together, in case the core refuses a combination.
    opts.check().map_err(detail)?;
    Ok(opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    fn lines(a: &[&str]) -> Command {
        match start(&args(a)) {
            Start::Lines(c) => c,
            Start::Finish(f) => panic!("expected a command, got {f:?}"),
        }
    }

    #[test]
    fn a_command_survives_its_text() {
        let c = lines(&[
            "render",
            "--profile",
            "text",
            "--tool",
            "t\u{1c}\"x",
            "--mask",
        ]);
        let back = Command::from_text(c.text()).unwrap();
        assert_eq!(back.text(), c.text());
        let input = r#"{"message":"boom","status":503}"#;
        assert_eq!(back.line(input, 1), c.line(input, 1));
        assert!(Command::from_text("[\"taxonomy\"]").is_err());
        assert!(Command::from_text("{}").is_err());
    }

    #[test]
    fn blank_lines_and_error_lines() {
        let c = lines(&["classify"]);
        assert_eq!(c.line(" \t\r", 1), None);
        assert_eq!(c.line("", 2), None);
        let bom = c.line("\u{feff}", 3).unwrap();
        assert!(bom.failed);
        assert!(
            bom.text.starts_with(r#"{"error":{"kind":"invalid_json""#),
            "{}",
            bom.text
        );
        assert!(bom.text.ends_with(r#""line":3}}"#));
        let ok = c.line("{\"status\":404}\r", 4).unwrap();
        assert!(!ok.failed);
        assert!(ok.text.contains("NOT_FOUND"));
        let bad = c.line_bytes(&[b'{', 0xff, b'}'], 5).unwrap();
        assert_eq!(
            bad.text,
            r#"{"error":{"kind":"invalid_input","message":"line is not UTF-8: invalid utf-8 sequence of 1 bytes from index 1","line":5}}"#
        );
        assert_eq!(
            bad_line(7, &[0xe2, 0x82], 6).text,
            r#"{"error":{"kind":"invalid_input","message":"line is not UTF-8: incomplete utf-8 byte sequence from index 7","line":6}}"#
        );
    }

    #[test]
    fn finishing_commands() {
        let Start::Finish(help) = start(&args(&["render", "--help"])) else {
            panic!()
        };
        assert_eq!(
            (help.stdout.as_str(), help.status),
            (&*format!("{USAGE}\n"), 0)
        );
        let Start::Finish(bad) = start(&args(&["render", "--profile", "nope"])) else {
            panic!()
        };
        assert_eq!(bad.status, 2);
        assert!(
            bad.stderr.starts_with("mcp-errors: unknown profile"),
            "{}",
            bad.stderr
        );
        let Start::Finish(tax) = start(&args(&["taxonomy"])) else {
            panic!()
        };
        assert_eq!(tax.stdout.lines().count(), TABLE.len());
        for line in tax.stdout.lines() {
            crate::parse_json(line).unwrap();
        }
        let Start::Finish(none) = start(&[]) else {
            panic!()
        };
        assert!(none
            .stderr
            .starts_with("mcp-errors: missing command\n\nusage:"));
    }
}
