/* via_patterns.h: MPIPROF_VIA's value, split into library file-name
 * patterns (every item) and function-name patterns (the items without
 * ".so" in them: "libviatest*", which named a file before function names
 * were, still does), checked, with the documented default lists; and the test
 * of a name against such a list (cold: MPI_Init and the making of via.c's
 * segment table; config.c checks the value with it). Thread safe (no
 * state). */
#ifndef PROF_VIA_PATTERNS_H
#define PROF_VIA_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>

/* The longest pattern (one item of the list). */
#define PROF_VIA_PATTERN_MAX 255

/* Room for each list prof_via_patterns fills: the default and the
 * longest value (prof_config.via). */
#define PROF_VIA_LIST_MAX 2048

/* prof_via_patterns: the library and the function patterns of value v
 * ("" or "+...": the default lists, then v's; "none": both empty), each a
 * comma-separated list, into libs and funcs (PROF_VIA_LIST_MAX bytes
 * each). Returns 0, or -1 when v is not valid: an empty item, "none" among
 * others, an item longer than PROF_VIA_PATTERN_MAX, a library pattern with
 * a '/', a function pattern with a character no symbol name has (letters,
 * digits, _ $ . and the glob characters * ? [ ] ! - are allowed). */
int prof_via_patterns(const char *v, char *libs, char *funcs);

/* A list of patterns made ready for testing many names: grouped by their
 * first character, each with the length of its literal start, so that a
 * name is compared with the few patterns that start as it does (tens of
 * ns a name, not the list's length in fnmatch calls). */
struct prof_via_set {
    int n;
    struct prof_via_pattern {
        char text[PROF_VIA_PATTERN_MAX + 1];
        unsigned lit;            /* characters before the first glob character */
    } *v;                        /* sorted by first character; those starting with a glob character last */
    int first[257];              /* v[first[c] .. first[c + 1]) start with c */
};

/* prof_via_set_make: the set of the comma-separated list (malloc'd; empty
 * when out of memory); prof_via_set_free releases it. */
void prof_via_set_make(struct prof_via_set *s, const char *list);
void prof_via_set_free(struct prof_via_set *s);

/* prof_via_match: whether name matches a pattern (fnmatch(3)) of the set. */
bool prof_via_match(const struct prof_via_set *s, const char *name);

#endif
