% An honest alphabeta/5 with its own betterof/6 and helper predicates.
alphabeta(Pos, Alpha, Beta, GoodPos, Val) :-
    moves(Pos, PosList), !,
    boundedbest(PosList, Alpha, Beta, GoodPos, Val);
    staticval(Pos, Val).
boundedbest([Pos|PosList], Alpha, Beta, GoodPos, GoodVal) :-
    alphabeta(Pos, Alpha, Beta, _, Val),
    goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal).
goodenough([], _, _, Pos, Val, Pos, Val) :- !.
goodenough(_, Alpha, Beta, Pos, Val, Pos, Val) :-
    min_to_move(Pos), Val > Beta, !
    ;
    max_to_move(Pos), Val < Alpha, !.
goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal) :-
    newbounds(Alpha, Beta, Pos, Val, NewAlpha, NewBeta),
    boundedbest(PosList, NewAlpha, NewBeta, Pos1, Val1),
    betterof(Pos, Val, Pos1, Val1, GoodPos, GoodVal).
newbounds(Alpha, Beta, Pos, Val, Val, Beta) :-
    min_to_move(Pos), Val > Alpha, !.
newbounds(Alpha, Beta, Pos, Val, Alpha, Val) :-
    max_to_move(Pos), Val < Beta, !.
newbounds(Alpha, Beta, _, _, Alpha, Beta).

betterof(Pos, Val, Pos1, Val1, GoodPos, GoodVal) :-
    (   prefer_first(Pos, Val, Val1)
    ->  GoodPos = Pos, GoodVal = Val
    ;   GoodPos = Pos1, GoodVal = Val1
    ).

prefer_first(Pos, Val, Val1) :- side(Pos, min), Val > Val1.
prefer_first(Pos, Val, Val1) :- side(Pos, max), Val < Val1.

side(Pos, min) :- min_to_move(Pos).
side(Pos, max) :- max_to_move(Pos).
