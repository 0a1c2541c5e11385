//! mcp-errors for [rmcp](https://crates.io/crates/rmcp) servers (cargo feature
//! `rmcp`): one line, and every tool's failure is the normalized error result
//! (a canonical code, the retry verdict, redaction, the chosen profile),
//! with a log record sharing its error id.
//!
//! ```ignore
//! use mcp_errors::rmcp::WithErrors;
//! use mcp_errors::{Profile, RenderOptions};
//! use rmcp::ServiceExt;
//!
//! let server = WithErrors::new(Weather::new(), RenderOptions { profile: Profile::ToolErrorV1, ..Default::default() })?;
//! server.serve(rmcp::transport::stdio()).await?.waiting().await?;
//! ```
//!
//! Tools return [`ToolError`] for failures the model should read
//! (`Result<Json<Forecast>, ToolError>`): rmcp turns it into an error result
//! through [`rmcp::model::IntoContents`], and [`WithErrors`] reads it back
//! whole. Import the items (`use mcp_errors::rmcp::WithErrors;`), not the
//! module: rmcp's macros write `rmcp::` paths.

use std::borrow::Cow;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use rmcp::model::{
    CallToolResult, ClientRequest, ContentBlock, IntoContents, ProtocolVersion, ServerResult,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, Service, ServiceRole};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;

pub use crate::host::ToolError;
use crate::{Error, Normalized, RenderOptions, SpecRevision, Target};

/// Where each failure's log record goes (one JSON line, never masked).
pub type Logger = Arc<dyn Fn(&str) + Send + Sync>;

/// An rmcp server whose tool failures become normalized error results. It is
/// the server: serve it where you served the handler. Every request goes to
/// the handler as before; a `tools/call` whose result is an error (a
/// [`ToolError`], the text of any error a tool returned, rmcp's own argument
/// errors) is rendered again with the options, and a panicking tool answers
/// with an `INTERNAL` result instead of no answer. A protocol error
/// (`Err(ErrorData)`) stays one.
pub struct WithErrors<H> {
    inner: H,
    options: RenderOptions,
    tools: HashMap<String, RenderOptions>,
    logger: Option<Logger>,
}

impl<H: ServerHandler> WithErrors<H> {
    /// Wrap `handler`. The options are checked here (an unknown profile, an
    /// output schema or extra fields that are not JSON objects, limits out of
    /// range): a mistake is an [`Error::InvalidOption`] now, not a fallback
    /// result at the first failure.
    pub fn new(handler: H, options: RenderOptions) -> Result<Self, Error> {
        options.check()?;
        Ok(WithErrors {
            inner: handler,
            options,
            tools: HashMap::new(),
            logger: None,
        })
    }

    /// A tool's own options, instead of the server-wide ones (checked too).
    pub fn tool(mut self, name: impl Into<String>, options: RenderOptions) -> Result<Self, Error> {
        options.check()?;
        self.tools.insert(name.into(), options);
        Ok(self)
    }

    /// Where the log records go. Default: one JSON line on stderr.
    pub fn logger(mut self, logger: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.logger = Some(Arc::new(logger));
        self
    }

    /// The wrapped handler.
    pub fn inner(&self) -> &H {
        &self.inner
    }

    /// The failure of tool `name`, already an error result or a panic, as
    /// the result these options describe, logged.
    fn failure(
        &self,
        name: &str,
        error: Normalized,
        version: Option<ProtocolVersion>,
    ) -> CallToolResult {
        let mut options = self.tools.get(name).unwrap_or(&self.options).clone();
        // What the tool (or rmcp) chose to show is shown; anything else, a
        // panic, is masked.
        options.mask |= !error.expected;
        options.tool_name.get_or_insert_with(|| name.to_string());
        options.now.get_or_insert_with(crate::host::now);
        options
            .error_id
            .get_or_insert_with(crate::host::new_error_id);
        if let Some(spec) = version.and_then(|v| SpecRevision::from_name(v.as_str()).ok()) {
            options.spec = spec;
        }
        // The tool's declared output schema decides whether the error object
        // may be its structured content.
        if let Some(schema) = self.inner.get_tool(name).and_then(|t| t.output_schema) {
            options.output_schema = Some(Value::Object((*schema).clone()).to_string());
        }
        let log = RenderOptions {
            target: Target::LogRecord,
            ..options.clone()
        };
        if let Ok(record) = crate::render(&error, &log) {
            match &self.logger {
                Some(f) => f(&record),
                None => eprintln!("{record}"),
            }
        }
        let rendered = crate::render(&error, &options)
            .map_err(|e| e.to_string())
            .and_then(|out| {
                serde_json::from_str::<CallToolResult>(&out).map_err(|e| e.to_string())
            });
        rendered.unwrap_or_else(|why| fallback(&why, &options))
    }
}

fn fallback(why: &str, options: &RenderOptions) -> CallToolResult {
    serde_json::from_value(crate::host::fallback_result(why, options))
        .unwrap_or_else(|_| CallToolResult::error(vec![ContentBlock::text(why.to_string())]))
}

/// An error result as the canonical error: parsed back, as stated (what the
/// tool or rmcp chose to show is shown again, unmasked).
fn read_back(result: &CallToolResult) -> Option<Normalized> {
    parse(result, &crate::ClassifyOptions::default())
}

/// For rmcp clients: a tool call's result read back into the canonical error
/// (`None` when it is not an error), as [`crate::parse_result`] reads any
/// server's result.
pub fn parse(result: &CallToolResult, options: &crate::ClassifyOptions) -> Option<Normalized> {
    parse_wire(result, options)
}

/// For rmcp clients: a protocol error a call returned (`ServiceError::McpError`)
/// as the canonical error.
pub fn parse_protocol_error(
    error: &ErrorData,
    options: &crate::ClassifyOptions,
) -> Option<Normalized> {
    parse_wire(error, options)
}

/// rmcp's value as its JSON on the wire, read by [`crate::parse_result`].
fn parse_wire(
    value: &impl serde::Serialize,
    options: &crate::ClassifyOptions,
) -> Option<Normalized> {
    let text = serde_json::to_string(value).ok()?;
    crate::parse_result(&text, options).ok().flatten()
}

impl<H: ServerHandler> Service<RoleServer> for WithErrors<H> {
    async fn handle_request(
        &self,
        request: <RoleServer as ServiceRole>::PeerReq,
        context: RequestContext<RoleServer>,
    ) -> Result<<RoleServer as ServiceRole>::Resp, ErrorData> {
        let ClientRequest::CallToolRequest(call) = &request else {
            return Service::handle_request(&self.inner, request, context).await;
        };
        let name = call.params.name.to_string();
        let version = context.protocol_version();
        let answer = AssertUnwindSafe(Service::handle_request(&self.inner, request, context))
            .catch_unwind()
            .await;
        match answer {
            Ok(Ok(ServerResult::CallToolResult(result))) if result.is_error == Some(true) => {
                match read_back(&result) {
                    Some(error) => Ok(ServerResult::CallToolResult(
                        self.failure(&name, error, version),
                    )),
                    None => Ok(ServerResult::CallToolResult(result)),
                }
            }
            Ok(other) => other,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                let raw = serde_json::json!({"name": "panic", "code": "INTERNAL", "message": what});
                match crate::classify_str(&raw.to_string(), &Default::default()) {
                    Ok(error) => Ok(ServerResult::CallToolResult(
                        self.failure(&name, error, version),
                    )),
                    Err(e) => Ok(ServerResult::CallToolResult(fallback(
                        &e.to_string(),
                        &self.options,
                    ))),
                }
            }
        }
    }

    async fn handle_notification(
        &self,
        notification: <RoleServer as ServiceRole>::PeerNot,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Service::handle_notification(&self.inner, notification, context).await
    }

    fn get_info(&self) -> <RoleServer as ServiceRole>::Info {
        Service::get_info(&self.inner)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Service::supported_protocol_versions(&self.inner)
    }
}

/// A [`ToolError`] returned by an rmcp tool (`Result<T, ToolError>`): the
/// canonical profile's text and JSON, which rmcp marks as an error result and
/// [`WithErrors`] reads back whole. Without the wrapper, a valid error result
/// on its own.
impl IntoContents for ToolError {
    fn into_contents(self) -> Vec<ContentBlock> {
        let options = RenderOptions {
            format: crate::Format::Both,
            ..RenderOptions::default()
        };
        let result = crate::host::tool_result(&self, &options);
        let texts = result["content"]
            .as_array()
            .map(|blocks| {
                blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .map(|t| ContentBlock::text(t.to_string()))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        if texts.is_empty() {
            vec![ContentBlock::text(self.to_string())]
        } else {
            texts
        }
    }
}
