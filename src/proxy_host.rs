//! `mcp-errors proxy`, the native host of [`mcp_errors::proxy::Relay`] (a
//! module of the binary only): it starts the server, moves lines both ways
//! through the relay, relays stderr, writes the log, and exits with the
//! server's status. Every decision is the relay's.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_errors::proxy::{Relay, Stamp};
use mcp_errors::RenderOptions;

pub const USAGE: &str = "\
usage:
  mcp-errors proxy [--profile P] [--format F] [--mask] [--masked-message TEXT]
                   [--rules JSON] [--limits JSON] [--tool-failure] [--log FILE]
                   -- COMMAND [ARGS...]

Starts COMMAND, an MCP server on stdio, and relays every JSON-RPC message
between it and the client on this process's stdin and stdout, unchanged,
except the answers to tools/call that are failures: those are read with parse
and written again in the chosen profile (default canonical), redacted, valid
for the tool's output schema. --log appends each failure's log record (JSON
lines) to FILE. The exit status is the server's. When the client closes its
end, the server's input is closed; a server still running 1 s later gets
SIGTERM, and SIGKILL 0.5 s after that.
";

/// Options as the core's JSON options (`RenderOptions::from_json` checks
/// them), the log file, and the server's command.
fn parse_args(args: &[String]) -> Result<(RenderOptions, Option<String>, Vec<String>), String> {
    let split = args
        .iter()
        .position(|a| a == "--")
        .ok_or("no server command: put it after --")?;
    let (flags, command) = (&args[..split], &args[split + 1..]);
    if command.is_empty() {
        return Err("no server command after --".into());
    }
    let mut json = serde_json::Map::new();
    let mut log = None;
    let mut i = 0;
    while i < flags.len() {
        let flag = flags[i].as_str();
        match flag {
            "--mask" | "--tool-failure" => {
                json.insert(flag[2..].replace('-', "_"), serde_json::Value::Bool(true));
                i += 1;
                continue;
            }
            "--profile" | "--format" | "--masked-message" | "--rules" | "--limits" | "--log" => {}
            other => {
                return Err(format!(
                    "unknown argument {}",
                    mcp_errors::json_text(&other.into())
                ))
            }
        }
        let value = flags.get(i + 1).ok_or(format!("{flag} needs a value"))?;
        match flag {
            "--log" => log = Some(value.clone()),
            "--limits" => {
                let v: serde_json::Value =
                    serde_json::from_str(value).map_err(|e| format!("--limits: {e}"))?;
                json.insert("limits".into(), v);
            }
            _ => {
                json.insert(
                    flag[2..].replace('-', "_"),
                    serde_json::Value::String(value.clone()),
                );
            }
        }
        i += 2;
    }
    let options = RenderOptions::from_json(&serde_json::Value::Object(json).to_string())
        .map_err(|e| e.to_string())?;
    Ok((options, log, command.to_vec()))
}

pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") && !args.iter().any(|a| a == "--") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let (options, log_path, command) = match parse_args(args) {
        Ok(parsed) => parsed,
        Err(why) => {
            eprint!("mcp-errors proxy: {why}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let relay = match Relay::new(options) {
        Ok(r) => Arc::new(Mutex::new(r)),
        Err(e) => {
            eprint!("mcp-errors proxy: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let log = match log_path.map(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&p)
            .map_err(|e| (p, e))
    }) {
        None => None,
        Some(Ok(f)) => Some(Mutex::new(f)),
        Some(Err((p, e))) => {
            eprintln!("mcp-errors proxy: --log {p}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut child = match Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("mcp-errors proxy: starting {}: {e}", command[0]);
            return ExitCode::from(127);
        }
    };
    let (Some(mut to_server), Some(from_server)) = (child.stdin.take(), child.stdout.take()) else {
        eprintln!("mcp-errors proxy: no pipes to the server");
        return ExitCode::FAILURE;
    };
    let child = Arc::new(Mutex::new(child));
    // Client → server, on its own thread. When the client is done, the
    // server's stdin is closed, and a server that does not exit is stopped
    // as the MCP specification's stdio shutdown says (SIGTERM, then SIGKILL).
    let client_relay = Arc::clone(&relay);
    let server = Arc::clone(&child);
    std::thread::spawn(move || {
        move_lines(std::io::stdin().lock(), &mut to_server, |text| {
            lock(&client_relay).from_client(text).line
        });
        drop(to_server);
        shut_down(&server);
    });
    // Server → client, here.
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    move_lines(BufReader::new(from_server), &mut out, |text| {
        let stamp = || Stamp {
            now: Some(mcp_errors::host::now()),
            error_id: Some(mcp_errors::host::new_error_id()),
        };
        let forward = lock(&relay).from_server(text, stamp);
        if let Some(w) = &forward.warning {
            eprintln!("mcp-errors proxy: {w}");
        }
        if let (Some(record), Some(file)) = (&forward.log, &log) {
            if let Ok(mut f) = file.lock() {
                let _ = writeln!(f, "{record}");
            }
        }
        forward.line
    });
    // The server is gone: every call in flight gets an answer.
    for line in lock(&relay).server_gone() {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
    // The lock is taken a moment at a time: the client's thread may need it
    // to stop a server that closed its stdout but goes on running.
    loop {
        match lock(&child).try_wait() {
            Ok(Some(status)) => {
                return ExitCode::from(status.code().map_or(1, |c| u8::try_from(c).unwrap_or(1)))
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(_) => return ExitCode::FAILURE,
        }
    }
}

/// How long a server has to exit after its stdin closes ([`GRACE`]), and
/// again after SIGTERM ([`TERM_GRACE`]): together under the 2 s the MCP SDKs'
/// stdio clients give the proxy itself before they signal it.
const GRACE: Duration = Duration::from_millis(1000);
const TERM_GRACE: Duration = Duration::from_millis(500);
const POLL: Duration = Duration::from_millis(20);

/// Stop a server whose client is gone: wait [`GRACE`] for it to exit on its
/// own, send SIGTERM (Unix), wait again, then kill it.
fn shut_down(server: &Mutex<Child>) {
    let exited_within = |grace: Duration| {
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if !matches!(lock(server).try_wait(), Ok(None)) {
                return true;
            }
            std::thread::sleep(POLL);
        }
        false
    };
    if exited_within(GRACE) {
        return;
    }
    eprintln!("mcp-errors proxy: the server did not exit when its input closed: stopping it");
    #[cfg(unix)]
    {
        let pid = lock(server).id().to_string();
        let _ = Command::new("kill")
            .args(["-TERM", &pid])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if exited_within(TERM_GRACE) {
            return;
        }
    }
    let _ = lock(server).kill();
}

/// Lines from `input` to `output`, each through `relay` (a line that is not
/// UTF-8 passes as it is), flushed one by one, until either side closes.
fn move_lines(input: impl BufRead, output: &mut impl Write, mut relay: impl FnMut(&str) -> String) {
    for bytes in input.split(b'\n') {
        let Ok(bytes) = bytes else { break };
        let line = match std::str::from_utf8(&bytes) {
            Ok(text) => relay(text).into_bytes(),
            Err(_) => bytes,
        };
        let sent = output
            .write_all(&line)
            .and_then(|()| output.write_all(b"\n"))
            .and_then(|()| output.flush());
        if sent.is_err() {
            break;
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
