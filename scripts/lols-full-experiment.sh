#!/usr/bin/env bash
# LOLS at full budget vs the dev-chosen baselines (issue 16): the protocol of docs/results.md,
# "LOLS at full budget". Phases, in order:
#   bash scripts/lols-full-experiment.sh baselines   # the baseline sweep at the dev-chosen l2 (dev only)
#   bash scripts/lols-full-experiment.sh lambdas     # true and surrogate lambdas from B/frontier.json (dev only)
#   bash scripts/lols-full-experiment.sh pilot       # the Q0-scale pilot (dev only)
#   bash scripts/lols-full-experiment.sh train       # the 8 LOLS runs at the pilot's scales (dev only)
#   bash scripts/lols-full-experiment.sh test        # run ONCE, after the protocol and the dev phase are committed
# Outputs go to $RUNS (default build/lols-full); a run directory already complete is not redone.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-build/app/prunescope-cli}
DATA=${DATA:-../shared/data/ptb-sample}
RUNS=${RUNS:-build/lols-full}
THREADS=${THREADS:-2}
G=samples/grammar.gram
B=$RUNS/baselines
WEIGHTS="8 16 32 64"
mkdir -p "$RUNS"
phase=${1:?baselines, lambdas, pilot, train or test}

# The settings every LOLS run shares (protocol: "Budget", "Early stopping").
common() {
  echo --grammar $G --train "$DATA/train" --dev "$DATA/dev" --max-len 40 --minibatch 2692 --iterations "$1" \
       --dev-limit 0 --seed 1 --threads "$THREADS" --lbfgs-max-iterations-after-first 5
}
lambda() { jq -r ".w$1.$2" "$RUNS/lambdas.json"; }  # w, true|rcp|rdp

case $phase in
baselines)
  [ -f "$B/frontier.json" ] || $CLI baseline --grammar $G --train "$DATA/train" --dev "$DATA/dev" \
      --l2 3.0517578125e-05 --out "$B" | tee "$RUNS/baselines.log"
  ;;
lambdas)
  # True lambda: geometric mean of the dev optimal-lambda cone (hi/4 for [0, hi]); surrogate lambdas:
  # the GUI's conversion at the baseline's dev operating point (toSurrogateLambda).
  python3 - "$B/frontier.json" "$WEIGHTS" > "$RUNS/lambdas.json" <<'EOF'
import json, math, sys
f = json.load(open(sys.argv[1]))
out = {}
for w in sys.argv[2].split():
    p = next(p for p in f["points"] if p["id"] == "baseline-w" + w)
    r = p["lambdaRange"]
    if r is None: sys.exit("baseline-w%s has no optimal-lambda range on dev" % w)
    lo, hi = r["lo"], r["hi"]
    lt = hi / 4 if lo == 0 else (2 * lo if hi is None else math.sqrt(lo * hi))
    m = p["metrics"]
    out["w" + w] = {"true": lt, "rcp": lt / 100 * m["meanMpush"] / m["meanConstituents"],
                    "rdp": lt / 100 * m["meanMpush"] / m["meanSpansKept"], "devF1": 100 * m["f1"],
                    "onFrontier": p["onFrontier"], "lambdaRange": r}
json.dump(out, sys.stdout, indent=1)
print()
EOF
  cat "$RUNS/lambdas.json"
  ;;
pilot)
  for s in rdp rcp; do
    for q in 1e-3 1e-2 1e-1; do
      d=$RUNS/pilot-$s-q$q
      [ -f "$d/best.json" ] && [ "$(wc -l < "$d/log.jsonl")" -ge 4 ] && continue
      rm -rf "$d"
      $CLI lols $(common 3) --init "$B/baseline-w16.json" --surrogate $s --lambda "$(lambda 16 $s)" --q0-scale $q \
          --out "$d" > "$d.out" 2> "$d.err"
      echo "pilot $s q0-scale $q: $(tail -1 "$d.out")"
    done
  done
  ;;
train)
  for s in rdp rcp; do
    q=$(jq -r ".$s" "$RUNS/q0-scales.json")  # written by hand from the pilot's table (protocol rule)
    for w in $WEIGHTS; do
      d=$RUNS/w$w-$s
      [ -f "$d/log.jsonl" ] && [ "$(wc -l < "$d/log.jsonl")" -ge 11 ] && continue
      if [ -d "$d" ]; then
        $CLI lols --resume "$d" --iterations 10 --threads "$THREADS" >> "$d.out" 2>> "$d.err"
      else
        $CLI lols $(common 10) --init "$B/baseline-w$w.json" --surrogate $s --lambda "$(lambda $w $s)" --q0-scale "$q" \
            --out "$d" > "$d.out" 2> "$d.err"
      fi
      echo "w$w-$s: $(tail -1 "$d.out")"
    done
  done
  ;;
test)
  [ -f "$RUNS/test-done" ] && { echo "test was already run once ($RUNS/test-done)"; exit 1; }
  date -u > "$RUNS/test-started"
  for w in $WEIGHTS; do
    for s in rdp rcp; do
      $CLI compare --grammar $G --treebank "$DATA/test" --max-len 40 --baseline "$B/baseline-w$w.json" \
          --lols "$RUNS/w$w-$s/best.json" --lambda "$(lambda $w true)" --permutations 10000 --seed 1 --threads 1 \
          --json "$RUNS/compare-w$w-$s.json" | tee "$RUNS/compare-w$w-$s.out"
    done
  done
  $CLI eval --grammar $G --treebank "$DATA/test" --max-len 40 --threads 1 --json > "$RUNS/test-unpruned.json"
  for p in "$B"/baseline-w*.json; do
    $CLI eval --grammar $G --treebank "$DATA/test" --max-len 40 --threads 1 --policy "$p" --json \
        > "$RUNS/test-$(basename "$p")"
  done
  date -u > "$RUNS/test-done"
  ;;
*) echo "unknown phase $phase" >&2; exit 2 ;;
esac
