/*  Part of pyab_bridge (prolog/pyab_bridge.pl), included there.

    One search: reading the arguments, recording the calls, time and stack
    limits, and loading a program copy next to the tree.
*/

%!  solve(+Tree, +Prog, +File, +Alg, +RootS, +AlphaS, +BetaS, +Opts, -Out) is det.
%
%   Run algorithm Alg (program File, loaded once into module Prog) on the
%   tree in module Tree.  RootS, AlphaS and BetaS are strings; the numbers
%   are read with number_string/2 so floats and infinities arrive exact.
%   Opts is a string "Depth Seconds" (`inf` or an integer; 0 = no limit),
%   optionally followed by " StackLimit" (bytes) to run the search under
%   a smaller stack_limit flag than the process's (the old one is put back
%   afterwards, also after a resource error).
%   Out is a string: "ok", best flag, best, value, then the counts and names
%   of leaves, visited and pruned; or "error", message, error term.

solve(Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, Out) :-
    catch(solve_(Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, Out0),
          E, error_out(E, Out0)),
    Out = Out0.

solve_(Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, Out) :-
    ensure_program(Tree, Prog, File),
    root_position_(Tree, RootS, Root),
    number_string(Alpha, AlphaS),
    number_string(Beta, BetaS),
    split_string(OptsS, " ", "", [DepthS, SecondsS|MoreS]),
    (   DepthS == "inf" -> Depth = inf ; number_string(Depth, DepthS) ),
    number_string(Seconds, SecondsS),
    stack_limit_option_(MoreS, Tree, StackLimit),
    (   entry(Alg, Root, Alpha, Beta, Depth, Best, Val, Goal)
    ->  true
    ;   domain_error(pyab_algorithm, Alg)
    ),
    retractall(Tree:'$pyab_event'(_, _)),
    events_reset_(Tree),
    (   with_stack_limit_(StackLimit, run_limited(Seconds, Prog:Goal))
    ->  collect(Tree, Best, Val, Out)
    ;   Out = "fail"
    ),
    nb_setval(pyab_events, off),
    retractall(Tree:'$pyab_event'(_, _)).

%   The record of one search of a fact tree: the global variable
%   pyab_events holds events(Count, Store, Mode).  Arguments 1..Count of
%   Store are the calls, in order: an atom P for moves(P, _) (m(P) when P
%   is not an atom) and s(P) for staticval(P, _).  nb_setarg/3 keeps them
%   when the search backtracks, and costs less than assertz/1 and the
%   retractall/1 after it (docs/performance.md); a full store is copied
%   into one twice its size.  Mode `trace` (solve_traced/8) also asserts
%   '$pyab_event'(s, P), which alphabeta_exit_/5 asks about during the run.
%   Outside a solve the variable is `off` and nothing is recorded.
%
%   The first store has room for a quarter of the tree's nodes (at least
%   1,024 calls, at most 2^20): the slides' program asks about 6% of a
%   million-node tree with the full window, and growing the store from
%   1,024 calls costs it 15 ms (docs/performance.md).

events_reset_(Tree) :-
    (   nb_current(pyab_traced, true) -> Mode = trace ; Mode = plain ),
    tree_nodes_(Tree, Nodes),
    Size is max(1024, min(Nodes // 4, 1 << 20)),
    functor(Store, events, Size),
    nb_setval(pyab_events, events(0, Store, Mode)).

event_(P) :-
    (   nb_current(pyab_events, Events),
        compound(Events)
    ->  (   atom(P) -> E = P ; E = m(P) ),
        record_event_(Events, E)
    ;   true
    ).

leaf_event_(M, P) :-
    (   nb_current(pyab_events, Events),
        compound(Events)
    ->  record_event_(Events, s(P)),
        (   arg(3, Events, trace)
        ->  assertz(M:'$pyab_event'(s, P))
        ;   true
        )
    ;   true
    ).

record_event_(Events, E) :-
    arg(1, Events, N0),
    N is N0 + 1,
    arg(2, Events, Store),
    (   nb_setarg(N, Store, E)          % fails when N is past the end
    ->  true
    ;   compound_name_arguments(Store, Name, Args),
        length(Args, Size),
        length(More, Size),
        append(Args, More, Args2),
        compound_name_arguments(Bigger, Name, Args2),
        nb_setarg(N, Bigger, E),
        nb_setarg(2, Events, Bigger)
    ),
    nb_setarg(1, Events, N).

run_limited(Seconds, Goal) :-
    (   Seconds =:= 0
    ->  once(Goal)
    ;   call_with_time_limit(Seconds, once(Goal))
    ).

%   Without a limit from the caller, a big tree gets room: the slides'
%   program recurses once per sibling (boundedbest/5 and goodenough/7 are
%   not tail calls), about 1 Kb of stack per node, so a flat tree of a
%   million leaves needs about the whole default limit of 1 Gb.  Allow
%   2 Kb per node when that is more than the current limit.

stack_limit_option_([], Tree, Limit) :-
    tree_nodes_(Tree, Nodes),
    Need is 2048 * Nodes,
    current_prolog_flag(stack_limit, Current),
    (   Need > Current
    ->  Limit = Need
    ;   Limit = default
    ).
stack_limit_option_([LimitS], _, Limit) :-
    number_string(Limit, LimitS),
    must_be(positive_integer, Limit).

%   Counting the clauses of a dynamic predicate walks them (20 ms for a
%   million nodes, twice a solve), so the count of the last tree asked
%   about is kept, with the generations at which min_to_move/1 and
%   max_to_move/1 last changed: any assert or retract, a reload or a
%   recycled module makes it count again.

:- dynamic tree_nodes_cache_/3.         % Tree, Generations, Nodes

tree_nodes_(Tree, Nodes) :-
    (   predicate_property(Tree:min_to_move(_), last_modified_generation(G1)),
        predicate_property(Tree:max_to_move(_), last_modified_generation(G2))
    ->  (   tree_nodes_cache_(Tree, G1-G2, Nodes0)
        ->  Nodes = Nodes0
        ;   count_nodes_(Tree, Nodes),
            retractall(tree_nodes_cache_(_, _, _)),
            assertz(tree_nodes_cache_(Tree, G1-G2, Nodes))
        )
    ;   count_nodes_(Tree, Nodes)
    ).

count_nodes_(Tree, Nodes) :-
    aggregate_all(sum(N),
                  ( member(Side, [min_to_move(_), max_to_move(_)]),
                    predicate_property(Tree:Side, number_of_clauses(N)) ),
                  Nodes).

%   The stack_limit flag is thread-local, so setting it around the goal
%   limits exactly this search.

with_stack_limit_(default, Goal) :-
    !,
    call(Goal).
with_stack_limit_(Limit, Goal) :-
    current_prolog_flag(stack_limit, Old),
    setup_call_cleanup(set_prolog_flag(stack_limit, Limit),
                       Goal,
                       set_prolog_flag(stack_limit, Old)).

ensure_program(Tree, Prog, _) :-
    program_module(Tree, Prog, _),
    !,
    retractall(program_idle_(Prog)).
ensure_program(Tree, Prog, File) :-
    catch(ensure_program_(Tree, Prog, File), E,
          ( discard_program_(Prog, File), throw(E) )).

%   A program that fails to load (one of its directives throws, say) must
%   leave no half-made module behind: the next attempt would trip over it
%   ("No permission to module_property class temporary") and drop/1, which
%   knows only registered programs, would never remove it.

discard_program_(Prog, File) :-
    atom_string(FileA, File),
    format(atom(Id), '~w@~w', [FileA, Prog]),
    catch(unload_file(Id), _, true),
    destroy(Prog).

ensure_program_(Tree, Prog, File) :-
    atom_string(FileA, File),
    format(atom(Id), '~w@~w', [FileA, Prog]),
    set_module(Prog:class(temporary)),  % before anything is loaded into it
    % Like the tree module (tree_module_/2), the program sees nothing of
    % `user`: a user:alphabeta/5 or user:moves/2 (the slides consulted in the
    % REPL) must never stand in for the tree's or the program's own.
    set_module(Prog:base(system)),
    add_import_module(Prog, Tree, start),
    program_stamp_of_(FileA, Stamp),
    setup_call_cleanup(open(FileA, read, S),
                       Prog:load_files(Id, [stream(S), silent(true)]),
                       close(S)),
    assertz(program_stamp_(Prog, FileA, Stamp)),
    assertz(program_module(Tree, Prog, Id)).

:- dynamic program_stamp_/3.            % ProgModule, File, Time-Size

%   The file as it was when it was loaded into a program module: a
%   recycled tree module keeps its program modules only while their files
%   are unchanged (refresh_programs_/1).

program_stamp_of_(File, Time-Size) :-
    time_file(File, Time),
    size_file(File, Size).
