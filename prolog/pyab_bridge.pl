:- module(pyab_bridge,
          [ load_tree/2,       % +Module, +FactText
            load_tree_safe/3,  % +Module, +FactText, -Out
            live_modules_text/1,
            solve/9,           % +Tree, +Prog, +File, +Alg, +Root, +Alpha, +Beta, +Opts, -Out
            drop/1,            % +Module
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

%!  load_tree(+M, +Text) is det.
%
%   Declare the tree predicates in module M, assert the facts read from
%   Text, and wrap moves/2 and staticval/2 to record the search.  Only
%   tree/2, staticval/2, min_to_move/1, max_to_move/1 facts with ground
%   arguments and the moves/2 bridge clause are accepted; anything else is
%   a domain_error and M is dropped again.

load_tree(M, Text) :-
    must_be(atom, M),
    (   current_module(M)
    ->  permission_error(create, module, M)
    ;   true
    ),
    catch(load_tree_(M, Text), E, (drop(M), throw(E))).

%!  load_tree_safe(+M, +Text, -Out) is det.
%
%   load_tree/2 for callers that want errors as text: Out is "ok" or
%   "error<NUL>Message<NUL>Term".

load_tree_safe(M, Text, Out) :-
    catch(( load_tree(M, Text), Out = "ok" ), E, error_out(E, Out)).

load_tree_(M, Text) :-
    set_module(M:class(temporary)),     % so that drop/1 may destroy it
    forall(member(N/A, [tree/2, staticval/2, min_to_move/1, max_to_move/1,
                        '$pyab_event'/2]),
           dynamic(M:N/A)),
    setup_call_cleanup(open_string(Text, S),
                       read_facts(S, M),
                       close(S)),
    (   predicate_property(M:moves(_, _), defined)
    ->  true
    ;   assertz(M:(moves(Pos, Moves) :- tree(Pos, Moves)))
    ),
    wrap_predicate(M:moves(P1, _), pyab_observe, W1,
                   ( assertz(M:'$pyab_event'(m, P1)), W1 )),
    wrap_predicate(M:staticval(P2, _), pyab_observe, W2,
                   ( assertz(M:'$pyab_event'(s, P2)), W2 )).

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
    atom_string(Root, RootS),
    number_string(Alpha, AlphaS),
    number_string(Beta, BetaS),
    split_string(OptsS, " ", "", [DepthS, SecondsS|MoreS]),
    (   DepthS == "inf" -> Depth = inf ; number_string(Depth, DepthS) ),
    number_string(Seconds, SecondsS),
    stack_limit_option_(MoreS, StackLimit),
    (   entry(Alg, Root, Alpha, Beta, Depth, Best, Val, Goal)
    ->  true
    ;   domain_error(pyab_algorithm, Alg)
    ),
    retractall(Tree:'$pyab_event'(_, _)),
    (   with_stack_limit_(StackLimit, run_limited(Seconds, Prog:Goal))
    ->  collect(Tree, Best, Val, Out)
    ;   Out = "fail"
    ),
    retractall(Tree:'$pyab_event'(_, _)).

run_limited(Seconds, Goal) :-
    (   Seconds =:= 0
    ->  once(Goal)
    ;   call_with_time_limit(Seconds, once(Goal))
    ).

stack_limit_option_([], default).
stack_limit_option_([LimitS], Limit) :-
    number_string(Limit, LimitS),
    must_be(positive_integer, Limit).

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
    !.
ensure_program(Tree, Prog, File) :-
    atom_string(FileA, File),
    format(atom(Id), '~w@~w', [FileA, Prog]),
    set_module(Prog:class(temporary)),  % before anything is loaded into it
    setup_call_cleanup(open(FileA, read, S),
                       Prog:load_files(Id, [stream(S), silent(true)]),
                       close(S)),
    add_import_module(Prog, Tree, start),
    assertz(program_module(Tree, Prog, Id)).

%   The observed lists.  visited: every node in the order it was first
%   queried (moves/2 or staticval/2); leaves: every staticval/2 call;
%   pruned: unvisited children of visited nodes, in depth-first tree order.

collect(Tree, Best, Val, Out) :-
    findall(K-P, Tree:'$pyab_event'(K, P), Events),
    findall(P, member(s-P, Events), Leaves),
    first_occurrences(Events, Visited),
    pruned(Tree, Visited, Pruned),
    (   var(Best) -> BestFlag = "0", BestA = '' ; BestFlag = "1", BestA = Best ),
    format(string(ValS), "~q", [Val]),
    length(Leaves, NL), length(Visited, NV), length(Pruned, NP),
    maplist(name_text, [BestA|Leaves], [BestS|LeafS]),
    maplist(name_text, Visited, VisitedS),
    maplist(name_text, Pruned, PrunedS),
    append([["ok", BestFlag, BestS, ValS, NL, NV, NP], LeafS, VisitedS, PrunedS], Parts),
    atomic_list_concat(Parts, '\u0000', OutA),
    atom_string(OutA, Out).

name_text(P, S) :-
    (   atom(P) -> atom_string(P, S) ; format(string(S), "~q", [P]) ).

first_occurrences(Events, Visited) :-
    empty_assoc(Seen0),
    first_occurrences_(Events, Seen0, Visited).

first_occurrences_([], _, []).
first_occurrences_([_-P|Es], Seen0, Vs) :-
    (   get_assoc(P, Seen0, _)
    ->  Vs = Vs1, Seen = Seen0
    ;   put_assoc(P, Seen0, t, Seen), Vs = [P|Vs1]
    ),
    first_occurrences_(Es, Seen, Vs1).

pruned(_, [], []) :- !.
pruned(Tree, [Root|Visited], Pruned) :-
    findall(V-t, member(V, Visited), Pairs),
    list_to_assoc([Root-t|Pairs], Seen),
    pruned_walk([node(Root)], Tree, Seen, Pruned).

%   Depth-first, in tree order, over an explicit agenda (no deep recursion on
%   long chains): node(P) expands a visited node into its children, each a
%   node/1 when visited and a cut/1 (a pruned root) when not.

pruned_walk([], _, _, []).
pruned_walk([cut(P)|Agenda], Tree, Seen, [P|Pruned]) :-
    pruned_walk(Agenda, Tree, Seen, Pruned).
pruned_walk([node(P)|Agenda0], Tree, Seen, Pruned) :-
    (   Tree:tree(P, Kids)
    ->  maplist(agenda_item(Seen), Kids, Items),
        append(Items, Agenda0, Agenda)
    ;   Agenda = Agenda0
    ),
    pruned_walk(Agenda, Tree, Seen, Pruned).

agenda_item(Seen, K, Item) :-
    (   get_assoc(K, Seen, _) -> Item = node(K) ; Item = cut(K) ).

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
    forall(retract(program_module(M, P, Id)),
           ( catch(unload_file(Id), _, true),
             destroy(P) )),
    destroy(M).

destroy(M) :-
    (   current_module(M)
    ->  forall(( current_predicate(M:N/A), functor(H, N, A),
                 \+ predicate_property(M:H, imported_from(_)) ),
               catch(abolish(M:N/A), _, true)),
        '$destroy_module'(M)
    ;   true
    ).

%!  live_modules(-Count) is det.
%
%   How many tree and program modules are loaded (for leak tests).

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
    current_module(M).

%!  resource_counts_text(-Text) is det.
%
%   Text is "Modules Atoms": live tree/program modules and the number of
%   atoms in the system (statistics/2 key `atoms`), for leak tests.

resource_counts_text(Text) :-
    live_modules(Modules),
    statistics(atoms, Atoms),
    format(string(Text), "~d ~d", [Modules, Atoms]).
