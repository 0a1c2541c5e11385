"""The compiled-module cache keeps one build: writing the current build's entry removes the
other entries of this package (its own naming pattern only), and never fails the engine."""

import os
import time

from mcp_errors import _classify_options
from mcp_errors._engine import Engine, _cache_dir


def _names(directory) -> set[str]:
    return set(os.listdir(directory))


def test_writing_the_current_entry_removes_the_other_builds(tmp_path, monkeypatch):
    monkeypatch.setenv("MCP_ERRORS_CACHE", str(tmp_path))
    cache = _cache_dir()
    assert cache == tmp_path / "mcp-errors"
    cache.mkdir()
    stale = "0123456789abcdef0123456789abcdef.cwasm"  # an older build's entry
    (cache / stale).write_bytes(b"an older build")
    old_tmp = "fedcba9876543210fedcba9876543210.4242.tmp"  # a writer that died a week ago
    (cache / old_tmp).write_bytes(b"half written")
    week_ago = time.time() - 7 * 24 * 3600
    os.utime(cache / old_tmp, (week_ago, week_ago))
    fresh_tmp = "11111111111111111111111111111111.4343.tmp"  # perhaps being written now
    (cache / fresh_tmp).write_bytes(b"being written")
    # Not this package's names: never touched.
    others = {"notes.txt", "ABCDEF0123456789ABCDEF0123456789.cwasm", "0123.cwasm", "x.0123456789abcdef0123456789abcdef.cwasm"}
    for name in others:
        (cache / name).write_bytes(b"someone else's")
    # An entry that cannot be removed (a directory by that name): the engine works all the same.
    stuck = "22222222222222222222222222222222.cwasm"
    (cache / stuck).mkdir()

    engine = Engine()
    out = engine.call("classify-json", '{"status":404}', _classify_options(None, None))
    assert '"code":"NOT_FOUND"' in out
    entries = {n for n in _names(cache) if n.endswith(".cwasm") and n not in others and n != stuck}
    assert len(entries) == 1, entries  # the current build's, and no other
    (current,) = entries
    assert current != stale and (cache / current).stat().st_size > 0
    assert _names(cache) == {current, fresh_tmp, stuck} | others

    # The next engine reads that entry, and removes nothing.
    before = _names(cache)
    again = Engine()
    assert '"code":"NOT_FOUND"' in again.call("classify-json", '{"status":404}', _classify_options(None, None))
    assert _names(cache) == before
