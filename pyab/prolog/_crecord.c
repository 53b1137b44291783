/* The recorder of pyab.prolog._cload (see there): prolog/bridge/observe.pl's
 * recording of a search in mode `names`, in C. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_swi.h"

/* -- the recorder's names mode in C (optional) ------------------------------
 *
 * What moves_/3 and staticval_/3 in prolog/bridge/observe.pl do for a record
 * in mode `names`, for the thread's running search: each call of the tree's
 * moves/2 and staticval/2 appends an entry to a buffer of this thread
 * (malloc'ed, not Prolog's stacks), which '$crec_store'/2 turns into the
 * store observe.pl's own recorder makes: events(E1, ..., EN), where Ei is an
 * atom P for moves(P, _), m(P) when P is not an atom, s(P) for
 * staticval(P, _), and [] for staticval(P, _) on the position of the entry
 * before.  An atom is kept as its handle, with a reference of its own (a
 * game's moves/2 may make atoms the search drops again) given back once the
 * store holds it; any other position is copied with PL_record(), which keeps it
 * across the search's backtracking as nb_setarg/3 does for the Prolog
 * recorder.  Every 1,024 entries the deadline is checked as deadline_/1
 * does (get_time/1's clock: time_limit_exceeded once it has passed).
 *
 * pyab_observe:'$crec_begin'(+Size, +Deadline) starts a recording (what a
 * recording left behind, if anything, is dropped);
 * '$crec_moves'(+P), '$crec_staticval'(+P) append (and fail when this thread
 * records no search in C: observe.pl's wrappers then ask its recorder);
 * '$crec_store'(-N, -Store)
 * gives the entries and ends the recording; '$crec_end' ends it whatever
 * happened (frees what is left; recording/5's cleanup).
 */

enum { E_ATOM, E_M, E_S_ATOM, E_S, E_SAME };
typedef struct { uintptr_t v; int kind; } Entry;
typedef struct { Entry *e; size_t n, cap; double deadline; int active, timed; } Rec;
static __thread Rec rec;
static atom_t a_tle, a_events;
static functor_t f_m, f_s;

static void rec_free(void) {
    for (size_t i = 0; i < rec.n; i++) {
        int kind = rec.e[i].kind;
        if (kind == E_M || kind == E_S) pl.PL_erase((record_t)rec.e[i].v);
        else if (kind == E_ATOM || kind == E_S_ATOM) pl.PL_unregister_atom((atom_t)rec.e[i].v);
    }
    free(rec.e);
    memset(&rec, 0, sizeof rec);
}

static foreign_t crec_begin(term_t size, term_t deadline) {
    /* Size is recording/5's (the last search's calls and an eighth): at
     * least 1,024 entries to start with */
    double s, d = 0;
    size_t want = pl.PL_get_float(size, &s) && s > 1024 && s < 1e9 ? (size_t)s : 1024;
    rec_free();
    rec.e = malloc(want * sizeof *rec.e);
    if (!rec.e) return pl.PL_resource_error("memory");
    rec.cap = want;
    rec.timed = pl.PL_get_float(deadline, &d); /* `inf` is an atom: no deadline */
    rec.deadline = d;
    rec.active = 1;
    return 1;
}

static int past_deadline(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if ((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 > rec.deadline) {
        term_t ex = pl.PL_new_term_refs(1);
        if (ex) pl.PL_put_atom(ex, a_tle);
        return ex ? pl.PL_raise_exception(ex) : 0;
    }
    return 1;
}

static int push(uintptr_t v, int kind) {
    if (rec.n == rec.cap) {
        Entry *bigger = realloc(rec.e, 2 * rec.cap * sizeof *rec.e);
        if (!bigger) {
            if (kind == E_M || kind == E_S) pl.PL_erase((record_t)v);
            else if (kind == E_ATOM || kind == E_S_ATOM) pl.PL_unregister_atom((atom_t)v);
            return pl.PL_resource_error("memory");
        }
        rec.e = bigger;
        rec.cap *= 2;
    }
    rec.e[rec.n].v = v;
    rec.e[rec.n].kind = kind;
    rec.n++;
    return (rec.n & 1023) == 0 && rec.timed ? past_deadline() : 1;
}

static int push_copy(term_t p, int kind) {
    record_t r = pl.PL_record(p);
    return r ? push((uintptr_t)r, kind) : pl.PL_resource_error("memory");
}

static foreign_t crec_moves(term_t p) {
    atom_t a;
    if (!rec.active) return 0;
    if (pl.PL_get_atom(p, &a)) {
        pl.PL_register_atom(a);
        return push(a, E_ATOM);
    }
    return push_copy(p, E_M);
}

static foreign_t crec_staticval(term_t p) {
    atom_t a;
    if (!rec.active) return 0;
    Entry *last = rec.n ? &rec.e[rec.n - 1] : NULL;
    if (pl.PL_get_atom(p, &a)) {
        if (last && last->kind == E_ATOM && last->v == a) return push(0, E_SAME);
        pl.PL_register_atom(a);
        return push(a, E_S_ATOM);
    }
    if (last && last->kind == E_M) {
        term_t t = pl.PL_new_term_refs(1);
        if (!t || !pl.PL_recorded((record_t)last->v, t)) return 0;
        if (pl.PL_compare(t, p) == 0) return push(0, E_SAME);
    }
    return push_copy(p, E_S);
}

static foreign_t crec_store(term_t count, term_t store) {
    if (!rec.active) return 0;
    size_t n = rec.n;
    functor_t fe = pl.PL_new_functor(a_events, n ? (int)n : 1);
    term_t t = pl.PL_new_term_refs(3);
    int ok = fe && t && pl.PL_unify_int64(count, (int64_t)n) && pl.PL_unify_functor(store, fe);
    for (size_t i = 0; ok && i < n; i++) {
        Entry *e = &rec.e[i];
        switch (e->kind) {
        case E_ATOM: ok = pl.PL_put_atom(t + 1, e->v); break;
        case E_SAME: ok = pl.PL_put_nil(t + 1); break;
        case E_S_ATOM:
            ok = pl.PL_put_atom(t + 2, e->v) && pl.PL_cons_functor_v(t + 1, f_s, t + 2);
            break;
        default:
            ok = pl.PL_recorded((record_t)e->v, t + 2) &&
                 pl.PL_cons_functor_v(t + 1, e->kind == E_M ? f_m : f_s, t + 2);
        }
        ok = ok && pl.PL_get_arg_sz(i + 1, store, t) && pl.PL_unify(t, t + 1);
    }
    rec_free();
    return ok;
}

static foreign_t crec_end(void) {
    rec_free();
    return 1;
}

PyObject *register_recorder(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    static const Foreign preds[] = {
        {"$crec_begin", 2, (void *)crec_begin},
        {"$crec_moves", 1, (void *)crec_moves},
        {"$crec_staticval", 1, (void *)crec_staticval},
        {"$crec_store", 2, (void *)crec_store},
        {"$crec_end", 0, (void *)crec_end},
    };
    if (!define_foreign("pyab_observe", preds, sizeof preds / sizeof preds[0])) return NULL;
    /* after: define_foreign() checked that this thread may make atoms */
    if (!a_events) {
        a_tle = pl.PL_new_atom_mbchars(REP_UTF8, 19, "time_limit_exceeded");
        a_events = pl.PL_new_atom_mbchars(REP_UTF8, 6, "events");
        f_m = functor_of("m", 1);
        f_s = functor_of("s", 1);
        if (!a_tle || !a_events || !f_m || !f_s) {
            a_events = 0;
            return PyErr_NoMemory();
        }
    }
    Py_RETURN_NONE;
}
