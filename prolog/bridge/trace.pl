/*  Part of pyab_bridge (prolog/pyab_bridge.pl), included there.

    The traced search of the slides' program: every call, leaf, newbounds/6
    answer, cut-off and return, observed by wrapping the program module.
*/

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
