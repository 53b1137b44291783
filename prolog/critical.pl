/*  Hsu's critical positions (Theorem 1 and Corollary 1), the Prolog half
    of pyab/search/critical.py.

    A position is named by its Dewey path [A1, A2, ..., Al] from the root
    (1-based branch numbers; the root is []).  It is critical when Ai = 1
    for every even i, or Ai = 1 for every odd i; the root is critical.
    Theorem 1: F1 examines precisely the critical positions of a
    perfect-ordering tree.  Corollary 1: with exactly B successors
    everywhere, level I holds B^ceil(I/2) + B^floor(I/2) - 1 of them.

    A plain file like prolog/alphabeta.pl; dewey_position/3 and
    critical_positions/2 walk the tree with moves/2 only.

    Try:   swipl prolog/critical.pl examples/slides.pl
           ?- critical_positions(a, Ps).
*/

%!  critical(+Dewey:list(positive_integer)) is semidet.
%
%   True when the Dewey path Dewey names a critical position.

critical(Dewey) :-
    odd_even_(Dewey, Odd, Even),
    (   all_ones_(Even)
    ->  true
    ;   all_ones_(Odd)
    ).

%   Odd: A1, A3, ...; Even: A2, A4, ...

odd_even_([], [], []).
odd_even_([A|As], [A|Odd], Even) :-
    odd_even_(As, Even, Odd).

all_ones_([]).
all_ones_([1|As]) :-
    all_ones_(As).

%!  dewey_position(+Root, -Dewey, -Pos) is multi.
%
%   Pos is the position below Root reached by the Dewey path Dewey,
%   enumerated in depth-first order (the root first, as []).

dewey_position(Root, Dewey, Pos) :-
    dewey_position_(Root, [], Dewey0, Pos),
    reverse(Dewey0, Dewey).

dewey_position_(Pos, Path, Path, Pos).
dewey_position_(Pos0, Path0, Path, Pos) :-
    moves(Pos0, Ps),
    nth1(I, Ps, Pos1),
    dewey_position_(Pos1, [I|Path0], Path, Pos).

%!  critical_positions(+Root, -Positions) is det.
%
%   Positions are the critical positions below Root, in depth-first order.

critical_positions(Root, Positions) :-
    findall(Pos, ( dewey_position(Root, Dewey, Pos), critical(Dewey) ), Positions).

%!  corollary_count(+B, +I, -N) is det.
%
%   N = B^ceil(I/2) + B^floor(I/2) - 1, the number of critical positions
%   on level I of a uniform tree with B successors per position.

corollary_count(B, I, N) :-
    N is B^((I + 1) // 2) + B^(I // 2) - 1.
