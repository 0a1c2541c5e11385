package mcperrors

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"time"
)

// RetryPolicy says when CallToolWithRetry calls again and how long it waits.
// Every field has a default (its zero value).
type RetryPolicy struct {
	// MaxAttempts is the most calls, the first included. Default 3.
	MaxAttempts int
	// MaxElapsed: no wait starts that would end more than this after the
	// first call began (a call under way is not cut short: use the context
	// for a hard deadline). Default 60 s.
	MaxElapsed time.Duration
	// BaseDelay and MaxBackoff bound the backoff for a failure without a
	// retry delay: the wait after call n is a random duration below
	// min(MaxBackoff, BaseDelay * 2^(n-1)) (full jitter). Defaults 500 ms, 10 s.
	BaseDelay  time.Duration
	MaxBackoff time.Duration
	// MaxDelay is the longest wait taken from the server's retry_after_ms (a
	// longer one is cut to this). Default 30 s.
	MaxDelay time.Duration
	// OnRetry is told before each wait; an error it returns stops the calls
	// and is returned.
	OnRetry func(attempt int, delay time.Duration, failure *NormalizedError) error
	// ParseOptions are how each failure is read (your own rules decide what a
	// server's own errors mean).
	ParseOptions ClassifyOptions
	// Random is the jitter's source, a number in [0, 1); for tests. Default
	// math/rand/v2.
	Random func() float64
	// Annotations are the tool's, from tools/list. Given, a failure that may
	// have had effects (a timeout, a network error, an upstream 5xx, an
	// unavailable without 429/503) is retried only for a read-only or
	// idempotent tool; a refusal before any work for any tool. Nil: every
	// retryable failure is retried.
	Annotations *ToolAnnotations
}

// ToolAnnotations are the hints of MCP's ToolAnnotations that decide whether
// calling a tool again is safe (nil: not stated).
type ToolAnnotations struct {
	ReadOnlyHint    *bool `json:"readOnlyHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
}

// RetryOutcome is how CallToolWithRetry ended.
type RetryOutcome[R any] struct {
	// Result is the last call's result (the zero value when it returned a
	// protocol error).
	Result R
	// Failure is the last call's canonical error, nil on success.
	Failure *NormalizedError
	// Attempts is how many calls were made.
	Attempts int
	// ProtocolErr is the protocol error the last call returned, which
	// Failure reads; nil otherwise.
	ProtocolErr error
	// Reason is why the calls stopped: "succeeded", "not retryable", "not
	// safe to call again: …", "attempts exhausted" or "time budget exhausted".
	Reason string
}

// ToolCall is one call of a tool, as CallToolWithRetry makes it: its result,
// or an error. protocol, for an error, is the JSON-RPC error object it carries
// ({code, message, data}); nil for any other error (a transport failure),
// which stops the calls and is returned.
type ToolCall[R any] func(ctx context.Context) (result R, protocol json.RawMessage, err error)

// CallToolWithRetry calls a tool, reads each outcome with ParseResult (an
// isError result, or a protocol error), and calls again while the failure is
// retryable: after the server's retry_after_ms (cut to MaxDelay), else after
// a jittered exponential backoff. It stops after MaxAttempts calls, or when
// the next wait would end past MaxElapsed, and returns the last call's
// outcome. It returns an error only for a non-protocol error of a call, a
// cancelled context (ctx.Err()), OnRetry's error, or a policy out of range.
// The SDK packages (mcpgo, gosdk) give it their clients.
func CallToolWithRetry[R any](ctx context.Context, call ToolCall[R], policy RetryPolicy) (RetryOutcome[R], error) {
	p, err := policy.checked()
	if err != nil {
		return RetryOutcome[R]{}, err
	}
	start := time.Now()
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return RetryOutcome[R]{Attempts: attempt - 1}, err
		}
		result, protocol, callErr := call(ctx)
		out := RetryOutcome[R]{Result: result, Attempts: attempt}
		if callErr != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			if protocol == nil {
				return out, callErr
			}
			var zero R
			out.Result, out.ProtocolErr = zero, callErr
			out.Failure, err = ParseResult(protocol, p.ParseOptions)
		} else {
			out.Failure, err = ParseResult(result, p.ParseOptions)
		}
		if err != nil {
			return out, err
		}
		if out.Failure == nil {
			out.Reason = "succeeded"
			return out, nil
		}
		if !out.Failure.Retryable {
			out.Reason = "not retryable"
			return out, nil
		}
		if safe, why := retrySafety(out.Failure, p.Annotations); !safe {
			out.Reason = "not safe to call again: " + why
			return out, nil
		}
		if attempt >= p.MaxAttempts {
			out.Reason = "attempts exhausted"
			return out, nil
		}
		delay := p.delay(out.Failure, attempt)
		if time.Since(start)+delay > p.MaxElapsed {
			out.Reason = "time budget exhausted"
			return out, nil
		}
		if p.OnRetry != nil {
			if err := p.OnRetry(attempt, delay, out.Failure); err != nil {
				return out, err
			}
		}
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return out, ctx.Err()
		case <-timer.C:
		}
	}
}

// retrySafety says whether calling the tool again after this retryable
// failure is safe, and why: a failure the core lists as one that may have had
// effects (mayHaveHadEffects, unless an UNAVAILABLE with a refusal status)
// needs a read-only or idempotent tool, when its annotations are known.
func retrySafety(n *NormalizedError, a *ToolAnnotations) (bool, string) {
	code := string(n.Code)
	maybe := false
	for _, c := range mayHaveHadEffects {
		maybe = maybe || c == n.Code
	}
	for _, s := range refusalStatuses {
		if n.Code == CodeUnavailable && n.HTTPStatus == s {
			maybe = false
		}
	}
	switch {
	case !maybe:
		return true, code + ": refused before any work"
	case a == nil:
		return true, code + " may have had effects; the tool's annotations are unknown"
	case a.ReadOnlyHint != nil && *a.ReadOnlyHint:
		return true, code + " may have had effects; the tool is read-only"
	case a.IdempotentHint != nil && *a.IdempotentHint:
		return true, code + " may have had effects; the tool is idempotent"
	}
	return false, code + " may have had effects, and the tool is neither read-only nor idempotent"
}

func (p RetryPolicy) checked() (RetryPolicy, error) {
	for _, f := range []struct {
		name string
		v    time.Duration
	}{{"MaxElapsed", p.MaxElapsed}, {"BaseDelay", p.BaseDelay}, {"MaxBackoff", p.MaxBackoff}, {"MaxDelay", p.MaxDelay}} {
		if f.v < 0 {
			return p, optionError("retry policy: %s must not be negative", f.name)
		}
	}
	if p.MaxAttempts < 0 {
		return p, optionError("retry policy: MaxAttempts must not be negative")
	}
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	if p.MaxAttempts == 0 {
		p.MaxAttempts = 3
	}
	def(&p.MaxElapsed, 60*time.Second)
	def(&p.BaseDelay, 500*time.Millisecond)
	def(&p.MaxBackoff, 10*time.Second)
	def(&p.MaxDelay, 30*time.Second)
	if p.Random == nil {
		p.Random = rand.Float64
	}
	return p, nil
}

// delay is the wait after call attempt failed with f.
func (p RetryPolicy) delay(f *NormalizedError, attempt int) time.Duration {
	if f.RetryAfterMs != nil {
		return min(f.RetryAfter(), p.MaxDelay)
	}
	ceiling := p.BaseDelay
	for i := 1; i < attempt && ceiling < p.MaxBackoff; i++ {
		ceiling *= 2
	}
	ceiling = min(ceiling, p.MaxBackoff)
	return time.Duration(p.Random() * float64(ceiling))
}
