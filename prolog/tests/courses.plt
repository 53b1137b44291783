/*  The golden vectors of tests/vectors/courses.json, run in plain SWI-Prolog.

    pytest reads the same table (tests/search/test_courses.py).  Each tree is the
    DSL's flat form, one declaration a line, the root's line first; with
    max and min as prefix operators every line reads as a Prolog term:
    `min b -> c, d` is (min(b) -> c, d), `max d = 3` is (max(d) = 3).  A
    node's side is its mark, else the opposite of its parent's (MAX at an
    unmarked root).  The program runs unchanged in pyab_bridge, observed.

    Run: swipl -g run_tests -t halt prolog/tests/courses.plt
*/

:- module(courses_plt, []).

:- use_module(library(http/json)).
:- use_module(library(plunit)).
:- use_module(library(lists)).
:- use_module(library(apply)).

:- op(200, fy, courses_plt:max).
:- op(200, fy, courses_plt:min).

:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '..', PrologDir),
   directory_file_path(Dir, '../../tests/vectors/courses.json', Json),
   asserta(courses_file(Json)),
   asserta(courses_prolog_dir(PrologDir)),
   directory_file_path(PrologDir, 'pyab_bridge.pl', Bridge),
   use_module(Bridge).

:- dynamic courses_file/1, courses_prolog_dir/1.

table(Key, V) :-
    courses_file(File),
    setup_call_cleanup(open(File, read, S, [encoding(utf8)]),
                       json_read_dict(S, Dict, [value_string_as(atom)]),
                       close(S)),
    get_dict(Key, Dict, Vs),
    member(V, Vs).

program_file('strict-cut', 'strict_cut.pl').
program_file(bratko, 'alphabeta.pl').
program_file(aima, 'aima.pl').

%   One declaration: edge(Name, Mark, Kids) or value(Name, Mark, Number);
%   Mark is max, min or none.

declaration(Line, Decl) :-
    term_string(T, Line, [module(courses_plt)]),
    declaration_(T, Decl).

declaration_((Head -> Kids0), edge(Name, Mark, Kids)) :-
    !,
    marked(Head, Name, Mark),
    comma_list(Kids0, Kids).
declaration_((Head = N), value(Name, Mark, N)) :-
    marked(Head, Name, Mark).

marked(max(Name), Name, max) :- !.
marked(min(Name), Name, min) :- !.
marked(Name, Name, none).

%   The fact text of the flat lines: tree/2, staticval/2 and a side per node.

flat_facts(Lines, Root, Text) :-
    maplist(declaration, Lines, Decls),
    Decls = [First|_],
    arg(1, First, Root),
    arg(2, First, RootMark),
    (   RootMark == min -> RootSide = min ; RootSide = max ),
    findall(N-M, ( member(D, Decls), arg(1, D, N), arg(2, D, M), M \== none ), Marks),
    sides([Root-RootSide], Decls, Marks, Sides),
    findall(F, ( member(edge(N, _, Ks), Decls), F = tree(N, Ks)
               ; member(value(N, _, V), Decls), F = staticval(N, V)
               ; member(N-S, Sides), side_fact(S, N, F)
               ), Facts),
    with_output_to(string(Text), forall(member(F, Facts), format("~q.~n", [F]))).

side_fact(max, N, max_to_move(N)).
side_fact(min, N, min_to_move(N)).

%   Breadth-first from the root: each child's side is its mark or the
%   opposite of its parent's.

sides([], _, _, []).
sides([N-S|Queue], Decls, Marks, [N-S|Sides]) :-
    (   member(edge(N, _, Kids), Decls) -> true ; Kids = [] ),
    findall(K-KS, ( member(K, Kids),
                    ( memberchk(K-M, Marks) -> KS = M ; other(S, KS) ) ), Next),
    append(Queue, Next, Queue1),
    sides(Queue1, Decls, Marks, Sides).

other(max, min).
other(min, max).

bound(X, Y) :- X == '-inf', !, Y is -inf.
bound(X, Y) :- X == inf, !, Y is inf.
bound(X, X).

run_vector(V, Best, Val, Leaves, Visited, Pruned) :-
    flat_facts(V.tree, Root, Text),
    gensym(courses_t, M),
    atom_concat(M, '_p', P),
    load_tree(M, Text),
    courses_prolog_dir(Dir),
    program_file(V.algorithm, File),
    directory_file_path(Dir, File, Program),
    bound(V.alpha, A), bound(V.beta, B),
    format(string(AS), "~q", [A]), format(string(BS), "~q", [B]),
    (   V.depth == null -> DS = "inf" ; format(string(DS), "~w", [V.depth]) ),
    string_concat(DS, " 0", Opts),
    atom_string(Root, RootS),
    solve(M, P, Program, V.algorithm, RootS, AS, BS, Opts, Out),
    drop(M),
    answer_lists(Out, [ok, Flag, BestA, ValA], Leaves, Visited, Pruned, []),
    ( Flag == '1' -> Best = BestA ; Best = null ),
    atom_number(ValA, Val).

%   The bound flag by the rule docs/courses.md gives: strict cuts (bratko,
%   strict-cut) make [Alpha, Beta] exact; cuts on equality (aima) only the
%   open (Alpha, Beta).

flag(Alg, Val, A, B, Flag) :-
    (   memberchk(Alg, [bratko, 'strict-cut'])
    ->  (   Val < A -> Flag = upper ; Val > B -> Flag = lower ; Flag = exact )
    ;   (   Val =< A -> Flag = upper ; Val >= B -> Flag = lower ; Flag = exact )
    ).

:- begin_tests(courses).

test(vector, [forall(table(vectors, V)), true(Got == Want)]) :-
    run_vector(V, Best, Val, Leaves, Visited, Unsearched),
    bound(V.alpha, A), bound(V.beta, B),
    flag(V.algorithm, Val, A, B, Flag),
    % the observed run leaves cut-offs and the horizon alike unsearched
    msort(Unsearched, U),
    append(V.pruned, V.horizon, Both0), msort(Both0, Both),
    Got = V.name-Best-Val-Leaves-Visited-U-Flag,
    Want = V.name-V.best-V.value-V.leaves-V.visited-Both-V.bound.

test(two_min_layers_facts, [true(Sides == [a-max, g-min, b-min, c-min, f-max, d-max, e-max])]) :-
    table(vectors, V), V.name == 'two-min-layers', !,
    flat_facts(V.tree, a, _),
    maplist(declaration, V.tree, Decls),
    findall(N-M, ( member(D, Decls), arg(1, D, N), arg(2, D, M), M \== none ), Marks),
    sides([a-max], Decls, Marks, Sides).

test(table_is_not_empty, [true(N >= 12)]) :-
    aggregate_all(count, table(vectors, _), N).

:- end_tests(courses).
