#!/bin/bash
# Compare two `mcp-errors` builds over the whole open corpus, file by file:
# every classify and parse file, the shared ones and the successes of
# eval/parse-ok, as `eval/compare.py` scores them. Prints only the files where
# the second build gained or lost cases; with --changed, those cases too (which
# reads them). Held-out sets are not touched: score those with compare.py alone.
#
#   bash eval/compare_corpus.sh OLD/mcp-errors NEW/mcp-errors [--changed]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 changed=${3:-}
for kind in classify parse; do
  for f in eval/$kind/*.jsonl eval/shared/$kind.jsonl; do
    python3 eval/compare.py "$kind" "$old" "$new" "$f" $changed \
      | grep -E "gained|lost" | grep -v " 0 gained, 0 lost" | sed "s|^|$f: |" || true
  done
done
for f in eval/parse-ok/*.jsonl; do
  python3 eval/compare.py parse-ok "$old" "$new" "$f" $changed \
    | grep -E "gained|lost" | grep -v " 0 gained, 0 lost" | sed "s|^|$f: |" || true
done
