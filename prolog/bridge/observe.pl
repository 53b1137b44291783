:- module(pyab_observe,
          [ observe_module/1,   % +Module
            recording/5,        % +Mode, +Size, +Deadline, :Goal, -Record
            recording/6,        % +Mode, +Size, +Deadline, :Goal, -Record, +Options
            moves_/3,           % +Record, +Record, +Position (the wrappers)
            staticval_/3,       % +Record, +Record, +Position
            trace_event/1,      % +Event
            event_count/1,      % -Count
            last_event/1,       % -Event
            record_names/8,     % +Record, :Kids, :Name, :KidNames, -Leaves, -Visited, -Pruned, -NL
            leaf_names_//2,     % +Visited, +Flag
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

The record's name is its mode (the wrappers pick their clause by it, with
no test); Deadline comes first in each:

  - names(Deadline, Count, Store): arguments 1..Count of Store are the
    calls, in order: an atom P for moves(P, _) (m(P) when P is not an
    atom), s(P) for staticval(P, _), and `[]` for staticval(P, _) on the
    position of the call just before (a leaf is asked moves/2, then
    staticval/2: nothing is copied for the second call).  nb_setarg/3
    keeps them when the search backtracks and costs less than assertz/1
    (benchmarks/HISTORY.md); a full store is copied into one twice its size.
  - trace(Deadline, Count, Store): as `names` but staticval/2 is always
    s(P), and solve_traced/8's wrappers add t(Event).
  - c(Deadline): mode `names` recorded by the compiled recorder
    (pyab/_cload.c, defined in this module by pyab when its extension
    is built): the wrappers call it first ('$crec_moves'/1 fails when
    it records nothing in this thread), and recording/6 gives back the
    names(Deadline, Count, Store) record this file's recorder would have
    made.  It is not Prolog code: 0.10-0.12 s less on the 421,019 calls
    of a b=40 d=4 uniform tree (benchmarks/HISTORY.md).
  - counts(Deadline, Leaves, Visited, Last): nothing is stored; Leaves
    counts staticval/2 calls and Visited the calls on a position other
    than the one queried just before (Last).  That equals the number of
    distinct positions for any search that asks about a node in one go
    (moves/2, then staticval/2 when it has no moves), as every program
    here does.

Deadline is `inf` or a get_time/1 stamp: every 1,024 events the recorder
throws time_limit_exceeded once it has passed.  call_with_time_limit/2
stops the search too, but its alarm thread does not survive a fork(2) of
the process that runs it (a Python worker forked after a timed-out solve
waited forever); the recorder needs no thread.

The file is compiled with the `optimise` flag (arithmetic inline, as in
prolog/trees/uniform.pl); the flag is local to the file.
*/

:- use_module(library(prolog_wrap)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(error)).          % must_be/2: autoloading it read the library index (~5 ms)

:- set_prolog_flag(optimise, true).    % compiled arithmetic, this file only

:- meta_predicate
    recording(+, +, +, 0, -),
    recording(+, +, +, 0, -, +),
    record_lists(+, 2, -, -, -),
    record_names(+, 2, 2, 4, -, -, -, -).

%   The record is read with nb_getval/2 (nb_current/2 and a test cost more
%   per call); a thread that never recorded finds it `off` through this
%   hook, the one SWI-Prolog calls for a global variable not yet set.

:- multifile user:exception/3.
user:exception(undefined_global_variable, pyab_record, retry) :-
    nb_setval(pyab_record, off).

%!  observe_module(+M) is det.
%
%   Wrap M:moves/2 and M:staticval/2 to record the search, unless they are
%   already (a recycled module keeps its wrappers: SWI-Prolog 9.0.4 never
%   frees a wrapper's closure).

observe_module(M) :-
    (   predicate_property(M:moves(_, _), wrapped(Wrappers)),  % a list on SWI-Prolog 9.0.4
        memberchk(pyab_observe, Wrappers)
    ->  true
    ;   current_predicate('$crec_moves'/1)
    ->  % the compiled recorder first: it fails unless it records this search
        wrap_predicate(M:moves(P1, _), pyab_observe, W1,
                       ( (   pyab_observe:'$crec_moves'(P1)
                         ->  true
                         ;   nb_getval(pyab_record, R1),
                             pyab_observe:moves_(R1, R1, P1)
                         ),
                         W1 )),
        wrap_predicate(M:staticval(P2, _), pyab_observe, W2,
                       ( (   pyab_observe:'$crec_staticval'(P2)
                         ->  true
                         ;   nb_getval(pyab_record, R2),
                             pyab_observe:staticval_(R2, R2, P2)
                         ),
                         W2 ))
    ;   wrap_predicate(M:moves(P1, _), pyab_observe, W1,
                       ( nb_getval(pyab_record, R1),
                         pyab_observe:moves_(R1, R1, P1),
                         W1 )),
        wrap_predicate(M:staticval(P2, _), pyab_observe, W2,
                       ( nb_getval(pyab_record, R2),
                         pyab_observe:staticval_(R2, R2, P2),
                         W2 ))
    ).

%!  recording(+Mode, +Size, +Deadline, :Goal, -Record) is semidet.
%
%   Run Goal once with a fresh record (a store for Size calls to start
%   with) and give the record back; the record is `off` again afterwards,
%   also when Goal fails or throws.

recording(Mode, Size, Deadline, Goal, Record) :-
    recording(Mode, Size, Deadline, Goal, Record, []).

%!  recording(+Mode, +Size, +Deadline, :Goal, -Record, +Options) is semidet.
%
%   As recording/5.  In mode `names` the calls are recorded by the
%   compiled recorder when pyab defined it (pyab/_cload.c: the record is
%   then c(Deadline) during the search, and the same names/3 record at the
%   end), unless Options has compiled(false) (a search under a stack
%   limit: the compiled recorder's buffer is not on Prolog's stacks).
%   Without the extension (plain swipl, PYAB_PURE_PYTHON=1) the recorder
%   below records, with the same result.

recording(Mode, Size, Deadline, Goal, Record, Options) :-
    must_be(oneof([names, trace, counts]), Mode),
    (   Mode == names,
        \+ memberchk(compiled(false), Options),
        current_predicate('$crec_begin'/2)
    ->  setup_call_cleanup(( '$crec_begin'(Size, Deadline),
                             nb_setval(pyab_record, c(Deadline)) ),
                           ( once(Goal),
                             '$crec_store'(N, Store) ),
                           ( nb_setval(pyab_record, off),
                             '$crec_end' )),
        Record = names(Deadline, N, Store)
    ;   fresh_record_(Mode, Size, Deadline, Record0),
        setup_call_cleanup(nb_setval(pyab_record, Record0),
                           ( once(Goal),
                             nb_getval(pyab_record, Record) ),
                           nb_setval(pyab_record, off))
    ).

fresh_record_(names, Size, Deadline, names(Deadline, 0, Store)) :-
    functor(Store, events, Size).
fresh_record_(trace, Size, Deadline, trace(Deadline, 0, Store)) :-
    functor(Store, events, Size).
fresh_record_(counts, _, Deadline, counts(Deadline, 0, 0, '$none')).

%   The wrappers (observe_module/1) read the record and call moves_/3 or
%   staticval_/3, which pick the clause of its mode, with the store
%   inlined: every predicate call here costs about as much as one of the
%   search's own calls.

moves_(off, _, _).
moves_(c(_), _, P) :-
    '$crec_moves'(P).
moves_(names(_, N0, Store), R, P) :-
    (   atom(P) -> E = P ; E = m(P) ),
    N is N0 + 1,
    (   nb_setarg(N, Store, E) -> true ; grow_(R, N, E) ),
    nb_setarg(2, R, N),
    (   N /\ 1023 =:= 0 -> deadline_(R) ; true ).
moves_(trace(_, N0, Store), R, P) :-
    (   atom(P) -> E = P ; E = m(P) ),
    store_(R, N0, Store, E).
moves_(counts(_, _, V0, Last), R, P) :-
    count_visit_(P, Last, V0, R).

staticval_(off, _, _).
staticval_(c(_), _, P) :-
    '$crec_staticval'(P).
staticval_(names(_, N0, Store), R, P) :-
    (   arg(N0, Store, E0),             % fails for N0 = 0
        (   E0 == P -> true ; E0 = m(P0), P0 == P )
    ->  E = []
    ;   E = s(P)
    ),
    N is N0 + 1,
    (   nb_setarg(N, Store, E) -> true ; grow_(R, N, E) ),
    nb_setarg(2, R, N),
    (   N /\ 1023 =:= 0 -> deadline_(R) ; true ).
staticval_(trace(_, N0, Store), R, P) :-
    store_(R, N0, Store, s(P)).
staticval_(counts(_, L0, V0, Last), R, P) :-
    count_visit_(P, Last, V0, R),
    L is L0 + 1,
    nb_setarg(2, R, L).

count_visit_(P, Last, V0, R) :-
    (   P == Last
    ->  true
    ;   V is V0 + 1,
        nb_setarg(3, R, V),
        nb_setarg(4, R, P),
        (   V /\ 1023 =:= 0 -> deadline_(R) ; true )
    ).

%!  trace_event(+Event) is det.
%
%   Add t(Event) to the record (solve_traced/8's wrappers).

trace_event(Event) :-
    nb_getval(pyab_record, R),
    R = trace(_, N0, Store),
    store_(R, N0, Store, t(Event)).

store_(R, N0, Store, E) :-
    N is N0 + 1,
    (   nb_setarg(N, Store, E) -> true ; grow_(R, N, E) ),
    nb_setarg(2, R, N),
    (   N /\ 1023 =:= 0 -> deadline_(R) ; true ).

%   nb_setarg/3 failed: N is past the end of the store.  Make one twice
%   its size whose first half shares the old one's entries (arg/3 binds
%   the fresh arguments; nothing is copied yet), then put it in the
%   record: nb_setarg/3 copies it once.  (Going through the argument
%   lists, as before, copied the entries three times: 0.07 against 0.04 s
%   for a store of 262,144 positions.)

grow_(R, N, E) :-
    arg(3, R, Store),
    functor(Store, Name, Size),
    Size2 is 2 * Size,
    functor(Bigger, Name, Size2),
    share_args_(Size, Store, Bigger),
    arg(N, Bigger, E),
    nb_setarg(3, R, Bigger).

share_args_(0, _, _) :- !.
share_args_(I, Store, Bigger) :-
    arg(I, Store, X),
    arg(I, Bigger, X),
    I1 is I - 1,
    share_args_(I1, Store, Bigger).

deadline_(R) :-
    arg(1, R, Deadline),
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

%!  record_names(+Record, :Kids, :Name, :KidNames, -Leaves, -Visited, -Pruned, -NL) is det.
%
%   The observed lists, as names.  Visited: every position in the order
%   it was first queried (moves/2 or staticval/2).  Pruned: the roots of
%   the subtrees the search cut off, the unvisited children of visited
%   nodes, in depth-first tree order.  Leaves: every staticval/2 call, in
%   order, NL of them; either a list of names or flags(Flags), a string
%   with a character per visited node, `1` when it is a leaf that was read
%   once and `0` otherwise (the leaves are then the visited nodes flagged
%   `1`, in order: they are not listed twice).
%
%   call(Kids, P, Ks) gives the children of P (fails for a leaf);
%   call(Name, P, N) names a position; call(KidNames, P, N, Ks, Ns) names
%   the children Ks of P, named N.  They are called outside any recording.
%
%   Every program here queries the nodes in depth-first tree order, each
%   in one go (moves/2, then staticval/2 for a leaf).  For such a search
%   one walk of the tree from the first position queried, depth first,
%   reads the record as it goes: a child is visited exactly when the next
%   calls in the record are on it, and is pruned otherwise.  So the walk
%   needs no lookup, names each node it meets once, and builds no list of
%   the record.  It is accepted only if it uses up the record exactly,
%   which proves that every node it took as visited was visited, and that
%   every visited node was reached once.  Otherwise (a program that asks
%   about a node again later, or searches right to left) record_lists/5
%   takes the general path.

record_names(Record, Kids, Name, KidNames, Leaves, Visited, Pruned, NL) :-
    calls_(Record, N, Store),
    (   N =:= 0
    ->  Leaves = [], Visited = [], Pruned = [], NL = 0
    ;   arg(1, Store, E0),
        event_position_(E0, Root),
        call(Name, Root, RootName),
        walk_([Root], [RootName], [], 1, N, Store, Kids, KidNames,
              Visited0, Flags, Pruned0, 0, NL0, IEnd),
        IEnd =:= N + 1
    ->  Visited = Visited0,
        Pruned = Pruned0,
        NL = NL0,
        string_codes(FlagS, Flags),
        (   split_string(FlagS, "", "01", [""])     % every flag is 0 or 1
        ->  Leaves = flags(FlagS)
        ;   foldl(leaf_names_, Visited, Flags, Leaves, [])
        )
    ;   record_lists(Record, Kids, Leaves0, Visited0, Pruned0),
        maplist(Name, Leaves0, Leaves),
        maplist(Name, Visited0, Visited),
        maplist(Name, Pruned0, Pruned),
        length(Leaves, NL)
    ).

%   calls_(+Record, -N, -Store): the calls on moves/2 and staticval/2,
%   arguments 1..N of Store.  A traced record's t(Event) entries are left
%   out (a traced search is small: they are copied into a new store).

calls_(names(_, N, Store), N, Store).
calls_(trace(_, N0, Store0), N, Store) :-
    findall(E, ( between(1, N0, I), arg(I, Store0, E), E \= t(_) ), Es),
    Store =.. [events|Es],
    length(Es, N).

%   leaf_names_(+V, +Flag)//: V as many times as Flag says (0'0 + count).

leaf_names_(V, Flag) -->
    { C is Flag - 0'0 },
    repeated_(C, V).

repeated_(0, _) --> !, [].
repeated_(C, V) --> [V], { C1 is C - 1 }, repeated_(C1, V).

event_position_(E, P) :-
    (   atom(E) -> P = E
    ;   E = m(P) -> true
    ;   E = s(P)
    ).

%   walk_(+Siblings, +Names, +Stack, +I, +N, +Store, :Kids, :KidNames,
%         -Visited, -Flags, -Pruned, +L0, -L, -IEnd): Siblings (named
%   Names) are the nodes still to walk at this level, Stack the
%   Siblings-Names of the levels above (so no list of children is copied,
%   and a long chain needs no deep recursion).  I is the next call of the
%   record: when it is on the sibling K (a moves/2 call, counted 0, or a
%   staticval/2 call, counted 1), K is visited and run_/7 takes the calls
%   on K that follow.  Flags has a code per visited node: 0'0 plus its
%   staticval/2 calls; L0..L counts those calls.  (The tests are written
%   out here rather than called: this is the loop of the answer.)

walk_([], [], Stack, I, N, Store, Kids, KidNames, V, F, P, L0, L, IEnd) :-
    (   Stack = [Ks-Ns|Stack1]
    ->  walk_(Ks, Ns, Stack1, I, N, Store, Kids, KidNames, V, F, P, L0, L, IEnd)
    ;   V = [], F = [], P = [], L = L0, IEnd = I
    ).
walk_([K|Ks], [KN|KNs], Stack, I, N, Store, Kids, KidNames, V, F, P, L0, L, IEnd) :-
    (   I =< N,
        arg(I, Store, E),
        (   E == K
        ->  C1 = 0
        ;   E = m(Q)
        ->  Q == K, C1 = 0
        ;   E = s(Q), Q == K, C1 = 1
        )
    ->  I1 is I + 1,
        run_(I1, N, Store, K, C1, I2, C),
        V = [KN|V1],
        Flag is 0'0 + C,
        F = [Flag|F1],
        L1 is L0 + C,
        (   call(Kids, K, Cs)
        ->  call(KidNames, K, KN, Cs, CNs),
            walk_(Cs, CNs, [Ks-KNs|Stack], I2, N, Store, Kids, KidNames, V1, F1, P, L1, L, IEnd)
        ;   walk_(Ks, KNs, Stack, I2, N, Store, Kids, KidNames, V1, F1, P, L1, L, IEnd)
        )
    ;   rest_pruned_(Ks, I, N, Store)
    ->  P = [KN|P1],
        append(KNs, P2, P1),
        walk_([], [], Stack, I, N, Store, Kids, KidNames, V, F, P2, L0, L, IEnd)
    ;   P = [KN|P1],
        walk_(Ks, KNs, Stack, I, N, Store, Kids, KidNames, V, F, P1, L0, L, IEnd)
    ).

%   rest_pruned_(+Siblings, +I, +N, +Store): no sibling is the position
%   of call I (or there is none), so every sibling is pruned: what the
%   walk would find testing them one by one, found at once (memberchk/2
%   runs in C; an alpha-beta search cuts off all the siblings after a
%   cut, 39 of 40 on b=40 trees).

rest_pruned_(Ks, I, N, Store) :-
    (   I > N
    ->  true
    ;   arg(I, Store, E),
        E \== [],
        (   atom(E) -> Q = E ; E = m(Q) -> true ; E = s(Q) ),
        \+ memberchk(Q, Ks)
    ).

%   `[]` is staticval/2 on the position of the call before, here K.

run_(I, N, Store, K, C0, I1, C) :-
    (   I =< N,
        arg(I, Store, E),
        (   E == []
        ->  C2 is C0 + 1
        ;   E == K
        ->  C2 = C0
        ;   E = s(Q)
        ->  Q == K, C2 is C0 + 1
        ;   E = m(Q), Q == K, C2 = C0
        )
    ->  I2 is I + 1,
        run_(I2, N, Store, K, C2, I1, C)
    ;   I1 = I,
        C = C0
    ).

%!  record_lists(+Record, :Kids, -Leaves, -Visited, -Pruned) is det.
%
%   The observed lists as positions, for any search (record_names/8's
%   general path).  One pass over the record gives the leaves and the
%   runs of calls on one position; the first occurrences are the visited
%   nodes; a walk over the tree from the first, asking a trie (C hash
%   lookups) which children were visited, gives the pruned ones.

record_lists(Record, Kids, Leaves, Visited, Pruned) :-
    calls_(Record, N, Store),
    events_lists_(1, N, Store, '$none', Leaves, Runs),
    (   Runs == []
    ->  Visited = [], Pruned = []
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
    (   E == []                         % staticval/2 on the call before's position
    ->  P = Last, Leaves = [P|Leaves1]
    ;   atom(E)
    ->  P = E, Leaves = Leaves1
    ;   E = s(P)
    ->  Leaves = [P|Leaves1]
    ;   E = m(P), Leaves = Leaves1
    ),
    (   P == Last -> Visited = Visited1 ; Visited = [P|Visited1] ),
    events_lists_(I1, N, Store, P, Leaves1, Visited1).

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
%   deep recursion on long chains).  Seen is trie(T): a node is visited
%   when it is in T.

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

seen_(trie(T), K, Vs, Vs) :-
    trie_lookup(T, K, _).

%!  record_counts(+Record, -Leaves, -Visited) is semidet.
%
%   The counts of a record in mode `counts`.

record_counts(counts(_, Leaves, Visited, _), Leaves, Visited).

%!  record_trace(+Record, -Events) is det.
%
%   The t(Event) entries of the record, in order.

record_trace(trace(_, N, Store), Events) :-
    findall(E, ( between(1, N, I), arg(I, Store, t(E)) ), Events).
