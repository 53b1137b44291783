/*  Strict-cut, depth-limited alpha-beta with a side to move per node.

    A plain (non-module) file like alphabeta.pl: it needs, from whoever
    loads it, the tree's moves/2, staticval/2 and max_to_move/1.

    The rule is the one the alpha-beta question of UC Berkeley's CS188
    Pacman project ("multiagent", AlphaBetaAgent) sets for its autograder:

        VALUE at a MAX node:  v <- -inf
          for each successor s, in the order given:
            v <- max(v, VALUE(s, alpha, beta))
            if v > beta then return v          (strictly: no cut on equality)
            alpha <- max(alpha, v)
          return v
        and the mirror image at a MIN node (v < alpha; beta <- min).

    * Who moves is asked of each node (max_to_move/1), not inferred from
      its parent or its child, so MIN may move several times in a row (a
      ghost after a ghost) -- unlike the slides' alphabeta/5, which asks the
      child and so needs sides that alternate.
    * The move is the first successor strictly better than all before it:
      on a tie the earlier successor stays.
    * Depth is `inf` or a number of plies; a node at the limit is scored by
      its static value without asking for its moves (the horizon).
    * The value is returned as found (fail-soft).

    Try:   swipl prolog/strict_cut.pl examples/slides.pl
           ?- strict_cut(a, -inf, inf, inf, Move, Val).
*/

%!  strict_cut(+Pos, +Alpha, +Beta, +Depth, -Move, -Val) is det.
%
%   Val is the value of Pos searched in the window Alpha..Beta, Depth plies
%   deep (`inf`: no limit), and Move the first successor of Pos with that
%   value.  Move stays unbound when Pos is scored by its static value.

strict_cut(Pos, Alpha, Beta, Depth, Move, Val) :-
    (   Depth == 0
    ->  strict_horizon_(Pos, Val)
    ;   moves(Pos, Kids)
    ->  strict_deeper_(Depth, Depth1),
        (   max_to_move(Pos)
        ->  V0 is -inf,
            strict_max_(Kids, Alpha, Beta, Depth1, _, V0, Move, Val)
        ;   V0 is inf,
            strict_min_(Kids, Alpha, Beta, Depth1, _, V0, Move, Val)
        )
    ;   staticval(Pos, Val)
    ).

%   strict_max_(+Kids, +Alpha, +Beta, +Depth, +Move0, +V0, -Move, -V):
%   the loop of a MAX node, with the move and value so far.

strict_max_([], _, _, _, Move, V, Move, V).
strict_max_([K|Ks], Alpha, Beta, Depth, Move0, V0, Move, V) :-
    strict_cut(K, Alpha, Beta, Depth, _, W),
    (   W > V0                                  % only a strictly better move
    ->  V1 = W, Move1 = K
    ;   V1 = V0, Move1 = Move0
    ),
    (   V1 > Beta                               % strictly above beta: cut
    ->  Move = Move1, V = V1
    ;   (   V1 > Alpha -> Alpha1 = V1 ; Alpha1 = Alpha ),
        strict_max_(Ks, Alpha1, Beta, Depth, Move1, V1, Move, V)
    ).

%   The loop of a MIN node.

strict_min_([], _, _, _, Move, V, Move, V).
strict_min_([K|Ks], Alpha, Beta, Depth, Move0, V0, Move, V) :-
    strict_cut(K, Alpha, Beta, Depth, _, W),
    (   W < V0
    ->  V1 = W, Move1 = K
    ;   V1 = V0, Move1 = Move0
    ),
    (   V1 < Alpha                              % strictly below alpha: cut
    ->  Move = Move1, V = V1
    ;   (   V1 < Beta -> Beta1 = V1 ; Beta1 = Beta ),
        strict_min_(Ks, Alpha, Beta1, Depth, Move1, V1, Move, V)
    ).

strict_deeper_(inf, inf) :- !.
strict_deeper_(Depth, Depth1) :-
    Depth1 is Depth - 1.

%   At the horizon: the static value of a node cut off by the depth limit.

strict_horizon_(Pos, V) :-
    (   staticval(Pos, V0)
    ->  V = V0
    ;   existence_error(static_value, Pos)
    ).
