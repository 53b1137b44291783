/*  Tsan-sheng Hsu's alpha-beta versions ("Alpha-Beta Pruning: Algorithm
    and Analysis"), each in his mini-max form (F'/G', one procedure per
    side) and in his nega-max form (F, one procedure, values negated):

        hsu_f1/6, hsu_f1_negamax/6   F1: the original, fail hard
        hsu_f2/6, hsu_f2_negamax/6   F2: one-sided bound
        hsu_f3/6, hsu_f3_negamax/6   F3: fail soft

    A plain (non-module) file, like prolog/alphabeta.pl.  It needs, from
    whoever loads it, only the slides' vocabulary:

        moves(Pos, PosList)   the children of an inner position (fails on a leaf)
        staticval(Pos, Val)   the static value f(p) of a position, MAX's view
        min_to_move(Pos)      MIN is to move in Pos
        max_to_move(Pos)      MAX is to move in Pos

    Every procedure starts, as Hsu's does, by "determining the successor
    positions": moves/2 is called exactly once per position searched, and
    staticval/2 exactly once per value used.  A position is terminal when
    it has no successors or the remaining Depth is 0 (Depth is `inf` or a
    non-negative integer); a terminal inner position is scored by its own
    static value, so depth limits need static values on inner positions.

    Choices Hsu leaves open, made the same way in pyab/search/hsu.py:

      * "m is max" / "m is min" (Hsu's direct cut-offs) compare m with the
        largest / smallest static value the tree holds (all staticval/2
        facts, inner ones included), read once per search from the
        staticval/2 facts (clause/2, so not observed as reads); -inf..inf
        when staticval/2 is given by rules (an implicit tree).  In the
        nega-max form the largest value at a MIN position is minus the
        smallest static value.
      * The fail-hard cut of F1 is printed as "if m is max or m >= beta
        then return(beta)".  When only "m is max" holds (m < beta), m is
        already the exact value, and returning beta would break Hsu's own
        property F1(p, -inf, +inf) = F(p); so F1 returns beta when
        m >= beta and m otherwise (symmetrically alpha / m in G1').
      * The best move is the child whose value last raised m (lowered it,
        in G'); when no child improves on F1's hard initial m (the root
        fails low), there is none and Best stays unbound.
      * F2 takes one bound: beta at a MAX root (F2'(p, beta)), alpha at a
        MIN root (G2'(p, alpha)), as Hsu writes F2'(p, -inf, beta) and
        G2'(p, alpha, +inf).
      * The nega-max h(p) is f(p) where MAX is to move and -f(p) where
        MIN is; with a MIN root the root's nega-max value and window are
        negated on the way in and out, so Val is from MAX's view.

    Try:   swipl prolog/hsu.pl examples/slides.pl
           ?- hsu_f1(a, -1000, 1000, inf, Best, Val).
*/

                 /*******************************
                 *     F1: FAIL HARD (F1'/G1')  *
                 *******************************/

%!  hsu_f1(+Pos, +Alpha, +Beta, +Depth, -Best, -Val) is det.
%
%   Val is Hsu's F1'(Pos, Alpha, Beta, Depth) when MAX is to move in Pos
%   and G1'(Pos, Alpha, Beta, Depth) when MIN is; Best is the chosen
%   successor (unbound on a terminal position or when none improves m).

hsu_f1(Pos, Alpha, Beta, Depth, Best, Val) :-
    value_range_(Range),
    (   max_to_move(Pos)
    ->  f1p_(Pos, Alpha, Beta, Depth, Range, Best0, Val)
    ;   g1p_(Pos, Alpha, Beta, Depth, Range, Best0, Val)
    ),
    best_(Best0, Best).

%   F1'(p, alpha, beta, depth), a MAX position: m := alpha.

f1p_(Pos, Alpha, Beta, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        static_value_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        f1p_loop_(Ps, Alpha, none, Beta, Depth1, Range, Best, Val)
    ).

f1p_loop_([], M, B, _, _, _, B, M).
f1p_loop_([P|Ps], M0, B0, Beta, Depth, Range, Best, Val) :-
    g1p_(P, M0, Beta, Depth, Range, _, T),
    improve_max_(T, P, M0, B0, M, B1),
    (   M >= Beta                       % beta cut-off: the hard bound
    ->  Best = B1, Val = Beta
    ;   is_max_(M, Range)               % direct cut-off: nothing beats m
    ->  Best = B1, Val = M
    ;   f1p_loop_(Ps, M, B1, Beta, Depth, Range, Best, Val)
    ).

%   G1'(p, alpha, beta, depth), a MIN position: m := beta.

g1p_(Pos, Alpha, Beta, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        static_value_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        g1p_loop_(Ps, Alpha, Beta, none, Depth1, Range, Best, Val)
    ).

g1p_loop_([], _, M, B, _, _, B, M).
g1p_loop_([P|Ps], Alpha, M0, B0, Depth, Range, Best, Val) :-
    f1p_(P, Alpha, M0, Depth, Range, _, T),
    improve_min_(T, P, M0, B0, M, B1),
    (   M =< Alpha                      % alpha cut-off: the hard bound
    ->  Best = B1, Val = Alpha
    ;   is_min_(M, Range)               % direct cut-off
    ->  Best = B1, Val = M
    ;   g1p_loop_(Ps, Alpha, M, B1, Depth, Range, Best, Val)
    ).

%!  hsu_f1_negamax(+Pos, +Alpha, +Beta, +Depth, -Best, -Val) is det.
%
%   As hsu_f1/6, computed by Hsu's nega-max F1.

hsu_f1_negamax(Pos, Alpha, Beta, Depth, Best, Val) :-
    negamax_root_(f1_, Pos, Alpha, Beta, Depth, Best, Val).

%   The root of a two-bound nega-max form: the window as given when MAX is
%   to move, negated and swapped when MIN is, and the value back from MAX's
%   point of view.

negamax_root_(F, Pos, Alpha, Beta, Depth, Best, Val) :-
    value_range_(Range),
    (   max_to_move(Pos)
    ->  call(F, Pos, Alpha, Beta, Depth, Range, Best0, Val)
    ;   NAlpha is -Beta,
        NBeta is -Alpha,
        call(F, Pos, NAlpha, NBeta, Depth, Range, Best0, NVal),
        Val is -NVal
    ),
    best_(Best0, Best).

%   F1(p, alpha, beta, depth): m := alpha; t := -F1(p_i, -beta, -m, depth-1).

f1_(Pos, Alpha, Beta, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        h_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        top_(Pos, Range, Top),
        f1_loop_(Ps, Alpha, none, Beta, Depth1, Range, Top, Best, Val)
    ).

f1_loop_([], M, B, _, _, _, _, B, M).
f1_loop_([P|Ps], M0, B0, Beta, Depth, Range, Top, Best, Val) :-
    ChildAlpha is -Beta,
    ChildBeta is -M0,
    f1_(P, ChildAlpha, ChildBeta, Depth, Range, _, T0),
    T is -T0,
    improve_max_(T, P, M0, B0, M, B1),
    (   M >= Beta
    ->  Best = B1, Val = Beta
    ;   M =:= Top
    ->  Best = B1, Val = M
    ;   f1_loop_(Ps, M, B1, Beta, Depth, Range, Top, Best, Val)
    ).

                 /*******************************
                 *   F2: ONE-SIDED (F2'/G2')    *
                 *******************************/

%!  hsu_f2(+Pos, +Alpha, +Beta, +Depth, -Best, -Val) is det.
%
%   Val is F2'(Pos, Beta, Depth) when MAX is to move in Pos and
%   G2'(Pos, Alpha, Depth) when MIN is; the other bound is not used.

hsu_f2(Pos, Alpha, Beta, Depth, Best, Val) :-
    value_range_(Range),
    (   max_to_move(Pos)
    ->  f2p_(Pos, Beta, Depth, Range, Best0, Val)
    ;   g2p_(Pos, Alpha, Depth, Range, Best0, Val)
    ),
    best_(Best0, Best).

%   F2'(p, beta, depth): m := -inf; t := G2'(p_i, m, depth-1).

f2p_(Pos, Beta, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        static_value_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        M0 is -inf,
        f2p_loop_(Ps, M0, none, Beta, Depth1, Range, Best, Val)
    ).

f2p_loop_([], M, B, _, _, _, B, M).
f2p_loop_([P|Ps], M0, B0, Beta, Depth, Range, Best, Val) :-
    g2p_(P, M0, Depth, Range, _, T),
    improve_max_(T, P, M0, B0, M, B1),
    (   (   is_max_(M, Range)
        ;   M >= Beta
        )
    ->  Best = B1, Val = M              % beta cut-off: return m itself
    ;   f2p_loop_(Ps, M, B1, Beta, Depth, Range, Best, Val)
    ).

%   G2'(p, alpha, depth): m := +inf; t := F2'(p_i, m, depth-1).

g2p_(Pos, Alpha, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        static_value_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        M0 is inf,
        g2p_loop_(Ps, M0, none, Alpha, Depth1, Range, Best, Val)
    ).

g2p_loop_([], M, B, _, _, _, B, M).
g2p_loop_([P|Ps], M0, B0, Alpha, Depth, Range, Best, Val) :-
    f2p_(P, M0, Depth, Range, _, T),
    improve_min_(T, P, M0, B0, M, B1),
    (   (   is_min_(M, Range)
        ;   M =< Alpha
        )
    ->  Best = B1, Val = M              % alpha cut-off: return m itself
    ;   g2p_loop_(Ps, M, B1, Alpha, Depth, Range, Best, Val)
    ).

%!  hsu_f2_negamax(+Pos, +Alpha, +Beta, +Depth, -Best, -Val) is det.
%
%   As hsu_f2/6, computed by Hsu's nega-max F2(p, bound, depth) with
%   bound = Beta at a MAX root and -Alpha at a MIN root.

hsu_f2_negamax(Pos, Alpha, Beta, Depth, Best, Val) :-
    value_range_(Range),
    (   max_to_move(Pos)
    ->  f2_(Pos, Beta, Depth, Range, Best0, Val)
    ;   Bound is -Alpha,
        f2_(Pos, Bound, Depth, Range, Best0, NVal),
        Val is -NVal
    ),
    best_(Best0, Best).

%   F2(p, bound, depth): m := -inf; t := -F2(p_i, -m, depth-1).

f2_(Pos, Bound, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        h_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        top_(Pos, Range, Top),
        M0 is -inf,
        f2_loop_(Ps, M0, none, Bound, Depth1, Range, Top, Best, Val)
    ).

f2_loop_([], M, B, _, _, _, _, B, M).
f2_loop_([P|Ps], M0, B0, Bound, Depth, Range, Top, Best, Val) :-
    ChildBound is -M0,
    f2_(P, ChildBound, Depth, Range, _, T0),
    T is -T0,
    improve_max_(T, P, M0, B0, M, B1),
    (   (   M =:= Top
        ;   M >= Bound
        )
    ->  Best = B1, Val = M
    ;   f2_loop_(Ps, M, B1, Bound, Depth, Range, Top, Best, Val)
    ).

                 /*******************************
                 *    F3: FAIL SOFT (F3'/G3')   *
                 *******************************/

%!  hsu_f3(+Pos, +Alpha, +Beta, +Depth, -Best, -Val) is det.
%
%   Val is F3'(Pos, Alpha, Beta, Depth) when MAX is to move in Pos and
%   G3'(Pos, Alpha, Beta, Depth) when MIN is.

hsu_f3(Pos, Alpha, Beta, Depth, Best, Val) :-
    value_range_(Range),
    (   max_to_move(Pos)
    ->  f3p_(Pos, Alpha, Beta, Depth, Range, Best0, Val)
    ;   g3p_(Pos, Alpha, Beta, Depth, Range, Best0, Val)
    ),
    best_(Best0, Best).

%   F3'(p, alpha, beta, depth): m := -inf; t := G3'(p_i, max{m, alpha}, beta, depth-1).

f3p_(Pos, Alpha, Beta, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        static_value_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        M0 is -inf,
        f3p_loop_(Ps, M0, none, Alpha, Beta, Depth1, Range, Best, Val)
    ).

f3p_loop_([], M, B, _, _, _, _, B, M).
f3p_loop_([P|Ps], M0, B0, Alpha, Beta, Depth, Range, Best, Val) :-
    larger_(M0, Alpha, ChildAlpha),
    g3p_(P, ChildAlpha, Beta, Depth, Range, _, T),
    improve_max_(T, P, M0, B0, M, B1),
    (   (   is_max_(M, Range)
        ;   M >= Beta
        )
    ->  Best = B1, Val = M
    ;   f3p_loop_(Ps, M, B1, Alpha, Beta, Depth, Range, Best, Val)
    ).

%   G3'(p, alpha, beta, depth): m := +inf; t := F3'(p_i, alpha, min{m, beta}, depth-1).

g3p_(Pos, Alpha, Beta, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        static_value_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        M0 is inf,
        g3p_loop_(Ps, M0, none, Alpha, Beta, Depth1, Range, Best, Val)
    ).

g3p_loop_([], M, B, _, _, _, _, B, M).
g3p_loop_([P|Ps], M0, B0, Alpha, Beta, Depth, Range, Best, Val) :-
    smaller_(M0, Beta, ChildBeta),
    f3p_(P, Alpha, ChildBeta, Depth, Range, _, T),
    improve_min_(T, P, M0, B0, M, B1),
    (   (   is_min_(M, Range)
        ;   M =< Alpha
        )
    ->  Best = B1, Val = M
    ;   g3p_loop_(Ps, M, B1, Alpha, Beta, Depth, Range, Best, Val)
    ).

%!  hsu_f3_negamax(+Pos, +Alpha, +Beta, +Depth, -Best, -Val) is det.
%
%   As hsu_f3/6, computed by Hsu's nega-max F3.

hsu_f3_negamax(Pos, Alpha, Beta, Depth, Best, Val) :-
    negamax_root_(f3_, Pos, Alpha, Beta, Depth, Best, Val).

%   F3(p, alpha, beta, depth): m := -inf; t := -F3(p_i, -beta, -max{m, alpha}, depth-1).

f3_(Pos, Alpha, Beta, Depth, Range, Best, Val) :-
    successors_(Pos, Ps),
    (   terminal_(Ps, Depth)
    ->  Best = none,
        h_(Pos, Val)
    ;   next_depth_(Depth, Depth1),
        top_(Pos, Range, Top),
        M0 is -inf,
        f3_loop_(Ps, M0, none, Alpha, Beta, Depth1, Range, Top, Best, Val)
    ).

f3_loop_([], M, B, _, _, _, _, _, B, M).
f3_loop_([P|Ps], M0, B0, Alpha, Beta, Depth, Range, Top, Best, Val) :-
    larger_(M0, Alpha, Lower),
    ChildAlpha is -Beta,
    ChildBeta is -Lower,
    f3_(P, ChildAlpha, ChildBeta, Depth, Range, _, T0),
    T is -T0,
    improve_max_(T, P, M0, B0, M, B1),
    (   (   M =:= Top
        ;   M >= Beta
        )
    ->  Best = B1, Val = M
    ;   f3_loop_(Ps, M, B1, Alpha, Beta, Depth, Range, Top, Best, Val)
    ).

                 /*******************************
                 *            HELPERS           *
                 *******************************/

%   "determine the successor positions p1, ..., pb": one moves/2 call.

successors_(Pos, Ps) :-
    (   moves(Pos, Ps0)
    ->  Ps = Ps0
    ;   Ps = []
    ).

%   b = 0, or no depth left.

terminal_([], _) :- !.
terminal_(_, Depth) :-
    Depth == 0.

next_depth_(inf, Depth) :- !,
    Depth = inf.
next_depth_(Depth0, Depth) :-
    Depth is Depth0 - 1.

%   f(p): one staticval/2 call; a clear error when a terminal position has
%   no static value (an inner position at the depth limit).

static_value_(Pos, Val) :-
    (   staticval(Pos, Val0)
    ->  Val = Val0
    ;   existence_error(static_value, Pos)
    ).

%   h(p): f(p) from the point of view of the side to move in p.

h_(Pos, H) :-
    static_value_(Pos, F),
    (   max_to_move(Pos)
    ->  H = F
    ;   H is -F
    ).

%   The extreme values of the tree, for "m is max" and "m is min".

%   The static values are read as facts (clause/2), not by calling
%   staticval/2: knowing the range is knowledge of the game, not a search
%   reading a position (and so it is not observed as one).  A staticval/2
%   given by rules (an implicit tree) has no such facts: the range is then
%   -inf..inf and the direct cut-offs never fire.

value_range_(range(Min, Max)) :-
    findall(V, clause(staticval(_, V), true), Vs),
    (   Vs == []
    ->  Min is -inf,
        Max is inf
    ;   min_list(Vs, Min),
        max_list(Vs, Max)
    ).

is_max_(M, range(_, Max)) :-
    M =:= Max.

is_min_(M, range(Min, _)) :-
    M =:= Min.

%   The largest nega-max value possible in Pos.

top_(Pos, range(Min, Max), Top) :-
    (   max_to_move(Pos)
    ->  Top = Max
    ;   Top is -Min
    ).

%   "if t > m then m := t", remembering which successor gave m.

improve_max_(T, P, M0, B0, M, B) :-
    (   T > M0
    ->  M = T, B = move(P)
    ;   M = M0, B = B0
    ).

improve_min_(T, P, M0, B0, M, B) :-
    (   T < M0
    ->  M = T, B = move(P)
    ;   M = M0, B = B0
    ).

larger_(X, Y, Z) :-
    (   X > Y
    ->  Z = X
    ;   Z = Y
    ).

smaller_(X, Y, Z) :-
    (   X < Y
    ->  Z = X
    ;   Z = Y
    ).

%   The best move so far is none or move(P): a compound, so that no
%   position name can be mistaken for "none".

best_(none, _).
best_(move(Best), Best).
