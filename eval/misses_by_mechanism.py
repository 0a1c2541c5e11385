#!/usr/bin/env python3
"""How the open corpus's misses divide by mechanism, for a closing note or a plan: a verdict
with no signal (words no phrase or table knows), a tie of words, a wrong code and what decided it
(a bare HTTP status the words did not move, words read out of context, a phrase or status found
in the text, a specific signal), the retry verdict, the delay or the message, and for parse a
result not read as a failure. Counts only; `cargo xtask eval --misses` lists the cases.

    python3 eval/misses_by_mechanism.py target/release/mcp-errors
"""
import collections
import glob
import json
import sys

sys.path.insert(0, "eval")
import compare  # noqa: E402


def mechanism(case, answer):
    kind = compare.miss_kind(case, answer)
    evidence = (answer or {}).get("evidence") or []
    if kind == "UNKNOWN":
        return "tie of words" if any("tie" in e for e in evidence) else "no signal"
    if kind != "a wrong code":
        return kind
    firsts = [e.split(" ")[0] for e in evidence if not e.startswith("dialect")]
    if firsts == ["http"]:
        return "wrong code: a bare HTTP status the words did not move"
    if firsts and firsts[0] == "words":
        return "wrong code: words read out of context"
    if firsts and firsts[0] in ("text", "message"):
        return "wrong code: a phrase or status in the text"
    return "wrong code: a specific signal (provider code, class, rule)"


def main():
    cli = sys.argv[1]
    for kind in ("classify", "parse"):
        counts = collections.Counter()
        for path in glob.glob(f"eval/{kind}/*.jsonl") + [f"eval/shared/{kind}.jsonl"]:
            for line in open(path, encoding="utf-8"):
                case = json.loads(line)
                answer = compare.answer(cli, kind, case)
                if not compare.right(case, answer):
                    counts[mechanism(case, answer)] += 1
        print(f"{kind}: {sum(counts.values())} misses")
        for what, n in counts.most_common():
            print(f"  {n:4} {what}")


if __name__ == "__main__":
    main()
