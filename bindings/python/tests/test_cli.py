"""`python -m mcp_errors` prints exactly what the Rust and npm CLIs print."""

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, cases

RUST = os.environ.get("MCP_ERRORS_CLI", str(ROOT / "target" / "debug" / "mcp-errors"))
NPM = ROOT / "npm" / "dist" / "cli.js"
FLAGS = {
    "profile": "--profile", "format": "--format", "spec": "--spec", "target": "--target", "tool_name": "--tool",
    "now": "--now", "error_id": "--id", "output_schema": "--output-schema", "extra_fields": "--extra-fields",
    "limits": "--limits",
}


def run_all(args: list[str], data: bytes) -> dict[str, subprocess.CompletedProcess]:
    assert Path(RUST).exists(), f"the Rust CLI {RUST} is missing: run `cargo xtask test`"
    assert NPM.exists(), f"the npm CLI {NPM} is missing: run `cargo xtask test`"
    commands = {
        "python": [sys.executable, "-m", "mcp_errors", *args],
        "rust": [RUST, *args],
        "npm": ["node", str(NPM), *args],
    }
    return {k: subprocess.run(c, input=data, capture_output=True) for k, c in commands.items()}


def test_classify_parity_with_bad_lines():
    lines = [json.dumps(c["input"]) for c in cases("classify.json") if not c["options"].get("now") and not c["options"].get("limits")]
    lines[3:3] = ["{not json", "", "   ", "[1,2", '"just a string"', '{"message":"crlf"}\r']
    data = ("\n".join(lines) + "\n").encode() + bytes([0x7B, 0xFF, 0x7D, 0x0A, 0xE2, 0x82, 0x0A, 0xF0, 0x90, 0x28, 0x0A, 0xED, 0xA0, 0x80, 0x0A])
    out = run_all(["classify"], data)
    assert out["python"].stdout == out["rust"].stdout
    assert out["npm"].stdout == out["rust"].stdout
    assert out["python"].returncode == out["rust"].returncode == 1
    assert b"line is not UTF-8: invalid utf-8 sequence of 1 bytes from index 1" in out["python"].stdout


def test_render_parity_for_every_render_vector():
    for c in cases("render.json"):
        args = ["render"]
        for k, v in c["options"].items():
            args += ["--mask"] if k == "mask" else [FLAGS[k], v if isinstance(v, str) else json.dumps(v)]
        out = run_all(args, (json.dumps(c["input"]) + "\n").encode())
        want = (json.dumps(c["expected"], ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        assert out["python"].stdout == out["rust"].stdout == want, c["name"]


def test_classify_limits_parity():
    for c in [c for c in cases("classify.json") if c["options"].get("limits")]:
        out = run_all(["classify", "--limits", json.dumps(c["options"]["limits"])], (json.dumps(c["input"]) + "\n").encode())
        want = (json.dumps(c["expected"], ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        assert out["python"].stdout == out["rust"].stdout == out["npm"].stdout == want, c["name"]


def test_bad_limits_are_the_same_usage_error_in_every_cli():
    for args in (
        ["render", "--limits", '{"max_dpeth":1}'],
        ["render", "--limits", "{nope"],
        ["render", "--limits", "[1]"],
        ["render", "--limits", '{"max_depth":-1}'],
        ["classify", "--limits", '{"max_depth":0}'],
        ["render", "--limits", '{"max_rendered_bytes":100}'],
        ["render", "--limits", '{"mäx\\u0001":1}'],
    ):
        out = run_all(args, b"")
        assert out["python"].returncode == out["rust"].returncode == out["npm"].returncode == 2, args
        first = {k: v.stderr.splitlines()[0] for k, v in out.items()}
        assert first["python"] == first["rust"] == first["npm"], (args, first)


def test_taxonomy_schema_and_usage_errors():
    for args in (["taxonomy"], ["schema", "text"]):
        out = run_all(args, b"")
        assert out["python"].stdout == out["rust"].stdout, args
    for args in (
        ["render", "--format"],
        ["render", "--profile", "nope"],
        ["render", "--profile", "nöpe\t"],
        ["render", "--now", "soon"],
        ["classify", "--now", "söon"],
        ["render", "--prøfile"],
        ["frobnicate"],
        ["frøbnicate\u0001"],
    ):
        out = run_all(args, b"")
        assert out["python"].returncode == out["rust"].returncode == out["npm"].returncode == 2, args
        first = {k: v.stderr.splitlines()[0] for k, v in out.items()}
        assert first["python"] == first["rust"] == first["npm"], (args, first)
