#!/usr/bin/env python3
"""Score one corpus file with a given `mcp-errors` binary, as `cargo xtask eval` scores it (code in
the accepted set, the retry verdict unless `retry_any`, a stated delay, and for parse the message's
words), so that two builds can be compared on a held-out file before anyone reads it:

    python3 eval/compare.py classify OLD/mcp-errors NEW/mcp-errors eval/classify/fresh-2026-11-27.jsonl
    python3 eval/compare.py parse    OLD/mcp-errors NEW/mcp-errors eval/parse/fresh-2026-11-27.jsonl

Prints each binary's `right/total`; nothing about the cases (add --misses to list them)."""
import json
import subprocess
import sys


def answer(cli: str, kind: str, case: dict):
    if kind == "classify":
        raw = json.dumps(case["input"])
    else:
        r = case["result"]
        raw = json.dumps({"jsonrpc": "2.0", "id": 1, "error": r["jsonrpc_error"]} if "jsonrpc_error" in r else r)
    args = [cli, kind] + (["--now", case["now"]] if case.get("now") else [])
    out = subprocess.run(args, input=raw, capture_output=True, text=True).stdout.strip()
    try:
        value = json.loads(out)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def right(case: dict, a) -> bool:
    accepted = [case["code"]] + (case.get("accept") or [])
    if a is None or a.get("code") not in accepted:
        return False
    if not case.get("retry_any") and a.get("retryable") != case["retryable"]:
        return False
    if case.get("retry_after_ms") is not None and a.get("retry_after_ms") != case["retry_after_ms"]:
        return False
    words = case.get("message_contains")
    return not words or words.lower() in (a.get("message") or "").lower()


def main() -> None:
    misses = "--misses" in sys.argv
    kind, *clis, path = [a for a in sys.argv[1:] if a != "--misses"]
    cases = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    for cli in clis:
        results = [(c, answer(cli, kind, c)) for c in cases]
        print(f"{cli}: {sum(right(c, a) for c, a in results)}/{len(cases)} right on {path}")
        if misses:
            for c, a in results:
                if not right(c, a):
                    print("  miss", c["id"], a and a.get("code"), a and a.get("evidence"))


if __name__ == "__main__":
    main()
