package mcperrors

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestEmbeddedModuleIsTheBuild fails when go/core.wasm, the core module this
// package embeds, differs from the one the build made,
// ../target/wasm32-unknown-unknown/wasm/mcp_errors_component.opt.wasm (when
// that file exists: a checkout without a build only runs the embedded one).
// `cargo xtask build` refreshes both: it writes the optimized core module and
// copies it to go/core.wasm, as the generated contract files are kept equal
// to the core.
func TestEmbeddedModuleIsTheBuild(t *testing.T) {
	built := filepath.Join("..", "target", "wasm32-unknown-unknown", "wasm", "mcp_errors_component.opt.wasm")
	want, err := os.ReadFile(built)
	if os.IsNotExist(err) {
		t.Skipf("%s is not built; the embedded module is tested as it is", built)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(coreWasm, want) {
		t.Fatalf("go/core.wasm (%d bytes) differs from %s (%d bytes): run `cargo xtask build`, which copies the build to go/core.wasm",
			len(coreWasm), built, len(want))
	}
}
