"""The shared conversion cases (tests/vectors/convert.json), which the Node suite
runs too: the same native error shapes give the same raw-error JSON."""

import builtins
import json
from typing import Any

import pytest

from conftest import cases
from mcp_errors import McpErrorsError, ToolError, to_raw_error


def _value(v: Any, this: Any = None) -> Any:
    """A described value, built in Python; `this` is the exception being built."""
    special = {"$self": this, "$nan": float("nan"), "$inf": float("inf"), "$-inf": float("-inf")}
    if isinstance(v, str) and v in special:
        return special[v]
    if isinstance(v, list):
        return [_value(x, this) for x in v]
    if not isinstance(v, dict):
        return v
    if "$bytes" in v:
        return bytes(v["$bytes"])
    if "$repeat" in v:
        return v["$repeat"][0] * v["$repeat"][1]
    if "$range" in v:
        return list(range(v["$range"]))
    if "$cycle" in v:
        o = _value(v["$cycle"], this)
        o[v["key"]] = o
        return o
    return {k: _value(x, this) for k, x in v.items()}


def _build(d: dict[str, Any]) -> Any:
    """A described native error, built in Python."""
    if "value" in d:
        return _value(d["value"])
    if "tool_error" in d:
        fields = ("code", "app_code", "app_type", "details", "suggestions", "retryable", "retry_after_ms")
        return ToolError(d["tool_error"], **{k: d[k] for k in fields if k in d})
    cls = getattr(builtins, d["error"], None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        cls = type(d["error"], (Exception,), {"__module__": "__main__"})
    e = cls(_value(d["message"]))
    for k, v in d.get("props", {}).items():
        setattr(e, k, _value(v, e))
    if "cause" in d:
        e.__cause__ = e if d["cause"] == "$self" else _build(d["cause"])
    return e


@pytest.mark.parametrize("case", cases("convert.json"), ids=lambda c: c["name"])
def test_shared_conversion_case(case):
    got = json.loads(json.dumps(to_raw_error(_build(case["error"]), **case.get("hints", {}))))
    assert got == case["expected"]


def test_there_are_cases():
    assert len(cases("convert.json")) >= 15


def test_an_unknown_hint_is_an_invalid_option_error_naming_it():
    with pytest.raises(McpErrorsError) as e:
        to_raw_error(ValueError("x"), tool_name="oops")
    assert e.value.kind == "invalid_option"
    assert 'unknown hint "tool_name"' in e.value.message
