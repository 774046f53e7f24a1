#!/usr/bin/env bash
# Arc filters: filter time and parse speed on test, 3 alternating passes (docs/benchmarks.md "Arc filters").
cd /work/wt-filters
CLI=build/app/prunescope-cli; D=../shared/data/dep-sample; R=build/filters-runs
for pass in 1 2 3; do
  for k in independent joint; do
    nice -n 10 $CLI filter-eval --filter $R/filter-$k.json --treebank $D/test --json --quiet | python3 -c "import json,sys; j=json.load(sys.stdin); print('filter $k pass $pass', j['filterSeconds'], j['sentences'])"
  done
  for o in 1 2; do for f in none independent joint; do
    a=(); [ $f = none ] || a=(--filter $R/filter-$f.json)
    nice -n 10 $CLI dep-eval --model $R/dep-o$o.json --treebank $D/test "${a[@]}" --json --quiet | python3 -c "import json,sys; j=json.load(sys.stdin); print('parse o$o $f pass $pass', j['tokensPerSecond'], j['uas'], j['cpuSeconds'], j['tokens'])"
  done; done
done
