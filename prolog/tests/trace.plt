/*  Unit tests of solve_traced/8 (prolog/bridge/run.pl): the slides'
    program observed step by step, without Python.

    Run: swipl -g run_tests -t halt prolog/tests/trace.plt
*/

:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '../pyab_bridge.pl', Bridge),
   use_module(Bridge).

:- begin_tests(trace, [setup(load_slides_), cleanup(pyab_bridge:drop(trace_test_t))]).

load_slides_ :-
    module_property(pyab_bridge, file(Bridge)),
    file_directory_name(Bridge, PrologDir),
    directory_file_path(PrologDir, '../examples/slides.pl', Slides),
    read_file_to_string(Slides, Text, []),
    pyab_bridge:load_tree(trace_test_t, Text).

program_(File) :-
    module_property(pyab_bridge, file(Bridge)),
    file_directory_name(Bridge, PrologDir),
    directory_file_path(PrologDir, 'alphabeta.pl', File).

%   The events after solve/9's fields, as a list of strings.
traced_(AlphaS, BetaS, Fields, Events) :-
    program_(File),
    pyab_bridge:solve_traced(trace_test_t, trace_test_t_p1_trace, File, "a",
                             AlphaS, BetaS, "inf 0", Out),
    pyab_bridge:answer_lists(Out, Head, _, _, _, Rest),
    maplist(atom_string, Head, Fields),
    maplist(atom_string, Rest, Events).

test(answer, [true(Best-Val == "b"-"3")]) :-
    traced_("-1000", "1000", ["ok", "1", Best, Val|_], _).

test(first_call_has_the_slides_window, [true(First == ["call", "a", "-1000", "1000"])]) :-
    traced_("-1000", "1000", _, Events),
    length(First, 4),
    append(First, _, Events).

test(alpha_cut_at_h_removes_i_and_j) :-
    traced_("-1000", "1000", _, Events),
    append(_, ["cut", "h", "2", "3", "1000", "alpha", "2", "i", "j"|_], Events),
    !.

test(beta_falls_to_14_then_5_in_d) :-
    traced_("-1000", "1000", _, Events),
    append(_, ["bounds", "k", "14", "3", "1000", "3", "14"|After], Events),
    append(_, ["bounds", "l", "5", "3", "14", "3", "5"|_], After),
    !.

test(last_event_is_the_root_returning_b_3) :-
    traced_("-1000", "1000", _, Events),
    append(_, ["return", "a", "1", "b", "3"], Events),
    !.

test(untraced_solve_after_a_trace_is_unchanged, [true(Out0 == Out)]) :-
    program_(File),
    pyab_bridge:solve(trace_test_t, trace_test_t_p1, File, bratko, "a", "-1000", "1000",
                      "inf 0", Out0),
    traced_("-1000", "1000", _, _),
    pyab_bridge:solve(trace_test_t, trace_test_t_p1, File, bratko, "a", "-1000", "1000",
                      "inf 0", Out).

:- end_tests(trace).
