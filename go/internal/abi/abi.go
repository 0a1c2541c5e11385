// Package abi runs the mcp-errors component's core module with wazero and
// lowers and lifts the WebAssembly component model's canonical ABI by hand,
// for exactly the functions the Go host calls.
//
// The component (wit/mcp-errors.wit) wraps one core module that imports
// nothing. wazero runs core modules only, so this package does what a
// component runtime's generated glue would do:
//
//   - Strings in: the host asks the guest for memory with
//     cabi_realloc(0, 0, align, size), copies the UTF-8 bytes there and passes
//     (ptr, len). The guest owns that memory from then on and frees it.
//   - Parameters in memory: a function whose flattened parameters exceed 16
//     core values (classify-json and parse-json, whose classify-options record
//     flattens to 17) takes one pointer to its parameters laid out as a tuple
//     in linear memory, also allocated with cabi_realloc; the guest frees it.
//   - Results out: every result used here flattens to more than one core
//     value, so the function returns a pointer to a return area in guest
//     memory. The host reads it (copying every string out), then calls the
//     function's cabi_post_* export with that pointer, which frees what the
//     result owned. Nothing read from guest memory is used after that call.
//   - The WIT `error` variant (invalid-json, invalid-input, invalid-option,
//     each carrying a string) comes back as the err case of result<…, error>
//     and is returned as a *CoreError; a wasm trap is a *TrapError, after
//     which the instance must not be used again (Pool drops it).
//
// Layouts (canonical ABI, wasm32): a string is {ptr u32, len u32} (size 8,
// align 4); an option<T> is a u8 discriminant then T at T's alignment; a
// record lays out its fields in order, each at its alignment; a variant is a
// discriminant then its largest case at the cases' largest alignment.
package abi

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/tetratelabs/wazero/api"
)

// The export names of the functions the host calls (canonical ABI naming:
// "<interface>#<function>", the post-return function "cabi_post_<name>").
const (
	apiPrefix = "mcp-errors:core/api@0.1.0#"
	cliPrefix = "mcp-errors:core/cli@0.1.0#"
)

// The functions used, by index into Instance.fns / Instance.posts.
const (
	fnClassifyJSON = iota
	fnParseJSON
	fnClassifyRenderJSON
	fnClassifyRenderWithLogJSON
	fnRenderJSON
	fnTaxonomy
	fnSchema
	fnCliStart
	fnCliLine
	fnCliBadLine
	fnCount
)

var exportNames = [fnCount]string{
	fnClassifyJSON:              apiPrefix + "classify-json",
	fnParseJSON:                 apiPrefix + "parse-json",
	fnClassifyRenderJSON:        apiPrefix + "classify-render-json",
	fnClassifyRenderWithLogJSON: apiPrefix + "classify-render-with-log-json",
	fnRenderJSON:                apiPrefix + "render-json",
	fnTaxonomy:                  apiPrefix + "taxonomy",
	fnSchema:                    apiPrefix + "schema",
	fnCliStart:                  cliPrefix + "start",
	fnCliLine:                   cliPrefix + "line",
	fnCliBadLine:                cliPrefix + "bad-line",
}

// ErrorCase is a case of the WIT `error` variant, in declaration order.
type ErrorCase uint8

// The cases of the WIT `error` variant.
const (
	InvalidJSON ErrorCase = iota
	InvalidInput
	InvalidOption
)

// Kind is the case's name as every host spells it (`invalid_json`, …).
func (c ErrorCase) Kind() string {
	switch c {
	case InvalidJSON:
		return "invalid_json"
	case InvalidInput:
		return "invalid_input"
	case InvalidOption:
		return "invalid_option"
	}
	return fmt.Sprintf("error case %d", uint8(c))
}

// CoreError is the component's own typed error: the err case of a
// result<…, error>.
type CoreError struct {
	Case    ErrorCase
	Message string
}

func (e *CoreError) Error() string { return e.Case.Kind() + ": " + e.Message }

// TrapError is a trap (or any failure of the runtime) during a call: the
// instance's state is unknown and it must not be used again.
type TrapError struct {
	Err error
}

func (e *TrapError) Error() string { return "the mcp-errors component trapped: " + e.Err.Error() }

func (e *TrapError) Unwrap() error { return e.Err }

// IsTrap reports whether err is (or wraps) a *TrapError.
func IsTrap(err error) bool {
	var t *TrapError
	return errors.As(err, &t)
}

// Instance is one instantiation of the core module: its memory, cabi_realloc
// and the exports used. Not safe for concurrent use: a Pool hands each
// instance to one goroutine at a time.
type Instance struct {
	mod     api.Module
	mem     api.Memory
	realloc api.Function
	fns     [fnCount]api.Function
	posts   [fnCount]api.Function // nil when the guest has nothing to free
	stack   []uint64
	broken  bool
}

func newInstance(mod api.Module) (*Instance, error) {
	in := &Instance{mod: mod, mem: mod.Memory(), stack: make([]uint64, 8)}
	if in.mem == nil {
		return nil, errors.New("the core module exports no memory")
	}
	if in.realloc = mod.ExportedFunction("cabi_realloc"); in.realloc == nil {
		return nil, errors.New("the core module exports no cabi_realloc")
	}
	for i, name := range exportNames {
		if in.fns[i] = mod.ExportedFunction(name); in.fns[i] == nil {
			return nil, fmt.Errorf("the core module has no %q export", name)
		}
		in.posts[i] = mod.ExportedFunction("cabi_post_" + name)
	}
	return in, nil
}

// MemoryBytes is the size of the instance's linear memory (it never shrinks).
func (in *Instance) MemoryBytes() uint32 { return in.mem.Size() }

// call runs export fn with the given flat parameters and returns its single
// flat result (a return-area pointer for every function used here). A trap
// marks the instance broken.
func (in *Instance) call(ctx context.Context, fn int, params ...uint64) (uint32, error) {
	stack := in.stack[:max(len(params), 1)]
	copy(stack, params)
	if err := in.fns[fn].CallWithStack(ctx, stack); err != nil {
		in.broken = true
		return 0, &TrapError{Err: err}
	}
	return uint32(stack[0]), nil
}

// post calls fn's post-return function with the return area: the guest
// frees what the result owned.
func (in *Instance) post(ctx context.Context, fn int, retptr uint32) error {
	if in.posts[fn] == nil {
		return nil
	}
	in.stack[0] = uint64(retptr)
	if err := in.posts[fn].CallWithStack(ctx, in.stack[:1]); err != nil {
		in.broken = true
		return &TrapError{Err: err}
	}
	return nil
}

// alloc asks the guest for size bytes at align: cabi_realloc(0, 0, align, size).
func (in *Instance) alloc(ctx context.Context, align, size uint32) (uint32, error) {
	if size == 0 {
		// What cabi_realloc returns for an empty allocation: a dangling,
		// aligned, non-null pointer that is never freed.
		return align, nil
	}
	in.stack[0], in.stack[1], in.stack[2], in.stack[3] = 0, 0, uint64(align), uint64(size)
	if err := in.realloc.CallWithStack(ctx, in.stack[:4]); err != nil {
		in.broken = true
		return 0, &TrapError{Err: err}
	}
	ptr := uint32(in.stack[0])
	if ptr == 0 {
		in.broken = true
		return 0, &TrapError{Err: fmt.Errorf("cabi_realloc could not allocate %d bytes", size)}
	}
	return ptr, nil
}

// lowerString copies s into guest memory (UTF-8, align 1) and returns
// (ptr, len). The canonical ABI requires valid UTF-8: an invalid byte is
// replaced with U+FFFD, as encoding/json and JavaScript's TextEncoder do.
func (in *Instance) lowerString(ctx context.Context, s string) (uint32, uint32, error) {
	if !utf8.ValidString(s) {
		s = ValidUTF8(s)
	}
	if uint64(len(s)) > 1<<31 {
		return 0, 0, &CoreError{Case: InvalidInput, Message: fmt.Sprintf("input is %d bytes; too large for a 32-bit memory", len(s))}
	}
	n := uint32(len(s))
	ptr, err := in.alloc(ctx, 1, n)
	if err != nil {
		return 0, 0, err
	}
	if n > 0 && !in.mem.WriteString(ptr, s) {
		in.broken = true
		return 0, 0, &TrapError{Err: fmt.Errorf("writing %d bytes at %#x: out of memory bounds", n, ptr)}
	}
	return ptr, n, nil
}

// lowerBytes copies b into guest memory as a list<u8> (align 1).
func (in *Instance) lowerBytes(ctx context.Context, b []byte) (uint32, uint32, error) {
	n := uint32(len(b))
	ptr, err := in.alloc(ctx, 1, n)
	if err != nil {
		return 0, 0, err
	}
	if n > 0 && !in.mem.Write(ptr, b) {
		in.broken = true
		return 0, 0, &TrapError{Err: fmt.Errorf("writing %d bytes at %#x: out of memory bounds", n, ptr)}
	}
	return ptr, n, nil
}

// ValidUTF8 replaces each byte of s that does not start a valid UTF-8
// sequence with U+FFFD.
func ValidUTF8(s string) string {
	out := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return string(out)
}

// reader reads a return area; the first out-of-bounds read is remembered.
type reader struct {
	mem api.Memory
	err error
}

func (r *reader) u8(at uint32) uint8 {
	v, ok := r.mem.ReadByte(at)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("reading a byte at %#x: out of memory bounds", at)
	}
	return v
}

func (r *reader) u16(at uint32) uint16 {
	v, ok := r.mem.ReadUint16Le(at)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("reading 2 bytes at %#x: out of memory bounds", at)
	}
	return v
}

func (r *reader) u32(at uint32) uint32 {
	v, ok := r.mem.ReadUint32Le(at)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("reading 4 bytes at %#x: out of memory bounds", at)
	}
	return v
}

// str reads a string {ptr u32, len u32} stored at `at`, copied out of guest
// memory.
func (r *reader) str(at uint32) string {
	ptr, n := r.u32(at), r.u32(at+4)
	if n == 0 || r.err != nil {
		return ""
	}
	b, ok := r.mem.Read(ptr, n)
	if !ok {
		if r.err == nil {
			r.err = fmt.Errorf("reading %d bytes at %#x: out of memory bounds", n, ptr)
		}
		return ""
	}
	return string(b) // a copy
}

// finish turns a bad read into a trap (the instance is not trusted again)
// and runs the post-return function.
func (in *Instance) finish(ctx context.Context, fn int, retptr uint32, r *reader) error {
	if r.err != nil {
		in.broken = true
		return &TrapError{Err: r.err}
	}
	return in.post(ctx, fn, retptr)
}
