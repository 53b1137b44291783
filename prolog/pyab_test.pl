/*  ?- use_module(library(pyab/pyab_test)), pyab_test.

    Runs every plunit file in tests/ beside this file and succeeds only when
    there were tests and all of them passed.  The pack ships the ones that
    run outside a checkout (the slides' program, the textbook variants,
    library(pyab/tree_dsl): the Makefile's PACK_TESTS, setup.py's
    INSTALLED_TESTS); in a checkout the folder holds them all.
*/

:- module(pyab_test, [pyab_test/0]).
:- use_module(library(plunit)).
:- use_module(library(lists)).
:- use_module(library(apply)).

pyab_test :-
    module_property(pyab_test, file(Me)),
    file_directory_name(Me, Dir),
    directory_file_path(Dir, 'tests/*.plt', Pattern),
    expand_file_name(Pattern, Files),
    (   Files == []
    ->  print_message(error, format('pyab_test: no test files in ~w/tests', [Dir])),
        fail
    ;   true
    ),
    forall(member(F, Files), load_files(user:F, [if(not_loaded)])),
    run_tests,
    plunit:test_summary(_, Summary),
    Summary.failed =:= 0, Summary.passed > 0.
