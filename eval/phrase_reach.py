#!/usr/bin/env python3
"""How far the lexicon's phrases reach beyond the cases they were learned from: which phrases of
`rules/lexicon.json` occur in no text of the open corpus and vectors except the given files (the
sets just read), and how many of those files' cases such "unreached" phrases and the others hit.
A rough reach measure (a phrase is looked for in the case's JSON text, lowercased, camel case
split; gaps `_` stand for one to four words), not the reader's verdict:

    python3 eval/phrase_reach.py eval/classify/fresh-2026-11-27i.jsonl eval/parse/fresh-2026-11-27h.jsonl

Measured 2026-11-27 on the classify i and parse h sets before they were read: 675 of 1 430 phrases
occurred in no other text; they hit 8 of the 161 new cases, the other 755 phrases 158.
"""
import glob
import json
import re
import sys


def norm(texts):
    blob = re.sub(r"([a-z])([A-Z])", r"\1 \2", " ".join(texts))
    low = blob.lower()
    return blob, low, " " + re.sub(r"[^0-9a-z\u0080-\uffff]+", " ", low) + " "


def hit(p, t):
    blob, low, words = t
    if any(ord(c) > 127 for c in p):
        return p in blob or p in low
    w = p.rstrip("*")
    end = "" if p.endswith("*") else " "
    if " _ " in w:
        a, b = w.split(" _ ")
        return re.search(" " + re.escape(a) + r" (\S+ ){1,4}" + re.escape(b) + end, words) is not None
    return (" " + w + end) in words


def main():
    fresh = sys.argv[1:]
    lexicon = json.load(open("rules/lexicon.json", encoding="utf-8"))
    phrases = [p for g in lexicon["groups"] for p in g["phrases"]]
    files = (glob.glob("eval/classify/*.jsonl") + glob.glob("eval/parse/*.jsonl")
             + glob.glob("eval/shared/*.jsonl") + glob.glob("tests/vectors/*.json"))
    other = norm([l for f in files if f not in fresh for l in open(f, encoding="utf-8")])
    new = [norm([l]) for f in fresh for l in open(f, encoding="utf-8") if l.strip()]
    unreached = [p for p in phrases if not hit(p, other)]
    reached = [p for p in phrases if p not in unreached]
    cases = lambda ps: sum(1 for t in new if any(hit(p, t) for p in ps))  # noqa: E731
    print(f"phrases {len(phrases)}, in no other text {len(unreached)}")
    print(f"new cases {len(new)}: hit by those {cases(unreached)}, by the others {cases(reached)}")


if __name__ == "__main__":
    main()
