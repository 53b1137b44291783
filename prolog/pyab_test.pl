/*  ?- use_module(library(pyab/pyab_test)).
    ?- pyab_test.

    Runs every plunit file in tests/ beside this file and succeeds only when
    there were tests and all of them passed.  Each file is loaded into a
    module of its own (pyab_test_alphabeta, ...), with its own copies of
    the programs and trees it tests, so the user's tree/2, staticval/2,
    min_to_move/1, max_to_move/1, moves/2 and program stay as they were.
    The pack ships the files that run outside a checkout (the slides'
    program, the textbook variants, library(pyab/tree_dsl): the Makefile's
    PACK_TESTS, setup.py's INSTALLED_TESTS); in a checkout the folder holds
    them all.
*/

:- module(pyab_test, [pyab_test/0]).
:- use_module(library(plunit)).
:- use_module(library(lists)).
:- use_module(library(apply)).

%!  pyab_test is semidet.
%
%   Run the plunit tests in tests/ beside this file, each file in a module
%   of its own; true when there were tests and all of them passed.

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
    forall(member(F, Files), load_own_(F)),
    run_tests,
    plunit:test_summary(_, Summary),
    Summary.failed =:= 0, Summary.passed > 0.

%   F loaded into the module pyab_test_NAME (NAME: its base name).
load_own_(F) :-
    file_base_name(F, Base),
    file_name_extension(Name, _, Base),
    atom_concat(pyab_test_, Name, M),
    load_files(M:F, [if(not_loaded)]).
