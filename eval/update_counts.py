#!/usr/bin/env python3
"""Write the counts the README and BENCHMARKS.md state about the build into them: the shared
classify vectors, the lexicon's groups and phrases, and the component's size (from
`target/mcp-errors.wasm`: run `cargo xtask build` first). `cargo test --test docs` checks them.

    cargo xtask build && python3 eval/update_counts.py
"""
import json
import os
import re
import subprocess

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def spaced(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def main() -> None:
    os.chdir(ROOT)
    vectors = json.load(open("tests/vectors/classify.json", encoding="utf-8"))
    cases = len(next(v for v in vectors.values() if isinstance(v, list)))
    lexicon = json.load(open("rules/lexicon.json", encoding="utf-8"))
    groups = len(lexicon["groups"])
    phrases = sum(len(g["phrases"]) for g in lexicon["groups"])
    size = os.path.getsize("target/mcp-errors.wasm")
    gz = len(subprocess.run(["gzip", "-9", "-c", "target/mcp-errors.wasm"], capture_output=True, check=True).stdout)
    s = open("README.md", encoding="utf-8").read()
    s = re.sub(r"`tests/vectors/classify.json` has \d+ cases", f"`tests/vectors/classify.json` has {cases} cases", s)
    s = re.sub(r"\d+ groups, [\d ]+ phrases \(a code", f"{groups} groups, {spaced(phrases)} phrases (a code", s)
    s = re.sub(r"\*\*The component:\*\* [\d ]+ bytes, [\d ]+ gzipped", f"**The component:** {spaced(size)} bytes, {spaced(gz)} gzipped", s)
    s = re.sub(r"The component is [\d ]+ bytes \([\d ]+ gzipped\)", f"The component is {spaced(size)} bytes ({spaced(gz)} gzipped)", s)
    open("README.md", "w", encoding="utf-8").write(s)
    b = open("BENCHMARKS.md", encoding="utf-8").read()
    b = re.sub(r"\| component size \| [\d ]+ bytes, [\d ]+ gzipped", f"| component size | {spaced(size)} bytes, {spaced(gz)} gzipped", b)
    open("BENCHMARKS.md", "w", encoding="utf-8").write(b)
    print(f"vectors {cases}, lexicon {groups} groups {phrases} phrases, component {size} bytes {gz} gzipped")


if __name__ == "__main__":
    main()
