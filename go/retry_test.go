package mcperrors

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func busy(after time.Duration) json.RawMessage {
	r := ToolResult(&ToolError{Message: "The geocoder is busy", Code: CodeUnavailable, Retryable: Bool(true), RetryAfter: after},
		RenderOptions{Format: FormatJSON})
	return json.RawMessage(r.JSON())
}

var ok = json.RawMessage(`{"content":[{"type":"text","text":"sunny"}]}`)

func TestRetryWaitsAsTheServerSaysThenSucceeds(t *testing.T) {
	calls := 0
	var waits []time.Duration
	out, err := CallToolWithRetry(context.Background(), func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
		calls++
		if calls < 3 {
			return busy(15 * time.Millisecond), nil, nil
		}
		return ok, nil, nil
	}, RetryPolicy{OnRetry: func(attempt int, d time.Duration, f *NormalizedError) error {
		waits = append(waits, d)
		if f.Code != CodeUnavailable || !f.Retryable {
			t.Errorf("%+v", f)
		}
		return nil
	}})
	if err != nil || out.Failure != nil || out.Attempts != 3 || string(out.Result) != string(ok) {
		t.Fatalf("%+v %v", out, err)
	}
	if len(waits) != 2 || waits[0] != 15*time.Millisecond {
		t.Fatalf("%v", waits)
	}
}

func TestRetryStops(t *testing.T) {
	// Not retryable: one call.
	out, err := CallToolWithRetry(context.Background(), func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
		return json.RawMessage(ToolResult(&ToolError{Message: "No city", Code: CodeNotFound}, RenderOptions{}).JSON()), nil, nil
	}, RetryPolicy{})
	if err != nil || out.Attempts != 1 || out.Failure.Code != CodeNotFound {
		t.Fatalf("%+v %v", out, err)
	}
	// MaxAttempts, with backoff (no delay given) from a fixed random source.
	var waits []time.Duration
	out, err = CallToolWithRetry(context.Background(), func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"upstream connect error: connection refused"}],"isError":true}`), nil, nil
	}, RetryPolicy{MaxAttempts: 4, BaseDelay: 2 * time.Millisecond, Random: func() float64 { return 0.5 },
		OnRetry: func(_ int, d time.Duration, _ *NormalizedError) error { waits = append(waits, d); return nil }})
	if err != nil || out.Attempts != 4 || out.Failure.Code != CodeNetworkError {
		t.Fatalf("%+v %v", out, err)
	}
	if len(waits) != 3 || waits[0] != time.Millisecond || waits[1] != 2*time.Millisecond || waits[2] != 4*time.Millisecond {
		t.Fatalf("%v", waits)
	}
	// A wait past MaxElapsed is not taken.
	out, _ = CallToolWithRetry(context.Background(), func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
		return busy(time.Hour), nil, nil
	}, RetryPolicy{MaxElapsed: time.Second, MaxDelay: time.Hour})
	if out.Attempts != 1 {
		t.Fatalf("%+v", out)
	}
	// A protocol error is read; a transport error is returned.
	protoErr := errors.New("invalid params")
	out, err = CallToolWithRetry(context.Background(), func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
		return nil, json.RawMessage(`{"code":-32602,"message":"MCP error -32602: Tool forecast: invalid arguments"}`), protoErr
	}, RetryPolicy{})
	if err != nil || out.Attempts != 1 || out.ProtocolErr != protoErr || out.Failure.Code != CodeInvalidArgument || out.Result != nil {
		t.Fatalf("%+v %v", out, err)
	}
	transport := errors.New("broken pipe")
	if _, err := CallToolWithRetry(context.Background(), func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
		return nil, nil, transport
	}, RetryPolicy{}); err != transport {
		t.Fatalf("%v", err)
	}
	// The context cancels the wait.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := CallToolWithRetry(ctx, func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
		return busy(10 * time.Second), nil, nil
	}, RetryPolicy{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
	if _, err := CallToolWithRetry(context.Background(), func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
		return ok, nil, nil
	}, RetryPolicy{MaxDelay: -1}); !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("%v", err)
	}
}

// A failure that may have had effects is called again only for a read-only or
// idempotent tool, when the annotations are known; a refusal for any tool.
func TestRetryOnlyWhatIsSafe(t *testing.T) {
	timeout := json.RawMessage(ToolResult(&ToolError{Message: "upstream timed out", Code: CodeTimeout, Retryable: Bool(true)}, RenderOptions{Format: FormatJSON}).JSON())
	limited := json.RawMessage(ToolResult(&ToolError{Message: "slow down", Code: CodeRateLimited, Retryable: Bool(true)}, RenderOptions{Format: FormatJSON}).JSON())
	run := func(result json.RawMessage, a *ToolAnnotations) RetryOutcome[json.RawMessage] {
		out, err := CallToolWithRetry(context.Background(), func(ctx context.Context) (json.RawMessage, json.RawMessage, error) {
			return result, nil, nil
		}, RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, Random: func() float64 { return 0 }, Annotations: a})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	destructive := &ToolAnnotations{ReadOnlyHint: Bool(false), IdempotentHint: Bool(false), DestructiveHint: Bool(true)}
	if out := run(timeout, destructive); out.Attempts != 1 || out.Reason != "not safe to call again: TIMEOUT may have had effects, and the tool is neither read-only nor idempotent" {
		t.Fatalf("%+v", out)
	}
	if out := run(timeout, &ToolAnnotations{ReadOnlyHint: Bool(true)}); out.Attempts != 3 || out.Reason != "attempts exhausted" {
		t.Fatalf("%+v", out)
	}
	if out := run(limited, destructive); out.Attempts != 3 {
		t.Fatalf("a refusal is retried for any tool: %+v", out)
	}
	if out := run(timeout, nil); out.Attempts != 3 {
		t.Fatalf("without annotations, as before: %+v", out)
	}
}
