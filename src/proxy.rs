//! The proxy's decisions: what to forward, for each JSON-RPC message between
//! an MCP client and a server. Hosts only start the server and move lines;
//! everything the relay learns (the tools' output schemas and annotations,
//! the negotiated revision, the calls in flight) lives here.
//!
//! Every message passes unchanged, byte for byte, except the answer to a
//! `tools/call` that is a failure: an `isError` result, or a JSON-RPC error
//! that is not one of the protocol's own (a parse error, an invalid request,
//! an unknown method, invalid params such as an unknown tool, URL elicitation
//! required). That answer is read with [`crate::parse_result`] and written
//! again in the chosen profile, redacted, valid for the tool's declared
//! output schema.
//!
//! With `--retry N`, a failed call whose error is retryable is sent to the
//! server again (at most N more times) instead of being answered, when that
//! is safe: a refusal before any work (a rate limit, a 429 or 503) for any
//! tool, a failure that may have had effects (a timeout, a network error, an
//! upstream failure) only for a tool `tools/list` declared read-only or
//! idempotent. The host waits the delay the relay gives and calls
//! [`Relay::resend`].

use serde_json::{Map, Value};

use crate::{Error, RenderOptions, SpecRevision, Target};

/// `mcp-errors proxy --help`, and the tail of a usage error, in every host.
pub const USAGE: &str = "\
usage:
  mcp-errors proxy [--profile P] [--format F] [--mask] [--masked-message TEXT]
                   [--rules JSON] [--limits JSON] [--tool-failure] [--log FILE]
                   [--retry N] -- COMMAND [ARGS...]

Starts COMMAND, an MCP server on stdio, and relays every JSON-RPC message
between it and the client on this process's stdin and stdout, unchanged,
except the answers to tools/call that are failures: those are read with parse
and written again in the chosen profile (default canonical), redacted, valid
for the tool's output schema. --log appends each failure's log record (JSON
lines) to FILE. --retry N calls a failed tool again, up to N (1 to 10) more
times, when that is safe: after a refusal (a rate limit), or for a tool
declared read-only or idempotent. The exit status is the server's. When the client closes its
end, the server's input is closed; a server still running 1 s later gets
SIGTERM, then SIGKILL 0.5 s later.
";

/// What `mcp-errors proxy`'s arguments say: the render options (read and
/// checked by `render`'s own flag reader), the `--log` file, the most calls
/// again after a failure (`--retry`), and the server's command.
struct Args {
    options: RenderOptions,
    log: Option<String>,
    retries: u32,
    command: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let split = args
        .iter()
        .position(|a| a == "--")
        .ok_or("no server command: put it after --")?;
    let (flags, command) = (&args[..split], &args[split + 1..]);
    if command.is_empty() {
        return Err("no server command after --".into());
    }
    // `--log FILE` and `--retry N` are the proxy's own; the rest are
    // `render`'s flags that make sense for every failure of a server (read by
    // the CLI's reader).
    let mut log = None;
    let mut retries = 0;
    let mut render = Vec::new();
    let mut i = 0;
    while i < flags.len() {
        let flag = flags[i].as_str();
        let takes_value = match flag {
            "--mask" | "--tool-failure" => false,
            "--profile" | "--format" | "--masked-message" | "--rules" | "--limits" | "--log"
            | "--retry" => true,
            other => return Err(format!("unknown argument {}", crate::json::quoted(other))),
        };
        let value = flags.get(i + 1).filter(|_| takes_value);
        if takes_value && value.is_none() {
            return Err(format!("{flag} needs a value"));
        }
        match value {
            Some(v) if flag == "--log" => log = Some(v.clone()),
            Some(v) if flag == "--retry" => {
                retries = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_RETRIES).contains(n))
                    .ok_or("--retry takes a whole number from 1 to 10")?;
            }
            Some(v) => render.extend([flags[i].clone(), v.clone()]),
            None => render.push(flags[i].clone()),
        }
        i += 1 + usize::from(takes_value);
    }
    Ok(Args {
        options: crate::cli::render_flags(&render)?,
        log,
        retries,
        command: command.to_vec(),
    })
}

/// What a host does with `mcp-errors proxy`'s arguments (the program name and
/// `proxy` left out): run a relay in front of the command, or print and exit
/// (`--help`; a usage error, status 2).
pub enum Start {
    Run(Box<Run>),
    Finish(crate::cli::Finish),
}

/// A relay with the options the arguments gave, the `--log` file, and the
/// server's command (program and arguments).
pub struct Run {
    pub relay: Relay,
    pub log: Option<String>,
    pub command: Vec<String>,
}

/// Read `mcp-errors proxy`'s arguments: every host (the native binary, the
/// npm and Python CLIs) prints the same usage and errors.
pub fn start(args: &[String]) -> Start {
    let finish = |stdout: String, stderr: String, status: u8| {
        Start::Finish(crate::cli::Finish {
            stdout,
            stderr,
            status,
        })
    };
    if args.iter().any(|a| a == "--help" || a == "-h") && !args.iter().any(|a| a == "--") {
        return finish(USAGE.to_string(), String::new(), 0);
    }
    let checked = parse_args(args).and_then(|a| {
        Relay::new(a.options)
            .map(|relay| (relay.with_retries(a.retries), a.log, a.command))
            .map_err(|e| e.to_string())
    });
    match checked {
        Ok((relay, log, command)) => Start::Run(Box::new(Run {
            relay,
            log,
            command,
        })),
        Err(why) => finish(
            String::new(),
            format!("mcp-errors proxy: {why}\n{USAGE}"),
            2,
        ),
    }
}

/// JSON-RPC errors the protocol itself answers with: passed on as they are.
const PROTOCOL_OWN: [i64; 5] = [-32700, -32600, -32601, -32602, -32042];

/// A line longer than this is passed through unread.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The most calls again `--retry` allows.
const MAX_RETRIES: u32 = 10;
/// The longest stated delay the relay waits before calling again: a failure
/// that asks for a longer wait is answered, with its delay.
const MAX_RETRY_DELAY_MS: u64 = 30_000;
/// The backoff's first ceiling and its largest, for a failure that states no
/// delay: the wait after call n is a fraction of `min(MAX, BASE * 2^(n-1))`
/// (full jitter, the fraction taken from the error id the host gave).
const RETRY_BASE_MS: u64 = 500;
const RETRY_MAX_BACKOFF_MS: u64 = 10_000;

/// What a request the client sent is waiting for.
#[derive(Debug, Clone)]
enum Pending {
    Initialize,
    ListTools,
    Call(Call),
}

/// A `tools/call` in flight.
#[derive(Debug, Clone)]
struct Call {
    tool: String,
    /// The revision the request carried in `_meta` (2026-07-28 requests
    /// carry theirs: no `initialize` precedes them).
    spec: Option<SpecRevision>,
    /// The request as the client sent it, kept to send again (`--retry` only).
    request: Option<String>,
    /// Calls made so far.
    calls: u32,
    /// Waiting for the host's timer to send it again.
    waiting: bool,
    /// The client cancelled it: never sent again.
    cancelled: bool,
}

/// What a tool declared in `tools/list`.
#[derive(Debug, Clone, Default)]
struct Tool {
    output_schema: Option<String>,
    /// `annotations.readOnlyHint` or `annotations.idempotentHint` is true:
    /// calling it again after a failure that may have had effects is safe.
    repeatable: bool,
}

/// A message to forward, and the log record of a failure it carried.
#[derive(Debug, Clone, PartialEq)]
pub struct Forward {
    /// The line to forward (without its line end); `None` when the failed
    /// call is sent again instead (see `retry`): nothing goes on now.
    pub line: Option<String>,
    /// The failure's log record (JSON), when the line answered a failed call.
    pub log: Option<String>,
    /// Why the line was passed on unread (too long, not JSON), for stderr.
    pub warning: Option<String>,
    /// The failed call is sent again: the host waits, then calls
    /// [`Relay::resend`].
    pub retry: Option<Retry>,
}

/// A failed call to send the server again.
#[derive(Debug, Clone, PartialEq)]
pub struct Retry {
    /// The request's id (its JSON text), for [`Relay::resend`].
    pub id: String,
    /// How long to wait first, in milliseconds.
    pub delay_ms: u64,
}

impl Forward {
    fn unchanged(line: &str) -> Forward {
        Forward {
            line: Some(line.to_string()),
            log: None,
            warning: None,
            retry: None,
        }
    }
}

/// The time and error id a host gives a rewritten failure (the core is
/// clock-free).
#[derive(Debug, Clone, Default)]
pub struct Stamp {
    /// RFC 3339.
    pub now: Option<String>,
    /// The error id shared by the result and the log record.
    pub error_id: Option<String>,
}

/// The relay between one client and one server.
#[derive(Debug)]
pub struct Relay {
    options: RenderOptions,
    /// Requests waiting for an answer, by their id's JSON text, in the order
    /// they were sent (a list, not a hash map: a few at a time, and the
    /// component stays small).
    pending: Vec<(String, Pending)>,
    /// What each tool declared, by name.
    tools: Vec<(String, Tool)>,
    spec: Option<SpecRevision>,
    /// The most calls again after a failure (`--retry`; 0: none).
    retries: u32,
}

impl Relay {
    /// A relay rendering failures with `options` (profile, format, mask,
    /// rules, tool failure, limits). The options are checked now.
    pub fn new(options: RenderOptions) -> Result<Relay, Error> {
        options.check()?;
        Ok(Relay {
            options,
            pending: Vec::new(),
            tools: Vec::new(),
            spec: None,
            retries: 0,
        })
    }

    /// The relay, calling a failed tool again at most `retries` more times
    /// when that is safe (`--retry`).
    pub fn with_retries(mut self, retries: u32) -> Relay {
        self.retries = retries.min(MAX_RETRIES);
        self
    }

    /// A line from the client, for the server: forwarded unchanged; the
    /// requests the relay answers for are remembered, and a call the client
    /// cancels is not sent again.
    pub fn from_client(&mut self, line: &str) -> String {
        if line.len() > MAX_LINE_BYTES {
            return line.to_string();
        }
        let Ok(Value::Object(m)) = crate::parse_json(line) else {
            // Batches, and anything that is not an object, pass untouched.
            return line.to_string();
        };
        let method = m.get("method").and_then(Value::as_str);
        let params = m.get("params");
        if method == Some("notifications/cancelled") {
            if let Some(id) = params.and_then(|p| p.get("requestId")) {
                self.cancelled(&crate::json_text(id));
            }
            return line.to_string();
        }
        let (Some(id), Some(method)) = (m.get("id"), method) else {
            return line.to_string();
        };
        let pending = match method {
            "initialize" => Some(Pending::Initialize),
            "tools/list" => Some(Pending::ListTools),
            "tools/call" => {
                let spec = params
                    .and_then(|p| p.get("_meta"))
                    .and_then(|meta| meta.get("io.modelcontextprotocol/protocolVersion"))
                    .and_then(Value::as_str)
                    .and_then(|v| SpecRevision::from_name(v).ok());
                params
                    .and_then(|p| p.get("name"))
                    .and_then(Value::as_str)
                    .map(|n| {
                        Pending::Call(Call {
                            tool: n.to_string(),
                            spec,
                            request: (self.retries > 0).then(|| line.to_string()),
                            calls: 1,
                            waiting: false,
                            cancelled: false,
                        })
                    })
            }
            _ => None,
        };
        if let Some(p) = pending {
            let id = crate::json_text(id);
            self.pending.retain(|(k, _)| *k != id);
            self.pending.push((id, p));
        }
        line.to_string()
    }

    /// The client cancelled request `id`: a call waiting to be sent again is
    /// dropped (the client expects no answer), one at the server is never
    /// sent again.
    fn cancelled(&mut self, id: &str) {
        let Some(at) = self.pending.iter().position(|(k, _)| k == id) else {
            return;
        };
        if let Pending::Call(call) = &mut self.pending[at].1 {
            if call.waiting {
                self.pending.remove(at);
            } else {
                call.cancelled = true;
            }
        }
    }

    /// The host's timer for call `id` (a [`Retry`]'s) ran out: the request to
    /// send the server again, or `None` when there is none any more (the
    /// client cancelled it, the server is gone).
    pub fn resend(&mut self, id: &str) -> Option<String> {
        let call = self.pending.iter_mut().find_map(|(k, p)| match p {
            Pending::Call(call) if k == id && call.waiting => Some(call),
            _ => None,
        })?;
        call.waiting = false;
        call.calls += 1;
        call.request.clone()
    }

    /// A line from the server, for the client: unchanged, unless it answers a
    /// `tools/call` with a failure, which gets the time and error id `stamp`
    /// gives (asked for that line only).
    pub fn from_server(&mut self, line: &str, stamp: impl FnOnce() -> Stamp) -> Forward {
        if line.len() > MAX_LINE_BYTES {
            return too_long(line);
        }
        let Ok(Value::Object(m)) = crate::parse_json(line) else {
            return Forward::unchanged(line);
        };
        // A response: an id, and a result or an error (a request from the
        // server has a method).
        let Some(id) = m.get("id").filter(|_| !m.contains_key("method")) else {
            return Forward::unchanged(line);
        };
        let id_text = crate::json_text(id);
        let Some(at) = self
            .pending
            .iter()
            .position(|(k, p)| *k == id_text && !matches!(p, Pending::Call(c) if c.waiting))
        else {
            return Forward::unchanged(line);
        };
        let (_, pending) = self.pending.remove(at);
        match pending {
            Pending::Initialize => {
                self.spec = m
                    .get("result")
                    .and_then(|r| r.get("protocolVersion"))
                    .and_then(Value::as_str)
                    .and_then(|v| SpecRevision::from_name(v).ok());
                Forward::unchanged(line)
            }
            Pending::ListTools => {
                self.learn_tools(&m);
                Forward::unchanged(line)
            }
            Pending::Call(call) => {
                let failed = match (m.get("result"), m.get("error")) {
                    (Some(r), _) => r.get("isError") == Some(&Value::Bool(true)),
                    (None, Some(e)) => !e
                        .get("code")
                        .and_then(Value::as_i64)
                        .is_some_and(|c| PROTOCOL_OWN.contains(&c)),
                    _ => false,
                };
                if !failed {
                    return Forward::unchanged(line);
                }
                self.rewrite(line, id, id_text, call, stamp())
                    .unwrap_or_else(|| Forward::unchanged(line))
            }
        }
    }

    /// The server is gone: an error response for each call still in flight,
    /// in the order they were sent, so the client never waits for an answer
    /// that cannot come.
    pub fn server_gone(&mut self) -> Vec<String> {
        self.pending
            .drain(..)
            .map(|(id, _)| {
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32603,\"message\":\"The MCP server exited before it answered this request.\"}}}}"
                )
            })
            .collect()
    }

    fn learn_tools(&mut self, m: &Map<String, Value>) {
        let tools = m
            .get("result")
            .and_then(|r| r.get("tools"))
            .and_then(Value::as_array);
        for t in tools.into_iter().flatten() {
            let Some(name) = t.get("name").and_then(Value::as_str) else {
                continue;
            };
            let output_schema = t
                .get("outputSchema")
                .filter(|s| s.is_object())
                .map(crate::json_text);
            let hint = |h: &str| {
                t.get("annotations")
                    .and_then(|a| a.get(h))
                    .and_then(Value::as_bool)
                    == Some(true)
            };
            let repeatable = hint("readOnlyHint") || hint("idempotentHint");
            self.tools.retain(|(k, _)| k != name);
            self.tools.push((
                name.to_string(),
                Tool {
                    output_schema,
                    repeatable,
                },
            ));
        }
    }

    /// The failed call's answer, read and written again as a tool result;
    /// or, with `--retry`, the call sent again when that is safe.
    fn rewrite(
        &mut self,
        line: &str,
        id: &Value,
        id_text: String,
        call: Call,
        stamp: Stamp,
    ) -> Option<Forward> {
        let opts = crate::ClassifyOptions {
            now_ms: stamp.now.as_deref().and_then(crate::time::parse_rfc3339),
            limits: self.options.limits,
            rules: self.options.rules.clone(),
        };
        let mut error = crate::parse_result(line, &opts).ok().flatten()?;
        // What the server showed is shown again (redacted), unless asked to mask.
        if self.options.mask {
            error.expected = false;
        }
        let tool = self
            .tools
            .iter()
            .find(|(k, _)| *k == call.tool)
            .map(|(_, t)| t);
        let mut options = self.options.clone();
        options.tool_name.get_or_insert_with(|| call.tool.clone());
        if stamp.now.is_some() {
            options.now = stamp.now;
        }
        let delay = self.retry_delay(&call, tool, &mut error, stamp.error_id.as_deref());
        if stamp.error_id.is_some() {
            options.error_id = stamp.error_id;
        }
        if let Some(spec) = call.spec.or(self.spec) {
            options.spec = spec;
        }
        if let Some(schema) = tool.and_then(|t| t.output_schema.clone()) {
            options.output_schema = Some(schema);
        }
        // The result, unless the call is sent again; the log record either way.
        let result = match delay {
            Some(_) => None,
            None => {
                options.target = Target::ToolResult;
                Some(crate::render(&error, &options).ok()?)
            }
        };
        let log = crate::render(
            &error,
            &RenderOptions {
                target: Target::LogRecord,
                ..options
            },
        )
        .ok();
        let Some(result) = result else {
            // Sent again after the wait: nothing goes to the client now.
            let delay_ms = delay.unwrap_or(0);
            self.pending.push((
                id_text.clone(),
                Pending::Call(Call {
                    waiting: true,
                    ..call
                }),
            ));
            return Some(Forward {
                line: None,
                log,
                warning: None,
                retry: Some(Retry {
                    id: id_text,
                    delay_ms,
                }),
            });
        };
        Some(Forward {
            line: Some(format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{result}}}",
                crate::json_text(id)
            )),
            log,
            warning: None,
            retry: None,
        })
    }

    /// With `--retry`: how long to wait before sending the failed call again,
    /// or `None` to answer it now; the evidence says why either way.
    fn retry_delay(
        &self,
        call: &Call,
        tool: Option<&Tool>,
        error: &mut crate::Normalized,
        error_id: Option<&str>,
    ) -> Option<u64> {
        if self.retries == 0 || !error.retryable || call.cancelled || call.request.is_none() {
            return None;
        }
        let refused = !crate::contract::MAY_HAVE_HAD_EFFECTS.contains(&error.code.name())
            || (error.code == crate::Code::Unavailable
                && error
                    .http_status
                    .is_some_and(|s| crate::contract::REFUSAL_STATUSES.contains(&s)));
        let decided = if !refused && !tool.is_some_and(|t| t.repeatable) {
            Err("it may have had effects; the tool is not read-only or idempotent")
        } else if call.calls > self.retries {
            Err("--retry's calls are made")
        } else {
            match error.retry_after_ms {
                Some(ms) if ms > MAX_RETRY_DELAY_MS => Err("the stated delay is over 30 s"),
                Some(ms) => Ok(ms),
                None => {
                    let ceiling =
                        RETRY_MAX_BACKOFF_MS.min(RETRY_BASE_MS << (call.calls - 1).min(16));
                    Ok(ceiling * u64::from(jitter(error_id.unwrap_or(""))) / 0x1_0000)
                }
            }
        };
        error.evidence.push(match decided {
            Ok(delay) => format!(
                "proxy: call {} failed; called again after {delay} ms: {}",
                call.calls,
                if refused {
                    "refused before any work"
                } else {
                    "a read-only or idempotent tool"
                }
            ),
            Err(why) => format!("proxy: not called again: {why}"),
        });
        decided.ok()
    }
}

/// The numerator of a fraction in [0, 1) over 65 536, from the error id the
/// host gave the failure (random in every host): its FNV-1a hash (the rules'
/// key hash), folded to 16 bits.
fn jitter(error_id: &str) -> u32 {
    let hash = crate::rules::form::key_hash(error_id.as_bytes());
    (hash ^ (hash >> 16)) & 0xffff
}

fn too_long(line: &str) -> Forward {
    Forward {
        warning: Some(format!(
            "a message of {} bytes passed unread (over {MAX_LINE_BYTES})",
            line.len()
        )),
        ..Forward::unchanged(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relay() -> Relay {
        Relay::new(RenderOptions::default()).unwrap()
    }

    fn stamp() -> Stamp {
        Stamp {
            now: Some("2026-11-24T10:00:00Z".into()),
            error_id: Some("e1".into()),
        }
    }

    #[test]
    fn a_failed_call_is_rewritten_and_everything_else_passes_byte_for_byte() {
        let mut r = relay();
        let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/etc/x"}}}"#;
        assert_eq!(r.from_client(call), call);
        let failed = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Error: Access denied - path outside allowed directories: /etc/x not in /tmp"}],"isError":true}}"#;
        let out = r.from_server(failed, stamp);
        let v: Value = serde_json::from_str(out.line.as_deref().unwrap()).unwrap();
        assert_eq!(v["id"], 7);
        assert_eq!(v["result"]["isError"], true);
        assert_eq!(
            v["result"]["structuredContent"]["code"],
            "PERMISSION_DENIED"
        );
        assert_eq!(v["result"]["structuredContent"]["tool"], "read_file");
        assert_eq!(v["result"]["structuredContent"]["error_id"], "e1");
        let log: Value = serde_json::from_str(out.log.as_deref().unwrap()).unwrap();
        assert_eq!(log["error_id"], "e1");
        // A success, a notification, a request from the server: untouched.
        let call2 =
            r#"{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"read_file"}}"#;
        r.from_client(call2);
        let ok = r#"{"jsonrpc":"2.0","id":"b","result":{"content":[{"type":"text","text":"hi"}]}}"#;
        assert_eq!(r.from_server(ok, stamp), Forward::unchanged(ok));
        for line in [
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":0.5}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}"#,
            r#"[{"jsonrpc":"2.0","id":9,"result":{}}]"#,
            "not json",
        ] {
            assert_eq!(r.from_server(line, stamp).line.as_deref(), Some(line));
        }
    }

    #[test]
    fn protocol_errors_stay_and_a_handler_crash_becomes_a_result() {
        let mut r = relay();
        r.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}"#);
        let unknown =
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: nope"}}"#;
        assert_eq!(r.from_server(unknown, stamp).line.as_deref(), Some(unknown));
        r.from_client(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search"}}"#,
        );
        let crash = r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"search index: dial tcp 10.0.0.7:9200: connect: connection refused"}}"#;
        let v: Value =
            serde_json::from_str(r.from_server(crash, stamp).line.as_deref().unwrap()).unwrap();
        assert_eq!(v["result"]["isError"], true);
        assert_eq!(v["result"]["structuredContent"]["code"], "NETWORK_ERROR");
        assert_eq!(v["result"]["structuredContent"]["retryable"], true);
    }

    #[test]
    fn the_declared_output_schema_and_the_negotiated_revision_are_kept() {
        let mut r = relay();
        r.from_client(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#);
        r.from_server(
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2026-07-28","capabilities":{}}}"#,
            stamp,
        );
        r.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        r.from_server(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"forecast","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"temp":{"type":"number"}},"required":["temp"]}}]}}"#, stamp);
        r.from_client(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"forecast"}}"#,
        );
        let failed = r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"upstream returned 503"}],"isError":true}}"#;
        let v: Value =
            serde_json::from_str(r.from_server(failed, stamp).line.as_deref().unwrap()).unwrap();
        assert!(v["result"].get("structuredContent").is_none(), "{v}");
        assert_eq!(v["result"]["resultType"], "complete");
    }

    #[test]
    fn a_2026_request_without_initialize_gets_its_own_revision() {
        // The 2026-07-28 era has no `initialize`: each request names its
        // revision in `_meta`, and a result must carry `resultType` (the
        // Python SDK's client rejects one without it).
        let mut r = relay();
        r.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#);
        r.from_client(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"now","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#);
        let failed = r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Invalid timezone: Mars/Olympus"}],"isError":true,"resultType":"complete"}}"#;
        let v: Value =
            serde_json::from_str(r.from_server(failed, stamp).line.as_deref().unwrap()).unwrap();
        assert_eq!(v["result"]["resultType"], "complete", "{v}");
        // A request without the envelope, as before: no resultType.
        r.from_client(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"now"}}"#);
        let failed = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Invalid timezone: Mars/Olympus"}],"isError":true}}"#;
        let v: Value =
            serde_json::from_str(r.from_server(failed, stamp).line.as_deref().unwrap()).unwrap();
        assert!(v["result"].get("resultType").is_none(), "{v}");
    }

    #[test]
    fn calls_in_flight_get_an_answer_when_the_server_dies() {
        let mut r = relay();
        r.from_client(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}"#);
        r.from_client(r#"{"jsonrpc":"2.0","id":"x","method":"tools/list"}"#);
        let out = r.server_gone();
        assert_eq!(out.len(), 2);
        for line in &out {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["error"]["code"], -32603);
        }
        assert!(r.server_gone().is_empty());
    }

    #[test]
    fn bad_options_are_refused_at_setup() {
        let bad = RenderOptions {
            extra_fields: Some("[1]".into()),
            ..RenderOptions::default()
        };
        assert!(matches!(Relay::new(bad), Err(Error::InvalidOption(_))));
    }
}
