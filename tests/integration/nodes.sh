# nodes.sh: simulated nodes for the integration tests (sourced; issue 49
# item 1). A cluster on this one machine, as root: each node is a network
# namespace with a veth into one bridge of the root namespace (TCP between
# nodes, shared memory within a node), and every process started on a node
# also gets the node's own host name (a UTS namespace), its own
# CLOCK_MONOTONIC (a time namespace, CLOCK_BOOTTIME offset the same) and
# its own /proc/sys/kernel/random/boot_id (bound over it in the node's
# mount namespace: UCX, under MPICH, takes two processes with one boot_id
# for one host and would join the nodes by shared memory). The TSC and
# CLOCK_REALTIME are not offset: one machine's. The MPI is launched as on
# a cluster: mpirun stays in the root namespace and starts its daemons
# (Open MPI's orted, Hydra's proxies) on the nodes through the rsh agent
# nodes-rsh.sh, which enters the node's namespaces with the environment of
# mpirun (as a cluster's shared home and login scripts give every node the
# same), plus the node's own NODES_ENV_I.
#
#   nodes_up N       N nodes node0..node(N-1), 1 <= N <= 253 (first
#                    nodes_down of those this shell had). Returns 0; 77 where
#                    the machine refuses (not root, no ip/unshare/flock, no
#                    network or time namespaces), the reason in $NODES_WHY;
#                    another status on an error (printed). Takes about
#                    1 s for 16 nodes, 2 s for 64.
#   nodes_up_or_skip N
#                    nodes_up, and on 77 one line "SKIP: ..." and exit 77.
#   nodes_mpirun K NP command...
#                    NP ranks, K per node (ranks 0..K-1 on node0, ...),
#                    with $MPIRUN of $MPI_FLAVOR (lib.sh's run lock,
#                    shared, and the "+ command" line on stderr as run()).
#                    Open MPI: a hostfile of the nodes' addresses with
#                    slots=K, --mca plm_rsh_agent the agent, no tree spawn,
#                    btl_tcp_if_include and oob_tcp_if_include the nodes'
#                    subnet, the MPI's defaults otherwise. MPICH: Hydra
#                    with -launcher ssh -launcher-exec the agent, -iface the
#                    bridge, a hosts file of ADDRESS:K. Extra mpirun
#                    arguments before the command: $NODES_MPIRUN_ARGS.
#                    Open MPI also gets --bind-to none unless NODES_BIND=mpi
#                    (see Binding below). A run that has not ended after
#                    $NODES_TIMEOUT seconds (default 300) is killed, with
#                    every process on the nodes, and returns 124, with one
#                    line on stderr.
#   nodes_launch     $MPIRUN and nodes_mpirun's arguments but the hosts
#                    and -np, one line: for mpiprof-calibrate --mpirun.
#   nodes_down       Kill what still runs on the nodes, delete them, the
#                    bridge and the slot. nodes_up makes the EXIT trap call
#                    it (then remove lib.sh's $work unless KEEP is set, as
#                    lib.sh's own trap does), so a test need not; a test
#                    that sets an EXIT trap of its own after nodes_up calls
#                    nodes_down in it.
#   nodes_name I, nodes_ip I, nodes_offset I
#                    node I's host name, address, clock offset (seconds,
#                    as applied: NODES_SHIFT included).
#   nodes_exec I command...
#                    run a command on node I, through the agent.
#   nodes_bytes I    the bytes node I's link has carried so far, both ways
#                    (its veth's counters): what went over the network.
#   nodes_rate RATE [I...]
#                    limit nodes I... (default all) to RATE (tc's units:
#                    100mbit, 1gbit) each way, with tc's tbf at both ends
#                    of their links (netem, for latency, is not in this
#                    kernel), with a bucket of NODES_BURST bytes (tc's
#                    units; default 64kb: a message that fits goes at the
#                    veth's speed after an idle time); RATE off lifts it.
#                    NODES_RATE set before nodes_up does it for every node.
#
# Variables. Set before nodes_up (NODES_RATE: see nodes_rate):
#   NODES_OFFSETS    the nodes' CLOCK_MONOTONIC offsets in seconds, one
#                    word per node (the last repeats for further nodes),
#                    negative ones too; default 37 + 1000 s x node. The
#                    kernel refuses a namespace whose clock would read
#                    below 0: where the lowest offset is below minus this
#                    machine's uptime, every offset is raised by the same
#                    whole number of seconds so that the differences
#                    between nodes, which are what a cluster has, stay as
#                    asked ($NODES_SHIFT says by how much).
# Set at any time (the agent reads them when mpirun launches):
#   NODES_TIMEOUT    seconds after which nodes_mpirun kills a run (300).
#   NODES_MPIRUN_ARGS, NODES_BIND: see nodes_mpirun.
#   NODES_ENV_I      "VAR=value ..." (values without blanks): added to the
#                    environment of everything started on node I, so that
#                    nodes can differ (MPIPROF_TEST_DRIFT per node). A
#                    variable that mpirun itself forwards (Hydra forwards
#                    its whole environment, Open MPI what -x names) wins
#                    over it: set it per node only.
# Set by nodes_up (exported: the agent needs them):
#   NODES_DIR        the slot's directory: "nodes" (one line per node:
#                    index name address offset namespace), hosts (the
#                    /etc/hosts of every node), hostfiles.
#   NODES_N, NODES_SLOT, NODES_SUBNET (10.77.SLOT.0/24), NODES_BRIDGE
#                    (its address 10.77.SLOT.254), NODES_AGENT (the
#                    agent's path), NODES_SHIFT.
#
# Names. Two tests may run at once (make -j2): each nodes_up takes a free
# slot S (0-63) under a lock, its own subnet 10.77.S.0/24, bridge mpnbrS,
# namespaces mpnS-nodeI, veths mpnSvI, so nothing collides; a slot whose
# owner (its PID and start time in NODES_DIR/owner) is gone without
# nodes_down is torn down by the next nodes_up. Host names are node0, node1, ... in every slot: they live in the
# nodes' own UTS namespaces. They resolve on the nodes (ip netns exec binds
# /etc/netns/NAMESPACE/hosts over /etc/hosts there); mpirun, in the root
# namespace, is given the nodes' addresses, never their names, so the
# machine's /etc/hosts is never written. The agent takes either.
#
# Binding. The nodes share this machine's cores, and each node's orted sees
# all of them: Open MPI's default binding (to a core when a job has at most
# 2 ranks) puts the one rank of node0 and the one rank of node1 both on
# core 0, where each busy-polls in turn, a scheduler slice (~4 ms here) a
# message (a 1-byte ping-pong between the nodes took 200 us or 4 ms one
# way; with --bind-to none 4.5 us). A cluster's nodes have cores of their
# own, so nodes_mpirun passes --bind-to none: no two nodes' ranks are tied
# to one core, as on a cluster; at 2 ranks a node Open MPI binds to the
# socket, which is the whole machine here, the same thing. NODES_BIND=mpi
# keeps Open MPI's own binding (reproduces the 4 ms). Hydra binds nothing.
# With more ranks than cores, Open MPI gets mpi_yield_when_idle, as it sets
# it itself on an oversubscribed node.
#
# Seen here. MPICH 4.0's ch4:ucx over TCP between the nodes now and then
# never returns from MPI_Finalize (one rank spinning in UCX progress, the
# other blocked in the PMI barrier): nodeinfo 1 run in 20 on a loaded
# machine, 3 to 7 in 20 under the profiler; a 2-rank program whose rank 1
# sends rank 0 1 KiB and whose rank 0 enters MPI_Finalize 300 ms after
# rank 1, 5 to 9 in 12 (with a barrier before MPI_Finalize 2 in 12;
# UCX_TLS=tcp,self or UCX_NET_DEVICES=eth0 do not help; on one node 0 in
# 12); hence NODES_TIMEOUT. Open MPI's rsh launcher now and then prints
# "plm:rsh: Warning: setpgid(...) failed in parent with errno=Permission
# denied(13)" on stderr: the agent had already started (the child sets its
# process group itself; harmless).
#
# By hand (as root, from a build tree): top_srcdir=... top_builddir=...
# MPIRUN=/usr/bin/mpirun.openmpi MPI_FLAVOR=openmpi, then
# . tests/integration/lib.sh; . tests/integration/nodes.sh; nodes_up 2;
# nodes_mpirun 1 2 hostname.

NODES_RUN=${NODES_RUN:-/run/mpiprof-nodes}
NODES_WHY=""
NODES_SLOT=""

nodes_name() { echo "node$1"; }
nodes_ip() { echo "10.77.$NODES_SLOT.$(($1 + 1))"; }
nodes_offset() { awk -v i="$1" '$1 == i { print $4 }' "$NODES_DIR/nodes"; }

# _nodes_ns S: slot S's namespaces.
_nodes_ns() {
    ip netns list 2> /dev/null | awk -v p="mpn$1-node" 'index($1, p) == 1 { print $1 }'
}

# _nodes_kill S: kill every process on slot S's nodes.
_nodes_kill() {
    local ns pids
    for ns in $(_nodes_ns "$1"); do
        pids=$(ip netns pids "$ns" 2> /dev/null)
        [ -n "$pids" ] && kill -KILL $pids 2> /dev/null
    done
}

# _nodes_teardown S: delete slot S's namespaces (and what runs in them,
# waited for up to 5 s: a namespace's file that a process still holds is
# not removed, and the next test given the slot could not make its node),
# veths (at once: a namespace's own go only when the kernel gets to it),
# bridge, /etc/netns entries and directory; quiet, whatever is left.
_nodes_teardown() {
    local s=$1 ns v i
    _nodes_kill "$s"
    for ns in $(_nodes_ns "$s"); do
        i=0
        while [ -n "$(ip netns pids "$ns" 2> /dev/null)" ] && [ $i -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        ip link del "mpn${s}v${ns#mpn$s-node}" 2> /dev/null
        ip netns del "$ns" 2> /dev/null
        rm -rf "/etc/netns/$ns"
    done
    for v in $(ip -o link show 2> /dev/null | awk -F': ' -v p="mpn${s}v" 'index($2, p) == 1 { sub(/@.*/, "", $2); print $2 }'); do
        ip link del "$v" 2> /dev/null
    done
    ip link del "mpnbr$s" 2> /dev/null
    rm -rf "${NODES_RUN:?}/$s"
}

# _nodes_id PID: the process's identity, "PID START" (its start time in
# ticks since boot, so a reused PID is another process); nothing when it
# is gone or a zombie (which kill -0 would call alive).
_nodes_id() {
    sed -n 's/^[0-9]* (.*) \([^ ]*\)\( [^ ]*\)\{18\} \([0-9]*\) .*/\1 \3/p' "/proc/$1/stat" 2> /dev/null |
        awk -v p="$1" '$1 != "Z" && $1 != "X" { print p, $2 }'
}

# _nodes_refused: 0 when this machine can make the nodes, else 77 with
# $NODES_WHY set.
_nodes_refused() {
    local c
    if [ "$(id -u)" -ne 0 ]; then NODES_WHY="simulated nodes need root (namespaces)"; return 77; fi
    for c in ip unshare flock awk; do
        command -v $c > /dev/null 2>&1 || { NODES_WHY="simulated nodes need $c"; return 77; }
    done
    if ! unshare --uts --time --fork --monotonic=1 true 2> /dev/null; then
        NODES_WHY="the kernel or unshare refuses time namespaces (unshare --time --monotonic)"
        return 77
    fi
    if ! ip netns add mpn-probe-$$ 2> /dev/null; then
        NODES_WHY="the kernel refuses network namespaces (ip netns add)"
        return 77
    fi
    ip netns del mpn-probe-$$
    return 0
}

# _nodes_claim: print a free slot number, taken for this shell ($$), after
# tearing down every slot whose owner is gone (a test killed before its
# trap ran), and the leftovers of one without a directory (killed while
# nodes_up made it).
_nodes_claim() {
    mkdir -p "$NODES_RUN" || return 1
    (
        flock 9 || exit 1
        bridges=" $(ip -o link show type bridge 2> /dev/null | awk -F': ' '{ sub(/@.*/, "", $2); printf "%s ", $2 }')"
        spaces=" $(ip netns list 2> /dev/null | awk '{ printf "%s ", $1 }')"
        took=""
        for s in $(seq 0 63); do
            if [ -d "$NODES_RUN/$s" ]; then
                # The owner as "PID START", or as "PID" (the first version).
                owner=$(cat "$NODES_RUN/$s/owner" 2> /dev/null)
                case $owner in
                *" "*) [ "$(_nodes_id "${owner%% *}")" = "$owner" ] && continue ;;
                ?*) [ -n "$(_nodes_id "$owner")" ] && continue ;;
                esac
                _nodes_teardown "$s"
            elif [ "${bridges#* mpnbr$s }" != "$bridges" ] || [ "${spaces#* mpn$s-node}" != "$spaces" ]; then
                _nodes_teardown "$s"
            fi
            [ -n "$took" ] && continue
            # a namespace of the slot that outlived its teardown: not free
            [ -z "$(_nodes_ns "$s")" ] || continue
            mkdir "$NODES_RUN/$s" && _nodes_id $$ > "$NODES_RUN/$s/owner" && took=$s
        done
        [ -n "$took" ] && echo "$took"
    ) 9> "$NODES_RUN/lock"
}

# nodes_up takes lib.sh's run lock alone (when sourced after lib.sh) while
# it makes the nodes' interfaces, and nodes_down while it deletes them: an
# interface that appears or vanishes fails an MPI that lists them as it
# starts (MPICH's UCX: "init_worker No such device"), and every other
# test's job runs under that lock shared.
_nodes_alone() {
    local st
    if [ -n "${lock:-}" ] && command -v flock > /dev/null 2>&1; then
        exec 8>> "$lock"
        flock -x 8
        "$@"
        st=$?
        flock -u 8
        exec 8>&-
        return $st
    fi
    "$@"
}

nodes_up() { _nodes_alone _nodes_up "$@"; }
nodes_down() { _nodes_alone _nodes_down; }

_nodes_up() {
    local n=$1 i s off min up lift ns ip
    _nodes_down
    case $n in
    '' | *[!0-9]*) n=0 ;;
    esac
    [ "$n" -ge 1 ] && [ "$n" -le 253 ] || { echo "nodes_up: N must be 1 to 253, not '$1'" >&2; return 2; }
    _nodes_refused || return $?
    s=$(_nodes_claim) || { echo "nodes_up: no free slot in $NODES_RUN" >&2; return 1; }
    NODES_SLOT=$s
    NODES_DIR=$NODES_RUN/$s
    NODES_N=$n
    NODES_SUBNET=10.77.$s.0/24
    NODES_BRIDGE=mpnbr$s
    NODES_AGENT=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/nodes-rsh.sh
    export NODES_DIR NODES_N NODES_SLOT NODES_SUBNET NODES_BRIDGE NODES_AGENT
    trap '_nodes_exit' EXIT
    trap 'exit 130' INT TERM HUP

    # Offsets: as asked, all raised alike if the lowest would take a
    # node's clock below 10 s.
    i=0
    : > "$NODES_DIR/offsets"
    set -- ${NODES_OFFSETS:-}
    while [ "$i" -lt "$n" ]; do
        if [ $# -gt 1 ]; then off=$1; shift; elif [ $# -eq 1 ]; then off=$1; else off=$((37 + 1000 * i)); fi
        echo "$off" >> "$NODES_DIR/offsets"
        i=$((i + 1))
    done
    up=$(awk '{ printf "%d", $1 }' /proc/uptime)
    min=$(sort -n "$NODES_DIR/offsets" | head -1)
    lift=0
    [ $((up + min)) -lt 10 ] && lift=$((10 - up - min))
    NODES_SHIFT=$lift
    export NODES_SHIFT

    {
        ip link add "$NODES_BRIDGE" type bridge &&
        ip addr add "10.77.$s.254/24" dev "$NODES_BRIDGE" &&
        ip link set "$NODES_BRIDGE" up
    } || { echo "nodes_up: cannot make bridge $NODES_BRIDGE" >&2; _nodes_down; return 1; }
    printf '127.0.0.1\tlocalhost\n' > "$NODES_DIR/hosts"
    i=0
    while [ "$i" -lt "$n" ]; do
        printf '%s\t%s\n' "$(nodes_ip $i)" "$(nodes_name $i)" >> "$NODES_DIR/hosts"
        i=$((i + 1))
    done
    : > "$NODES_DIR/nodes"
    i=0
    while [ "$i" -lt "$n" ]; do
        ns=mpn$s-node$i
        ip=$(nodes_ip $i)
        off=$(($(sed -n "$((i + 1))p" "$NODES_DIR/offsets") + lift))
        {
            ip netns add "$ns" &&
            ip link add "mpn${s}v$i" type veth peer name "mpn${s}p$i" &&
            ip link set "mpn${s}v$i" master "$NODES_BRIDGE" up &&
            ip link set "mpn${s}p$i" netns "$ns" &&
            ip -n "$ns" link set "mpn${s}p$i" name eth0 &&
            ip -n "$ns" addr add "$ip/24" dev eth0 &&
            ip -n "$ns" link set eth0 up &&
            ip -n "$ns" link set lo up &&
            mkdir -p "/etc/netns/$ns" && cp "$NODES_DIR/hosts" "/etc/netns/$ns/hosts"
        } || { echo "nodes_up: cannot make node $i ($ns)" >&2; _nodes_down; return 1; }
        cat /proc/sys/kernel/random/uuid > "$NODES_DIR/boot_id.$i"
        echo "$i $(nodes_name $i) $ip $off $ns" >> "$NODES_DIR/nodes"
        i=$((i + 1))
    done
    [ -z "${NODES_RATE:-}" ] || nodes_rate "$NODES_RATE" || { _nodes_down; return 1; }
    return 0
}

nodes_up_or_skip() {
    local st
    nodes_up "$@"
    st=$?
    [ $st -eq 77 ] && { echo "SKIP: $NODES_WHY"; exit 77; }
    [ $st -eq 0 ] || { echo "FAIL: nodes_up $*"; exit 99; }
}

nodes_exec() {
    local i=$1
    shift
    "$NODES_AGENT" "$(nodes_name "$i")" "$@"
}

nodes_bytes() {
    local d=/sys/class/net/mpn${NODES_SLOT}v$1/statistics
    echo $(($(cat "$d/rx_bytes") + $(cat "$d/tx_bytes")))
}

nodes_rate() {
    local rate=$1 i
    shift
    [ $# -gt 0 ] || set -- $(awk '{ print $1 }' "$NODES_DIR/nodes")
    for i in "$@"; do
        if [ "$rate" = off ]; then
            ip netns exec "mpn$NODES_SLOT-node$i" tc qdisc del dev eth0 root 2> /dev/null
            tc qdisc del dev "mpn${NODES_SLOT}v$i" root 2> /dev/null
        else
            ip netns exec "mpn$NODES_SLOT-node$i" tc qdisc replace dev eth0 root tbf rate "$rate" \
                burst "${NODES_BURST:-64kb}" latency 100ms &&
            tc qdisc replace dev "mpn${NODES_SLOT}v$i" root tbf rate "$rate" burst "${NODES_BURST:-64kb}" latency 100ms ||
                { echo "nodes_rate: tc refuses rate $rate on node $i" >&2; return 1; }
        fi
    done
}

_nodes_down() {
    [ -n "$NODES_SLOT" ] || return 0
    _nodes_teardown "$NODES_SLOT"
    NODES_SLOT=""
}

_nodes_exit() {
    nodes_down
    [ -n "${work:-}" ] && [ -z "${KEEP:-}" ] && rm -rf "$work"
}

# nodes_hostfile K: the MPI's host file for K ranks a node; prints its path.
nodes_hostfile() {
    local k=$1 f=$NODES_DIR/hosts.$MPI_FLAVOR.$1
    awk -v k="$k" -v fl="$MPI_FLAVOR" '{ print fl == "mpich" ? $3 ":" k : $3 " slots=" k }' "$NODES_DIR/nodes" > "$f"
    echo "$f"
}

nodes_mpirun() {
    local k=$1 np=$2 hf st
    shift 2
    hf=$(nodes_hostfile "$k")
    case $MPI_FLAVOR in
    mpich) set -- -f "$hf" -np "$np" ${NODES_MPIRUN_ARGS:-} "$@" ;;
    *)
        # More ranks than this machine has cores: the nodes share them, so
        # the machine is oversubscribed though no node is, and Open MPI,
        # which yields when idle only where it knows it is, is told so
        # (else its ranks poll each other off the cores, a scheduler slice a
        # message between nodes, as on one node it would not).
        [ "$np" -gt "$(nproc)" ] && set -- --mca mpi_yield_when_idle 1 "$@"
        set -- --hostfile "$hf" -np "$np" ${NODES_MPIRUN_ARGS:-} "$@" ;;
    esac
    # shellcheck disable=SC2046 # nodes_launch's words
    set -- $(nodes_launch) "$@"
    echo "+ $*" >&2
    set -- timeout -k 10 "${NODES_TIMEOUT:-300}" "$@"
    if command -v with_lock > /dev/null 2>&1; then
        with_lock -s "$@"
    else
        "$@"
    fi
    st=$?
    if [ $st -eq 124 ]; then
        echo "nodes_mpirun: no end after ${NODES_TIMEOUT:-300} s, killed with what ran on the nodes" >&2
        _nodes_kill "$NODES_SLOT"
    fi
    return $st
}

# nodes_launch: $MPIRUN and the arguments that start ranks on the nodes,
# one line of words, as nodes_mpirun gives every run but the hosts and
# -np: for a command that takes an mpirun and names the hosts itself
# (mpiprof-calibrate --mpirun "$(nodes_launch)" --hosts ADDRESS,ADDRESS).
nodes_launch() {
    case $MPI_FLAVOR in
    mpich) echo "$MPIRUN -launcher ssh -launcher-exec $NODES_AGENT -iface $NODES_BRIDGE" ;;
    *)
        echo "$MPIRUN$([ "${NODES_BIND:-none}" = mpi ] || echo " --bind-to none") --mca plm_rsh_agent $NODES_AGENT" \
            "--mca plm_rsh_no_tree_spawn 1 --mca btl_tcp_if_include $NODES_SUBNET --mca oob_tcp_if_include $NODES_SUBNET" ;;
    esac
}
