#!/bin/sh
# t_fuzz_nodes.sh: t_fuzz.sh's schedules on 2 simulated nodes, half of a
# schedule's ranks a node, the profiler's clocks drifting apart (issue 49:
# the fuzzer runs clean on simulated nodes).
FUZZ_NODES=1
export FUZZ_NODES
exec sh "$top_srcdir/tests/integration/t_fuzz.sh"
