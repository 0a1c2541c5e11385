package abi

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
)

func testPool(t *testing.T) *Pool {
	t.Helper()
	wasm, err := os.ReadFile("../../core.wasm")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(wasm, 2, nil)
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

func u32(v uint32) *uint32 { return &v }
func str(s string) *string { return &s }

func TestStringsResultsAndErrors(t *testing.T) {
	p := testPool(t)
	ctx := context.Background()
	err := p.Do(ctx, func(in *Instance) error {
		out, err := in.ClassifyJSON(ctx, `{"status":429,"headers":{"retry-after":"30"}}`, ClassifyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out, `{"code":"RATE_LIMITED"`) {
			t.Fatalf("classify-json: %s", out)
		}
		// Every option of the record, including the limits.
		out, err = in.ClassifyJSON(ctx, `{"message":"`+strings.Repeat("m", 100)+`"}`, ClassifyOptions{
			Now:    str("2025-10-27T14:32:15Z"),
			Limits: &Limits{MaxMessageChars: u32(20)},
			Rules:  str(`[]`),
		})
		if err != nil || !strings.Contains(out, `"message":"mmmmmmmmmmmmmmmmmmmm…[truncated 80 chars]"`) {
			t.Fatalf("limits: %s %v", out, err)
		}
		_, err = in.ClassifyJSON(ctx, `{}`, ClassifyOptions{Limits: &Limits{MaxDepth: u32(0)}})
		if ce, ok := err.(*CoreError); !ok || ce.Case != InvalidOption || ce.Message != `limit "max_depth" is 0; it must be from 1 to 32` {
			t.Fatalf("limits out of range: %#v", err)
		}
		_, err = in.ClassifyJSON(ctx, `not json`, ClassifyOptions{})
		if ce, ok := err.(*CoreError); !ok || ce.Case != InvalidJSON || ce.Message != "expected ident at line 1 column 2" {
			t.Fatalf("invalid json: %#v", err)
		}
		out, err = in.ParseJSON(ctx, `{"content":[{"type":"text","text":"ok"}]}`, ClassifyOptions{})
		if err != nil || out != "null" {
			t.Fatalf("parse-json: %q %v", out, err)
		}
		out, err = in.ClassifyRenderJSON(ctx, `{"status":404}`, `{"profile":"tool-error-v1"}`)
		if err != nil || !strings.Contains(out, `"isError":true`) {
			t.Fatalf("classify-render-json: %s %v", out, err)
		}
		rec, res, err := in.ClassifyRenderWithLogJSON(ctx, `{"status":404}`, `{"error_id":"e1","now":"2025-10-27T14:32:15Z"}`)
		if err != nil || !strings.Contains(rec, `"e1"`) || !strings.Contains(res, `"isError":true`) {
			t.Fatalf("with-log: %s %s %v", rec, res, err)
		}
		tax, err := in.Taxonomy(ctx)
		if err != nil || len(tax) != 19 || tax[11].Name != "RATE_LIMITED" || tax[11].HTTPStatus != 429 || !tax[11].Retryable || tax[0].JSONRPCCode != -32603 {
			t.Fatalf("taxonomy: %+v %v", tax, err)
		}
		s, err := in.Schema(ctx, 1)
		if err != nil || !strings.Contains(s, "toolError:v1") {
			t.Fatalf("schema: %s %v", s, err)
		}
		plan, err := in.CliStart(ctx, []string{"render", "--profile", "text"})
		if err != nil || plan.Finish != nil || plan.Lines == "" {
			t.Fatalf("start: %+v %v", plan, err)
		}
		line, ok, err := in.CliLine(ctx, plan.Lines, `{"status":500}`, 1)
		if err != nil || !ok || line.Failed || !strings.Contains(line.Text, "isError") {
			t.Fatalf("line: %+v %v %v", line, ok, err)
		}
		_, ok, err = in.CliLine(ctx, plan.Lines, " \t", 2)
		if err != nil || ok {
			t.Fatalf("blank line: %v %v", ok, err)
		}
		bad, err := in.CliBadLine(ctx, 1, []byte{0xff, '}'}, 3)
		if err != nil || !bad.Failed || !strings.Contains(bad.Text, "invalid utf-8 sequence of 1 bytes from index 1") {
			t.Fatalf("bad-line: %+v %v", bad, err)
		}
		plan, err = in.CliStart(ctx, nil)
		if err != nil || plan.Finish == nil || plan.Finish.Status != 2 {
			t.Fatalf("start with no args: %+v %v", plan, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestATrapDropsTheInstance(t *testing.T) {
	p := testPool(t)
	ctx := context.Background()
	err := p.Do(ctx, func(in *Instance) error { return in.TrapForTest(ctx) })
	if !IsTrap(err) {
		t.Fatalf("want a trap, got %v", err)
	}
	before := p.Instantiations()
	err = p.Do(ctx, func(in *Instance) error {
		_, err := in.ClassifyJSON(ctx, `{"status":503}`, ClassifyOptions{})
		return err
	})
	if err != nil || p.Instantiations() != before+1 {
		t.Fatalf("after a trap: %v, %d instantiations (was %d)", err, p.Instantiations(), before)
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	p := testPool(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				err := p.Do(ctx, func(in *Instance) error {
					out, err := in.ClassifyJSON(ctx, `{"status":429}`, ClassifyOptions{})
					if err == nil && !strings.HasPrefix(out, `{"code":"RATE_LIMITED"`) {
						t.Errorf("got %s", out)
					}
					return err
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// Memory stays flat: the guest frees the parameters, strings and results.
func TestNoLeak(t *testing.T) {
	p := testPool(t)
	ctx := context.Background()
	err := p.Do(ctx, func(in *Instance) error {
		call := func() {
			if _, err := in.ClassifyJSON(ctx, `{"status":429,"message":"`+strings.Repeat("x", 3000)+`"}`, ClassifyOptions{Now: str("2025-10-27T14:32:15Z"), Rules: str("[]")}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := in.ClassifyRenderWithLogJSON(ctx, `{"status":404}`, `{}`); err != nil {
				t.Fatal(err)
			}
			if _, err := in.ParseJSON(ctx, `{"content":[{"type":"text","text":"boom"}],"isError":true}`, ClassifyOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := in.CliStart(ctx, []string{"classify", "--now", "2025-10-27T14:32:15Z"}); err != nil {
				t.Fatal(err)
			}
			if _, err := in.Taxonomy(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 200; i++ {
			call()
		}
		size := in.MemoryBytes()
		for i := 0; i < 3000; i++ {
			call()
		}
		if in.MemoryBytes() != size {
			t.Fatalf("memory grew from %d to %d bytes", size, in.MemoryBytes())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
