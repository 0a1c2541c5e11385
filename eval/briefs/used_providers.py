#!/usr/bin/env python3
"""Every provider slug the corpus and the sealed part use, one per line, for collectors of a new
fresh set (eval/briefs/collector.md): `python3 eval/briefs/used_providers.py > /work/used-providers.txt`."""
import glob
import json
import pathlib

root = pathlib.Path(__file__).resolve().parents[2]
slugs = set()
for path in glob.glob(str(root / "eval" / "**" / "*.jsonl"), recursive=True):
    for line in open(path, encoding="utf-8"):
        if line.strip():
            slugs.add(json.loads(line).get("provider", "").lower())
for line in open(root / "eval" / "sealed" / "providers.txt", encoding="utf-8"):
    line = line.strip()
    if line and not line.startswith("#"):
        slugs.add(line.lower())
slugs.discard("")
print("\n".join(sorted(slugs)))
