/* python.h: call sites in Python code, for a program run by CPython (an
 * mpi4py program). A call whose site is in the interpreter or a Python
 * extension module (mpi4py's MPI module) is named by the Python frames of
 * the calling thread, innermost first, function@file.py:line; the frames
 * of mpi4py's own Python modules and of frozen modules are left out. Each
 * (code, instruction) is named once, the first time a call comes from it,
 * into an entry the profiler keeps to the end: its address stands for the
 * frame in the call records, as a return address does for C. */
#ifndef PROF_PYTHON_H
#define PROF_PYTHON_H

#include <stdbool.h>
#include <stdint.h>

/* The process runs a CPython whose frames python.c can read (set at
 * MPI_Init by prof_python_start). */
extern bool prof_python_on;

/* prof_python_start: at MPI_Init, before the first call site is looked
 * up: finds the interpreter in the process (cold). A CPython release
 * python_layout.h does not list is said once, by rank 0. */
void prof_python_start(void);

/* The file name patterns of the modules that run Python code besides the
 * interpreter (extension modules, libffi for ctypes): a call from them is
 * named by the Python frames (via.c matches them as it does MPIPROF_VIA). */
#define PROF_PYTHON_MODULES "*.cpython-*.so,*.abi3.so,libffi.so*"

/* prof_python_interpreter: an address inside the interpreter's code, 0
 * when prof_python_on is false. */
uintptr_t prof_python_interpreter(void);

/* prof_python_capture: the calling thread's Python frames into out, up to
 * depth, innermost first; how many (0: no Python frame, e.g. a thread
 * Python does not know). Needs no GIL: the thread is inside an MPI call,
 * so its frames stay as they are. */
uint32_t prof_python_capture(void **out, uint32_t depth);

/* prof_python_frame: a frame prof_python_capture returned: its function
 * (qualified name), file (base name) and line; false for any other
 * address (report/symbolize.c, cold). */
bool prof_python_frame(const void *frame, const char **func, const char **file, int *line);

/* prof_python_stop: at the end of MPI_Finalize, after the report: frees
 * the entries. */
void prof_python_stop(void);

#endif
