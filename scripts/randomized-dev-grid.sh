#!/usr/bin/env bash
# The dev selection of randomized pruning (docs/results.md, "Randomized pruning", protocol): 27
# configurations (figure-of-merit policy x selection chain x support threshold) on every 3rd dev
# sentence of <= 40 words, 64 iterations, seed 1; prints each configuration's selection score
# (mean ln ratio of its span L1 to the best fixed mask of no greater cost; lower is better).
# Usage: scripts/randomized-dev-grid.sh OUT_DIR [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:?usage: $0 OUT_DIR [build-dir]}"
CLI="${2:-build}/app/prunescope-cli"
DATA="${PRUNESCOPE_DATA:-../shared/data/ptb-sample}"
mkdir -p "$OUT"
P=samples/policies
for pol in w16 w128 w256; do
  for chain in rotate:0.6666666666666666 independent:0.6666666666666666 independent:0.3333333333333333; do
    sel="${chain%%:*}"; frac="${chain##*:}"
    for tau in 0.3 0.5 0.7; do
      name="$pol-$sel-${frac:0:4}-$tau"
      [[ -s "$OUT/$name.json" ]] && continue
      "$CLI" randomized --grammar samples/grammar.gram --treebank "$DATA/dev" --max-len 40 --every 3 \
        --iterations 64 --seed 1 --selection "$sel" --selection-fraction "$frac" --support-threshold "$tau" \
        --policy "$P/baseline-$pol.json" --mask-policy "$P/baseline-w16.json" --mask-policy "$P/baseline-w128.json" \
        --mask-policy "$P/baseline-w256.json" --no-oracle --json "$OUT/$name.json" > "$OUT/$name.txt" 2> "$OUT/$name.log"
      echo "$name $(jq .selectionScore "$OUT/$name.json")"
    done
  done
done
echo "--- sorted (lower is better)"
for f in "$OUT"/*.json; do echo "$(jq .selectionScore "$f") $(basename "$f" .json)"; done | sort -g
