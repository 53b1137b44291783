/*  The alpha-beta program of the Bratko course slides, clause for clause.

    This is a plain (non-module) file on purpose: the SWI-Prolog toplevel
    loads it next to a fact file, and pyab loads its own copy into one module
    per tree.  The program needs, from whoever loads it:

        moves(Pos, PosList)   the children of an inner position (fails on a leaf)
        staticval(Pos, Val)   the static value of a leaf
        min_to_move(Pos)      MIN is to move in Pos
        max_to_move(Pos)      MAX is to move in Pos

    The clauses of alphabeta/5, boundedbest/5, goodenough/7 and newbounds/6
    are kept exactly as printed on the slides (same heads, same bodies, same
    order); only the layout and these comments are ours.  betterof/6 is
    Bratko's: the slides call it without printing it.

    Try:   swipl prolog/alphabeta.pl examples/slides.pl
           ?- alphabeta(a, -1000, 1000, GoodPos, Val).
*/

%!  alphabeta(+Pos, +Alpha, +Beta, -GoodPos, -Val) is det.
%
%   Val is the value of Pos searched inside the window Alpha..Beta, and
%   GoodPos the successor of Pos that the search chooses.  A leaf has no
%   GoodPos (it stays unbound) and is worth its static value.
%
%   Note the operator priorities of the body: it reads
%   `( moves(...), !, boundedbest(...) ) ; staticval(...)`.

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
