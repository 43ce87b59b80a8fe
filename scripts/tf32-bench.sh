#!/usr/bin/env bash
# The tf32 benchmark: scripts/ab-bench.sh tf32 prepare [OLD_TOOL] | build | run [SECONDS].
exec "$(dirname "${BASH_SOURCE[0]}")/ab-bench.sh" tf32 "$@"
