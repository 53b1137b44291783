/*  lastmax(Pos, Best, Val): exhaustive minimax in which a later child wins
    a tie (as the slides' betterof/6 does).  The example of
    docs/adding-an-algorithm.md: a plain file needing moves/2, staticval/2,
    min_to_move/1 and max_to_move/1; moves/2 is called once per position,
    staticval/2 once per leaf.  Best stays unbound at a leaf.
*/

lastmax(Pos, Best, Val) :-
    moves(Pos, Ps),
    !,
    lastmax_kids_(Ps, Pos, none, none, Best, Val).
lastmax(Pos, _, Val) :-
    staticval(Pos, Val).

lastmax_kids_([], _, Best, Val, Best, Val).
lastmax_kids_([P|Ps], Pos, Best0, Val0, Best, Val) :-
    lastmax(P, _, V),
    (   (   Best0 == none
        ;   max_to_move(Pos), V >= Val0
        ;   min_to_move(Pos), V =< Val0
        )
    ->  lastmax_kids_(Ps, Pos, P, V, Best, Val)
    ;   lastmax_kids_(Ps, Pos, Best0, Val0, Best, Val)
    ).
