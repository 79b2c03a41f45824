#!/bin/sh
# nodes-rsh.sh: the rsh agent of the simulated nodes (nodes.sh), called as
# ssh is by Open MPI's plm_rsh_agent and MPICH Hydra's ssh launcher:
#
#   nodes-rsh.sh [ssh options] HOST COMMAND...
#
# HOST is a node of $NODES_DIR/nodes, by name (node1) or address. COMMAND
# runs, as ssh runs it, by a shell given its words joined by blanks, inside
# the node: its network namespace (ip netns exec, which also binds the
# node's /etc/hosts), a new UTS namespace with the node's host name and a
# new time namespace with the node's CLOCK_MONOTONIC (and CLOCK_BOOTTIME)
# offset. The environment is this process's (mpirun's), plus the words of
# $NODES_ENV_I (I the node's index), as a cluster's login shell would give
# every node its own settings. ssh options are accepted and ignored.
me=nodes-rsh.sh
[ -n "${NODES_DIR:-}" ] && [ -r "$NODES_DIR/nodes" ] ||
    { echo "$me: no nodes (NODES_DIR unset or without a nodes file: run nodes_up first)" >&2; exit 255; }

# ssh's options; those of them that take an argument skip it too.
while [ $# -gt 0 ]; do
    case $1 in
    --) shift; break ;;
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
    -*) shift ;;
    *) break ;;
    esac
done
[ $# -ge 2 ] || { echo "usage: $me [ssh options] HOST COMMAND..." >&2; exit 255; }
host=$1
shift

line=$(awk -v h="$host" '$2 == h || $3 == h' "$NODES_DIR/nodes")
[ -n "$line" ] || { echo "$me: $host is not a node of $NODES_DIR/nodes" >&2; exit 255; }
set -- $line "$*"
index=$1 name=$2 offset=$4 ns=$5 cmd=$6

eval "extra=\${NODES_ENV_$index:-}"
# shellcheck disable=SC2086
exec env $extra ip netns exec "$ns" \
    unshare --uts --time --fork --monotonic="$offset" --boottime="$offset" \
    sh -c 'echo "$1" > /proc/sys/kernel/hostname && mount --bind "$2" /proc/sys/kernel/random/boot_id &&
        exec sh -c "$3"' "$me" "$name" "$NODES_DIR/boot_id.$index" "$cmd"
