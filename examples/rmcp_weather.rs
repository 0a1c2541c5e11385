//! An rmcp weather server whose tool failures are normalized error results:
//! `cargo run --example rmcp_weather --features rmcp`, then any MCP client on
//! its stdio (e.g. `npx @modelcontextprotocol/inspector cargo run --example
//! rmcp_weather --features rmcp`).

use mcp_errors::rmcp::{ToolError, WithErrors};
use mcp_errors::{Code, Format, Profile, RenderOptions};
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{schemars, tool, tool_router, transport::stdio, ServiceExt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct ForecastArgs {
    /// The city to forecast.
    city: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    summary: String,
}

#[derive(Clone)]
struct Weather;

#[tool_router(server_handler)]
impl Weather {
    /// The forecast for a city.
    #[tool]
    async fn forecast(
        &self,
        Parameters(ForecastArgs { city }): Parameters<ForecastArgs>,
    ) -> Result<Json<Forecast>, ToolError> {
        if city == "Atlantis" {
            // Deliberate: shown to the model as it is, with its code.
            return Err(ToolError::new(format!("No city named {city}"))
                .code(Code::NotFound)
                .suggestion("Check the spelling"));
        }
        // Anything else: classified (here a refused connection, retryable).
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        Err(ToolError::new("The forecast service did not answer").source(refused))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = WithErrors::new(
        Weather,
        RenderOptions {
            profile: Profile::ToolErrorV1,
            format: Format::Both,
            ..RenderOptions::default()
        },
    )?;
    server.serve(stdio()).await?.waiting().await?;
    Ok(())
}
