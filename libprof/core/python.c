/* python.c: call sites in Python code (python.h). The interpreter is
 * found at MPI_Init by its exported symbols (dlsym), so mpiprof neither
 * links nor includes Python; its structures are read at the offsets of
 * python_layout.h. Hot: prof_python_capture, for a call from Python: the
 * thread's own Python state (PyGILState_GetThisThreadState, which needs no
 * GIL: mpi4py releases it around blocking calls, and taking it here could
 * deadlock), then per frame a few loads and a lookup in a table readers
 * share without a lock. Cold: naming a (code, instruction) the first time
 * (PyCode_Addr2Line and the str objects' own data: all immutable). */
#define _GNU_SOURCE            /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "hmap.h"
#include "log.h"
#include "python.h"
#include "python_layout.h"

/* One instruction of one code object, named. */
struct site {
    const char *code, *instr;          /* what the frame held */
    const void *filename, *qualname;   /* the code's, to tell a later code object at the same address */
    int line;
    bool skip;                         /* mpi4py's own Python code, a frozen module */
    char func[256], file[256];
    struct site *next;                 /* every entry, newest first */
};

/* Open addressing by instruction address; a table is only ever added to,
 * and replaced by a twice larger one (the older kept to the end). */
struct table {
    struct site **slot;
    uint32_t mask;
    struct table *older;
};

bool prof_python_on;
static const struct prof_py_layout *L;
static void *(*this_thread)(void);                 /* PyGILState_GetThisThreadState */
static int (*addr2line)(const void *code, int offset); /* PyCode_Addr2Line */
static struct table *current;
static struct site *sites;
static uint32_t nsites;
static struct prof_hmap by_address;               /* entry -> entry, for prof_python_frame */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *ptr_at(const char *p, size_t off)
{
    return *(const char *const *)(p + off);
}

static int int_at(const char *p, size_t off)
{
    return *(const int *)(p + off);
}

static uint32_t home(const char *instr, uint32_t mask)
{
    return (uint32_t)(((uintptr_t)instr * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

void prof_python_start(void)
{
    const unsigned long *version = dlsym(RTLD_DEFAULT, "Py_Version");   /* CPython >= 3.11 */
    const char *(*get_version)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "Py_GetVersion");
    if (!get_version)
        return;                        /* not Python */
    for (size_t i = 0; version && i < sizeof prof_py_layouts / sizeof *prof_py_layouts; i++)
        if (prof_py_layouts[i].version == *version >> 16)
            L = &prof_py_layouts[i];
    *(void **)&this_thread = dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
    *(void **)&addr2line = dlsym(RTLD_DEFAULT, "PyCode_Addr2Line");
    prof_python_on = L && this_thread && addr2line;
    if (!prof_python_on)
        prof_log_once("Python %.*s: call sites are named in Python code for CPython 3.11 only; "
                      "here they are the C frames", (int)strcspn(get_version(), " "), get_version());
}

uintptr_t prof_python_interpreter(void)
{
    return prof_python_on ? (uintptr_t)addr2line : 0;
}

/* --- naming (cold) ----------------------------------------------------------- */

/* str s as UTF-8 into out (size > 4), cut to fit; "?" for a str that is
 * not compact (none made by CPython 3.11 for code). */
static void utf8(const char *s, char *out, size_t size)
{
    unsigned state = *(const unsigned *)(s + L->str_state);
    size_t len = (size_t) * (const ssize_t *)(s + L->str_length), o = 0;
    unsigned kind = (state >> L->kind_shift) & 7;
    if (!(state >> L->compact_bit & 1) || (kind != 1 && kind != 2 && kind != 4)) {
        strcpy(out, "?");
        return;
    }
    const unsigned char *d = (const unsigned char *)s + (state >> L->ascii_bit & 1 ? L->ascii_data : L->compact_data);
    for (size_t i = 0; i < len; i++) {
        uint32_t c = kind == 1 ? d[i] : kind == 2 ? ((const uint16_t *)d)[i] : ((const uint32_t *)d)[i];
        static const unsigned char lead[] = { 0, 0, 0xc0, 0xe0, 0xf0 };   /* by length */
        int k = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        if (o + (size_t)k >= size)
            break;
        out[o] = (char)(lead[k] | (c >> (6 * (k - 1))));
        for (int b = 1; b < k; b++)
            out[o + b] = (char)(0x80 | ((c >> (6 * (k - 1 - b))) & 0x3f));
        o += (size_t)k;
    }
    out[o] = '\0';
}

static void name_site(struct site *s)
{
    char path[4096];
    utf8(s->filename, path, sizeof path);
    utf8(s->qualname, s->func, sizeof s->func);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    memcpy(s->file, base, strlen(base) < sizeof s->file ? strlen(base) + 1 : sizeof s->file);
    s->file[sizeof s->file - 1] = '\0';
    s->skip = strstr(path, "/mpi4py/") != NULL || strncmp(path, "<frozen ", 8) == 0;
    s->line = addr2line(s->code, (int)(s->instr - (s->code + L->co_code)));
}

static bool same(const struct site *s, const char *code, const char *instr)
{
    return s->instr == instr && s->code == code && s->filename == ptr_at(code, L->co_filename) &&
           s->qualname == ptr_at(code, L->co_qualname);
}

static struct site *find(const struct table *t, const char *code, const char *instr)
{
    for (uint32_t i = t ? home(instr, t->mask) : 0; t; i = (i + 1) & t->mask) {
        struct site *s = __atomic_load_n(&t->slot[i], __ATOMIC_ACQUIRE);
        if (!s || same(s, code, instr))
            return s;
    }
    return NULL;
}

static void place(struct table *t, struct site *s)
{
    uint32_t i = home(s->instr, t->mask);
    while (t->slot[i])
        i = (i + 1) & t->mask;
    __atomic_store_n(&t->slot[i], s, __ATOMIC_RELEASE);
}

/* A table twice as large holding every entry; NULL when out of memory. */
static struct table *larger(struct table *t)
{
    struct table *g = malloc(sizeof *g);
    uint32_t cap = t ? 2 * (t->mask + 1) : 256;
    if (g && (g->slot = calloc(cap, sizeof *g->slot)) != NULL) {
        g->mask = cap - 1;
        g->older = t;
        for (struct site *s = sites; s; s = s->next)
            place(g, s);
        return g;
    }
    free(g);
    return NULL;
}

/* The entry of (code, instr), made and named now if there is none; NULL
 * when out of memory. */
static struct site *intern(const char *code, const char *instr)
{
    pthread_mutex_lock(&lock);
    struct site *s = find(current, code, instr);
    struct table *t = current;
    if (!s && (!t || 2 * (nsites + 1) > t->mask + 1) && (t = larger(t)) != NULL)
        __atomic_store_n(&current, t, __ATOMIC_RELEASE);
    if (!s && t == current && t && (s = calloc(1, sizeof *s)) != NULL) {
        *s = (struct site){ .code = code, .instr = instr, .filename = ptr_at(code, L->co_filename),
                            .qualname = ptr_at(code, L->co_qualname), .next = sites };
        name_site(s);
        if (prof_hmap_put(&by_address, (uint64_t)(uintptr_t)s, s) == 0) {
            sites = s;
            nsites++;
            place(t, s);
        } else {
            free(s);
            s = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    return s;
}

/* --- the frames of a call (hot) ---------------------------------------------- */

/* A frame whose code has not started (CPython's _PyFrame_IsIncomplete). */
static bool incomplete(const char *f, const char *code, const char *instr)
{
    return f[L->fr_owner] != L->owned_by_generator &&
           instr < code + L->co_code + 2 * (size_t)int_at(code, L->co_firsttraceable);
}

uint32_t prof_python_capture(void **out, uint32_t depth)
{
    const char *ts = this_thread();
    const char *cf = ts ? ptr_at(ts, L->ts_cframe) : NULL;
    const char *f = cf ? ptr_at(cf, L->cframe_frame) : NULL;
    uint32_t n = 0;
    for (; f && n < depth; f = ptr_at(f, L->fr_previous)) {
        const char *code = ptr_at(f, L->fr_code), *instr = ptr_at(f, L->fr_instr);
        if (incomplete(f, code, instr))
            continue;
        struct site *s = find(__atomic_load_n(&current, __ATOMIC_ACQUIRE), code, instr);
        if (!s && (s = intern(code, instr)) == NULL)
            break;
        if (!s->skip)
            out[n++] = s;
    }
    return n;
}

/* --- the report (cold) --------------------------------------------------------- */

bool prof_python_frame(const void *frame, const char **func, const char **file, int *line)
{
    if (!prof_python_on)
        return false;
    pthread_mutex_lock(&lock);
    const struct site *s = prof_hmap_get(&by_address, (uint64_t)(uintptr_t)frame);
    pthread_mutex_unlock(&lock);
    if (s) {
        *func = s->func;
        *file = s->file;
        *line = s->line;
    }
    return s != NULL;
}

void prof_python_stop(void)
{
    pthread_mutex_lock(&lock);
    for (struct table *t = current, *older; t; t = older) {
        older = t->older;
        free(t->slot);
        free(t);
    }
    for (struct site *s = sites, *next; s; s = next) {
        next = s->next;
        free(s);
    }
    current = NULL;
    sites = NULL;
    nsites = 0;
    prof_hmap_free(&by_address);
    pthread_mutex_unlock(&lock);
}
