"""The shared vectors (tests/vectors/*.json) through the Python package: the
same bytes as the Rust core, the wasmtime harness and the npm package."""

import json

import pytest

from conftest import cases, expected, raw, render_kwargs
from mcp_errors import McpErrorsError, classify_json, parse_result, parse_result_json, render, render_json
from mcp_errors._engine import ENGINE


def test_classify_vectors():
    cs = cases("classify.json")
    assert len(cs) >= 80
    for c in cs:
        assert classify_json(raw(c), now=c["options"].get("now"), limits=c["options"].get("limits"), rules=c["options"].get("rules")) == expected(c), c["name"]


def test_parse_vectors():
    cs = cases("parse.json")
    assert len(cs) >= 40
    for c in cs:
        o = c["options"]
        opts = dict(now=o.get("now"), limits=o.get("limits"), rules=o.get("rules"))
        out = parse_result_json(raw(c), **opts)
        assert (out if out is not None else "null") == expected(c), c["name"]
        # The object form: the same error, and a non-error answered without the core.
        parsed = parse_result(c["input"], **opts)
        assert (parsed.to_dict() if parsed else None) == c["expected"], c["name"]


def test_render_vectors():
    cs = cases("render.json")
    assert len(cs) >= 100
    for c in cs:
        assert render_json(raw(c), **render_kwargs(c["options"])) == expected(c), c["name"]


def test_render_of_a_normalized_error():
    for c in cases("render.json"):
        normalized = json.loads(classify_json(raw(c), now=c["options"].get("now"), limits=c["options"].get("limits"), rules=c["options"].get("rules")))
        assert render(normalized, **render_kwargs(c["options"])) == c["expected"], c["name"]


@pytest.mark.parametrize("c", cases("errors.json"), ids=lambda c: c["name"])
def test_error_vectors(c):
    with pytest.raises(McpErrorsError) as info:
        if c["api"] == "classify":
            classify_json(raw(c), now=c["options"].get("now"), limits=c["options"].get("limits"), rules=c["options"].get("rules"))
        elif c["api"] == "parse":
            parse_result_json(raw(c), now=c["options"].get("now"))
        elif c["api"] == "render-json":
            # The text as given (`render` takes a mapping).
            ENGINE.call("render-json", raw(c), json.dumps(c["options"]))
        else:
            render_json(raw(c), **render_kwargs(c["options"]))
    assert (info.value.kind, info.value.message) == (c["expected_error"]["kind"], c["expected_error"]["message"])


def test_limits_bad_names_and_values_are_typed_errors():
    def error(fn):
        with pytest.raises(McpErrorsError) as info:
            fn()
        return info.value.kind, info.value.message

    names = "max_message_chars, max_string_chars, max_depth, max_members, max_rendered_bytes"
    unknown = ("invalid_option", f'unknown limit "max_dpeth"; expected one of: {names}')
    # The same words from the typed path (classify) and the core's JSON path (render).
    assert error(lambda: classify_json("{}", limits={"max_dpeth": 3})) == unknown
    assert error(lambda: render_json("{}", limits={"max_dpeth": 3})) == unknown
    negative = ("invalid_option", 'limit "max_depth" must be a non-negative integer')
    assert error(lambda: classify_json("{}", limits={"max_depth": -1})) == negative
    assert error(lambda: render_json("{}", limits={"max_depth": -1})) == negative
    assert error(lambda: classify_json("{}", limits={"max_depth": 2.5})) == negative
    out_of_range = ("invalid_option", 'limit "max_depth" is 33; it must be from 1 to 32')
    assert error(lambda: classify_json("{}", limits={"max_depth": 33})) == out_of_range
    assert error(lambda: render_json("{}", limits={"max_depth": 33})) == out_of_range
    assert error(lambda: classify_json("{}", limits={"max_depth": 2**32})) == (
        "invalid_option",
        'limit "max_depth" is 4294967296; it must be below 4294967296',
    )
    import json

    cut = json.loads(classify_json(json.dumps({"message": "m" * 100}), limits={"max_message_chars": 20}))
    assert cut["message"] == "m" * 20 + "…[truncated 80 chars]"
