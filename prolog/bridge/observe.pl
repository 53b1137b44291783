:- module(pyab_observe,
          [ observe_module/1,   % +Module
            recording/5,        % +Mode, +Size, +Deadline, :Goal, -Record
            record_event/2,     % +Kind, +Position
            trace_event/1,      % +Event
            event_count/1,      % -Count
            last_event/1,       % -Event
            record_lists/5,     % +Record, :Kids, -Leaves, -Visited, -Pruned
            record_counts/3,    % +Record, -Leaves, -Visited
            record_trace/2      % +Record, -Events
          ]).
/** <module> Watching a search: the one recording channel and the pruned walk

moves/2 and staticval/2 of a tree module are wrapped once
(wrap_predicate/4, the tree's clauses stay as they are); each call
records an event in the record of the running search, the global variable
`pyab_record` (declared in prolog/bridge/state.pl).  Outside recording/5
it is `off` and nothing is recorded.

The record is record(Mode, Count, Store, Leaves, Visited, Last, Deadline):

  - Mode `names`: arguments 1..Count of Store are the calls, in order: an
    atom P for moves(P, _) (m(P) when P is not an atom) and s(P) for
    staticval(P, _).  nb_setarg/3 keeps them when the search backtracks
    and costs less than assertz/1 (docs/performance.md); a full store is
    copied into one twice its size.
  - Mode `trace`: as `names`, and solve_traced/8's wrappers add t(Event).
  - Mode `counts`: nothing is stored; Leaves counts staticval/2 calls and
    Visited the calls on a position other than the one queried just before
    (Last).  That equals the number of distinct positions for any search
    that asks about a node in one go (moves/2, then staticval/2 when it has
    no moves), as every program here does.

Deadline is `inf` or a get_time/1 stamp: every 1,024 events the recorder
throws time_limit_exceeded once it has passed.  call_with_time_limit/2
stops the search too, but its alarm thread does not survive a fork(2) of
the process that runs it (a Python worker forked after a timed-out solve
waited forever); the recorder needs no thread.
*/

:- use_module(library(prolog_wrap)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(error)).          % must_be/2: autoloading it read the library index (~5 ms)

:- meta_predicate
    recording(+, +, +, 0, -),
    record_lists(+, 2, -, -, -).

%!  observe_module(+M) is det.
%
%   Wrap M:moves/2 and M:staticval/2 to record the search, unless they are
%   already (a recycled module keeps its wrappers: SWI-Prolog 9.0.4 never
%   frees a wrapper's closure).

observe_module(M) :-
    (   predicate_property(M:moves(_, _), wrapped(pyab_observe))
    ->  true
    ;   wrap_predicate(M:moves(P1, _), pyab_observe, W1,
                       ( pyab_observe:record_event(m, P1), W1 )),
        wrap_predicate(M:staticval(P2, _), pyab_observe, W2,
                       ( pyab_observe:record_event(s, P2), W2 ))
    ).

%!  recording(+Mode, +Size, +Deadline, :Goal, -Record) is semidet.
%
%   Run Goal once with a fresh record (a store for Size calls to start
%   with) and give the record back; the record is `off` again afterwards,
%   also when Goal fails or throws.

recording(Mode, Size, Deadline, Goal, Record) :-
    must_be(oneof([names, trace, counts]), Mode),
    functor(Store, events, Size),
    setup_call_cleanup(nb_setval(pyab_record,
                                 record(Mode, 0, Store, 0, 0, '$none', Deadline)),
                       ( once(Goal),
                         nb_getval(pyab_record, Record) ),
                       nb_setval(pyab_record, off)).

%!  record_event(+Kind, +P) is det.
%
%   Kind `m`: moves(P, _) was called; `s`: staticval(P, _).

record_event(K, P) :-
    (   nb_current(pyab_record, R),
        compound(R)
    ->  arg(1, R, Mode),
        record_(Mode, R, K, P)
    ;   true
    ).

record_(counts, R, K, P) :-
    !,
    arg(6, R, Last),
    (   P == Last
    ->  true
    ;   arg(5, R, V0),
        V is V0 + 1,
        nb_setarg(5, R, V),
        nb_setarg(6, R, P),
        (   V /\ 1023 =:= 0 -> deadline_(R) ; true )
    ),
    (   K == s
    ->  arg(4, R, L0),
        L is L0 + 1,
        nb_setarg(4, R, L)
    ;   true
    ).
record_(_, R, m, P) :-
    (   atom(P) -> store_(R, P) ; store_(R, m(P)) ).
record_(_, R, s, P) :-
    store_(R, s(P)).

%!  trace_event(+Event) is det.
%
%   Add t(Event) to the record (solve_traced/8's wrappers).

trace_event(Event) :-
    nb_getval(pyab_record, R),
    store_(R, t(Event)).

store_(R, E) :-
    arg(2, R, N0),
    N is N0 + 1,
    arg(3, R, Store),
    (   nb_setarg(N, Store, E)          % fails when N is past the end
    ->  true
    ;   compound_name_arguments(Store, Name, Args),
        length(Args, Size),
        length(More, Size),
        append(Args, More, Args2),
        compound_name_arguments(Bigger, Name, Args2),
        nb_setarg(N, Bigger, E),
        nb_setarg(3, R, Bigger)
    ),
    nb_setarg(2, R, N),
    (   N /\ 1023 =:= 0 -> deadline_(R) ; true ).

deadline_(R) :-
    arg(7, R, Deadline),
    (   Deadline == inf
    ->  true
    ;   get_time(Now),
        Now > Deadline
    ->  throw(time_limit_exceeded)
    ;   true
    ).

%!  event_count(-N) is det.
%!  last_event(-E) is semidet.
%
%   How many events the running search recorded; the last one.

event_count(N) :-
    nb_getval(pyab_record, R),
    arg(2, R, N).

last_event(E) :-
    nb_getval(pyab_record, R),
    arg(2, R, N),
    N > 0,
    arg(3, R, Store),
    arg(N, Store, E).

%!  record_lists(+Record, :Kids, -Leaves, -Visited, -Pruned) is det.
%
%   The observed lists.  Leaves: every staticval/2 call, in order.
%   Visited: every position in the order it was first queried (moves/2 or
%   staticval/2).  Pruned: the roots of the subtrees the search cut off,
%   the unvisited children of visited nodes, in depth-first tree order.
%   call(Kids, P, Ks) gives the children of P (fails for a leaf); it is
%   called outside any recording.
%
%   One pass over the record gives the leaves and the runs of calls on one
%   position (a node is asked moves/2, then staticval/2 when it has no
%   moves).  Then one walk over the tree, depth-first, finds the pruned
%   nodes.  It first takes the runs as visited in tree order, each once,
%   as every program here searches: then a child is visited exactly when it
%   is the next run, and the walk needs no lookup.  If the walk does not use
%   up the runs exactly, the search went another way (or came back to a
%   position), and the same walk runs again over the first occurrences,
%   asking a trie (C hash lookups) which children were visited.

record_lists(record(_, N, Store, _, _, _, _), Kids, Leaves, Visited, Pruned) :-
    events_lists_(1, N, Store, '$none', Leaves, Runs),
    (   Runs == []
    ->  Visited = [], Pruned = []
    ;   Runs = [Root|_],
        pruned_walk_([Root], [], Kids, in_order, Runs, Rest, Pruned0),
        Rest == []
    ->  Visited = Runs, Pruned = Pruned0
    ;   first_occurrences_(Runs, Visited),
        Visited = [Root|_],
        setup_call_cleanup(trie_new(Seen),
                           ( forall(member(V, Visited), ignore(trie_insert(Seen, V))),
                             pruned_walk_([Root], [], Kids, trie(Seen), -, _, Pruned) ),
                           trie_destroy(Seen))
    ).

events_lists_(I, N, _, _, [], []) :-
    I > N,
    !.
events_lists_(I, N, Store, Last, Leaves, Visited) :-
    arg(I, Store, E),
    I1 is I + 1,
    (   E = t(_)
    ->  events_lists_(I1, N, Store, Last, Leaves, Visited)
    ;   (   atom(E)
        ->  P = E, Leaves = Leaves1
        ;   E = s(P)
        ->  Leaves = [P|Leaves1]
        ;   E = m(P), Leaves = Leaves1
        ),
        (   P == Last -> Visited = Visited1 ; Visited = [P|Visited1] ),
        events_lists_(I1, N, Store, P, Leaves1, Visited1)
    ).

%   Keep the first of each position (sort/4 is stable, so @< keeps the
%   earliest), then restore the order: sorting does it in C.

first_occurrences_(Ps, Firsts) :-
    numbered_(Ps, 1, Numbered),
    sort(1, @<, Numbered, ByPosition),
    transpose_pairs(ByPosition, ByNumber),
    pairs_values(ByNumber, Firsts).

numbered_([], _, []).
numbered_([P|Ps], I, [P-I|Ns]) :-
    I1 is I + 1,
    numbered_(Ps, I1, Ns).

%   pruned_walk_(+Siblings, +Stack, :Kids, +Seen, +Visited0, -Visited, -Pruned):
%   Siblings are the nodes still to walk at this level, Stack those of the
%   levels above (a list of lists, so no list of children is copied, and no
%   deep recursion on long chains).  Seen is `in_order` (a node is visited
%   when it is the head of Visited0, which it then leaves) or trie(T).

pruned_walk_([], Stack, Kids, Seen, V0, V, Pruned) :-
    (   Stack = [Siblings|Stack1]
    ->  pruned_walk_(Siblings, Stack1, Kids, Seen, V0, V, Pruned)
    ;   V = V0,
        Pruned = []
    ).
pruned_walk_([K|Siblings], Stack, Kids, Seen, V0, V, Pruned) :-
    (   seen_(Seen, K, V0, V1)
    ->  (   call(Kids, K, Ks)
        ->  pruned_walk_(Ks, [Siblings|Stack], Kids, Seen, V1, V, Pruned)
        ;   pruned_walk_(Siblings, Stack, Kids, Seen, V1, V, Pruned)
        )
    ;   Pruned = [K|Pruned1],
        pruned_walk_(Siblings, Stack, Kids, Seen, V0, V, Pruned1)
    ).

seen_(in_order, K, [V|Vs], Vs) :-
    V == K.
seen_(trie(T), K, Vs, Vs) :-
    trie_lookup(T, K, _).

%!  record_counts(+Record, -Leaves, -Visited) is det.

record_counts(record(counts, _, _, Leaves, Visited, _, _), Leaves, Visited).

%!  record_trace(+Record, -Events) is det.
%
%   The t(Event) entries of the record, in order.

record_trace(record(_, N, Store, _, _, _, _), Events) :-
    findall(E, ( between(1, N, I), arg(I, Store, t(E)) ), Events).
