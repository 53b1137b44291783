/*  The test helper of tests/dsl/test_tree_dsl.py: reads, in one
    process, every tree file named in a list file (one line each:
    TREE<TAB>FACTS, FACTS empty when pyab refused the tree) with
    library(pyab/tree_dsl), and prints one line per file:
        err LINE COLUMN          refused, at that place
        ok same | ok differ      taken; the clauses against pyab's facts file
        ok                       taken (pyab refused it: no facts to compare)
    Run: swipl tests/dsl/dsl_agree.pl LISTFILE
*/

:- initialization(main, main).

:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '../../prolog/tree_dsl.pl', DSL),
   use_module(DSL).

main :-
    current_prolog_flag(argv, [List]),
    read_file_to_string(List, Text, [encoding(utf8)]),
    split_string(Text, "\n", "", Lines),
    forall(( member(Line, Lines), Line \== "" ), one(Line)).

one(Line) :-
    split_string(Line, "\t", "", [Tree, Facts]),
    (   catch(read_tree(Tree, Got), error(syntax_error(_), file(_, L, C, _)), true)
    ->  (   var(Got)
        ->  format("err ~d ~d~n", [L, C])
        ;   Facts == ""
        ->  format("ok~n")
        ;   read_facts(Facts, Want),
            (   Got =@= Want -> format("ok same~n") ; format("ok differ~n") )
        )
    ;   format("failed~n")
    ).

read_facts(File, Clauses) :-
    setup_call_cleanup(open(File, read, S, [encoding(utf8)]), read_all(S, Clauses), close(S)).

read_all(S, Clauses) :-
    read_term(S, T, []),
    (   T == end_of_file -> Clauses = []
    ;   T = (:- _) -> read_all(S, Clauses)
    ;   Clauses = [T|Rest], read_all(S, Rest)
    ).
