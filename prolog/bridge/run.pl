:- module(pyab_run,
          [ solve/9,            % +Tree, +Prog, +File, +Alg, +Root, +Alpha, +Beta, +Opts, -Out
            solve_deferred/10,  % +Tree, +Prog, +File, +Alg, +Root, +Alpha, +Beta, +Opts, +Key, -Out
            solve_packed/11,    % +Tree, +Prog, +File, +Alg, +Names, +Shape, +Root, +Alpha, +Beta, +Opts, -Out
            solve_batch/8,      % +Tree, +Prog, +File, +Alg, +Names, +Batch, +Opts, -Out
            deferred_answer/2,  % +Key, -Out
            deferred_free/1,    % +Key
            solve_traced/8,     % +Tree, +Prog, +File, +Root, +Alpha, +Beta, +Opts, -Out
            answer_lists/6,     % +Out, -Head, -Leaves, -Visited, -Pruned, -Rest
            entry/8,            % ?Alg, ?Root, ?Alpha, ?Beta, ?Depth, ?Best, ?Val, -Goal
            algorithm/3         % ?Name, ?PrologFile, ?EntryText
          ]).
/** <module> Running one search and answering with what was observed

The algorithms come from the registry prolog/algorithms.json, which
pyab/search/__init__.py reads too: one row an algorithm, with its Prolog
file and its entry goal as text over the variables Root, Alpha, Beta,
Depth, Best and Val.

Answers go back as one string, fields separated by NUL (names may hold
any other character; the DSL refuses NUL in names).  Errors are not
turned into text here: they reach the caller (Python reads the exception
of the query).
*/

:- use_module(library(prolog_wrap)).
:- autoload(library(time), [call_with_time_limit/2]).  % loaded by the first --timeout
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(error)).
:- use_module(state).
:- use_module(observe).
:- use_module(store).
:- use_module(entry).

                 /*******************************
                 *         THE REGISTRY         *
                 *******************************/

:- dynamic algorithm_/4.                % Name, File, EntryText, e(Root, ..., Val)-Goal

%!  algorithm(?Name, ?File, ?EntryText) is nondet.
%
%   The rows of prolog/algorithms.json, in order.

algorithm(Name, File, Text) :-
    algorithm_(Name, File, Text, _).

%!  entry(+Algorithm, ?Root, ?Alpha, ?Beta, ?Depth, ?Best, ?Val, -Goal) is semidet.
%
%   The goal that runs Algorithm on Root, called in the program module.
%   Depth is `inf` or a non-negative integer (for depth-limited searches).

entry(Alg, Root, Alpha, Beta, Depth, Best, Val, Goal) :-
    algorithm_(Alg, _, _, e(Root, Alpha, Beta, Depth, Best, Val)-Goal).

%   The registry is JSON, and JSON text of the registry's kind (objects,
%   arrays, strings, numbers, true/false) is also a Prolog term: an object
%   {"k": V, ...} reads as a curly term of ':'/2 pairs.  So it is read with
%   term_string/3 instead of library(http/json), whose loading alone took
%   a third of the CPU of a cold `pyab solve` (0.08 of 0.25 s).

load_registry_(File) :-
    retractall(algorithm_(_, _, _, _)),
    setup_call_cleanup(open(File, read, S, [encoding(utf8)]),
                       read_string(S, _, Text),
                       close(S)),
    term_string(Term, Text, [double_quotes(string)]),
    json_get_(Term, "algorithms", Rows),
    forall(member(Row, Rows), registry_row_(Row)).

json_get_({Pairs}, Key, Value) :-
    json_pair_(Pairs, Key, Value),
    !.
json_get_(Object, Key, _) :-
    existence_error(registry_key, Key-Object).

json_pair_((Pair, More), Key, Value) :-
    !,
    (   json_pair_(Pair, Key, Value)
    ;   json_pair_(More, Key, Value)
    ).
json_pair_(Key:Value, Key, Value).

registry_row_(Row) :-
    json_get_(Row, "name", NameS),
    json_get_(Row, "prolog", FileS),
    json_get_(Row, "entry", Entry),
    atom_string(Name, NameS),
    atom_string(File, FileS),
    entry_goal(Entry, Args, Goal),
    assertz(algorithm_(Name, File, Entry, Args-Goal)).

:- prolog_load_context(directory, Dir),
   absolute_file_name('../algorithms.json', File, [relative_to(Dir)]),  % not library(filesex): its loading cost 0.05 s
   load_registry_(File).

                 /*******************************
                 *          ONE SEARCH          *
                 *******************************/

%!  solve(+Tree, +Prog, +File, +Alg, +RootS, +AlphaS, +BetaS, +Opts, -Out) is semidet.
%
%   Run algorithm Alg (program File, loaded once into module Prog) on the
%   tree in module Tree.  RootS, AlphaS and BetaS are strings; the numbers
%   are read with number_string/2 so floats and infinities arrive exact.
%   Opts is a string "Depth Seconds" (`inf` or an integer; 0 = no limit),
%   optionally followed by " StackLimit" (bytes) to run the search under
%   a smaller stack_limit flag than the process's (the old one is put back
%   afterwards, also after a resource error).
%   Out is a string: "ok", best flag, best, value, then the counts and
%   names of leaves, visited and pruned; "fail" when the search failed.
%
%   @error time_limit_exceeded when Seconds pass first
%   @error domain_error(pyab_algorithm, Alg) for an unknown algorithm

solve(Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, Out) :-
    (   rules_module(Tree, _, RulesMode) -> Mode = RulesMode ; Mode = names ),
    search_(Mode, Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, Best, Val, Record),
    !,
    answer_(Tree, Best, Val, Record, Out).
solve(_, _, _, _, _, _, _, _, "fail").

%!  solve_packed(+Tree, +Prog, +File, +Alg, +Names, +Shape, +RootS, +AlphaS, +BetaS, +Opts, -Out) is det.
%
%   load_packed/3, solve/9 and recycle/1 in one call, for a tree searched
%   once (pyab check on random trees): the call from Python, not the
%   search, was most of such a check's cost (five calls a tree, about
%   50 us each, against a search of about 11 us).  Out is solve/9's
%   answer.  Whatever the load or the search throws drops Tree first, so
%   nothing stays half-loaded; after the answer Tree is emptied for the
%   next tree (recycle/1, or dropped when it cannot be: claiming the name
%   again then makes it afresh).

solve_packed(Tree, Prog, File, Alg, Names, Shape, RootS, AlphaS, BetaS, OptsS, Out) :-
    load_packed(Tree, Names, Shape),
    catch(solve(Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, Out),
          E, (drop(Tree), throw(E))),
    ignore(recycle(Tree)).

%!  solve_batch(+Tree, +Prog, +File, +Alg, +Names, +Batch, +Opts, -Out) is det.
%
%   Many small trees searched in one call (pyab check on random trees: a
%   call from Python cost more than loading and searching such a tree).
%   Tree is a module of the rules file prolog/trees/packed.pl
%   (load_rules/3), loaded once for every batch: each tree in turn is put
%   in the global variable that file reads, and searched, observed and
%   answered as solve/9 does; nothing is asserted per tree.  Names holds
%   the names of every tree, one tree after the other, separated by NUL;
%   Batch is the text of a list with an item b(N, Kids, Values, Sides,
%   AlphaS, BetaS) a tree: its N names come next in Names (the first is
%   the root), Kids and Values are packed.pl's terms, Sides a string with
%   a code a node (`x` MAX, `n` MIN), the window two strings as solve/9
%   takes them.  Out is the answers in order, joined by NUL (each answer
%   says how many fields it has).

solve_batch(Tree, Prog, File, Alg, NamesS, BatchS, OptsS, Out) :-
    (   rules_module(Tree, _, _)
    ->  true
    ;   existence_error(pyab_rules_module, Tree)
    ),
    atomic_list_concat(Names, '\u0000', NamesS),
    term_string(Batch, BatchS, [syntax_errors(error)]),
    must_be(list, Batch),
    batch_(Batch, Names, Tree, Prog, File, Alg, OptsS, Answers),
    nb_setval(pyab_packed, none),
    atomic_list_concat(Answers, '\u0000', OutA),
    atom_string(OutA, Out).

batch_([], Rest, _, _, _, _, _, []) :-
    (   Rest == [] -> true ; domain_error(pyab_batch_names, Rest) ).
batch_([B|Bs], Names, Tree, Prog, File, Alg, OptsS, [Out|Outs]) :-
    (   B = b(N, Kids, Values, SidesS, AlphaS, BetaS),
        integer(N), N > 0,
        length(Own, N), append(Own, Rest, Names),
        functor(Kids, k, N), functor(Values, v, N),
        string(SidesS), string_chars(SidesS, Sides), length(Sides, N)
    ->  true
    ;   domain_error(pyab_batch_item, B)
    ),
    NamesT =.. [n|Own],
    SidesT =.. [s|Sides],
    b_setval(pyab_packed, t(NamesT, Kids, Values, SidesT)),  % not copied, as nb_setval/2 would
    solve(Tree, Prog, File, Alg, "", AlphaS, BetaS, OptsS, Out),
    batch_(Bs, Rest, Tree, Prog, File, Alg, OptsS, Outs).

%!  solve_deferred(+Tree, +Prog, +File, +Alg, +RootS, +AlphaS, +BetaS, +Opts, +Key, -Out) is semidet.
%
%   solve/9 without the names: Out is "ok", best flag, best and value
%   only ("fail" when the search failed), and the record is kept in the
%   recorded database under Key until deferred_answer/2 reads it (solve/9's whole
%   answer) or deferred_free/1 drops it.  Naming the nodes is most of
%   an observed run's cost on big trees; a caller that never reads the
%   names does not pay it.

solve_deferred(Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, KeyS, Out) :-
    number_string(Key, KeyS),  % an integer key: an atom per search would stay in the atom table
    (   rules_module(Tree, _, RulesMode) -> Mode = RulesMode ; Mode = names ),
    search_(Mode, Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, Best, Val, Record),
    !,
    head_(Tree, Best, Val, Head),
    recordz(Key, deferred(Tree, Best, Val, Record)),  % not nb_setval/2: global variables are per thread
    atomic_list_concat(Head, '\u0000', OutA),
    atom_string(OutA, Out).
solve_deferred(_, _, _, _, _, _, _, _, _, "fail").

%!  deferred_answer(+Key, -Out) is det.
%
%   The answer solve/9 would have given for the search kept under Key;
%   the record is dropped.

deferred_answer(KeyS, Out) :-
    number_string(Key, KeyS),
    recorded(Key, deferred(Tree, Best, Val, Record), Ref),
    erase(Ref),
    answer_(Tree, Best, Val, Record, Out).

%!  deferred_free(+Key) is det.
%
%   Drop the record kept under Key (nothing when there is none).

%   Whether a record is kept under Key (for tests).

deferred_kept(KeyS) :-
    number_string(Key, KeyS),
    recorded(Key, _).

deferred_free(KeyS) :-
    number_string(Key, KeyS),
    forall(recorded(Key, _, Ref), erase(Ref)).

search_(Mode, Tree, Prog, File, Alg, RootS, AlphaS, BetaS, OptsS, Best, Val, Record) :-
    ensure_program(Tree, Prog, File),
    root_position(Tree, RootS, Root),
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
    record_size_(Tree, StackLimit, Size),
    (   Seconds =:= 0
    ->  Deadline = inf
    ;   get_time(Now),
        Deadline is Now + Seconds
    ),
    % a limit the caller chose (not one raised for a big tree) limits the
    % record too: observe.pl's recorder keeps it on Prolog's stacks
    (   MoreS == [] -> Options = [] ; Options = [compiled(false)] ),
    recording(Mode, Size, Deadline,
              with_stack_limit_(StackLimit, run_limited_(Seconds, Prog:Goal)),
              Record, Options),
    remember_size_(Tree, Record).

%   The first store of a search: room for as many calls as the last
%   search of the same tree made, and an eighth more, so that a warm
%   search neither grows its store nor copies a store much bigger than
%   it needs (recording/5 and recordz/2 copy all of it).  Without one,
%   room for a quarter of the tree's nodes (the slides' program asks
%   about 6% of a million-node tree with the full window), at least
%   1,024 calls (a rules tree: its store grows as needed).  Under a
%   stack limit the caller chose, the store takes at most a 64th of it
%   (a store fitted to the last search of a 100,000-deep chain was more
%   than a limit of 1 Mb, and SWI-Prolog refuses a limit below the
%   stacks in use: a permission error instead of the resource error
%   the search should meet).

record_size_(Tree, StackLimit, Size) :-
    (   record_hint(Tree, Calls)
    ->  Size0 is max(1024, min(Calls + Calls // 8, 1 << 22))
    ;   tree_nodes(Tree, Nodes),
        Size0 is max(1024, min(Nodes // 4, 1 << 20))
    ),
    (   integer(StackLimit)
    ->  Size is max(1024, min(Size0, StackLimit // 64))
    ;   Size = Size0
    ).

remember_size_(Tree, Record) :-
    (   \+ record_counts(Record, _, _),
        arg(2, Record, Calls),
        \+ record_hint(Tree, Calls),
        \+ ( record_hint(Tree, Old),       % the same store either way: the least
             Old + Old // 8 =< 1024,       % (a batch of small trees changes
             Calls + Calls // 8 =< 1024    % nothing here)
           )
    ->  retractall(record_hint(_, _)),
        assertz(record_hint(Tree, Calls))
    ;   true
    ).

run_limited_(Seconds, Goal) :-
    (   Seconds =:= 0
    ->  once(Goal)
    ;   call_with_time_limit(Seconds, once(Goal))
    ).

%   The answer: the observed lists (all derived here, in Prolog).
%   visited: every node in the order it was first queried (moves/2 or
%   staticval/2); leaves: every staticval/2 call; pruned: unvisited
%   children of visited nodes, in depth-first tree order.  A rules tree
%   in `counts` mode gives the counts and no names (pruned: 0).
%
%   When each leaf was read once, in the order visited (every program
%   here), the leaves are not listed again: the leaf count is sent as
%   "f<Count>" and after the visited and pruned names comes one field,
%   a flag per visited node (record_names/8), which pyab/prolog.py reads.

head_(Tree, Best, Val, ["ok", BestFlag, BestS, ValS]) :-
    (   var(Best)
    ->  BestFlag = "0", BestS = ""
    ;   BestFlag = "1", position_text(Tree, Best, BestS)
    ),
    format(string(ValS), "~q", [Val]).

answer_(Tree, Best, Val, Record, Out) :-
    head_(Tree, Best, Val, ["ok", BestFlag, BestS, ValS]),
    (   record_counts(Record, NL, NV)
    ->  Parts = ["ok", BestFlag, BestS, ValS, NL, NV, 0]
    ;   naming_(Tree, Kids, Name, KidNames),
        record_names(Record, Kids, Name, KidNames, Leaves, Visited, Pruned, NL),
        length(Visited, NV), length(Pruned, NP),
        (   Leaves = flags(Flags)
        ->  format(string(NLS), "f~d", [NL]),
            append([["ok", BestFlag, BestS, ValS, NLS, NV, NP], Visited, Pruned, [Flags]], Parts)
        ;   append([["ok", BestFlag, BestS, ValS, NL, NV, NP], Leaves, Visited, Pruned], Parts)
        )
    ),
    atomic_list_concat(Parts, '\u0000', OutA),
    atom_string(OutA, Out).

%!  answer_lists(+Out, -Head, -Leaves, -Visited, -Pruned, -Rest) is semidet.
%
%   Read the answer of solve/9 or solve_traced/8 (in mode `names`), for
%   Prolog callers; pyab/prolog.py reads it the same way.  Head is
%   [ok, BestFlag, Best, Val], Leaves, Visited and Pruned the names, Rest
%   the fields after them (a traced run's events); all are atoms.

answer_lists(Out, [ok, Flag, Best, Val], Leaves, Visited, Pruned, Rest) :-
    % split_string/4 merges adjacent NUL separators (SWI 9.0.4), so an
    % empty field would vanish; atomic_list_concat/3 in split mode keeps it.
    atomic_list_concat([ok, Flag, Best, Val, NLA, NVA, NPA|Fields], '\u0000', Out),
    atom_number(NVA, NV),
    atom_number(NPA, NP),
    (   atom_concat(f, NLS, NLA)
    ->  atom_number(NLS, NL),
        length(Visited, NV), append(Visited, Fields1, Fields),
        length(Pruned, NP), append(Pruned, [FlagsA|Rest], Fields1),
        atom_codes(FlagsA, Flags),
        foldl(leaf_names_, Visited, Flags, Leaves, []),
        length(Leaves, NL)
    ;   atom_number(NLA, NL),
        length(Leaves, NL), append(Leaves, Fields1, Fields),
        length(Visited, NV), append(Visited, Fields2, Fields1),
        length(Pruned, NP), append(Pruned, Rest, Fields2)
    ).

%   How to walk and name a tree's positions for record_names/8.  A fact
%   tree: tree/2 gives the children (the facts as loaded), and a node's
%   name is the atom itself (the loaders accept atoms only).  A rules
%   tree: moves/2 (called outside the record, so nothing is recorded) and
%   position_name/2, or the file's position_names/4 when it has one: the
%   names of all the children of a position at once, from its name.

naming_(Tree, Kids, Name, KidNames) :-
    (   rules_module(Tree, _, _)
    ->  Kids = Tree:moves,
        Name = pyab_run:rules_name_(Tree),
        (   predicate_property(Tree:position_names(_, _, _, _), defined)
        ->  KidNames = Tree:position_names
        ;   KidNames = pyab_run:rules_kid_names_(Tree)
        )
    ;   Kids = Tree:tree,
        Name = pyab_run:name_text_,
        KidNames = pyab_run:fact_kid_names_
    ).

rules_name_(Tree, P, S) :-
    Tree:position_name(P, N),
    text_to_string(N, S).

rules_kid_names_(Tree, _, _, Ks, Ns) :-
    maplist(rules_name_(Tree), Ks, Ns).

fact_kid_names_(_, _, Ks, Ks).

name_text_(P, S) :-
    (   atom(P) -> S = P ; format(string(S), "~q", [P]) ).

%   Without a limit from the caller, a big tree gets room: the slides'
%   program recurses once per sibling (boundedbest/5 and goodenough/7 are
%   not tail calls), about 1 Kb of stack per node, so a flat tree of a
%   million leaves needs about the whole default limit of 1 Gb.  Allow
%   2 Kb per node when that is more than the current limit.

stack_limit_option_([], Tree, Limit) :-
    tree_nodes(Tree, Nodes),
    Need is 2048 * Nodes,
    current_prolog_flag(stack_limit, Current),
    (   Need > Current
    ->  Limit = Need
    ;   Limit = default
    ).
stack_limit_option_([LimitS], _, Limit) :-
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

                 /*******************************
                 *        A TRACED SEARCH       *
                 *******************************/

%!  solve_traced(+Tree, +Prog, +File, +RootS, +AlphaS, +BetaS, +Opts, -Out) is semidet.
%
%   solve/9 for the slides' program (or any file with the same
%   alphabeta/5, goodenough/7 and newbounds/6), step by step.  Prog must
%   be a module used for traced runs only: its alphabeta/5, goodenough/7
%   and newbounds/6 are wrapped (wrap_predicate/4, the file stays as
%   loaded) to add to the record, in order:
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
    ensure_program(Tree, Prog, File),
    ensure_traced_(Tree, Prog),
    search_(trace, Tree, Prog, File, bratko, RootS, AlphaS, BetaS, OptsS, Best, Val, Record),
    !,
    answer_(Tree, Best, Val, Record, Out1),
    record_trace(Record, Events),
    foldl(tree_event_fields_(Tree), Events, Fields, []),
    atomic_list_concat([Out1|Fields], '\u0000', OutA),
    atom_string(OutA, Out).
solve_traced(_, _, _, _, _, _, _, "fail").

%   Wrap once per program module (the module is used for traced runs only).

ensure_traced_(Tree, Prog) :-
    traced(Tree, Prog),
    !.
ensure_traced_(Tree, Prog) :-
    % The wrapper bodies run in the wrapped predicate's module: qualify.
    wrap_predicate(Prog:alphabeta(P, A, B, G, V), pyab_trace, W1,
                   ( pyab_observe:trace_event(call(P, A, B)),
                     W1,
                     pyab_run:alphabeta_exit_(P, G, V) )),
    wrap_predicate(Prog:newbounds(A2, B2, P2, V2, NA, NB), pyab_trace, W2,
                   ( W2,
                     pyab_observe:trace_event(bounds(P2, V2, A2, B2, NA, NB)) )),
    wrap_predicate(Prog:goodenough(L, A3, B3, P3, V3, G3, GV), pyab_trace, W3,
                   ( pyab_observe:event_count(N0),
                     W3,
                     pyab_run:goodenough_exit_(Tree, N0, L, A3, B3, P3, V3, G3, GV) )),
    assertz(traced(Tree, Prog)).

%   A leaf: the last thing recorded is staticval/2 on Pos (the tree
%   module's own wrapper saw it), so alphabeta/5 took its staticval
%   branch and Val is the static value.

alphabeta_exit_(Pos, GoodPos, Val) :-
    (   last_event(s(Pos))
    ->  trace_event(leaf(Pos, Val))
    ;   true
    ),
    trace_event(return(Pos, GoodPos, Val)).

%   Which clause of goodenough/7 answered?  Clause 1 takes an empty list;
%   clause 3 searches the next sibling (alphabeta/5 is called on it, which
%   records) before it answers.  So when the list is not empty and nothing
%   was recorded since goodenough/7 was entered, the search stopped here:
%   clause 2, the cut.  This looks at what happened rather than re-testing
%   the clause's conditions.  The kind follows from who moves in Pos:
%   min_to_move(Pos) can only have passed the first disjunct (Val > Beta,
%   a beta cut-off); max_to_move(Pos) the second (Val < Alpha, alpha).

goodenough_exit_(Tree, N0, PosList, Alpha, Beta, Pos, Val, _, _) :-
    (   PosList = [_|_],
        event_count(N0)
    ->  (   Tree:min_to_move(Pos) -> Kind = beta ; Kind = alpha ),
        trace_event(cut(Pos, Val, Alpha, Beta, Kind, PosList))
    ;   true
    ).

tree_event_fields_(T, E) --> event_fields_(E, T).

event_fields_(call(P, A, B), T) -->
    [call], name_field_(T, P), number_field_(A), number_field_(B).
event_fields_(leaf(P, V), T) -->
    [leaf], name_field_(T, P), number_field_(V).
event_fields_(bounds(P, V, A, B, NA, NB), T) -->
    [bounds], name_field_(T, P), number_field_(V),
    number_field_(A), number_field_(B), number_field_(NA), number_field_(NB).
event_fields_(cut(P, V, A, B, Kind, Rest), T) -->
    { length(Rest, N) },
    [cut], name_field_(T, P), number_field_(V), number_field_(A), number_field_(B),
    [Kind, N],
    names_fields_(Rest, T).
event_fields_(return(P, G, V), T) -->
    [return], name_field_(T, P),
    (   { var(G) } -> ["0", ""] ; ["1"], name_field_(T, G) ),
    number_field_(V).

name_field_(T, P) --> { position_text(T, P, S) }, [S].
number_field_(X) --> { format(string(S), "~q", [X]) }, [S].
names_fields_([], _) --> [].
names_fields_([P|Ps], T) --> name_field_(T, P), names_fields_(Ps, T).
