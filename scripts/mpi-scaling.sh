#!/usr/bin/env bash
# The MPI scaling table of docs/benchmarks.md ("LOLS on MPI ranks", issue 16): ROUNDS alternating
# runs of one LOLS run in each of CONFIGS (ranks x threads per rank; 1 rank = no mpirun), then
# min/median/max of the wall time and of log.jsonl's per-phase seconds of iterations >= 1, and the
# MPI traffic; checks that every configuration wrote the same policies.
# Needs a build with -DPRUNESCOPE_MPI=ON. Usage: bash scripts/mpi-scaling.sh [BUILD_DIR]
#   env: ROUNDS (3), CONFIGS ("1x1 2x1 1x2"), TRAIN_LIMIT (300), MINIBATCH (100), MAX_LEN (20),
#        DEV_LIMIT (50), ITERATIONS (2), OUT
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
CLI="$PWD/$BUILD/app/prunescope-cli"
DATA=${PRUNESCOPE_DATA_DIR:-$PWD/../shared/data}/ptb-sample
OUT=${OUT:-$(mktemp -d /tmp/prunescope-mpi-scaling.XXXX)}
ROUNDS=${ROUNDS:-3}
CONFIGS=${CONFIGS:-1x1 2x1 1x2}
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
ARGS=(lols --grammar samples/grammar.gram --init samples/policies/baseline-w16.json --lambda 0.002
      --train "$DATA/train" --dev "$DATA/dev" --max-len "${MAX_LEN:-20}" --max-train-sentences "${TRAIN_LIMIT:-300}"
      --max-dev-sentences "${DEV_LIMIT:-50}" --minibatch "${MINIBATCH:-100}" --iterations "${ITERATIONS:-2}" --quiet)
echo "== $(date -u '+%F %T UTC'); $(lscpu | grep 'Model name' | sed 's/  */ /g'); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== ${CLI#$PWD/} ${ARGS[*]}"
for r in $(seq 1 "$ROUNDS"); do
  for cfg in $CONFIGS; do
    ranks=${cfg%x*}; threads=${cfg#*x}; dir="$OUT/$cfg-$r"
    t0=$(date +%s.%N)
    if [ "$ranks" = 1 ]; then
      nice "$CLI" "${ARGS[@]}" --threads "$threads" --out "$dir" 2> "$dir.err"
    else
      nice mpirun -n "$ranks" "$CLI" "${ARGS[@]}" --threads "$threads" --out "$dir" 2> "$dir.err"
    fi
    t1=$(date +%s.%N)
    echo "$cfg $r $(echo "$t1 - $t0" | bc)" >> "$OUT/wall.txt"
  done
done
first=$(echo $CONFIGS | cut -d' ' -f1)
for d in "$OUT"/*-*/; do
  for f in "$OUT/$first-1"/policies/*.json; do
    cmp -s "$f" "$d/policies/$(basename "$f")" || { echo "== $d/policies/$(basename "$f") differs"; exit 1; }
  done
done
echo "== every run wrote the same policies"
python3 - "$OUT" $CONFIGS <<'PY'
import json, re, statistics, sys, glob, os
out = sys.argv[1]
wall = {}
for line in open(os.path.join(out, "wall.txt")):
    cfg, r, s = line.split()
    wall.setdefault(cfg, []).append(float(s))
def mmm(v):
    return "%.2f / %.2f / %.2f" % (min(v), statistics.median(v), max(v))
print("| ranks x threads | wall s (whole run) | rollouts s/iter | retraining s/iter | dev eval s/iter | iteration s | aggregate states | MPI bytes/iter (policy to each rank, rollouts gathered) |")
print("|---|---|---|---|---|---|---|---|")
for cfg in sys.argv[2:]:
    ph = {"rollouts": [], "training": [], "evaluation": [], "total": []}
    states, sent, got = [], [], []
    for d in sorted(glob.glob(os.path.join(out, cfg + "-*"))):
        if not os.path.isdir(d): continue
        for line in open(os.path.join(d, "log.jsonl")):
            j = json.loads(line)
            if j["iteration"] == 0: continue
            for k in ph: ph[k].append(j["seconds"][k])
            states.append(j["datasetStates"])
        for m in re.finditer(r"sent (\d+) bytes of policy to each rank, gathered (\d+) bytes", open(d + ".err").read()):
            sent.append(int(m.group(1))); got.append(int(m.group(2)))
    traffic = "%d, %d (mean)" % (statistics.mean(sent), statistics.mean(got)) if sent else "—"
    print("| %s | %s | %s | %s | %s | %s | %d | %s |" % (cfg.replace("x", " x "), mmm(wall[cfg]), mmm(ph["rollouts"]),
          mmm(ph["training"]), mmm(ph["evaluation"]), mmm(ph["total"]), max(states), traffic))
PY
echo "== run directories in $OUT"
