/* pyab.prolog._cload: a fact tree's clauses asserted from C (optional).
 *
 * load(module, names, kids, values, sides, depth, root_max) asserts into the
 * existing SWI-Prolog module `module` exactly the clauses that
 * load_packed/3 in prolog/bridge/store.pl asserts, in the same order within
 * every predicate (load_packed/3 goes node by node; here one predicate
 * comes after the other, so that each one's clauses lie together in
 * memory, which makes the asserts and the indexes built after them
 * cheaper):
 *
 *     max_to_move(N) for every node where MAX moves, in node order;
 *     min_to_move(N) for every other node, in node order;
 *     staticval(N, V) for every node with a value, in node order;
 *     tree(N, [K1, ..., Kk]) for every inner node, ascending.
 *
 * straight from the Tree's own sequences (pyab/tree/model.py), with no text in
 * between: each name becomes an atom once (PL_new_atom_mbchars, UTF-8, with
 * its length, so any name is exact), each clause one PL_assert.  The
 * references this code takes on those atoms are given back at the end (the
 * clauses hold their own), so loading and dropping trees leaks no atoms.
 *
 * fits(values) says whether every value can go this way (None, an int of
 * 64 bits, a finite float); pyab.prolog asks it before the module is
 * claimed, and a tree with another value takes load_packed/3 whole.
 *
 * SWI-Prolog is reached through function addresses that pyab.prolog takes
 * from the library it started (bind()), not by linking: the same build works
 * whichever way SWI-Prolog was started in the process (pyab's own start,
 * pyswip's, a saved state), and it builds without SWI-Prolog's headers.  The
 * few prototypes in _swi.h are SWI-Prolog.h's (9.x: atom_t, functor_t, term_t
 * and fid_t are uintptr_t, module_t a pointer; PL_ASSERTZ is 0; REP_UTF8
 * 0x00100000), the same assumptions pyab/prolog.py's ctypes prototypes make;
 * the comparison in tests/dsl/test_fast_paths.py would catch a mismatch.
 *
 * The caller holds pyab's runtime lock and has given this thread a Prolog
 * engine; load() checks the second.  It answers True, or False when Prolog
 * raised an exception (left pending for the caller: PL_exception(0)), or
 * raises a Python error; after False or an error the caller drops the
 * module (whatever was asserted goes with it).
 *
 * The extension's other sources: _crecord.c, the recorder of a search in
 * C, and _ctable.c, a big tree file's table.
 *
 * Built by setup.py as an optional extension, like pyab/dsl/_cscan.c:
 * without a C compiler pyab installs and loads trees with load_packed/3.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_swi.h"

struct swi_api pl;
#define COUNT(name, ret, params) +1
enum { NFUNCTIONS = 0 FUNCTIONS(COUNT) };
#define NAME(name, ret, params) #name,
static const char *const function_names[] = {FUNCTIONS(NAME)};

int swi_bound = 0;
static functor_t f_max, f_min, f_staticval, f_tree;

static PyObject *bind(PyObject *self, PyObject *arg) {
    (void)self;
    if (!PyTuple_Check(arg) || PyTuple_GET_SIZE(arg) != NFUNCTIONS) {
        PyErr_Format(PyExc_TypeError, "bind() takes a tuple of %d addresses", NFUNCTIONS);
        return NULL;
    }
    void *addr[NFUNCTIONS];
    for (int i = 0; i < NFUNCTIONS; i++) {
        addr[i] = PyLong_AsVoidPtr(PyTuple_GET_ITEM(arg, i));
        if (!addr[i]) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "no address for %s", function_names[i]);
            return NULL;
        }
    }
    int k = 0;
#define ASSIGN(name, ret, params) pl.name = (ret(*) params)addr[k++];
    FUNCTIONS(ASSIGN)
#undef ASSIGN
    swi_bound = 1;
    f_max = f_min = f_staticval = f_tree = 0; /* made at the next load() */
    Py_RETURN_NONE;
}

static PyObject *functions(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    PyObject *out = PyTuple_New(NFUNCTIONS);
    for (int i = 0; out && i < NFUNCTIONS; i++) {
        PyObject *s = PyUnicode_FromString(function_names[i]);
        if (!s) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, i, s);
    }
    return out;
}

/* -- values ---------------------------------------------------------------- */

enum { V_NONE, V_INT, V_FLOAT, V_OTHER };

static int value_kind(PyObject *v, int64_t *i, double *d) {
    if (v == Py_None) return V_NONE;
    if (PyLong_Check(v) && !PyBool_Check(v)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow || (x == -1 && PyErr_Occurred())) { PyErr_Clear(); return V_OTHER; }
        *i = (int64_t)x;
        return V_INT;
    }
    if (PyFloat_Check(v)) {
        *d = PyFloat_AS_DOUBLE(v);
        return isfinite(*d) ? V_FLOAT : V_OTHER;
    }
    return V_OTHER;
}

static PyObject *fits(PyObject *self, PyObject *values) {
    (void)self;
    PyObject *seq = PySequence_Fast(values, "fits() takes a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int ok = 1;
    int64_t i64;
    double d;
    for (Py_ssize_t k = 0; k < n && ok; k++) ok = value_kind(items[k], &i64, &d) != V_OTHER;
    Py_DECREF(seq);
    return PyBool_FromLong(ok);
}

/* -- the load --------------------------------------------------------------- */

/* The atom of a str (a new reference in Prolog), or 0 with a Python error set. */
static atom_t atom_of(PyObject *s) {
    if (!PyUnicode_Check(s)) {
        PyErr_SetString(PyExc_TypeError, "a node name is not a str");
        return 0;
    }
    atom_t a;
    if (PyUnicode_IS_ASCII(s)) {
        a = pl.PL_new_atom_mbchars(REP_UTF8, (size_t)PyUnicode_GET_LENGTH(s),
                                   (const char *)PyUnicode_DATA(s));
    } else {  /* a UTF-8 copy for the moment (not cached in the str) */
        PyObject *b = PyUnicode_AsUTF8String(s);
        if (!b) return 0;
        a = pl.PL_new_atom_mbchars(REP_UTF8, (size_t)PyBytes_GET_SIZE(b), PyBytes_AS_STRING(b));
        Py_DECREF(b);
    }
    if (!a) PyErr_SetString(PyExc_MemoryError, "SWI-Prolog could not make an atom");
    return a;
}

functor_t functor_of(const char *name, int arity) {
    atom_t a = pl.PL_new_atom_mbchars(REP_UTF8, strlen(name), name);
    return a ? pl.PL_new_functor(a, arity) : 0; /* the atom stays: these names live on */
}

typedef struct {
    PyObject *names, *kids, *values, *sides, *depth; /* fast sequences (sides may be NULL) */
    Py_ssize_t n;
    int root_max; /* with sides by depth: MAX moves at even depths when 1 */
    atom_t *atoms;
    Py_ssize_t made; /* atoms[0..made) hold a reference */
    char *max;       /* 1 where MAX is to move */
} Load;

#define FAIL_PY (-1)
#define FAIL_PROLOG 0
#define DONE 1

/* Every node's atom, and who moves there (L->max[i]). */
static int make_atoms(Load *L) {
    PyObject **names = PySequence_Fast_ITEMS(L->names);
    PyObject **sides = L->sides ? PySequence_Fast_ITEMS(L->sides) : NULL;
    PyObject **depth = L->sides ? NULL : PySequence_Fast_ITEMS(L->depth);
    for (Py_ssize_t i = 0; i < L->n; i++) {
        int is_max;
        if (sides) {
            is_max = PyObject_IsTrue(sides[i]);
            if (is_max < 0) return FAIL_PY;
        } else {
            long d = PyLong_AsLong(depth[i]);
            if (d == -1 && PyErr_Occurred()) return FAIL_PY;
            is_max = ((d & 1) == 0) == (L->root_max != 0);
        }
        L->max[i] = (char)is_max;
        atom_t a = atom_of(names[i]);
        if (!a) return FAIL_PY;
        L->atoms[L->made++] = a;
    }
    return DONE;
}

/* max_to_move(N) (want_max) or min_to_move(N) for every node of that side,
 * in node order. */
static int assert_sides(Load *L, module_t m, term_t t, int want_max) {
    fid_t fid = pl.PL_open_foreign_frame();
    if (!fid) return FAIL_PROLOG;
    int rc = DONE;
    functor_t f = want_max ? f_max : f_min;
    for (Py_ssize_t i = 0; i < L->n; i++) {
        if (L->max[i] != want_max) continue;
        if (!pl.PL_put_atom(t + 1, L->atoms[i]) || !pl.PL_cons_functor_v(t, f, t + 1) ||
            !pl.PL_assert(t, m, PL_ASSERTZ)) { rc = FAIL_PROLOG; break; }
        pl.PL_rewind_foreign_frame(fid); /* the terms are copied into the clauses */
    }
    pl.PL_close_foreign_frame(fid); /* keeps an exception's term */
    return rc;
}

/* staticval(N, V) for every node with a value, in node order. */
static int assert_values(Load *L, module_t m, term_t t) {
    PyObject **values = PySequence_Fast_ITEMS(L->values);
    fid_t fid = pl.PL_open_foreign_frame();
    if (!fid) return FAIL_PROLOG;
    int rc = DONE;
    for (Py_ssize_t i = 0; i < L->n; i++) {
        int64_t iv = 0;
        double dv = 0;
        int kind = value_kind(values[i], &iv, &dv);
        if (kind == V_NONE) continue;
        if (kind == V_OTHER) {
            PyErr_SetString(PyExc_ValueError, "a value that fits() refuses");
            rc = FAIL_PY;
            break;
        }
        if (!pl.PL_put_atom(t + 1, L->atoms[i]) ||
            !(kind == V_INT ? pl.PL_put_int64(t + 2, iv) : pl.PL_put_float(t + 2, dv)) ||
            !pl.PL_cons_functor_v(t, f_staticval, t + 1) || !pl.PL_assert(t, m, PL_ASSERTZ)) {
            rc = FAIL_PROLOG;
            break;
        }
        pl.PL_rewind_foreign_frame(fid);
    }
    pl.PL_close_foreign_frame(fid);
    return rc;
}

static int assert_kids(Load *L, module_t m, term_t t) {
    PyObject **kids = PySequence_Fast_ITEMS(L->kids);
    fid_t fid = pl.PL_open_foreign_frame();
    if (!fid) return FAIL_PROLOG;
    int rc = DONE;
    for (Py_ssize_t i = 0; i < L->n && rc == DONE; i++) {
        PyObject *ks = kids[i];
        if (!PyTuple_Check(ks)) {
            PyErr_SetString(PyExc_TypeError, "a node's children are not a tuple");
            rc = FAIL_PY;
            break;
        }
        Py_ssize_t k = PyTuple_GET_SIZE(ks);
        if (k == 0) continue;
        /* tree(N, L): t+1 = N, t+2 = L built from its end, t+3 a child */
        if (!pl.PL_put_atom(t + 1, L->atoms[i]) || !pl.PL_put_nil(t + 2)) { rc = FAIL_PROLOG; break; }
        while (k-- > 0) {
            Py_ssize_t c = PyLong_AsSsize_t(PyTuple_GET_ITEM(ks, k));
            if (c < 0 || c >= L->n) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a child that is not a node");
                rc = FAIL_PY;
                break;
            }
            if (!pl.PL_put_atom(t + 3, L->atoms[c]) || !pl.PL_cons_list(t + 2, t + 3, t + 2)) {
                rc = FAIL_PROLOG;
                break;
            }
        }
        if (rc != DONE) break;
        if (!pl.PL_cons_functor_v(t, f_tree, t + 1) || !pl.PL_assert(t, m, PL_ASSERTZ)) {
            rc = FAIL_PROLOG;
            break;
        }
        pl.PL_rewind_foreign_frame(fid);
    }
    pl.PL_close_foreign_frame(fid);
    return rc;
}

static PyObject *load(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *module, *names, *kids, *values, *sides, *depth;
    int root_max;
    if (!PyArg_ParseTuple(args, "UOOOOOp:load", &module, &names, &kids, &values, &sides, &depth,
                          &root_max))
        return NULL;
    if (!swi_bound) {
        PyErr_SetString(PyExc_RuntimeError, "pyab.prolog._cload is not bound to SWI-Prolog (bind())");
        return NULL;
    }
    if (pl.PL_thread_self() == -1) {
        PyErr_SetString(PyExc_RuntimeError, "this thread has no SWI-Prolog engine");
        return NULL;
    }
    if (!f_tree) {
        f_max = functor_of("max_to_move", 1);
        f_min = functor_of("min_to_move", 1);
        f_staticval = functor_of("staticval", 2);
        f_tree = functor_of("tree", 2);
        if (!f_max || !f_min || !f_staticval || !f_tree) {
            f_tree = 0;
            return PyErr_NoMemory();
        }
    }
    Load L;
    memset(&L, 0, sizeof L);
    PyObject *out = NULL;
    int rc = FAIL_PY;
    atom_t matom = 0;
    if (!(L.names = PySequence_Fast(names, "names must be a sequence")) ||
        !(L.kids = PySequence_Fast(kids, "kids must be a sequence")) ||
        !(L.values = PySequence_Fast(values, "values must be a sequence")) ||
        (sides != Py_None && !(L.sides = PySequence_Fast(sides, "sides must be a sequence"))) ||
        !(L.depth = PySequence_Fast(depth, "depth must be a sequence")))
        goto out;
    L.n = PySequence_Fast_GET_SIZE(L.names);
    L.root_max = root_max;
    if (PySequence_Fast_GET_SIZE(L.kids) != L.n || PySequence_Fast_GET_SIZE(L.values) != L.n ||
        (L.sides ? PySequence_Fast_GET_SIZE(L.sides) : PySequence_Fast_GET_SIZE(L.depth)) != L.n) {
        PyErr_SetString(PyExc_ValueError, "names, kids, values and sides (or depth) differ in length");
        goto out;
    }
    L.atoms = PyMem_RawMalloc((size_t)(L.n ? L.n : 1) * sizeof *L.atoms);
    L.max = PyMem_RawMalloc((size_t)(L.n ? L.n : 1));
    if (!L.atoms || !L.max) { PyErr_NoMemory(); goto out; }
    matom = atom_of(module);
    if (!matom) goto out;
    module_t m = pl.PL_new_module(matom);
    term_t t = pl.PL_new_term_refs(4);
    if (!m || !t) { rc = FAIL_PROLOG; goto out; }
    /* one predicate after the other: each one's clauses lie together in
     * memory, which makes their asserts and the indexes load_finish/1
     * builds cheaper (benchmarks/HISTORY.md) */
    rc = make_atoms(&L);
    if (rc == DONE) rc = assert_sides(&L, m, t, 1);
    if (rc == DONE) rc = assert_sides(&L, m, t, 0);
    if (rc == DONE) rc = assert_values(&L, m, t);
    if (rc == DONE) rc = assert_kids(&L, m, t);
out:
    for (Py_ssize_t i = 0; i < L.made; i++) pl.PL_unregister_atom(L.atoms[i]);
    if (matom) pl.PL_unregister_atom(matom);
    PyMem_RawFree(L.atoms);
    PyMem_RawFree(L.max);
    Py_XDECREF(L.names);
    Py_XDECREF(L.kids);
    Py_XDECREF(L.values);
    Py_XDECREF(L.sides);
    Py_XDECREF(L.depth);
    if (rc == DONE) out = Py_True;
    else if (rc == FAIL_PROLOG && !PyErr_Occurred()) out = Py_False;
    Py_XINCREF(out);
    return out;
}

int define_foreign(const char *module, const Foreign *preds, size_t n) {
    if (!swi_bound) {
        PyErr_SetString(PyExc_RuntimeError, "pyab.prolog._cload is not bound to SWI-Prolog (bind())");
        return 0;
    }
    if (pl.PL_thread_self() == -1) {
        PyErr_SetString(PyExc_RuntimeError, "this thread has no SWI-Prolog engine");
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!pl.PL_register_foreign_in_module(module, preds[i].name, preds[i].arity, preds[i].f, 0)) {
            PyErr_Format(PyExc_RuntimeError, "SWI-Prolog refused %s:%s/%d", module, preds[i].name,
                         preds[i].arity);
            return 0;
        }
    return 1;
}

/* The recorder (_crecord.c). */
PyObject *register_recorder(PyObject *self, PyObject *unused);

/* The tree table (_ctable.c). */
PyObject *table_write(PyObject *self, PyObject *args);
PyObject *table_check(PyObject *self, PyObject *arg);
PyObject *table_forget(PyObject *self, PyObject *arg);
PyObject *register_table(PyObject *self, PyObject *unused);

static PyMethodDef methods[] = {
    {"bind", bind, METH_O,
     "bind(addresses)\n\nThe addresses of SWI-Prolog's functions named by functions(), in order."},
    {"functions", functions, METH_NOARGS, "functions() -> the names of the functions bind() takes"},
    {"fits", fits, METH_O,
     "fits(values) -> bool\n\nTrue when every value is None, an int of 64 bits or a finite float."},
    {"register_recorder", register_recorder, METH_NOARGS,
     "register_recorder()\n\nDefine pyab_observe's compiled recorder ('$crec_begin'/2 ...)."},
    {"load", load, METH_VARARGS,
     "load(module, names, kids, values, sides, depth, root_max) -> bool\n\n"
     "Assert the tree's clauses into the existing module; False when Prolog\n"
     "raised (the exception is pending)."},
    {"table_write", table_write, METH_VARARGS,
     "table_write(path, names, kids, values, sides, depth, root_max)\n\n"
     "Write a Tree's table to path (see _ctable.c)."},
    {"table_check", table_check, METH_O,
     "table_check(buffer) -> (nodes, flags)\n\nCheck a table; ValueError says what is wrong."},
    {"table_forget", table_forget, METH_O,
     "table_forget(path)\n\nMap the table at path afresh at its next use in Prolog."},
    {"register_table", register_table, METH_NOARGS,
     "register_table()\n\nDefine pyab_table:kids/3, value/3, side/3 and name/3."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cload",
                                       "A fact tree's clauses asserted from C (see pyab.prolog).",
                                       -1, methods};

PyMODINIT_FUNC PyInit__cload(void) { return PyModule_Create(&moduledef); }
