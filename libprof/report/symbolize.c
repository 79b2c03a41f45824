/* symbolize.c: addresses -> module key and offset (the loaded modules'
 * segments from dl_iterate_phdr, keyed by ELF build-id), function,
 * file:line (cold: finalize). dladdr gives the exported symbols; libdw, when
 * configured, adds static functions, file:line and the functions inlined
 * at the address from debug information. C++ names are demangled with the
 * C++ runtime's own __cxa_demangle when the process has one. A Python
 * frame (python.h) is named by python.c. */
#define _GNU_SOURCE            /* dladdr, dl_iterate_phdr */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "python.h"
#include "ranges.h"
#include "symbolize.h"
#ifdef HAVE_LIBDW
#include <dwarf.h>
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

/* --- the loaded modules ---------------------------------------------------- */

struct module {
    uintptr_t base;        /* load address: offsets are from here */
    uint64_t key;
    char name[256];        /* basename */
};

static struct {
    struct module *mods;
    struct prof_range *segs;  /* each PT_LOAD of a module, tag: the module */
    int nmods, nsegs, cap_mods, cap_segs, failed;
} loaded;

/* The NT_GNU_BUILD_ID note in a mapped PT_NOTE segment: its hash, or 0.
 * Notes are padded to the segment's alignment (4, or 8 for a segment of
 * 8-aligned notes such as .note.gnu.property). */
static uint64_t build_id(const char *p, size_t size, size_t align)
{
    const size_t word = align == 8 ? 8 : 4;
    while (size >= sizeof(ElfW(Nhdr))) {
        const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
        size_t name = (n->n_namesz + word - 1) & ~(word - 1), desc = (n->n_descsz + word - 1) & ~(word - 1);
        size_t len = sizeof *n + name + desc;
        if (len > size)
            return 0;
        if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(p + sizeof *n, "GNU", 4) == 0)
            return prof_fnv(prof_fnv(PROF_FNV0, "build-id", 8), p + sizeof *n + name, n->n_descsz);
        p += len;
        size -= len;
    }
    return 0;
}

/* Without a build-id: the file's path, size and modification time. */
static uint64_t file_key(const char *path)
{
    struct stat st;
    uint64_t h = prof_fnv(PROF_FNV0, path, strlen(path));
    if (stat(path, &st) == 0) {
        h = prof_fnv(h, &st.st_size, sizeof st.st_size);
        h = prof_fnv(h, &st.st_mtim, sizeof st.st_mtim);
    }
    return h;
}

static void *grow(void *v, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return v;
    int n = *cap ? 2 * *cap : 64;
    void *w = realloc(v, (size_t)n * size);
    if (w)
        *cap = n;
    return w;
}

static int add_module(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    struct module *mods = grow(loaded.mods, &loaded.cap_mods, loaded.nmods + 1, sizeof *mods);
    struct prof_range *segs = grow(loaded.segs, &loaded.cap_segs, loaded.nsegs + info->dlpi_phnum, sizeof *segs);
    loaded.mods = mods ? mods : loaded.mods;
    loaded.segs = segs ? segs : loaded.segs;
    if (!mods || !segs) {
        loaded.failed = 1;
        return 1;
    }
    struct module *m = &mods[loaded.nmods];
    char exe[4096];
    const char *path = info->dlpi_name;
    if (!path[0]) {          /* the program itself */
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        path = exe;
    }
    m->base = info->dlpi_addr;
    m->key = 0;
    copy(m->name, sizeof m->name, path[0] ? base_name(path) : "?");
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && ph->p_memsz)
            segs[loaded.nsegs++] = (struct prof_range){ info->dlpi_addr + ph->p_vaddr,
                                                     info->dlpi_addr + ph->p_vaddr + ph->p_memsz, loaded.nmods };
        else if (ph->p_type == PT_NOTE && !m->key)
            m->key = build_id((const char *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, ph->p_align);
    }
    if (!m->key)
        m->key = file_key(path);
    if (m->key == PROF_MODULE_ANON)
        m->key = 1;
    loaded.nmods++;
    return 0;
}

int prof_modules_begin(void)
{
    memset(&loaded, 0, sizeof loaded);
    dl_iterate_phdr(add_module, NULL);
    if (loaded.failed) {
        prof_modules_end();
        return -1;
    }
    prof_ranges_sort(loaded.segs, loaded.nsegs);
    return 0;
}

void prof_modules_end(void)
{
    free(loaded.mods);
    free(loaded.segs);
    memset(&loaded, 0, sizeof loaded);
}

/* The module whose mapped segments hold a, or NULL. */
static const struct module *module_of(uintptr_t a)
{
    const struct prof_range *g = prof_range_find(loaded.segs, loaded.nsegs, a);
    return g ? &loaded.mods[g->tag] : NULL;
}

void prof_frame_identify(void *addr, struct prof_frame_id *id)
{
    const char *func, *file;
    int line;
    if (prof_python_frame(addr, &func, &file, &line)) {    /* named by its text, the same on every rank */
        id->module = PROF_MODULE_PYTHON;
        id->offset = prof_fnv(prof_fnv(prof_fnv(PROF_FNV0, func, strlen(func) + 1), file, strlen(file) + 1), &line,
                              sizeof line);
        return;
    }
    const struct module *m = module_of((uintptr_t)addr);
    id->module = m ? m->key : PROF_MODULE_ANON;
    id->offset = m ? (uintptr_t)addr - m->base : 0;
}

/* --- names ------------------------------------------------------------------ */

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

/* The position in s[0, end) of the bracket opening the one that closes
 * at end - 1 (round and angle brackets, braces), or -1. */
static long opening(const char *s, long end)
{
    int depth = 0;
    for (long i = end - 1; i >= 0; i--) {
        depth += s[i] == ')' || s[i] == '>' || s[i] == '}';
        depth -= s[i] == '(' || s[i] == '<' || s[i] == '{';
        if (!depth)
            return i;
    }
    return -1;
}

/* A demangled C++ name as people write it: without its parameter list,
 * the qualifiers after it and its return type
 * ("void ring_shift<double>(std::vector<double>&, int) const" ->
 * "ring_shift<double>", "main::{lambda(double)#1}::operator()(double)
 * const" -> "main::{lambda(double)#1}::operator()"). */
static void short_name(char *s)
{
    static const char *const quals[] = { " const", " volatile", " &&", " &", " noexcept" };
    long n = (long)strlen(s);
    for (int again = 1; again;) {
        again = 0;
        for (size_t q = 0; q < sizeof quals / sizeof quals[0]; q++) {
            long k = (long)strlen(quals[q]);
            if (n > k && strcmp(s + n - k, quals[q]) == 0) {
                s[n -= k] = '\0';
                again = 1;
            }
        }
    }
    if (n > 0 && s[n - 1] == ')') {
        long open = opening(s, n);
        if (open > 0)
            s[n = open] = '\0';
    }
    long start = 0;          /* after the last space outside brackets: the return type */
    for (long i = n - 1; i >= 0; i--) {
        if (s[i] == ')' || s[i] == '>' || s[i] == '}')
            i = opening(s, i + 1);
        else if (s[i] == ' ') {
            start = i + 1;
            break;
        }
        if (i < 0)
            break;
    }
    memmove(s, s + start, (size_t)(n - start) + 1);
}

/* name demangled into out when it is a C++ name and the process has the
 * C++ runtime (a C++ program does): 1, else 0. */
static int demangle(const char *name, char *out, size_t size)
{
    typedef char *(*demangler)(const char *, char *, size_t *, int *);
    static demangler cxa;
    static int looked;
    if (strncmp(name, "_Z", 2) != 0)
        return 0;
    if (!looked) {
        cxa = (demangler)dlsym(RTLD_DEFAULT, "__cxa_demangle");
        looked = 1;
    }
    int status = -1;
    char *d = cxa ? cxa(name, NULL, NULL, &status) : NULL;
    if (!d || status != 0) {
        free(d);
        return 0;
    }
    snprintf(out, size, "%s", d);
    free(d);
    short_name(out);
    return out[0] != '\0';
}

/* A symbol name without its version ("@" separates the site's fields)
 * and without the suffix of a copy the compiler made of the function
 * (gcc: round.constprop.0, f.isra.0, f.part.0, f.cold, f.lto_priv.0): the
 * name in the source, demangled. */
static void set_func(struct prof_frame_info *out, const char *name)
{
    static const char *const clones[] = { ".constprop.", ".isra.", ".part.", ".cold", ".lto_priv." };
    char plain[4096], readable[4096];
    snprintf(plain, sizeof plain, "%s", name);
    plain[strcspn(plain, "@")] = '\0';
    for (size_t i = 0; i < sizeof clones / sizeof clones[0]; i++) {
        char *c = strstr(plain, clones[i]);
        if (c && c != plain)
            *c = '\0';
    }
    copy(out->func, sizeof out->func, demangle(plain, readable, sizeof readable) ? readable : plain);
}

#ifdef HAVE_LIBDW
/* The name of a function's DIE (an inlined one's from its abstract
 * origin): its linkage name demangled, else its name; "" if none. */
static void die_name(Dwarf_Die *die, char *out, size_t size)
{
    Dwarf_Attribute at;
    const char *link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
    const char *name = dwarf_diename(die);
    if (!link || !demangle(link, out, size))
        snprintf(out, size, "%s", name ? name : "");
}

/* The file and line an inlined function was called from. */
static int call_site(Dwarf_Die *inl, Dwarf_Files *files, char *file, size_t size)
{
    Dwarf_Attribute at;
    Dwarf_Word f = 0, line = 0;
    const char *path = NULL;
    if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &at), &f) == 0 && files)
        path = dwarf_filesrc(files, f, NULL, NULL);
    dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &at), &line);
    snprintf(file, size, "%s", path ? base_name(path) : "?");
    return (int)line;
}

/* The functions inlined at pc (the DW_TAG_inlined_subroutine scopes that
 * hold it, innermost first: dwarf_getscopes finds the innermost scope, and
 * dwarf_getscopes_die the concrete ones around it, as eu-addr2line -i
 * does; dwarf_getscopes alone continues in the innermost inlined
 * function's abstract definition): out's function becomes the innermost,
 * at the line out has already, and out->inlined says what each was
 * inlined into and where it was called: "(inlined_in_F@file:line)" each,
 * the last F the function of the symbol. */
static void inline_chain(Dwfl_Module *m, Dwarf_Addr pc, struct prof_frame_info *out)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, &bias), *scopes = NULL, inner;
    int n = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0;
    if (n > 0) {
        inner = scopes[0];
        free(scopes);
        scopes = NULL;
        n = dwarf_getscopes_die(&inner, &scopes);
    }
    Dwarf_Files *files = NULL;
    size_t nfiles, len = 0;
    int inl[16], k = 0;
    for (int i = 0; i < n && k < 16; i++)
        if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
            inl[k++] = i;
    if (k && dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
        files = NULL;
    char outer[256], name[1024], file[512], chain[sizeof out->inlined] = "";
    snprintf(outer, sizeof outer, "%s", out->func);
    for (int j = 0; j < k; j++) {
        int line = call_site(&scopes[inl[j]], files, file, sizeof file);
        if (j == 0) {
            die_name(&scopes[inl[0]], name, sizeof name);
            copy(out->func, sizeof out->func, name);
        }
        if (j + 1 < k)
            die_name(&scopes[inl[j + 1]], name, sizeof name);
        else
            snprintf(name, sizeof name, "%s", outer);
        int w = snprintf(chain + len, sizeof chain - len, "(inlined_in_%s@%s:%d)", name, file, line);
        if (w < 0 || (size_t)w >= sizeof chain - len)
            break;
        len += (size_t)w;
    }
    copy(out->inlined, sizeof out->inlined, chain);
    free(scopes);
}
#endif

void prof_symbolize(void *addr, struct prof_frame_info *out)
{
    uintptr_t a = (uintptr_t)addr;
    const struct module *mod = module_of(a);
    const char *py_func, *py_file;
    memset(out, 0, sizeof *out);
    if (prof_python_frame(addr, &py_func, &py_file, &out->line)) {
        strcpy(out->module, "python");
        copy(out->func, sizeof out->func, py_func);
        copy(out->file, sizeof out->file, py_file);
        return;
    }
    if (!mod) {
        strcpy(out->module, "[anon]");
        return;
    }
    copy(out->module, sizeof out->module, mod->name);
    out->offset = a - mod->base;
    /* dladdr may name a symbol of another module (an address past a
     * library's end): its answer counts only inside the same module. */
    Dl_info dl;
    if (dladdr(addr, &dl) && dl.dli_sname && module_of((uintptr_t)dl.dli_saddr) == mod)
        set_func(out, dl.dli_sname);
#ifdef HAVE_LIBDW
    /* The call instruction is just before the return address. */
    Dwarf_Addr pc = (Dwarf_Addr)a - 1;
    Dwfl_Module *m = dwfl ? dwfl_addrmodule(dwfl, pc) : NULL;
    if (!m)
        return;
    const char *fname = dwfl_module_addrname(m, pc);
    if (fname)
        set_func(out, fname);
    Dwfl_Line *line = dwfl_module_getsrc(m, pc);
    int lineno = 0;
    const char *file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (file && lineno > 0) {
        copy(out->file, sizeof out->file, base_name(file));
        out->line = lineno;
    }
    inline_chain(m, pc, out);
#endif
}

void prof_frame_text(const struct prof_frame_info *fi, char *buf, unsigned size)
{
    if (strcmp(fi->module, "[anon]") == 0)
        snprintf(buf, size, "[anon]");
    else if (fi->func[0] && fi->file[0])
        snprintf(buf, size, "%s@%s:%d%s", fi->func, fi->file, fi->line, fi->inlined);
    else if (fi->func[0])
        snprintf(buf, size, "%s@%s+0x%llx", fi->func, fi->module, (unsigned long long)fi->offset);
    else
        snprintf(buf, size, "%s+0x%llx", fi->module, (unsigned long long)fi->offset);
}
