#!/usr/bin/env bash
# LOLS at full budget vs the dev-chosen baselines (issue 16): the protocol of docs/results.md,
# "LOLS at full budget". Phases, in order:
#   bash scripts/lols-full-experiment.sh baselines   # the baseline sweep at the dev-chosen l2 (dev only)
#   bash scripts/lols-full-experiment.sh lambdas     # true and surrogate lambdas from B/frontier.json (dev only)
#   bash scripts/lols-full-experiment.sh pilot       # the Q0-scale pilot (dev only)
#   bash scripts/lols-full-experiment.sh train       # the 8 LOLS runs at the pilot's scales (dev only)
#   bash scripts/lols-full-experiment.sh test        # run ONCE, after the protocol and the dev phase are committed
#   bash scripts/lols-full-experiment.sh report      # the tables of docs/results.md and the learning-curve figures
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
phase=${1:?baselines, lambdas, pilot, train, test or report}

# The settings every LOLS run shares (protocol: "Budget", "Early stopping").
common() {
  echo --grammar $G --train "$DATA/train" --dev "$DATA/dev" --max-len 40 --minibatch 2692 --iterations "$1" \
       --max-dev-sentences 0 --seed 1 --threads "$THREADS" --lbfgs-max-iterations-after-first 5
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
report)
  # The Fig. 3 table with Holm-adjusted p-values, the headline pairs and the learning curves.
  $CLI lols-plot "$RUNS"/w{8,16,32,64}-rdp "$RUNS"/w{8,16,32,64}-rcp --out docs/figures/lols-full-curves-dev.svg
  $CLI lols-plot "$RUNS"/w{8,16,32,64}-rdp "$RUNS"/w{8,16,32,64}-rcp --quantity f1 --out docs/figures/lols-full-f1-dev.svg
  python3 - "$RUNS" "$WEIGHTS" <<'EOF'
import json, math, sys
runs, weights = sys.argv[1], sys.argv[2].split()
rows = []
for w in weights:
    for s in ("rdp", "rcp"):
        c = json.load(open(f"{runs}/compare-w{w}-{s}.json"))
        log = [json.loads(l) for l in open(f"{runs}/w{w}-{s}/log.jsonl")]
        best = max((r for r in log if r.get("best")), key=lambda r: r["iteration"])
        rows.append(dict(w=w, s=s, c=c, best=best["iteration"], devGain=best["dev"]["reward"] - log[0]["dev"]["reward"]))
# Holm (1979) step-down, as core/util/Holm
order = sorted(range(len(rows)), key=lambda i: rows[i]["c"]["pValue"])
m, running = len(rows), 0.0
for rank, i in enumerate(order):
    running = max(running, min(1.0, (m - rank) * rows[i]["c"]["pValue"]))
    rows[i]["holm"] = running
un = json.load(open(f"{runs}/test-unpruned.json"))
base = []
for p in sorted(__import__("glob").glob(f"{runs}/test-baseline-w*.json")):
    j = json.load(open(p)); base.append((j["meanMpush"], 100 * j["f1"], p.split("test-")[1][:-5]))
base.sort()
def baselineF1At(mpush):  # linear in log mpush between neighbouring baseline test points
    for (x0, y0, _), (x1, y1, _) in zip(base, base[1:]):
        if x0 <= mpush <= x1:
            t = (math.log(mpush) - math.log(x0)) / (math.log(x1) - math.log(x0)); return y0 + t * (y1 - y0)
    return float("nan")
print("| baseline | λ (true) | surrogate | best iter | base F1 | mpush | kw/s | reward | LOLS F1 | mpush | kw/s | reward | Δreward | p | p (Holm) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    c, a, b = r["c"], r["c"]["baseline"], r["c"]["lols"]
    sig = r["holm"] < 0.05
    d = c["rewardDifference"]
    print(f"| w{r['w']} | {c['lambda']:.4g} | {r['s'][1:].upper().join(['r',''])} | {r['best']} | {a['f1']:.2f} | {a['mpush']:.5f} | {a['wordsPerSecond']/1000:.1f} | {a['reward']:.2f} | {b['f1']:.2f} | {b['mpush']:.5f} | {b['wordsPerSecond']/1000:.1f} | {b['reward']:.2f} | "
          + (f"**{d:+.2f}**" if sig else f"{d:+.2f}") + f" | {c['pValue']:.4f} | " + (f"**{r['holm']:.4f}**" if sig else f"{r['holm']:.4f}") + " |")
print()
print(f"Unpruned on test: F1 {100*un['f1']:.2f}, mpush {un['meanMpush']:.4f}, {un['wordsPerSecond']/1000:.2f} kw/s.")
print()
print("| LOLS policy | LOLS F1 | pushes speed-up | words/s speed-up | baseline F1 at the same pushes speed-up | LOLS − baseline F1 |")
print("|---|---|---|---|---|---|")
for r in rows:
    b = r["c"]["lols"]
    bf = baselineF1At(b["mpush"])
    print(f"| w{r['w']}-{r['s']} | {b['f1']:.2f} | {un['meanMpush']/b['mpush']:.1f}× | {b['wordsPerSecond']/un['wordsPerSecond']:.1f}× | {bf:.2f} | {b['f1']-bf:+.2f} |")
print()
print("Baseline sweep on test (mpush, F1):", ", ".join(f"{n} {x:.5f} {y:.2f}" for x, y, n in base))
EOF
  ;;
*) echo "unknown phase $phase" >&2; exit 2 ;;
esac
