package mcperrors

import "syscall"

// errnoNames are the Node-style names of the system errors the core knows
// (libuv's codes), for syscall.Errno values on this platform.
var errnoNames = map[syscall.Errno]string{
	syscall.E2BIG:           "E2BIG",
	syscall.EACCES:          "EACCES",
	syscall.EADDRINUSE:      "EADDRINUSE",
	syscall.EADDRNOTAVAIL:   "EADDRNOTAVAIL",
	syscall.EAFNOSUPPORT:    "EAFNOSUPPORT",
	syscall.EAGAIN:          "EAGAIN",
	syscall.EALREADY:        "EALREADY",
	syscall.EBADF:           "EBADF",
	syscall.EBUSY:           "EBUSY",
	syscall.ECANCELED:       "ECANCELED",
	syscall.ECONNABORTED:    "ECONNABORTED",
	syscall.ECONNREFUSED:    "ECONNREFUSED",
	syscall.ECONNRESET:      "ECONNRESET",
	syscall.EDESTADDRREQ:    "EDESTADDRREQ",
	syscall.EEXIST:          "EEXIST",
	syscall.EFAULT:          "EFAULT",
	syscall.EFBIG:           "EFBIG",
	syscall.EHOSTUNREACH:    "EHOSTUNREACH",
	syscall.EINTR:           "EINTR",
	syscall.EINVAL:          "EINVAL",
	syscall.EIO:             "EIO",
	syscall.EISCONN:         "EISCONN",
	syscall.EISDIR:          "EISDIR",
	syscall.ELOOP:           "ELOOP",
	syscall.EMFILE:          "EMFILE",
	syscall.EMLINK:          "EMLINK",
	syscall.EMSGSIZE:        "EMSGSIZE",
	syscall.ENAMETOOLONG:    "ENAMETOOLONG",
	syscall.ENETDOWN:        "ENETDOWN",
	syscall.ENETUNREACH:     "ENETUNREACH",
	syscall.ENFILE:          "ENFILE",
	syscall.ENOBUFS:         "ENOBUFS",
	syscall.ENODEV:          "ENODEV",
	syscall.ENOENT:          "ENOENT",
	syscall.ENOMEM:          "ENOMEM",
	syscall.ENOSPC:          "ENOSPC",
	syscall.ENOSYS:          "ENOSYS",
	syscall.ENOTCONN:        "ENOTCONN",
	syscall.ENOTDIR:         "ENOTDIR",
	syscall.ENOTEMPTY:       "ENOTEMPTY",
	syscall.ENOTSOCK:        "ENOTSOCK",
	syscall.ENOTSUP:         "ENOTSUP",
	syscall.ENXIO:           "ENXIO",
	syscall.EPERM:           "EPERM",
	syscall.EPIPE:           "EPIPE",
	syscall.EPROTO:          "EPROTO",
	syscall.EPROTONOSUPPORT: "EPROTONOSUPPORT",
	syscall.EPROTOTYPE:      "EPROTOTYPE",
	syscall.ERANGE:          "ERANGE",
	syscall.EROFS:           "EROFS",
	syscall.ESHUTDOWN:       "ESHUTDOWN",
	syscall.ESPIPE:          "ESPIPE",
	syscall.ESRCH:           "ESRCH",
	syscall.ETIMEDOUT:       "ETIMEDOUT",
	syscall.ETXTBSY:         "ETXTBSY",
	syscall.EXDEV:           "EXDEV",
}

// errnoName is the Node-style code of e ("" when not known).
func errnoName(e syscall.Errno) string {
	if name, ok := errnoNames[e]; ok {
		return name
	}
	return extraErrnoName(e)
}
