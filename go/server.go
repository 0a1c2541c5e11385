package mcperrors

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
)

// ServerOptions configure the SDK middlewares (packages mcpgo and gosdk):
// the render options for every tool, each tool's own on top, and where the
// log records go.
type ServerOptions struct {
	RenderOptions
	// Tools maps a tool's name to its own options, laid over RenderOptions
	// (each non-zero field wins; hints too).
	Tools map[string]RenderOptions
	// Logger receives each failure's log record (never masked; the same
	// error id and time as the result). Nil: slog.Default(), at level Error.
	// DiscardLog: nowhere.
	Logger func(ctx context.Context, record json.RawMessage)
	// Log is the old name of Logger, used when Logger is nil.
	//
	// Deprecated: use Logger.
	Log func(ctx context.Context, record json.RawMessage)
}

// DiscardLog is a ServerOptions.Logger that drops the records.
func DiscardLog(context.Context, json.RawMessage) {}

// ForTool is the options for tool: RenderOptions with Tools[tool] on top,
// ToolName defaulting to tool.
func (o ServerOptions) ForTool(tool string) RenderOptions {
	r := o.RenderOptions
	if t, ok := o.Tools[tool]; ok {
		r = r.With(t)
	}
	if r.ToolName == "" {
		r.ToolName = tool
	}
	return r
}

// ToolFailure turns a tool's failure into its result, and writes the log
// record: what the middlewares call. It never fails (see ToolResult).
func (o ServerOptions) ToolFailure(ctx context.Context, tool string, err error) *CallToolResult {
	return o.ToolFailureWith(ctx, tool, err, Hints{})
}

// ToolFailureWith is ToolFailure with hints laid over the options' own (an
// SDK marks the failures it calls anticipated as Expected).
func (o ServerOptions) ToolFailureWith(ctx context.Context, tool string, err error, hints Hints) *CallToolResult {
	return o.ToolFailureDeclared(ctx, tool, err, hints, nil)
}

// ToolFailureDeclared is ToolFailureWith for a tool that declares an output
// schema (JSON): the declared schema wins over RenderOptions.OutputSchema, so
// the result's structuredContent never breaks it. Nil: none declared.
func (o ServerOptions) ToolFailureDeclared(ctx context.Context, tool string, err error, hints Hints, outputSchema json.RawMessage) *CallToolResult {
	opts := o.ForTool(tool)
	opts.Hints = opts.Hints.With(hints)
	if len(outputSchema) > 0 {
		opts.OutputSchema = string(outputSchema)
	}
	result, record := ToolResultWithLog(err, opts)
	if record != nil {
		func() {
			defer func() { _ = recover() }() // logging never breaks the error path
			if o.Logger != nil {
				o.Logger(ctx, record)
			} else if o.Log != nil {
				o.Log(ctx, record)
			} else {
				slog.Default().ErrorContext(ctx, "mcp-errors: tool failed", slog.String("tool", tool), slog.String("record", string(record)))
			}
		}()
	}
	return result
}

// With returns o with every non-zero field of over on top (hints merged the
// same way).
func (o RenderOptions) With(over RenderOptions) RenderOptions {
	if over.Profile != "" {
		o.Profile = over.Profile
	}
	if over.Format != "" {
		o.Format = over.Format
	}
	if over.Spec != "" {
		o.Spec = over.Spec
	}
	if over.Target != "" {
		o.Target = over.Target
	}
	if over.ToolName != "" {
		o.ToolName = over.ToolName
	}
	if over.Now != "" {
		o.Now = over.Now
	}
	if over.ErrorID != "" {
		o.ErrorID = over.ErrorID
	}
	if over.MaskedMessage != "" {
		o.MaskedMessage = over.MaskedMessage
	}
	if over.OutputSchema != nil {
		o.OutputSchema = over.OutputSchema
	}
	if over.ExtraFields != nil {
		o.ExtraFields = over.ExtraFields
	}
	if over.Mask != MaskDefault {
		o.Mask = over.Mask
	}
	if over.Limits != (Limits{}) {
		o.Limits = over.Limits
	}
	if over.Rules != nil {
		o.Rules = over.Rules
	}
	if over.ToolFailure {
		o.ToolFailure = true
	}
	o.Hints = o.Hints.With(over.Hints)
	return o
}

// With returns h with every non-zero field of over on top.
func (h Hints) With(over Hints) Hints {
	if over.Tool != "" {
		h.Tool = over.Tool
	}
	if over.AppCode != "" {
		h.AppCode = over.AppCode
	}
	if over.AppType != "" {
		h.AppType = over.AppType
	}
	if over.Details != nil {
		h.Details = over.Details
	}
	if len(over.Suggestions) > 0 {
		h.Suggestions = over.Suggestions
	}
	if over.Expected {
		h.Expected = true
	}
	if over.Retryable != nil {
		h.Retryable = over.Retryable
	}
	if over.RetryAfter > 0 {
		h.RetryAfter = over.RetryAfter
	}
	return h
}

// PanicError is a panic in a tool handler, recovered by a middleware: a bug
// inside the tool, INTERNAL. Its message is the panic value; no stack is ever
// copied.
type PanicError struct {
	Value any
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// RawError says what a panic is: the tool's own bug (see RawErrorer).
func (e *PanicError) RawError() map[string]any {
	return map[string]any{"name": "panic", "code": string(CodeInternal)}
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}
