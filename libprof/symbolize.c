/* symbolize.c: addresses -> module+offset, function, file:line (cold:
 * finalize, once per distinct address). dladdr gives the module and the
 * exported symbols; libdw, when configured, adds static functions and
 * file:line from debug information. */
#define _GNU_SOURCE            /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "symbolize.h"
#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void copy(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src) < size - 1 ? strlen(src) : size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    for (char *p = dst; *p; p++)   /* report fields never hold spaces */
        if (*p == ' ' || *p == '\t')
            *p = '_';
}

#ifdef HAVE_LIBDW
static Dwfl *dwfl;

/* Only debug information inside the module itself (a program built with
 * -g): separate debug files of system libraries (libc6-dbg) cost tens of ms
 * per rank to load, and debuginfod would go to the network. */
static int no_separate_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
                                 const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
                                 char **debuginfo_file_name)
{
    (void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
    (void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
    return -1;
}

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = no_separate_debuginfo,
};
#endif

void prof_symbolize_begin(void)
{
#ifdef HAVE_LIBDW
    dwfl = dwfl_begin(&callbacks);
    if (dwfl && (dwfl_linux_proc_report(dwfl, getpid()) != 0 || dwfl_report_end(dwfl, NULL, NULL) != 0)) {
        dwfl_end(dwfl);
        dwfl = NULL;
    }
#endif
}

void prof_symbolize_end(void)
{
#ifdef HAVE_LIBDW
    if (dwfl)
        dwfl_end(dwfl);
    dwfl = NULL;
#endif
}

void prof_symbolize(void *addr, struct prof_frame_info *out)
{
    uintptr_t a = (uintptr_t)addr;
    Dl_info dl;
    memset(out, 0, sizeof *out);
    strcpy(out->module, "?");
    out->offset = a;
    if (dladdr(addr, &dl) && dl.dli_fname) {
        copy(out->module, sizeof out->module, dl.dli_fname[0] ? base_name(dl.dli_fname) : "?");
        out->offset = a - (uintptr_t)dl.dli_fbase;
        if (dl.dli_sname) {
            copy(out->func, sizeof out->func, dl.dli_sname);
            out->func[strcspn(out->func, "@")] = '\0';
        }
    }
#ifdef HAVE_LIBDW
    /* The call instruction is just before the return address. */
    Dwarf_Addr pc = (Dwarf_Addr)a - 1;
    Dwfl_Module *m = dwfl ? dwfl_addrmodule(dwfl, pc) : NULL;
    if (!m)
        return;
    Dwarf_Addr start;
    const char *mname = dwfl_module_info(m, NULL, &start, NULL, NULL, NULL, NULL, NULL);
    if (mname && strcmp(out->module, "?") == 0) {
        copy(out->module, sizeof out->module, base_name(mname));
        out->offset = a - start;
    }
    const char *fname = dwfl_module_addrname(m, pc);
    if (fname) {
        copy(out->func, sizeof out->func, fname);
        out->func[strcspn(out->func, "@")] = '\0';   /* symbol versions: '@' separates fields */
    }
    Dwfl_Line *line = dwfl_module_getsrc(m, pc);
    int lineno = 0;
    const char *file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (file && lineno > 0) {
        copy(out->file, sizeof out->file, base_name(file));
        out->line = lineno;
    }
#endif
}

void prof_frame_text(const struct prof_frame_info *fi, char *buf, unsigned size)
{
    if (fi->func[0] && fi->file[0])
        snprintf(buf, size, "%s@%s:%d", fi->func, fi->file, fi->line);
    else if (fi->func[0])
        snprintf(buf, size, "%s@%s+0x%llx", fi->func, fi->module, (unsigned long long)fi->offset);
    else
        snprintf(buf, size, "%s+0x%llx", fi->module, (unsigned long long)fi->offset);
}
