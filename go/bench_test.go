package mcperrors

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/mcp-errors/mcp-errors/go/internal/abi"
	"github.com/tetratelabs/wazero"
)

// The README's typical error: a fetch whose connection was refused.
var benchErr = fmt.Errorf("fetch failed: %w", fmt.Errorf("connect %w 127.0.0.1:8080", syscall.ECONNREFUSED))

const benchRaw = `{"name":"TypeError","message":"fetch failed","cause":{"code":"ECONNREFUSED","message":"connect ECONNREFUSED 127.0.0.1:8080"}}`

// go test -run '^$' -bench . -benchmem
func BenchmarkToolResult(b *testing.B) {
	opts := RenderOptions{ToolName: "fetch_page", Profile: ProfileToolErrorV1}
	ToolResult(benchErr, opts)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ToolResult(benchErr, opts)
	}
}

func BenchmarkRenderJSON(b *testing.B) {
	opts := RenderOptions{ToolName: "fetch_page", Profile: ProfileToolErrorV1}
	for i := 0; i < b.N; i++ {
		if _, err := RenderJSON(benchRaw, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClassifyJSON(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := ClassifyJSON(benchRaw, ClassifyOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToRawError(b *testing.B) {
	for i := 0; i < b.N; i++ {
		ToRawError(benchErr, Hints{Tool: "fetch_page"})
	}
}

// A cold start: compiling the module with wazero's compiler (no cache),
// instantiating it, and the first call.
func BenchmarkColdStart(b *testing.B) {
	for i := 0; i < b.N; i++ {
		p := abi.NewPool(coreWasm, 1, nil)
		if err := p.Do(b.Context(), func(in *abi.Instance) error {
			_, err := in.ClassifyRenderJSON(b.Context(), benchRaw, `{"tool_name":"fetch_page"}`)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		p.Close(b.Context())
	}
}

// The same with wazero's compilation cache filled (what a process after the
// first does, with the default cache directory).
func BenchmarkColdStartCached(b *testing.B) {
	cache, err := wazero.NewCompilationCacheWithDir(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	abi.NewPool(coreWasm, 1, cache).Compile()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := abi.NewPool(coreWasm, 1, cache)
		if err := p.Do(b.Context(), func(in *abi.Instance) error {
			_, err := in.ClassifyRenderJSON(b.Context(), benchRaw, `{"tool_name":"fetch_page"}`)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		p.Close(b.Context())
	}
}
