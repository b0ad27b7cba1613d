#!/usr/bin/env bash
# The in-place costs of the planner (bench/NOTES.md version 19, refuted): the sizes whose default plan in place
# differed from the one out of place (sizes.txt, largest first, the table's sizes left out), in place only, old (the
# plan out of place) against new, through the Z-line A/B script.
AB_DIR=bench/experiments/in-place-cost AB_MODES=in-place exec bash bench/experiments/z-line-cost/model_ab.sh "$@"
