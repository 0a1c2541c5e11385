//! The rmcp host (`--features rmcp`): a real rmcp server, wrapped with
//! `WithErrors`, called by a real rmcp client in one process.

use std::sync::{Arc, Mutex};

use mcp_errors::rmcp::{ToolError, WithErrors};
use mcp_errors::{Code, Error, Profile, RenderOptions};
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{schemars, tool, tool_router, ServiceExt};
use serde_json::Value;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CityArgs {
    city: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    temp: f64,
}

#[derive(Clone)]
struct Weather;

#[tool_router(server_handler)]
impl Weather {
    /// A tool with an output schema (from `Json<Forecast>`) and deliberate errors.
    #[tool]
    async fn forecast(
        &self,
        Parameters(CityArgs { city }): Parameters<CityArgs>,
    ) -> Result<Json<Forecast>, ToolError> {
        match city.as_str() {
            "Atlantis" => Err(ToolError::new("No city named Atlantis")
                .code(Code::NotFound)
                .app_code("CITY_NOT_FOUND")
                .suggestion("Check the spelling")),
            "Busy" => Err(ToolError::new("The forecast service is busy")
                .code(Code::RateLimited)
                .retry_after(std::time::Duration::from_secs(3))),
            _ => Ok(Json(Forecast { temp: 21.5 })),
        }
    }

    /// No output schema: a plain text error, as rmcp lets a tool return.
    #[tool]
    async fn search(&self) -> Result<String, String> {
        Err("search index: connect ECONNREFUSED 10.0.0.7:9200".into())
    }

    /// A panic: without the wrapper, no answer at all.
    #[tool]
    async fn crash(&self) -> Result<String, String> {
        let v: Vec<u8> = Vec::new();
        Ok(format!("{}", v[3]))
    }
}

type Client = RunningService<RoleClient, ()>;

async fn connect(server: WithErrors<Weather>) -> Client {
    let (a, b) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(a).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(b).await.expect("the client connects")
}

async fn call(client: &Client, name: &'static str, args: Value) -> CallToolResult {
    let mut params = CallToolRequestParams::new(name);
    if let Value::Object(m) = args {
        params = params.with_arguments(m);
    }
    client
        .call_tool(params)
        .await
        .expect("a result, not a protocol error")
}

fn json(result: &CallToolResult) -> Value {
    let wire = serde_json::to_value(result).unwrap();
    let texts: Vec<&str> = wire["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["text"].as_str())
        .collect();
    let last = texts
        .iter()
        .rev()
        .find(|t| t.starts_with('{'))
        .expect("a JSON block");
    serde_json::from_str(last).unwrap()
}

fn records() -> (
    Arc<Mutex<Vec<String>>>,
    impl Fn(&str) + Send + Sync + 'static,
) {
    let store = Arc::new(Mutex::new(Vec::new()));
    let sink = store.clone();
    (store, move |r: &str| {
        sink.lock().unwrap().push(r.to_string())
    })
}

fn options() -> RenderOptions {
    RenderOptions {
        profile: Profile::ToolErrorV1,
        format: mcp_errors::Format::Both,
        ..RenderOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_error_keeps_its_code_and_the_output_schema_is_never_broken() {
    let (logs, logger) = records();
    let client = connect(WithErrors::new(Weather, options()).unwrap().logger(logger)).await;
    let r = call(&client, "forecast", serde_json::json!({"city": "Atlantis"})).await;
    assert_eq!(r.is_error, Some(true));
    // The tool declares an output schema (Json<Forecast>): the error object is not
    // its structured content; it travels in a content block.
    assert!(r.structured_content.is_none(), "{r:?}");
    let e = json(&r);
    assert_eq!(e["kind"], "toolError:v1");
    assert_eq!(e["code"], "NOT_FOUND");
    assert_eq!(e["message"], "No city named Atlantis");
    // Read back by any client: the canonical code, the app code, the suggestion.
    let n = mcp_errors::parse_result(&serde_json::to_string(&r).unwrap(), &Default::default())
        .unwrap()
        .unwrap();
    assert_eq!(n.code, Code::NotFound);
    // One log record, named after the tool, with the same error id.
    let logs = logs.lock().unwrap().clone();
    assert_eq!(logs.len(), 1);
    let record: Value = serde_json::from_str(&logs[0]).unwrap();
    assert_eq!(record["tool"], "forecast");
    assert_eq!(record["error_id"], e["details"]["errorId"]);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_delay_survives_and_a_text_error_is_classified() {
    let client = connect(WithErrors::new(Weather, options()).unwrap().logger(|_| {})).await;
    let busy = call(&client, "forecast", serde_json::json!({"city": "Busy"})).await;
    let n = mcp_errors::rmcp::parse(&busy, &Default::default()).expect("an error");
    assert_eq!(
        (n.code, n.retryable, n.retry_after_ms),
        (Code::RateLimited, true, Some(3000))
    );
    // A tool without an output schema keeps its structured content; a plain
    // text error is read for what it says.
    let search = call(&client, "search", serde_json::json!({})).await;
    let s = search.structured_content.expect("structured content");
    assert_eq!(s["code"], "NETWORK_ERROR");
    assert_eq!(s["retryable"], true);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_panic_is_an_internal_result_masked_and_logged() {
    let (logs, logger) = records();
    let client = connect(WithErrors::new(Weather, options()).unwrap().logger(logger)).await;
    let r = call(&client, "crash", serde_json::json!({})).await;
    assert_eq!(r.is_error, Some(true));
    let e = r.structured_content.clone().expect("structured content");
    assert_eq!(e["code"], "SERVER_ERROR");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("The tool hit an internal error (error id "),
        "{e}"
    );
    assert!(!serde_json::to_string(&r)
        .unwrap()
        .contains("index out of bounds"));
    assert!(
        logs.lock().unwrap()[0].contains("index out of bounds"),
        "the log keeps the panic"
    );
    // An unknown tool is rmcp's protocol error, read as one.
    let unknown = client
        .call_tool(CallToolRequestParams::new("nope"))
        .await
        .expect_err("a protocol error");
    let rmcp::service::ServiceError::McpError(e) = unknown else {
        panic!("{unknown:?}")
    };
    let n = mcp_errors::rmcp::parse_protocol_error(&e, &Default::default()).expect("an error");
    assert_eq!(n.code, Code::InvalidArgument);
    // The server still answers.
    let ok = call(&client, "forecast", serde_json::json!({"city": "Paris"})).await;
    assert_ne!(ok.is_error, Some(true), "{ok:?}");
    assert_eq!(
        ok.structured_content.as_ref().map(|s| s["temp"].clone()),
        Some(serde_json::json!(21.5))
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_error_alone_is_a_valid_error_result() {
    // Without the wrapper: rmcp's own conversion, the canonical text and JSON.
    let (a, b) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = Weather.serve(a).await {
            let _ = running.waiting().await;
        }
    });
    let client: Client = ().serve(b).await.unwrap();
    let r = call(&client, "forecast", serde_json::json!({"city": "Atlantis"})).await;
    assert_eq!(r.is_error, Some(true));
    let n = mcp_errors::parse_result(&serde_json::to_string(&r).unwrap(), &Default::default())
        .unwrap()
        .unwrap();
    assert_eq!(n.code, Code::NotFound);
    assert_eq!(n.app_code.as_deref(), Some("CITY_NOT_FOUND"));
    client.cancel().await.unwrap();
}

#[test]
fn options_are_checked_when_the_wrapper_is_built() {
    let bad = RenderOptions {
        output_schema: Some("[1]".into()),
        ..RenderOptions::default()
    };
    assert!(matches!(
        WithErrors::new(Weather, bad),
        Err(Error::InvalidOption(_))
    ));
    let per_tool = WithErrors::new(Weather, RenderOptions::default())
        .unwrap()
        .tool(
            "forecast",
            RenderOptions {
                extra_fields: Some("not json".into()),
                ..RenderOptions::default()
            },
        );
    assert!(matches!(per_tool, Err(Error::InvalidOption(_))));
}
