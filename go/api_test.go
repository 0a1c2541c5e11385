package mcperrors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-errors/mcp-errors/go/internal/abi"
	"github.com/mcp-errors/mcp-errors/go/internal/engine"
)

func TestToolResultMasksUnexpectedErrorsAndShowsToolErrors(t *testing.T) {
	r := ToolResult(errors.New("pq: password authentication failed for user admin at 10.0.0.5"), RenderOptions{ToolName: "query"})
	if !r.IsError || strings.Contains(r.Text(), "10.0.0.5") || !strings.Contains(r.Text(), "Tool: query") {
		t.Fatalf("not masked: %s", r.JSON())
	}
	r = ToolResult(&ToolError{Message: "No city named Atlantis", Code: CodeNotFound}, RenderOptions{ToolName: "forecast", Profile: ProfileToolErrorV1, Format: FormatBoth})
	if !r.IsError || !strings.Contains(r.Text(), "No city named Atlantis") || r.StructuredContent["code"] != "NOT_FOUND" {
		t.Fatalf("%s", r.JSON())
	}
	// Unmasked on request.
	r = ToolResult(errors.New("disk quota of /srv exhausted"), RenderOptions{Mask: MaskOff})
	if !strings.Contains(r.Text(), "disk quota of /srv exhausted") {
		t.Fatalf("%s", r.JSON())
	}
	// Marshalled, it is the core's result (structured content numbers exact).
	b, _ := json.Marshal(r)
	var again map[string]any
	if err := json.Unmarshal(b, &again); err != nil || again["isError"] != true {
		t.Fatalf("%s %v", b, err)
	}
}

func TestToolResultNeverFails(t *testing.T) {
	r := ToolResult(errors.New("x"), RenderOptions{Profile: "nope", Spec: Spec20260728})
	if !r.IsError || r.ResultType != "complete" || !strings.Contains(r.Text(), `could not normalize the error (mcp-errors: invalid_option: unknown profile "nope"`) {
		t.Fatalf("%s", r.JSON())
	}
	r = ToolResult(errors.New("x"), RenderOptions{Limits: Limits{MaxDepth: -1}})
	if !strings.Contains(r.Text(), `limit "max_depth" must be a non-negative integer`) {
		t.Fatalf("%s", r.JSON())
	}
	r = ToolResult(errors.New("x"), RenderOptions{Target: TargetProtocolError})
	if !r.IsError || !strings.Contains(r.Text(), "does not render a tool result") {
		t.Fatalf("%s", r.JSON())
	}
	if r := ToolResult(nil, RenderOptions{}); !r.IsError {
		t.Fatalf("%s", r.JSON())
	}
	// Soft results and needs-input are tool results too.
	if r := ToolResult(errors.New("x"), RenderOptions{Target: TargetSoftResult, Format: FormatJSON}); r.IsError || len(r.Content) == 0 {
		t.Fatalf("%s", r.JSON())
	}
}

func TestToolResultWithLogSharesIDAndTime(t *testing.T) {
	r, record := ToolResultWithLog(errors.New("upstream said 503"), RenderOptions{ToolName: "search", Format: FormatBoth})
	var rec map[string]any
	if err := json.Unmarshal(record, &rec); err != nil {
		t.Fatalf("%s: %v", record, err)
	}
	id, _ := rec["error_id"].(string)
	if len(id) != 8 || !strings.Contains(r.Text(), "Error ID: "+id) || r.StructuredContent["timestamp"] != rec["timestamp"] {
		t.Fatalf("record %s\nresult %s", record, r.JSON())
	}
	// The record is never masked.
	if rec["message"] != "upstream said 503" {
		t.Fatalf("%s", record)
	}
}

func TestTypedErrors(t *testing.T) {
	_, err := ClassifyJSON("not json", ClassifyOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindInvalidJSON || e.Message != "expected ident at line 1 column 2" || !errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("%#v", err)
	}
	_, err = ClassifyJSON("{}", ClassifyOptions{Now: "yesterday"})
	if !errors.Is(err, ErrInvalidOption) || errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("%v", err)
	}
	_, err = ClassifyJSON("{}", ClassifyOptions{Limits: Limits{MaxDepth: 1 << 32}})
	if err == nil || err.Error() != `mcp-errors: invalid_option: limit "max_depth" is 4294967296; it must be below 4294967296` {
		t.Fatalf("%v", err)
	}
	_, err = RenderJSON("{}", RenderOptions{Limits: Limits{MaxDepth: 33}})
	if err == nil || err.Error() != `mcp-errors: invalid_option: limit "max_depth" is 33; it must be from 1 to 32` {
		t.Fatalf("%v", err)
	}
	_, err = Classify(errors.New("x"), ClassifyOptions{Rules: `[{"id":"x","when":{"status":400},"code":"NOPE"}]`})
	if !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), `rule "x": unknown code "NOPE"`) {
		t.Fatalf("%v", err)
	}
	if _, err := Render(nil, RenderOptions{}); !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("%v", err)
	}
	if _, err := Render(&NormalizedError{Code: "NOPE", Message: "m"}, RenderOptions{}); !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("%v", err)
	}
}

func TestOptionsAsValues(t *testing.T) {
	rules := []map[string]any{{"id": "slow-down", "when": map[string]any{"path": "body.fault.kind", "equals": "SLOW_DOWN"},
		"code": "RATE_LIMITED", "retryable": true, "retry_after": map[string]any{"path": "body.fault.wait", "unit": "s"}}}
	n, err := Classify(json.RawMessage(`{"status":500,"body":{"fault":{"kind":"SLOW_DOWN","wait":12}}}`), ClassifyOptions{Rules: rules})
	if err != nil || n.Code != CodeRateLimited || n.RetryAfterMs == nil || *n.RetryAfterMs != 12000 || n.Evidence[0] != "rule slow-down" {
		t.Fatalf("%+v %v", n, err)
	}
	out, err := RenderJSON(`{"status":500}`, RenderOptions{Profile: ProfileErrorObject, Format: FormatJSON,
		ExtraFields: map[string]any{"metrics_available": false}, OutputSchema: map[string]any{"type": "object"}})
	if err != nil || !strings.Contains(out, `\"metrics_available\":false`) {
		t.Fatalf("%s %v", out, err)
	}
	// Big integers stay exact as text.
	out, err = RenderJSON(`{"status":500}`, RenderOptions{Profile: ProfileToolErrorV1, Format: FormatJSON, ExtraFields: `{"id":12345678901234567890}`})
	if err != nil || !strings.Contains(out, `12345678901234567890`) {
		t.Fatalf("%s %v", out, err)
	}
	// Hints on Classify.
	n, err = Classify(errors.New("boom"), ClassifyOptions{Hints: Hints{Tool: "t", AppCode: "E_BOOM", Retryable: Bool(true)}})
	if err != nil || n.Tool != "t" || n.AppCode != "E_BOOM" || !n.Retryable {
		t.Fatalf("%+v %v", n, err)
	}
}

func TestParse(t *testing.T) {
	n, err := Parse([]byte(`{"content":[{"type":"text","text":"search code: GitHub API rate limit exceeded. Retry after 30m0s."}],"isError":true}`))
	if err != nil || n.Code != CodeRateLimited || n.RetryAfterMs == nil || *n.RetryAfterMs != 1800000 || !n.Expected {
		t.Fatalf("%+v %v", n, err)
	}
	if n, err := Parse([]byte(`{"content":[{"type":"text","text":"3 results, no errors"}]}`)); n != nil || err != nil {
		t.Fatalf("%+v %v", n, err)
	}
	for _, bad := range []string{"garbage", "42", `[1,2]`, `{"content":"boom","isError":true}`} {
		n, err := Parse([]byte(bad))
		if err != nil || n.Code != CodeUnknown || n.Retryable || !strings.HasPrefix(n.Evidence[0], "parse failed: invalid_") {
			t.Fatalf("%s: %+v %v", bad, n, err)
		}
	}
	if _, err := ParseResult(`{"content":[],"isError":true}`, ClassifyOptions{Now: "soon"}); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("%v", err)
	}
	// A value that marshals to a result, e.g. an SDK's *mcp.CallToolResult.
	n, err = ParseResult(ToolResult(&ToolError{Message: "No city named Atlantis", Code: CodeNotFound}, RenderOptions{Profile: ProfileToolErrorV1}), ClassifyOptions{})
	if err != nil || n == nil || n.Code != CodeNotFound || n.Message != "No city named Atlantis" {
		t.Fatalf("%+v %v", n, err)
	}
}

func TestTaxonomyAndSchema(t *testing.T) {
	rows, err := Taxonomy()
	if err != nil || len(rows) != 19 || rows[11].Code != CodeRateLimited || rows[11].Category != CategoryLimit || rows[11].HTTPStatus != 429 ||
		rows[11].GRPCCode != 8 || rows[11].JSONRPCCode != -32603 || !rows[11].Retryable || rows[18].Code != CodeUnknown {
		t.Fatalf("%+v %v", rows, err)
	}
	for _, p := range Profiles {
		s, err := Schema(p)
		if err != nil || !json.Valid([]byte(s)) {
			t.Fatalf("%s: %v", p, err)
		}
	}
	if _, err := Schema("nope"); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("%v", err)
	}
}

func TestNormalizedErrorJSONRoundTrip(t *testing.T) {
	text, err := ClassifyJSON(`{"status":503,"headers":{"retry-after":"5"},"message":"Upstream search index is unavailable","tool":"search_docs","app_code":"INDEX_DOWN","details":{"index":"docs-v2","n":12345678901234567890},"suggestions":["Retry in a few seconds"]}`, ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var n NormalizedError
	if err := json.Unmarshal([]byte(text), &n); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(&n)
	if string(b) != text || n.JSON() != text || n.RetryAfter().Seconds() != 5 {
		t.Fatalf("\n%s\n%s", b, text)
	}
}

// A trap drops the instance; the next call runs on a fresh one, and the
// never-failing paths try once more.
func TestTrapRecovery(t *testing.T) {
	before := currentEngine().Instantiations()
	err := call(func(ctx context.Context, in *abi.Instance) error { return in.TrapForTest(ctx) })
	if !errors.Is(err, ErrTrap) {
		t.Fatalf("%v", err)
	}
	if _, err := ClassifyJSON(`{"status":429}`, ClassifyOptions{}); err != nil {
		t.Fatal(err)
	}
	if currentEngine().Instantiations() <= before {
		t.Fatal("no fresh instance after the trap")
	}
	calls := 0
	err = callAgainAfterTrap(func(ctx context.Context, in *abi.Instance) error {
		calls++
		if calls == 1 {
			return in.TrapForTest(ctx)
		}
		_, err := in.ClassifyJSON(ctx, "{}", abi.ClassifyOptions{})
		return err
	})
	if err != nil || calls != 2 {
		t.Fatalf("%v after %d calls", err, calls)
	}
}

// The test-only trapping build (cargo xtask test builds it): the input
// "mcp-errors: trap now" traps in the guest itself.
func TestARealTrappingModule(t *testing.T) {
	path := os.Getenv("MCP_ERRORS_TRAP_WASM")
	if path == "" {
		path = filepath.Join("..", "target", "trap", "wasm32-unknown-unknown", "wasm", "mcp_errors_component.opt.wasm")
	}
	wasm, err := os.ReadFile(path)
	if err != nil && os.Getenv("MCP_ERRORS_TRAP_WASM") != "" {
		t.Fatalf("%s: %v", path, err)
	}
	if err != nil {
		t.Skipf("%s: %v (cargo xtask test builds it)", path, err)
	}
	saved := engine.Get()
	engine.Set(newEngine(wasm))
	defer engine.Set(saved)
	raw := `"mcp-errors: trap now"`
	if _, err := ClassifyJSON(raw, ClassifyOptions{}); !errors.Is(err, ErrTrap) {
		t.Fatalf("%v", err)
	}
	// A string value is a JSON string: the same input.
	if _, err := Classify("mcp-errors: trap now", ClassifyOptions{}); !errors.Is(err, ErrTrap) {
		t.Fatalf("%v", err)
	}
	r := ToolResult(errors.New("x"), RenderOptions{Mask: MaskOff})
	if !r.IsError || !strings.Contains(r.Text(), "x") {
		t.Fatalf("after a trap: %s", r.JSON())
	}
	n, err := Parse([]byte(raw))
	if err != nil || n.Code != CodeUnknown || !strings.HasPrefix(n.Evidence[0], "parse failed: trap") {
		t.Fatalf("%+v %v", n, err)
	}
	n, err = Parse([]byte(`{"content":[{"type":"text","text":"rate limit exceeded"}],"isError":true}`))
	if err != nil || n.Code != CodeRateLimited {
		t.Fatalf("%+v %v", n, err)
	}
}

func TestConcurrentCallsGiveTheSameBytes(t *testing.T) {
	errs := []error{
		errors.New("connect ECONNREFUSED 127.0.0.1:8080"),
		&ToolError{Message: "No city named Atlantis", Code: CodeNotFound},
		fmt.Errorf("query: %w", context.DeadlineExceeded),
	}
	opts := RenderOptions{Now: "2025-10-27T14:32:15Z", ErrorID: "abc", Profile: ProfileCanonical, Format: FormatBoth}
	want := make([]string, len(errs))
	for i, e := range errs {
		want[i] = ToolResult(e, opts).JSON()
	}
	var wg sync.WaitGroup
	fail := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 60; i++ {
				k := (g + i) % len(errs)
				if got := ToolResult(errs[k], opts).JSON(); got != want[k] {
					fail <- got
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(fail)
	for got := range fail {
		t.Fatalf("a concurrent call differs: %s", got)
	}
}

// The options struct becomes the core's JSON options, as the other hosts send them.
func TestOptionsJSON(t *testing.T) {
	got, err := RenderOptions{
		Profile: ProfileText, Format: FormatBoth, Spec: Spec20260728, Target: TargetSoftResult, ToolName: "t\"1",
		Now: "2025-10-27T14:32:15Z", ErrorID: "e1", OutputSchema: map[string]any{"type": "object"}, ExtraFields: `{"a":1}`,
		Mask: MaskOn, Limits: Limits{MaxDepth: 4, MaxRenderedBytes: 2048}, Rules: []any{}, ToolFailure: true,
	}.optionsJSON(false)
	want := `{"profile":"text","format":"both","spec":"2026-07-28","target":"soft-result","tool_name":"t\"1","now":"2025-10-27T14:32:15Z",` +
		`"error_id":"e1","output_schema":"{\"type\":\"object\"}","extra_fields":"{\"a\":1}","rules":"[]","mask":true,"tool_failure":true,` +
		`"limits":{"max_depth":4,"max_rendered_bytes":2048}}`
	if err != nil || got != want {
		t.Fatalf("\n%s\n%s %v", got, want, err)
	}
	if got, _ := (RenderOptions{}).optionsJSON(true); got != `{"mask":true}` {
		t.Fatal(got)
	}
	if got, _ := (RenderOptions{Mask: MaskOff}).optionsJSON(true); got != `{}` {
		t.Fatal(got)
	}
	if FormatTime(time.Date(2025, 10, 27, 16, 32, 15, 250e6, time.FixedZone("", 7200))) != "2025-10-27T14:32:15.25Z" {
		t.Fatal(FormatTime(time.Now()))
	}
}

// A tool's own options lay every set field over the server's, the masked
// sentence included.
func TestServerOptionsForTool(t *testing.T) {
	o := ServerOptions{
		RenderOptions: RenderOptions{Profile: ProfileToolErrorV1, MaskedMessage: "The server failed"},
		Tools:         map[string]RenderOptions{"weather": {MaskedMessage: "The weather service failed", Format: FormatBoth}},
	}
	w := o.ForTool("weather")
	if w.MaskedMessage != "The weather service failed" || w.Profile != ProfileToolErrorV1 || w.Format != FormatBoth || w.ToolName != "weather" {
		t.Fatalf("%+v", w)
	}
	if s := o.ForTool("search"); s.MaskedMessage != "The server failed" {
		t.Fatalf("%+v", s)
	}
	r := o.ToolFailure(context.Background(), "weather", errors.New("boom"))
	if !strings.Contains(r.Text(), "The weather service failed (error id ") {
		t.Fatal(r.Text())
	}
}
