/*  Unit tests of library(pyab/tree_dsl) (prolog/tree_dsl.pl), pyab's tree
    files read in plain SWI-Prolog.  tests/dsl/test_tree_dsl.py holds the
    reader to pyab's own on the corpus, the examples and fuzzed texts; these
    tests run wherever the file is installed: the checkout, the pack
    (?- pyab_test.) and the wheel.  The trees go into the module this file
    is loaded into (user when it runs alone, a module of its own under
    pyab_test/0), never into the user's.

    Run: swipl -g run_tests -t halt prolog/tests/tree_dsl.plt
*/

:- use_module(library(plunit)).
:- use_module(library(lists)).

%   File's clauses in module M: consulted into user when this file runs
%   alone; else a copy under a name of its own, so that it loads whatever
%   the user has loaded (a file in user cannot be loaded into another module).
dsl_load_(user, File) :- !, consult(user:File).
dsl_load_(M, File) :-
    format(atom(Id), '~w#~w', [File, M]),
    setup_call_cleanup(open(File, read, S), load_files(M:Id, [stream(S), silent(true)]), close(S)).

%   The module that holds this file's trees and program.
dsl_home_(M) :- context_module(M).

:- prolog_load_context(directory, Dir),
   prolog_load_context(module, M),
   directory_file_path(Dir, '../tree_dsl.pl', DSL),
   use_module(DSL),
   directory_file_path(Dir, '../alphabeta.pl', Program),
   dsl_load_(M, Program).

%   The example trees: examples/ in a checkout, prolog/pyab/examples/ in the
%   pack, pyab/_examples/ in a wheel.
dsl_example_(Name, Path) :-
    source_file(dsl_example_(_, _), File),
    file_directory_name(File, Dir),
    member(Rel, ['../../examples', '../examples', '../../_examples']),
    atomic_list_concat([Dir, /, Rel, /, Name], Path),
    exists_file(Path), !.

dsl_error_(Text, Line, Column) :-
    catch(text_tree(Text, t, _), error(syntax_error(_), file(t, Line, Column, _)), true),
    nonvar(Line).

:- begin_tests(tree_dsl).

test(slides_answer, [true(G-V == b-3)]) :-
    dsl_example_('slides.tree', File),
    dsl_home_(M), load_tree(M:File),
    alphabeta(a, -inf, inf, G, V).

test(slides_facts_in_pyab_order) :-
    dsl_example_('slides.tree', File),
    read_tree(File, Facts),
    Facts = [tree(a, [b, c, d]), tree(b, [e, f, g])|_],
    assertion(memberchk(staticval(e, 3), Facts)),
    assertion(memberchk(min_to_move(b), Facts)),
    assertion(memberchk(max_to_move(a), Facts)),
    last(Facts, Bridge),
    assertion(Bridge =@= (moves(P, M) :- tree(P, M))).

test(list_form_dewey_names) :-
    % the side before a list is the root's; pyab's order: tree/2, staticval/2,
    % every min_to_move/1, every max_to_move/1, each in tree order
    text_tree("min [[3, 12], -2.5]", t, [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, Bridge]),
    assertion([F1, F2, F3, F4, F5, F6, F7, F8, F9, F10] ==
              [tree(r, [r_1, r_2]), tree(r_1, [r_1_1, r_1_2]),
               staticval(r_1_1, 3), staticval(r_1_2, 12), staticval(r_2, -2.5),
               min_to_move(r), min_to_move(r_1_1), min_to_move(r_1_2),
               max_to_move(r_1), max_to_move(r_2)]),
    assertion(Bridge =@= (moves(P, M) :- tree(P, M))).

test(flat_form_any_order, [true(G-V == b-3)]) :-
    text_tree("e = 3\nf = 12\nb -> e, f\nc -> h\nh = 2\na -> b, c\n", t, Facts),
    setup_tree_(Facts),
    alphabeta(a, -inf, inf, G, V).

test(marks_repeat_a_side) :-
    text_tree("a(g = 2, min b(min c(d = 1, e = 5), f = 9))", t, Facts),
    assertion(memberchk(min_to_move(b), Facts)),
    assertion(memberchk(min_to_move(c), Facts)),
    assertion(memberchk(max_to_move(d), Facts)).

test(quoted_names_and_escapes) :-
    text_tree("'King e1'('it''s' = 1, '\\x41\\' = 2, 'a\\nb' = 3.5)", t, Facts),
    assertion(memberchk(tree('King e1', ['it\'s', 'A', 'a\nb']), Facts)),
    assertion(memberchk(staticval('a\nb', 3.5), Facts)).

test(static_value_on_an_inner_node) :-
    text_tree("a(b = 5 (e = 3, f = 12), c = 1)", t, Facts),
    assertion(memberchk(staticval(b, 5), Facts)),
    assertion(memberchk(tree(b, [e, f]), Facts)).

test(big_integers_stay_exact, [true(V == 123456789012345678901234567890)]) :-
    text_tree("a(b = 123456789012345678901234567890, c = 1)", t, Facts),
    memberchk(staticval(b, V), Facts).

test(errors_name_line_and_column) :-
    assertion(dsl_error_("a(b(e=3), c(b=2))", 1, 13)),          % duplicate name
    assertion(dsl_error_("a -> b\nb -> a\n", 1, 1)),            % cycle
    assertion(dsl_error_("a -> b, c\nd -> b\nb = 1\nc = 2", 2, 6)), % two parents
    assertion(dsl_error_("a = 1\nb = 2", 2, 1)),                % two roots
    assertion(dsl_error_("a()", 1, 1)),                         % no children
    assertion(dsl_error_("a(b, c = 1)", 1, 3)),                 % no value
    assertion(dsl_error_("a(b = 1e999)", 1, 3)),                % not finite
    assertion(dsl_error_("a(b = 1, c = 2", 1, 15)),             % ends too early
    assertion(dsl_error_("a(b = 1 c = 2)", 1, 9)),              % syntax
    assertion(dsl_error_("a('x\\q' = 1)", 1, 3)).               % unknown escape

test(empty_file_names_no_place) :-
    catch(text_tree("# nothing\n", t, _), error(syntax_error(M), file(t, L, C, _)), true),
    assertion(M-L-C == 'empty file: expected a tree'-0-0).

test(a_refused_file_leaves_the_previous_tree) :-
    dsl_example_('slides.tree', File),
    dsl_home_(M), load_tree(M:File),
    tmp_file_stream(text, Bad, S), format(S, "a(b = 1, b = 2)~n", []), close(S),
    catch(load_tree(M:Bad), error(syntax_error(_), _), true),
    delete_file(Bad),
    assertion(M:tree(a, [b, c, d])),
    assertion(\+ M:staticval(b, 1)).

test(load_replaces_the_previous_tree, [true(G-V == r_1-1)]) :-
    dsl_example_('slides.tree', File),
    dsl_home_(M), load_tree(M:File),
    tmp_file_stream(text, Other, S), format(S, "[1, 0]~n", []), close(S),
    dsl_home_(M), load_tree(M:Other),
    delete_file(Other),
    assertion(\+ M:tree(a, _)),
    alphabeta(r, -inf, inf, G, V).

:- end_tests(tree_dsl).

setup_tree_(Facts) :-
    dsl_home_(M),
    forall(member(P, [tree/2, staticval/2, min_to_move/1, max_to_move/1, moves/2]),
           ( P = N/A, functor(H, N, A), dynamic(M:P), retractall(M:H) )),
    forall(member(F, Facts), assertz(M:F)).
