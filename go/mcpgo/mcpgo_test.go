package mcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	mcperrors "github.com/mcp-errors/mcp-errors/go"
	"github.com/mcp-errors/mcp-errors/go/mcpgo"
)

// newServer is a weather server whose tools fail the ways tools fail.
func newServer(opts ...server.ServerOption) *server.MCPServer {
	s := server.NewMCPServer("weather", "1.0.0", append([]server.ServerOption{server.WithToolCapabilities(true)}, opts...)...)
	s.AddTool(mcp.NewTool("forecast", mcp.WithString("city", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			city := req.GetString("city", "")
			switch city {
			case "Atlantis":
				return nil, &mcperrors.ToolError{Message: "No city named Atlantis", Code: mcperrors.CodeNotFound,
					Suggestions: []string{"Check the spelling"}}
			case "Paris":
				return mcp.NewToolResultText("sunny"), nil
			}
			// The upstream refused the connection: a real wrap chain.
			return nil, fmt.Errorf("fetching forecast for %s: %w", city, syscall.ECONNREFUSED)
		})
	s.AddTool(mcp.NewTool("search"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, fmt.Errorf("search index: %w", syscall.ECONNREFUSED)
	})
	s.AddTool(mcp.NewTool("crash"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var m map[string]int
		m["boom"] = 1 // a nil map: panics
		return nil, nil
	})
	s.AddTool(mcp.NewTool("handmade"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultError("the author's own error result"), nil
	})
	return s
}

func connect(t *testing.T, s *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func callTool(t *testing.T, c *client.Client, name string, args map[string]any) (*mcp.CallToolResult, error) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.CallTool(ctx, req)
}

func text(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Without the middleware, mcp-go sends a tool's Go error as a JSON-RPC
// internal error the model never sees.
func TestWithoutTheMiddlewareAnErrorIsAProtocolError(t *testing.T) {
	c := connect(t, newServer())
	_, err := callTool(t, c, "search", nil)
	if err == nil || !strings.Contains(err.Error(), "search index") {
		t.Fatalf("want a JSON-RPC error, got %v", err)
	}
}

func TestOneLineForAWholeServer(t *testing.T) {
	var records []json.RawMessage
	opts := mcperrors.ServerOptions{
		RenderOptions: mcperrors.RenderOptions{Profile: mcperrors.ProfileToolErrorV1, Format: mcperrors.FormatBoth},
		Tools:         map[string]mcperrors.RenderOptions{"search": {Profile: mcperrors.ProfileCanonical, Format: mcperrors.FormatJSON}},
		Logger:        func(_ context.Context, r json.RawMessage) { records = append(records, r) },
	}
	c := connect(t, newServer(mcpgo.WithErrors(opts)))

	// An unexpected error: isError, a code and a retry verdict, masked.
	r, err := callTool(t, c, "search", nil)
	if err != nil {
		t.Fatalf("a protocol error: %v", err)
	}
	if !r.IsError {
		t.Fatalf("not an error result: %+v", r)
	}
	sc, _ := json.Marshal(r.StructuredContent)
	var obj map[string]any
	json.Unmarshal(sc, &obj)
	if obj["code"] != "NETWORK_ERROR" || obj["retryable"] != true || obj["tool"] != "search" || strings.Contains(text(r), "search index") {
		t.Fatalf("%s / %s", sc, text(r))
	}
	// The client reads it back with parse.
	n, err := mcpgo.Parse(r, mcperrors.ClassifyOptions{})
	if err != nil || n.Code != mcperrors.CodeNetworkError || !n.Retryable {
		t.Fatalf("%+v %v", n, err)
	}
	// The log record is not masked and names the tool.
	if len(records) != 1 || !strings.Contains(string(records[0]), "search index") || !strings.Contains(string(records[0]), `"search"`) {
		t.Fatalf("%s", records)
	}

	// A ToolError: shown, with the author's code, in the server-wide profile.
	r, err = callTool(t, c, "forecast", map[string]any{"city": "Atlantis"})
	if err != nil || !r.IsError || !strings.Contains(text(r), "No city named Atlantis") {
		t.Fatalf("%+v %v", r, err)
	}
	if n, _ := mcpgo.Parse(r, mcperrors.ClassifyOptions{}); n.Code != mcperrors.CodeNotFound {
		t.Fatalf("%+v", n)
	}
	sc, _ = json.Marshal(r.StructuredContent)
	if !strings.Contains(string(sc), `"kind":"toolError:v1"`) {
		t.Fatalf("%s", sc)
	}

	// Success passes through; a panic is an error result; a handmade error result is left alone.
	if r, err := callTool(t, c, "forecast", map[string]any{"city": "Paris"}); err != nil || r.IsError || text(r) != "sunny" {
		t.Fatalf("%+v %v", r, err)
	}
	if r, err := callTool(t, c, "crash", nil); err != nil || !r.IsError || strings.Contains(text(r), "nil map") {
		t.Fatalf("%+v %v", r, err)
	}
	if r, err := callTool(t, c, "handmade", nil); err != nil || !r.IsError || text(r) != "the author's own error result" {
		t.Fatalf("%+v %v", r, err)
	}
	// An unknown tool stays a protocol error.
	if _, err := callTool(t, c, "nope", nil); err == nil {
		t.Fatal("an unknown tool is not a tool result")
	}
}

func TestOverStreamableHTTP(t *testing.T) {
	s := newServer(mcpgo.WithErrors(mcperrors.ServerOptions{Logger: mcperrors.DiscardLog}))
	srv := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer srv.Close()
	c, err := client.NewStreamableHttpClient(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "search"
	r, err := c.CallTool(ctx, req)
	if err != nil || !r.IsError {
		t.Fatalf("%+v %v", r, err)
	}
	n, err := mcpgo.Parse(r, mcperrors.ClassifyOptions{})
	if err != nil || n.Code != mcperrors.CodeNetworkError {
		t.Fatalf("%+v %v", n, err)
	}
}

func TestCallToolWithRetry(t *testing.T) {
	s := server.NewMCPServer("geo", "1.0.0", server.WithToolCapabilities(true), mcpgo.WithErrors(mcperrors.ServerOptions{Logger: mcperrors.DiscardLog}))
	calls := 0
	s.AddTool(mcp.NewTool("geocode"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		calls++
		if calls < 3 {
			return nil, &mcperrors.ToolError{Message: "The geocoder is busy", Code: mcperrors.CodeUnavailable, RetryAfter: 10 * time.Millisecond}
		}
		return mcp.NewToolResultText("48.85,2.35"), nil
	})
	c := connect(t, s)
	req := mcp.CallToolRequest{}
	req.Params.Name = "geocode"
	out, err := mcpgo.CallToolWithRetry(context.Background(), c, req, mcperrors.RetryPolicy{})
	if err != nil || out.Attempts != 3 || out.Failure != nil || text(out.Result) != "48.85,2.35" {
		t.Fatalf("%+v %v", out, err)
	}
	// An unknown tool: mcp-go's invalid-params error, read, not retried.
	req.Params.Name = "nope"
	out, err = mcpgo.CallToolWithRetry(context.Background(), c, req, mcperrors.RetryPolicy{})
	if err != nil || out.Attempts != 1 || out.ProtocolErr == nil || out.Failure == nil || out.Failure.Retryable {
		t.Fatalf("%+v %v", out, err)
	}
}

// A tool that declares an output schema never gets structuredContent that
// breaks it (issue 31): the structured error goes in a content block; a tool
// without one keeps its structuredContent.
func TestADeclaredOutputSchemaIsNeverBroken(t *testing.T) {
	type forecast struct {
		Temp float64 `json:"temp"`
		Unit string  `json:"unit"`
	}
	s := newServer(mcpgo.WithErrors(mcperrors.ServerOptions{RenderOptions: mcperrors.RenderOptions{Profile: mcperrors.ProfileToolErrorV1}, Logger: mcperrors.DiscardLog}))
	s.AddTool(mcp.NewTool("typed", mcp.WithOutputSchema[forecast]()), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, fmt.Errorf("forecast upstream: %w", syscall.ECONNREFUSED)
	})
	c := connect(t, s)
	r, err := callTool(t, c, "typed", nil)
	if err != nil || !r.IsError {
		t.Fatalf("%+v %v", r, err)
	}
	if r.StructuredContent != nil {
		t.Fatalf("structuredContent that breaks the tool's output schema: %+v", r.StructuredContent)
	}
	if !strings.Contains(text(r), `"kind": "toolError:v1"`) {
		t.Fatalf("the structured error is not in the content: %s", text(r))
	}
	plain, err := callTool(t, c, "search", nil)
	if err != nil || plain.StructuredContent == nil {
		t.Fatalf("a tool without an output schema lost its structuredContent: %+v %v", plain, err)
	}
}
