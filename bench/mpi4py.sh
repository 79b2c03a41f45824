# bench/mpi4py.sh: mpi4py_python FLAVOR prints the first python3
# (/usr/bin/python3, $PYTHON, then python3 on the PATH) whose mpi4py is
# built for FLAVOR (openmpi or mpich), and sets mpi4py_module to that
# mpi4py's MPI module; returns 1 when there is none. Sourced by
# bench/python-overhead.sh and tests/integration/t_python.sh.
mpi4py_python() {
    local p
    for p in /usr/bin/python3 "${PYTHON:-}" python3; do
        [ -n "$p" ] || continue
        mpi4py_module=$("$p" -c 'import glob, mpi4py; print(glob.glob(mpi4py.__path__[0] + "/MPI.*.so")[0])' \
            2> /dev/null) || continue
        case "$1:$(ldd "$mpi4py_module")" in
            mpich:*libmpich*|openmpi:*libmpi.so*) echo "$p"; return 0 ;;
        esac
    done
    return 1
}
