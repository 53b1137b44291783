% The slides' program with directives that only print, as in a lab sheet.
:- format("Loading the alpha-beta program~n").
:- write(hello), nl.
:- print(ready), nl.

alphabeta(Pos, Alpha, Beta, GoodPos, Val) :-
    moves(Pos, PosList), !,
    boundedbest(PosList, Alpha, Beta, GoodPos, Val);
    staticval(Pos, Val).

%!  boundedbest(+PosList, +Alpha, +Beta, -GoodPos, -GoodVal) is det.
%
%   GoodPos is the best of the (non-empty) PosList within Alpha..Beta.
%   The first position is searched, then goodenough/7 decides whether the
%   rest of the list has to be looked at.

boundedbest([Pos|PosList], Alpha, Beta, GoodPos, GoodVal) :-
    alphabeta(Pos, Alpha, Beta, _, Val),
    goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal).

%!  goodenough(+PosList, +Alpha, +Beta, +Pos, +Val, -GoodPos, -GoodVal) is det.
%
%   Clause 1: no siblings left.  Clause 2: the cut-off.  Pos is a child, so
%   min_to_move(Pos) means the parent is a MAX node: a value above Beta
%   lets MAX's parent (a MIN node) avoid this line, and the siblings left in
%   PosList are never searched (a beta cut-off); symmetrically below Alpha
%   (an alpha cut-off).  The tests are strict: a value equal to the bound
%   does not cut.  Clause 3: tighten the window and search the rest.

goodenough([], _, _, Pos, Val, Pos, Val) :- !.
goodenough(_, Alpha, Beta, Pos, Val, Pos, Val) :-
    min_to_move(Pos), Val > Beta, !
    ;
    max_to_move(Pos), Val < Alpha, !.
goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal) :-
    newbounds(Alpha, Beta, Pos, Val, NewAlpha, NewBeta),
    boundedbest(PosList, NewAlpha, NewBeta, Pos1, Val1),
    betterof(Pos, Val, Pos1, Val1, GoodPos, GoodVal).

%!  newbounds(+Alpha, +Beta, +Pos, +Val, -NewAlpha, -NewBeta) is det.
%
%   A MAX parent (child Pos has MIN to move) raises Alpha to Val when Val
%   is better; a MIN parent lowers Beta.  Otherwise the window is kept.

newbounds(Alpha, Beta, Pos, Val, Val, Beta) :-
    min_to_move(Pos), Val > Alpha, !.
newbounds(Alpha, Beta, Pos, Val, Alpha, Val) :-
    max_to_move(Pos), Val < Beta, !.
newbounds(Alpha, Beta, _, _, Alpha, Beta).

%!  betterof(+Pos, +Val, +Pos1, +Val1, -GoodPos, -GoodVal) is det.
%
%   The better of two siblings for the side to move in their parent.  Only
%   a strictly better Pos wins: on a tie the later sibling Pos1 is kept.

betterof(Pos, Val, _, Val1, Pos, Val) :-
    min_to_move(Pos), Val > Val1, !
    ;
    max_to_move(Pos), Val < Val1, !.
betterof(_, _, Pos1, Val1, Pos1, Val1).

:- format("~w clauses read~n", [all]).
