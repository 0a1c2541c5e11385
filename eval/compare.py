#!/usr/bin/env python3
"""Score one corpus file with a given `mcp-errors` binary, as `cargo xtask eval` scores it (code in
the accepted set, the retry verdict unless `retry_any`, a stated delay, and for parse the message's
words), so that two builds can be compared on a held-out file before anyone reads it:

    python3 eval/compare.py classify OLD/mcp-errors NEW/mcp-errors eval/classify/fresh-2026-11-27.jsonl
    python3 eval/compare.py parse    OLD/mcp-errors NEW/mcp-errors eval/parse/fresh-2026-11-27.jsonl
    python3 eval/compare.py parse-ok OLD/mcp-errors NEW/mcp-errors eval/parse-ok/servers.jsonl

Prints each binary's `right/total`, how the last binary's misses divide (not read as a failure,
UNKNOWN, a wrong code, the retry verdict, the delay or message), and with two binaries how many
cases the second gained and lost against the first; nothing about the cases (add --misses to list
them, which reads them; --changed lists the cases the second binary gained and lost, with both
answers, which reads those)."""
import json
import subprocess
import sys


def answer(cli: str, kind: str, case: dict):
    if kind == "parse-ok":
        kind = "parse"
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
    if "code" not in case:  # a successful result (eval/parse-ok): right when no failure is read
        return a is None
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
    changed = "--changed" in sys.argv
    kind, *clis, path = [a for a in sys.argv[1:] if a not in ("--misses", "--changed")]
    cases = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    oks = []
    answers = []
    for cli in clis:
        results = [(c, answer(cli, kind, c)) for c in cases]
        answers.append(results)
        ok = [right(c, a) for c, a in results]
        oks.append(ok)
        print(f"{cli}: {sum(ok)}/{len(cases)} right on {path}")
        if misses:
            for (c, a), r in zip(results, ok):
                if not r:
                    print("  miss", c["id"], a and a.get("code"), a and a.get("evidence"))
    kinds = {}
    for (c, a), r in zip(results, ok):
        if not r:
            k = miss_kind(c, a)
            kinds[k] = kinds.get(k, 0) + 1
    print(f"{clis[-1]}: misses by kind: {kinds}")
    if len(oks) >= 2:
        gained = sum(1 for a, b in zip(oks[0], oks[-1]) if b and not a)
        lost = sum(1 for a, b in zip(oks[0], oks[-1]) if a and not b)
        print(f"{clis[-1]} against {clis[0]}: {gained} gained, {lost} lost")
        if changed:
            for (c, a), (_, b), x, y in zip(answers[0], answers[-1], oks[0], oks[-1]):
                if x != y:
                    what = "gained" if y else "lost"
                    print(f"  {what} {c['id']} (label {c.get('code', 'no failure')}): {brief(a)} -> {brief(b)}")


def brief(a) -> str:
    return "not a failure" if a is None else f"{a.get('code')} {a.get('retryable')} {a.get('evidence')}"


def miss_kind(case: dict, a) -> str:
    """How a miss divides, as the sealed part's aggregate says it."""
    if "code" not in case:
        return "a success read as a failure"
    if a is None:
        return "not read as a failure"
    if a.get("code") == "UNKNOWN":
        return "UNKNOWN"
    if a.get("code") not in [case["code"]] + (case.get("accept") or []):
        return "a wrong code"
    if not case.get("retry_any") and a.get("retryable") != case["retryable"]:
        return "the retry verdict"
    return "the delay or the message"


if __name__ == "__main__":
    main()
