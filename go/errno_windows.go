package mcperrors

import "syscall"

// extraErrnoName maps the Windows socket errors (WSAE*) that networking
// returns to the Node-style codes of their POSIX counterparts.
func extraErrnoName(e syscall.Errno) string {
	switch uintptr(e) {
	case 10013:
		return "EACCES"
	case 10048:
		return "EADDRINUSE"
	case 10049:
		return "EADDRNOTAVAIL"
	case 10050:
		return "ENETDOWN"
	case 10051:
		return "ENETUNREACH"
	case 10053:
		return "ECONNABORTED"
	case 10054:
		return "ECONNRESET"
	case 10057:
		return "ENOTCONN"
	case 10060:
		return "ETIMEDOUT"
	case 10061:
		return "ECONNREFUSED"
	case 10065:
		return "EHOSTUNREACH"
	}
	switch e {
	case syscall.ERROR_FILE_NOT_FOUND, syscall.ERROR_PATH_NOT_FOUND:
		return "ENOENT"
	case syscall.ERROR_ACCESS_DENIED:
		return "EACCES"
	case syscall.ERROR_FILE_EXISTS, syscall.ERROR_ALREADY_EXISTS:
		return "EEXIST"
	}
	return ""
}
