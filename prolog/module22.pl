/*  "AI Module 22: Alpha Beta cutoffs": the threshold-swapping negamax that
    returns a path (Rich & Knight's MINIMAX-A-B), with its optional futility
    margin.

    A plain (non-module) file like alphabeta.pl: it needs the tree's
    moves/2, staticval/2, min_to_move/1 and max_to_move/1, and nothing else.

        Minimax(CurrentState, CurrentDepth, CurrentPlayer,
                CurrentThreshold, NextThreshold)
        1. If Over(CurrentState): Path = NULL, Value = SEF(CurrentState)
        2. Else Children = PMG(CurrentState)
        3. If Children == []: Path = NULL, Value = SEF(CurrentState)
        4. for each Child:
             ChildValues = Minimax(Child, CurrentDepth + 1, other player,
                                   -NextThreshold, -CurrentThreshold)
             ChildSEF = -ChildValues.Value
             if ChildSEF > NextThreshold:
                 NextThreshold = ChildSEF
                 Path = Child + ChildValues.Path
                 if <cut-off>: return (Path, NextThreshold)
        5. return (Path, NextThreshold)

    Called first as Minimax(Root, 0, Player, largest value, smallest value).

    Our reading, where the module is unclear or slips:
    * The cut-off.  The module prints `If CurrentThreshold > ChildSEF`;
      taken literally it stops after any improving child that is still
      below CurrentThreshold, which is not alpha-beta: on [1, 2, 3] it
      returns 2 (tests/search/test_variants_algorithms.py runs that literal
      reading).  Its prose ("the current threshold ... becomes greater than
      next threshold", "the best value ... is more than the threshold")
      and alpha-beta's own rule (a node stops once its best value reaches
      the bound its parent set) put the cut-off where the improved
      NextThreshold reaches CurrentThreshold: ChildSEF >= CurrentThreshold.
      That is what runs here.
    * A node whose children never beat NextThreshold returns Path = NULL
      ([]) and Value = NextThreshold as it came in, so values are clamped
      to the thresholds (fail-hard), and at the root no move is chosen when
      every move is worth exactly the starting NextThreshold.
    * Over(CurrentState) is the depth limit: CurrentDepth reaches Depth
      (`inf`: never).  SEF is from the side to move's point of view:
      staticval/2 for MAX, its negation for MIN.
    * Starting thresholds: "the maximum and minimum value SEF can compute".
      For a tree that is the largest and the smallest staticval/2 fact
      (-inf and +inf when staticval/2 is given by rules, not facts).
      They are read from the clauses with clause/2, not by calling
      staticval/2: they describe the evaluation function, not a position
      the search looks at, so they must not count as leaves read.  A finite
      window Alpha..Beta replaces them (MAX's point of view); an infinite
      bound (the default) means the tree's extreme value.
    * Futility cut-off (optional): "not only ignore nodes which are
      poorer, but also some of them who are just little better".  With a
      margin M > 0 a child counts as better only when ChildSEF >
      NextThreshold + M, and a node stops as soon as ChildSEF >=
      CurrentThreshold - M: its parent would not count it as better
      anyway.  M = 0 is the plain algorithm.  The bridge runs M = 0;
      module22_path/7 takes any M.

    Try:   swipl prolog/module22.pl examples/slides.pl
           ?- module22_path(a, -inf, inf, inf, 0, Path, Val).
*/

%!  module22(+Root, +Alpha, +Beta, +Depth, -Best, -Val) is det.
%
%   The search without futility margin; Best is the first step of the
%   path (unbound when the path is NULL), Val the value from MAX's point
%   of view.

module22(Root, Alpha, Beta, Depth, Best, Val) :-
    module22_path(Root, Alpha, Beta, Depth, 0, Path, Val),
    (   Path = [Best|_]
    ->  true
    ;   true
    ).

%!  module22_path(+Root, +Alpha, +Beta, +Depth, +Margin, -Path, -Val) is det.
%
%   Minimax(Root, 0, Player, CurrentThreshold, NextThreshold) with the
%   starting thresholds described above, searched Depth plies deep with
%   futility margin Margin.  Val is from MAX's point of view; Path is the
%   list of positions the search found best, from the root's child down.

module22_path(Root, Alpha0, Beta0, Depth, Margin, Path, Val) :-
    Alpha is Alpha0,                                % so `-inf` may be typed
    Beta is Beta0,
    m22_value_range_(Lo, Hi),
    m22_threshold_(Alpha, Lo, Smallest),
    m22_threshold_(Beta, Hi, Largest),
    (   max_to_move(Root)
    ->  minimax_a_b(Root, 0, Depth, Margin, Largest, Smallest, Path, Val)
    ;   Current is -Smallest,                       % MIN's SEF is -staticval
        Next is -Largest,
        minimax_a_b(Root, 0, Depth, Margin, Current, Next, Path, Value),
        Val is -Value
    ).

%!  minimax_a_b(+State, +CurrentDepth, +Depth, +Margin, +CurrentThreshold,
%!              +NextThreshold, -Path, -Value) is det.
%
%   The module's Minimax: Value is from the point of view of the side to
%   move in State.

minimax_a_b(State, CurrentDepth, Depth, Margin, Current, Next, Path, Value) :-
    (   m22_over_(CurrentDepth, Depth)              % 1. Over
    ->  Path = [],
        m22_sef_(State, Value)
    ;   moves(State, Children)                      % 2. PMG
    ->  ChildDepth is CurrentDepth + 1,
        m22_children_(Children, ChildDepth, Depth, Margin, Current, Next, [],
                      Path, Value)
    ;   Path = [],                                  % 3. no children
        m22_sef_(State, Value)
    ).

%   4. and 5.: the loop over the children.

m22_children_([], _, _, _, _, Next, Path, Path, Next).
m22_children_([Child|Children], ChildDepth, Depth, Margin, Current, Next, Path0,
              Path, Value) :-
    NegNext is -Next,
    NegCurrent is -Current,
    minimax_a_b(Child, ChildDepth, Depth, Margin, NegNext, NegCurrent,
                ChildPath, ChildValue),
    ChildSEF is -ChildValue,
    m22_shift_(Next, Margin, Better),
    m22_shift_(Current, -Margin, Enough),
    (   ChildSEF > Better                           % better than the best so far
    ->  Path1 = [Child|ChildPath],
        (   ChildSEF >= Enough                      % cut-off
        ->  Path = Path1,
            Value = ChildSEF
        ;   m22_children_(Children, ChildDepth, Depth, Margin, Current,
                          ChildSEF, Path1, Path, Value)
        )
    ;   m22_children_(Children, ChildDepth, Depth, Margin, Current, Next,
                      Path0, Path, Value)
    ).

%   Threshold + Delta.  An infinite threshold stays as it is: SWI-Prolog
%   raises float_overflow on inf + 0 (only negation is exact on it).

m22_shift_(Threshold, Delta, Shifted) :-
    (   ( Delta =:= 0 ; abs(Threshold) =:= inf )
    ->  Shifted = Threshold
    ;   Shifted is Threshold + Delta
    ).

m22_over_(CurrentDepth, Depth) :-
    Depth \== inf,
    CurrentDepth >= Depth.

%   SEF(State, Player): the static value seen by the side to move.

m22_sef_(State, Value) :-
    (   staticval(State, V)
    ->  true
    ;   existence_error(static_value, State)
    ),
    (   max_to_move(State)
    ->  Value = V
    ;   Value is -V
    ).

%   The smallest and largest static value of the tree, from the clauses
%   (the first of equal numbers wins, in clause order).  A tree whose
%   staticval/2 is given by rules (an implicit tree) has no such facts:
%   its range is then -inf..inf.

m22_value_range_(Lo, Hi) :-
    findall(V, clause(staticval(_, V), true), Values),
    (   Values = [V0|Vs]
    ->  foldl(m22_lo_hi_, Vs, V0-V0, Lo-Hi)
    ;   Lo is -inf,
        Hi is inf
    ).

m22_lo_hi_(V, Lo0-Hi0, Lo-Hi) :-
    (   V < Lo0 -> Lo = V ; Lo = Lo0 ),
    (   V > Hi0 -> Hi = V ; Hi = Hi0 ).

m22_threshold_(Bound, Extreme, Threshold) :-
    (   abs(Bound) =:= inf
    ->  Threshold = Extreme
    ;   Threshold = Bound
    ).
