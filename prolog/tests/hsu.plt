/*  Unit tests of Hsu's versions (prolog/hsu.pl), the exhaustive search
    (prolog/minimax.pl) and Theorem 1 (prolog/critical.pl), run in plain
    SWI-Prolog without pyab's bridge.

    The three files are loaded into module hsu_plt together with the tree
    under test, held as dynamic facts; moves/2 there records every position
    a search asks about (examined/1), which is what Theorem 1 counts.

    Run: swipl -g run_tests -t halt prolog/tests/hsu.plt
*/

:- use_module(library(prolog_wrap)).
:- use_module(library(http/json)).

:- dynamic hsu_plt:tree/2, hsu_plt:staticval/2, hsu_plt:min_to_move/1,
           hsu_plt:max_to_move/1, hsu_plt:examined/1, hsu_plt:leaf_read/1.

%   Every staticval/2 call is recorded as leaf_read/1 (the leaves read), the way
%   pyab's bridge observes it; the facts stay facts, so hsu.pl still finds
%   the value range with clause/2.

:- wrap_predicate(hsu_plt:staticval(P, _), hsu_plt_read, W,
                  ( assertz(hsu_plt:leaf_read(P)), W )).

:- prolog_load_context(directory, Dir),
   forall(member(F, ['../hsu.pl', '../minimax.pl', '../critical.pl']),
          ( directory_file_path(Dir, F, Path),
            hsu_plt:consult(Path) )).

hsu_plt:(moves(Pos, Moves) :-
             assertz(examined(Pos)),
             tree(Pos, Moves)).

:- begin_tests(hsu).

%   use_tree_(+Edges, +Values, +RootSide): make the tree under test.

use_tree_(Edges, Values, Side) :-
    clear_,
    forall(member(P-Ks, Edges), assertz(hsu_plt:tree(P, Ks))),
    forall(member(P=V, Values), assertz(hsu_plt:staticval(P, V))),
    Edges = [Root-_|_],
    sides_(Root, Side).

clear_ :-
    retractall(hsu_plt:tree(_, _)),
    retractall(hsu_plt:staticval(_, _)),
    retractall(hsu_plt:min_to_move(_)),
    retractall(hsu_plt:max_to_move(_)),
    retractall(hsu_plt:examined(_)),
    retractall(hsu_plt:leaf_read(_)).

sides_(Pos, Side) :-
    (   Side == max
    ->  assertz(hsu_plt:max_to_move(Pos)), Other = min
    ;   assertz(hsu_plt:min_to_move(Pos)), Other = max
    ),
    (   hsu_plt:tree(Pos, Kids)
    ->  forall(member(K, Kids), sides_(K, Other))
    ;   true
    ).

slides_ :-
    use_tree_([a-[b, c, d], b-[e, f, g], c-[h, i, j], d-[k, l, m]],
              [e=3, f=12, g=8, h=2, i=3, j=20, k=14, l=5, m=2], max).

%   perfect_(+B, +D): Hsu's perfect-ordering tree, B successors per
%   position, depth D, MAX at the root.  Nega-max values: the root 0, the
%   first successor of a position worth V is worth -V (the best one), the
%   I-th -V + I - 1.  The root and r_1 carry static values beyond every
%   leaf, so that "m is max" never fires (see pyab/search/critical.py).

perfect_(B, D) :-
    clear_,
    perfect_node_(r, 0, 0, B, D),
    Big is B*D + 1,
    NBig is -Big,
    (   D >= 1 -> assertz(hsu_plt:staticval(r, Big)) ; true ),
    (   D >= 2 -> assertz(hsu_plt:staticval(r_1, NBig)) ; true ).

perfect_node_(Name, Depth, V, B, D) :-
    (   Depth mod 2 =:= 0
    ->  assertz(hsu_plt:max_to_move(Name)), F = V
    ;   assertz(hsu_plt:min_to_move(Name)), F is -V
    ),
    (   Depth =:= D
    ->  assertz(hsu_plt:staticval(Name, F))
    ;   numlist(1, B, Is),
        maplist(kid_name_(Name), Is, Kids),
        assertz(hsu_plt:tree(Name, Kids)),
        Depth1 is Depth + 1,
        forall(nth1(I, Kids, K),
               ( V1 is -V + I - 1,
                 perfect_node_(K, Depth1, V1, B, D) ))
    ).

kid_name_(Name, I, Kid) :-
    format(atom(Kid), '~w_~w', [Name, I]).

examined_(Ps) :-
    findall(P, hsu_plt:examined(P), Ps0),
    list_to_set(Ps0, Ps).

run_(Goal, Examined) :-
    retractall(hsu_plt:examined(_)),
    call(hsu_plt:Goal),
    examined_(Examined).

%   --- the slides' tree: values against the exhaustive search -----------

test(minimax_slides, [true(B-V == b-3)]) :-
    slides_, hsu_plt:minimax(a, inf, B, V).

test(negamax_slides, [true(B-V == b-3)]) :-
    slides_, hsu_plt:negamax(a, inf, B, V).

test(full_window, [forall(member(G, [hsu_f1, hsu_f2, hsu_f3, hsu_f1_negamax,
                                     hsu_f2_negamax, hsu_f3_negamax])),
                   true(B-V == b-3)]) :-
    slides_, A is -inf, Z is inf,
    call(hsu_plt:G, a, A, Z, inf, B, V).

test(f1_fails_low_to_alpha, [true(V == 5)]) :-
    slides_, hsu_plt:hsu_f1(a, 5, 10, inf, B, V), assertion(var(B)).

test(f1_fails_high_to_beta, [true(V == 2)]) :-
    slides_, hsu_plt:hsu_f1_negamax(a, -10, 2, inf, _, V).

test(f3_fails_low_between_value_and_alpha) :-
    slides_, hsu_plt:hsu_f3(a, 5, 10, inf, _, V),
    assertion((V >= 3, V =< 5)).

test(f2_one_sided, [true(V == 3)]) :-
    % F2'(a, beta = 10): F(a) = 3 < 10, so F2 is exact whatever alpha says.
    slides_, hsu_plt:hsu_f2(a, 7, 10, inf, _, V).

test(minimax_and_negamax_forms_read_alike,
     [forall(( member(G1-G2, [hsu_f1-hsu_f1_negamax, hsu_f2-hsu_f2_negamax,
                              hsu_f3-hsu_f3_negamax]),
               member(A-Z, [(-100)-100, 3-10, 5-10, (-10)-2, 2-3]) ))]) :-
    slides_,
    run_(call(G1, a, A, Z, inf, B1, V1), E1),
    run_(call(G2, a, A, Z, inf, B2, V2), E2),
    assertion(E1 == E2),
    assertion(V1 =:= V2),
    assertion(B1 =@= B2).               % the same move, or none in both

test(depth_limit_reads_inner_values, [true(B-V == c-6)]) :-
    % At depth 1 the successors are scored by their own static values.
    slides_,
    assertz(hsu_plt:staticval(b, 4)),
    assertz(hsu_plt:staticval(c, 6)),
    assertz(hsu_plt:staticval(d, 5)),
    hsu_plt:hsu_f1(a, -100, 100, 1, B, V).

test(depth_limit_without_a_value, [error(existence_error(static_value, b))]) :-
    slides_, hsu_plt:hsu_f3(a, -100, 100, 1, _, _).

%   --- Theorem 1 and Corollary 1 ----------------------------------------

test(critical_examples, [forall(member(D, [[2,1,4,1,2], [1,3,1,5,1,2],
                                           [1,1,1,2,1,1,1,3], [1,1], []]))]) :-
    hsu_plt:critical(D).

test(not_critical, [fail]) :-
    hsu_plt:critical([1,2,1,1,2]).

test(theorem1_f1_examines_the_critical_positions,
     [forall(( between(1, 3, B), between(0, 4, D),
               member(G, [hsu_f1, hsu_f1_negamax]) ))]) :-
    perfect_(B, D),
    hsu_plt:critical_positions(r, Critical),
    A is -inf, Z is inf,
    run_(call(G, r, A, Z, inf, _, V), Examined),
    assertion(V =:= 0),
    assertion(Examined == Critical).

test(corollary1_per_level,
     [forall(( between(1, 4, B), between(0, 5, D) ))]) :-
    perfect_(B, D),
    forall(between(0, D, I),
           ( aggregate_all(count,
                           ( hsu_plt:dewey_position(r, Dewey, _),
                             length(Dewey, I),
                             hsu_plt:critical(Dewey) ),
                           N),
             hsu_plt:corollary_count(B, I, N0),
             assertion(N == N0) )).

test(direct_cutoff_when_the_root_holds_the_maximum, [true(Ps == [r, r_1])]) :-
    % Hsu's Theorem 2 excludes a root worth the largest value: here F1's
    % "m is max" stops after the first leaf, short of the b critical ones.
    use_tree_([r-[r_1, r_2, r_3]], [r_1=5, r_2=5, r_3=4], max),
    A is -inf, Z is inf,
    run_(hsu_f1(r, A, Z, inf, _, _), Ps).

%   --- the golden vectors of tests/vectors/hsu.json ----------------------

vector_(V) :-
    source_file(vector_(_), File),
    file_directory_name(File, Dir),
    directory_file_path(Dir, '../../tests/vectors/hsu.json', Json),
    setup_call_cleanup(open(Json, read, S),
                       json_read_dict(S, Dict, [value_string_as(atom)]),
                       close(S)),
    member(V, Dict.vectors),
    \+ get_dict(depth, V, _).          % inner values are not Prolog terms

%   The tree text (nested or list form) read as a Prolog term: N=V is a
%   named leaf, a number an anonymous one, a list an anonymous inner node,
%   any other compound a named inner node.  Anonymous nodes get Dewey names.

vector_tree_(Text, Side, Root) :-
    term_string(T, Text),
    clear_,
    node_term_(T, r, Root),
    sides_(Root, Side).

node_term_(N=V, _, N) :- !,
    assertz(hsu_plt:staticval(N, V)).
node_term_(V, Name, Name) :-
    number(V), !,
    assertz(hsu_plt:staticval(Name, V)).
node_term_(L, Name, Name) :-
    is_list(L), !,
    kids_(L, 1, Name, Kids),
    assertz(hsu_plt:tree(Name, Kids)).
node_term_(T, _, Name) :-
    compound_name_arguments(T, Name, Args),
    kids_(Args, 1, Name, Kids),
    assertz(hsu_plt:tree(Name, Kids)).

kids_([], _, _, []).
kids_([T|Ts], I, Parent, [K|Ks]) :-
    kid_name_(Parent, I, Default),
    node_term_(T, Default, K),
    I1 is I + 1,
    kids_(Ts, I1, Parent, Ks).

bound_(B, X) :-
    (   B == inf -> X is inf
    ;   B == '-inf' -> X is -inf
    ;   X = B
    ).

goal_(Alg, Goal) :-
    atom_string(A, Alg),
    once(( member(A-Goal, ['hsu-f1'-hsu_f1, 'hsu-f2'-hsu_f2, 'hsu-f3'-hsu_f3])
         ; A == minimax, Goal = minimax_ )).

hsu_plt:minimax_(Pos, _, _, Depth, Best, Val) :-
    hsu_plt:minimax(Pos, Depth, Best, Val).

test(vector, [forall(vector_(V))]) :-
    vector_tree_(V.tree, V.side, Root),
    bound_(V.alpha, Alpha),
    bound_(V.beta, Beta),
    goal_(V.algorithm, Goal),
    retractall(hsu_plt:leaf_read(_)),
    call(hsu_plt:Goal, Root, Alpha, Beta, inf, Best, Val),
    findall(P, hsu_plt:leaf_read(P), Leaves),
    (   V.best == null
    ->  assertion(var(Best))
    ;   assertion(Best == V.best)
    ),
    assertion(Val =:= V.value),
    assertion(Leaves == V.leaves).

:- end_tests(hsu).
