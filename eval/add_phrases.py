#!/usr/bin/env python3
"""Add sourced phrases to `rules/lexicon.json` from a tab-separated file, one phrase a line:

    CODE <tab> RETRYABLE (true, false or none) <tab> phrase <tab> weight <tab> source

Each phrase goes at the end of the first group of that code and retry verdict (the last such
group for a phrase in a script outside ASCII: the Chinese and Japanese groups come last), as
`{"weight": W, "source": S}`. The file keeps its formatting (`json.dumps`, indent 2). A phrase
its code already has stops the run. Measure before keeping: `bash eval/compare_corpus.sh OLD NEW`.

    python3 eval/add_phrases.py phrases.tsv
"""
import json
import os
import sys

LEXICON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rules", "lexicon.json")


def main() -> None:
    with open(LEXICON, encoding="utf-8") as f:
        d = json.load(f)
    for line in open(sys.argv[1], encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        code, retry, phrase, weight, source = line.split("\t")
        retryable = {"true": True, "false": False, "none": None}[retry]
        groups = [g for g in d["groups"] if g["code"] == code and g.get("retryable") == retryable]
        if not groups:
            sys.exit(f"no group for {code} retryable={retry}: {line}")
        if any(phrase in g["phrases"] for g in d["groups"] if g["code"] == code):
            sys.exit(f"{phrase!r} is already a phrase of {code}")
        group = groups[-1] if any(ord(c) > 127 for c in phrase) else groups[0]
        group["phrases"][phrase] = {"weight": int(weight), "source": source}
    with open(LEXICON, "w", encoding="utf-8") as f:
        f.write(json.dumps(d, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
