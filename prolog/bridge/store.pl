:- module(pyab_store,
          [ load_tree/2,        % +Module, +FactText
            load_packed/3,      % +Module, +Names, +Shape
            load_claim/1,       % +Module
            load_finish/1,      % +Module
            load_rules/3,       % +Module, +RulesFile, +ParamText
            rules_mode/2,       % +Module, +Mode
            recycle/1,          % +Module
            drop/1,             % +Module
            ensure_program/3,   % +Tree, +Prog, +File
            tree_nodes/2,       % +Tree, -Nodes
            root_position/3,    % +Tree, +RootText, -Root
            position_text/3,    % +Tree, +Position, -Text
            live_modules/1,     % -Count
            resource_counts/1   % -Text
          ]).
/** <module> Where trees and programs live: one module per tree

A tree lives in a module of its own (facts only, or a rules file with its
parameters); each search program gets a module of its own that imports
the tree module, so the program finds moves/2, staticval/2, min_to_move/1
and max_to_move/1 there.  Module names come from Python
(pyab/prolog.py), which keeps the free lists.

SWI-Prolog 9.0.4 never frees a wrap_predicate/4 closure, and a temporary
module destroyed after a file was loaded into it keeps a few hundred
bytes: destroying a tree's module leaves about 2 Kb behind.  So a module
whose tree is gone is emptied and reused instead (recycle/1), with its
wrappers and its program modules; a tree given as rules keeps its rules
file too and takes only new parameters.
*/

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(error)).
:- use_module(library(aggregate)).
:- use_module(state).
:- use_module(observe).

                 /*******************************
                 *          FACT TREES          *
                 *******************************/

%!  load_tree(+M, +Text) is det.
%
%   Assert the facts read from Text in module M (new, or one that
%   recycle/1 emptied) and observe it.  Only tree/2, staticval/2,
%   min_to_move/1, max_to_move/1 facts with ground arguments and the
%   slides' moves/2 bridge clause are accepted; anything else is a
%   domain_error and M is dropped again.  (Prolog users and the plunit
%   suites load fact text; Python sends the packed form, load_packed/3.)
%
%   @error domain_error(pyab_fact, Term)

load_tree(M, Text) :-
    claim_module_(M, Fresh),
    catch(load_tree_(M, Fresh, Text), E, (drop(M), throw(E))).

load_tree_(M, Fresh, Text) :-
    tree_module_(Fresh, M),
    setup_call_cleanup(open_string(Text, S),
                       read_facts_(S, M),
                       close(S)),
    finish_tree_(M).

read_facts_(S, M) :-
    read_term(S, T, [syntax_errors(error)]),
    (   T == end_of_file
    ->  true
    ;   add_fact_(T, M),
        read_facts_(S, M)
    ).

add_fact_(T, M) :-
    (   fact_(T)
    ->  assertz(M:T)
    ;   T = (moves(P, L) :- tree(P1, L1)), var(P), var(L), P == P1, L == L1
    ->  assertz(M:T)
    ;   T = (:- Directive), harmless_directive_(Directive)
    ->  true
    ;   domain_error(pyab_fact, T)
    ).

harmless_directive_(dynamic(_)).
harmless_directive_(encoding(utf8)).

fact_(tree(P, L)) :- atom(P), is_list(L), maplist(atom, L).
fact_(staticval(P, V)) :- atom(P), number(V).
fact_(min_to_move(P)) :- atom(P).
fact_(max_to_move(P)) :- atom(P).

%!  load_packed(+M, +Names, +Shape) is det.
%
%   load_tree/2 for a tree sent packed rather than as fact text: the same
%   clauses, asserted in the same order, without reading a million terms
%   (see benchmarks/HISTORY.md).  Names holds every node's name in tree
%   order (depth-first pre-order), separated by NUL.  Shape is the text of
%   shape(Sides, Parents, Kids, Values), nodes numbered from 0 in tree
%   order: Sides a string with a code per node, `x` when MAX is to move
%   there and `n` for MIN; Parents the inner nodes in ascending order and
%   Kids the list of their children's numbers, one list per inner node;
%   Values every node's value, `n` where it has none.  A shape that is
%   not all that is a domain_error, and M is dropped again.
%
%   @error domain_error(pyab_packed_shape, Shape) and kin

load_packed(M, Names, Shape) :-
    claim_module_(M, Fresh),
    catch(( load_packed_(M, Fresh, Names, Shape)
          ->  true
          ;   domain_error(pyab_packed_shape, Shape)
          ),
          E, (drop(M), throw(E))).

%   The sides are turned into a list of codes: string_code/3 walks the
%   string from its start on SWI-Prolog 9.0.4 (100,000 calls on a string
%   of 100,000 codes took 18 s).

load_packed_(M, Fresh, NamesS, ShapeS) :-
    atomic_list_concat(NameList, '\u0000', NamesS),
    compound_name_arguments(Names, names, NameList),
    functor(Names, _, N),
    term_string(Shape, ShapeS, [syntax_errors(error)]),
    (   Shape = shape(Sides, Parents, Kids, Values),
        string(Sides),
        string_codes(Sides, Codes),
        length(Codes, N),
        is_list(Values),
        length(Values, N),
        is_list(Parents),
        is_list(Kids),
        same_length(Parents, Kids)
    ->  true
    ;   domain_error(pyab_packed_shape, ShapeS)
    ),
    tree_module_(Fresh, M),
    packed_nodes_(Codes, Values, 1, Names, M),
    packed_kids_(Parents, Kids, Names, M),
    finish_tree_(M).

packed_nodes_([], [], _, _, _).
packed_nodes_([S|Ss], [V|Vs], I, Names, M) :-
    arg(I, Names, P),
    (   S == 0'x
    ->  assertz(M:max_to_move(P))
    ;   S == 0'n
    ->  assertz(M:min_to_move(P))
    ;   domain_error(pyab_side, S)
    ),
    (   V == n
    ->  true
    ;   number(V)
    ->  assertz(M:staticval(P, V))
    ;   domain_error(pyab_value, V)
    ),
    I1 is I + 1,
    packed_nodes_(Ss, Vs, I1, Names, M).

packed_kids_([], [], _, _).
packed_kids_([I|Is], [Ks|Kss], Names, M) :-
    packed_name_(Names, I, P),
    (   is_list(Ks)
    ->  maplist(packed_name_(Names), Ks, L)
    ;   domain_error(pyab_kids, Ks)
    ),
    assertz(M:tree(P, L)),
    packed_kids_(Is, Kss, Names, M).

packed_name_(Names, I, P) :-
    (   integer(I), I >= 0, I1 is I + 1, arg(I1, Names, P0)
    ->  P = P0
    ;   domain_error(pyab_node_id, I)
    ).

%!  load_claim(+M) is det.
%!  load_finish(+M) is det.
%
%   The two halves of load_packed/3 around its asserts, for a loader that
%   asserts the same clauses itself (pyab/_cload.c, called from
%   pyab/prolog.py between the two): load_claim/1 claims M (new, or one
%   that recycle/1 emptied) and declares the tree's predicates dynamic;
%   load_finish/1 adds the moves/2 bridge, the observation and the
%   indexes.  Either drops M when it raises, and the caller drops M when
%   the asserts in between fail, so nothing is left half-loaded.

load_claim(M) :-
    claim_module_(M, Fresh),
    catch(tree_module_(Fresh, M), E, (drop(M), throw(E))).

load_finish(M) :-
    catch(finish_tree_(M), E, (drop(M), throw(E))).

%   claim_module_(+M, -Fresh): M is a new module (Fresh = true) or one that
%   recycle/1 emptied (Fresh = false, and M is no longer free).  Anything
%   else by that name is a permission error, and is left alone.

claim_module_(M, Fresh) :-
    must_be(atom, M),
    (   \+ rules_module(M, _, _),
        retract(free_module(M))
    ->  Fresh = false,
        refresh_programs_(M)
    ;   current_module(M)
    ->  permission_error(create, module, M)
    ;   Fresh = true
    ).

tree_module_(false, _) :-
    !.                                  % a recycled module is set up already
tree_module_(true, M) :-
    set_module(M:class(temporary)),     % so that drop/1 may destroy it
    set_module(M:base(system)),         % see no user predicates
    forall(member(N/A, [tree/2, staticval/2, min_to_move/1, max_to_move/1]),
           dynamic(M:N/A)).

%   The slides' moves/2 bridge (unless the text brought it), the
%   observation, and the indexes the search will use.

finish_tree_(M) :-
    (   current_predicate(M:moves/2),  % else predicate_property/2 reads the autoload index (~5 ms)
        predicate_property(M:moves(_, _), number_of_clauses(N)), N > 0
    ->  true
    ;   assertz(M:(moves(Pos, Moves) :- tree(Pos, Moves)))
    ),
    observe_module(M),
    index_tree_(M).

%   SWI-Prolog builds the hash index of a dynamic predicate's first
%   argument (JIT indexing) at its first call with that argument bound:
%   on a big tree, during the first search (max_to_move/1 of a million
%   nodes took tens of ms there).  Ask each predicate once now, so the
%   search pays what the bare program pays.  (Outside a search the
%   wrappers record nothing.)  The first search also asks how many nodes
%   the tree has (to size its record): that is counted here too.

index_tree_(M) :-
    (   M:tree(Root, _)
    ->  forall(member(G, [tree(Root, _), staticval(Root, _),
                          min_to_move(Root), max_to_move(Root)]),
               ignore(M:G))
    ;   true
    ),
    tree_nodes(M, _).                   % counted now, not by the first search

                 /*******************************
                 *     TREES GIVEN AS RULES     *
                 *******************************/

%   A rules file (prolog/trees/uniform.pl, prolog/games/tictactoe.pl) is a
%   plain file that defines moves/2, staticval/2, min_to_move/1 and
%   max_to_move/1 as rules over its own positions, plus root/1 (the root
%   position) and position_name/2 (a position's name, atom or string).
%   Its parameters are dynamic predicates of the file; their facts come
%   from Python as text and are only ever asserted.

%!  load_rules(+M, +File, +ParamText) is det.
%
%   Load the rules file File into module M and assert the parameter facts
%   read from ParamText.  M is new, or a rules module of the same file
%   that recycle/1 emptied: then only the parameters are asserted (its
%   wrappers stay; a changed file is loaded afresh).  A parameter fact
%   must be ground and belong to a predicate the file declares dynamic
%   (and not one of the four game predicates); anything else is a
%   domain_error and M is dropped.
%
%   @error domain_error(pyab_parameter, Term)
%   @error existence_error(procedure, File:Name/Arity) for a missing
%          game predicate

load_rules(M, File, Text) :-
    must_be(atom, M),
    atom_string(FileA, File),
    (   retract(free_module(M))
    ->  (   rules_module(M, FileA, _),
            program_unchanged_(M)
        ->  Fresh = false
        ;   drop(M),
            Fresh = true
        )
    ;   current_module(M)
    ->  permission_error(create, module, M)
    ;   Fresh = true
    ),
    catch(load_rules_(Fresh, M, FileA, Text), E, (drop(M), throw(E))).

load_rules_(true, M, File, Text) :-
    set_module(M:class(temporary)),
    set_module(M:base(system)),
    format(atom(Id), '~w@~w', [File, M]),  % one source per module
    program_stamp_of_(File, Stamp),
    setup_call_cleanup(open(File, read, S),
                       M:load_files(Id, [stream(S), silent(true)]),
                       close(S)),
    assertz(program_module(M, M, Id)),     % so that drop/1 unloads Id
    assertz(program_stamp(M, File, Stamp)),
    forall(member(H, [moves(_, _), staticval(_, _), min_to_move(_),
                      max_to_move(_), root(_), position_name(_, _)]),
           (   predicate_property(M:H, defined)
           ->  true
           ;   functor(H, N, A),
               existence_error(procedure, File:N/A)
           )),
    assertz(rules_module(M, File, names)),
    observe_module(M),
    load_params_(M, Text).
load_rules_(false, M, _, Text) :-
    rules_mode(M, "names"),
    refresh_programs_(M),
    load_params_(M, Text).

load_params_(M, Text) :-
    setup_call_cleanup(open_string(Text, S),
                       read_params_(S, M),
                       close(S)).

read_params_(S, M) :-
    read_term(S, T, [syntax_errors(error)]),
    (   T == end_of_file
    ->  true
    ;   param_fact_(T, M)
    ->  assertz(M:T),
        read_params_(S, M)
    ;   domain_error(pyab_parameter, T)
    ).

param_fact_(T, M) :-
    callable(T),
    ground(T),
    \+ T = (_ :- _),
    \+ T = (:- _),
    functor(T, N, A),
    \+ memberchk(N/A, [moves/2, staticval/2, min_to_move/1, max_to_move/1]),
    predicate_property(M:T, dynamic),
    \+ predicate_property(M:T, imported_from(_)).

%!  rules_mode(+M, +Mode) is det.
%
%   Mode is "names" (the observed lists, as for fact trees) or "counts"
%   (only how many leaves and nodes were read) for the next solves of M.
%
%   @error existence_error(pyab_rules_module, M) when M holds no rules

rules_mode(M, ModeS) :-
    atom_string(Mode, ModeS),
    must_be(oneof([names, counts]), Mode),
    (   retract(rules_module(M, File, _))
    ->  assertz(rules_module(M, File, Mode))
    ;   existence_error(pyab_rules_module, M)
    ).

                 /*******************************
                 *      POSITIONS AND NAMES     *
                 *******************************/

%!  root_position(+Tree, +RootText, -Root) is det.
%!  position_text(+Tree, +Position, -Text) is det.
%
%   A fact tree's positions are its node names; a rules tree has root/1
%   and names its positions with position_name/2.

root_position(Tree, RootS, Root) :-
    (   rules_module(Tree, _, _)
    ->  Tree:root(Root)
    ;   atom_string(Root, RootS)
    ).

position_text(Tree, P, S) :-
    (   atom(P), \+ rules_module(Tree, _, _)
    ->  S = P
    ;   rules_module(Tree, _, _)
    ->  Tree:position_name(P, N),
        text_to_string(N, S)
    ;   format(string(S), "~q", [P])
    ).

%!  tree_nodes(+Tree, -Nodes) is det.
%
%   How many nodes a fact tree has (0 for a rules tree).  Counting the
%   clauses walks them (20 ms for a million nodes), so the count of the
%   last tree asked about is kept with the generations at which
%   min_to_move/1 and max_to_move/1 last changed: any assert or retract, a
%   reload or a recycled module makes it count again.

tree_nodes(Tree, 0) :-
    rules_module(Tree, _, _),
    !.
tree_nodes(Tree, Nodes) :-
    (   predicate_property(Tree:min_to_move(_), last_modified_generation(G1)),
        predicate_property(Tree:max_to_move(_), last_modified_generation(G2))
    ->  (   tree_nodes_cache(Tree, G1-G2, Nodes0)
        ->  Nodes = Nodes0
        ;   count_nodes_(Tree, Nodes),
            retractall(tree_nodes_cache(_, _, _)),
            assertz(tree_nodes_cache(Tree, G1-G2, Nodes))
        )
    ;   count_nodes_(Tree, Nodes)
    ).

count_nodes_(Tree, Nodes) :-
    aggregate_all(sum(N),
                  ( member(Side, [min_to_move(_), max_to_move(_)]),
                    predicate_property(Tree:Side, number_of_clauses(N)) ),
                  Nodes).

                 /*******************************
                 *       PROGRAM MODULES        *
                 *******************************/

%!  ensure_program(+Tree, +Prog, +File) is det.
%
%   Prog holds the program File, loaded once, unchanged, and importing
%   tree module Tree.  A program that fails to load (one of its
%   directives throws, say) leaves no half-made module behind.

ensure_program(Tree, Prog, _) :-
    program_module(Tree, Prog, _),
    !,
    retractall(program_idle(Prog)).
ensure_program(Tree, Prog, File) :-
    catch(ensure_program_(Tree, Prog, File), E,
          ( discard_program_(Prog, File), throw(E) )).

discard_program_(Prog, File) :-
    atom_string(FileA, File),
    format(atom(Id), '~w@~w', [FileA, Prog]),
    unload_file(Id),
    destroy_(Prog).

ensure_program_(Tree, Prog, File) :-
    atom_string(FileA, File),
    format(atom(Id), '~w@~w', [FileA, Prog]),
    set_module(Prog:class(temporary)),  % before anything is loaded into it
    % Like the tree module, the program sees nothing of `user`: a
    % user:alphabeta/5 or user:moves/2 (the slides consulted in the REPL)
    % must never stand in for the tree's or the program's own.
    set_module(Prog:base(system)),
    add_import_module(Prog, Tree, start),
    program_stamp_of_(FileA, Stamp),
    setup_call_cleanup(open(FileA, read, S),
                       Prog:load_files(Id, [stream(S), silent(true)]),
                       close(S)),
    assertz(program_stamp(Prog, FileA, Stamp)),
    assertz(program_module(Tree, Prog, Id)).

program_stamp_of_(File, Time-Size) :-
    time_file(File, Time),
    size_file(File, Size).

%   When a new tree claims a recycled module: a program file changed since
%   it was loaded is loaded afresh (as it would be for a new module).

refresh_programs_(M) :-
    forall(( program_module(M, P, _), P \== M, \+ program_unchanged_(P) ),
           forget_program_(M, P)).

program_unchanged_(P) :-
    program_stamp(P, File, Stamp),
    catch(program_stamp_of_(File, Stamp), error(existence_error(_, _), _), fail).

                 /*******************************
                 *     RECYCLING AND DROPPING   *
                 *******************************/

%!  recycle(+M) is semidet.
%
%   Empty module M of a tree that is gone, for the next tree.  A fact
%   tree loses its facts (tree/2, staticval/2, min_to_move/1,
%   max_to_move/1, the moves/2 bridge); a rules tree its parameters.  M
%   keeps its wrappers and its program modules, except a program module
%   with a dynamic or tabled predicate of its own (which could carry state
%   to the next tree): that one is destroyed.
%
%   Fails, after dropping M altogether (drop/1), when M is not a tree
%   module in use, when it does not come out empty, or when it is a rules
%   module with tables.

recycle(M) :-
    must_be(atom, M),
    (   catch(recycle_(M), E, (print_message(warning, E), fail))
    ->  true
    ;   drop(M),
        fail
    ).

recycle_(M) :-
    current_module(M),
    \+ free_module(M),
    (   rules_module(M, _, _)
    ->  \+ tabled_(M),
        forall(own_dynamic_(M, H), retractall(M:H))
    ;   \+ program_module(_, M, _),
        forall(tree_predicate_(H), retractall(M:H)),
        \+ ( own_dynamic_(M, H),          % no other fact came in
             predicate_property(M:H, number_of_clauses(C)),
             C > 0
           )
    ),
    forall(( program_module(M, P, _), P \== M, stateful_program_(P) ),
           forget_program_(M, P)),
    forall(( program_module(M, P, _), P \== M ),
           ( retractall(program_idle(P)), assertz(program_idle(P)) )),
    assertz(free_module(M)).

tree_predicate_(tree(_, _)).
tree_predicate_(staticval(_, _)).
tree_predicate_(min_to_move(_)).
tree_predicate_(max_to_move(_)).
tree_predicate_(moves(_, _)).

stateful_program_(P) :-
    (   own_dynamic_(P, _)
    ->  true
    ;   tabled_(P)
    ).

tabled_(P) :-
    current_predicate(P:N/A),
    functor(H, N, A),
    predicate_property(P:H, tabled),
    !.

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

%!  drop(+M) is det.
%
%   Remove tree module M and every program module loaded for it.

drop(M) :-
    catch(drop_(M), E, (print_message(warning, E), fail)),
    !.
drop(_).

drop_(M) :-
    retractall(free_module(M)),
    forall(program_module(M, P, _), forget_program_(M, P)),
    retractall(traced(M, _)),
    retractall(rules_module(M, _, _)),
    retractall(tree_nodes_cache(M, _, _)),
    destroy_(M).

%   Unload program module P of tree module M and destroy it.  (A rules
%   module is its own program module: P == M.)

forget_program_(M, P) :-
    % Tables are kept by module name, not in the module: a later module of
    % the same name (recycling reuses names) would find them.
    abolish_module_tables(P),
    retractall(program_idle(P)),
    retractall(traced(M, P)),
    retractall(program_stamp(P, _, _)),
    forall(retract(program_module(M, P, Id)),
           unload_file(Id)),
    destroy_(P).

destroy_(M) :-
    (   current_module(M)
    ->  forall(( current_predicate(M:N/A), functor(H, N, A),
                 \+ predicate_property(M:H, imported_from(_)) ),
               abolish_(M:N/A)),
        '$destroy_module'(M)
    ;   true
    ).

abolish_(PI) :-
    catch(abolish(PI), error(permission_error(_, _, _), _), true).

                 /*******************************
                 *      COUNTING WHAT LIVES     *
                 *******************************/

%!  live_modules(-Count) is det.
%
%   How many tree and program modules are in use (for leak tests): free
%   tree modules (recycle/1) are not counted, nor the program modules they
%   kept until a search of the next tree uses them again.
%
%   current_module/1 does not enumerate modules of class `temporary` (the
%   class every tree and program module gets), so walk the atoms instead
%   and ask about each candidate by name.

live_modules(Count) :-
    aggregate_all(count, live_module_(_), Count).

live_module_(M) :-
    current_atom(M),
    sub_atom(M, 0, _, _, pyab_t),
    current_module(M),
    \+ free_module(M),
    \+ program_idle(M).

%!  resource_counts(-Text) is det.
%
%   Text is "Modules Atoms TextAtoms Closures Free", right after a stack
%   and an atom garbage collection, for leak tests: tree/program modules
%   in use, the atom table's size (statistics/2 key `atoms`, which counts
%   blobs too), the text atoms among them, the closure blobs
%   (wrap_predicate/4 makes one per wrapper; SWI-Prolog 9.0.4 never frees
%   them), and the free tree modules waiting to be reused (recycle/1).
%
%   The stack garbage collection first: atom garbage collection keeps
%   every atom that dead terms on the global stack still name, and after a
%   big search that was thousands of atoms of later trees.

resource_counts(Text) :-
    garbage_collect,
    garbage_collect_atoms,
    live_modules(Modules),
    statistics(atoms, Atoms),
    aggregate_all(count, current_blob(_, text), TextAtoms),
    aggregate_all(count, current_blob(_, closure), Closures),
    aggregate_all(count, free_module(_), Free),
    format(string(Text), "~d ~d ~d ~d ~d", [Modules, Atoms, TextAtoms, Closures, Free]).
