#!/bin/sh
# nodes-mpirun.sh K -n|-np NP command...: nodes_mpirun (nodes.sh) as a
# command, for what takes an mpirun command (mpiprof-validate --mpirun
# "nodes-mpirun.sh K", mpiprof-calibrate --mpirun "nodes-mpirun.sh K"): NP
# ranks, K a node, on the simulated nodes a test made with nodes_up (their
# NODES_* variables in the environment).
slot=${NODES_SLOT:?no simulated nodes: run nodes_up first}
. "$(dirname "$0")/nodes.sh"
NODES_SLOT=$slot
k=$1
case $2 in -n | -np) ;; *) echo "usage: nodes-mpirun.sh K -n|-np NP command..." >&2; exit 2 ;; esac
np=$3
shift 3
nodes_mpirun "$k" "$np" "$@"
