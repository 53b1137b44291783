/*  The three alpha-beta routines of the Chess Programming Wiki ("Alpha-Beta",
    section Implementation): alphaBetaMax/alphaBetaMin (fail-hard, max and
    min in two routines), alphaBeta in the negamax framework (fail-hard),
    and the fail-soft negamax alphaBeta.

    A plain (non-module) file like alphabeta.pl: it needs the tree's
    moves/2, staticval/2, min_to_move/1 and max_to_move/1, and nothing else.

        int alphaBeta( int alpha, int beta, int depthleft ) {     // fail-hard
           if( depthleft == 0 ) return quiesce( alpha, beta );
           for ( all moves)  {
              score = -alphaBeta( -beta, -alpha, depthleft - 1 );
              if( score >= beta ) return beta;
              if( score > alpha ) alpha = score;
           }
           return alpha;
        }

    How the C routines meet our trees:
    * "for (all moves)" is moves/2; a position without moves (a leaf of the
      tree) is scored by its static value whatever depthleft says (the C
      code would return alpha there: mate and stalemate are the caller's
      business in a chess program).
    * depthleft is `inf` (no limit) or a number; at 0 the static value is
      read without asking for moves.  The tree's static values are from
      MAX's point of view, so evaluate() in the min/max pair is staticval/2
      in both routines (the wiki's `-evaluate()` in alphaBetaMin assumes an
      evaluate() relative to the side to move).  In the negamax routines
      the score is relative to the side to move: staticval/2 for MAX,
      its negation for MIN; quiesce() is that same static score (a game
      tree has no captures to quiesce).
    * The wiki's routines return a score only; its SearchRoot also returns
      the best move.  Here every routine returns the move that raised alpha
      last (beta in alphaBetaMin), or the move that caused the cut-off;
      fail-hard routines leave it unbound when no move beat the bound.
      Fail-soft returns the move of bestscore.
    * The entry predicates (cpw_minmax/6, cpw_negamax/6, cpw_failsoft/6)
      take the window from MAX's point of view and report the value from
      MAX's point of view; with MIN to move at the root the negamax call
      gets the negated, swapped window and its score is negated back.

    Try:   swipl prolog/cpw.pl examples/slides.pl
           ?- cpw_negamax(a, -1000, 1000, inf, Best, Val).
*/

%!  cpw_minmax(+Root, +Alpha, +Beta, +DepthLeft, -Best, -Val) is det.
%
%   `score = alphaBetaMax(-oo, +oo, depth)` from the root, or alphaBetaMin
%   when MIN is to move there.

cpw_minmax(Root, Alpha, Beta, DepthLeft, Best, Val) :-
    (   max_to_move(Root)
    ->  alpha_beta_max(Root, Alpha, Beta, DepthLeft, Best, Val)
    ;   alpha_beta_min(Root, Alpha, Beta, DepthLeft, Best, Val)
    ).

%!  cpw_negamax(+Root, +Alpha, +Beta, +DepthLeft, -Best, -Val) is det.
%
%   The fail-hard negamax alphaBeta/3 from the root.

cpw_negamax(Root, Alpha, Beta, DepthLeft, Best, Val) :-
    cpw_root_(alpha_beta, Root, Alpha, Beta, DepthLeft, Best, Val).

%!  cpw_failsoft(+Root, +Alpha, +Beta, +DepthLeft, -Best, -Val) is det.
%
%   The fail-soft negamax alphaBeta/3 from the root.

cpw_failsoft(Root, Alpha, Beta, DepthLeft, Best, Val) :-
    cpw_root_(alpha_beta_fail_soft, Root, Alpha, Beta, DepthLeft, Best, Val).

cpw_root_(Search, Root, Alpha, Beta, DepthLeft, Best, Val) :-
    (   max_to_move(Root)
    ->  call(Search, Root, Alpha, Beta, DepthLeft, Best, Val)
    ;   NegBeta is -Beta,
        NegAlpha is -Alpha,
        call(Search, Root, NegBeta, NegAlpha, DepthLeft, Best, Score),
        Val is -Score
    ).

%!  alpha_beta_max(+Pos, +Alpha, +Beta, +DepthLeft, -Best, -Score) is det.
%
%   alphaBetaMax: fail-hard; beta cut-offs happen here.

alpha_beta_max(Pos, Alpha, Beta, DepthLeft, Best, Score) :-
    (   DepthLeft == 0
    ->  cpw_static_(Pos, Score)                     % return evaluate()
    ;   moves(Pos, Moves)
    ->  cpw_deeper_(DepthLeft, DepthLeft1),
        cpw_max_moves_(Moves, Alpha, Beta, DepthLeft1, _, Best, Score)
    ;   staticval(Pos, Score)
    ).

cpw_max_moves_([], Alpha, _, _, Best, Best, Alpha).  % return alpha
cpw_max_moves_([Move|Moves], Alpha, Beta, DepthLeft, Best0, Best, Score) :-
    alpha_beta_min(Move, Alpha, Beta, DepthLeft, _, MoveScore),
    (   MoveScore >= Beta                           % fail hard beta-cutoff
    ->  Best = Move,
        Score = Beta
    ;   MoveScore > Alpha                           % alpha acts like max
    ->  cpw_max_moves_(Moves, MoveScore, Beta, DepthLeft, Move, Best, Score)
    ;   cpw_max_moves_(Moves, Alpha, Beta, DepthLeft, Best0, Best, Score)
    ).

%!  alpha_beta_min(+Pos, +Alpha, +Beta, +DepthLeft, -Best, -Score) is det.
%
%   alphaBetaMin: fail-hard; alpha cut-offs happen here.

alpha_beta_min(Pos, Alpha, Beta, DepthLeft, Best, Score) :-
    (   DepthLeft == 0
    ->  cpw_static_(Pos, Score)                     % see the file comment
    ;   moves(Pos, Moves)
    ->  cpw_deeper_(DepthLeft, DepthLeft1),
        cpw_min_moves_(Moves, Alpha, Beta, DepthLeft1, _, Best, Score)
    ;   staticval(Pos, Score)
    ).

cpw_min_moves_([], _, Beta, _, Best, Best, Beta).    % return beta
cpw_min_moves_([Move|Moves], Alpha, Beta, DepthLeft, Best0, Best, Score) :-
    alpha_beta_max(Move, Alpha, Beta, DepthLeft, _, MoveScore),
    (   MoveScore =< Alpha                          % fail hard alpha-cutoff
    ->  Best = Move,
        Score = Alpha
    ;   MoveScore < Beta                            % beta acts like min
    ->  cpw_min_moves_(Moves, Alpha, MoveScore, DepthLeft, Move, Best, Score)
    ;   cpw_min_moves_(Moves, Alpha, Beta, DepthLeft, Best0, Best, Score)
    ).

%!  alpha_beta(+Pos, +Alpha, +Beta, +DepthLeft, -Best, -Score) is det.
%
%   The negamax alphaBeta, fail-hard: Score is from the point of view of
%   the side to move in Pos, and never outside Alpha..Beta (unless Pos is
%   scored statically).

alpha_beta(Pos, Alpha, Beta, DepthLeft, Best, Score) :-
    (   DepthLeft == 0
    ->  cpw_negamax_static_(Pos, Score)             % return quiesce(alpha, beta)
    ;   moves(Pos, Moves)
    ->  cpw_deeper_(DepthLeft, DepthLeft1),
        cpw_hard_moves_(Moves, Alpha, Beta, DepthLeft1, _, Best, Score)
    ;   cpw_negamax_leaf_(Pos, Score)
    ).

cpw_hard_moves_([], Alpha, _, _, Best, Best, Alpha).  % return alpha
cpw_hard_moves_([Move|Moves], Alpha, Beta, DepthLeft, Best0, Best, Score) :-
    NegBeta is -Beta,
    NegAlpha is -Alpha,
    alpha_beta(Move, NegBeta, NegAlpha, DepthLeft, _, MoveScore0),
    MoveScore is -MoveScore0,
    (   MoveScore >= Beta                           % fail hard beta-cutoff
    ->  Best = Move,
        Score = Beta
    ;   MoveScore > Alpha                           % alpha acts like max
    ->  cpw_hard_moves_(Moves, MoveScore, Beta, DepthLeft, Move, Best, Score)
    ;   cpw_hard_moves_(Moves, Alpha, Beta, DepthLeft, Best0, Best, Score)
    ).

%!  alpha_beta_fail_soft(+Pos, +Alpha, +Beta, +DepthLeft, -Best, -Score) is det.
%
%   The negamax alphaBeta, fail-soft: it keeps bestscore, which may fall
%   below Alpha, and returns the cutting score, which may lie above Beta.

alpha_beta_fail_soft(Pos, Alpha, Beta, DepthLeft, Best, Score) :-
    (   DepthLeft == 0
    ->  cpw_negamax_static_(Pos, Score)
    ;   moves(Pos, Moves)
    ->  cpw_deeper_(DepthLeft, DepthLeft1),
        BestScore0 is -inf,                         % int bestscore = -oo
        cpw_soft_moves_(Moves, Alpha, Beta, DepthLeft1, BestScore0, _, Best, Score)
    ;   cpw_negamax_leaf_(Pos, Score)
    ).

cpw_soft_moves_([], _, _, _, BestScore, Best, Best, BestScore).
cpw_soft_moves_([Move|Moves], Alpha, Beta, DepthLeft, BestScore0, Best0, Best, Score) :-
    NegBeta is -Beta,
    NegAlpha is -Alpha,
    alpha_beta_fail_soft(Move, NegBeta, NegAlpha, DepthLeft, _, MoveScore0),
    MoveScore is -MoveScore0,
    (   MoveScore >= Beta                           % fail-soft beta-cutoff
    ->  Best = Move,
        Score = MoveScore
    ;   MoveScore > BestScore0
    ->  (   MoveScore > Alpha -> Alpha1 = MoveScore ; Alpha1 = Alpha ),
        cpw_soft_moves_(Moves, Alpha1, Beta, DepthLeft, MoveScore, Move, Best, Score)
    ;   cpw_soft_moves_(Moves, Alpha, Beta, DepthLeft, BestScore0, Best0, Best, Score)
    ).

cpw_deeper_(inf, inf) :- !.
cpw_deeper_(DepthLeft, DepthLeft1) :-
    DepthLeft1 is DepthLeft - 1.

%   The static value at the horizon, from MAX's point of view.

cpw_static_(Pos, Value) :-
    (   staticval(Pos, Value0)
    ->  Value = Value0
    ;   existence_error(static_value, Pos)
    ).

%   The same from the side to move's point of view: at the horizon
%   (quiesce) and at a leaf.

cpw_negamax_static_(Pos, Score) :-
    cpw_static_(Pos, Value),
    cpw_side_score_(Pos, Value, Score).

cpw_negamax_leaf_(Pos, Score) :-
    staticval(Pos, Value),
    cpw_side_score_(Pos, Value, Score).

cpw_side_score_(Pos, Value, Score) :-
    (   max_to_move(Pos)
    ->  Score = Value
    ;   Score is -Value
    ).
