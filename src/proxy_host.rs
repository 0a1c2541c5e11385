//! `mcp-errors proxy`, the native host of [`mcp_errors::proxy::Relay`] (a
//! module of the binary only): it starts the server, moves lines both ways
//! through the relay, relays stderr, writes the log, and exits with the
//! server's status. Every decision is the relay's.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_errors::proxy::{self, Stamp};

pub fn run(args: &[String]) -> ExitCode {
    let (relay, log_path, command) = match proxy::start(args) {
        proxy::Start::Run(run) => {
            let proxy::Run {
                relay,
                log,
                command,
            } = *run;
            (Arc::new(Mutex::new(relay)), log, command)
        }
        proxy::Start::Finish(f) => {
            print!("{}", f.stdout);
            eprint!("{}", f.stderr);
            return ExitCode::from(f.status);
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
    let (Some(to_server), Some(from_server)) = (child.stdin.take(), child.stdout.take()) else {
        eprintln!("mcp-errors proxy: no pipes to the server");
        return ExitCode::FAILURE;
    };
    let child = Arc::new(Mutex::new(child));
    // The server's input: the client's lines and the calls sent again
    // (`--retry`) take turns, a line at a time; `None` once the client is done.
    let to_server = Arc::new(Mutex::new(Some(to_server)));
    // Client → server, on its own thread. When the client is done, the
    // server's stdin is closed, and a server that does not exit is stopped
    // as the MCP specification's stdio shutdown says (SIGTERM, then SIGKILL).
    let client_relay = Arc::clone(&relay);
    let server = Arc::clone(&child);
    let client_to_server = Arc::clone(&to_server);
    std::thread::spawn(move || {
        move_lines(
            std::io::stdin().lock(),
            &mut ToServer(&client_to_server),
            |text| Some(lock(&client_relay).from_client(text)),
        );
        lock(&client_to_server).take();
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
        if let Some(retry) = forward.retry {
            // `--retry`: the call goes to the server again after the wait,
            // unless the client cancelled it or the server went meanwhile.
            let (relay, to_server) = (Arc::clone(&relay), Arc::clone(&to_server));
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(retry.delay_ms));
                if let Some(line) = lock(&relay).resend(&retry.id) {
                    let _ = ToServer(&to_server).write_all(format!("{line}\n").as_bytes());
                }
            });
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

/// The server's shared input, one whole line per write.
struct ToServer<'a>(&'a Mutex<Option<ChildStdin>>);

impl Write for ToServer<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match lock(self.0).as_mut() {
            Some(stdin) => stdin.write_all(buf),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        lock(self.0).as_mut().map_or(Ok(()), Write::flush)
    }
}

/// Lines from `input` to `output`, each through `relay` (a line that is not
/// UTF-8 passes as it is; `None` sends nothing), flushed one by one, until
/// either side closes.
fn move_lines(
    input: impl BufRead,
    output: &mut impl Write,
    mut relay: impl FnMut(&str) -> Option<String>,
) {
    for bytes in input.split(b'\n') {
        let Ok(bytes) = bytes else { break };
        let mut line = match std::str::from_utf8(&bytes) {
            Ok(text) => match relay(text) {
                Some(line) => line.into_bytes(),
                None => continue,
            },
            Err(_) => bytes,
        };
        // One write per line: the server's input is shared (`ToServer`).
        line.push(b'\n');
        let sent = output.write_all(&line).and_then(|()| output.flush());
        if sent.is_err() {
            break;
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
