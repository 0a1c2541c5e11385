"""The component's lifecycle under wasmtime: compiled once (and cached on disk),
one store and instance per thread, replaced after a trap.

wasmtime-py's dynamic component API reflects a function's type on every call;
calls here reuse the reflected types and lift the common `ok(string)` result
directly, which makes a call several times cheaper.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from ctypes import byref, pointer
from pathlib import Path
from typing import Any, Callable

import wasmtime
from wasmtime import _ffi as ffi
from wasmtime import component as wc
from wasmtime.component._enter import enter_wasm

_API = "mcp-errors:core/api@0.1.0"
_CLI = _API.replace("/api@", "/cli@")
_PROXY = _API.replace("/api@", "/proxy@")
_WASM = Path(__file__).with_name("mcp_errors.wasm")


class McpErrorsError(Exception):
    """An error of mcp-errors itself (not the error being classified).

    `kind` is one of `invalid_json`, `invalid_input`, `invalid_option` or `trap`.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _cache_dir() -> Path:
    base = os.environ.get("MCP_ERRORS_CACHE") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mcp-errors"


def _digest(data: bytes) -> str:
    """A hex digest naming a cache entry. BLAKE2 from CPython's built-in
    module: `hashlib` loads OpenSSL, a few ms of the cold start."""
    try:
        from _blake2 import blake2b
    except ImportError:  # another Python implementation
        from hashlib import blake2b
    return blake2b(data, digest_size=16).hexdigest()


def _runtime_id() -> bytes:
    """Which wasmtime compiled the cache entry: its C library's size and mtime.

    (`importlib.metadata.version` took 30 ms of the cold start; wasmtime also
    refuses to deserialize a foreign entry, which is then recompiled.)
    """
    try:
        st = os.stat(ffi.dll._name)
        return f"{st.st_size}:{st.st_mtime_ns}".encode()
    except (AttributeError, OSError):
        return b"unknown"


_HEX = frozenset("0123456789abcdef")
_STALE_TMP_SECONDS = 24 * 3600


def _is_digest(text: str) -> bool:
    return len(text) == 32 and set(text) <= _HEX


def _remove_other_entries(current: Path) -> None:
    """Remove this package's other cache entries beside `current`, the entry just written:
    the other builds' `<digest>.cwasm`, and `<digest>.<pid>.tmp` files a writer left behind
    over a day ago. Only names of these two patterns are touched; nothing here ever fails
    (another process may be reading or writing the same directory)."""
    try:
        directory = current.parent
        for name in os.listdir(directory):
            if name == current.name:
                continue
            parts = name.split(".")
            entry = len(parts) == 2 and parts[1] == "cwasm" and _is_digest(parts[0])
            tmp = len(parts) == 3 and parts[2] == "tmp" and parts[1].isdigit() and _is_digest(parts[0])
            if not (entry or tmp):
                continue
            try:
                path = directory / name
                if tmp and time.time() - path.stat().st_mtime < _STALE_TMP_SECONDS:
                    continue  # perhaps being written now
                path.unlink()
            except OSError:
                pass
    except Exception:
        pass  # cleaning the cache is housekeeping only


class _Compiled:
    """The engine and the compiled component, shared by every thread."""

    def __init__(self, wasm_path: Path) -> None:
        if not wasm_path.exists():
            raise McpErrorsError("trap", f"the component {wasm_path} is missing; build it with `cargo xtask build`")
        self.engine = wasmtime.Engine()
        wasm = wasm_path.read_bytes()
        key = _digest(wasm + _runtime_id())
        cached = _cache_dir() / f"{key}.cwasm"
        self.component: wc.Component | None = None
        if cached.exists():
            try:
                self.component = wc.Component.deserialize_file(self.engine, str(cached))
            except Exception:  # a stale or foreign cache entry: recompile
                self.component = None
        if self.component is None:
            self.component = wc.Component(self.engine, wasm)
            try:
                cached.parent.mkdir(parents=True, exist_ok=True)
                tmp = cached.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(bytes(self.component.serialize()))
                tmp.replace(cached)
            except OSError:
                pass  # caching is an optimisation only
            else:
                _remove_other_entries(cached)
        self.linker = wc.Linker(self.engine)


_Lower = Callable[[wasmtime.Store, Any, Any], None]


def _lowerer(ty: Any) -> _Lower:
    """Lower a value of type `ty` as wasmtime-py's `convert_to_c` does, with the
    type reflected once here: wasmtime-py re-reads a record's fields and an
    option's payload type through the C API on every call (~40 µs per call for
    the classify-options record)."""
    if isinstance(ty, wc.RecordType):
        fields = [(name, _lowerer(t)) for name, t in ty.fields]

        def lower_record(store: wasmtime.Store, val: Any, ptr: Any) -> None:
            raw = ffi.wasmtime_component_valrecord_t()
            ffi.wasmtime_component_valrecord_new_uninit(raw, len(fields))
            i = 0
            try:
                for name, lower in fields:
                    lower(store, getattr(val, name), pointer(raw.data[i].val))
                    raw.data[i].name = ffi.str_to_capi(name)
                    i += 1
            except BaseException:
                # As wasmtime-py: the fields not lowered become plain values to delete.
                for j in range(i, len(fields)):
                    raw.data[j].val.kind = ffi.WASMTIME_COMPONENT_BOOL
                    raw.data[j].val.of.boolean = False
                ffi.wasmtime_component_valrecord_delete(byref(raw))
                raise
            ptr.contents.kind = ffi.WASMTIME_COMPONENT_RECORD
            ptr.contents.of.record = raw

        return lower_record
    if isinstance(ty, wc.OptionType):
        lower_payload = _lowerer(ty.payload)

        def lower_option(store: wasmtime.Store, val: Any, ptr: Any) -> None:
            boxed = None
            if val is not None:
                raw = ffi.wasmtime_component_val_t()
                lower_payload(store, val, pointer(raw))
                boxed = ffi.wasmtime_component_val_new(byref(raw))
            ptr.contents.kind = ffi.WASMTIME_COMPONENT_OPTION
            ptr.contents.of.option = boxed

        return lower_option
    # Strings and numbers: no reflection in wasmtime-py's own lowering.
    return ty.convert_to_c  # type: ignore[no-any-return]


class _Fn:
    """One exported function with its reflected types, called without re-reflecting."""

    def __init__(self, store: wasmtime.Store, func: wc.Func) -> None:
        fty = func.type(store)
        self.func = func
        self.params = [_lowerer(ty) for _, ty in fty.params]
        self.result = fty.result
        # `result<string, error>` whose error cases all carry a string: lifted directly.
        err = self.result.err if isinstance(self.result, wc.ResultType) else None
        error_variant = isinstance(err, wc.VariantType) and all(isinstance(ty, wc.String) for _, ty in err.cases)
        ok = self.result.ok if isinstance(self.result, wc.ResultType) else None
        self.string_result = error_variant and isinstance(ok, wc.String)
        # `result<tuple<string, string>, error>`: lifted directly too.
        self.pair_result = (
            error_variant
            and isinstance(ok, wc.TupleType)
            and len(ok.elements) == 2
            and all(isinstance(ty, wc.String) for ty in ok.elements)
        )

    def __call__(self, store: wasmtime.Store, *args: Any) -> Any:
        n = len(args)
        params = (ffi.wasmtime_component_val_t * max(n, 1))()
        lowered = 0
        try:
            for lower, val in zip(self.params, args):
                lower(store, val, pointer(params[lowered]))
                lowered += 1
            space = ffi.wasmtime_component_val_t()

            results = 0 if self.result is None else 1

            def run() -> Any:
                return ffi.wasmtime_component_func_call(
                    byref(self.func._func), store._context(), params, n, byref(space), results
                )

            enter_wasm(run)
            if self.result is None:  # a function with no result (`proxy.close`)
                return None
            if self.string_result or self.pair_result:
                # result<string, error>, lifted here: wasmtime-py 50 deletes a
                # result's boxed payload in place and never frees the box (48
                # bytes leaked per call, 96 on errors). Deleting the outer
                # value frees the box and everything in it.
                inner = space.of.result.val.contents
                try:
                    if space.of.result.is_ok and self.pair_result:
                        pair = inner.of.tuple.data
                        return (ffi.to_str(pair[0].of.string), ffi.to_str(pair[1].of.string))
                    if space.of.result.is_ok:
                        return ffi.to_str(inner.of.string)
                    # The `error` variant: every case carries a string.
                    tag = ffi.to_str(inner.of.variant.discriminant)
                    return wc.Variant(tag, ffi.to_str(inner.of.variant.val.contents.of.string))
                finally:
                    ffi.wasmtime_component_val_delete(byref(space))
            assert self.result is not None
            return self.result.convert_from_c(space)
        finally:
            for i in range(lowered):
                ffi.wasmtime_component_val_delete(byref(params[i]))


class _Instance:
    def __init__(self, compiled: _Compiled) -> None:
        self.store = wasmtime.Store(compiled.engine)
        assert compiled.component is not None
        instance = compiled.linker.instantiate(self.store, compiled.component)
        api = instance.get_export_index(self.store, _API)
        cli = instance.get_export_index(self.store, _CLI)
        proxy = instance.get_export_index(self.store, _PROXY)
        self.fns: dict[str, _Fn] = {}
        for iface, names, prefix in (
            (
                api,
                (
                    "classify-json",
                    "classify-render-json",
                    "classify-render-with-log-json",
                    "parse-json",
                    "render-json",
                    "taxonomy",
                    "schema",
                ),
                "",
            ),
            (cli, ("start", "line", "bad-line"), ""),
            # The proxy's relay: `proxy-start`, `proxy-from-client`, …
            (proxy, ("start", "from-client", "from-server", "resend", "server-gone", "close"), "proxy-"),
        ):
            for name in names:
                index = instance.get_export_index(self.store, name, iface) if iface is not None else None
                func = instance.get_func(self.store, index) if index is not None else None
                if func is None:
                    raise McpErrorsError("trap", f"the component has no `{name}` export")
                self.fns[prefix + name] = _Fn(self.store, func)


class Engine:
    """Thread-safe: each thread gets its own store and instance (wasmtime stores are not shared)."""

    def __init__(self, wasm_path: Path = _WASM) -> None:
        self._wasm_path = wasm_path
        self._compiled: _Compiled | None = None
        self._lock = threading.Lock()
        self._local = threading.local()
        self.instantiations = 0

    def _instance(self) -> _Instance:
        inst = getattr(self._local, "instance", None)
        if inst is None:
            with self._lock:
                if self._compiled is None:
                    self._compiled = _Compiled(self._wasm_path)
                compiled = self._compiled
            inst = _Instance(compiled)
            with self._lock:
                self.instantiations += 1
            self._local.instance = inst
        return inst

    def call(self, name: str, *args: Any) -> Any:
        """Call an `api` function: its `error` variant is raised as `McpErrorsError`."""
        result = self.call_cli(name, *args)
        if isinstance(result, wc.Variant):
            raise McpErrorsError(result.tag.replace("-", "_"), str(result.payload))
        return result

    def call_cli(self, name: str, *args: Any) -> Any:
        """Call any function; its result as wasmtime-py lifts it."""
        inst = self._instance()
        try:
            return inst.fns[name](inst.store, *args)
        except (wasmtime.Trap, wasmtime.WasmtimeError) as e:
            # A trap leaves the instance in an unknown state: never use it again.
            self._local.instance = None
            raise McpErrorsError("trap", f"the mcp-errors component trapped: {e!s}") from e


ENGINE = Engine()
