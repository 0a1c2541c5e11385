"""The shared vectors (tests/vectors/*.json) through the Python package: the
same bytes as the Rust core, the wasmtime harness and the npm package."""

import pytest

from conftest import cases, expected, raw, render_kwargs
from mcp_errors import McpErrorsError, classify_json, render, render_json


def test_classify_vectors():
    cs = cases("classify.json")
    assert len(cs) >= 80
    for c in cs:
        assert classify_json(raw(c), now=c["options"].get("now")) == expected(c), c["name"]


def test_render_vectors():
    cs = cases("render.json")
    assert len(cs) >= 100
    for c in cs:
        assert render_json(raw(c), **render_kwargs(c["options"])) == expected(c), c["name"]


def test_render_of_a_normalized_error():
    import json

    for c in cases("render.json"):
        normalized = json.loads(classify_json(raw(c), now=c["options"].get("now")))
        assert render(normalized, **render_kwargs(c["options"])) == c["expected"], c["name"]


@pytest.mark.parametrize("c", cases("errors.json"), ids=lambda c: c["name"])
def test_error_vectors(c):
    with pytest.raises(McpErrorsError) as info:
        if c["api"] == "classify":
            classify_json(raw(c), now=c["options"].get("now"))
        else:
            render_json(raw(c), **render_kwargs(c["options"]))
    assert (info.value.kind, info.value.message) == (c["expected_error"]["kind"], c["expected_error"]["message"])
