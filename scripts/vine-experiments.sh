#!/bin/bash
# The vine-pruning experiments of docs/results.md ("Vine pruning (Rush & Petrov 2012) — issue 12"), as run:
#   scripts/vine-experiments.sh train OUT   # dev: the two exhaustive models and the cascade (alpha chosen on dev)
#   scripts/vine-experiments.sh test OUT    # the one test run: frontier + significance, then dep-bench
#   scripts/vine-experiments.sh vine5 OUT   # the third run (results.md "Third run"): the cascade retrained with
#                                           # the protocol's 5 epochs on the models already in OUT; then `test OUT`
#   scripts/vine-experiments.sh speed OUT OLD_CLI [ROUNDS]  # timing only (benchmarks.md, "Prefetched arc weights
#                                           # and per-token template prefixes"): ROUNDS (11) rounds of dep-bench, each
#                                           # this build on dev, on test, then OLD_CLI on dev, on test; one JSON line each
#   scripts/vine-experiments.sh vine OUT    # the second vine design (results.md "Second vine design"): only the
#                                           # cascade is retrained, on the models already in OUT; then `test OUT`
# OUT is a folder outside the repository (the models and the cascade are 20-60 MB each).
set -euo pipefail
cmd=${1:?train|vine|test}; out=${2:?OUT}
cli=${CLI:-$(dirname "$0")/../build/app/prunescope-cli}
D=${DATA:-$(dirname "$0")/../../shared/data/dep-sample}
mkdir -p "$out"
case "$cmd" in
train)
  nice "$cli" dep-train --train "$D/train" --dev "$D/dev" --order 2 --learner auto --epochs 4 --patience 1 --max-len 50 --seed 1 --out "$out/model-o2.json"
  nice "$cli" vine-train --model "$out/model-o2.json" --train "$D/train" --dev "$D/dev" --out "$out/cascade.json" --band 3 --train-alpha 0.5 \
    --epochs 2 --hash-bits 20 --alpha-grid 0,0.4,0.6,0.8,0.9,0.95 --max-len 50 --seed 1
  nice "$cli" dep-train --train "$D/train" --dev "$D/dev" --order 1 --learner mira --epochs 2 --patience 1 --max-len 50 --seed 1 --out "$out/model-o1.json"
  ;;
vine)
  nice "$cli" vine-train --model "$out/model-o2.json" --train "$D/train" --dev "$D/dev" --out "$out/cascade.json" --band 3 --train-alpha 0.5 \
    --epochs 2 --hash-bits 20 --alpha-grid 0,0.4,0.6,0.8,0.9,0.95 --max-len 50 --seed 1
  ;;
vine5)
  nice "$cli" vine-train --model "$out/model-o2.json" --train "$D/train" --dev "$D/dev" --out "$out/cascade.json" --band 3 --train-alpha 0.5 \
    --epochs 5 --hash-bits 20 --alpha-grid 0,0.4,0.6,0.8,0.9,0.95 --max-len 50 --seed 1
  ;;
test)
  nice "$cli" vine-frontier --model "$out/model-o2.json" --first-order-model "$out/model-o1.json" --cascade "$out/cascade.json" --treebank "$D/test" \
    --alpha-grid 0,0.4,0.6,0.8,0.9,0.95 --length-bands 1,2,3,4,6 --out-json "$out/frontier-test.json" --out-svg "$out/vine-frontier-test.svg" \
    --title "Vine cascade on test: UAS vs arcs kept and speed"
  nice "$cli" dep-bench --model "$out/model-o2.json" --cascade "$out/cascade.json" --treebank "$D/test" --repeats 3 --json > "$out/bench.json"
  nice "$cli" dep-bench --model "$out/model-o2.json" --length-vine 3 --treebank "$D/test" --repeats 3 --json > "$out/bench-length.json"
  ;;
speed)
  old=${3:?OLD_CLI}; rounds=${4:-11}
  for r in $(seq 1 "$rounds"); do
    for bin in "$cli" "$old"; do
      for split in dev test; do
        "$bin" dep-bench --model "$out/model-o2.json" --cascade "$out/cascade.json" --treebank "$D/$split" --repeats 3 --json --quiet |
          python3 -c "import json,sys; d=json.load(sys.stdin); p=d['pruned']; e=d['exhaustive']
print(json.dumps({'round': $r, 'binary': '$([ "$bin" = "$cli" ] && echo new || echo old)', 'split': '$split', 'speedup': p['speedup'],
  'cascadeTokensPerSecond': p['tokensPerSecond']['median'], 'exhaustiveTokensPerSecond': e['tokensPerSecond']['median'],
  'uasCascade': p['uas'], 'uasExhaustive': e['uas']}))"
      done
    done
  done | tee "$out/speed.jsonl"
  ;;
*) echo "usage: $0 train|vine|vine5|test|speed OUT [OLD_CLI [ROUNDS]]" >&2; exit 2 ;;
esac
