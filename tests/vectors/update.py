#!/usr/bin/env python3
"""Rewrite the `expected` of the shared vectors (classify.json, render.json, parse.json) with
what the Rust CLI (`target/debug/mcp-errors`, `cargo build` first) prints now, and list the
cases that changed. For a deliberate change of behaviour: review `git diff tests/vectors`, and
say why each changed case changed in CHANGELOG.md. New cases may be added with "expected": null.

    cargo build && python3 tests/vectors/update.py [classify|render|parse ...]
"""
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLI = HERE.parent.parent / "target" / "debug" / "mcp-errors"
RENDER_FLAGS = {"profile": "--profile", "format": "--format", "spec": "--spec", "target": "--target",
                "tool_name": "--tool", "now": "--now", "error_id": "--id", "output_schema": "--output-schema",
                "extra_fields": "--extra-fields", "limits": "--limits", "rules": "--rules",
                "masked_message": "--masked-message"}


def flags(command: str, options: dict) -> list:
    args = [command]
    for key, value in options.items():
        if command != "render" and key not in ("now", "limits", "rules"):
            continue
        if key in ("mask", "tool_failure"):
            if value is True:
                args.append("--mask" if key == "mask" else "--tool-failure")
            continue
        args += [RENDER_FLAGS[key], value if isinstance(value, str) else json.dumps(value)]
    return args


def update(command: str) -> list:
    path = HERE / f"{command}.json"
    doc = json.loads(path.read_text())
    changed = []
    for case in doc["cases"]:
        raw = case["raw"] if isinstance(case.get("raw"), str) else json.dumps(case["input"], ensure_ascii=False)
        out = subprocess.run([str(CLI)] + flags(command, case.get("options", {})), input=raw + "\n",
                             capture_output=True, text=True, check=True).stdout.strip()
        new = json.loads(out)
        if new != case.get("expected"):
            changed.append(case["name"])
            case["expected"] = new
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return changed


if __name__ == "__main__":
    for command in sys.argv[1:] or ["classify", "render", "parse"]:
        names = update(command)
        print(f"{command}.json: {len(names)} changed")
        for name in names:
            print(f"  {name}")
