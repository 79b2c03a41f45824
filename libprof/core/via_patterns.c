/* via_patterns.c: MPIPROF_VIA's patterns (via_patterns.h; cold). */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "via_patterns.h"

/* The documented defaults (mpiprof(1), MPIPROF_VIA). The libraries, by
 * their shared objects' file names: the MPI libraries and their language
 * bindings, parallel I/O libraries, solver libraries. */
static const char default_libs[] =
    "libmpi.so*,libmpi_*.so*,libmpich*.so*,libmpicxx*.so*,libhdf5*.so*,libnetcdf*.so*,libpnetcdf*.so*,"
    "libadios2*.so*,libpetsc*.so*,libslepc*.so*,libHYPRE*.so*,libsuperlu_dist*.so*,libscalapack*.so*,"
    "libmumps*.so*,lib*mumps.so*,libparmetis*.so*,libptscotch*.so*,libtrilinos*.so*,libteuchos*.so*,"
    "libepetra*.so*,libtpetra*.so*,libboost_mpi*.so*,libfftw3*_mpi.so*";
/* The same libraries by their functions' own prefixes, for when they are
 * linked into the executable (Debian's h5pcc links HDF5 statically) or are
 * header code compiled into it (the MPI C++ bindings, Boost.MPI, Tpetra):
 * C names as they are, C++ names mangled (_ZN5boost3mpi: boost::mpi::). */
static const char default_funcs[] =
    "H5*,nc_*,nc4_*,NC_*,NC4_*,ncmpi_*,ncmpio_*,ncmpii_*,nfmpi_*,adios2_*,_ZN6adios2*,_ZNK6adios2*,"
    "Petsc*,Mat[A-Z]*,Vec[A-Z]*,KSP[A-Z]*,SNES[A-Z]*,DM[A-Z]*,PC[A-Z]*,TS[A-Z]*,Slepc*,EPS[A-Z]*,"
    "HYPRE_*,hypre_*,superlu_*,pdgs*,pzgs*,blacs_*,Cblacs_*,BI_*,dmumps*,zmumps*,smumps*,cmumps*,mumps_*,"
    "__dmumps*,__zmumps*,__smumps*,__cmumps*,__mumps*,ParMETIS_*,libparmetis__*,SCOTCH_*,_SCOTCH*,"
    "_ZN7Teuchos*,_ZNK7Teuchos*,_ZN6Tpetra*,_ZNK6Tpetra*,_ZN5boost3mpi*,_ZNK5boost3mpi*,_ZN3MPI*,_ZNK3MPI*,"
    "fftw_mpi_*,fftwf_mpi_*,fftwl_mpi_*";

/* Whether item p (n bytes) names libraries rather than functions. */
static bool is_library(const char *p, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i++)
        if (memcmp(p + i, ".so", 3) == 0)
            return true;
    return false;
}

static bool valid(const char *p, size_t n, bool library)
{
    if (n == 0 || n > PROF_VIA_PATTERN_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        bool ok = library ? c != '/'
                          : (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_$.*?[]!-", c);
        if (!ok)
            return false;
    }
    return true;
}

/* Append item p (n bytes) to the list at out (PROF_VIA_LIST_MAX). */
static int append(char *out, const char *p, size_t n)
{
    size_t len = strlen(out);
    if (len + (len != 0) + n >= PROF_VIA_LIST_MAX)
        return -1;
    if (len)
        out[len++] = ',';
    memcpy(out + len, p, n);
    out[len + n] = '\0';
    return 0;
}

int prof_via_patterns(const char *v, char *libs, char *funcs)
{
    libs[0] = funcs[0] = '\0';
    if (strcmp(v, "none") == 0)
        return 0;
    bool added = v[0] == '+' || v[0] == '\0';
    if (added) {
        snprintf(libs, PROF_VIA_LIST_MAX, "%s", default_libs);
        snprintf(funcs, PROF_VIA_LIST_MAX, "%s", default_funcs);
    }
    if (v[0] == '\0')
        return 0;
    for (const char *p = v + (v[0] == '+');; ) {
        size_t n = strcspn(p, ",");
        bool library = is_library(p, n);      /* else both: libviatest* still names a file */
        if (!valid(p, n, library) || (n == 4 && memcmp(p, "none", 4) == 0) || append(libs, p, n) != 0 ||
            (!library && append(funcs, p, n) != 0))
            return -1;
        if (!p[n])
            return 0;
        p += n + 1;
    }
}

static bool is_glob(char c)
{
    return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* The group of a pattern: its first character, 256 for a glob character. */
static int group(const struct prof_via_pattern *p)
{
    return is_glob(p->text[0]) ? 256 : (unsigned char)p->text[0];
}

static int by_group(const void *a, const void *b)
{
    return group(a) - group(b);
}

void prof_via_set_make(struct prof_via_set *s, const char *list)
{
    memset(s, 0, sizeof *s);
    size_t most = 1;
    for (const char *p = list; *p; p++)
        most += *p == ',';
    if (!list[0] || !(s->v = calloc(most, sizeof *s->v)))
        return;
    for (const char *p = list;; ) {
        size_t n = strcspn(p, ",");
        if (n && n <= PROF_VIA_PATTERN_MAX) {
            struct prof_via_pattern *v = &s->v[s->n++];
            memcpy(v->text, p, n);
            v->text[n] = '\0';
            while (v->lit < n && !is_glob(v->text[v->lit]))
                v->lit++;
        }
        if (!p[n])
            break;
        p += n + 1;
    }
    qsort(s->v, (size_t)s->n, sizeof *s->v, by_group);
    for (int c = 0, i = 0; c <= 256; c++) {
        s->first[c] = i;
        while (i < s->n && group(&s->v[i]) == c)
            i++;
    }
}

void prof_via_set_free(struct prof_via_set *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Whether name matches the patterns v[from, to). */
static bool match_in(const struct prof_via_set *s, int from, int to, const char *name)
{
    for (int i = from; i < to; i++) {
        const struct prof_via_pattern *p = &s->v[i];
        if (strncmp(p->text, name, p->lit) != 0)
            continue;
        const char *rest = p->text + p->lit;
        if (rest[0] == '\0' ? name[p->lit] == '\0' : (rest[0] == '*' && rest[1] == '\0') || fnmatch(p->text, name, 0) == 0)
            return true;
    }
    return false;
}

bool prof_via_match(const struct prof_via_set *s, const char *name)
{
    if (!s->n)
        return false;
    int c = (unsigned char)name[0];
    return match_in(s, s->first[c], s->first[c + 1], name) || match_in(s, s->first[256], s->n, name);
}
