// Package mcperrors turns any failure inside an MCP tool into one canonical
// error, and renders it as the exact result shape an MCP client expects.
//
// The decisions are made by the project's Rust core, compiled to WebAssembly
// and run here by wazero (pure Go, no cgo): the same core, and the same
// bytes, as the Rust, Node and Python hosts.
//
//	result := mcperrors.ToolResult(err, mcperrors.RenderOptions{ToolName: "search"})
//
// The SDK integrations are one line each: package
// github.com/mcp-errors/mcp-errors/go/mcpgo for github.com/mark3labs/mcp-go and
// package github.com/mcp-errors/mcp-errors/go/gosdk for
// github.com/modelcontextprotocol/go-sdk.
//
// Every function is safe for concurrent use: calls run on a pool of module
// instances, one goroutine per instance at a time. The module is compiled at
// the first call (or by Compile).
package mcperrors

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tetratelabs/wazero"

	"github.com/mcp-errors/mcp-errors/go/internal/abi"
	"github.com/mcp-errors/mcp-errors/go/internal/engine"
)

// coreWasm is the component's core module, as `cargo xtask build` writes it
// (after wasm-opt). A test fails when it differs from the build.
//
//go:embed core.wasm
var coreWasm []byte

func init() { engine.Set(newEngine(coreWasm)) }

func newEngine(wasm []byte) *abi.Pool {
	return abi.NewPool(wasm, 0, compilationCache())
}

// compilationCache is wazero's compiled-code cache in
// $MCP_ERRORS_CACHE/wazero (else the user cache directory's
// mcp-errors/wazero), so a process after the first skips compiling the
// module; nil when there is no such directory. MCP_ERRORS_CACHE=off turns it
// off.
func compilationCache() wazero.CompilationCache {
	dir := os.Getenv("MCP_ERRORS_CACHE")
	if dir == "off" {
		return nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "mcp-errors")
	}
	c, err := wazero.NewCompilationCacheWithDir(filepath.Join(dir, "wazero"))
	if err != nil {
		return nil
	}
	return c
}

func currentEngine() *abi.Pool { return engine.Get() }

// Compile compiles the embedded module now, so that the first call does not
// pay for it (a server may call it at start-up).
func Compile() error {
	if err := currentEngine().Compile(); err != nil {
		return &Error{Kind: KindTrap, Message: err.Error(), Err: err}
	}
	return nil
}

// call runs fn on an instance of the pool; the core's typed errors and traps
// come back as *Error.
func call(fn func(ctx context.Context, in *abi.Instance) error) error {
	ctx := context.Background()
	return wrapError(currentEngine().Do(ctx, func(in *abi.Instance) error { return fn(ctx, in) }))
}

// callAgainAfterTrap is call, made once more on a fresh instance if the first
// one trapped (the trap dropped that instance); what the never-failing error
// paths use.
func callAgainAfterTrap(fn func(ctx context.Context, in *abi.Instance) error) error {
	err := call(fn)
	if errors.Is(err, ErrTrap) {
		err = call(fn)
	}
	return err
}

// ErrorKind names what went wrong in the library itself: the cases of the
// WIT `error` variant, spelled as every host spells them, and `trap`.
type ErrorKind string

// The kinds of Error.
const (
	// KindInvalidJSON: the input was not valid JSON; the message says where and why.
	KindInvalidJSON ErrorKind = "invalid_json"
	// KindInvalidInput: the input was JSON but not of a usable shape.
	KindInvalidInput ErrorKind = "invalid_input"
	// KindInvalidOption: an option was invalid (a malformed time, an unknown
	// profile, a limit out of range, a bad rule set, …).
	KindInvalidOption ErrorKind = "invalid_option"
	// KindTrap: the WebAssembly module trapped or could not run. The instance
	// was dropped; the next call runs on a fresh one.
	KindTrap ErrorKind = "trap"
)

// Error is an error of mcp-errors itself (not the error being classified).
// Branch on Kind, or with errors.Is against ErrInvalidJSON, ErrInvalidInput,
// ErrInvalidOption and ErrTrap; the message is for people.
type Error struct {
	Kind    ErrorKind
	Message string
	// Err is the runtime's error behind a trap.
	Err error
}

func (e *Error) Error() string { return "mcp-errors: " + string(e.Kind) + ": " + e.Message }

// Unwrap returns the runtime's error behind a trap.
func (e *Error) Unwrap() error { return e.Err }

// Is matches any *Error of the same kind, so errors.Is(err, ErrInvalidOption) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && (t.Message == "" || t.Message == e.Message)
}

// Sentinels for errors.Is, one per kind.
var (
	ErrInvalidJSON   = &Error{Kind: KindInvalidJSON}
	ErrInvalidInput  = &Error{Kind: KindInvalidInput}
	ErrInvalidOption = &Error{Kind: KindInvalidOption}
	ErrTrap          = &Error{Kind: KindTrap}
)

func wrapError(err error) error {
	if err == nil {
		return nil
	}
	var core *abi.CoreError
	if errors.As(err, &core) {
		return &Error{Kind: ErrorKind(core.Case.Kind()), Message: core.Message}
	}
	var trap *abi.TrapError
	if errors.As(err, &trap) {
		return &Error{Kind: KindTrap, Message: trap.Error(), Err: trap.Err}
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Kind: KindTrap, Message: err.Error(), Err: err}
}

func optionError(format string, args ...any) error {
	return &Error{Kind: KindInvalidOption, Message: fmt.Sprintf(format, args...)}
}
