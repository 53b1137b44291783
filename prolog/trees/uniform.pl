/*  Uniform game trees given as rules: every inner position has exactly
    `branching(B)` successors and every leaf lies at depth `depth(D)`.
    Nothing is materialised: moves/2, staticval/2, min_to_move/1 and
    max_to_move/1 compute their answer from the position itself, which is
    how Bratko meant alphabeta/5 to be used for games.

    A position is n(Depth, Id, Partial).  Ids number the tree level by
    level: the root is n(0, 0, 0) and the children of Id are Id*B+1 ...
    Id*B+B, so Id codes the Dewey path (the K-th child appends K).
    Partial is the part of the leaf value fixed by the path so far.
    position_name/2 spells the Dewey path the way the DSL's list form
    does: r, r_1, r_1_2.  MAX is to move at the root.

    The parameters are facts that whoever loads the file asserts (pyab's
    bridge reads them from a string; nothing is ever called from it):

        branching(B)    B >= 1
        depth(D)        D >= 0
        ordering(O)     perfect, worst or random(Seed)

    Leaf values (a_1 ... a_D is the Dewey path, W_i = B^(D-i)):

        perfect     sum of -(a_i - 1) * W_i below a MAX parent and
                    +(a_i - 1) * W_i below a MIN parent: the first child is
                    always strictly best (Hsu's perfect-ordering tree), all
                    leaf values differ, so the slides' strict tests cut
                    exactly the non-critical positions.
        worst       the signs swapped: every later child is strictly better
                    than all its elder siblings and than anything a bound
                    from an ancestor can hold, so nothing is ever cut.
        random(S)   hash_value/3: a 32-bit mixing hash of Seed and the
                    leaf's Id, shifted right by 8 (0 .. 2^24-1).
                    pyab.trees.uniform computes the same numbers.

    Try:    swipl prolog/alphabeta.pl prolog/trees/uniform.pl
            ?- assertz(branching(3)), assertz(depth(2)),
               assertz(ordering(perfect)),
               alphabeta(n(0,0,0), -1.0Inf, 1.0Inf, Best, Val),
               position_name(Best, Name).
*/

:- set_prolog_flag(optimise, true).    % compiled arithmetic, this file only

:- dynamic branching/1, depth/1, ordering/1.

%!  root(-Pos) is det.
%
%   The root position.

root(n(0, 0, 0)).

%!  moves(+Pos, -PosList) is semidet.
%
%   PosList are the B successors of an inner position, in order; fails on
%   a leaf.  Built by a counting loop (no numlist/3, no closures); each
%   child carries its partial leaf value, one addition per child.

moves(n(D, I, V), PosList) :-
    depth(Depth),
    D < Depth,
    branching(B),
    ordering(Ordering),
    D1 is D + 1,
    step_(Ordering, D, Depth, B, Step),
    First is I*B + 1,
    Last is I*B + B,
    successors_(First, Last, D1, V, Step, PosList).

successors_(K, Last, D, V, Step, [n(D, K, V)|PosList]) :-
    (   K < Last
    ->  K1 is K + 1,
        V1 is V + Step,
        successors_(K1, Last, D, V1, Step, PosList)
    ;   PosList = []
    ).

%   Step: what one place further right adds to the value, B^(Depth-D-1)
%   with the sign of the ordering for the side to move in the parent.

step_(perfect, D, Depth, B, Step) :-
    W is B^(Depth-D-1),
    (   D /\ 1 =:= 0 -> Step is -W ; Step = W ).
step_(worst, D, Depth, B, Step) :-
    W is B^(Depth-D-1),
    (   D /\ 1 =:= 0 -> Step = W ; Step is -W ).
step_(random(_), _, _, _, 0).

%!  min_to_move(+Pos) is semidet.
%!  max_to_move(+Pos) is semidet.
%
%   MAX moves at even depths (the root), MIN at odd depths.

min_to_move(n(D, _, _)) :- D /\ 1 =:= 1.
max_to_move(n(D, _, _)) :- D /\ 1 =:= 0.

%!  staticval(+Pos, -Val) is semidet.
%
%   The value of a leaf (a position at the full depth); fails elsewhere.

staticval(n(D, I, V), Val) :-
    depth(D),
    ordering(Ordering),
    leaf_value_(Ordering, I, V, Val).

leaf_value_(perfect, _, Val, Val).
leaf_value_(worst, _, Val, Val).
leaf_value_(random(Seed), I, _, Val) :-
    hash_value(Seed, I, Val).

%!  hash_value(+Seed, +Id, -Val) is det.
%
%   The `random(Seed)` value of the node numbered Id, 0 .. 2^24-1: a
%   32-bit mixing function of the seed, mixed again with the low 32 bits
%   of Id, one more round for the high bits of ids past 2^32.  (Mixing the
%   seed first matters: with Seed xor Id alone, seeds 0 and 1 give the same
%   values with neighbours swapped.)  Every product stays
%   below 2^63, so no big integers are made.

hash_value(Seed, I, Val) :-
    S0 is (Seed /\ 0xFFFFFFFF) xor 0x9E3779B9,
    mix32_(S0, S),
    H0 is S xor (I /\ 0xFFFFFFFF),
    mix32_(H0, H1),
    (   I > 0xFFFFFFFF
    ->  H2a is H1 xor (I >> 32),
        mix32_(H2a, H2)
    ;   H2 = H1
    ),
    Val is H2 >> 8.

mix32_(X0, X) :-
    X1 is X0 xor (X0 >> 16),
    X2 is (X1 * 0x7FEB352D) /\ 0xFFFFFFFF,
    X3 is X2 xor (X2 >> 15),
    X4 is (X3 * 0x5BD1E995) /\ 0xFFFFFFFF,
    X is X4 xor (X4 >> 16).

%!  position_name(+Pos, -Name) is det.
%
%   Name is the Dewey path of Pos as an atom: r, r_1, r_1_2, ...

position_name(n(D, I, _), Name) :-
    branching(B),
    dewey_(D, I, B, [], Path),
    atomic_list_concat([r|Path], '_', Name).

dewey_(0, _, _, Path, Path) :- !.
dewey_(D, I, B, Path0, Path) :-
    I0 is I - 1,
    A is I0 mod B + 1,
    Parent is I0 // B,
    D1 is D - 1,
    dewey_(D1, Parent, B, [A|Path0], Path).

%!  position_names(+Pos, +Name, +Children, -Names) is det.
%
%   The names of Children, the successors of Pos (whose name is Name), in
%   one go: Name_1 ... Name_B, what position_name/2 gives each, without
%   walking the path again for every child.  They are strings (no atom is
%   made for each of the hundreds of thousands of nodes an observed search
%   names: half the time of atoms, and nothing for the atom garbage
%   collector).  A rules file need not have it; pyab's bridge uses it,
%   when it is there, to name the nodes of an observed search
%   (prolog/bridge/run.pl).

position_names(_, Name, Children, Names) :-
    string_concat(Name, "_", Prefix),
    kid_names_(Children, 1, Prefix, Names).

kid_names_([], _, _, []).
kid_names_([_|Ps], K, Prefix, [N|Ns]) :-
    string_concat(Prefix, K, N),
    K1 is K + 1,
    kid_names_(Ps, K1, Prefix, Ns).
