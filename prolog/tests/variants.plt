/*  Unit tests of the textbook variants in plain SWI-Prolog: prolog/aima.pl,
    prolog/cpw.pl and prolog/module22.pl.

    Each program is loaded, unchanged, into a module of its own (v_aima,
    v_cpw, v_module22) next to the tree facts of the test at hand, so the
    files cannot clash with each other or with alphabeta.pl when every .plt
    file runs in one process.  staticval/2 is wrapped, as the bridge does,
    to count the leaves a search reads.

    Trees are written in the DSL's list form (a Prolog term): a list is an
    inner node, a number a leaf, `V-List` an inner node with static value V
    (for depth limits); nodes get Dewey names r, r_1, r_1_2, ...

    Run: swipl -g run_tests -t halt prolog/tests/variants.plt
*/

:- use_module(library(plunit)).
:- use_module(library(prolog_wrap)).
:- use_module(library(lists)).
:- use_module(library(apply)).

vt_load_(Dir, Program) :-
    atom_concat(v_, Program, M),
    forall(member(N/A, [tree/2, staticval/2, min_to_move/1, max_to_move/1,
                        read_/1, asked_/1]),
           dynamic(M:N/A)),
    assertz(M:(moves(Pos, Moves) :- tree(Pos, Moves))),
    wrap_predicate(M:staticval(Pos, _), variants_plt, W,
                   ( assertz(M:read_(Pos)), W )),
    wrap_predicate(M:moves(Pos1, _), variants_plt, W1,
                   ( assertz(M:asked_(Pos1)), W1 )),
    atomic_list_concat([Dir, '/../', Program, '.pl'], File),
    % a copy under a name of its own: loads whatever the user has loaded
    % (a file consulted into user cannot be loaded into another module)
    format(atom(Id), '~w#~w', [File, M]),
    setup_call_cleanup(open(File, read, S), load_files(M:Id, [stream(S), silent(true)]), close(S)).

%!  vt_tree_(+M, +Side, +Term) is det.
%
%   Replace the tree in module M by Term (list form), Side to move at r.

vt_tree_(M, Side, Term) :-
    forall(member(N/A, [tree/2, staticval/2, min_to_move/1, max_to_move/1,
                        read_/1, asked_/1]),
           ( functor(H, N, A), retractall(M:H) )),
    vt_node_(Term, r, Side, M).

vt_node_(Term, Name, Side, M) :-
    (   Side == max -> assertz(M:max_to_move(Name)) ; assertz(M:min_to_move(Name)) ),
    (   number(Term)
    ->  assertz(M:staticval(Name, Term))
    ;   Term = V-Kids
    ->  assertz(M:staticval(Name, V)),
        vt_kids_(Kids, Name, Side, M)
    ;   vt_kids_(Term, Name, Side, M)
    ).

vt_kids_(Kids, Name, Side, M) :-
    vt_other_(Side, Other),
    length(Kids, N),
    numlist(1, N, Is),
    maplist(vt_kid_name_(Name), Is, Names),
    assertz(M:tree(Name, Names)),
    maplist(vt_kid_(Other, M), Names, Kids).

% Helpers, not yall lambdas: with library(yall) loaded before this file
% (a lambda typed at the toplevel autoloads it), lambdas are compiled
% differently and these tests failed when ?- pyab_test. loaded them.
vt_kid_name_(Name, I, K) :- format(atom(K), '~w_~d', [Name, I]).
vt_kid_(Other, M, K, T) :- vt_node_(T, K, Other, M).

vt_other_(max, min).
vt_other_(min, max).


%   The leaves read since the tree was set, in order.

vt_leaves_(M, Leaves) :-
    findall(P, M:read_(P), Leaves).

vt_inf_(X) :- X is inf.
vt_minus_inf_(X) :- X is -inf.

vt_figure_5_2([[3, 12, 8], [2, 4, 6], [14, 5, 2]]).
vt_figure_5_2_tie([[3, 12, 8], [3, 4, 6], [14, 5, 2]]).
vt_slides_window_tree([[3, 12, 8], [2, 3, 20], [14, 5, 2]]).

:- prolog_load_context(directory, Dir),
   forall(member(P, [aima, cpw, module22]),
          vt_load_(Dir, P)).

%   Each program asks moves/2 at most once per position and reads each
%   static value at most once, so what the bridge observes is the search.

vt_once_each_(M, Goal) :-
    call(M:Goal),
    findall(P, M:asked_(P), Asked),
    vt_leaves_once_(M, Asked).

vt_leaves_once_(M, Asked) :-
    findall(P, M:read_(P), Read),
    msort(Asked, A1), sort(Asked, A2),
    msort(Read, R1), sort(Read, R2),
    assertion(A1 == A2),
    assertion(R1 == R2).

:- begin_tests(once_per_position).

test(every_program, [forall(vt_once_case_(M, Side, T, Goal))]) :-
    vt_tree_(M, Side, T),
    vt_once_each_(M, Goal).

:- end_tests(once_per_position).

vt_once_case_(M, Side, T, Goal) :-
    member(Side, [max, min]),
    member(T, [ [[3, 12, 8], [2, 4, 6], [14, 5, 2]],
                [[[1, 4], [2, 2]], [[3, 1], [5, 0]], [[2, 2], [9, 1]]],
                [3, [[[2, 4]]], 1] ]),
    member(M-Goal, [ v_aima-alpha_beta_search(r, _, _),
                     v_cpw-cpw_minmax(r, -1000, 1000, inf, _, _),
                     v_cpw-cpw_negamax(r, -1000, 1000, inf, _, _),
                     v_cpw-cpw_failsoft(r, 2, 3, inf, _, _),
                     v_module22-module22(r, -inf, inf, inf, _, _),
                     v_module22-module22_path(r, 1, 4, inf, 0.5, _, _) ]).

:- begin_tests(aima).

test(figure_5_2, [true(A-V-N == r_1-3-7)]) :-
    vt_figure_5_2(T), vt_tree_(v_aima, max, T),
    v_aima:alpha_beta_search(r, A, V),
    vt_leaves_(v_aima, Ls), length(Ls, N).

test(tie_reads_seven_leaves_and_picks_the_first_move) :-
    % The slides' program reads nine leaves here and picks r_2.
    vt_figure_5_2_tie(T), vt_tree_(v_aima, max, T),
    v_aima:alpha_beta_search(r, A, V),
    vt_leaves_(v_aima, Ls),
    assertion(A-V == r_1-3),
    assertion(Ls == [r_1_1, r_1_2, r_1_3, r_2_1, r_3_1, r_3_2, r_3_3]).

test(min_value_cuts_on_equal_alpha, [true(Ls == [r_1_1, r_2_1])]) :-
    % r_2's first leaf equals alpha = 3: v =< alpha returns at once.
    vt_tree_(v_aima, max, [[3], [3, 9]]),
    v_aima:alpha_beta_search(r, _, _),
    vt_leaves_(v_aima, Ls).

test(returns_v_not_the_bound, [true(V == 2)]) :-
    % MIN-VALUE(r_2) returns 2 when it cuts, not alpha.
    vt_tree_(v_aima, max, [[3], [2, 9]]),
    vt_minus_inf_(MI), vt_inf_(I),
    v_aima:min_value(r_2, 3, I, inf, V, _),
    assertion(MI < 0).

test(min_root, [true(A-V == r_2-8)]) :-
    vt_tree_(v_aima, min, [[3, 9], [4, 8], [1, 10]]),
    v_aima:alpha_beta_search(r, A, V).

test(depth_limit_reads_inner_values, [true(A-V-Ls == r_2-5-[r_1, r_2])]) :-
    vt_tree_(v_aima, max, [4-[1, 9], 5-[7, 8]]),
    vt_minus_inf_(MI), vt_inf_(I),
    v_aima:alpha_beta_search(r, MI, I, 1, A, V),
    vt_leaves_(v_aima, Ls).

test(depth_limit_without_value, [error(existence_error(static_value, r_1))]) :-
    vt_tree_(v_aima, max, [[1, 9], [7, 8]]),
    vt_minus_inf_(MI), vt_inf_(I),
    v_aima:alpha_beta_search(r, MI, I, 1, _, _).

test(terminal_root_has_no_action) :-
    vt_tree_(v_aima, max, 7),
    v_aima:alpha_beta_search(r, A, V),
    assertion(var(A)),
    assertion(V == 7).

:- end_tests(aima).

:- begin_tests(cpw).

test(all_three_on_figure_5_2) :-
    vt_figure_5_2(T), vt_tree_(v_cpw, max, T),
    vt_minus_inf_(MI), vt_inf_(I),
    forall(member(P, [cpw_minmax, cpw_negamax, cpw_failsoft]),
           ( call(v_cpw:P, r, MI, I, inf, B, V),
             assertion(B-V == r_1-3) )).

test(fail_hard_returns_the_bound_fail_soft_the_score) :-
    % Window 4..10 and the minimax value is 3: the root fails low.
    vt_slides_window_tree(T), vt_tree_(v_cpw, max, T),
    v_cpw:cpw_minmax(r, 4, 10, inf, B1, V1),
    v_cpw:cpw_negamax(r, 4, 10, inf, B2, V2),
    v_cpw:cpw_failsoft(r, 4, 10, inf, B3, V3),
    assertion(V1-V2-V3 == 4-4-3),
    assertion(var(B1)), assertion(var(B2)),
    assertion(B3 == r_1).

test(fail_high_bound_and_score) :-
    % Window -10..2: the first move already reaches beta.
    vt_slides_window_tree(T), vt_tree_(v_cpw, max, T),
    v_cpw:cpw_negamax(r, -10, 2, inf, B1, V1),
    v_cpw:cpw_failsoft(r, -10, 2, inf, B2, V2),
    assertion(B1-V1 == r_1-2),
    assertion(B2-V2 == r_1-3).

test(cut_on_equal_beta, [true(Ls == [r_1_1, r_2_1])]) :-
    vt_tree_(v_cpw, max, [[3], [3, 9]]),
    vt_minus_inf_(MI), vt_inf_(I),
    v_cpw:cpw_negamax(r, MI, I, inf, _, _),
    vt_leaves_(v_cpw, Ls).

test(first_of_equal_moves, [true(B == r_1)]) :-
    vt_tree_(v_cpw, max, [[3], [3, 9]]),
    vt_minus_inf_(MI), vt_inf_(I),
    v_cpw:cpw_failsoft(r, MI, I, inf, B, _).

test(min_root_negamax, [true(B-V == r_2-8)]) :-
    vt_tree_(v_cpw, min, [[3, 9], [4, 8], [1, 10]]),
    vt_minus_inf_(MI), vt_inf_(I),
    v_cpw:cpw_negamax(r, MI, I, inf, B, V).

test(min_root_minmax_fail_hard_window, [true(V == 5)]) :-
    % MIN root, minimax value 8, window 0..5: fails high, returns beta.
    vt_tree_(v_cpw, min, [[3, 9], [4, 8], [1, 10]]),
    v_cpw:cpw_minmax(r, 0, 5, inf, _, V).

test(depthleft_zero_reads_static_values, [true(B-V-Ls == r_2-5-[r_1, r_2])]) :-
    vt_tree_(v_cpw, max, [4-[1, 9], 5-[7, 8]]),
    vt_minus_inf_(MI), vt_inf_(I),
    v_cpw:cpw_negamax(r, MI, I, 1, B, V),
    vt_leaves_(v_cpw, Ls).

:- end_tests(cpw).

:- begin_tests(module22).

test(figure_5_2_path, [true(P-V == [r_1, r_1_1]-3)]) :-
    vt_figure_5_2(T), vt_tree_(v_module22, max, T),
    v_module22:module22_path(r, -inf, inf, inf, 0, P, V).

test(cut_at_the_largest_value, [true(Ls == [r_1])]) :-
    % The starting CurrentThreshold is the tree's largest value, 3.
    vt_tree_(v_module22, max, [3, 1]),
    v_module22:module22_path(r, -inf, inf, inf, 0, _, _),
    vt_leaves_(v_module22, Ls).

test(null_path_when_every_move_is_the_smallest_value) :-
    vt_tree_(v_module22, max, [[2, 5], [2, 7]]),
    v_module22:module22(r, -inf, inf, inf, B, V),
    assertion(var(B)),
    assertion(V == 2).

test(futility_margin) :-
    vt_tree_(v_module22, max, [1, 5, 5.1]),
    v_module22:module22_path(r, -inf, inf, inf, 0, P0, V0),
    v_module22:module22_path(r, -inf, inf, inf, 0.5, P1, V1),
    assertion(P0-V0 == [r_3]-5.1),
    assertion(P1-V1 == [r_2]-5).

test(min_root, [true(P-V == [r_2, r_2_2]-8)]) :-
    vt_tree_(v_module22, min, [[3, 9], [4, 8], [1, 10]]),
    v_module22:module22_path(r, -inf, inf, inf, 0, P, V).

test(finite_window_replaces_thresholds, [true(V == 4)]) :-
    % MAX root, value 3, window 4..10: NextThreshold starts at 4.
    vt_slides_window_tree(T), vt_tree_(v_module22, max, T),
    v_module22:module22(r, 4, 10, inf, _, V).

test(over_at_the_depth_limit, [true(P-V == [r_2]-5)]) :-
    vt_tree_(v_module22, max, [4-[1, 9], 5-[7, 8]]),
    v_module22:module22_path(r, -inf, inf, 1, 0, P, V).

:- end_tests(module22).
