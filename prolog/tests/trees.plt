/*  Unit tests of the trees and games given as rules (prolog/trees/,
    prolog/games/), run by the slides' program through pyab_bridge.

    Run: swipl -g run_tests -t halt prolog/tests/trees.plt
*/

:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '../pyab_bridge.pl', Bridge),
   use_module(Bridge).

:- begin_tests(trees).

file_(Rel, Abs) :-
    module_property(pyab_bridge, file(Bridge)),
    file_directory_name(Bridge, Dir),
    directory_file_path(Dir, Rel, Abs).

%   solve_(+Rules, +Params, +Mode, -Best, -Val, -Fields): run the slides'
%   program on a fresh rules module; Fields are the answer's fields after
%   best and value (counts, then names).

solve_(Rules, Params, Mode, Best, Val, Fields) :-
    file_(Rules, RulesFile),
    file_('alphabeta.pl', Program),
    gensym(pyab_t_plunit, M),
    atom_concat(M, '_p', P),
    load_rules(M, RulesFile, Params),
    call_cleanup(( rules_mode(M, Mode),
                   solve(M, P, Program, bratko, "r", "-1.0Inf", "1.0Inf", "inf 0", Out) ),
                 drop(M)),
    % split_string/4 drops empty fields between NULs: split as atoms.
    atomic_list_concat(Parts, '\u0000', Out),
    maplist(atom_string, Parts, ["ok", _, Best, ValS|Fields]),
    number_string(Val, ValS).

%   solve_names_(+Rules, +Params, -Best, -Val, -Leaves, -Visited, -Pruned):
%   the same in mode `names`, the lists read with answer_lists/6.

solve_names_(Rules, Params, Best, Val, Leaves, Visited, Pruned) :-
    file_(Rules, RulesFile),
    file_('alphabeta.pl', Program),
    gensym(pyab_t_plunit, M),
    atom_concat(M, '_p', P),
    load_rules(M, RulesFile, Params),
    call_cleanup(( rules_mode(M, "names"),
                   solve(M, P, Program, bratko, "r", "-1.0Inf", "1.0Inf", "inf 0", Out) ),
                 drop(M)),
    answer_lists(Out, [ok, _, BestA, ValA], Leaves, Visited, Pruned, []),
    atom_string(BestA, Best),
    atom_number(ValA, Val).

uniform_(B, D, O, Params) :-
    format(string(Params), "branching(~d). depth(~d). ordering(~w).", [B, D, O]).

knuth_moore_(B, D, N) :-
    N is B^((D+1)//2) + B^(D//2) - 1.

test(perfect_reads_knuth_moore,
     [forall(( between(1, 4, B), between(0, 5, D) ))]) :-
    uniform_(B, D, perfect, Params),
    solve_('trees/uniform.pl', Params, "counts", _, Val, [NL|_]),
    knuth_moore_(B, D, N),
    assertion(number_string(N, NL)),
    assertion(Val =:= 0).

test(worst_reads_everything,
     [forall(( between(1, 4, B), between(0, 5, D) ))]) :-
    uniform_(B, D, worst, Params),
    solve_('trees/uniform.pl', Params, "counts", _, _, [NL|_]),
    N is B^D,
    assertion(number_string(N, NL)).

test(perfect_first_child_is_best, [true(Best == "r_1")]) :-
    uniform_(3, 4, perfect, Params),
    solve_('trees/uniform.pl', Params, "names", Best, _, _).

test(worst_last_child_is_best, [true(Best == "r_3")]) :-
    uniform_(3, 4, worst, Params),
    solve_('trees/uniform.pl', Params, "names", Best, _, _).

test(names_are_dewey_paths, [true(Leaves-Visited-Pruned ==
                                   [r_1_1, r_1_2, r_2_1]-[r, r_1, r_1_1, r_1_2, r_2, r_2_1]-[r_2_2])]) :-
    uniform_(2, 2, perfect, Params),
    solve_names_('trees/uniform.pl', Params, _, _, Leaves, Visited, Pruned).

test(counts_mode_matches_names_mode, [forall(member(O, [perfect, worst, 'random(4)']))]) :-
    uniform_(3, 4, O, Params),
    solve_('trees/uniform.pl', Params, "counts", B1, V1, [NL1, NV1|_]),
    solve_names_('trees/uniform.pl', Params, B2, V2, Leaves, Visited, _),
    length(Leaves, NL), length(Visited, NV),
    maplist(number_string, [NL, NV], [NL2, NV2]),
    assertion(B1-V1-NL1-NV1 == B2-V2-NL2-NV2).

%   The same numbers as pyab.trees.uniform.hash_value.

test(hash_vectors, [forall(member(S-I-V, [0-0-7163450, 7-12345-16353642,
                                        1-8589934597-3239807,
                                        123456789-4096000000-10840013]))]) :-
    file_('trees/uniform.pl', File),
    gensym(pyab_t_plunit_hash, M),
    load_rules(M, File, ""),
    call_cleanup(M:hash_value(S, I, V1), drop(M)),
    assertion(V1 == V).

test(parameters_are_data_only,
     [forall(member(T, ["foo(1).", "depth(X).", "moves(a, []).",
                        "depth(1) :- true.", ":- halt."]))]) :-
    file_('trees/uniform.pl', File),
    gensym(pyab_t_plunit_bad, M),
    catch(load_rules(M, File, T), E, true),
    assertion(nonvar(E)),
    assertion(\+ current_module(M)).

test(tictactoe_is_a_draw, [true(Val-Best == 0-"r_9")]) :-
    solve_('games/tictactoe.pl', "start([]).", "counts", Best, Val, _).

test(tictactoe_game_tree_size, [true(N-L == 549946-255168)]) :-
    file_('games/tictactoe.pl', File),
    gensym(pyab_t_plunit_ttt, M),
    load_rules(M, File, "start([])."),
    call_cleanup(( M:root(P), M:game_tree_size(P, N, L) ), drop(M)).

test(tictactoe_x_wins_after_a_blunder, [true(Val == 1)]) :-
    % X on 1, O on 2 (an edge next to it): X forces a win.
    solve_('games/tictactoe.pl', "start([1, 2]).", "counts", _, Val, _).

%   position_names/4 names the children as position_name/2 names each.

test(position_names_match_position_name,
     [forall(( between(1, 4, B), between(1, 3, D) ))]) :-
    file_('trees/uniform.pl', File),
    gensym(pyab_t_plunit_names, M),
    uniform_(B, D, 'random(2)', Params),
    load_rules(M, File, Params),
    call_cleanup(forall(( M:root(R), inner_(M, R, P) ),
                        ( M:moves(P, Ks),
                          M:position_name(P, N),
                          M:position_names(P, N, Ks, Ns),
                          maplist(M:position_name, Ks, Expected),
                          maplist(same_text_, Ns, Expected) )),
                 drop(M)).

inner_(M, P, P) :-
    M:moves(P, _).
inner_(M, P, Q) :-
    M:moves(P, Ks),
    member(K, Ks),
    inner_(M, K, Q).

same_text_(A, B) :-
    atom_string(A, S),
    atom_string(B, S).

%   A store that starts too small grows (many times here) and keeps every
%   call: the same names as a store big enough from the start.

test(store_grows_keeping_every_call, [forall(member(O, [worst, 'random(3)']))]) :-
    file_('trees/uniform.pl', File),
    file_('alphabeta.pl', Program),
    gensym(pyab_t_plunit_grow, M),
    atom_concat(M, '_p', Prog),
    uniform_(3, 4, O, Params),
    load_rules(M, File, Params),
    call_cleanup(( solve(M, Prog, Program, bratko, "r", "-1.0Inf", "1.0Inf", "inf 0", _),
                   M:root(R),
                   pyab_observe:recording(names, 1, inf, Prog:alphabeta(R, -inf, inf, _, _), R1),
                   pyab_observe:recording(names, 100000, inf, Prog:alphabeta(R, -inf, inf, _, _), R2),
                   arg(2, R1, N1), arg(2, R2, N2),
                   pyab_run:naming_(M, Kids, Name, KidNames),
                   pyab_observe:record_names(R1, Kids, Name, KidNames, L1, V1, P1, _),
                   pyab_observe:record_names(R2, Kids, Name, KidNames, L2, V2, P2, _) ),
                 drop(M)),
    assertion(N1 > 64),
    assertion(N1 == N2),
    assertion(L1-V1-P1 == L2-V2-P2).

%   The next search of a tree sizes its store by the last one's calls; a
%   search that makes more calls than that grows it and answers as a
%   fresh module does.

test(store_sized_by_the_last_search) :-
    uniform_(4, 4, 'random(5)', Params),
    file_('trees/uniform.pl', File),
    file_('alphabeta.pl', Program),
    gensym(pyab_t_plunit_hint, M),
    atom_concat(M, '_p', Prog),
    load_rules(M, File, Params),
    call_cleanup(( solve(M, Prog, Program, bratko, "r", "4000000", "4000001", "inf 0", Narrow),
                   solve(M, Prog, Program, bratko, "r", "-1.0Inf", "1.0Inf", "inf 0", Wide) ),
                 drop(M)),
    solve_names_('trees/uniform.pl', Params, Best, Val, Leaves, Visited, Pruned),
    answer_lists(Narrow, _, NarrowLeaves, _, _, []),
    answer_lists(Wide, [ok, _, BestA, ValA], Leaves2, Visited2, Pruned2, []),
    length(NarrowLeaves, NN), length(Leaves, NW),
    assertion(NN < NW),
    assertion(atom_string(BestA, Best)),
    assertion(atom_number(ValA, Val)),
    assertion(Leaves2-Visited2-Pruned2 == Leaves-Visited-Pruned).

:- end_tests(trees).
