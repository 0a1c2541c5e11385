#!/usr/bin/env python3
"""For one code: which signal decided each of a build's answers with that code, and how often it
was right, over the open corpus's classify files (or the files given). A decider whose answers
are often wrong is where a code's precision goes; a phrase of the lexicon shows as `words PHRASE`.
Counts and the wrong cases' ids only; `eval/wrong_answers.py` shows those cases whole.

    python3 eval/deciders.py target/release/mcp-errors INVALID_ARGUMENT [FILE.jsonl ...]
"""
import collections
import glob
import json
import sys

sys.path.insert(0, "eval")
import compare  # noqa: E402


def main() -> None:
    cli, code, *files = sys.argv[1:]
    files = files or glob.glob("eval/classify/*.jsonl") + ["eval/shared/classify.jsonl"]
    counts = collections.defaultdict(lambda: [0, 0])
    wrong = collections.defaultdict(list)
    for path in files:
        for line in open(path, encoding="utf-8"):
            case = json.loads(line)
            answer = compare.answer(cli, "classify", case)
            if not answer or answer.get("code") != code:
                continue
            evidence = [e for e in answer.get("evidence") or [] if not e.startswith("dialect")]
            first = evidence[0].split(" ") if evidence else ["?"]
            decider = "words " + " ".join(first[1:-1]) if first[0] == "words" else first[0]
            right = code in [case["code"]] + (case.get("accept") or [])
            counts[decider][0 if right else 1] += 1
            if not right:
                wrong[decider].append(case["id"])
    for decider, (r, w) in sorted(counts.items(), key=lambda kv: -sum(kv[1])):
        print(f"{r:5} right {w:3} wrong  {decider}" + (f"   {wrong[decider][:3]}" if w else ""))


if __name__ == "__main__":
    main()
