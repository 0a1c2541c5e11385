#!/usr/bin/env python3
"""Would word weights fitted on the open corpus help where the lexicon says nothing?

An experiment, kept so that it need not be run again blind (docs/research/fitted-words.md):
every open case (eval/classify, eval/parse, eval/shared) is split into words (identifiers split,
lowercase, as src/lexicon.rs does it, approximately) and bigrams; a word is kept for a code when
it appears in at least N cases, in cases of at least P providers, and at least a share T of its
cases accept that code. The fallback answers only where the reader says UNKNOWN; a case is
answered with the code K or more kept words name, and no other as many. Leave-one-provider-out:
the words are fitted again without the provider whose cases are scored.

    python3 eval/fit_words.py target/release/mcp-errors

Prints, for each setting, how many of the cases the reader leaves UNKNOWN the fallback gets right
and wrong. Slow (a fit per provider): about 8 minutes on two cores."""
import collections
import glob
import itertools
import json
import re
import subprocess
import sys

sys.path.insert(0, "eval")
import compare  # noqa: E402

SKIP = {"stack", "traceback", "headers", "config", "request", "url", "uri", "href", "path",
        "hostname", "username", "file", "id", "sid", "timestamp", "time"}
STOP = set("the a an of to in on for is are was be been and or at by with from this that it its your you "
           "we our please error errors failed failure exception request requests api code message "
           "status type http https www com org".split())


def strings(v, depth=0):
    if depth > 8:
        return
    if isinstance(v, str):
        t = v.strip()
        if t[:1] in "{[":
            try:
                yield from strings(json.loads(t), depth + 1)
                return
            except ValueError:
                pass
        yield v
    elif isinstance(v, list):
        for x in v[:16]:
            yield from strings(x, depth + 1)
    elif isinstance(v, dict):
        for k, x in v.items():
            if k.lower() not in SKIP:
                yield from strings(x, depth + 1)


def words(s):
    s = re.sub(r"https?://\S+", " ", s).replace("'", "").replace("\u2019", "")
    s = re.sub(r"([a-z])([A-Z])", r"\1 \2", s)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", s)
    s = re.sub(r"([A-Za-z])([0-9])", r"\1 \2", s)
    s = re.sub(r"([0-9])([A-Za-z])", r"\1 \2", s)
    return [w for w in re.split(r"[^a-z0-9\u0080-\uffff]+", s.lower()) if w]


def features(case):
    ws = []
    for s in strings(case.get("input") or case.get("result")):
        ws += words(s) + ["|"]
    out = {w for w in ws if w != "|" and not w.isdigit() and len(w) >= 3 and w not in STOP}
    for a, b in zip(ws, ws[1:]):
        if "|" not in (a, b) and not a.isdigit() and not b.isdigit() and not (a in STOP and b in STOP):
            out.add(a + " " + b)
    return out


def fit(train, n_min, p_min, share):
    n = collections.Counter()
    support = collections.defaultdict(collections.Counter)
    providers = collections.defaultdict(lambda: collections.defaultdict(set))
    for c in train:
        for f in c["_f"]:
            n[f] += 1
            for k in [c["code"]] + (c.get("accept") or []):
                support[f][k] += 1
                providers[f][k].add(c["provider"])
    table = {}
    for f, count in n.items():
        if count < n_min:
            continue
        k, s = max(support[f].items(), key=lambda kv: (kv[1], len(providers[f][kv[0]])))
        if k != "UNKNOWN" and s / count >= share and len(providers[f][k]) >= p_min:
            table[f] = k
    return table


def predict(table, case, k_min):
    votes = collections.Counter(table[f] for f in case["_f"] if f in table).most_common(2)
    if not votes or votes[0][1] < k_min or (len(votes) > 1 and votes[1][1] >= votes[0][1]):
        return None
    return votes[0][0]


def main():
    cli = sys.argv[1]
    cases = []
    for kind in ("classify", "parse"):
        for f in glob.glob(f"eval/{kind}/*.jsonl") + [f"eval/shared/{kind}.jsonl"]:
            for line in open(f, encoding="utf-8"):
                c = json.loads(line)
                c["_f"] = features(c)
                a = compare.answer(cli, kind, c)
                c["_unknown"] = a is not None and a.get("code") == "UNKNOWN"
                cases.append(c)
    by_provider = collections.defaultdict(list)
    for c in cases:
        by_provider[c["provider"]].append(c)
    targets = {c["provider"] for c in cases if c["_unknown"]}
    print("cases the reader leaves UNKNOWN:", sum(c["_unknown"] for c in cases))
    for n_min, p_min, share, k_min in itertools.product([3, 5], [2, 4], [0.75, 0.85, 0.95], [1, 2]):
        right = wrong = 0
        for p in targets:
            table = fit([c for c in cases if c["provider"] != p], n_min, p_min, share)
            for c in by_provider[p]:
                if c["_unknown"] and (k := predict(table, c, k_min)) is not None:
                    if k in [c["code"]] + (c.get("accept") or []):
                        right += 1
                    else:
                        wrong += 1
        print(f"N={n_min} P={p_min} T={share} K={k_min}: right {right}, wrong {wrong}")


if __name__ == "__main__":
    main()
