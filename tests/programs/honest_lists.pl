% An honest alpha-beta written with library(lists) and library(apply):
% foldl/4 over the children, last/2 and nth1/3 for nothing but style.
:- use_module(library(lists)).
:- use_module(library(apply)).

alphabeta(Pos, Alpha, Beta, GoodPos, Val) :-
    (   moves(Pos, PosList)
    ->  length(PosList, N), N > 0,
        nth1(1, PosList, _),
        bounded(PosList, Pos, Alpha, Beta, GoodPos, Val)
    ;   staticval(Pos, Val)
    ).

% Bratko's boundedbest/goodenough as a loop; the child to move decides.
bounded([Pos|PosList], Parent, Alpha, Beta, GoodPos, GoodVal) :-
    alphabeta(Pos, Alpha, Beta, _, Val),
    (   PosList == []
    ->  GoodPos = Pos, GoodVal = Val
    ;   cutoff(Pos, Val, Alpha, Beta)
    ->  GoodPos = Pos, GoodVal = Val
    ;   bounds(Pos, Val, Alpha, Beta, A1, B1),
        bounded(PosList, Parent, A1, B1, Pos1, Val1),
        pick(Pos, Val, Pos1, Val1, GoodPos, GoodVal)
    ).

cutoff(Pos, Val, _, Beta) :- min_to_move(Pos), Val > Beta, !.
cutoff(Pos, Val, Alpha, _) :- max_to_move(Pos), Val < Alpha.

bounds(Pos, Val, Alpha, Beta, A, B) :-
    (   min_to_move(Pos), Val > Alpha -> A = Val, B = Beta
    ;   max_to_move(Pos), Val < Beta -> A = Alpha, B = Val
    ;   A = Alpha, B = Beta
    ).

pick(Pos, Val, Pos1, Val1, GoodPos, GoodVal) :-
    last([Pos-Val, Pos1-Val1], Later-LaterVal),
    (   min_to_move(Pos), Val > Val1 -> GoodPos = Pos, GoodVal = Val
    ;   max_to_move(Pos), Val < Val1 -> GoodPos = Pos, GoodVal = Val
    ;   GoodPos = Later, GoodVal = LaterVal
    ).
