/*  ?- use_module(library(pyab/pyab_test)), pyab_test.

    Runs the plunit tests that ship with pyab's programs (tests/ beside this
    file: the slides' program, the textbook variants, library(pyab/tree_dsl))
    and succeeds only when there were tests and all of them passed.  In the
    SWI-Prolog pack they are under prolog/pyab/tests/; in a checkout the
    folder holds more (swipl -g run_tests -t halt prolog/tests/all.pl runs
    them all).
*/

:- module(pyab_test, [pyab_test/0]).
:- use_module(library(plunit)).
:- use_module(library(lists)).
:- use_module(library(apply)).

%   The plunit files that run outside a checkout (the others read
%   tests/vectors/); setup.py and the Makefile's pack target ship these.
shipped_test_('alphabeta.plt').
shipped_test_('variants.plt').
shipped_test_('tree_dsl.plt').

pyab_test :-
    module_property(pyab_test, file(Me)),
    file_directory_name(Me, Dir),
    findall(File,
            ( shipped_test_(Name),
              atomic_list_concat([Dir, '/tests/', Name], File),
              exists_file(File) ),
            Files),
    (   Files == []
    ->  print_message(error, format('pyab_test: no test files in ~w/tests', [Dir])),
        fail
    ;   true
    ),
    forall(member(F, Files), load_files(user:F, [if(not_loaded)])),
    run_tests,
    plunit:test_summary(_, Summary),
    Summary.failed =:= 0, Summary.passed > 0.
