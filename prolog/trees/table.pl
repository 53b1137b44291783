/*  A tree file's table (pyab's cache of a big tree: pyab/trees/table.py),
    given as rules: a position is a node's number in tree order, the root
    is 0, and the answers come from the table file, mapped into memory by
    pyab's compiled extension (pyab/prolog/_ctable.c), which defines
    pyab_table:kids/3, value/3, side/3 and name/3.  No clause is asserted
    per node, so a million-node tree is ready at once, and only the nodes
    the search reads become terms.

    The parameter, asserted by whoever loads the file (pyab's bridge):

        table_file(File)    the table's path, an atom

    This file needs pyab's extension loaded in the same process; it is
    not meant for a plain swipl (pyab facts FILE writes a tree's facts).
*/

:- dynamic table_file/1.

%!  root(-Pos) is det.

root(0).

%!  moves(+Pos, -PosList) is semidet.
%
%   The children of Pos, in order; fails on a leaf.

moves(P, Kids) :-
    table_file(F),
    pyab_table:kids(F, P, Kids).

%!  staticval(+Pos, -Val) is semidet.

staticval(P, V) :-
    table_file(F),
    pyab_table:value(F, P, V).

min_to_move(P) :-
    table_file(F),
    pyab_table:side(F, P, min).

max_to_move(P) :-
    table_file(F),
    pyab_table:side(F, P, max).

%!  position_name(+Pos, -Name) is det.

position_name(P, Name) :-
    table_file(F),
    pyab_table:name(F, P, Name).
