// Package mcpgo is mcp-errors for github.com/mark3labs/mcp-go servers: one
// line, and a tool handler's Go error becomes an isError CallToolResult the
// model sees (a canonical code, the retry verdict, redaction), not a JSON-RPC
// -32603 it never sees.
//
//	s := server.NewMCPServer("weather", "1.0.0",
//		mcpgo.WithErrors(mcperrors.ServerOptions{RenderOptions: mcperrors.RenderOptions{Profile: mcperrors.ProfileToolErrorV1}}))
package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	mcperrors "github.com/mcp-errors/mcp-errors/go"
)

// WithErrors is the server option that installs the middleware, reading each
// failing tool's declared output schema from the server (MCPServer.GetTool),
// so the result's structuredContent never breaks it.
func WithErrors(opts mcperrors.ServerOptions) server.ServerOption {
	return func(s *server.MCPServer) {
		server.WithToolHandlerMiddleware(middleware(opts, s))(s)
	}
}

// Middleware is a tool handler middleware: a Go error returned by a tool
// handler (or a panic in it) becomes the error result opts describe, named
// after the tool the request called, with a log record (never masked, the
// same error id). Unexpected errors are masked unless opts say otherwise; a
// *mcperrors.ToolError is shown. mcp-go's URL elicitation error stays the
// protocol error it is. Results a handler built itself (mcp.NewToolResultError)
// are left as they are.
//
// Alone (without WithErrors) it does not know the tools' output schemas: set
// RenderOptions.OutputSchema per tool (ServerOptions.Tools) for those that
// declare one.
func Middleware(opts mcperrors.ServerOptions) server.ToolHandlerMiddleware {
	return middleware(opts, nil)
}

func middleware(opts mcperrors.ServerOptions, s *server.MCPServer) server.ToolHandlerMiddleware {
	fail := func(ctx context.Context, name string, err error) *mcp.CallToolResult {
		return toResult(opts.ToolFailureDeclared(ctx, name, err, mcperrors.Hints{}, declaredOutputSchema(s, name)))
	}
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (result *mcp.CallToolResult, err error) {
			defer func() {
				if p := recover(); p != nil {
					result, err = fail(ctx, req.Params.Name, &mcperrors.PanicError{Value: p}), nil
				}
			}()
			result, err = next(ctx, req)
			if err == nil || isProtocolError(err) {
				return result, err
			}
			return fail(ctx, req.Params.Name, err), nil
		}
	}
}

// declaredOutputSchema is the output schema tool declares, as it is listed
// (mcp.Tool's MarshalJSON: RawOutputSchema, else OutputSchema when typed);
// nil when it declares none or the server is unknown. A schema that cannot be
// marshalled accepts nothing.
func declaredOutputSchema(s *server.MCPServer, tool string) json.RawMessage {
	if s == nil {
		return nil
	}
	t := s.GetTool(tool)
	if t == nil {
		return nil
	}
	if len(t.Tool.RawOutputSchema) > 0 {
		return t.Tool.RawOutputSchema
	}
	if t.Tool.OutputSchema.Type == "" {
		return nil
	}
	out, err := json.Marshal(t.Tool.OutputSchema)
	if err != nil {
		return json.RawMessage(`{"not":{}}`)
	}
	return out
}

// isProtocolError: the errors mcp-go answers with a JSON-RPC error of their
// own (URL elicitation required, SEP-1036).
func isProtocolError(err error) bool {
	var v mcp.URLElicitationRequiredError
	var p *mcp.URLElicitationRequiredError
	return errors.As(err, &v) || errors.As(err, &p)
}

// toResult is the rendered result as mcp-go's type, its structured content
// the core's exact bytes.
func toResult(r *mcperrors.CallToolResult) *mcp.CallToolResult {
	raw := json.RawMessage(r.JSON())
	out, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		return mcp.NewToolResultError(r.Text())
	}
	var fields struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(raw, &fields) == nil && len(fields.StructuredContent) > 0 {
		out.StructuredContent = fields.StructuredContent
	}
	return out
}

// Parse reads a result an mcp-go client received (nil when it is not an
// error); see mcperrors.ParseResult.
func Parse(result *mcp.CallToolResult, opts mcperrors.ClassifyOptions) (*mcperrors.NormalizedError, error) {
	if result == nil {
		return nil, nil
	}
	return mcperrors.ParseResult(result, opts)
}

// protocolCodes are mcp-go's client errors for JSON-RPC errors (its
// JSONRPCErrorDetails.AsError), by their JSON-RPC code.
var protocolCodes = []struct {
	err  error
	code int
}{
	{mcp.ErrParseError, mcp.PARSE_ERROR},
	{mcp.ErrInvalidRequest, mcp.INVALID_REQUEST},
	{mcp.ErrMethodNotFound, mcp.METHOD_NOT_FOUND},
	{mcp.ErrInvalidParams, mcp.INVALID_PARAMS},
	{mcp.ErrInternalError, mcp.INTERNAL_ERROR},
	{mcp.ErrRequestInterrupted, mcp.REQUEST_INTERRUPTED},
	{mcp.ErrResourceNotFound, mcp.RESOURCE_NOT_FOUND},
}

// protocolError is the JSON-RPC error object behind an mcp-go client error,
// when it is one of the codes mcp-go names (nil otherwise).
func protocolError(err error) json.RawMessage {
	for _, p := range protocolCodes {
		if errors.Is(err, p.err) {
			msg := strings.TrimPrefix(err.Error(), p.err.Error()+": ")
			b, _ := json.Marshal(map[string]any{"code": p.code, "message": msg})
			return b
		}
	}
	return nil
}

// CallToolWithRetry calls a tool through an mcp-go client, and calls again
// while its failure is retryable (see mcperrors.CallToolWithRetry). The
// JSON-RPC errors mcp-go names (mcp.ErrInternalError, …) are read as protocol
// errors; any other error is returned at once.
func CallToolWithRetry(ctx context.Context, c *client.Client, req mcp.CallToolRequest, policy mcperrors.RetryPolicy) (mcperrors.RetryOutcome[*mcp.CallToolResult], error) {
	return mcperrors.CallToolWithRetry(ctx, func(ctx context.Context) (*mcp.CallToolResult, json.RawMessage, error) {
		r, err := c.CallTool(ctx, req)
		if err != nil {
			return nil, protocolError(err), err
		}
		return r, nil, nil
	}, policy)
}
