#!/usr/bin/env python3
"""The open corpus's cases a build answers with CODE where the label does not accept it: what
pulls a code's precision down (`cargo xtask eval` prints the precision, not the cases). Reads
`eval/classify/*.jsonl` or `eval/parse/*.jsonl` only, never `eval/sealed/` or `eval/held-out/`:

    python3 eval/wrong_answers.py classify target/release/mcp-errors UPSTREAM_ERROR
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def main() -> None:
    kind, cli, code = sys.argv[1], sys.argv[2], sys.argv[3]
    here = os.path.dirname(os.path.abspath(__file__))
    for f in sorted(glob.glob(os.path.join(here, kind, "*.jsonl"))):
        for line in open(f, encoding="utf-8"):
            c = json.loads(line)
            a = compare.answer(cli, kind, c)
            if not isinstance(a, dict) or a.get("code") != code:
                continue
            if code == c["code"] or code in c.get("accept", []):
                continue
            print("==", os.path.basename(f), c["id"], "| label", c["code"], c.get("accept"),
                  "| evidence", a.get("evidence"))
            print("  ", json.dumps(c.get("input", c.get("result")), ensure_ascii=False)[:400])


if __name__ == "__main__":
    main()
