/*  AIMA's ALPHA-BETA-SEARCH (Russell & Norvig), with MAX-VALUE and MIN-VALUE.

    A plain (non-module) file like alphabeta.pl: it needs, from whoever
    loads it, the tree's moves/2, staticval/2, min_to_move/1 and
    max_to_move/1, and nothing else.

        function MAX-VALUE(state, alpha, beta)
          if TERMINAL-TEST(state) then return UTILITY(state)
          v <- -inf
          for a, s in SUCCESSORS(state) do
            v <- MAX(v, MIN-VALUE(s, alpha, beta))
            if v >= beta then return v
            alpha <- MAX(alpha, v)
          return v

    MIN-VALUE is the mirror image (v <- +inf, MIN, v =< alpha, beta <- MIN).
    ALPHA-BETA-SEARCH calls MAX-VALUE on the root and returns "the action in
    SUCCESSORS(state) with value v": here the first successor, in move
    order, whose value as the root's loop received it equals v.  The root
    loop hands back the values it received, so the successors are not
    searched a second time.

    Our own choices, where the pseudo-code is silent:
    * TERMINAL-TEST(state) is "moves/2 fails"; UTILITY(state) is
      staticval/2 (MAX's point of view, as everywhere in pyab).
    * The window: ALPHA-BETA-SEARCH starts from -inf..+inf; the search here
      starts from any Alpha..Beta (the default is the full window).
    * A root with MIN to move starts with MIN-VALUE.
    * Depth: Depth is `inf` or a number of plies.  A node at the limit is
      cut off as in AIMA's CUTOFF-TEST/EVAL: its static value is read
      without asking for its moves.
    * MAX(v, x) keeps v unless x is strictly greater (and MIN likewise),
      so of two equal numbers (3 and 3.0) the earlier one stays.

    Try:   swipl prolog/aima.pl examples/slides.pl
           ?- alpha_beta_search(a, Action, V).
*/

%!  alpha_beta_search(+State, -Action, -V) is det.
%
%   ALPHA-BETA-SEARCH(state) with the full window and no depth limit.
%   Action stays unbound when State is terminal.

alpha_beta_search(State, Action, V) :-
    MinusInf is -inf,
    PlusInf is inf,
    alpha_beta_search(State, MinusInf, PlusInf, inf, Action, V).

%!  alpha_beta_search(+State, +Alpha, +Beta, +Depth, -Action, -V) is det.
%
%   V is MAX-VALUE (or MIN-VALUE, when MIN is to move) of State in the
%   window Alpha..Beta, searched Depth plies deep (`inf`: no limit).
%   Action is the first successor whose value is V.

alpha_beta_search(State, Alpha, Beta, Depth, Action, V) :-
    (   max_to_move(State)
    ->  max_value(State, Alpha, Beta, Depth, V, Scored)
    ;   min_value(State, Alpha, Beta, Depth, V, Scored)
    ),
    aima_with_value_(Scored, V, Action).

%!  max_value(+State, +Alpha, +Beta, +Depth, -V, -Scored) is det.
%
%   MAX-VALUE(state, alpha, beta).  Scored lists Successor-Value for each
%   successor searched, in order ([] for a terminal state).

max_value(State, Alpha, Beta, Depth, V, Scored) :-
    (   Depth == 0
    ->  aima_eval_(State, V),
        Scored = []
    ;   moves(State, Successors)
    ->  aima_deeper_(Depth, Depth1),
        V0 is -inf,
        aima_max_loop_(Successors, Alpha, Beta, Depth1, V0, V, Scored)
    ;   staticval(State, V),
        Scored = []
    ).

aima_max_loop_([], _, _, _, V, V, []).
aima_max_loop_([S|Ss], Alpha, Beta, Depth, V0, V, [S-W|Scored]) :-
    min_value(S, Alpha, Beta, Depth, W, _),
    (   W > V0 -> V1 = W ; V1 = V0 ),               % v <- MAX(v, MIN-VALUE(s))
    (   V1 >= Beta                                  % if v >= beta then return v
    ->  V = V1,
        Scored = []
    ;   (   V1 > Alpha -> Alpha1 = V1 ; Alpha1 = Alpha ),  % alpha <- MAX(alpha, v)
        aima_max_loop_(Ss, Alpha1, Beta, Depth, V1, V, Scored)
    ).

%!  min_value(+State, +Alpha, +Beta, +Depth, -V, -Scored) is det.
%
%   MIN-VALUE(state, alpha, beta); Scored as for max_value/6.

min_value(State, Alpha, Beta, Depth, V, Scored) :-
    (   Depth == 0
    ->  aima_eval_(State, V),
        Scored = []
    ;   moves(State, Successors)
    ->  aima_deeper_(Depth, Depth1),
        V0 is inf,
        aima_min_loop_(Successors, Alpha, Beta, Depth1, V0, V, Scored)
    ;   staticval(State, V),
        Scored = []
    ).

aima_min_loop_([], _, _, _, V, V, []).
aima_min_loop_([S|Ss], Alpha, Beta, Depth, V0, V, [S-W|Scored]) :-
    max_value(S, Alpha, Beta, Depth, W, _),
    (   W < V0 -> V1 = W ; V1 = V0 ),               % v <- MIN(v, MAX-VALUE(s))
    (   V1 =< Alpha                                 % if v =< alpha then return v
    ->  V = V1,
        Scored = []
    ;   (   V1 < Beta -> Beta1 = V1 ; Beta1 = Beta ),      % beta <- MIN(beta, v)
        aima_min_loop_(Ss, Alpha, Beta1, Depth, V1, V, Scored)
    ).

%   The first successor whose value is V; unbound when none was searched.

aima_with_value_([], _, _).
aima_with_value_([S-W|Scored], V, Action) :-
    (   W =:= V
    ->  Action = S
    ;   aima_with_value_(Scored, V, Action)
    ).

aima_deeper_(inf, inf) :- !.
aima_deeper_(Depth, Depth1) :-
    Depth1 is Depth - 1.

%   EVAL at the depth limit: the static value of a node cut off there.

aima_eval_(State, V) :-
    (   staticval(State, V0)
    ->  V = V0
    ;   existence_error(static_value, State)
    ).
