/*  Unit tests of solve_packed/11 (prolog/bridge/run.pl): a tree loaded,
    searched, answered and its module emptied in one call, in plain swipl.

    Run: swipl -g run_tests -t halt prolog/tests/packed.plt
*/

:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '../pyab_bridge.pl', Bridge),
   use_module(Bridge).

:- begin_tests(packed).

program_(Program) :-
    module_property(pyab_bridge, file(Bridge)),
    file_directory_name(Bridge, Dir),
    directory_file_path(Dir, 'alphabeta.pl', Program).

%   The slides' tree, packed as pyab/prolog/bridge.py packs it.
slides_(Names, Shape) :-
    atomic_list_concat([a, b, e, f, g, c, h, i, j, d, k, l, m], '\u0000', NamesA),
    atom_string(NamesA, Names),
    Shape = "shape(\"xnxxxnxxxnxxx\", [0, 1, 5, 9], [[1, 5, 9], [2, 3, 4], [6, 7, 8], [10, 11, 12]], [n, n, 3, 12, 8, n, 2, 3, 20, n, 14, 5, 2])".

test(slides_in_one_call) :-
    program_(P), slides_(N, S),
    solve_packed(pyab_t_packed1, pyab_t_packed1_p, P, bratko, N, S, "a", "-1.0Inf", "1.0Inf",
                 "inf 0", Out),
    answer_lists(Out, [ok, '1', b, '3'], Leaves, Visited, Pruned, []),
    assertion(Leaves == [e, f, g, h, k, l, m]),
    assertion(Visited == [a, b, e, f, g, c, h, d, k, l, m]),
    assertion(Pruned == [i, j]),
    % emptied for the next tree, not dropped: no facts left, the name free
    assertion(\+ pyab_t_packed1:tree(_, _)),
    assertion(pyab_state:free_module(pyab_t_packed1)),
    drop(pyab_t_packed1).

test(the_same_module_takes_the_next_tree) :-
    program_(P), slides_(N, S),
    solve_packed(pyab_t_packed2, pyab_t_packed2_p, P, bratko, N, S, "a", "-1.0Inf", "1.0Inf",
                 "inf 0", _),
    solve_packed(pyab_t_packed2, pyab_t_packed2_p, P, bratko, "x\u0000y\u0000z",
                 "shape(\"xnn\", [0], [[1, 2]], [n, 1, 2])", "x", "-1.0Inf", "1.0Inf", "inf 0",
                 Out),
    answer_lists(Out, [ok, '1', z, '2'], [y, z], [x, y, z], [], []),
    drop(pyab_t_packed2).

test(a_bad_shape_leaves_nothing_behind,
     [error(domain_error(pyab_node_id, 7))]) :-
    program_(P),
    catch(solve_packed(pyab_t_packed3, pyab_t_packed3_p, P, bratko, "x\u0000y",
                       "shape(\"xn\", [0], [[1, 7]], [n, 1])", "x", "-1.0Inf", "1.0Inf",
                       "inf 0", _),
          E,
          ( assertion(\+ current_module(pyab_t_packed3)),
            throw(E) )).

test(an_error_in_the_search_drops_the_module) :-
    tmp_file_stream(text, File, S),
    format(S, "alphabeta(_, _, _, _, _) :- throw(boom).~n", []),
    close(S),
    slides_(N, Sh),
    catch(solve_packed(pyab_t_packed4, pyab_t_packed4_p, File, bratko, N, Sh, "a", "-1.0Inf",
                       "1.0Inf", "inf 0", _), E, true),
    delete_file(File),
    assertion(E == boom),
    assertion(\+ current_module(pyab_t_packed4)),
    assertion(\+ current_module(pyab_t_packed4_p)).

:- end_tests(packed).
