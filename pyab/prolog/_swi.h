/* SWI-Prolog's foreign interface as pyab's compiled extension reaches it:
 * through function addresses pyab.prolog takes from the library it started
 * and hands to _cload's bind(), not by linking (see _cload.c).  Shared by
 * the extension's sources (_cload.c, _ctable.c). */
#ifndef PYAB_SWI_H
#define PYAB_SWI_H

#include <stddef.h>
#include <stdint.h>

typedef uintptr_t atom_t;
typedef uintptr_t functor_t;
typedef uintptr_t term_t;
typedef uintptr_t fid_t;
typedef void *module_t;
typedef void *record_t;
typedef uintptr_t foreign_t;

#define REP_UTF8 0x00100000
#define PL_ASSERTZ 0x0000

/* The functions used, in the order bind() takes their addresses (functions()
 * gives pyab/prolog.py their names). */
#define FUNCTIONS(X)                                                     \
    X(PL_new_atom_mbchars, atom_t, (int, size_t, const char *))          \
    X(PL_unregister_atom, void, (atom_t))                                \
    X(PL_register_atom, void, (atom_t))                                  \
    X(PL_new_functor, functor_t, (atom_t, int))                          \
    X(PL_new_module, module_t, (atom_t))                                 \
    X(PL_new_term_refs, term_t, (int))                                   \
    X(PL_open_foreign_frame, fid_t, (void))                              \
    X(PL_rewind_foreign_frame, void, (fid_t))                            \
    X(PL_close_foreign_frame, void, (fid_t))                             \
    X(PL_put_atom, int, (term_t, atom_t))                                \
    X(PL_put_int64, int, (term_t, int64_t))                              \
    X(PL_put_float, int, (term_t, double))                               \
    X(PL_put_nil, int, (term_t))                                         \
    X(PL_cons_functor_v, int, (term_t, functor_t, term_t))               \
    X(PL_cons_list, int, (term_t, term_t, term_t))                       \
    X(PL_assert, int, (term_t, module_t, int))                           \
    X(PL_thread_self, int, (void))                                       \
    X(PL_register_foreign_in_module, int,                                \
      (const char *, const char *, int, void *, int, ...))               \
    X(PL_get_atom, int, (term_t, atom_t *))                              \
    X(PL_get_float, int, (term_t, double *))                             \
    X(PL_get_arg_sz, int, (size_t, term_t, term_t))                      \
    X(PL_record, record_t, (term_t))                                     \
    X(PL_recorded, int, (record_t, term_t))                              \
    X(PL_erase, void, (record_t))                                        \
    X(PL_compare, int, (term_t, term_t))                                 \
    X(PL_unify, int, (term_t, term_t))                                   \
    X(PL_unify_functor, int, (term_t, functor_t))                        \
    X(PL_unify_int64, int, (term_t, int64_t))                            \
    X(PL_raise_exception, int, (term_t))                                 \
    X(PL_resource_error, int, (const char *))                            \
    X(PL_get_int64, int, (term_t, int64_t *))                            \
    X(PL_atom_mbchars, int, (atom_t, size_t *, const char **, unsigned)) 

#define DECLARE(name, ret, params) ret(*name) params;
struct swi_api { FUNCTIONS(DECLARE) };
#undef DECLARE

/* Defined in _cload.c, filled by its bind(); `swi_bound` is 1 once it is. */
extern struct swi_api pl;
extern int swi_bound;

/* The functor name/arity (its atom stays: these names live on), or 0. */
functor_t functor_of(const char *name, int arity);

/* Foreign predicates to define, and the one place that defines them: 1, or
 * 0 with a Python error set (not bound, no engine in this thread, or
 * SWI-Prolog refused one).  Needs Python.h before this header. */
typedef struct { const char *name; int arity; void *f; } Foreign;
int define_foreign(const char *module, const Foreign *preds, size_t n);

#endif
