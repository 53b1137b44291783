/*  Part of pyab_bridge (prolog/pyab_bridge.pl), included there.

    The end of a tree's module: dropping, recycling an emptied module for
    the next tree, and counting what is alive (for the leak tests).
*/

%!  drop(+M) is det.
%
%   Remove tree module M and every program module loaded for it.

drop(M) :-
    catch(drop_(M), E, (print_message(warning, E), fail)),
    !.
drop(_).

drop_(M) :-
    retractall(free_module_(M)),
    retractall(rules_module_(M, _)),
    forall(program_module(M, P, _), forget_program_(M, P)),
    forall(retract(traced_(M, P)), retractall(trace_event_(P, _))),
    destroy(M).

%   Unload program module P of tree module M and destroy it.  (A rules
%   module is its own program module: P == M.)

forget_program_(M, P) :-
    % Tables are kept by module name, not in the module: a later module of
    % the same name (recycling reuses names) would find them.
    catch(abolish_module_tables(P), _, true),
    retractall(program_idle_(P)),
    retractall(traced_(M, P)),
    retractall(trace_event_(P, _)),
    retractall(program_stamp_(P, _, _)),
    forall(retract(program_module(M, P, Id)),
           catch(unload_file(Id), _, true)),
    destroy(P).

destroy(M) :-
    (   current_module(M)
    ->  forall(( current_predicate(M:N/A), functor(H, N, A),
                 \+ predicate_property(M:H, imported_from(_)) ),
               catch(abolish(M:N/A), _, true)),
        '$destroy_module'(M)
    ;   true
    ).


                 /*******************************
                 *    RECYCLING TREE MODULES    *
                 *******************************/

%   SWI-Prolog 9.0.4 never frees a wrap_predicate/4 closure, and a
%   temporary module destroyed after a file was loaded into it keeps a few
%   hundred bytes: destroying a tree's module leaves about 2 Kb behind.  So
%   a fact tree's module is emptied and reused instead, with its wrappers
%   and its program modules.  The free list is free_module_/1; the names
%   are chosen by Python (pyab/prolog.py), which keeps its own list of the
%   modules recycle/1 accepted.

:- dynamic free_module_/1.              % TreeModule
:- dynamic program_idle_/1.             % ProgModule kept by recycle/1, unused since

%!  recycle(+M) is semidet.
%
%   Empty the fact tree module M of a tree that is gone, for the next tree:
%   retract its facts (tree/2, staticval/2, min_to_move/1, max_to_move/1,
%   the moves/2 bridge) and its recorded events, and forget the traced
%   events of its programs.  M keeps its wrappers and its program modules,
%   except a program module with a dynamic or tabled predicate of its own
%   (which could carry state to the next tree): that one is destroyed.
%   load_tree/2 and load_packed_safe/4 then load into M again.
%
%   Fails, after dropping M altogether (drop/1), when M is not a fact tree
%   module in use (a rules module, one already free, no module) or when it
%   does not come out empty.

recycle(M) :-
    must_be(atom, M),
    (   catch(recycle_(M), E, (print_message(warning, E), fail))
    ->  true
    ;   drop(M),
        fail
    ).

recycle_(M) :-
    current_module(M),
    \+ rules_module_(M, _),
    \+ free_module_(M),
    \+ program_module(_, M, _),
    forall(tree_predicate_(H), retractall(M:H)),
    \+ ( own_dynamic_(M, H),              % no other fact came in
         predicate_property(M:H, number_of_clauses(C)),
         C > 0
       ),
    forall(traced_(M, P), retractall(trace_event_(P, _))),
    forall(( program_module(M, P, _), stateful_program_(P) ),
           forget_program_(M, P)),
    forall(program_module(M, P, _),
           ( retractall(program_idle_(P)), assertz(program_idle_(P)) )),
    assertz(free_module_(M)).

tree_predicate_(tree(_, _)).
tree_predicate_(staticval(_, _)).
tree_predicate_(min_to_move(_)).
tree_predicate_(max_to_move(_)).
tree_predicate_(moves(_, _)).
tree_predicate_('$pyab_event'(_, _)).

stateful_program_(P) :-
    (   own_dynamic_(P, _)
    ->  true
    ;   current_predicate(P:N/A),
        functor(H, N, A),
        predicate_property(P:H, tabled)
    ->  true
    ).

%   A dynamic predicate of M's own.  The clause that wrap_predicate/4 keeps
%   for a wrapper's body lives in a dynamic predicate named '$wrap$'Name
%   ('$wrap_predicate'/5 in SWI-Prolog's boot/syspred.pl): that is the
%   observation, not data.

own_dynamic_(M, H) :-
    current_predicate(M:N/A),
    \+ sub_atom(N, 0, _, _, '$wrap$'),
    functor(H, N, A),
    \+ predicate_property(M:H, imported_from(_)),
    predicate_property(M:H, dynamic).

%   When a new tree claims a recycled module: a program file changed since
%   it was loaded is loaded afresh (as it would be for a new module).

refresh_programs_(M) :-
    forall(( program_module(M, P, _), \+ program_unchanged_(P) ),
           forget_program_(M, P)).

program_unchanged_(P) :-
    program_stamp_(P, File, Stamp),
    catch(program_stamp_of_(File, Stamp), _, fail).

%!  live_modules(-Count) is det.
%
%   How many tree and program modules are in use (for leak tests): free
%   tree modules (recycle/1) are not counted, nor the program modules they
%   kept until a search of the next tree uses them again.

live_modules_text(Text) :-
    live_modules(Count),
    number_string(Count, Text).

live_modules(Count) :-
    aggregate_all(count, live_module_(_), Count).

%   current_module/1 does not enumerate modules of class `temporary` (the
%   class every tree and program module gets), so walk the atoms instead and
%   ask about each candidate by name.

live_module_(M) :-
    current_atom(M),
    sub_atom(M, 0, _, _, pyab_t),
    current_module(M),
    \+ free_(M).

free_(M) :-
    free_module_(M),
    !.
free_(P) :-
    program_idle_(P).

%!  resource_counts_text(-Text) is det.
%
%   Text is "Modules Atoms TextAtoms Closures Free", right after a stack and
%   an atom garbage collection, for leak tests: tree/program modules in use, the
%   atom table's size (statistics/2 key `atoms`, which counts blobs too),
%   the text atoms among them, and the closure blobs (wrap_predicate/4
%   makes one per wrapper; SWI-Prolog 9.0.4 never frees them), and the
%   free tree modules waiting to be reused (recycle/1).
%
%   The stack garbage collection first: atom garbage collection keeps every
%   atom that dead terms on the global stack still name, and after a big
%   search (a stack grown to hundreds of Mb, collected rarely) that was
%   thousands of atoms of later trees, which looked like a leak.

resource_counts_text(Text) :-
    garbage_collect,
    garbage_collect_atoms,
    live_modules(Modules),
    statistics(atoms, Atoms),
    aggregate_all(count, current_blob(_, text), TextAtoms),
    aggregate_all(count, current_blob(_, closure), Closures),
    aggregate_all(count, free_module_(_), Free),
    format(string(Text), "~d ~d ~d ~d ~d", [Modules, Atoms, TextAtoms, Closures, Free]).
