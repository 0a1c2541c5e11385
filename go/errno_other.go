//go:build !windows

package mcperrors

import "syscall"

func extraErrnoName(syscall.Errno) string { return "" }
