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
//! mcp-errors proxy [--profile P] [--format F] [--mask] [--masked-message TEXT]
//!                  [--rules JSON] [--limits JSON] [--tool-failure] [--log FILE]
//!                  -- COMMAND [ARGS...]
//! ```
//!
//! Only I/O lives here: what the arguments mean and what each line becomes is
//! `mcp_errors::cli`, which the npm and Python CLIs run through the component.

use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

use mcp_errors::cli::{self, Start};

mod proxy_host;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("proxy") {
        return proxy_host::run(&args[1..]);
    }
    let command = match cli::start(&args) {
        Start::Finish(f) => {
            print!("{}", f.stdout);
            eprint!("{}", f.stderr);
            return if std::io::stdout().flush().is_ok() {
                ExitCode::from(f.status)
            } else {
                ExitCode::FAILURE
            };
        }
        Start::Lines(c) => c,
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let stdin = std::io::stdin();
    let mut failed = false;
    for (index, bytes) in stdin.lock().split(b'\n').enumerate() {
        let bytes = match bytes {
            Ok(b) => b,
            Err(err) => {
                eprintln!("mcp-errors: reading stdin: {err}");
                return ExitCode::FAILURE;
            }
        };
        let Some(line) = command.line_bytes(&bytes, index as u64 + 1) else {
            continue;
        };
        failed |= line.failed;
        if writeln!(out, "{}", line.text).is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() || failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
