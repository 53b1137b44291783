/*  Part of pyab_bridge (prolog/pyab_bridge.pl), included there.

    Trees given as rules (prolog/trees/, prolog/games/): loading a rules
    file with its parameters, and counting instead of naming on big runs.
*/

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
