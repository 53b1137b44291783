/* pyab.dsl._cscan: the compiled scanner of the tree DSL (optional).
 *
 * scan(text) reads the flat, the nested and the list form and returns the
 * arrays of a pyab.tree.Tree directly:
 *
 *     (names, kids, values, index, depth, root_side, marks)
 *
 * names: tuple of str in pre-order; kids: tuple of tuples of child ids;
 * values: tuple (int, float or None); index: dict name -> id; depth: tuple
 * of int; root_side: "max" or "min"; marks: None, or a list of (id, side)
 * for the nested form's side marks (pyab.tree.with_sides applies them).
 * A list-form tree whose Dewey names would not fit in linear memory (more
 * than eight characters of them per character of input) comes without
 * them: names is None and index is (parent, nth), two lists of int (the
 * parent's id, -1 for the root, and the 1-based place among the siblings),
 * from which pyab.dsl.treescan.DeweyNames spells a name when asked.
 *
 * It answers None for anything it is not sure of -- a syntax error, a name
 * written twice, an escape it would have to judge, a value build() refuses
 * -- and then pyab.dsl reads the text with lark, which decides and names
 * the place; with this scanner built, the pure-Python fast paths are not
 * run.  It accepts exactly what pyab.flatscan and pyab.treescan accept
 * (their regular expressions are lark's terminals from grammar.lark) but
 * for the rare texts it leaves to lark (two names with the same hash bits
 * and first 8 bytes, integers of more than 308 digits, more than 2**31
 * nodes); tests/dsl/test_cscan.py compares the three.
 *
 * Built by setup.py as an optional extension: without a C compiler pyab
 * installs and runs on the pure-Python paths.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

typedef Py_ssize_t ss;

/* Leaf values in -1024..1023 are made once per parse and shared (an int is
 * immutable; Python's own small ints stop at 256): a million leaves are then
 * a million references, not a million objects. */
#define SMALL_INTS 2048

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* every step answers one of these */
#define OK 0
#define GIVEUP 1 /* not sure: None */
#define ERR (-1) /* a Python error is set (out of memory) */

/* -- growable arrays ------------------------------------------------------ */

typedef struct { ss *a; ss n, cap; } Vec;

static int vec_push(Vec *v, ss x) {
    if (v->n == v->cap) {
        ss cap = v->cap ? v->cap * 2 : 256;
        ss *a = PyMem_RawRealloc(v->a, (size_t)cap * sizeof *a);
        if (!a) { PyErr_NoMemory(); return ERR; }
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = x;
    return OK;
}

/* Room for n items in v. */
static int vec_reserve(Vec *v, ss n) {
    if (n <= v->cap) return OK;
    ss cap = v->cap ? v->cap : 256;
    while (cap < n) cap *= 2;
    ss *a = PyMem_RawRealloc(v->a, (size_t)cap * sizeof *a);
    if (!a) { PyErr_NoMemory(); return ERR; }
    v->a = a;
    v->cap = cap;
    return OK;
}

/* Grows v to n items, the new ones x. */
static int vec_fill(Vec *v, ss n, ss x) {
    if (vec_reserve(v, n) < 0) return ERR;
    while (v->n < n) v->a[v->n++] = x;
    return OK;
}

static void vec_free(Vec *v) { PyMem_RawFree(v->a); v->a = NULL; v->n = v->cap = 0; }

static ss *alloc_ss(ss n) {
    ss *a = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof *a);
    if (!a) PyErr_NoMemory();
    return a;
}

/* -- the scanner's state ---------------------------------------------------- */

/* A name as it stands for itself (quotes read): bytes of UTF-8 in the text
 * or in the arena (decoded quoted names). */
typedef struct { ss off, len; unsigned char arena, ascii; } Name;

/* A slot of the name table: node id + 1 (0: empty); tag: for a name of at
 * most 8 bytes its length with the top bit set, and key its bytes (the name
 * itself: one memory access decides), else the high bits of the name's hash
 * and key its first 8 bytes (then the name is compared). */
typedef struct { uint32_t id, tag; uint64_t key; } Slot;

typedef struct {
    const char *t; ss n;           /* the text, UTF-8 */
    char *arena; ss alen, acap;    /* decoded quoted names */
    Name *names; ss nn, ncap;      /* node id -> name */
    PyObject **vals;               /* node id -> value (new reference) or NULL */
    Slot *table; size_t tsize;     /* open addressing */
    struct Check *chk; ss nchk, capchk;  /* hits of long names not yet compared */
    PyObject **ints;               /* SMALL_INTS: the ints -1024..1023 made so far */
    int any_float, inexact_int;    /* for build()'s check of mixed values */
} S;

static void s_free(S *s) {
    for (ss i = 0; i < s->nn; i++) Py_XDECREF(s->vals[i]);
    PyMem_RawFree(s->vals);
    PyMem_RawFree(s->names);
    PyMem_RawFree(s->arena);
    free(s->table);
    PyMem_RawFree(s->chk);
    if (s->ints) {
        for (int k = 0; k < SMALL_INTS; k++) Py_XDECREF(s->ints[k]);
        PyMem_RawFree(s->ints);
        s->ints = NULL;
    }
    s->chk = NULL;
    s->nchk = s->capchk = 0;
    s->vals = NULL; s->names = NULL; s->arena = NULL; s->table = NULL;
    s->nn = s->ncap = s->alen = s->acap = 0;
    s->tsize = 0;
}

static inline const char *name_ptr(const S *s, const Name *nm) {
    return (nm->arena ? s->arena : s->t) + nm->off;
}

/* How many bytes may be read from a name's first byte on: to the end of the
 * text or of the arena's room (those past the name are masked off). */
static inline ss name_room(const S *s, const Name *nm) {
    return nm->arena ? s->acap - nm->off : s->n - nm->off;
}

/* The first n (< 8) bytes at p as a little-endian word, zero above them.
 * One 8-byte load and a mask where room allows: copying n bytes into a
 * zeroed word and reading it back stalled on store forwarding (a quarter of
 * the hashing's time). */
static inline uint64_t load_tail(const char *p, ss n, ss room) {
    uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (room >= 8) {
        memcpy(&w, p, 8);
        return n ? w & (~0ULL >> (64 - 8 * n)) : 0;
    }
#else
    (void)room;
#endif
    memcpy(&w, p, (size_t)n);
    return w;
}

static inline uint64_t hash_bytes(const char *p, ss n, ss room) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n, w;
    for (; n >= 8; p += 8, n -= 8, room -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    w = load_tail(p, n, room);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}

/* Room for cap nodes: their names and values. */
static int grow_nodes(S *s, ss cap) {
    Name *names = PyMem_RawRealloc(s->names, (size_t)cap * sizeof *names);
    if (!names) { PyErr_NoMemory(); return ERR; }
    s->names = names;
    PyObject **vals = PyMem_RawRealloc(s->vals, (size_t)cap * sizeof *vals);
    if (!vals) { PyErr_NoMemory(); return ERR; }
    s->vals = vals;
    s->ncap = cap;
    return OK;
}

static int add_node(S *s, Name nm, ss *id) {
    if (s->nn == s->ncap && grow_nodes(s, s->ncap ? s->ncap * 2 : 1024) < 0) return ERR;
    s->names[s->nn] = nm;
    s->vals[s->nn] = NULL;
    *id = s->nn++;
    return OK;
}

static inline void slot_key(const char *p, ss len, ss room, uint64_t h, uint32_t *tag, uint64_t *key) {
    uint64_t k;
    if (len >= 8) memcpy(&k, p, 8);
    else k = load_tail(p, len, room);
    *key = k;
    *tag = len <= 8 ? 0x80000000u | (uint32_t)len : (uint32_t)(h >> 33);
}

/* The table: big, and read at random, so on huge pages where the system has
 * them (a TLB miss less per lookup). */
static Slot *table_new(size_t size) {
    size_t bytes = size * sizeof(Slot);
#if defined(MADV_HUGEPAGE)
    if (bytes >= (4u << 20)) {
        void *m = NULL;
        if (posix_memalign(&m, 2u << 20, bytes) == 0) {
            madvise(m, bytes, MADV_HUGEPAGE);
            memset(m, 0, bytes);
            return m;
        }
    }
#endif
    Slot *t = calloc(size, sizeof(Slot));
    return t;
}

static int rehash_to(S *s, size_t size);

static int rehash(S *s) { return rehash_to(s, s->tsize ? s->tsize * 2 : 1 << 12); }

/* Room for the nodes the text can hold, found in one pass: every node but
 * the root follows a `->`, a `,` or a `(` (a quoted name or a comment with
 * those inside only makes the guess larger; it is capped by the text's
 * length).  Growing the table a step at a time would hash every name again
 * each time, reading it from wherever it lies. */
static int presize(S *s) {
    ss count = 1;
    static const char marks[] = ",(>";
    for (int m = 0; m < 3; m++) {  /* memchr runs at memory speed */
        const char *q = s->t, *end = s->t + s->n;
        while ((q = memchr(q, marks[m], (size_t)(end - q))) != NULL) { count++; q++; }
    }
    if (count > s->n / 3 + 16) count = s->n / 3 + 16;
    size_t size = 1 << 12;
    while ((size_t)count * 10 >= size * 7) size *= 2;
    if (size > s->tsize && rehash_to(s, size) < 0) return ERR;
    if (count > s->ncap && grow_nodes(s, count) < 0) return ERR;
    return OK;
}

static int rehash_to(S *s, size_t size) {
    Slot *t = table_new(size);
    if (!t) { PyErr_NoMemory(); return ERR; }
    for (size_t j = 0; j < s->tsize; j++) {
        Slot e = s->table[j];
        if (!e.id) continue;
        const Name *nm = &s->names[e.id - 1];
        uint64_t h = hash_bytes(name_ptr(s, nm), nm->len, name_room(s, nm));
        size_t slot = h & (size - 1);
        while (t[slot].id) slot = (slot + 1) & (size - 1);
        t[slot] = e;
    }
    free(s->table);
    s->table = t;
    s->tsize = size;
    return OK;
}

static int presize(S *s);

/* A hit of a name longer than a slot holds, taken on its hash and first 8
 * bytes and compared later (check_hits): the name it matched lies wherever
 * its first occurrence was, and comparing at once waited on memory for
 * each such hit (a sixth of the ragged tree's parse). */
typedef struct Check { const char *p; uint32_t len, id; } Check;

/* The id of the node called nm, a new one if there is none; *fresh tells.
 * defer: a hit of a long name is taken on its slot alone and queued for
 * check_hits, which must run before anything is made of the hits. */
static int intern_h(S *s, Name nm, uint64_t h, ss *id, int *fresh, int defer) {
    if (!s->tsize && presize(s) < 0) return ERR;
    if ((size_t)s->nn * 10 >= s->tsize * 7) {  /* load factor 0.7 */
        if (s->nn >= 0x7FFFFFFF) return GIVEUP;  /* ids are 32 bits here */
        if (rehash(s) < 0) return ERR;
    }
    const char *p = name_ptr(s, &nm);
    uint64_t key;
    uint32_t tag;
    slot_key(p, nm.len, name_room(s, &nm), h, &tag, &key);
    size_t mask = s->tsize - 1, slot = h & mask;
    while (s->table[slot].id) {
        const Slot *e = &s->table[slot];
        if (e->tag == tag && e->key == key) {
            ss i = e->id - 1;
            const Name *o;
            if (defer && nm.len > 8) {
                if (s->nchk == s->capchk) {
                    ss cap = s->capchk ? s->capchk * 2 : 1024;
                    Check *c = PyMem_RawRealloc(s->chk, (size_t)cap * sizeof *c);
                    if (!c) { PyErr_NoMemory(); return ERR; }
                    s->chk = c;
                    s->capchk = cap;
                }
                if (nm.len > 0xFFFFFFFF) return GIVEUP;
                s->chk[s->nchk].p = p;
                s->chk[s->nchk].len = (uint32_t)nm.len;
                s->chk[s->nchk].id = (uint32_t)i;
                s->nchk++;
                *id = i;
                *fresh = 0;
                return OK;
            }
            if (nm.len <= 8 || ((o = &s->names[i])->len == nm.len &&
                                memcmp(name_ptr(s, o), p, (size_t)nm.len) == 0)) {
                *id = i;
                *fresh = 0;
                return OK;
            }
        }
        slot = (slot + 1) & mask;
    }
    if (add_node(s, nm, id) < 0) return ERR;
    s->table[slot].id = (uint32_t)(*id + 1);
    s->table[slot].tag = tag;
    s->table[slot].key = key;
    *fresh = 1;
    return OK;
}

static inline int intern(S *s, Name nm, ss *id, int *fresh) {
    return intern_h(s, nm, hash_bytes(name_ptr(s, &nm), nm.len, name_room(s, &nm)), id, fresh, 0);
}

/* Compares the queued hits (intern_h's defer), fetching the names they
 * matched ahead so that the waits overlap: GIVEUP when one is another name
 * with the same hash bits and first 8 bytes (then the Python paths read the
 * text).  The pointers are into the text or the arena, which does not move
 * between a batch's entering and this check. */
static int check_hits(S *s) {
    const Check *c = s->chk;
    ss n = s->nchk, j;
    enum { AHEAD = 8 };
    for (j = 0; j < n && j < 2 * AHEAD; j++) PREFETCH(&s->names[c[j].id]);
    for (j = 0; j < n && j < AHEAD; j++) PREFETCH(name_ptr(s, &s->names[c[j].id]));
    for (j = 0; j < n; j++) {
        if (j + 2 * AHEAD < n) PREFETCH(&s->names[c[j + 2 * AHEAD].id]);
        if (j + AHEAD < n) PREFETCH(name_ptr(s, &s->names[c[j + AHEAD].id]));
        const Name *o = &s->names[c[j].id];
        if (o->len != (ss)c[j].len || memcmp(name_ptr(s, o), c[j].p, c[j].len) != 0) return GIVEUP;
    }
    s->nchk = 0;
    return OK;
}

/* -- tokens: lark's terminals (grammar.lark) ------------------------------- */

static inline int is_ws(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '\n';
}
static inline int is_word(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static inline int is_hex(unsigned char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static inline int hex_val(unsigned char c) {
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* White space and comments (lark's %ignore WS and COMMENT). */
static inline ss skip(const S *s, ss p) {
    const char *t = s->t;
    ss n = s->n;
    for (;;) {
        if (p < n && is_ws((unsigned char)t[p])) p++;
        else if (p < n && (t[p] == '#' || t[p] == '%')) {
            const char *nl = memchr(t + p, '\n', (size_t)(n - p));
            p = nl ? nl - t : n;
        } else return p;
    }
}

/* "max" or "min" as a word at p: 1 (max), 2 (min) or 0. */
static inline int keyword(const S *s, ss p) {
    if (p + 3 > s->n) return 0;
    const char *t = s->t + p;
    if (p + 3 < s->n && is_word((unsigned char)t[3])) return 0;
    if (t[0] == 'm' && t[1] == 'a' && t[2] == 'x') return 1;
    if (t[0] == 'm' && t[1] == 'i' && t[2] == 'n') return 2;
    return 0;
}

static inline int name_start(const S *s, ss p) {
    return p < s->n && ((s->t[p] >= 'a' && s->t[p] <= 'z') || s->t[p] == '\'');
}

static int arena_reserve(S *s, ss more) {
    if (s->alen + more <= s->acap) return OK;
    ss cap = s->acap ? s->acap : 4096;
    while (cap < s->alen + more) cap *= 2;
    char *a = PyMem_RawRealloc(s->arena, (size_t)cap);
    if (!a) { PyErr_NoMemory(); return ERR; }
    s->arena = a;
    s->acap = cap;
    return OK;
}

static char *put_utf8(char *o, uint32_t c) {
    if (c < 0x80) *o++ = (char)c;
    else if (c < 0x800) { *o++ = (char)(0xC0 | (c >> 6)); *o++ = (char)(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) {
        *o++ = (char)(0xE0 | (c >> 12)); *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (c >> 18)); *o++ = (char)(0x80 | ((c >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((c >> 6) & 0x3F)); *o++ = (char)(0x80 | (c & 0x3F));
    }
    return o;
}

/* The body of a quoted name (quotes off) read as pyab.quoted.unquote reads
 * it, into the arena; GIVEUP for every escape unquote refuses (and for a
 * NUL or a surrogate, which build() refuses). */
static int unquote(S *s, const char *b, ss len, Name *out) {
    if (arena_reserve(s, len) < 0) return ERR;
    char *o0 = s->arena + s->alen, *o = o0;
    int ascii = 1;
    ss i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)b[i];
        if (c == '\'' && i + 1 < len && b[i + 1] == '\'') { *o++ = '\''; i += 2; continue; }
        if (c != '\\' || i + 1 >= len) {
            if (c >= 0x80) ascii = 0;
            *o++ = (char)c;
            i++;
            continue;
        }
        /* \\(x[0-9a-fA-F]+\\|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]+\\|.) */
        unsigned char e = (unsigned char)b[i + 1];
        uint32_t code = 0;
        int big = 0;
        ss j = i + 2;
        if (e == 'x' && j < len && is_hex((unsigned char)b[j])) {
            ss k = j;
            while (k < len && is_hex((unsigned char)b[k])) {
                if (code > 0x10FFFF) big = 1; else code = code * 16 + (uint32_t)hex_val((unsigned char)b[k]);
                k++;
            }
            if (k < len && b[k] == '\\') { i = k + 1; goto code_point; }
            code = 0; big = 0; /* not \xHH\: the '.' branch below reads x */
        }
        if ((e == 'u' || e == 'U') && j + (e == 'u' ? 4 : 8) <= len) {
            ss k, m = e == 'u' ? 4 : 8;
            for (k = 0; k < m && is_hex((unsigned char)b[j + k]); k++) {
                if (code > 0x10FFFF) big = 1; else code = code * 16 + (uint32_t)hex_val((unsigned char)b[j + k]);
            }
            if (k == m) { i = j + m; goto code_point; }
            code = 0; big = 0;
        }
        if (e >= '0' && e <= '7') {
            ss k = i + 1;
            while (k < len && b[k] >= '0' && b[k] <= '7') {
                if (code > 0x10FFFF) big = 1; else code = code * 8 + (uint32_t)(b[k] - '0');
                k++;
            }
            if (k < len && b[k] == '\\') { i = k + 1; goto code_point; }
            /* the '.' branch: \d alone is the code d */
            code = (uint32_t)(e - '0');
            big = 0;
            i += 2;
            goto code_point;
        }
        switch (e) {  /* pyab.quoted._SIMPLE */
        case '\\': *o++ = '\\'; break;
        case '\'': *o++ = '\''; break;
        case '"': *o++ = '"'; break;
        case '`': *o++ = '`'; break;
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'a': *o++ = '\a'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'v': *o++ = '\v'; break;
        case 'e': *o++ = '\x1b'; break;
        case 's': *o++ = ' '; break;
        default: return GIVEUP;  /* an unknown escape: lark says so */
        }
        i += 2;
        continue;
    code_point:
        if (big || code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return GIVEUP;
        if (code >= 0x80) ascii = 0;
        o = put_utf8(o, code);
    }
    out->off = s->alen;
    out->len = o - o0;
    out->arena = 1;
    out->ascii = (unsigned char)ascii;
    s->alen += out->len;
    return OK;
}

/* The body of a quoted name whose only escapes are doubled quotes (every
 * quote in it is one of a pair), into the arena: runs copied whole, up to
 * and with the first quote of each pair (unquote went a byte at a time). */
static int undouble(S *s, const char *b, ss len, Name *out) {
    if (arena_reserve(s, len) < 0) return ERR;
    char *o0 = s->arena + s->alen, *o = o0;
    const char *e = b + len;
    while (b < e) {
        const char *q = memchr(b, '\'', (size_t)(e - b));
        if (!q) { memcpy(o, b, (size_t)(e - b)); o += e - b; break; }
        memcpy(o, b, (size_t)(q + 1 - b));
        o += q + 1 - b;
        b = q + 2;
    }
    out->off = s->alen;
    out->len = o - o0;
    out->arena = 1;
    out->ascii = 0;  /* PyUnicode_DecodeUTF8 checks (fast on ASCII) */
    s->alen += out->len;
    return OK;
}

/* A name (NAME or QUOTED) at p: *end after it, *out what it stands for. */
static int lex_name(S *s, ss p, Name *out, ss *end) {
    const char *t = s->t;
    ss n = s->n;
    if (p >= n) return GIVEUP;
    if (t[p] >= 'a' && t[p] <= 'z') {
        ss q = p + 1;
        while (q < n && is_word((unsigned char)t[q])) q++;
        out->off = p; out->len = q - p; out->arena = 0; out->ascii = 1;
        *end = q;
        return OK;
    }
    if (t[p] != '\'') return GIVEUP;
    /* Without a backslash the name runs to the next lone quote: found with
     * memchr, the run checked for a newline or a NUL (both refused). */
    ss q = p + 1;
    int doubled = 0;
    for (;;) {
        const char *qt = memchr(t + q, '\'', (size_t)(n - q));
        if (!qt) return GIVEUP;
        size_t run = (size_t)(qt - (t + q));
        if (memchr(t + q, '\\', run)) break;  /* escapes: the full reading below */
        if (memchr(t + q, '\n', run) || memchr(t + q, 0, run)) return GIVEUP;
        q = qt - t;
        if (q + 1 < n && t[q + 1] == '\'') { doubled = 1; q += 2; continue; }
        *end = q + 1;
        if (!doubled) {  /* ascii 0: PyUnicode_DecodeUTF8 checks (fast on ASCII) */
            out->off = p + 1; out->len = q - p - 1; out->arena = 0; out->ascii = 0;
            return OK;
        }
        return undouble(s, t + p + 1, q - p - 1, out);
    }
    /* '(?:[^'\\\n]|\\(?>[0-7]+\\|x[0-9a-fA-F]+\\|[^\n])|'')*' */
    q = p + 1;
    doubled = 0;
    int esc = 0, ascii = 1;
    for (;;) {
        if (q >= n) return GIVEUP;
        unsigned char c = (unsigned char)t[q];
        if (c == '\'') {
            if (q + 1 < n && t[q + 1] == '\'') { doubled = 1; q += 2; continue; }
            break;
        }
        if (c == '\n') return GIVEUP;
        if (c == 0) return GIVEUP;  /* NUL: build() refuses it */
        if (c == '\\') {
            esc = 1;
            if (q + 1 >= n || t[q + 1] == '\n') return GIVEUP;
            ss k = q + 1;
            while (k < n && t[k] >= '0' && t[k] <= '7') k++;
            if (k > q + 1 && k < n && t[k] == '\\') { q = k + 1; continue; }
            if (t[q + 1] == 'x') {
                k = q + 2;
                while (k < n && is_hex((unsigned char)t[k])) k++;
                if (k > q + 2 && k < n && t[k] == '\\') { q = k + 1; continue; }
            }
            q += 2;  /* \ and one character (its first byte; the rest are >= 0x80) */
            continue;
        }
        if (c >= 0x80) ascii = 0;
        q++;
    }
    *end = q + 1;
    if (!esc && !doubled) {
        out->off = p + 1; out->len = q - p - 1; out->arena = 0; out->ascii = (unsigned char)ascii;
        return OK;
    }
    return unquote(s, t + p + 1, q - p - 1, out);
}

/* A NUMBER at p, as the lark transformer makes it (int, or float when it
 * has a '.' or an exponent); GIVEUP for what build() refuses or an int too
 * large to be sure of. */
static int lex_number(S *s, ss p, ss *end, PyObject **out) {
    const char *t = s->t;
    ss n = s->n, q = p;
    if (q < n && (t[q] == '+' || t[q] == '-')) q++;
    ss d0 = q;
    while (q < n && is_digit((unsigned char)t[q])) q++;
    if (q == d0) return GIVEUP;
    ss digits = q - d0;
    int is_float = 0;
    if (q + 1 < n && t[q] == '.' && is_digit((unsigned char)t[q + 1])) {
        is_float = 1;
        q += 2;
        while (q < n && is_digit((unsigned char)t[q])) q++;
    }
    if (q < n && (t[q] == 'e' || t[q] == 'E')) {
        ss k = q + 1;
        if (k < n && (t[k] == '+' || t[k] == '-')) k++;
        if (k < n && is_digit((unsigned char)t[k])) {
            is_float = 1;
            while (k < n && is_digit((unsigned char)t[k])) k++;
            q = k;
        }
    }
    *end = q;
    if (!is_float && digits <= 18) {
        long long v = 0;
        for (ss k = d0; k < q; k++) v = v * 10 + (t[k] - '0');
        if (t[p] == '-') v = -v;
        /* an int a float holds exactly compares alike in SWI-Prolog and Python */
        if ((v > (1LL << 53) || v < -(1LL << 53)) && (long long)(double)v != v) s->inexact_int = 1;
        if (v >= -SMALL_INTS / 2 && v < SMALL_INTS / 2) {
            if (!s->ints && !(s->ints = PyMem_RawCalloc(SMALL_INTS, sizeof *s->ints))) {
                PyErr_NoMemory();
                return ERR;
            }
            PyObject **slot = &s->ints[v + SMALL_INTS / 2];
            if (!*slot && !(*slot = PyLong_FromLongLong(v))) return ERR;
            Py_INCREF(*slot);
            *out = *slot;
            return OK;
        }
        *out = PyLong_FromLongLong(v);
        return *out ? OK : ERR;
    }
    char small[128], *buf = small;
    ss len = q - p;
    if (!is_float && digits > 308) return GIVEUP;  /* may reach 2**1024: Python decides */
    if (len + 1 > (ss)sizeof small) {
        buf = PyMem_RawMalloc((size_t)len + 1);
        if (!buf) { PyErr_NoMemory(); return ERR; }
    }
    memcpy(buf, t + p, (size_t)len);
    buf[len] = 0;
    int rc = OK;
    if (is_float) {
        char *stop = NULL;
        double d = PyOS_string_to_double(buf, &stop, NULL);
        if (d == -1.0 && PyErr_Occurred()) { PyErr_Clear(); rc = GIVEUP; }
        else if (stop != buf + len || !isfinite(d)) rc = GIVEUP;
        else {
            s->any_float = 1;
            *out = PyFloat_FromDouble(d);
            if (!*out) rc = ERR;
        }
    } else {
        s->inexact_int = 1;  /* 19 digits or more: left to Python next to decimals */
        *out = PyLong_FromString(buf, NULL, 10);
        if (!*out) { PyErr_Clear(); rc = GIVEUP; }
    }
    if (buf != small) PyMem_RawFree(buf);
    return rc;
}

/* -- the Tree's arrays ------------------------------------------------------ */

/* A name as a str.  The callers hash it at once (str caches its hash),
 * while it is fresh in the cache: hashed later, when result() fills the
 * index dict, the dfs tree's million names cost 0.06 s more than here. */
static PyObject *make_name(const S *s, const Name *nm) {
    const char *p = name_ptr(s, nm);
    if (nm->ascii) {
        PyObject *u = PyUnicode_New(nm->len, 127);
        if (u) memcpy(PyUnicode_DATA(u), p, (size_t)nm->len);
        return u;
    }
    return PyUnicode_DecodeUTF8(p, nm->len, "strict");
}

#if PY_VERSION_HEX < 0x030D0000
#define NEW_DICT(n) _PyDict_NewPresized(n)
#else
#define NEW_DICT(n) PyDict_New()
#endif

/* The result tuple from nodes in pre-order.  pre[i]: the scanner's node id
 * of pre-order node i (NULL: the same); pyname[i]: its name (stolen);
 * kstart/kcount/karr: each scanner node's children as pre-order ids;
 * depth[i] of pre-order node i. */
/* The 7-tuple of scan(); with links (the list form's (parent, nth)) the
 * names are not made: names None, index links. */
static PyObject *result(S *s, ss N, const ss *pre, PyObject **pyname, const ss *kstart,
                        const ss *kcount, const ss *karr, const ss *depth, int root_max,
                        PyObject *marks, PyObject *links) {
    PyObject *names = NULL, *kids = NULL, *values = NULL, *index = NULL, *depths = NULL, *out = NULL;
    PyObject **ids = PyMem_RawMalloc((size_t)N * sizeof *ids);
    ss made = 0, i;
    if (!ids) { PyErr_NoMemory(); goto done; }
    for (; made < N; made++) {
        ids[made] = PyLong_FromSsize_t(made);
        if (!ids[made]) goto done;
    }
    if (links) {
        names = Py_None;
        Py_INCREF(names);
        index = links;
        Py_INCREF(index);
    } else {
        names = PyTuple_New(N);
        if (!names) goto done;
        for (i = 0; i < N; i++) { PyTuple_SET_ITEM(names, i, pyname[i]); pyname[i] = NULL; }
        index = NEW_DICT(N);
        if (!index) goto done;
        for (i = 0; i < N; i++)
            if (PyDict_SetItem(index, PyTuple_GET_ITEM(names, i), ids[i]) < 0) goto done;
        if (PyDict_GET_SIZE(index) != N) {  /* two nodes with one name: never here */
            PyErr_SetString(PyExc_AssertionError, "pyab.dsl._cscan: a name twice");
            goto done;
        }
        PyObject_GC_UnTrack(names);
    }
    kids = PyTuple_New(N);
    values = PyTuple_New(N);
    depths = PyTuple_New(N);
    if (!kids || !values || !depths) goto done;
    for (i = 0; i < N; i++) {
        if (pre && i + 16 < N) {  /* scanner ids at random: fetch ahead */
            ss ahead = pre[i + 16];
            PREFETCH(&kcount[ahead]);
            PREFETCH(&kstart[ahead]);
            PREFETCH(&s->vals[ahead]);
        }
        if (pre && i + 8 < N) PREFETCH(&karr[kstart[pre[i + 8]]]);
        ss node = pre ? pre[i] : i, c = kcount[node];
        PyObject *k = PyTuple_New(c);
        if (!k) goto done;
        for (ss j = 0; j < c; j++) {
            PyObject *id = ids[karr[kstart[node] + j]];
            Py_INCREF(id);
            PyTuple_SET_ITEM(k, j, id);
        }
        PyObject_GC_UnTrack(k);  /* ints only: see below */
        PyTuple_SET_ITEM(kids, i, k);
        PyObject *v = s->vals[node];
        if (v) s->vals[node] = NULL; else { v = Py_None; Py_INCREF(v); }
        PyTuple_SET_ITEM(values, i, v);
        PyObject *d = PyLong_FromSsize_t(depth[i]);
        if (!d) goto done;
        PyTuple_SET_ITEM(depths, i, d);
    }
    /* None of these tuples can be part of a cycle (they hold str, int,
     * float, None and such tuples), so the cyclic collector need not know
     * them: it untracks such tuples itself, but only after visiting them
     * once, in the first collection after this call -- a million of them
     * took a tenth of the parse.  (The dict of str -> int is untracked
     * from the start.) */
    PyObject_GC_UnTrack(kids);
    PyObject_GC_UnTrack(values);
    PyObject_GC_UnTrack(depths);
    out = Py_BuildValue("(OOOOOsO)", names, kids, values, index, depths, root_max ? "max" : "min",
                        marks ? marks : Py_None);
done:
    if (ids) { for (i = 0; i < made; i++) Py_DECREF(ids[i]); PyMem_RawFree(ids); }
    Py_XDECREF(names); Py_XDECREF(kids); Py_XDECREF(values); Py_XDECREF(index); Py_XDECREF(depths);
    return out;
}

/* build()'s checks on the values as a whole (plain_values_ok): finite
 * floats were checked one by one; ints that a float cannot hold exactly
 * must not stand next to decimals. */
static inline int values_ok(const S *s) { return !(s->any_float && s->inexact_int); }

/* Children lists (CSR) of nodes numbered in pre-order, from their parents. */
static int csr(const ss *parent, ss N, ss **kstart, ss **kcount, ss **karr) {
    ss *st = alloc_ss(N), *ct = alloc_ss(N), *ar = alloc_ss(N), i;
    if (!st || !ct || !ar) { PyMem_RawFree(st); PyMem_RawFree(ct); PyMem_RawFree(ar); return ERR; }
    memset(ct, 0, (size_t)N * sizeof *ct);
    for (i = 1; i < N; i++) ct[parent[i]]++;
    ss at = 0;
    for (i = 0; i < N; i++) { st[i] = at; at += ct[i]; ct[i] = 0; }
    for (i = 1; i < N; i++) { ss p = parent[i]; ar[st[p] + ct[p]++] = i; }
    *kstart = st; *kcount = ct; *karr = ar;
    return OK;
}

/* -- the flat form: `a -> b, c` and `b = 3`, any order (pyab.flatscan.scan) -- */

/* The declarations are read in batches: first their names are lexed and
 * hashed and their table slots fetched ahead (__builtin_prefetch), then
 * they are entered.  A million names looked up at random in a table of tens
 * of megabytes wait on memory; batched, the waits overlap. */
typedef struct { Name nm; uint64_t h; ss id; } Occ;  /* id: once entered */
typedef struct { ss first, count; PyObject *v; } Decl;  /* v: a value; else an edge */
#define BATCH 256

static inline void fetch(const S *s, uint64_t h) {
#if defined(__GNUC__)
    if (s->tsize) __builtin_prefetch(&s->table[h & (s->tsize - 1)]);
#else
    (void)s; (void)h;
#endif
}

static int occ_push(Occ **o, ss *n, ss *cap, const S *s, Name nm) {
    if (*n == *cap) {
        ss c = *cap ? *cap * 2 : 2 * BATCH;
        Occ *a = PyMem_RawRealloc(*o, (size_t)c * sizeof *a);
        if (!a) { PyErr_NoMemory(); return ERR; }
        *o = a;
        *cap = c;
    }
    uint64_t h = hash_bytes(name_ptr(s, &nm), nm.len, name_room(s, &nm));
    fetch(s, h);
    (*o)[*n].nm = nm;
    (*o)[*n].h = h;
    (*n)++;
    return OK;
}

static PyObject *flat(S *s, int *rc) {
    Vec kstart = {0}, kcount = {0}, parent = {0}, karr = {0};
    ss *order = NULL, *pre = NULL, *depth = NULL, *dnode = NULL, *stack = NULL, N = 0, i;
    PyObject **pyname = NULL, *out = NULL;
    Occ *occ = NULL;
    Decl dec[BATCH + 1];
    ss nocc = 0, capocc = 0, ndec = 0, d;
    int root_max = 1, r = GIVEUP;
    ss p = skip(s, 0);
    int kw = keyword(s, p);
    if (kw) {
        ss q = skip(s, p + 3);
        if (name_start(s, q)) { root_max = kw == 1; p = q; }
    }
    if (p >= s->n) goto done;
    while (p < s->n) {
        /* lex a batch */
        nocc = ndec = 0;
        while (p < s->n && ndec < BATCH && nocc < BATCH) {
            Name a;
            ss e;
            if ((r = lex_name(s, p, &a, &e)) != OK) goto done;
            p = skip(s, e);
            Decl *dc = &dec[ndec];
            dc->first = nocc;
            dc->v = NULL;
            if (p + 1 < s->n && s->t[p] == '-' && s->t[p + 1] == '>') {
                if (!s->tsize && presize(s) < 0) { r = ERR; goto done; }
                if ((r = occ_push(&occ, &nocc, &capocc, s, a)) != OK) goto done;
                p = skip(s, p + 2);
                for (;;) {
                    Name c;
                    if ((r = lex_name(s, p, &c, &e)) != OK) goto done;
                    if ((r = occ_push(&occ, &nocc, &capocc, s, c)) != OK) goto done;
                    p = skip(s, e);
                    if (p < s->n && s->t[p] == ',') { p = skip(s, p + 1); continue; }
                    break;
                }
            } else if (p < s->n && s->t[p] == '=') {
                if (!s->tsize && presize(s) < 0) { r = ERR; goto done; }
                p = skip(s, p + 1);
                if ((r = lex_number(s, p, &e, &dc->v)) != OK) goto done;
                ndec++;  /* owns v now */
                if ((r = occ_push(&occ, &nocc, &capocc, s, a)) != OK) goto done;
                p = skip(s, e);
                dc->count = 1;
                continue;
            } else {
                r = GIVEUP;
                goto done;
            }
            dc->count = nocc - dc->first;
            ndec++;
        }
        /* enter it: first the ids of its names, in the order of the text
         * (which numbers the new ones), fetching ahead what the checks
         * then read of each -- with shuffled declarations the ids come at
         * random, and each check waited on memory */
        if ((r = vec_reserve(&kstart, s->ncap)) || (r = vec_reserve(&kcount, s->ncap)) ||
            (r = vec_reserve(&parent, s->ncap))) goto done;
        for (d = 0; d < ndec; d++) {
            Decl *dc = &dec[d];
            Occ *o = &occ[dc->first];
            int fresh;
            for (ss j = 0; j < dc->count; j++) {
                ss id;
                if ((r = intern_h(s, o[j].nm, o[j].h, &id, &fresh, 1)) != OK) goto done;
                o[j].id = id;
                if (j) { if (id < parent.cap) PREFETCH(&parent.a[id]); }
                else if (dc->v) PREFETCH(&s->vals[id]);
                else if (id < kstart.cap) PREFETCH(&kstart.a[id]);
            }
        }
        if ((r = vec_fill(&kstart, s->nn, -1)) || (r = vec_fill(&kcount, s->nn, 0)) ||
            (r = vec_fill(&parent, s->nn, -1))) goto done;
        /* then the checks, in the same order */
        for (d = 0; d < ndec; d++) {
            Decl *dc = &dec[d];
            const Occ *o = &occ[dc->first];
            ss id = o->id;
            if (dc->v) {
                r = GIVEUP;
                if (s->vals[id]) goto done;  /* two values */
                s->vals[id] = dc->v;
                dc->v = NULL;
                continue;
            }
            r = GIVEUP;
            if (kstart.a[id] >= 0) goto done;  /* its children listed twice */
            ss start = karr.n;
            for (ss j = 1; j < dc->count; j++) {
                ss cid = o[j].id;
                r = GIVEUP;
                if (parent.a[cid] >= 0) goto done;  /* a second parent */
                parent.a[cid] = id;
                if ((r = vec_push(&karr, cid)) != OK) goto done;
            }
            kstart.a[id] = start;
            kcount.a[id] = karr.n - start;
        }
        ndec = 0;
        if ((r = check_hits(s)) != OK) goto done;
    }
    r = GIVEUP;
    N = s->nn;
    if (!values_ok(s)) goto done;
    /* one root; every node has children or a value */
    ss root = -1;
    for (i = 0; i < N; i++) {
        if (parent.a[i] < 0) { if (root >= 0) goto done; root = i; }
        if (kstart.a[i] < 0 && !s->vals[i]) goto done;  /* a leaf without a value */
    }
    if (root < 0) goto done;
    /* pre-order from the root; a node it does not reach sits on a cycle */
    r = ERR;
    order = alloc_ss(N); pre = alloc_ss(N); depth = alloc_ss(N); dnode = alloc_ss(N); stack = alloc_ss(N);
    if (!order || !pre || !depth || !dnode || !stack) goto done;
    ss top = 0, seen = 0;
    stack[top++] = root;
    dnode[root] = 0;
    while (top) {
        ss v = stack[--top];
        order[v] = seen;
        depth[seen] = dnode[v];
        pre[seen++] = v;
        ss c = kcount.a[v], st = kstart.a[v];
        if (top + c > N) { r = GIVEUP; goto done; }  /* never: one parent each */
        for (ss j = c - 1; j >= 0; j--) {
            ss k = karr.a[st + j];
            dnode[k] = dnode[v] + 1;
            stack[top++] = k;
        }
    }
    if (seen != N) { r = GIVEUP; goto done; }
    for (i = 0; i < karr.n; i++) karr.a[i] = order[karr.a[i]];
    for (i = 0; i < N; i++) if (kstart.a[i] < 0) kstart.a[i] = 0;
    pyname = PyMem_RawCalloc((size_t)N, sizeof *pyname);
    if (!pyname) { PyErr_NoMemory(); goto done; }
    /* in pre-order, which is not the order of the text when the declarations
     * are shuffled: each name and then its bytes fetched ahead */
    for (i = 0; i < N; i++) {
        if (i + 16 < N) PREFETCH(&s->names[pre[i + 16]]);
        if (i + 8 < N) PREFETCH(name_ptr(s, &s->names[pre[i + 8]]));
        if (!(pyname[i] = make_name(s, &s->names[pre[i]])) || PyObject_Hash(pyname[i]) == -1) goto done;
    }
    out = result(s, N, pre, pyname, kstart.a, kcount.a, karr.a, depth, root_max, NULL, NULL);
    r = out ? OK : ERR;
done:
    for (d = 0; d < ndec; d++) Py_XDECREF(dec[d].v);
    PyMem_RawFree(occ);
    if (pyname) { for (i = 0; i < N; i++) Py_XDECREF(pyname[i]); PyMem_RawFree(pyname); }
    vec_free(&kstart); vec_free(&kcount); vec_free(&parent); vec_free(&karr);
    PyMem_RawFree(order); PyMem_RawFree(pre); PyMem_RawFree(depth); PyMem_RawFree(dnode);
    PyMem_RawFree(stack);
    *rc = r;
    return out;
}

/* -- the nested form: a(b(e = 3, f = 12), c = 1 (h = 2)) (scan_nested) ----- */

static PyObject *nested(S *s, int *rc) {
    Vec parent = {0}, depth = {0}, stack = {0}, marks = {0};
    ss *kstart = NULL, *kcount = NULL, *karr = NULL, N = 0, i;
    PyObject **pyname = NULL, *out = NULL, *pymarks = NULL;
    int r = GIVEUP;
    ss p = 0;
    for (;;) {
        p = skip(s, p);
        if (p >= s->n) break;
        if (!stack.n && s->nn) { r = GIVEUP; goto done; }  /* text after the root */
        int kw = keyword(s, p), mark = 0;
        if (kw) {
            ss q = skip(s, p + 3);
            if (name_start(s, q)) { mark = kw; p = q; }
        }
        Name a;
        ss e, id;
        int fresh;
        if ((r = lex_name(s, p, &a, &e)) != OK) goto done;
        if ((r = intern(s, a, &id, &fresh)) != OK) goto done;
        r = GIVEUP;
        if (!fresh) goto done;  /* a name twice: lark names both places */
        if ((r = vec_push(&parent, stack.n ? stack.a[stack.n - 1] : -1)) ||
            (r = vec_push(&depth, stack.n))) goto done;
        if (mark && ((r = vec_push(&marks, id)) || (r = vec_push(&marks, mark)))) goto done;
        p = skip(s, e);
        int has_value = 0;
        if (p < s->n && s->t[p] == '=') {
            PyObject *v = NULL;
            p = skip(s, p + 1);
            if ((r = lex_number(s, p, &e, &v)) != OK) goto done;
            s->vals[id] = v;
            has_value = 1;
            p = skip(s, e);
        }
        if (p < s->n && s->t[p] == '(') {
            if ((r = vec_push(&stack, id)) != OK) goto done;
            p++;
            continue;
        }
        r = GIVEUP;
        if (!has_value || !s->nn || id == 0) goto done;  /* a bare leaf; a lone `a = 3` is flat */
        ss closes = 0;
        while (p < s->n && s->t[p] == ')') { closes++; p = skip(s, p + 1); }
        int comma = p < s->n && s->t[p] == ',';
        if (comma) p++;
        if (closes > stack.n) goto done;
        stack.n -= closes;
        if (comma != (stack.n > 0)) goto done;
    }
    r = GIVEUP;
    N = s->nn;
    if (!N || stack.n || !values_ok(s)) goto done;
    r = ERR;
    if (csr(parent.a, N, &kstart, &kcount, &karr) < 0) goto done;
    pyname = PyMem_RawCalloc((size_t)N, sizeof *pyname);
    if (!pyname) { PyErr_NoMemory(); goto done; }
    for (i = 0; i < N; i++)
        if (!(pyname[i] = make_name(s, &s->names[i])) || PyObject_Hash(pyname[i]) == -1) goto done;
    if (marks.n) {
        if (!(pymarks = PyList_New(marks.n / 2))) goto done;
        for (i = 0; i < marks.n; i += 2) {
            PyObject *m = Py_BuildValue("(ns)", marks.a[i], marks.a[i + 1] == 1 ? "max" : "min");
            if (!m) goto done;
            PyList_SET_ITEM(pymarks, i / 2, m);
        }
    }
    out = result(s, N, NULL, pyname, kstart, kcount, karr, depth.a, 1, pymarks, NULL);
    r = out ? OK : ERR;
done:
    if (pyname) { for (i = 0; i < N; i++) Py_XDECREF(pyname[i]); PyMem_RawFree(pyname); }
    Py_XDECREF(pymarks);
    vec_free(&parent); vec_free(&depth); vec_free(&stack); vec_free(&marks);
    PyMem_RawFree(kstart); PyMem_RawFree(kcount); PyMem_RawFree(karr);
    *rc = r;
    return out;
}

/* -- the list form: [[3, 12], 8], Dewey names r, r_1, r_1_1 (scan_list) ---- */

static int digits_of(ss k) { int d = 1; while (k >= 10) { k /= 10; d++; } return d; }

static PyObject *listform(S *s, ss p, int root_max, ss chars, int *rc) {
    Vec parent = {0}, nth = {0}, depth = {0}, stack = {0}, count = {0};
    ss *kstart = NULL, *kcount = NULL, *karr = NULL, *len = NULL, N = 0, i;
    PyObject **pyname = NULL, *out = NULL, *plist = NULL, *nlist = NULL, *links = NULL;
    int r = GIVEUP;
    Name none = {0, 0, 0, 1};
    while (p < s->n) {
        if (!stack.n && s->nn) { r = GIVEUP; goto done; }  /* text after the root */
        ss opens = 0, id;
        while (p < s->n && s->t[p] == '[') {
            if ((r = add_node(s, none, &id)) != OK) goto done;
            ss up = stack.n ? stack.a[stack.n - 1] : -1;
            if (stack.n) count.a[stack.n - 1]++;
            if ((r = vec_push(&parent, up)) || (r = vec_push(&nth, stack.n ? count.a[stack.n - 1] : 0)) ||
                (r = vec_push(&depth, stack.n)) || (r = vec_push(&stack, id)) || (r = vec_push(&count, 0)))
                goto done;
            opens++;
            p = skip(s, p + 1);
        }
        r = GIVEUP;
        if (!s->nn) goto done;  /* a lone number is no tree */
        PyObject *v = NULL;
        ss e;
        if ((r = lex_number(s, p, &e, &v)) != OK) goto done;
        if ((r = add_node(s, none, &id)) != OK) { Py_DECREF(v); goto done; }
        s->vals[id] = v;
        count.a[stack.n - 1]++;
        if ((r = vec_push(&parent, stack.a[stack.n - 1])) || (r = vec_push(&nth, count.a[stack.n - 1])) ||
            (r = vec_push(&depth, stack.n))) goto done;
        p = skip(s, e);
        ss closes = 0;
        while (p < s->n && s->t[p] == ']') { closes++; p = skip(s, p + 1); }
        int comma = p < s->n && s->t[p] == ',';
        if (comma) p = skip(s, p + 1);
        r = GIVEUP;
        if (closes > stack.n) goto done;
        stack.n -= closes;
        count.n -= closes;
        if (comma != (stack.n > 0)) goto done;
    }
    r = GIVEUP;
    N = s->nn;
    if (!N || stack.n || !values_ok(s)) goto done;
    /* Dewey names past eight characters of them per character of input
     * are not made: the Tree spells them on demand (see the top) */
    r = ERR;
    if (!(len = alloc_ss(N))) goto done;
    len[0] = 1;
    double total = 1;
    for (i = 1; i < N; i++) { len[i] = len[parent.a[i]] + 1 + digits_of(nth.a[i]); total += (double)len[i]; }
    r = ERR;
    if (csr(parent.a, N, &kstart, &kcount, &karr) < 0) goto done;
    if (total > 8.0 * (double)chars + 10000) {  /* spelled on demand: see the top */
        if (!(plist = PyList_New(N)) || !(nlist = PyList_New(N))) goto done;
        for (i = 0; i < N; i++) {
            PyObject *a = PyLong_FromSsize_t(parent.a[i]), *b = a ? PyLong_FromSsize_t(nth.a[i]) : NULL;
            if (!b) { Py_XDECREF(a); goto done; }
            PyList_SET_ITEM(plist, i, a);
            PyList_SET_ITEM(nlist, i, b);
        }
        if (!(links = PyTuple_Pack(2, plist, nlist))) goto done;
        out = result(s, N, NULL, NULL, kstart, kcount, karr, depth.a, root_max, NULL, links);
        r = out ? OK : ERR;
        goto done;
    }
    pyname = PyMem_RawCalloc((size_t)N, sizeof *pyname);
    if (!pyname) { PyErr_NoMemory(); goto done; }
    if (!(pyname[0] = PyUnicode_FromStringAndSize("r", 1))) goto done;
    for (i = 1; i < N; i++) {
        PyObject *up = pyname[parent.a[i]];
        ss ul = PyUnicode_GET_LENGTH(up);
        PyObject *u = PyUnicode_New(len[i], 127);
        if (!u) goto done;
        char *d = PyUnicode_DATA(u);
        memcpy(d, PyUnicode_DATA(up), (size_t)ul);
        d[ul] = '_';
        ss k = nth.a[i];
        for (char *w = d + len[i] - 1; w > d + ul; w--) { *w = (char)('0' + k % 10); k /= 10; }
        pyname[i] = u;
        if (PyObject_Hash(u) == -1) goto done;  /* while fresh: see make_name */
    }
    out = result(s, N, NULL, pyname, kstart, kcount, karr, depth.a, root_max, NULL, NULL);
    r = out ? OK : ERR;
done:
    if (pyname) { for (i = 0; i < N; i++) Py_XDECREF(pyname[i]); PyMem_RawFree(pyname); }
    Py_XDECREF(plist); Py_XDECREF(nlist); Py_XDECREF(links);
    vec_free(&parent); vec_free(&nth); vec_free(&depth); vec_free(&stack); vec_free(&count);
    PyMem_RawFree(kstart); PyMem_RawFree(kcount); PyMem_RawFree(karr); PyMem_RawFree(len);
    *rc = r;
    return out;
}

/* -- the module ------------------------------------------------------------- */

static PyObject *scan_text(PyObject *arg);

static PyObject *scan(PyObject *self, PyObject *arg) {
    (void)self;
    /* a million tuples would start the cyclic collector over and over; the
     * arrays made here hold no cycles */
    int gc_was = PyGC_Disable();
    PyObject *out = scan_text(arg);
    if (gc_was) PyGC_Enable();
    return out;
}

static PyObject *scan_text(PyObject *arg) {
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "scan() takes a str");
        return NULL;
    }
    S s;
    memset(&s, 0, sizeof s);
    s.t = PyUnicode_AsUTF8AndSize(arg, &s.n);
    if (!s.t) {  /* a lone surrogate: the Python paths decide */
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) { PyErr_Clear(); Py_RETURN_NONE; }
        return NULL;
    }
    int rc = GIVEUP;
    PyObject *out = NULL;
    /* pyab.dsl._fast: `[` after an optional side is the list form; else
     * the flat form, and the nested form where the flat one fails. */
    ss p = skip(&s, 0);
    int kw = keyword(&s, p), root_max = 1;
    if (kw) {
        ss q = skip(&s, p + 3);
        if (q < s.n && s.t[q] == '[') { p = q; root_max = kw == 1; }
    }
    if (p < s.n && s.t[p] == '[') {
        out = listform(&s, p, root_max, PyUnicode_GET_LENGTH(arg), &rc);
    } else {
        out = flat(&s, &rc);
        if (rc == GIVEUP) {
            s_free(&s);
            s.any_float = s.inexact_int = 0;
            out = nested(&s, &rc);
        }
    }
    s_free(&s);
    if (rc == ERR) { Py_XDECREF(out); return NULL; }
    if (rc == GIVEUP || !out) { Py_XDECREF(out); Py_RETURN_NONE; }
    return out;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_O,
     "scan(text) -> (names, kids, values, index, depth, root_side, marks) or None\n\n"
     "The arrays of the Tree of a DSL text in the flat, nested or list form, or\n"
     "None when the text is one the Python paths and lark must judge."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cscan",
                                    "The compiled scanner of the tree DSL (see pyab.dsl).", -1, methods};

PyMODINIT_FUNC PyInit__cscan(void) { return PyModule_Create(&module); }
