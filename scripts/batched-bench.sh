#!/usr/bin/env bash
# The batched benchmark: scripts/ab-bench.sh batched prepare [OLD_TOOL] | build | run [SECONDS].
exec "$(dirname "${BASH_SOURCE[0]}")/ab-bench.sh" batched "$@"
