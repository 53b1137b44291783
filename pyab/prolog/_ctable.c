/* A tree file's table: the tree written once as flat arrays, so that a
 * second search of the same big file neither parses it nor asserts a
 * clause (pyab/trees/table.py keeps the tables in the user's cache).
 *
 * table_write(path, names, kids, values, sides, depth, root_max) writes the
 * table of a Tree's own sequences (pyab/tree/model.py) to path;
 * table_check(buffer) -> (nodes, flags) checks a table in memory and says
 * what is wrong with it (ValueError) before Python reads a byte of it;
 * register_table() defines pyab_table:kids/3, value/3, side/3 and name/3,
 * which answer a search from a table file mapped into memory (checked the
 * same way when first mapped): prolog/trees/table.pl is the tree's
 * moves/2, staticval/2, min_to_move/1, max_to_move/1 over them.  A
 * position is a node's number; the search reads about one node in twenty
 * of a big tree, and only those become terms.
 *
 * The layout (native byte order, which the header checks; every array
 * starts at a multiple of 8 bytes):
 *
 *     "pyabtab1", u32 0x01020304, u32 flags, u64 n, u64 name_bytes
 *     u32 start[n + 1]   node i's children are kids[start[i] .. start[i+1])
 *     u32 kids[n - 1]    ids, each greater than its parent's (tree order)
 *     u32 depth[n]
 *     u8  kind[n]        bits 0-1: no value 0, int 1, float 2; bit 2: MAX to move
 *     i64 value[n]       the int, or the double's bits
 *     u64 name_at[n + 1] node i's name is names[name_at[i] .. name_at[i+1]), UTF-8
 *     u8  names[name_bytes]
 *
 * flags: F_ALTERNATING (every child has the other side to move),
 * F_FLOATS (some value is a float), F_WIDE (some int is beyond 2**53,
 * which a float cannot hold exactly).  The check proves every flag, so
 * Python may trust them (pyab.tree.check_window's scan).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "_swi.h"

#define MAGIC "pyabtab1"
#define ENDIAN 0x01020304u
enum { F_ALTERNATING = 1, F_FLOATS = 2, F_WIDE = 4 };
enum { K_NONE = 0, K_INT = 1, K_FLOAT = 2, K_MAX = 4 };

typedef struct {
    char magic[8];
    uint32_t endian, flags;
    uint64_t n, name_bytes;
} Head;

typedef struct {
    const Head *head;
    uint64_t n;
    const uint32_t *start, *kids, *depth;
    const uint8_t *kind;
    const int64_t *value;
    const uint64_t *name_at;
    const char *names;
} Table;

static uint64_t up8(uint64_t x) { return (x + 7) & ~(uint64_t)7; }

/* Where each array lies, and the whole size, for n nodes and b name bytes
 * (n <= 2**32 - 2 and b <= 2**48, so nothing here overflows). */
static uint64_t layout(uint64_t n, uint64_t b, uint64_t at[7]) {
    uint64_t o = up8(sizeof(Head));
    at[0] = o; o = up8(o + 4 * (n + 1));   /* start */
    at[1] = o; o = up8(o + 4 * (n - 1));   /* kids */
    at[2] = o; o = up8(o + 4 * n);         /* depth */
    at[3] = o; o = up8(o + n);             /* kind */
    at[4] = o; o = o + 8 * n;              /* value */
    at[5] = o; o = o + 8 * (n + 1);        /* name_at */
    at[6] = o; return o + b;               /* names */
}

static int exact_in_float(int64_t v) { return v >= -(INT64_C(1) << 53) && v <= (INT64_C(1) << 53); }

static int utf8_ok(const unsigned char *s, uint64_t len) {
    uint64_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        int more;
        uint32_t cp;
        if (c < 0x80) { i++; continue; }
        else if ((c & 0xE0) == 0xC0) { more = 1; cp = c & 0x1F; }
        else if ((c & 0xF0) == 0xE0) { more = 2; cp = c & 0x0F; }
        else if ((c & 0xF8) == 0xF0) { more = 3; cp = c & 0x07; }
        else return 0;
        if (len - i <= (uint64_t)more) return 0;
        for (int k = 1; k <= more; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((more == 1 && cp < 0x80) || (more == 2 && cp < 0x800) || (more == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += (uint64_t)more + 1;
    }
    return 1;
}

/* Fill T from the len bytes at p, or say what is wrong (a static text). */
static const char *table_read(const void *p, uint64_t len, Table *T) {
    const Head *h = p;
    uint64_t at[7];
    if ((uintptr_t)p % 8) return "not aligned in memory";
    if (len < sizeof(Head) || memcmp(h->magic, MAGIC, 8)) return "not a pyab tree table";
    if (h->endian != ENDIAN) return "written on a machine of the other byte order";
    if (h->flags & ~(uint32_t)(F_ALTERNATING | F_FLOATS | F_WIDE)) return "unknown flags";
    uint64_t n = h->n;
    if (n < 1 || n > UINT32_MAX - 1 || h->name_bytes > (UINT64_C(1) << 48)) return "sizes out of range";
    if (layout(n, h->name_bytes, at) != len) return "its size does not match its header";
    const char *b = p;
    T->head = h;
    T->n = n;
    T->start = (const uint32_t *)(b + at[0]);
    T->kids = (const uint32_t *)(b + at[1]);
    T->depth = (const uint32_t *)(b + at[2]);
    T->kind = (const uint8_t *)(b + at[3]);
    T->value = (const int64_t *)(b + at[4]);
    T->name_at = (const uint64_t *)(b + at[5]);
    T->names = b + at[6];
    if (T->start[0] != 0 || T->start[n] != n - 1 || T->depth[0] != 0 || T->name_at[0] != 0 ||
        T->name_at[n] != h->name_bytes)
        return "its arrays do not start or end where they should";
    unsigned char *parent_seen = calloc(n, 1);
    if (!parent_seen) return "no memory to check it";
    const char *why = NULL;
    uint32_t flags = F_ALTERNATING;
    for (uint64_t i = 0; i < n && !why; i++) {
        uint32_t s = T->start[i], e = T->start[i + 1];
        uint8_t kind = T->kind[i];
        if (e < s || e > n - 1) { why = "a node's children lie outside the table"; break; }
        if (kind & ~7 || (kind & 3) == 3) { why = "a node of unknown kind"; break; }
        if (e == s && !(kind & 3)) { why = "a leaf without a value"; break; }
        if ((kind & 3) == K_FLOAT) {
            double d;
            memcpy(&d, &T->value[i], sizeof d);
            if (!isfinite(d)) { why = "a value that is not a finite number"; break; }
            flags |= F_FLOATS;
        } else if ((kind & 3) == K_INT && !exact_in_float(T->value[i])) {
            flags |= F_WIDE;
        }
        if (T->name_at[i + 1] < T->name_at[i] ||
            !utf8_ok((const unsigned char *)T->names + T->name_at[i], T->name_at[i + 1] - T->name_at[i])) {
            why = "a misplaced name, or one that is not UTF-8";
            break;
        }
        for (uint32_t j = s; j < e; j++) {
            uint32_t k = T->kids[j];
            if (k <= i || k >= n || parent_seen[k]) { why = "a child out of tree order or with two parents"; break; }
            parent_seen[k] = 1;
            if (T->depth[k] != T->depth[i] + 1) { why = "a child at the wrong depth"; break; }
            if ((T->kind[k] & K_MAX) == (kind & K_MAX)) flags &= ~(uint32_t)F_ALTERNATING;
        }
    }
    free(parent_seen);
    if (why) return why;
    if (flags != h->flags) return "its flags do not match its nodes";
    return NULL;
}

/* -- writing ---------------------------------------------------------------- */

static int put(FILE *f, const void *p, size_t size) {
    static const char zeros[8];
    if (size && fwrite(p, 1, size, f) != size) return 0;
    size_t pad = (size_t)(up8(size) - size);
    return !pad || fwrite(zeros, 1, pad, f) == pad;
}

PyObject *table_write(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *path, *names, *kids, *values, *sides, *depth;
    int root_max;
    if (!PyArg_ParseTuple(args, "O&OOOOOp:table_write", PyUnicode_FSConverter, &path, &names, &kids,
                          &values, &sides, &depth, &root_max))
        return NULL;
    PyObject *N = NULL, *K = NULL, *V = NULL, *S = NULL, *D = NULL, *out = NULL;
    uint32_t *start = NULL, *kid = NULL, *dep = NULL;
    uint8_t *kind = NULL;
    int64_t *val = NULL;
    uint64_t *name_at = NULL;
    FILE *f = NULL;
    if (!(N = PySequence_Fast(names, "names must be a sequence")) ||
        !(K = PySequence_Fast(kids, "kids must be a sequence")) ||
        !(V = PySequence_Fast(values, "values must be a sequence")) ||
        (sides != Py_None && !(S = PySequence_Fast(sides, "sides must be a sequence"))) ||
        !(D = PySequence_Fast(depth, "depth must be a sequence")))
        goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(N);
    if (n < 1 || (uint64_t)n > UINT32_MAX - 1 || PySequence_Fast_GET_SIZE(K) != n ||
        PySequence_Fast_GET_SIZE(V) != n || PySequence_Fast_GET_SIZE(D) != n ||
        (S && PySequence_Fast_GET_SIZE(S) != n)) {
        PyErr_SetString(PyExc_ValueError, "names, kids, values, sides and depth differ in length");
        goto done;
    }
    start = PyMem_RawMalloc(4 * ((size_t)n + 1));
    kid = PyMem_RawMalloc(4 * (size_t)n);
    dep = PyMem_RawMalloc(4 * (size_t)n);
    kind = PyMem_RawMalloc((size_t)n);
    val = PyMem_RawMalloc(8 * (size_t)n);
    name_at = PyMem_RawMalloc(8 * ((size_t)n + 1));
    if (!start || !kid || !dep || !kind || !val || !name_at) { PyErr_NoMemory(); goto done; }
    uint32_t flags = F_ALTERNATING;
    uint64_t nk = 0, bytes = 0;
    PyObject **ni = PySequence_Fast_ITEMS(N), **ki = PySequence_Fast_ITEMS(K),
             **vi = PySequence_Fast_ITEMS(V), **di = PySequence_Fast_ITEMS(D),
             **si = S ? PySequence_Fast_ITEMS(S) : NULL;
    name_at[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long d = PyLong_AsLong(di[i]);
        if (d == -1 && PyErr_Occurred()) goto done;
        dep[i] = (uint32_t)d;
        int is_max = si ? PyObject_IsTrue(si[i]) : (((d & 1) == 0) == (root_max != 0));
        if (is_max < 0) goto done;
        uint8_t k = is_max ? K_MAX : 0;
        PyObject *v = vi[i];
        val[i] = 0;
        if (v == Py_None) {
        } else if (PyLong_Check(v) && !PyBool_Check(v)) {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow || (x == -1 && PyErr_Occurred())) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "a value beyond 64 bits");
                goto done;
            }
            val[i] = (int64_t)x;
            k |= K_INT;
            if (!exact_in_float(val[i])) flags |= F_WIDE;
        } else if (PyFloat_Check(v) && isfinite(PyFloat_AS_DOUBLE(v))) {
            double x = PyFloat_AS_DOUBLE(v);
            memcpy(&val[i], &x, sizeof x);
            k |= K_FLOAT;
            flags |= F_FLOATS;
        } else {
            PyErr_SetString(PyExc_ValueError, "a value that is not a number of 64 bits");
            goto done;
        }
        kind[i] = k;
        start[i] = (uint32_t)nk;
        PyObject *ks = ki[i];
        if (!PyTuple_Check(ks)) { PyErr_SetString(PyExc_TypeError, "a node's children are not a tuple"); goto done; }
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(ks); j++) {
            Py_ssize_t c = PyLong_AsSsize_t(PyTuple_GET_ITEM(ks, j));
            if (c <= i || c >= n || nk >= (uint64_t)n - 1) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "children out of tree order");
                goto done;
            }
            kid[nk++] = (uint32_t)c;
        }
        Py_ssize_t len;
        if (!PyUnicode_Check(ni[i]) || !PyUnicode_AsUTF8AndSize(ni[i], &len)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a node name is not a str");
            goto done;
        }
        bytes += (uint64_t)len;
        name_at[i + 1] = bytes;
    }
    start[n] = (uint32_t)nk;
    for (Py_ssize_t i = 0; i < n; i++)
        for (uint32_t j = start[i]; j < start[i + 1]; j++)
            if ((kind[kid[j]] & K_MAX) == (kind[i] & K_MAX)) flags &= ~(uint32_t)F_ALTERNATING;
    Head h;
    memcpy(h.magic, MAGIC, 8);
    h.endian = ENDIAN;
    h.flags = flags;
    h.n = (uint64_t)n;
    h.name_bytes = bytes;
    f = fopen(PyBytes_AS_STRING(path), "wb");
    if (!f) { PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path); goto done; }
    int ok = put(f, &h, sizeof h) && put(f, start, 4 * ((size_t)n + 1)) && put(f, kid, 4 * (size_t)(n - 1)) &&
             put(f, dep, 4 * (size_t)n) && put(f, kind, (size_t)n) && fwrite(val, 8, (size_t)n, f) == (size_t)n &&
             fwrite(name_at, 8, (size_t)n + 1, f) == (size_t)n + 1;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(ni[i], &len); /* cached by the first pass */
        ok = fwrite(s, 1, (size_t)len, f) == (size_t)len;
    }
    if (fclose(f) != 0) ok = 0;
    f = NULL;
    if (!ok) { PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path); goto done; }
    out = Py_None;
    Py_INCREF(out);
done:
    if (f) fclose(f);
    PyMem_RawFree(start);
    PyMem_RawFree(kid);
    PyMem_RawFree(dep);
    PyMem_RawFree(kind);
    PyMem_RawFree(val);
    PyMem_RawFree(name_at);
    Py_XDECREF(N);
    Py_XDECREF(K);
    Py_XDECREF(V);
    Py_XDECREF(S);
    Py_XDECREF(D);
    Py_DECREF(path);
    return out;
}

PyObject *table_check(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    Table T;
    const char *why = table_read(view.buf, (uint64_t)view.len, &T);
    PyObject *out = why ? NULL : Py_BuildValue("(KI)", (unsigned long long)T.n, (unsigned)T.head->flags);
    PyBuffer_Release(&view);
    if (why) PyErr_SetString(PyExc_ValueError, why);
    return out;
}

/* -- answering a search ------------------------------------------------------
 *
 * Tables are mapped by file (the atom of its path) on first use, checked, and
 * kept mapped: a process searches a handful of big trees.  table_forget()
 * marks a path's mapping stale when Python reads the file again (a cached
 * table's name is its source's hash, so only a test rewrites one in
 * place).  The lock keeps a table from being unmapped under another
 * thread's reader. */

enum { OPEN_MAX = 8 };
typedef struct { atom_t file; char *path; int stale; void *map; size_t len; Table t; } Open;
static Open open_tables[OPEN_MAX];
static int open_next;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static functor_t f_error;
static atom_t a_max, a_min;

static int raise_table(atom_t file, const char *why) {
    term_t t = pl.PL_new_term_refs(3);
    atom_t w = pl.PL_new_atom_mbchars(REP_UTF8, strlen(why), why);
    if (!t || !w) return 0;
    int ok = pl.PL_put_atom(t + 1, file) && pl.PL_put_atom(t + 2, w) &&
             pl.PL_cons_functor_v(t, f_error, t + 1);
    pl.PL_unregister_atom(w);
    return ok ? pl.PL_raise_exception(t) : 0;
}

/* The table of file `ft` (locked on success; the caller unlocks), or NULL
 * with a Prolog exception raised. */
static const Table *table_of(term_t ft) {
    atom_t file;
    if (!pl.PL_get_atom(ft, &file)) return NULL; /* fails: not a table's name */
    pthread_mutex_lock(&open_lock);
    for (int i = 0; i < OPEN_MAX; i++)
        if (open_tables[i].file == file && !open_tables[i].stale) return &open_tables[i].t;
    size_t len;
    const char *path, *why = NULL;
    if (!pl.PL_atom_mbchars(file, &len, &path, REP_UTF8) || strlen(path) != len) {
        why = "not a file name";
    } else {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        struct stat st;
        void *map = MAP_FAILED;
        if (fd < 0 || fstat(fd, &st) != 0) why = "cannot be read";
        else if (st.st_size < (off_t)sizeof(Head)) why = "not a pyab tree table";
        else if ((map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
            why = "cannot be mapped";
        if (fd >= 0) close(fd);
        if (!why) {
            Open *o = &open_tables[open_next];
            if (o->file) {
                munmap(o->map, o->len);
                pl.PL_unregister_atom(o->file);
                free(o->path);
                o->file = 0;
            }
            why = table_read(map, (uint64_t)st.st_size, &o->t);
            if (!why && !(o->path = strdup(path))) why = "no memory to open it";
            if (why) {
                munmap(map, (size_t)st.st_size);
            } else {
                pl.PL_register_atom(file);
                o->file = file;
                o->stale = 0;
                o->map = map;
                o->len = (size_t)st.st_size;
                open_next = (open_next + 1) % OPEN_MAX;
                return &o->t;
            }
        }
    }
    pthread_mutex_unlock(&open_lock);
    raise_table(file, why);
    return NULL;
}

/* The node number in t, or -1 (the predicate fails: no such position). */
static int64_t node_of(const Table *T, term_t t) {
    int64_t i;
    return pl.PL_get_int64(t, &i) && i >= 0 && (uint64_t)i < T->n ? i : -1;
}

/* Unify out with what `what` asks of node pt in table ft (its children,
 * value, side or name); fails where the node has none, or pt is no node. */
enum { A_KIDS, A_VALUE, A_SIDE, A_NAME };

static foreign_t answer(term_t ft, term_t pt, term_t out, int what) {
    const Table *T = table_of(ft);
    if (!T) return 0;
    int64_t i = node_of(T, pt);
    int ok = 0;
    term_t t = i >= 0 ? pl.PL_new_term_refs(2) : 0;
    if (!t) {
    } else if (what == A_KIDS) {
        ok = T->start[i + 1] > T->start[i] && pl.PL_put_nil(t);
        for (uint32_t j = T->start[i + 1]; ok && j-- > T->start[i];)
            ok = pl.PL_put_int64(t + 1, T->kids[j]) && pl.PL_cons_list(t, t + 1, t);
    } else if (what == A_VALUE) {
        double d;
        memcpy(&d, &T->value[i], sizeof d);
        ok = (T->kind[i] & 3) == K_INT ? pl.PL_put_int64(t, T->value[i])
             : (T->kind[i] & 3) == K_FLOAT && pl.PL_put_float(t, d);
    } else if (what == A_SIDE) {
        ok = pl.PL_put_atom(t, T->kind[i] & K_MAX ? a_max : a_min);
    } else {
        atom_t a = pl.PL_new_atom_mbchars(REP_UTF8, (size_t)(T->name_at[i + 1] - T->name_at[i]),
                                          T->names + T->name_at[i]);
        ok = a && pl.PL_put_atom(t, a);
        if (a) pl.PL_unregister_atom(a); /* the term holds it now */
    }
    ok = ok && pl.PL_unify(out, t);
    pthread_mutex_unlock(&open_lock);
    return ok;
}

static foreign_t kids3(term_t ft, term_t pt, term_t out) { return answer(ft, pt, out, A_KIDS); }
static foreign_t value3(term_t ft, term_t pt, term_t out) { return answer(ft, pt, out, A_VALUE); }
static foreign_t side3(term_t ft, term_t pt, term_t out) { return answer(ft, pt, out, A_SIDE); }
static foreign_t name3(term_t ft, term_t pt, term_t out) { return answer(ft, pt, out, A_NAME); }

/* table_forget(path): the file at path was (re)read by Python; the next
 * search maps it afresh instead of answering from an earlier mapping. */
PyObject *table_forget(PyObject *self, PyObject *arg) {
    (void)self;
    PyObject *bytes;
    if (!PyUnicode_FSConverter(arg, &bytes)) return NULL;
    pthread_mutex_lock(&open_lock);
    for (int i = 0; i < OPEN_MAX; i++)
        if (open_tables[i].file && !strcmp(open_tables[i].path, PyBytes_AS_STRING(bytes)))
            open_tables[i].stale = 1;
    pthread_mutex_unlock(&open_lock);
    Py_DECREF(bytes);
    Py_RETURN_NONE;
}

PyObject *register_table(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    static const Foreign preds[] = {
        {"kids", 3, (void *)kids3}, {"value", 3, (void *)value3},
        {"side", 3, (void *)side3}, {"name", 3, (void *)name3},
    };
    if (!define_foreign("pyab_table", preds, sizeof preds / sizeof preds[0])) return NULL;
    /* after: define_foreign() checked that this thread may make atoms */
    if (!f_error) {
        a_max = pl.PL_new_atom_mbchars(REP_UTF8, 3, "max");
        a_min = pl.PL_new_atom_mbchars(REP_UTF8, 3, "min");
        f_error = functor_of("pyab_table", 2);
        if (!a_max || !a_min || !f_error) {
            f_error = 0;
            return PyErr_NoMemory();
        }
    }
    Py_RETURN_NONE;
}
