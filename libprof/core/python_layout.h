/* python_layout.h: where CPython keeps what python.c reads of a thread's
 * Python frames without the GIL, for each CPython release python.c knows:
 * byte offsets into its own structures, read off its headers (LP64).
 * tests/integration/pylayout.c checks them against the installed headers
 * with offsetof. A release not listed gets C call sites, as before. */
#ifndef PROF_PYTHON_LAYOUT_H
#define PROF_PYTHON_LAYOUT_H

#include <stddef.h>

struct prof_py_layout {
    unsigned long version;     /* PY_VERSION_HEX >> 16: 0x030b for 3.11 */
    /* PyThreadState.cframe, _PyCFrame.current_frame */
    size_t ts_cframe, cframe_frame;
    /* _PyInterpreterFrame: f_code, previous, prev_instr, owner (char) */
    size_t fr_code, fr_previous, fr_instr, fr_owner;
    int owned_by_generator;    /* enum _frameowner: a generator's frame is never incomplete */
    /* PyCodeObject: co_code_adaptive (the code units), _co_firsttraceable
     * (int, code units), co_filename, co_qualname (str) */
    size_t co_code, co_firsttraceable, co_filename, co_qualname;
    /* str (PEP 393): PyASCIIObject.length, .state (unsigned int: its kind,
     * compact and ascii bit fields), sizeof(PyASCIIObject) where compact
     * ASCII data starts, sizeof(PyCompactUnicodeObject) where other compact
     * data starts */
    size_t str_length, str_state, ascii_data, compact_data;
    unsigned kind_shift, compact_bit, ascii_bit;
};

static const struct prof_py_layout prof_py_layouts[] = {
    { .version = 0x030b,
      .ts_cframe = 56, .cframe_frame = 8,
      .fr_code = 32, .fr_previous = 48, .fr_instr = 56, .fr_owner = 69, .owned_by_generator = 1,
      .co_code = 184, .co_firsttraceable = 168, .co_filename = 112, .co_qualname = 128,
      .str_length = 16, .str_state = 32, .ascii_data = 48, .compact_data = 72,
      .kind_shift = 2, .compact_bit = 5, .ascii_bit = 6 },
};

#endif
