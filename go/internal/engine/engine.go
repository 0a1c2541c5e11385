// Package engine holds the pool of core-module instances that package
// mcperrors builds from the embedded module, so that the module's own
// commands (cmd/mcp-errors) share it without a public accessor.
package engine

import (
	"sync"

	"github.com/mcp-errors/mcp-errors/go/internal/abi"
)

var (
	mu   sync.RWMutex
	pool *abi.Pool
)

// Set replaces the pool (package mcperrors sets it at init; tests swap it).
func Set(p *abi.Pool) {
	mu.Lock()
	pool = p
	mu.Unlock()
}

// Get returns the pool.
func Get() *abi.Pool {
	mu.RLock()
	defer mu.RUnlock()
	return pool
}
