package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcperrors "github.com/mcp-errors/mcp-errors/go"
	"github.com/mcp-errors/mcp-errors/go/gosdk"
)

type forecastIn struct {
	City string `json:"city" jsonschema:"the city"`
}

// newServer is a weather server whose tools fail the ways tools fail.
func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "forecast"}, func(ctx context.Context, req *mcp.CallToolRequest, in forecastIn) (*mcp.CallToolResult, any, error) {
		switch in.City {
		case "Atlantis":
			return nil, nil, &mcperrors.ToolError{Message: "No city named Atlantis", Code: mcperrors.CodeNotFound}
		case "Paris":
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sunny"}}}, nil, nil
		case "Slow":
			return nil, nil, fmt.Errorf("forecast upstream: %w", context.DeadlineExceeded)
		case "Crash":
			panic("index out of range [3] with length 3")
		}
		return nil, nil, fmt.Errorf("fetching forecast for %s: %w", in.City, syscall.ECONNREFUSED)
	})
	// A low-level handler: its error would be a JSON-RPC -32603.
	s.AddTool(&mcp.Tool{Name: "raw", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("pq: password authentication failed for user admin")
	})
	// A deliberate protocol error stays one.
	s.AddTool(&mcp.Tool{Name: "protocol", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad params"}
	})
	return s
}

func connect(t *testing.T, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
}

func text(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func structured(t *testing.T, r *mcp.CallToolResult) map[string]any {
	b, _ := json.Marshal(r.StructuredContent)
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// Without the middleware: the bare error text, and a -32603 for a
// low-level handler.
func TestWithoutTheMiddleware(t *testing.T) {
	cs := connect(t, newServer())
	r, err := call(t, cs, "forecast", map[string]any{"city": "Lyon"})
	if err != nil || !r.IsError || text(r) != "fetching forecast for Lyon: connection refused" || r.StructuredContent != nil {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := call(t, cs, "raw", nil); err == nil {
		t.Fatal("want a protocol error")
	}
}

func TestOneLineForAWholeServer(t *testing.T) {
	var records []json.RawMessage
	s := gosdk.WithServerErrors(newServer(), mcperrors.ServerOptions{
		RenderOptions: mcperrors.RenderOptions{Format: mcperrors.FormatBoth},
		Tools:         map[string]mcperrors.RenderOptions{"raw": {Profile: mcperrors.ProfileMCPToolError}},
		// Log, the deprecated name of Logger, still receives the records.
		Log: func(_ context.Context, r json.RawMessage) { records = append(records, r) },
	})
	cs := connect(t, s)

	r, err := call(t, cs, "forecast", map[string]any{"city": "Lyon"})
	if err != nil || !r.IsError {
		t.Fatalf("%+v %v", r, err)
	}
	sc := structured(t, r)
	if sc["code"] != "NETWORK_ERROR" || sc["retryable"] != true || sc["tool"] != "forecast" || strings.Contains(text(r), "Lyon") {
		t.Fatalf("%v / %s", sc, text(r))
	}
	if n, err := gosdk.Parse(r, mcperrors.ClassifyOptions{}); err != nil || n.Code != mcperrors.CodeNetworkError || !n.Retryable {
		t.Fatalf("%+v %v", n, err)
	}
	if len(records) != 1 || !strings.Contains(string(records[0]), "fetching forecast for Lyon") {
		t.Fatalf("%s", records)
	}

	// Deliberate, shown.
	r, _ = call(t, cs, "forecast", map[string]any{"city": "Atlantis"})
	if !r.IsError || !strings.Contains(text(r), "No city named Atlantis") || structured(t, r)["code"] != "NOT_FOUND" {
		t.Fatalf("%+v", r)
	}
	// A deadline: TIMEOUT, retryable.
	r, _ = call(t, cs, "forecast", map[string]any{"city": "Slow"})
	if sc := structured(t, r); sc["code"] != "TIMEOUT" || sc["retryable"] != true {
		t.Fatalf("%v", sc)
	}
	// A panic.
	r, err = call(t, cs, "forecast", map[string]any{"city": "Crash"})
	if err != nil || !r.IsError || structured(t, r)["code"] != "INTERNAL" || strings.Contains(text(r), "index out of range") {
		t.Fatalf("%+v %v", r, err)
	}
	// The SDK's own argument validation: the model reads what was wrong.
	r, err = call(t, cs, "forecast", map[string]any{"city": 42})
	if err != nil || !r.IsError || !strings.Contains(text(r), "validating") || structured(t, r)["code"] != "INVALID_ARGUMENT" {
		t.Fatalf("%+v %v / %s", r, err, text(r))
	}
	// A low-level handler's plain error: a result (its tool's profile), not a -32603.
	r, err = call(t, cs, "raw", nil)
	if err != nil || !r.IsError || strings.Contains(text(r), "password") {
		t.Fatalf("%+v %v", r, err)
	}
	if sc := structured(t, r); sc["retriable"] != false || sc["code"] == nil {
		t.Fatalf("not mcp-tool-error: %v", sc)
	}
	// Protocol errors stay: the author's, and an unknown tool.
	if _, err := call(t, cs, "protocol", nil); err == nil || !strings.Contains(err.Error(), "bad params") {
		t.Fatalf("%v", err)
	}
	if _, err := call(t, cs, "nope", nil); err == nil {
		t.Fatal("an unknown tool is not a tool result")
	}
	// Success passes through.
	if r, err := call(t, cs, "forecast", map[string]any{"city": "Paris"}); err != nil || r.IsError || text(r) != "sunny" {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestOverStreamableHTTP(t *testing.T) {
	s := gosdk.Install(newServer(), mcperrors.ServerOptions{Log: mcperrors.DiscardLog})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "forecast", Arguments: map[string]any{"city": "Lyon"}})
	if err != nil || !r.IsError {
		t.Fatalf("%+v %v", r, err)
	}
	if n, err := gosdk.Parse(r, mcperrors.ClassifyOptions{}); err != nil || n.Code != mcperrors.CodeNetworkError {
		t.Fatalf("%+v %v", n, err)
	}
}

func TestCallToolWithRetry(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "geo", Version: "1.0.0"}, nil)
	calls := 0
	mcp.AddTool(s, &mcp.Tool{Name: "geocode"}, func(ctx context.Context, req *mcp.CallToolRequest, in forecastIn) (*mcp.CallToolResult, any, error) {
		calls++
		if calls < 3 {
			return nil, nil, &mcperrors.ToolError{Message: "The geocoder is busy", Code: mcperrors.CodeUnavailable, RetryAfter: 10 * time.Millisecond}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "48.85,2.35"}}}, nil, nil
	})
	gosdk.WithServerErrors(s, mcperrors.ServerOptions{Logger: mcperrors.DiscardLog})
	cs := connect(t, s)
	out, err := gosdk.CallToolWithRetry(context.Background(), cs, &mcp.CallToolParams{Name: "geocode", Arguments: map[string]any{"city": "Paris"}}, mcperrors.RetryPolicy{})
	if err != nil || out.Attempts != 3 || out.Failure != nil || text(out.Result) != "48.85,2.35" {
		t.Fatalf("%+v %v", out, err)
	}
	// An unknown tool: a protocol error, read, not retried.
	out, err = gosdk.CallToolWithRetry(context.Background(), cs, &mcp.CallToolParams{Name: "nope"}, mcperrors.RetryPolicy{})
	if err != nil || out.Attempts != 1 || out.ProtocolErr == nil || out.Failure == nil || out.Failure.Retryable {
		t.Fatalf("%+v %v", out, err)
	}
}

// A typed tool declares the output schema the SDK infers from its output
// type: its error result never carries structuredContent that breaks it
// (issue 31); a tool without one keeps its structuredContent.
func TestADeclaredOutputSchemaIsNeverBroken(t *testing.T) {
	type forecastOut struct {
		Temp float64 `json:"temp"`
	}
	s := newServer()
	mcp.AddTool(s, &mcp.Tool{Name: "typed"}, func(ctx context.Context, req *mcp.CallToolRequest, in forecastIn) (*mcp.CallToolResult, forecastOut, error) {
		return nil, forecastOut{}, fmt.Errorf("forecast upstream: %w", syscall.ECONNREFUSED)
	})
	gosdk.WithServerErrors(s, mcperrors.ServerOptions{RenderOptions: mcperrors.RenderOptions{Profile: mcperrors.ProfileToolErrorV1}, Logger: mcperrors.DiscardLog})
	cs := connect(t, s)
	r, err := call(t, cs, "typed", map[string]any{"city": "Lyon"})
	if err != nil || !r.IsError {
		t.Fatalf("%+v %v", r, err)
	}
	if r.StructuredContent != nil {
		t.Fatalf("structuredContent that breaks the tool's output schema: %+v", r.StructuredContent)
	}
	if !strings.Contains(text(r), `"kind": "toolError:v1"`) {
		t.Fatalf("the structured error is not in the content: %s", text(r))
	}
	plain, err := call(t, cs, "raw", map[string]any{})
	if err != nil || plain.StructuredContent == nil {
		t.Fatalf("a tool without an output schema lost its structuredContent: %+v %v", plain, err)
	}
}
