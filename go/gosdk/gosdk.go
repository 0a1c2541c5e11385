// Package gosdk is mcp-errors for github.com/modelcontextprotocol/go-sdk
// servers: one line, and every tool's failure becomes the normalized error
// result (a canonical code, the retry verdict, redaction, a chosen profile)
// instead of the bare error text the SDK puts in the result, or the -32603 a
// low-level handler's error becomes.
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "weather"}, nil)
//	server.AddReceivingMiddleware(gosdk.Middleware(mcperrors.ServerOptions{}))
package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcperrors "github.com/mcp-errors/mcp-errors/go"
)

// Middleware is a receiving middleware (Server.AddReceivingMiddleware). For
// tools/call:
//
//   - the error a typed tool handler returned (which the SDK records with
//     CallToolResult.SetError) becomes the error result opts describe;
//   - a plain error from a low-level handler (Server.AddTool), which the SDK
//     would send as a JSON-RPC -32603, becomes that result too;
//   - a *jsonrpc.Error stays the protocol error it is (an unknown tool, the
//     author's deliberate protocol error);
//   - a panic in the handler becomes an error result.
//
// Each failure writes a log record (never masked, the same error id).
// Unexpected errors are masked unless opts say otherwise; a
// *mcperrors.ToolError, and the SDK's own argument validation, are shown.
func Middleware(opts mcperrors.ServerOptions) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (result mcp.Result, err error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			name := ""
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				name = r.Params.Name
			}
			defer func() {
				if p := recover(); p != nil {
					result, err = toResult(opts.ToolFailure(ctx, name, &mcperrors.PanicError{Value: p})), nil
				}
			}()
			result, err = next(ctx, method, req)
			if err != nil {
				var rpc *jsonrpc.Error
				if errors.As(err, &rpc) {
					return result, err
				}
				schema := declaredOutputSchema(ctx, next, req, name)
				return toResult(opts.ToolFailureDeclared(ctx, name, err, mcperrors.Hints{}, schema)), nil
			}
			if r, ok := result.(*mcp.CallToolResult); ok && r != nil && r.IsError {
				if toolErr := r.GetError(); toolErr != nil {
					schema := declaredOutputSchema(ctx, next, req, name)
					return toResult(opts.ToolFailureDeclared(ctx, name, toolErr, hintsFor(toolErr), schema)), nil
				}
			}
			return result, err
		}
	}
}

// declaredOutputSchema is the output schema tool declares, as the server
// lists it: the server's own tools/list, asked through the same middleware
// chain (public API; the SDK has no getter for one tool). Nil when the tool
// declares none or the list cannot be read; a schema that cannot be
// marshalled accepts nothing.
func declaredOutputSchema(ctx context.Context, next mcp.MethodHandler, req mcp.Request, tool string) json.RawMessage {
	call, ok := req.(*mcp.CallToolRequest)
	if !ok || tool == "" {
		return nil
	}
	params := &mcp.ListToolsParams{}
	for page := 0; page < 100; page++ {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: call.Session, Params: params})
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok || list == nil {
			return nil
		}
		for _, t := range list.Tools {
			if t == nil || t.Name != tool {
				continue
			}
			if t.OutputSchema == nil {
				return nil
			}
			out, err := json.Marshal(t.OutputSchema)
			if err != nil {
				return json.RawMessage(`{"not":{}}`)
			}
			return out
		}
		if list.NextCursor == "" {
			return nil
		}
		params = &mcp.ListToolsParams{Cursor: list.NextCursor}
	}
	return nil
}

// WithServerErrors adds Middleware to server and returns it: the one line.
func WithServerErrors(server *mcp.Server, opts mcperrors.ServerOptions) *mcp.Server {
	server.AddReceivingMiddleware(Middleware(opts))
	return server
}

// Install is the old name of WithServerErrors.
//
// Deprecated: use WithServerErrors.
func Install(server *mcp.Server, opts mcperrors.ServerOptions) *mcp.Server {
	return WithServerErrors(server, opts)
}

// hintsFor marks the failures the SDK itself calls the caller's: argument
// validation and unmarshalling (the model should read them).
func hintsFor(err error) mcperrors.Hints {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if strings.HasPrefix(err.Error(), `validating "arguments": `) || errors.As(err, &syntax) || errors.As(err, &typ) {
		return mcperrors.Hints{Expected: true}
	}
	return mcperrors.Hints{}
}

// toResult is the rendered result as the SDK's type, its structured content
// the core's exact bytes.
func toResult(r *mcperrors.CallToolResult) *mcp.CallToolResult {
	raw := []byte(r.JSON())
	var out mcp.CallToolResult
	if err := json.Unmarshal(raw, &out); err != nil {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Text()}}, IsError: true}
	}
	var fields struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(raw, &fields) == nil && len(fields.StructuredContent) > 0 {
		out.StructuredContent = fields.StructuredContent
	}
	return &out
}

// Parse reads a result a go-sdk client received (nil when it is not an
// error); see mcperrors.ParseResult.
func Parse(result *mcp.CallToolResult, opts mcperrors.ClassifyOptions) (*mcperrors.NormalizedError, error) {
	if result == nil {
		return nil, nil
	}
	return mcperrors.ParseResult(result, opts)
}

// CallToolWithRetry calls a tool through a go-sdk client session, and calls
// again while its failure is retryable (see mcperrors.CallToolWithRetry). A
// *jsonrpc.Error the call returns is read as the protocol error it is; any
// other error is returned at once.
func CallToolWithRetry(ctx context.Context, session *mcp.ClientSession, params *mcp.CallToolParams, policy mcperrors.RetryPolicy) (mcperrors.RetryOutcome[*mcp.CallToolResult], error) {
	return mcperrors.CallToolWithRetry(ctx, func(ctx context.Context) (*mcp.CallToolResult, json.RawMessage, error) {
		r, err := session.CallTool(ctx, params)
		if err != nil {
			var rpc *jsonrpc.Error
			if errors.As(err, &rpc) {
				b, _ := json.Marshal(rpc)
				return nil, b, err
			}
			return nil, nil, err
		}
		return r, nil, nil
	}, policy)
}
