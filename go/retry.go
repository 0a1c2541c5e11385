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
		if out.Failure == nil || !out.Failure.Retryable || attempt >= p.MaxAttempts {
			return out, nil
		}
		delay := p.delay(out.Failure, attempt)
		if time.Since(start)+delay > p.MaxElapsed {
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
