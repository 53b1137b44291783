/*  Part of pyab_bridge (prolog/pyab_bridge.pl), included there.

    Turning the record of a search into the answer: leaves, visited, pruned
    (all derived here, in Prolog), and errors as text.
*/

%   The observed lists.  visited: every node in the order it was first
%   queried (moves/2 or staticval/2); leaves: every staticval/2 call;
%   pruned: unvisited children of visited nodes, in depth-first tree order.

collect(Tree, Best, Val, Out) :-
    rules_module_(Tree, Mode),
    !,
    collect_rules_(Mode, Tree, Best, Val, Out).
collect(Tree, Best, Val, Out) :-
    nb_getval(pyab_events, events(N, Store, _)),
    events_lists_(1, N, Store, _, Leaves, Visited0),
    (   preorder_pruned_(Visited0, Tree, Pruned0)
    ->  Visited = Visited0, Pruned = Pruned0,
        LeafS = Leaves, VisitedS = Visited, PrunedS = Pruned  % atoms only
    ;   findall(x-P, ( between(1, N, I), arg(I, Store, E), event_position_(E, P) ),
                Events),
        first_occurrences(Events, Visited),
        pruned(Tree, Visited, Pruned),
        maplist(name_part_, Leaves, LeafS),
        maplist(name_part_, Visited, VisitedS),
        maplist(name_part_, Pruned, PrunedS)
    ),
    (   var(Best) -> BestFlag = "0", BestS = '' ; BestFlag = "1", name_part_(Best, BestS) ),
    format(string(ValS), "~q", [Val]),
    length(Leaves, NL), length(Visited, NV), length(Pruned, NP),
    append([["ok", BestFlag, BestS, ValS, NL, NV, NP], LeafS, VisitedS, PrunedS], Parts),
    atomic_list_concat(Parts, '\u0000', OutA),
    atom_string(OutA, Out).

%   One pass over the record: the leaves (staticval/2 calls) in order, and
%   the positions with each run of calls on the same position as one (a
%   node is asked moves/2, then staticval/2 when it has no moves).  When no
%   position comes back later, that is visited.

events_lists_(I, N, _, _, [], []) :-
    I > N,
    !.
events_lists_(I, N, Store, Last, Leaves, Visited) :-
    arg(I, Store, E),
    (   atom(E)
    ->  P = E, Leaves = Leaves1
    ;   E = s(P)
    ->  Leaves = [P|Leaves1]
    ;   E = m(P), Leaves = Leaves1
    ),
    (   P == Last -> Visited = Visited1 ; Visited = [P|Visited1] ),
    I1 is I + 1,
    events_lists_(I1, N, Store, P, Leaves1, Visited1).

event_position_(E, P) :-
    (   atom(E) -> P = E ; arg(1, E, P) ).

%   pruned/3 in one walk without lookups, for the usual case: the search
%   queried the nodes in depth-first tree order, each once, so the next
%   node the walk meets that was visited is always the head of Visited.
%   The walk fails (and pruned/3 does the work) unless it uses up Visited
%   exactly: then every node it took as visited was, and every node
%   visited was reached, once.

preorder_pruned_([], _, []).
preorder_pruned_([Root|Visited], Tree, Pruned) :-
    preorder_walk_([Root], [], Tree, [Root|Visited], Pruned).

%   preorder_walk_(+Siblings, +Stack, +Tree, +Visited, -Pruned): Siblings
%   are the nodes still to walk at this level, Stack those of the levels
%   above (a list of lists, so no kids list is copied).

preorder_walk_([], Stack, Tree, Visited, Pruned) :-
    (   Stack = [Siblings|Stack1]
    ->  preorder_walk_(Siblings, Stack1, Tree, Visited, Pruned)
    ;   Visited == [],
        Pruned = []
    ).
preorder_walk_([K|Siblings], Stack, Tree, Visited0, Pruned) :-
    (   Visited0 = [V|Visited],
        V == K
    ->  (   Tree:tree(K, Kids)
        ->  preorder_walk_(Kids, [Siblings|Stack], Tree, Visited, Pruned)
        ;   preorder_walk_(Siblings, Stack, Tree, Visited, Pruned)
        )
    ;   Pruned = [K|Pruned1],
        preorder_walk_(Siblings, Stack, Tree, Visited0, Pruned1)
    ).

%   A name as a part for atomic_list_concat/3: an atom is its own text.

name_part_(P, S) :-
    (   atom(P) -> S = P ; name_text(P, S) ).

name_text(P, S) :-
    (   atom(P) -> atom_string(P, S) ; format(string(S), "~q", [P]) ).

%   Sorting does it in C: number the events, keep the first of each
%   position (sort/4 is stable, so @< keeps the earliest), restore the order.

first_occurrences(Events, Visited) :-
    numbered_events_(Events, 1, Numbered),
    sort(1, @<, Numbered, Firsts),
    transpose_pairs(Firsts, ByNumber),
    pairs_values(ByNumber, Visited).

numbered_events_([], _, []).
numbered_events_([_-P|Es], I, [P-I|Ns]) :-
    I1 is I + 1,
    numbered_events_(Es, I1, Ns).

%   The general case: an AVL tree says which nodes were visited.

pruned(_, [], []) :- !.
pruned(Tree, [Root|Visited], Pruned) :-
    findall(V-t, member(V, [Root|Visited]), Pairs),
    list_to_assoc(Pairs, Seen),
    pruned_walk([node(Root)], Tree, Seen, Pruned).

%   Depth-first, in tree order, over an explicit agenda (no deep recursion on
%   long chains): node(P) expands a visited node into its children, each a
%   node/1 when visited and a cut/1 (a pruned root) when not.

pruned_walk([], _, _, []).
pruned_walk([cut(P)|Agenda], Tree, Seen, [P|Pruned]) :-
    pruned_walk(Agenda, Tree, Seen, Pruned).
pruned_walk([node(P)|Agenda0], Tree, Seen, Pruned) :-
    (   Tree:tree(P, Kids)
    ->  agenda_items_(Kids, Seen, Agenda0, Agenda)
    ;   Agenda = Agenda0
    ),
    pruned_walk(Agenda, Tree, Seen, Pruned).

agenda_items_([], _, Agenda, Agenda).
agenda_items_([K|Ks], Seen, Agenda0, [Item|Agenda]) :-
    agenda_item(Seen, K, Item),
    agenda_items_(Ks, Seen, Agenda0, Agenda).

agenda_item(Seen, K, Item) :-
    (   seen_(Seen, K) -> Item = node(K) ; Item = cut(K) ).

seen_(Seen, K) :-
    get_assoc(K, Seen, _).

error_out(E, Out) :-
    (   catch(message_to_codes(E, Codes), _, fail)
    ->  string_codes(Msg, Codes)
    ;   format(string(Msg), "~q", [E])
    ),
    format(string(Term), "~q", [E]),
    atomic_list_concat(["error", Msg, Term], '\u0000', OutA),
    atom_string(OutA, Out).

message_to_codes(E, Codes) :-
    '$messages':translate_message(E, Lines, []),
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).
