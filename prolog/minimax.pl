/*  Hsu's exhaustive search: mini-max F'/G' (depth limited: F0'/G0') and
    its nega-max form F (F0).  No pruning; pyab's referee for values.

        minimax(Pos, Depth, Best, Val)   F'/G', one procedure per side
        negamax(Pos, Depth, Best, Val)   F, values negated at each level

    A plain (non-module) file needing moves/2, staticval/2, min_to_move/1
    and max_to_move/1, like prolog/alphabeta.pl.  moves/2 is called once
    per position searched, staticval/2 once per value used.  Depth is `inf`
    or a non-negative integer; a position is terminal when it has no
    successors or no depth is left, and is then worth its static value.
    Best is the first successor with the best value ("if t > m then
    m := t"); it stays unbound on a terminal position.  negamax/4 reports
    Val from MAX's point of view whoever moves at Pos.

    Try:   swipl prolog/minimax.pl examples/slides.pl
           ?- minimax(a, inf, Best, Val).
*/

%!  minimax(+Pos, +Depth, -Best, -Val) is det.
%
%   Val is F0'(Pos, Depth) when MAX is to move in Pos, G0'(Pos, Depth)
%   when MIN is.

minimax(Pos, Depth, Best, Val) :-
    (   max_to_move(Pos)
    ->  fp_(Pos, Depth, Best0, Val)
    ;   gp_(Pos, Depth, Best0, Val)
    ),
    mm_best_(Best0, Best).

%   F0'(p, depth), a MAX position: m := -inf; t := G0'(p_i, depth-1).

fp_(Pos, Depth, Best, Val) :-
    mm_successors_(Pos, Ps),
    (   mm_terminal_(Ps, Depth)
    ->  Best = none,
        mm_static_value_(Pos, Val)
    ;   mm_next_depth_(Depth, Depth1),
        M0 is -inf,
        fp_loop_(Ps, M0, none, Depth1, Best, Val)
    ).

fp_loop_([], M, B, _, B, M).
fp_loop_([P|Ps], M0, B0, Depth, Best, Val) :-
    gp_(P, Depth, _, T),
    (   T > M0
    ->  M = T, B = move(P)
    ;   M = M0, B = B0
    ),
    fp_loop_(Ps, M, B, Depth, Best, Val).

%   G0'(p, depth), a MIN position: m := +inf; t := F0'(p_i, depth-1).

gp_(Pos, Depth, Best, Val) :-
    mm_successors_(Pos, Ps),
    (   mm_terminal_(Ps, Depth)
    ->  Best = none,
        mm_static_value_(Pos, Val)
    ;   mm_next_depth_(Depth, Depth1),
        M0 is inf,
        gp_loop_(Ps, M0, none, Depth1, Best, Val)
    ).

gp_loop_([], M, B, _, B, M).
gp_loop_([P|Ps], M0, B0, Depth, Best, Val) :-
    fp_(P, Depth, _, T),
    (   T < M0
    ->  M = T, B = move(P)
    ;   M = M0, B = B0
    ),
    gp_loop_(Ps, M, B, Depth, Best, Val).

%!  negamax(+Pos, +Depth, -Best, -Val) is det.
%
%   As minimax/4, computed by Hsu's nega-max F0(Pos, Depth).

negamax(Pos, Depth, Best, Val) :-
    f_(Pos, Depth, Best0, NVal),
    (   max_to_move(Pos)
    ->  Val = NVal
    ;   Val is -NVal
    ),
    mm_best_(Best0, Best).

%   F0(p, depth): m := -inf; t := -F0(p_i, depth-1); terminal: h(p).

f_(Pos, Depth, Best, Val) :-
    mm_successors_(Pos, Ps),
    (   mm_terminal_(Ps, Depth)
    ->  Best = none,
        mm_static_value_(Pos, F),
        (   max_to_move(Pos)
        ->  Val = F
        ;   Val is -F
        )
    ;   mm_next_depth_(Depth, Depth1),
        M0 is -inf,
        f_loop_(Ps, M0, none, Depth1, Best, Val)
    ).

f_loop_([], M, B, _, B, M).
f_loop_([P|Ps], M0, B0, Depth, Best, Val) :-
    f_(P, Depth, _, T0),
    T is -T0,
    (   T > M0
    ->  M = T, B = move(P)
    ;   M = M0, B = B0
    ),
    f_loop_(Ps, M, B, Depth, Best, Val).

%   Helpers (prefixed mm_ so this file can share a module with hsu.pl).

mm_successors_(Pos, Ps) :-
    (   moves(Pos, Ps0)
    ->  Ps = Ps0
    ;   Ps = []
    ).

mm_terminal_([], _) :- !.
mm_terminal_(_, Depth) :-
    Depth == 0.

mm_next_depth_(inf, Depth) :- !,
    Depth = inf.
mm_next_depth_(Depth0, Depth) :-
    Depth is Depth0 - 1.

mm_static_value_(Pos, Val) :-
    (   staticval(Pos, Val0)
    ->  Val = Val0
    ;   existence_error(static_value, Pos)
    ).

mm_best_(none, _).
mm_best_(move(Best), Best).
