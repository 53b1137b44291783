/*  The tree of the moment of a batch of small trees (solve_batch/8 in
    prolog/bridge/run.pl: pyab check --random), given as rules: a position
    is a node's number in tree order, the root is 0, and the answers come
    from the global variable pyab_packed, which solve_batch/8 sets
    (b_setval/2) to each tree in turn before its search:

        t(Names, Kids, Values, Sides)

    four terms with an argument a node (arg/3 reads one at once): Names
    n(Name, ...) the nodes' names (atoms), Kids k(List, ...) each node's
    children's numbers ([] at a leaf), Values v(Value, ...) each node's
    static value (`n` where it has none), Sides s(Side, ...) `x` where MAX
    is to move and `n` for MIN.  Nothing is asserted or retracted per
    tree, and the module and its program stay loaded from tree to tree.
*/

%!  root(-Pos) is det.

root(0).

%!  moves(+Pos, -PosList) is semidet.
%
%   The children of Pos, in order; fails on a leaf (as a fact tree's
%   moves/2, which has no tree/2 fact for a leaf).

moves(P, Kids) :-
    integer(P),
    nb_getval(pyab_packed, t(_, K, _, _)),
    I is P + 1,
    arg(I, K, Kids),
    Kids \== [].

%!  staticval(+Pos, -Val) is semidet.

staticval(P, V) :-
    integer(P),
    nb_getval(pyab_packed, t(_, _, Vs, _)),
    I is P + 1,
    arg(I, Vs, V0),
    V0 \== n,
    V = V0.

min_to_move(P) :-
    side_(P, n).

max_to_move(P) :-
    side_(P, x).

side_(P, Side) :-
    integer(P),
    nb_getval(pyab_packed, t(_, _, _, S)),
    I is P + 1,
    arg(I, S, Side).

%!  position_name(+Pos, -Name) is det.

position_name(P, Name) :-
    nb_getval(pyab_packed, t(Ns, _, _, _)),
    I is P + 1,
    arg(I, Ns, Name).

%!  position_names(+Pos, +Name, +Children, -Names) is det.
%
%   The names of Children at once (the bridge names an observed search's
%   nodes with it when a rules file has it).

position_names(_, _, Children, Names) :-
    nb_getval(pyab_packed, t(Ns, _, _, _)),
    kid_names_(Children, Ns, Names).

kid_names_([], _, []).
kid_names_([P|Ps], Ns, [N|More]) :-
    I is P + 1,
    arg(I, Ns, N),
    kid_names_(Ps, Ns, More).
