package mcperrors

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-errors/mcp-errors/go/internal/abi"
)

// ClassifyJSON classifies raw-error JSON text (README "The raw-error input")
// and returns the normalized error as canonical JSON text: the exact bytes
// every host and CLI prints. opts.Hints is not used.
func ClassifyJSON(raw string, opts ClassifyOptions) (string, error) {
	rec, err := opts.record()
	if err != nil {
		return "", err
	}
	var out string
	err = call(func(ctx context.Context, in *abi.Instance) error {
		var err error
		out, err = in.ClassifyJSON(ctx, raw, rec)
		return err
	})
	return out, err
}

// Classify classifies anything: a Go error (converted by ToRawError: cause
// chains, errors.Join, *url.Error, *net.OpError, syscall.Errno, …), an
// *http.Response, raw-error JSON given as json.RawMessage, or any value
// (a string is a message, a number a code, a map or struct the raw error's
// fields). opts.Hints go on top.
func Classify(raw any, opts ClassifyOptions) (*NormalizedError, error) {
	text, err := rawText(raw, opts.Hints)
	if err != nil {
		return nil, err
	}
	out, err := ClassifyJSON(text, opts)
	if err != nil {
		return nil, err
	}
	return normalizedFromText(out)
}

// rawText is a value as raw-error JSON text with hints on top;
// json.RawMessage is taken as it is (hints then go on top of its object).
func rawText(raw any, h Hints) (string, error) {
	if r, ok := raw.(json.RawMessage); ok && h.isZero() {
		return string(r), nil
	}
	b, err := json.Marshal(ToRawError(raw, h))
	if err != nil {
		return "", &Error{Kind: KindInvalidInput, Message: "converting the error: " + err.Error()}
	}
	return string(b), nil
}

// RenderJSON classifies raw-error JSON text and renders it in one call (the
// core's classify-render): the rendered JSON text of the chosen target,
// profile and format. opts.Hints is not used.
func RenderJSON(raw string, opts RenderOptions) (string, error) {
	options, err := opts.optionsJSON(false)
	if err != nil {
		return "", err
	}
	var out string
	err = call(func(ctx context.Context, in *abi.Instance) error {
		var err error
		out, err = in.ClassifyRenderJSON(ctx, raw, options)
		return err
	})
	return out, err
}

// Render renders a normalized error (from Classify or Parse, or built by
// hand: the core checks it) as the chosen target, profile and format, and
// returns the rendered JSON.
func Render(n *NormalizedError, opts RenderOptions) (json.RawMessage, error) {
	if n == nil {
		return nil, &Error{Kind: KindInvalidInput, Message: "not a normalized error: nil"}
	}
	options, err := opts.optionsJSON(false)
	if err != nil {
		return nil, err
	}
	normalized := n.JSON()
	var out string
	err = call(func(ctx context.Context, in *abi.Instance) error {
		var err error
		out, err = in.RenderJSON(ctx, normalized, options)
		return err
	})
	if err != nil {
		return nil, err
	}
	return json.RawMessage(out), nil
}

// ParseJSON reads a tool call's result back (JSON text of a CallToolResult,
// a JSON-RPC response or a bare JSON-RPC error object) as another MCP server
// sent it: the normalized error as canonical JSON text, or the text `null`
// when the result is not an error. opts.Now empty: no time.
func ParseJSON(result string, opts ClassifyOptions) (string, error) {
	rec, err := opts.record()
	if err != nil {
		return "", err
	}
	var out string
	err = call(func(ctx context.Context, in *abi.Instance) error {
		var err error
		out, err = in.ParseJSON(ctx, result, rec)
		return err
	})
	return out, err
}

// Parse reads a tool call's result (its JSON) back into the normalized
// error, or nil when the result is not an error; the current time turns a
// toolFailure's retryNotBefore into a delay. It never fails for the result:
// one that cannot be read is an UNKNOWN, non-retryable error whose evidence
// says why.
func Parse(result []byte) (*NormalizedError, error) {
	return ParseResult(json.RawMessage(result), ClassifyOptions{})
}

// ParseResult is Parse for any form of a result: JSON (json.RawMessage,
// []byte, string) or a value that marshals to it, such as either Go SDK's
// *mcp.CallToolResult or a JSON-RPC error. opts.Now empty: the current time.
// Only a bad option is an error (an *Error of kind invalid_option).
func ParseResult(result any, opts ClassifyOptions) (*NormalizedError, error) {
	var text []byte
	switch r := result.(type) {
	case json.RawMessage:
		text = r
	case []byte:
		text = r
	case string:
		text = []byte(r)
	default:
		var err error
		if text, err = json.Marshal(result); err != nil {
			return unreadable("invalid_input: " + err.Error()), nil
		}
	}
	if surelyNotAnError(text) {
		return nil, nil
	}
	if opts.Now == "" {
		opts.Now = FormatTime(time.Now())
	}
	out, err := ParseJSON(string(text), opts)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Kind == KindInvalidOption {
			return nil, err
		}
		if e, ok := err.(*Error); ok {
			return unreadable(string(e.Kind) + ": " + e.Message), nil
		}
		return unreadable(err.Error()), nil
	}
	if out == "null" {
		return nil, nil
	}
	return normalizedFromText(out)
}

func unreadable(why string) *NormalizedError {
	return &NormalizedError{
		Code:      CodeUnknown,
		Category:  CategoryUnknown,
		Retryable: false,
		Message:   "The tool result could not be read.",
		Evidence:  []string{"parse failed: " + why},
	}
}

// ToolFailureMetaKey is the _meta key of the proposed machine-readable tool
// failure (SEP-3313).
const ToolFailureMetaKey = "io.modelcontextprotocol/toolFailure"

// mayBeAFailure is a text block the core reads even without isError: true: a
// JSON object, a text that starts as a failure does ("Error: …", "Failed
// to …": the contract's failurePrefixes, quoted or not), or one with a
// failure's mark anywhere ("<error>": failureMarks; the core reads one that
// starts a line).
func mayBeAFailure(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n\f\v\u0085\u00a0")
	unquoted := strings.TrimLeft(t, `"`)
	if strings.HasPrefix(t, "{") {
		return true
	}
	for _, p := range failurePrefixes {
		if strings.HasPrefix(unquoted, p) {
			return true
		}
	}
	for _, m := range failureMarks {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}

// surelyNotAnError answers a plain successful CallToolResult (or a JSON-RPC
// response carrying one) without entering the core: no isError: true, no
// structuredContent, no toolFailure, no text block the core may read as a
// failure (mayBeAFailure). The core answers null for every result this
// accepts (as the npm and Python hosts do).
func surelyNotAnError(text []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(text, &top) != nil || top == nil {
		return false
	}
	if _, ok := top["error"]; ok {
		return false
	}
	result := top
	_, rpc := top["jsonrpc"]
	_, id := top["id"]
	if rpc || id {
		result = nil
		if json.Unmarshal(top["result"], &result) != nil || result == nil {
			return false
		}
	}
	if _, ok := result["structuredContent"]; ok {
		return false
	}
	if raw, ok := result["isError"]; ok && bytes.Equal(bytes.TrimSpace(raw), []byte("true")) {
		return false
	}
	if raw, ok := result["_meta"]; ok {
		var meta map[string]json.RawMessage
		if json.Unmarshal(raw, &meta) == nil {
			if _, ok := meta[ToolFailureMetaKey]; ok {
				return false
			}
		}
	}
	var content []map[string]json.RawMessage
	if json.Unmarshal(result["content"], &content) != nil || content == nil || len(content) > 16 {
		return false
	}
	for _, block := range content {
		if raw, ok := block["isError"]; ok && bytes.Equal(bytes.TrimSpace(raw), []byte("true")) {
			return false
		}
		var typ, txt string
		if json.Unmarshal(block["type"], &typ) == nil && typ == "text" && json.Unmarshal(block["text"], &txt) == nil &&
			mayBeAFailure(txt) {
			return false
		}
	}
	return true
}

// CodeInfo is one row of the taxonomy.
type CodeInfo struct {
	Code        Code     `json:"code"`
	Category    Category `json:"category"`
	HTTPStatus  int      `json:"http_status"`
	GRPCCode    int      `json:"grpc_code"`
	JSONRPCCode int      `json:"jsonrpc_code"`
	Retryable   bool     `json:"retryable"`
	Doc         string   `json:"doc"`
}

var categoryNames = []Category{CategoryCancelled, CategoryClient, CategoryAuth, CategoryLimit, CategoryTransient, CategoryServer, CategoryUnknown}

// Taxonomy is the taxonomy: one row per canonical code, in table order.
func Taxonomy() ([]CodeInfo, error) {
	var rows []abi.CodeInfo
	err := call(func(ctx context.Context, in *abi.Instance) error {
		var err error
		rows, err = in.Taxonomy(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]CodeInfo, len(rows))
	for i, r := range rows {
		cat := CategoryUnknown
		if int(r.Category) < len(categoryNames) {
			cat = categoryNames[r.Category]
		}
		out[i] = CodeInfo{Code: Code(r.Name), Category: cat, HTTPStatus: int(r.HTTPStatus), GRPCCode: int(r.GRPCCode),
			JSONRPCCode: int(r.JSONRPCCode), Retryable: r.Retryable, Doc: r.Doc}
	}
	return out, nil
}

// Schema is the JSON Schema (draft-07, as text) of a profile's error object.
func Schema(p Profile) (string, error) {
	index := -1
	for i, q := range Profiles {
		if q == p {
			index = i
		}
	}
	if index < 0 {
		names := make([]string, len(Profiles))
		for i, q := range Profiles {
			names[i] = string(q)
		}
		return "", optionError("unknown profile %q; expected one of: %s", string(p), strings.Join(names, ", "))
	}
	var out string
	err := call(func(ctx context.Context, in *abi.Instance) error {
		var err error
		out, err = in.Schema(ctx, uint8(index))
		return err
	})
	return out, err
}

// CallToolResult is a tool result in the shape of the Go SDKs'
// *mcp.CallToolResult: what ToolResult returns. Marshal it to get the result
// on the wire; JSON returns the core's exact bytes.
type CallToolResult struct {
	// ResultType is "complete" for the 2026-07-28 revision, else empty.
	ResultType string    `json:"resultType,omitempty"`
	Content    []Content `json:"content"`
	// StructuredContent is the profile object, when the profile and the
	// tool's outputSchema allow one (numbers as json.Number, exact).
	StructuredContent map[string]any `json:"structuredContent,omitempty"`
	IsError           bool           `json:"isError"`
	// Meta carries the proposed toolFailure (RenderOptions.ToolFailure).
	Meta map[string]any `json:"_meta,omitempty"`

	raw string
}

// Content is a content block: the core writes text blocks only.
type Content struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	MimeType string `json:"mimeType,omitempty"`
}

// JSON is the result as the core rendered it (the exact bytes), or the
// result marshalled when it was built otherwise.
func (r *CallToolResult) JSON() string {
	if r.raw != "" {
		return r.raw
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// Text is the text of every text block, joined with newlines.
func (r *CallToolResult) Text() string {
	parts := make([]string, 0, len(r.Content))
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func resultFromJSON(text string) (*CallToolResult, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var r CallToolResult
	if err := dec.Decode(&r); err != nil {
		return nil, &Error{Kind: KindInvalidInput, Message: "the rendered result does not parse: " + err.Error()}
	}
	if r.Content == nil {
		return nil, optionError("the rendered output is not a tool result; use RenderJSON for this target")
	}
	r.raw = text
	return &r, nil
}

// FallbackResult is the minimal valid error result used when the error
// itself could not be normalized (what ToolResult returns then).
func FallbackResult(reason error, spec Spec) *CallToolResult {
	r := &CallToolResult{
		Content: []Content{{Type: "text", Text: fmt.Sprintf("Error: the tool failed, and mcp-errors could not normalize the error (%v).", reason)}},
		IsError: true,
	}
	if spec == Spec20260728 {
		r.ResultType = "complete"
	}
	return r
}

// ToolResult turns a tool's error into a ready tool result (isError: true in
// the default target). It never fails: if the error cannot be normalized (a
// bad option, a trap twice), a minimal valid error result says so.
// Unexpected errors are masked by default (the model sees the code's
// description, not the message); a *ToolError never is. Now defaults to the
// current time.
func ToolResult(err error, opts RenderOptions) *CallToolResult {
	if opts.Now == "" {
		opts.Now = FormatTime(time.Now())
	}
	hints := opts.Hints
	if hints.Tool == "" {
		hints.Tool = opts.ToolName
	}
	raw, e := rawText(err, hints)
	if e != nil {
		return FallbackResult(e, opts.Spec)
	}
	options, e := opts.optionsJSON(true)
	if e != nil {
		return FallbackResult(e, opts.Spec)
	}
	if opts.Target == TargetProtocolError || opts.Target == TargetLogRecord {
		return FallbackResult(optionError("target %q does not render a tool result; use RenderJSON", opts.Target), opts.Spec)
	}
	var out string
	e = callAgainAfterTrap(func(ctx context.Context, in *abi.Instance) error {
		var err error
		out, err = in.ClassifyRenderJSON(ctx, raw, options)
		return err
	})
	if e != nil {
		return FallbackResult(e, opts.Spec)
	}
	r, e := resultFromJSON(out)
	if e != nil {
		return FallbackResult(e, opts.Spec)
	}
	return r
}

// ToolResultWithLog is ToolResult plus the server's log record (never
// masked) from the same classification, sharing one error id (made when
// opts.ErrorID is empty) and one time: what the middlewares call. The record
// is nil when the error could not be normalized.
func ToolResultWithLog(err error, opts RenderOptions) (*CallToolResult, json.RawMessage) {
	if opts.Now == "" {
		opts.Now = FormatTime(time.Now())
	}
	if opts.ErrorID == "" {
		opts.ErrorID = newErrorID()
	}
	if opts.Target == TargetProtocolError || opts.Target == TargetLogRecord {
		return FallbackResult(optionError("target %q does not render a tool result; use RenderJSON", opts.Target), opts.Spec), nil
	}
	hints := opts.Hints
	if hints.Tool == "" {
		hints.Tool = opts.ToolName
	}
	raw, e := rawText(err, hints)
	if e != nil {
		return FallbackResult(e, opts.Spec), nil
	}
	options, e := opts.optionsJSON(true)
	if e != nil {
		return FallbackResult(e, opts.Spec), nil
	}
	var record, out string
	e = callAgainAfterTrap(func(ctx context.Context, in *abi.Instance) error {
		var err error
		record, out, err = in.ClassifyRenderWithLogJSON(ctx, raw, options)
		return err
	})
	if e != nil {
		return FallbackResult(e, opts.Spec), nil
	}
	r, e := resultFromJSON(out)
	if e != nil {
		return FallbackResult(e, opts.Spec), nil
	}
	return r, json.RawMessage(record)
}
