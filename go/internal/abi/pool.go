package abi

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
)

// MaxPooledMemory is the largest linear memory an instance may have to go
// back to the pool: a wasm memory never shrinks, so an instance that grew
// for one huge input is closed instead of being kept.
const MaxPooledMemory = 64 << 20

// Pool compiles the core module once (lazily, at the first call) and hands
// instances to goroutines one at a time. It is safe for concurrent use.
//
// An idle instance waits in a buffered channel; when none is idle a new one
// is instantiated, and when the channel is full a returned instance is
// closed. An instance whose call trapped is closed, never reused.
type Pool struct {
	wasm    []byte
	cache   wazero.CompilationCache
	maxIdle int

	once     sync.Once
	initErr  error
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
	idle     chan *Instance

	instantiations atomic.Int64
}

// NewPool returns a pool for the core module wasm. maxIdle bounds the idle
// instances kept (0: max(4, GOMAXPROCS)). cache, if not nil, is wazero's
// compilation cache (e.g. a directory cache: the compiled code is then reused
// across processes).
func NewPool(wasm []byte, maxIdle int, cache wazero.CompilationCache) *Pool {
	if maxIdle <= 0 {
		maxIdle = max(4, runtime.GOMAXPROCS(0))
	}
	return &Pool{wasm: wasm, cache: cache, maxIdle: maxIdle}
}

func (p *Pool) init() error {
	p.once.Do(func() {
		ctx := context.Background()
		cfg := wazero.NewRuntimeConfig()
		if p.cache != nil {
			cfg = cfg.WithCompilationCache(p.cache)
		}
		p.runtime = wazero.NewRuntimeWithConfig(ctx, cfg)
		p.compiled, p.initErr = p.runtime.CompileModule(ctx, p.wasm)
		if p.initErr != nil {
			p.initErr = fmt.Errorf("compiling the mcp-errors core module: %w", p.initErr)
			return
		}
		if n := len(p.compiled.ImportedFunctions()) + len(p.compiled.ImportedMemories()); n != 0 {
			p.initErr = fmt.Errorf("the mcp-errors core module must import nothing, but imports %d items", n)
			return
		}
		p.idle = make(chan *Instance, p.maxIdle)
	})
	return p.initErr
}

// Compile compiles the module now (otherwise the first call does).
func (p *Pool) Compile() error { return p.init() }

// Instantiations counts the instances made so far (a trap makes one more).
func (p *Pool) Instantiations() int64 { return p.instantiations.Load() }

func (p *Pool) get(ctx context.Context) (*Instance, error) {
	if err := p.init(); err != nil {
		return nil, &TrapError{Err: err}
	}
	select {
	case in := <-p.idle:
		return in, nil
	default:
	}
	// Anonymous (no name): any number of instances of one module may live at once.
	mod, err := p.runtime.InstantiateModule(ctx, p.compiled,
		wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, &TrapError{Err: fmt.Errorf("instantiating the mcp-errors core module: %w", err)}
	}
	in, err := newInstance(mod)
	if err != nil {
		_ = mod.Close(ctx)
		return nil, &TrapError{Err: err}
	}
	p.instantiations.Add(1)
	return in, nil
}

func (p *Pool) put(in *Instance) {
	if in.broken || in.mem.Size() > MaxPooledMemory {
		_ = in.mod.Close(context.Background())
		return
	}
	select {
	case p.idle <- in:
	default:
		_ = in.mod.Close(context.Background())
	}
}

// Do runs fn with an instance of its own. The instance goes back to the pool
// afterwards, unless the call trapped (then it is closed). A panic in fn
// closes the instance too.
func (p *Pool) Do(ctx context.Context, fn func(*Instance) error) error {
	in, err := p.get(ctx)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			in.broken = true
		}
		p.put(in)
	}()
	err = fn(in)
	ok = true
	var trap *TrapError
	if errors.As(err, &trap) {
		in.broken = true
	}
	return err
}

// Close closes every instance and the runtime.
func (p *Pool) Close(ctx context.Context) error {
	if p.runtime == nil {
		return nil
	}
	return p.runtime.Close(ctx)
}

// TrapForTest makes a real trap happen in the guest (for
// tests of trap recovery): the instance is broken from then on.
func (in *Instance) TrapForTest(ctx context.Context) error {
	// A call whose parameter block lies outside memory traps in the guest.
	_, err := in.call(ctx, fnClassifyJSON, uint64(0xFFFFFFF0))
	return err
}
