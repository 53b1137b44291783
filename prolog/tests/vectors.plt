/*  The golden vectors of every JSON file in tests/vectors/ (every algorithm of the
    registry prolog/algorithms.json), run in plain SWI-Prolog.

    pytest reads the same tables (tests/search/test_vectors.py, test_hsu_vectors.py),
    so both languages answer to them.  A row names its algorithm (bratko when
    it does not); the program and the entry goal come from the registry.  Trees in the table are written in the DSL's nested or list
    form, which are Prolog terms too; tree_facts/3 turns one into the slides'
    facts, and pyab_bridge (the Prolog half of the bridge) loads them into a
    module of their own, runs the unchanged program and observes it.

    Run: swipl -g run_tests -t halt prolog/tests/vectors.plt
*/

:- use_module(library(http/json)).
:- use_module(library(plunit)).

:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '..', PrologDir),
   asserta(user:vector_prolog_dir(PrologDir)),
   directory_file_path(Dir, '../../tests/vectors/*.json', Pattern),
   expand_file_name(Pattern, Files),
   forall(member(F, Files), asserta(user:vector_file(F))),
   directory_file_path(PrologDir, 'pyab_bridge.pl', Bridge),
   use_module(Bridge).

vector(V) :-
    vector_file(File),
    setup_call_cleanup(open(File, read, S, [encoding(utf8)]),
                       json_read_dict(S, Dict, [value_string_as(atom)]),
                       close(S)),
    member(V, Dict.vectors).

%   The rows this runner reads: a side and a tree in nested or list form
%   that is a Prolog term.  A tree with values on inner nodes
%   (depth-limited rows of hsu.json, `a = 4 (b = 2 (...))`) is not, and is
%   checked by pytest only; courses.json (flat-form lines, a side per
%   node) has its own runner, prolog/tests/courses.plt.
prolog_vector(V) :-
    vector(V),
    get_dict(side, V, _),
    atom(V.tree),
    catch(term_string(_, V.tree), error(syntax_error(_), _), fail).

vector_algorithm(V, Alg) :-
    (   get_dict(algorithm, V, Alg0) -> Alg = Alg0 ; Alg = bratko ).

%   The registry's program for Alg.
vector_program(Alg, Program) :-
    pyab_bridge:algorithm(Alg, File, _),
    vector_prolog_dir(Dir),
    directory_file_path(Dir, File, Program).

%!  tree_facts(+Side, +Term, -Facts) is det.
%
%   Facts of the tree written as Term: `Name = Value` is a leaf,
%   `Name(Child, ...)` an inner node, a list an inner node and a number a
%   leaf named by its Dewey path (r, r_1, r_1_2, ...).

tree_facts(Side, Term, Facts) :-
    phrase(node(Term, r, Side, _), Facts).

node(Name = Value, _, Side, Name) -->
    { atom(Name), number(Value) }, !,
    [staticval(Name, Value)], side(Side, Name).
node(Value, Dewey, Side, Dewey) -->
    { number(Value) }, !,
    [staticval(Dewey, Value)], side(Side, Dewey).
node(List, Dewey, Side, Dewey) -->
    { is_list(List) }, !,
    { other(Side, Next),
      findall(Kid-Child, ( nth1(I, List, Kid),
                           format(atom(Child), '~w_~w', [Dewey, I]) ), Pairs) },
    children(Pairs, Next, Names),
    [tree(Dewey, Names)], side(Side, Dewey).
node(Term, _, Side, Name) -->
    { compound(Term), compound_name_arguments(Term, Name, Kids), other(Side, Next),
      findall(Kid-x, member(Kid, Kids), Pairs) },
    children(Pairs, Next, Names),
    [tree(Name, Names)], side(Side, Name).

children([], _, []) --> [].
children([Kid-Dewey|Pairs], Side, [Name|Names]) -->
    node(Kid, Dewey, Side, Name),
    children(Pairs, Side, Names).

side(max, Name) --> [max_to_move(Name)].
side(min, Name) --> [min_to_move(Name)].

other(max, min).
other(min, max).

bound("-inf", X) :- !, X is -inf.
bound("inf", X) :- !, X is inf.
bound('-inf', X) :- !, X is -inf.
bound(inf, X) :- !, X is inf.
bound(X, X).

%   Run one vector through pyab_bridge and split its answer.
run_vector(V, Best, Val, Leaves) :-
    term_string(Term, V.tree),
    tree_facts(V.side, Term, Facts),
    with_output_to(string(Text), forall(member(F, Facts), format("~q.~n", [F]))),
    gensym(vec_t, M),
    atom_concat(M, '_p', P),
    load_tree(M, Text),
    vector_algorithm(V, Alg),
    vector_program(Alg, Program),
    bound(V.alpha, A), bound(V.beta, B),
    format(string(AS), "~q", [A]), format(string(BS), "~q", [B]),
    (   get_dict(depth, V, D), integer(D) -> format(string(Opts), "~d 0", [D]) ; Opts = "inf 0" ),
    root_name(Facts, Root),
    atom_string(Root, RootS),
    solve(M, P, Program, Alg, RootS, AS, BS, Opts, Out),
    drop(M),
    answer_lists(Out, [ok, Flag, BestA, ValA], Leaves, _, _, _),
    ( Flag == '1' -> Best = BestA ; Best = null ),
    atom_number(ValA, Val).

root_name(Facts, Root) :-
    last(Facts, Side), arg(1, Side, Root).

:- begin_tests(vectors).

test(vector, [forall(prolog_vector(V)), true(Got == Want)]) :-
    run_vector(V, Best, Val, Leaves),
    Got = V.name-Best-Val-Leaves,
    Want = V.name-V.best-V.value-V.leaves.

test(table_is_not_empty, [true(N >= 9)]) :-
    aggregate_all(count, vector(_), N).

%   Every algorithm the bridge knows (the registry) has a vector in one of
%   the shared files.
test(every_algorithm_has_vectors, [true(Missing == [])]) :-
    findall(A, ( pyab_bridge:algorithm(A, _, _),
                 \+ ( vector(V), vector_algorithm(V, A) ) ), Missing).

:- end_tests(vectors).
