/*  Unit tests of the slides' program as the REPL loads it:
    swipl prolog/alphabeta.pl examples/slides.pl

    Run: swipl -g run_tests -t halt prolog/tests/alphabeta.plt
*/

%   File's clauses in module M: consulted into user when this file runs
%   alone; else (under pyab_test/0) a copy under a name of its own, so that
%   it loads whatever the user has loaded, and leaves it alone.
ab_load_(user, File) :- !, consult(user:File).
ab_load_(M, File) :-
    format(atom(Id), '~w#~w', [File, M]),
    setup_call_cleanup(open(File, read, S), load_files(M:Id, [stream(S), silent(true)]), close(S)).

:- prolog_load_context(directory, Dir),
   prolog_load_context(module, M),
   directory_file_path(Dir, '../alphabeta.pl', Program),
   % slides.pl: examples/ in a checkout, prolog/pyab/examples/ in the pack,
   % pyab/_examples/ in a wheel
   member(Rel, ['../../examples/slides.pl', '../examples/slides.pl', '../../_examples/slides.pl']),
   directory_file_path(Dir, Rel, Slides),
   exists_file(Slides), !,
   ab_load_(M, Program),
   ab_load_(M, Slides).

:- begin_tests(alphabeta).

test(slides_query, [true(GoodPos-Val == b-3)]) :-
    alphabeta(a, -1000, 1000, GoodPos, Val).

test(slides_infinite_window, [true(GoodPos-Val == b-3)]) :-
    Inf is inf, MinusInf is -inf,
    alphabeta(a, MinusInf, Inf, GoodPos, Val).

test(exactly_one_answer, [true(Answers == [b-3])]) :-
    findall(G-V, alphabeta(a, -1000, 1000, G, V), Answers).

test(leaf_has_no_goodpos) :-
    alphabeta(e, -1000, 1000, GoodPos, Val),
    assertion(var(GoodPos)),
    assertion(Val == 3).

test(min_node_value, [true(GoodPos-Val == h-2)]) :-
    % c on its own, full window: MIN picks h (2).
    alphabeta(c, -1000, 1000, GoodPos, Val).

test(cut_returns_the_child_value_not_the_bound, [true(GoodPos-Val == h-2)]) :-
    % With Alpha = 3, h's 2 < 3 cuts i and j; c returns 2, not 3.
    alphabeta(c, 3, 1000, GoodPos, Val).

test(goodenough_is_strict_on_equal_value) :-
    % Val = Alpha does not cut: the third clause searches the rest.
    goodenough([i, j], 2, 1000, h, 2, GoodPos, GoodVal),
    assertion(GoodPos-GoodVal == h-2).

test(betterof_keeps_the_later_on_a_tie, [true(P-V == c-3)]) :-
    betterof(b, 3, c, 3, P, V).

test(betterof_max_parent_prefers_larger, [true(P-V == b-3)]) :-
    betterof(b, 3, c, 2, P, V).

test(newbounds_max_parent_raises_alpha, [true(A-B == 3-1000)]) :-
    newbounds(-1000, 1000, b, 3, A, B).

test(newbounds_min_parent_lowers_beta, [true(A-B == -1000-3)]) :-
    newbounds(-1000, 1000, e, 3, A, B).

test(newbounds_keeps_window_otherwise, [true(A-B == 5-1000)]) :-
    newbounds(5, 1000, b, 3, A, B).

:- end_tests(alphabeta).
