/* pylayout.c: libprof/core/python_layout.h against the CPython headers it
 * was read off (t_python.sh builds this with the include directory of the
 * python3 that runs mpi4py): every offset, the str state's bit fields and
 * the generator owner's value. Exits 0 when they all agree, 1 naming each
 * difference, 2 when the headers' release is not in the table. */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <stdio.h>
#include <string.h>
#include "internal/pycore_code.h"
#include "internal/pycore_frame.h"
#include "python_layout.h"

static int bad;

static void same(const char *what, size_t table, size_t header)
{
    if (table != header) {
        printf("%s: %zu in python_layout.h, %zu in the headers\n", what, table, header);
        bad = 1;
    }
}

int main(void)
{
    const struct prof_py_layout *l = NULL;
    for (size_t i = 0; i < sizeof prof_py_layouts / sizeof *prof_py_layouts; i++)
        if (prof_py_layouts[i].version == PY_VERSION_HEX >> 16)
            l = &prof_py_layouts[i];
    if (!l) {
        printf("CPython %s is not in python_layout.h\n", PY_VERSION);
        return 2;
    }
    same("PyThreadState.cframe", l->ts_cframe, offsetof(PyThreadState, cframe));
    same("_PyCFrame.current_frame", l->cframe_frame, offsetof(_PyCFrame, current_frame));
    same("_PyInterpreterFrame.f_code", l->fr_code, offsetof(_PyInterpreterFrame, f_code));
    same("_PyInterpreterFrame.previous", l->fr_previous, offsetof(_PyInterpreterFrame, previous));
    same("_PyInterpreterFrame.prev_instr", l->fr_instr, offsetof(_PyInterpreterFrame, prev_instr));
    same("_PyInterpreterFrame.owner", l->fr_owner, offsetof(_PyInterpreterFrame, owner));
    same("FRAME_OWNED_BY_GENERATOR", (size_t)l->owned_by_generator, FRAME_OWNED_BY_GENERATOR);
    same("PyCodeObject.co_code_adaptive", l->co_code, offsetof(PyCodeObject, co_code_adaptive));
    same("PyCodeObject._co_firsttraceable", l->co_firsttraceable, offsetof(PyCodeObject, _co_firsttraceable));
    same("PyCodeObject.co_filename", l->co_filename, offsetof(PyCodeObject, co_filename));
    same("PyCodeObject.co_qualname", l->co_qualname, offsetof(PyCodeObject, co_qualname));
    same("PyASCIIObject.length", l->str_length, offsetof(PyASCIIObject, length));
    same("PyASCIIObject.state", l->str_state, offsetof(PyASCIIObject, state));
    same("sizeof(PyASCIIObject)", l->ascii_data, sizeof(PyASCIIObject));
    same("sizeof(PyCompactUnicodeObject)", l->compact_data, sizeof(PyCompactUnicodeObject));
    PyASCIIObject o;
    unsigned state;
    memset(&o, 0, sizeof o);
    o.state.kind = PyUnicode_4BYTE_KIND;
    o.state.compact = 1;
    o.state.ascii = 1;
    memcpy(&state, (const char *)&o + offsetof(PyASCIIObject, state), sizeof state);
    same("str state bits (kind 4, compact, ascii)", state,
         (PyUnicode_4BYTE_KIND << l->kind_shift) | (1u << l->compact_bit) | (1u << l->ascii_bit));
    if (!bad)
        printf("python_layout.h agrees with the headers of CPython %s\n", PY_VERSION);
    return bad;
}
