/*  The obvious way to write uniform trees as rules, kept to measure why it
    is slow (benchmarks/implicit.py).  Same trees, same values as
    prolog/trees/uniform.pl, written the way one first writes them:

    - a position is p(Depth, Path) with the Dewey path as a list, last
      index first;
    - moves/2 makes the children with numlist/3 and maplist/3, through a
      yall lambda (variant(lambda)) or a helper predicate (variant(helper));
    - staticval/2 folds the leaf value over the path every time.

    The parameters are facts: branching/1, depth/1, ordering/1 (perfect or
    worst) and variant/1.
*/

:- dynamic branching/1, depth/1, ordering/1, variant/1.

moves(p(D, Path), Kids) :-
    depth(Depth),
    D < Depth,
    branching(B),
    numlist(1, B, Ks),
    D1 is D + 1,
    variant(V),
    kids_(V, Ks, D1, Path, Kids).

kids_(lambda, Ks, D1, Path, Kids) :-
    maplist([K, p(D1, [K|Path])]>>true, Ks, Kids).
kids_(helper, Ks, D1, Path, Kids) :-
    maplist(kid_(D1, Path), Ks, Kids).

kid_(D1, Path, K, p(D1, [K|Path])).

min_to_move(p(D, _)) :- D mod 2 =:= 1.
max_to_move(p(D, _)) :- D mod 2 =:= 0.

staticval(p(D, Path), Val) :-
    depth(D),
    branching(B),
    ordering(O),
    (   O == perfect -> Sign = -1 ; Sign = 1 ),
    reverse(Path, Forward),
    foldl(digit_(B, D, Sign), Forward, 1-0, _-Val).

%   Level L (1-based) adds (A-1) * B^(D-L), signed by who moves above it.
digit_(B, D, Sign, A, L-V0, L1-V) :-
    W is B^(D-L),
    (   L mod 2 =:= 1 -> S = Sign ; S is -Sign ),
    V is V0 + S*(A-1)*W,
    L1 is L + 1.
