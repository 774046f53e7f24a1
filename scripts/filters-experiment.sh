#!/usr/bin/env bash
# Arc filters (Cherry & Bergsma 2011), issue 13: the experiment of docs/results.md.
#   bash scripts/filters-experiment.sh train   # dependency models and both filters (train, chosen on dev)
#   bash scripts/filters-experiment.sh dev     # every number on dev
#   bash scripts/filters-experiment.sh test    # run ONCE, after the protocol is committed
# Outputs go to $RUNS (default build/filters-runs); figures to docs/figures/.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-build/app/prunescope-cli}
DATA=${DATA:-../shared/data/dep-sample}
RUNS=${RUNS:-build/filters-runs}
mkdir -p "$RUNS"
N="nice -n 10"
phase=${1:?train, dev or test}

if [ "$phase" = train ]; then
  [ -f "$RUNS/filter-independent.json" ] || $N $CLI filter-train --kind independent --train "$DATA/train" --dev "$DATA/dev" \
      --out "$RUNS/filter-independent.json" | tee "$RUNS/filter-independent.log"
  # the joint filter starts from the same token-role SVMs (identical data and costs), not retrained
  [ -f "$RUNS/filter-joint.json" ] || $N $CLI filter-train --kind joint --train "$DATA/train" --dev "$DATA/dev" \
      --init "$RUNS/filter-independent.json" --alternations 4 --solver-iterations 25 --out "$RUNS/filter-joint.json" \
      | tee "$RUNS/filter-joint.log"
  # compute budget on the shared machine (load 8-10 on 2 cores): order 1 at most 4 epochs, order 2 at most 2
  for o in 1 2; do
    e=$((o == 1 ? 4 : 2))
    [ -f "$RUNS/dep-o$o.json" ] || $N $CLI dep-train --train "$DATA/train" --dev "$DATA/dev" --order $o --learner mira \
        --epochs $e --patience 1 --out "$RUNS/dep-o$o.json" | tee "$RUNS/dep-o$o.log"
  done
  exit 0
fi

split=$phase  # dev or test
for k in independent joint; do
  $N $CLI filter-eval --filter "$RUNS/filter-$k.json" --treebank "$DATA/$split" --coverage 0.995 --curve --per-sentence --json \
      --quiet > "$RUNS/filter-eval-$k-$split.json"
done
$N $CLI filter-compare --pair "$RUNS/filter-joint.json,$RUNS/filter-independent.json" --treebank "$DATA/$split" \
    --permutations 10000 --quiet > "$RUNS/filter-compare-$split.json"
$N $CLI filter-plot --filter "independent=$RUNS/filter-independent.json" --filter "joint=$RUNS/filter-joint.json" \
    --treebank "$DATA/$split" --out "docs/figures/filters-curve-$split.svg" \
    --title "Arc filters on $split: coverage vs reduction over the threshold" --quiet
evals=()
for o in 1 2; do
  for f in none independent joint; do
    args=()
    [ "$f" = none ] || args=(--filter "$RUNS/filter-$f.json")
    $N $CLI dep-eval --model "$RUNS/dep-o$o.json" --treebank "$DATA/$split" "${args[@]}" --json --per-sentence --quiet \
        > "$RUNS/dep-eval-o$o-$f-$split.json"
    evals+=(--eval "o$o-$f=$RUNS/dep-eval-o$o-$f-$split.json")
  done
done
$CLI filter-frontier "${evals[@]}" --out "docs/figures/filters-frontier-$split.svg" \
    --title "Dependency parsing on $split: exhaustive vs filtered (UAS vs tokens/s)"
python3 - "$RUNS" "$split" <<'PY'
import json, sys
runs, split = sys.argv[1], sys.argv[2]
for k in ("independent", "joint"):
    j = json.load(open(f"{runs}/filter-eval-{k}-{split}.json"))
    print(f"{k:12s} threshold {j['threshold']!s:>10}  coverage {100*j['coverage']:.2f}  reduction {100*j['reduction']:.2f}"
          f"  (oracle@99.5: cov {100*j['atCoverage']['coverage']:.2f} red {100*j['atCoverage']['reduction']:.2f})")
c = json.load(open(f"{runs}/filter-compare-{split}.json"))["comparisons"][0]
print(f"joint vs independent: reduction {100*c['reductionA']:.2f} vs {100*c['reductionB']:.2f} "
      f"(relative {100*c['relativeReductionGain']:+.1f} %), p {c['pReduction']:.4g} (Holm {c['pReductionHolm']:.4g}); "
      f"coverage {100*c['coverageA']:.2f} vs {100*c['coverageB']:.2f}, p {c['pCoverage']:.4g} (Holm {c['pCoverageHolm']:.4g})")
for o in (1, 2):
    for f in ("none", "independent", "joint"):
        j = json.load(open(f"{runs}/dep-eval-o{o}-{f}-{split}.json"))
        print(f"order {o} filter {f:12s} UAS {j['uas']:.2f}  tokens/s {j['tokensPerSecond']:.0f}  "
              f"arcs kept {100*j['finalArcsFraction']:.1f} %  fallbacks {j['fallbacks']}")
PY
# UAS behind each filter vs exhaustive, same order: paired permutation over sentences of the
# correct heads (all tokens, punctuation included: the per-sentence heads are compared with gold),
# Holm over the 4 comparisons.
python3 - "$RUNS" "$split" "$DATA/$split" <<'PY'
import glob, json, random, sys
runs, split, gold_dir = sys.argv[1:4]
gold = []
for f in sorted(glob.glob(gold_dir + "/*.dp")):
    cur = []
    for line in open(f):
        line = line.rstrip("\n")
        if not line.strip():
            if cur: gold.append(cur); cur = []
            continue
        cur.append(int(line.split("\t")[2]))
    if cur: gold.append(cur)
def correct(path):
    per = json.load(open(path))["perSentence"]
    assert len(per) == len(gold), (len(per), len(gold))
    return [sum(1 for h, g in zip(p["heads"][1:], g) if h == g) for p, g in zip(per, gold)]
tokens = sum(len(g) for g in gold)
rows, ps = [], []
for o in (1, 2):
    base = correct(f"{runs}/dep-eval-o{o}-none-{split}.json")
    for f in ("independent", "joint"):
        other = correct(f"{runs}/dep-eval-o{o}-{f}-{split}.json")
        d = [a - b for a, b in zip(other, base)]
        obs = abs(sum(d)); rng = random.Random(1); ge = 0; R = 10000
        for _ in range(R):
            if abs(sum(x if rng.random() < 0.5 else -x for x in d)) >= obs: ge += 1
        p = (1 + ge) / (1 + R)
        rows.append((o, f, 100 * sum(other) / tokens, 100 * sum(base) / tokens, p)); ps.append(p)
order = sorted(range(len(ps)), key=lambda i: ps[i]); adj = [0] * len(ps); run = 0
for r, i in enumerate(order):
    run = max(run, min(1, (len(ps) - r) * ps[i])); adj[i] = run
for (o, f, a, b, p), h in zip(rows, adj):
    print(f"order {o} {f:12s} UAS(all tokens) {a:.2f} vs exhaustive {b:.2f}  p {p:.4g}  Holm {h:.4g}")
PY
