/*  Tic-tac-toe as rules for the slides' alphabeta/5.

    A position is p(Player, Played, Board): Player (x or o) is to move,
    Played are the squares taken so far, last first, and Board is the list
    of the nine squares (x, o or e for empty), numbered

        1 2 3
        4 5 6
        7 8 9

    X moves first and is MAX; a finished game is worth 1 (X has three in a
    row), -1 (O has) or 0 (a full board without a row).  A position is a
    node of the game TREE, so it carries how it was reached: the same board
    reached in two move orders is two positions, as in the 549,946-node
    count.  position_name/2 writes the moves as a Dewey-like path: r, r_5,
    r_5_1 (the square numbers played, in order).

    The root is given by the parameter fact start(Squares) (squares played
    from the empty board, first move first), which the loader asserts:
    start([]) is the empty board.

    Try:    swipl prolog/alphabeta.pl prolog/games/tictactoe.pl
            ?- assertz(start([])), root(P),
               alphabeta(P, -1.0Inf, 1.0Inf, Best, Val),
               position_name(Best, Name).
*/

:- dynamic start/1.

%!  root(-Pos) is det.
%
%   The position after the moves of start/1.
%   @error domain_error(tictactoe_moves, Squares) if they are not a legal
%   game (a square twice, outside 1..9, or a move after the game ended).

root(Pos) :-
    start(Squares),
    empty_board_(Board0),
    (   play_all_(Squares, x, [], Board0, Pos)
    ->  true
    ;   domain_error(tictactoe_moves, Squares)
    ).

empty_board_([e, e, e, e, e, e, e, e, e]).

play_all_([], Player, Played, Board, p(Player, Played, Board)).
play_all_([Sq|Sqs], Player, Played, Board0, Pos) :-
    integer(Sq),
    \+ finished_(Board0),
    put_(Board0, 1, Sq, Player, Board),
    other_(Player, Next),
    play_all_(Sqs, Next, [Sq|Played], Board, Pos).

%   put_(+Board0, +Index, +Square, +Mark, -Board): Board0 with the empty
%   Square marked.

put_([C|Cs], I, Sq, Mark, [C1|Cs1]) :-
    (   I =:= Sq
    ->  C == e, C1 = Mark, Cs1 = Cs
    ;   C1 = C,
        I1 is I + 1,
        put_(Cs, I1, Sq, Mark, Cs1)
    ).

other_(x, o).
other_(o, x).

%!  moves(+Pos, -PosList) is semidet.
%
%   The positions after each legal move, squares in increasing order;
%   fails when the game is over.

moves(p(Player, Played, Board), PosList) :-
    \+ finished_(Board),
    other_(Player, Next),
    successors_(Board, 1, [], Player, Next, Played, PosList).

%   Walk the board once; Before holds the squares passed, reversed.

successors_([], _, _, _, _, _, []).
successors_([C|Cs], Sq, Before, Player, Next, Played, PosList) :-
    Sq1 is Sq + 1,
    (   C == e
    ->  reverse(Before, Front),
        append(Front, [Player|Cs], Board),
        PosList = [p(Next, [Sq|Played], Board)|PosList1]
    ;   PosList = PosList1
    ),
    successors_(Cs, Sq1, [C|Before], Player, Next, Played, PosList1).

%!  min_to_move(+Pos) is semidet.
%!  max_to_move(+Pos) is semidet.

min_to_move(p(o, _, _)).
max_to_move(p(x, _, _)).

%!  staticval(+Pos, -Val) is semidet.
%
%   The value of a finished game (1, -1 or 0); fails while it goes on.

staticval(p(_, _, Board), Val) :-
    (   line_(Board, x)
    ->  Val = 1
    ;   line_(Board, o)
    ->  Val = -1
    ;   \+ memberchk(e, Board)
    ->  Val = 0
    ).

finished_(Board) :-
    (   line_(Board, x)
    ->  true
    ;   line_(Board, o)
    ->  true
    ;   \+ memberchk(e, Board)
    ).

line_([A, B, C, D, E, F, G, H, I], M) :-
    (   A == M, B == M, C == M
    ;   D == M, E == M, F == M
    ;   G == M, H == M, I == M
    ;   A == M, D == M, G == M
    ;   B == M, E == M, H == M
    ;   C == M, F == M, I == M
    ;   A == M, E == M, I == M
    ;   C == M, E == M, G == M
    ),
    !.

%!  position_name(+Pos, -Name) is det.
%
%   r followed by the squares played, in order: r, r_5, r_5_1.

position_name(p(_, Played, _), Name) :-
    reverse(Played, Squares),
    atomic_list_concat([r|Squares], '_', Name).

%!  game_tree_size(+Pos, -Nodes, -Leaves) is det.
%
%   Count every position of the game tree below Pos (Pos included) and
%   its finished games, by walking moves/2 to the end.

game_tree_size(Pos, Nodes, Leaves) :-
    (   moves(Pos, PosList)
    ->  foldl(add_size_, PosList, 1-0, Nodes-Leaves)
    ;   Nodes = 1, Leaves = 1
    ).

add_size_(Pos, N0-L0, N-L) :-
    game_tree_size(Pos, N1, L1),
    N is N0 + N1,
    L is L0 + L1.
