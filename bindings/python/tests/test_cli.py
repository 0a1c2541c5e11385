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
    "now": "--now", "error_id": "--id", "masked_message": "--masked-message", "output_schema": "--output-schema", "extra_fields": "--extra-fields",
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
    lines[3:3] = ["{not json", "", "   ", "[1,2", '"just a string"', '{"message":"crlf"}\r',
                  "\ufeff", '\ufeff{"status":404}', "\x1c", "\u00a0", "\t\r", "\r", "\u2028"]
    data = ("\n".join(lines) + "\n").encode() + bytes([0x7B, 0xFF, 0x7D, 0x0A, 0xE2, 0x82, 0x0A, 0xF0, 0x90, 0x28, 0x0A, 0xED, 0xA0, 0x80, 0x0A])
    out = run_all(["classify"], data)
    assert out["python"].stdout == out["rust"].stdout
    assert out["npm"].stdout == out["rust"].stdout
    assert out["python"].returncode == out["rust"].returncode == 1
    assert b"line is not UTF-8: invalid utf-8 sequence of 1 bytes from index 1" in out["python"].stdout
    # Blank means JSON whitespace only: a byte-order mark, \x1c or a no-break space is an error line.
    errors = [json.loads(l)["error"]["line"] for l in out["rust"].stdout.splitlines() if l.startswith(b'{"error"')]
    for i, text in enumerate(lines, start=1):
        if text in ("\ufeff", "\x1c", "\u00a0", "\u2028", '\ufeff{"status":404}'):
            assert i in errors, (i, text)
        if text in ("", "   ", "\t\r", "\r"):
            assert i not in errors, (i, text)


def test_parse_parity_with_bad_lines():
    cs = cases("parse.json")
    lines = [json.dumps(c["input"]) for c in cs] + ["[1]", "{not json", ""]
    data = ("\n".join(lines) + "\n").encode()
    out = run_all(["parse", "--now", "2026-11-24T10:00:00Z"], data)
    assert out["python"].stdout == out["rust"].stdout == out["npm"].stdout
    assert out["python"].returncode == out["rust"].returncode == out["npm"].returncode == 1
    got = out["rust"].stdout.decode().splitlines()
    for c, line in zip(cs, got):
        assert json.loads(line) == c["expected"], c["name"]


def test_help_and_usage_errors_are_the_same_bytes_in_every_cli():
    """`--help` lists the same commands, flags, profiles, formats, revisions and targets."""
    out = run_all(["--help"], b"")
    assert out["python"].stdout == out["rust"].stdout == out["npm"].stdout
    assert b"targets:  tool-result, soft-result, protocol-error, needs-input, log-record" in out["rust"].stdout
    for args in (["nope"], ["render", "--profile"], ["classify", "--bad", "x"]):
        out = run_all(args, b"")
        assert out["python"].stderr == out["rust"].stderr == out["npm"].stderr, args
        assert out["python"].returncode == out["rust"].returncode == out["npm"].returncode == 2, args


def test_render_parity_for_every_render_vector():
    for c in cases("render.json"):
        args = ["render"]
        for k, v in c["options"].items():
            if k in ("mask", "tool_failure"):
                args += ["--mask" if k == "mask" else "--tool-failure"]
            else:
                args += [FLAGS[k], v if isinstance(v, str) else json.dumps(v)]
        out = run_all(args, (json.dumps(c["input"]) + "\n").encode())
        want = (json.dumps(c["expected"], ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        assert out["python"].stdout == out["rust"].stdout == out["npm"].stdout == want, c["name"]


def test_extra_fields_keep_big_integers_in_every_cli():
    args = ["render", "--profile", "tool-error-v1", "--now", "2025-10-27T14:32:15Z",
            "--extra-fields", '{"id":12345678901234567890,"ratio":0.1,"neg":-9223372036854775809}']
    out = run_all(args, b'{"status":500}\n')
    assert out["python"].stdout == out["rust"].stdout == out["npm"].stdout, {k: v.stdout for k, v in out.items()}
    assert b'"id":12345678901234567890' in out["rust"].stdout


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


def test_several_bad_flags_name_the_first_in_every_cli():
    """Each flag is checked as it is read: the first bad one given is the one named,
    and a value the core refuses for every line is a usage error before any input."""
    bad_json = "{bad"
    for args, first_line in (
        (["render", "--format", "nope", "--profile", "nope"], 'mcp-errors: unknown format "nope"; expected one of: markdown, json, both'),
        (["render", "--profile", "nope", "--format", "nope"], 'mcp-errors: unknown profile "nope"'),
        (["render", "--now", "soon", "--profile", "nope"], 'mcp-errors: `now` is not an RFC 3339 time: "soon"'),
        (["render", "--target", "nope", "--spec", "nope"], 'mcp-errors: unknown target "nope"'),
        (["render", "--extra-fields", bad_json, "--profile", "nope"], "mcp-errors: --extra-fields must be JSON"),
        (["render", "--profile", "nope", "--extra-fields", bad_json], 'mcp-errors: unknown profile "nope"'),
        (["render", "--profile", "nope", "--limits", bad_json], 'mcp-errors: unknown profile "nope"'),
        (["render", "--now", "soon", "--limits", bad_json], 'mcp-errors: `now` is not an RFC 3339 time: "soon"'),
        (["render", "--profile", "nope", "--frob"], 'mcp-errors: unknown profile "nope"'),
        (["render", "--output-schema", bad_json], "mcp-errors: output_schema: key must be a string at line 1 column 2"),
        (["render", "--extra-fields", "[1]"], "mcp-errors: extra_fields must be a JSON object"),
        (["render", "--limits", '{"max_depth": NaN}'], "mcp-errors: --limits must be JSON"),
        (["render", "--extra-fields", '{"a":"\\ud800"}'], "mcp-errors: --extra-fields must be JSON"),
        (["classify", "--now", "soon", "--limits", '{"max_depth":0}'], 'mcp-errors: `now` is not an RFC 3339 time: "soon"'),
        (["classify", "--limits", '{"max_depth":0}', "--now", "soon"], 'mcp-errors: limit "max_depth" is 0; it must be from 1 to 32'),
        (["classify", "--profile", "canonical"], "mcp-errors: classify takes only --now, --limits and --rules"),
        (["classify", "--now"], "mcp-errors: classify takes only --now, --limits and --rules"),
    ):
        out = run_all(args, b'{"status":500}\n')
        first = {k: v.stderr.decode().splitlines()[0] if v.stderr else "" for k, v in out.items()}
        assert {k: v.returncode for k, v in out.items()} == {"python": 2, "rust": 2, "npm": 2}, (args, first)
        assert all(v.stdout == b"" for v in out.values()), args
        assert first["python"] == first["rust"] == first["npm"], (args, first)
        assert first["rust"].startswith(first_line), (args, first["rust"])



def test_hostile_lines_are_the_same_bytes_and_status_in_every_cli():
    """The CLIs only do I/O: the core decides what every line becomes, so even hostile
    input gives the same bytes and exit status in all three."""
    big = '{"message":"' + "x" * (20 * 1024 * 1024) + '"}'  # past the 16 MiB input limit
    under = '{"status":503,"message":"' + "y" * (12 * 1024 * 1024) + '"}'
    data = b"\n".join([
        b"\xef\xbb\xbf",  # a byte-order mark alone
        b"",
        b" \t",
        b"\x1c",
        b'{"status":429}\r',  # CRLF
        b"\r",
        big.encode(),
        under.encode(),
        big.encode()[:-3] + b"\xff\"}",  # 20 MB, invalid UTF-8 near its end
        b"\xf0\x90\x80",  # a sequence cut short at the end of the line
        b'{"status":404}',  # no newline at the end of the input
    ])
    for args in (["classify"], ["render", "--profile", "text", "--limits", '{"max_message_chars":64}']):
        out = run_all(args, data)
        assert out["rust"].returncode == 1, args
        assert {k: v.returncode for k, v in out.items()} == {"python": 1, "rust": 1, "npm": 1}, args
        assert out["python"].stdout == out["rust"].stdout, args
        assert out["npm"].stdout == out["rust"].stdout, args
        lines = out["rust"].stdout.splitlines()
        # Blank lines (2, 3, 6) yield nothing; every other line yields one line.
        assert len(lines) == 8, (args, [l[:100] for l in lines])
        errors = {json.loads(l)["error"]["line"]: json.loads(l)["error"] for l in lines if l.startswith(b'{"error"')}
        assert set(errors) == {1, 4, 7, 9, 10}, (args, errors)
        assert errors[7]["message"] == f"input is {len(big)} bytes; the limit is 16777216"
        assert errors[9]["message"] == f"line is not UTF-8: invalid utf-8 sequence of 1 bytes from index {len(big) - 3}"
        assert errors[10]["message"] == "line is not UTF-8: incomplete utf-8 byte sequence from index 0"


def test_the_console_script_names_itself_and_python_m_keeps_the_cores_bytes():
    """Run as the `mcp-errors-py` console script (pyproject.toml), the usage and error messages
    name it, with the continuation lines still aligned; `python -m mcp_errors` prints the
    core's text (the parity above)."""
    script = Path(sys.executable).with_name("mcp-errors-py")
    assert script.exists(), f"{script} is missing: pip install -e bindings/python"
    core = subprocess.run([sys.executable, "-m", "mcp_errors", "--help"], capture_output=True)
    named = subprocess.run([str(script), "--help"], capture_output=True)
    assert named.returncode == core.returncode == 0
    assert b"  mcp-errors classify " in core.stdout
    text = named.stdout.decode()
    assert "  mcp-errors-py classify [--now RFC3339]" in text and "  mcp-errors " not in text
    lines = text.splitlines()
    render = next(l for l in lines if l.startswith("  mcp-errors-py render "))
    after = lines[lines.index(render) + 1]
    assert after.index("[") == render.index("[--profile"), (render, after)
    # Everything but the name and the alignment is the core's text.
    assert [l.strip() for l in text.replace("mcp-errors-py", "mcp-errors").splitlines()] == [
        l.strip() for l in core.stdout.decode().splitlines()
    ]
    for args, message in ((["nope"], 'mcp-errors-py: unknown command "nope"\n'), (["render", "--profile"], "mcp-errors-py: --profile needs a value\n")):
        out = subprocess.run([str(script), *args], capture_output=True)
        assert out.returncode == 2 and out.stderr.decode().startswith(message), out.stderr
    # The lines it writes are the core's.
    line = json.dumps({"status": 404}).encode() + b"\n"
    assert subprocess.run([str(script), "classify"], input=line, capture_output=True).stdout == subprocess.run(
        [sys.executable, "-m", "mcp_errors", "classify"], input=line, capture_output=True
    ).stdout
