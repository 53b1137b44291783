tree(a, [b, c, d]).
tree(b, [e, f, g]).
tree(c, [h, i, j]).
tree(d, [k, l, m]).

staticval(e, 3).
staticval(f, 12).
staticval(g, 8).
staticval(h, 2).
staticval(i, 3).
staticval(j, 20).
staticval(k, 14).
staticval(l, 5).
staticval(m, 2).

min_to_move(b).
min_to_move(c).
min_to_move(d).
max_to_move(a).
max_to_move(e).
max_to_move(f).
max_to_move(g).
max_to_move(h).
max_to_move(i).
max_to_move(j).
max_to_move(k).
max_to_move(l).
max_to_move(m).

moves(Pos, Moves) :- tree(Pos, Moves).
