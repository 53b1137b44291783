/*  Load every plunit file in this folder, so that one command runs them all:

        swipl -g run_tests -t halt prolog/tests/all.pl

    (`swipl a.plt b.plt` would load only a.plt: the rest become arguments.)
*/

:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '*.plt', Pattern),
   expand_file_name(Pattern, Files),
   forall(member(F, Files), load_files(F, [if(not_loaded)])).
