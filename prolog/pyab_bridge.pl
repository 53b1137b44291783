:- module(pyab_bridge,
          [ load_tree/2,       % +Module, +FactText
            load_tree_safe/3,  % +Module, +FactText, -Out
            load_packed_safe/4, % +Module, +Names, +Shape, -Out
            load_rules/3,      % +Module, +RulesFile, +ParamText
            load_rules_safe/4, % +Module, +RulesFile, +ParamText, -Out
            rules_mode/2,      % +Module, +Mode
            live_modules_text/1,
            solve/9,           % +Tree, +Prog, +File, +Alg, +Root, +Alpha, +Beta, +Opts, -Out
            solve_traced/8,    % +Tree, +Prog, +File, +Root, +Alpha, +Beta, +Opts, -Out
            drop/1,            % +Module
            recycle/1,         % +Module
            live_modules/1,    % -Count
            resource_counts_text/1  % -Text
          ]).
/** <module> The Prolog half of pyab's bridge

Python hands over data only as string arguments; nothing it sends is ever
read as a goal.  A tree lives in its own module (facts only); each search
program gets a module of its own that imports the tree module, so the
program finds moves/2, staticval/2, min_to_move/1 and max_to_move/1 there.

Observation: moves/2 and staticval/2 of the tree module are wrapped with
wrap_predicate/4.  Every call is recorded, in order, as an event; the
program file itself is loaded unchanged.

Answers go back as one string, fields separated by NUL (names may hold
any other character; the DSL refuses NUL in names).
*/

:- use_module(library(prolog_wrap)).
:- use_module(library(time)).
:- use_module(library(lists)).
:- use_module(library(apply)).

:- dynamic program_module/3.            % TreeModule, ProgModule, SourceId

%!  entry(+Algorithm, +Root, +Alpha, +Beta, +Depth, -Best, -Val, -Goal) is semidet.
%
%   The goal that runs Algorithm on Root, called in the program module.
%   Depth is `inf` or a non-negative integer (for depth-limited searches).

entry(bratko, Root, Alpha, Beta, _Depth, Best, Val,
      alphabeta(Root, Alpha, Beta, Best, Val)).
entry(aima, Root, Alpha, Beta, Depth, Best, Val,
      alpha_beta_search(Root, Alpha, Beta, Depth, Best, Val)).
entry('cpw-minmax', Root, Alpha, Beta, Depth, Best, Val,
      cpw_minmax(Root, Alpha, Beta, Depth, Best, Val)).
entry('cpw-negamax', Root, Alpha, Beta, Depth, Best, Val,
      cpw_negamax(Root, Alpha, Beta, Depth, Best, Val)).
entry('cpw-failsoft', Root, Alpha, Beta, Depth, Best, Val,
      cpw_failsoft(Root, Alpha, Beta, Depth, Best, Val)).
entry(module22, Root, Alpha, Beta, Depth, Best, Val,
      module22(Root, Alpha, Beta, Depth, Best, Val)).
entry('hsu-f1', Root, Alpha, Beta, Depth, Best, Val,
      hsu_f1(Root, Alpha, Beta, Depth, Best, Val)).
entry('hsu-f2', Root, Alpha, Beta, Depth, Best, Val,
      hsu_f2(Root, Alpha, Beta, Depth, Best, Val)).
entry('hsu-f3', Root, Alpha, Beta, Depth, Best, Val,
      hsu_f3(Root, Alpha, Beta, Depth, Best, Val)).
entry('hsu-f1-negamax', Root, Alpha, Beta, Depth, Best, Val,
      hsu_f1_negamax(Root, Alpha, Beta, Depth, Best, Val)).
entry('hsu-f2-negamax', Root, Alpha, Beta, Depth, Best, Val,
      hsu_f2_negamax(Root, Alpha, Beta, Depth, Best, Val)).
entry('hsu-f3-negamax', Root, Alpha, Beta, Depth, Best, Val,
      hsu_f3_negamax(Root, Alpha, Beta, Depth, Best, Val)).
entry(minimax, Root, _Alpha, _Beta, Depth, Best, Val,
      minimax(Root, Depth, Best, Val)).
entry('minimax-negamax', Root, _Alpha, _Beta, Depth, Best, Val,
      negamax(Root, Depth, Best, Val)).

%!  load_tree(+M, +Text) is det.
%
%   Declare the tree predicates in module M, assert the facts read from
%   Text, and wrap moves/2 and staticval/2 to record the search.  Only
%   tree/2, staticval/2, min_to_move/1, max_to_move/1 facts with ground
%   arguments and the moves/2 bridge clause are accepted; anything else is
%   a domain_error and M is dropped again.

load_tree(M, Text) :-
    claim_module_(M, Fresh),
    catch(load_tree_(M, Fresh, Text), E, (drop(M), throw(E))).

%!  load_tree_safe(+M, +Text, -Out) is det.
%
%   load_tree/2 for callers that want errors as text: Out is "ok" or
%   "error<NUL>Message<NUL>Term".

load_tree_safe(M, Text, Out) :-
    catch(( load_tree(M, Text), Out = "ok" ), E, error_out(E, Out)).

load_tree_(M, Fresh, Text) :-
    tree_module_(Fresh, M),
    setup_call_cleanup(open_string(Text, S),
                       read_facts(S, M),
                       close(S)),
    observe_tree_(Fresh, M).

%   claim_module_(+M, -Fresh): M is a new module (Fresh = true) or one that
%   recycle/1 emptied (Fresh = false, and M is no longer free).  Anything
%   else by that name is a permission error, and is left alone.

claim_module_(M, Fresh) :-
    must_be(atom, M),
    (   retract(free_module_(M))
    ->  Fresh = false,
        refresh_programs_(M)
    ;   current_module(M)
    ->  permission_error(create, module, M)
    ;   Fresh = true
    ).

tree_module_(false, _) :-
    !.                                  % a recycled module is set up already
tree_module_(true, M) :-
    set_module(M:class(temporary)),     % so that drop/1 may destroy it
    set_module(M:base(system)),         % see no user predicates
    forall(member(N/A, [tree/2, staticval/2, min_to_move/1, max_to_move/1,
                        '$pyab_event'/2]),
           dynamic(M:N/A)).

%   The slides' moves/2 bridge (unless the text brought it) and, in a new
%   module, the wrappers that record the search (a recycled module keeps
%   its own: recycle/1).

observe_tree_(Fresh, M) :-
    (   predicate_property(M:moves(_, _), number_of_clauses(N)), N > 0
    ->  true
    ;   assertz(M:(moves(Pos, Moves) :- tree(Pos, Moves)))
    ),
    (   Fresh == true
    ->  observe_new_tree_(M)
    ;   true
    ).

observe_new_tree_(M) :-
    wrap_predicate(M:moves(P1, _), pyab_observe, W1,
                   ( pyab_bridge:event_(P1), W1 )),
    wrap_predicate(M:staticval(P2, _), pyab_observe, W2,
                   ( pyab_bridge:leaf_event_(M, P2), W2 )).

read_facts(S, M) :-
    read_term(S, T, [syntax_errors(error)]),
    (   T == end_of_file
    ->  true
    ;   add_fact(T, M),
        read_facts(S, M)
    ).

add_fact(T, M) :-
    (   fact(T)
    ->  assertz(M:T)
    ;   T = (moves(P, L) :- tree(P1, L1)), var(P), var(L), P == P1, L == L1
    ->  assertz(M:T)
    ;   T = (:- Directive), harmless_directive(Directive)
    ->  true
    ;   domain_error(pyab_fact, T)
    ).

harmless_directive(dynamic(_)).
harmless_directive(encoding(utf8)).

fact(tree(P, L)) :- atom(P), is_list(L), maplist(atom, L).
fact(staticval(P, V)) :- atom(P), number(V).
fact(min_to_move(P)) :- atom(P).
fact(max_to_move(P)) :- atom(P).

%!  load_packed_safe(+M, +Names, +Shape, -Out) is det.
%
%   load_tree_safe/3 for a tree sent packed rather than as fact text: the
%   same clauses, asserted in the same order, without reading a million
%   terms (see docs/performance.md).  Names holds every node's name in tree
%   order (depth-first pre-order), separated by NUL.  Shape is the text of
%   shape(Sides, Kids, Values): Sides a string with a code per node, `x`
%   when MAX is to move there and `n` for MIN; Kids a list Id-KidIds for
%   each inner node in ascending order, nodes numbered from 1 in tree
%   order; Values every node's value, `n` where it has none.

load_packed_safe(M, Names, Shape, Out) :-
    catch(( load_packed(M, Names, Shape), Out = "ok" ), E, error_out(E, Out)).

load_packed(M, Names, Shape) :-
    claim_module_(M, Fresh),
    catch(load_packed_(M, Fresh, Names, Shape), E, (drop(M), throw(E))).

load_packed_(M, Fresh, NamesS, ShapeS) :-
    atomic_list_concat(NameList, '\u0000', NamesS),
    compound_name_arguments(Names, names, NameList),
    term_string(Shape, ShapeS, [syntax_errors(error)]),
    (   Shape = shape(SidesS, Kids, Values),
        string(SidesS),
        string_codes(SidesS, Sides),
        same_length(NameList, Sides),
        is_list(Values),
        same_length(NameList, Values),
        is_list(Kids)
    ->  true
    ;   domain_error(pyab_packed_shape, ShapeS)
    ),
    tree_module_(Fresh, M),
    packed_nodes_(Sides, Values, 1, Names, M),
    forall(member(Kid, Kids), packed_kids_(Kid, Names, M)),
    observe_tree_(Fresh, M).

packed_nodes_([], [], _, _, _).
packed_nodes_([S|Ss], [V|Vs], I, Names, M) :-
    arg(I, Names, P),
    (   S == 0'x
    ->  assertz(M:max_to_move(P))
    ;   S == 0'n
    ->  assertz(M:min_to_move(P))
    ;   domain_error(pyab_side, S)
    ),
    (   V == n
    ->  true
    ;   number(V)
    ->  assertz(M:staticval(P, V))
    ;   domain_error(pyab_value, V)
    ),
    I1 is I + 1,
    packed_nodes_(Ss, Vs, I1, Names, M).

packed_kids_(I-Ks, Names, M) :-
    packed_name_(Names, I, P),
    maplist(packed_name_(Names), Ks, L),
    assertz(M:tree(P, L)).

packed_name_(Names, I, P) :-
    (   integer(I), arg(I, Names, P0)
    ->  P = P0
    ;   domain_error(pyab_node_id, I)
    ).

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

%!  solve_traced(+Tree, +Prog, +File, +RootS, +AlphaS, +BetaS, +Opts, -Out) is det.
%
%   solve/9 for the slides' program (or any file with the same
%   alphabeta/5, goodenough/7 and newbounds/6), step by step.  Prog must
%   be a module used for traced runs only: its alphabeta/5, goodenough/7
%   and newbounds/6 are wrapped (wrap_predicate/4, the file stays as
%   loaded) to record, in order:
%
%     - call(Pos, Alpha, Beta)       alphabeta/5 entered
%     - leaf(Pos, Val)               alphabeta/5 answered after staticval/2
%     - bounds(Pos, Val, A, B, NA, NB)  newbounds/6 answered
%     - cut(Pos, Val, A, B, Kind, Rest) goodenough/7 answered by its cut
%     - return(Pos, GoodPos, Val)    alphabeta/5 answered
%
%   Out is solve/9's answer followed by the events, each as its name and
%   its fields (cut: the count of Rest, then Rest; return: a flag for a
%   bound GoodPos, then GoodPos).

solve_traced(Tree, Prog, File, RootS, AlphaS, BetaS, OptsS, Out) :-
    (   catch(solve_traced_(Tree, Prog, File, RootS, AlphaS, BetaS, OptsS, Out0),
              E, error_out(E, Out0))
    ->  true
    ;   Out0 = "fail"
    ),
    retractall(trace_event_(Prog, _)),
    Out = Out0.

solve_traced_(Tree, Prog, File, RootS, AlphaS, BetaS, OptsS, Out) :-
    ensure_program(Tree, Prog, File),
    ensure_traced_(Tree, Prog),
    retractall(trace_event_(Prog, _)),
    setup_call_cleanup(nb_setval(pyab_traced, true),
                       solve_(Tree, Prog, File, bratko, RootS, AlphaS, BetaS, OptsS, Out1),
                       nb_setval(pyab_traced, false)),
    (   sub_string(Out1, 0, _, _, "ok\u0000")
    ->  findall(E, trace_event_(Prog, E), Events),
        foldl(event_fields_, Events, Fields, []),
        atomic_list_concat([Out1|Fields], '\u0000', OutA),
        atom_string(OutA, Out)
    ;   Out = Out1
    ).

:- dynamic trace_event_/2.              % ProgModule, Event
:- dynamic traced_/2.                   % TreeModule, ProgModule

%   Wrap once per program module (the module is used for traced runs only).

ensure_traced_(Tree, Prog) :-
    traced_(Tree, Prog),
    !.
ensure_traced_(Tree, Prog) :-
    % The wrapper bodies run in the wrapped predicate's module: qualify.
    wrap_predicate(Prog:alphabeta(P, A, B, G, V), pyab_trace, W1,
                   ( pyab_bridge:trace_(Prog, call(P, A, B)),
                     W1,
                     pyab_bridge:alphabeta_exit_(Tree, Prog, P, G, V) )),
    wrap_predicate(Prog:newbounds(A2, B2, P2, V2, NA, NB), pyab_trace, W2,
                   ( W2,
                     pyab_bridge:trace_(Prog, bounds(P2, V2, A2, B2, NA, NB)) )),
    wrap_predicate(Prog:goodenough(L, A3, B3, P3, V3, G3, GV), pyab_trace, W3,
                   ( W3,
                     pyab_bridge:goodenough_exit_(Tree, Prog, L, A3, B3, P3, V3, G3, GV) )),
    assertz(traced_(Tree, Prog)).

trace_(Prog, Event) :-
    assertz(trace_event_(Prog, Event)).

%   A leaf: the tree module's own wrapper (load_tree/2) saw staticval/2
%   called on Pos, so alphabeta/5 took its staticval branch and Val is the
%   static value.  (A second wrapper on staticval/2 would be simpler, but
%   destroying a module whose predicate carries two wrappers crashed
%   SWI-Prolog 9.0.4 embedded in Python: "double free or corruption".)

alphabeta_exit_(Tree, Prog, Pos, GoodPos, Val) :-
    (   Tree:'$pyab_event'(s, Pos)
    ->  trace_(Prog, leaf(Pos, Val))
    ;   true
    ),
    trace_(Prog, return(Pos, GoodPos, Val)).

%   Which clause of goodenough/7 answered?  Clause 1 takes an empty list;
%   clause 3 searches the next sibling (alphabeta/5 is called on it) before
%   it answers.  So when the list is not empty and its first position was
%   never called, the search stopped here: clause 2, the cut.  This looks
%   at what happened (a sibling never searched) rather than re-testing the
%   clause's conditions.  Each node is searched at most once by this
%   program, so "never called" and "not called since this goodenough/7
%   started" are the same.  The kind follows from who moves in Pos:
%   min_to_move(Pos) can only have passed the first disjunct (Val > Beta,
%   a beta cut-off); max_to_move(Pos) the second (Val < Alpha, alpha).

goodenough_exit_(Tree, Prog, PosList, Alpha, Beta, Pos, Val, _, _) :-
    (   PosList = [Next|_],
        \+ trace_event_(Prog, call(Next, _, _))
    ->  (   Tree:min_to_move(Pos) -> Kind = beta ; Kind = alpha ),
        trace_(Prog, cut(Pos, Val, Alpha, Beta, Kind, PosList))
    ;   true
    ).

event_fields_(call(P, A, B)) -->
    [call], name_field_(P), number_field_(A), number_field_(B).
event_fields_(leaf(P, V)) -->
    [leaf], name_field_(P), number_field_(V).
event_fields_(bounds(P, V, A, B, NA, NB)) -->
    [bounds], name_field_(P), number_field_(V),
    number_field_(A), number_field_(B), number_field_(NA), number_field_(NB).
event_fields_(cut(P, V, A, B, Kind, Rest)) -->
    { length(Rest, N) },
    [cut], name_field_(P), number_field_(V), number_field_(A), number_field_(B),
    [Kind, N],
    names_fields_(Rest).
event_fields_(return(P, G, V)) -->
    [return], name_field_(P),
    (   { var(G) } -> ["0", ""] ; ["1"], name_field_(G) ),
    number_field_(V).

name_field_(P) --> { name_text(P, S) }, [S].
number_field_(X) --> { format(string(S), "~q", [X]) }, [S].
names_fields_([]) --> [].
names_fields_([P|Ps]) --> name_field_(P), names_fields_(Ps).

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

%!  drop(+M) is det.
%
%   Remove tree module M and every program module loaded for it.

drop(M) :-
    catch(drop_(M), E, (print_message(warning, E), fail)),
    !.
drop(_).

drop_(M) :-
    retractall(free_module_(M)),
    retractall(rules_module_(M, _)),
    forall(program_module(M, P, _), forget_program_(M, P)),
    forall(retract(traced_(M, P)), retractall(trace_event_(P, _))),
    destroy(M).

%   Unload program module P of tree module M and destroy it.  (A rules
%   module is its own program module: P == M.)

forget_program_(M, P) :-
    % Tables are kept by module name, not in the module: a later module of
    % the same name (recycling reuses names) would find them.
    catch(abolish_module_tables(P), _, true),
    retractall(program_idle_(P)),
    retractall(traced_(M, P)),
    retractall(trace_event_(P, _)),
    retractall(program_stamp_(P, _, _)),
    forall(retract(program_module(M, P, Id)),
           catch(unload_file(Id), _, true)),
    destroy(P).

destroy(M) :-
    (   current_module(M)
    ->  forall(( current_predicate(M:N/A), functor(H, N, A),
                 \+ predicate_property(M:H, imported_from(_)) ),
               catch(abolish(M:N/A), _, true)),
        '$destroy_module'(M)
    ;   true
    ).


                 /*******************************
                 *    RECYCLING TREE MODULES    *
                 *******************************/

%   SWI-Prolog 9.0.4 never frees a wrap_predicate/4 closure, and a
%   temporary module destroyed after a file was loaded into it keeps a few
%   hundred bytes: destroying a tree's module leaves about 2 Kb behind.  So
%   a fact tree's module is emptied and reused instead, with its wrappers
%   and its program modules.  The free list is free_module_/1; the names
%   are chosen by Python (pyab/prolog.py), which keeps its own list of the
%   modules recycle/1 accepted.

:- dynamic free_module_/1.              % TreeModule
:- dynamic program_idle_/1.             % ProgModule kept by recycle/1, unused since

%!  recycle(+M) is semidet.
%
%   Empty the fact tree module M of a tree that is gone, for the next tree:
%   retract its facts (tree/2, staticval/2, min_to_move/1, max_to_move/1,
%   the moves/2 bridge) and its recorded events, and forget the traced
%   events of its programs.  M keeps its wrappers and its program modules,
%   except a program module with a dynamic or tabled predicate of its own
%   (which could carry state to the next tree): that one is destroyed.
%   load_tree/2 and load_packed_safe/4 then load into M again.
%
%   Fails, after dropping M altogether (drop/1), when M is not a fact tree
%   module in use (a rules module, one already free, no module) or when it
%   does not come out empty.

recycle(M) :-
    must_be(atom, M),
    (   catch(recycle_(M), E, (print_message(warning, E), fail))
    ->  true
    ;   drop(M),
        fail
    ).

recycle_(M) :-
    current_module(M),
    \+ rules_module_(M, _),
    \+ free_module_(M),
    \+ program_module(_, M, _),
    forall(tree_predicate_(H), retractall(M:H)),
    \+ ( own_dynamic_(M, H),              % no other fact came in
         predicate_property(M:H, number_of_clauses(C)),
         C > 0
       ),
    forall(traced_(M, P), retractall(trace_event_(P, _))),
    forall(( program_module(M, P, _), stateful_program_(P) ),
           forget_program_(M, P)),
    forall(program_module(M, P, _),
           ( retractall(program_idle_(P)), assertz(program_idle_(P)) )),
    assertz(free_module_(M)).

tree_predicate_(tree(_, _)).
tree_predicate_(staticval(_, _)).
tree_predicate_(min_to_move(_)).
tree_predicate_(max_to_move(_)).
tree_predicate_(moves(_, _)).
tree_predicate_('$pyab_event'(_, _)).

stateful_program_(P) :-
    (   own_dynamic_(P, _)
    ->  true
    ;   current_predicate(P:N/A),
        functor(H, N, A),
        predicate_property(P:H, tabled)
    ->  true
    ).

%   A dynamic predicate of M's own.  The clause that wrap_predicate/4 keeps
%   for a wrapper's body lives in a dynamic predicate named '$wrap$'Name
%   ('$wrap_predicate'/5 in SWI-Prolog's boot/syspred.pl): that is the
%   observation, not data.

own_dynamic_(M, H) :-
    current_predicate(M:N/A),
    \+ sub_atom(N, 0, _, _, '$wrap$'),
    functor(H, N, A),
    \+ predicate_property(M:H, imported_from(_)),
    predicate_property(M:H, dynamic).

%   When a new tree claims a recycled module: a program file changed since
%   it was loaded is loaded afresh (as it would be for a new module).

refresh_programs_(M) :-
    forall(( program_module(M, P, _), \+ program_unchanged_(P) ),
           forget_program_(M, P)).

program_unchanged_(P) :-
    program_stamp_(P, File, Stamp),
    catch(program_stamp_of_(File, Stamp), _, fail).

%!  live_modules(-Count) is det.
%
%   How many tree and program modules are in use (for leak tests): free
%   tree modules (recycle/1) are not counted, nor the program modules they
%   kept until a search of the next tree uses them again.

live_modules_text(Text) :-
    live_modules(Count),
    number_string(Count, Text).

live_modules(Count) :-
    aggregate_all(count, live_module_(_), Count).

%   current_module/1 does not enumerate modules of class `temporary` (the
%   class every tree and program module gets), so walk the atoms instead and
%   ask about each candidate by name.

live_module_(M) :-
    current_atom(M),
    sub_atom(M, 0, _, _, pyab_t),
    current_module(M),
    \+ free_(M).

free_(M) :-
    free_module_(M),
    !.
free_(P) :-
    program_idle_(P).

%!  resource_counts_text(-Text) is det.
%
%   Text is "Modules Atoms TextAtoms Closures Free", right after a stack and
%   an atom garbage collection, for leak tests: tree/program modules in use, the
%   atom table's size (statistics/2 key `atoms`, which counts blobs too),
%   the text atoms among them, and the closure blobs (wrap_predicate/4
%   makes one per wrapper; SWI-Prolog 9.0.4 never frees them), and the
%   free tree modules waiting to be reused (recycle/1).
%
%   The stack garbage collection first: atom garbage collection keeps every
%   atom that dead terms on the global stack still name, and after a big
%   search (a stack grown to hundreds of Mb, collected rarely) that was
%   thousands of atoms of later trees, which looked like a leak.

resource_counts_text(Text) :-
    garbage_collect,
    garbage_collect_atoms,
    live_modules(Modules),
    statistics(atoms, Atoms),
    aggregate_all(count, current_blob(_, text), TextAtoms),
    aggregate_all(count, current_blob(_, closure), Closures),
    aggregate_all(count, free_module_(_), Free),
    format(string(Text), "~d ~d ~d ~d ~d", [Modules, Atoms, TextAtoms, Closures, Free]).


                 /*******************************
                 *     TREES GIVEN AS RULES     *
                 *******************************/

%   A rules file (prolog/trees/uniform.pl, prolog/games/tictactoe.pl) is a
%   plain file that defines moves/2, staticval/2, min_to_move/1 and
%   max_to_move/1 as rules over its own positions, plus root/1 (the root
%   position) and position_name/2 (a position's name, atom or string).
%   Its parameters are dynamic predicates of the file; their facts come
%   from Python as text and are only ever asserted.

:- dynamic rules_module_/2.             % Module, Mode

%!  load_rules(+M, +File, +ParamText) is det.
%
%   Load the rules file File into a fresh temporary module M, assert the
%   parameter facts read from ParamText, and wrap moves/2 and staticval/2
%   like load_tree/2 does.  A parameter fact must be ground and belong to
%   a predicate the file declares dynamic (and not one of the four game
%   predicates); anything else is a domain_error and M is dropped again.

load_rules(M, File, Text) :-
    must_be(atom, M),
    (   current_module(M)
    ->  permission_error(create, module, M)
    ;   true
    ),
    catch(load_rules_(M, File, Text), E, (drop(M), throw(E))).

%!  load_rules_safe(+M, +File, +ParamText, -Out) is det.
%
%   load_rules/3 with errors as text, like load_tree_safe/3.

load_rules_safe(M, File, Text, Out) :-
    catch(( load_rules(M, File, Text), Out = "ok" ), E, error_out(E, Out)).

load_rules_(M, File, Text) :-
    set_module(M:class(temporary)),
    set_module(M:base(system)),
    dynamic(M:'$pyab_event'/2),
    atom_string(FileA, File),
    format(atom(Id), '~w@~w', [FileA, M]),  % one source per module
    setup_call_cleanup(open(FileA, read, S),
                       M:load_files(Id, [stream(S), silent(true)]),
                       close(S)),
    setup_call_cleanup(open_string(Text, PS),
                       read_params_(PS, M),
                       close(PS)),
    forall(member(H, [moves(_, _), staticval(_, _), min_to_move(_),
                      max_to_move(_), root(_), position_name(_, _)]),
           (   predicate_property(M:H, defined)
           ->  true
           ;   functor(H, N, A),
               existence_error(procedure, File:N/A)
           )),
    rules_mode_(M, names),
    assertz(program_module(M, M, Id)),   % so that drop/1 unloads Id
    wrap_predicate(M:moves(P1, _), pyab_observe, W1,
                   ( pyab_bridge:observe_(M, m, P1), W1 )),
    wrap_predicate(M:staticval(P2, _), pyab_observe, W2,
                   ( pyab_bridge:observe_(M, s, P2), W2 )).

read_params_(S, M) :-
    read_term(S, T, [syntax_errors(error)]),
    (   T == end_of_file
    ->  true
    ;   param_fact_(T, M)
    ->  assertz(M:T),
        read_params_(S, M)
    ;   domain_error(pyab_parameter, T)
    ).

param_fact_(T, M) :-
    callable(T),
    ground(T),
    \+ T = (_ :- _),
    \+ T = (:- _),
    functor(T, N, A),
    \+ memberchk(N/A, [moves/2, staticval/2, min_to_move/1, max_to_move/1]),
    predicate_property(M:T, dynamic),
    \+ predicate_property(M:T, imported_from(_)).

%   What the wrappers do is set per solve (rules_mode/2 is called before
%   each one; calls are serialised): `names` records every call as an event
%   (as load_tree/2 does); `counts` only counts, in the global variable
%   pyab_rules, a term rules(Mode, Leaves, Visited, Last): every
%   staticval/2 call is a leaf read, and a call on a position other than
%   the one queried just before (Last) is a node visited.  That equals the
%   number of distinct positions for any search that asks about a node in
%   one go (moves/2, then staticval/2 if it has no moves), as every program
%   here does; the tests hold the two modes against each other.  `quiet`
%   records nothing (walking the tree to collect the answer).

observe_(M, K, P) :-
    nb_getval(pyab_rules, State),
    arg(1, State, Mode),
    observe_(Mode, State, M, K, P).

observe_(names, _, M, K, P) :-
    assertz(M:'$pyab_event'(K, P)).
observe_(counts, State, _, K, P) :-
    arg(4, State, Last),
    (   P == Last
    ->  true
    ;   arg(3, State, V0),
        V is V0 + 1,
        nb_setarg(3, State, V),
        nb_setarg(4, State, P)
    ),
    (   K == s
    ->  arg(2, State, L0),
        L is L0 + 1,
        nb_setarg(2, State, L)
    ;   true
    ).
observe_(quiet, _, _, _, _).

%!  rules_mode(+M, +Mode) is det.
%
%   Mode is "names" (the observed lists, as for fact trees) or "counts"
%   (only how many leaves and nodes were read) for the next solves of M.

rules_mode(M, ModeS) :-
    atom_string(Mode, ModeS),
    must_be(oneof([names, counts]), Mode),
    (   rules_module_(M, _)
    ->  rules_mode_(M, Mode)
    ;   existence_error(pyab_rules_module, M)
    ).

root_position_(Tree, RootS, Root) :-
    (   rules_module_(Tree, _)
    ->  Tree:root(Root)
    ;   atom_string(Root, RootS)
    ).

%   The answer for a rules module: the same fields as collect/4, with each
%   position written by position_name/2.  In `counts` mode the three counts
%   are followed by no names (pruned is not counted: 0).

collect_rules_(counts, Tree, Best, Val, Out) :-
    nb_getval(pyab_rules, rules(_, NL, NV, _)),
    best_text_(Tree, Best, BestFlag, BestS),
    format(string(ValS), "~q", [Val]),
    atomic_list_concat(["ok", BestFlag, BestS, ValS, NL, NV, 0], '\u0000', OutA),
    atom_string(OutA, Out).
collect_rules_(names, Tree, Best, Val, Out) :-
    findall(K-P, Tree:'$pyab_event'(K, P), Events),
    findall(P, member(s-P, Events), Leaves),
    first_occurrences(Events, Visited),
    setup_call_cleanup(rules_mode_(Tree, quiet),
                       rules_pruned_(Tree, Visited, Pruned),
                       rules_mode_(Tree, names)),
    best_text_(Tree, Best, BestFlag, BestS),
    format(string(ValS), "~q", [Val]),
    length(Leaves, NL), length(Visited, NV), length(Pruned, NP),
    maplist(position_text_(Tree), Leaves, LeafS),
    maplist(position_text_(Tree), Visited, VisitedS),
    maplist(position_text_(Tree), Pruned, PrunedS),
    append([["ok", BestFlag, BestS, ValS, NL, NV, NP], LeafS, VisitedS, PrunedS], Parts),
    atomic_list_concat(Parts, '\u0000', OutA),
    atom_string(OutA, Out).

rules_mode_(M, Mode) :-
    retractall(rules_module_(M, _)),
    assertz(rules_module_(M, Mode)),
    nb_setval(pyab_rules, rules(Mode, 0, 0, '$none')).

best_text_(Tree, Best, BestFlag, BestS) :-
    (   var(Best)
    ->  BestFlag = "0", BestS = ""
    ;   BestFlag = "1", position_text_(Tree, Best, BestS)
    ).

position_text_(Tree, P, S) :-
    Tree:position_name(P, N),
    text_to_string(N, S).

%   As pruned/3, but the children come from moves/2 (called while the
%   wrappers record nothing), and positions are compared as terms.

rules_pruned_(_, [], []) :- !.
rules_pruned_(Tree, [Root|Visited], Pruned) :-
    findall(V-t, member(V, Visited), Pairs),
    list_to_assoc([Root-t|Pairs], Seen),
    rules_walk_([node(Root)], Tree, Seen, Pruned).

rules_walk_([], _, _, []).
rules_walk_([cut(P)|Agenda], Tree, Seen, [P|Pruned]) :-
    rules_walk_(Agenda, Tree, Seen, Pruned).
rules_walk_([node(P)|Agenda0], Tree, Seen, Pruned) :-
    (   Tree:moves(P, Kids)
    ->  maplist(agenda_item(Seen), Kids, Items),
        append(Items, Agenda0, Agenda)
    ;   Agenda = Agenda0
    ),
    rules_walk_(Agenda, Tree, Seen, Pruned).
