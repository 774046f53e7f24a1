#!/usr/bin/env bash
# Regenerates the screenshots of docs/user-guide.md from the bundled sample, rendering offscreen.
# Usage: scripts/screenshots.sh [build-dir]   (default: build; the GUI must be built)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-${BUILD_DIR:-build}}"
APP="$BUILD_DIR/app/prunescope"
export PRUNESCOPE_SAMPLES="${PRUNESCOPE_SAMPLES:-$PWD/samples}"
OUT=docs/screenshots
[[ -x "$APP" ]] || { echo "no $APP: build the GUI first (cmake --build $BUILD_DIR --target prunescope)" >&2; exit 1; }
mkdir -p "$OUT"
export QT_QPA_PLATFORM=offscreen
shot() { "$APP" --screenshot "$OUT/$1" "${@:2}" 2>/dev/null; }

shot overview.png --sentence 1
shot flip.png --sentence 4 --quantity inside --flip 1,5
shot step-by-step.png --sentence 3 --quantity inside --step 2 --flip 2,9
shot replay.png --sentence 3 --replay 50
shot parse-failed.png --sentence 4 --quantity inside --mask gold --flip 0,7
shot recall.png --sentence 4 --quantity recall
shot typed.png --typed "the old man saw a dog in the park ." --quantity constituents
# View ▸ Compare Masks (issue 18): the policy's mask against the current one after three flips.
shot compare-masks.png --sentence 4 --flip 0,3 --flip 1,3 --flip 3,5 --compare policy,current --size 1400x1000
# Issue 18: a 40-word dev sentence, presentation font, one large view.
shot explorer-40-words.png ../shared/data/ptb-sample/dev --length 40 --size 1600x1000 --presentation-font --layout predicted
shot explorer-40-words-chart.png ../shared/data/ptb-sample/dev --length 40 --size 1600x1000 --presentation-font --layout chart
# View ▸ Max-Rule Tree (issue 39): the sentence whose two decoders disagree, every span kept.
shot max-rule.png --sentence 7 --mask all --max-rule --layout all --size 1400x900
shot heatmap-cividis.png --sentence 2 --quantity inside --colormap cividis --widget heatmap --size 1100x760 --hover 3,8
# Randomized pruning: the chain on sentence 3 after 300 iterations.
"$APP" --screenshot-randomized "$OUT/randomized.png" --sentence 3 --iterations 300 2>/dev/null
# Frontier and regret views; needs samples/policies/frontier.json or FRONTIER_ARGS (docs/user-guide.md).
"$APP" --screenshot-frontier "$OUT" ${FRONTIER_ARGS:-} 2>/dev/null || echo "frontier screenshots skipped: no samples/policies/frontier.json (set FRONTIER_ARGS)" >&2
# Cube pruning explorer (issue 14): the bundled sample model and sentences, p-max at k = 2.
"$APP" --screenshot-cube "$OUT/cube-explorer.png" --sentence 3 --beam 2 --update pmax --tab 2 2>/dev/null || echo "cube explorer screenshot skipped: no samples/cube/model.json" >&2
# Dependency view (issue 12): the bundled samples/dep model and sentences; a flipped arc, then the
# model's max-marginal pass coloured by stage.
"$APP" --screenshot-dep "$OUT/dep-view.png" --sentence 5 --arc 0,7 --size 1400x980 2>/dev/null || echo "dependency view screenshot skipped: no samples/dep/model.json" >&2
"$APP" --screenshot-dep "$OUT/dep-stages.png" --sentence 5 --max-marginal-stage 0.35 --dep-coloring stage --widget matrix --size 1400x980 2>/dev/null || true
"$APP" --screenshot-dep-frontier "$OUT/dep-frontier.png" --frontier-input docs/figures/dep-frontier-test.json --size 1200x820 2>/dev/null || true
echo "screenshots written to $OUT/"
