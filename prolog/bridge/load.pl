/*  Part of pyab_bridge (prolog/pyab_bridge.pl), included there.

    Loading a tree into its module: fact text or the packed form, and the
    observation wrappers on moves/2 and staticval/2.
*/

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
