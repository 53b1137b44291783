:- module(pyab_bridge,
          [ load_tree/2,        % +Module, +FactText
            load_packed/3,      % +Module, +Names, +Shape
            load_claim/1,       % +Module
            load_finish/1,      % +Module
            load_rules/3,       % +Module, +RulesFile, +ParamText
            rules_mode/2,       % +Module, +Mode
            solve/9,            % +Tree, +Prog, +File, +Alg, +Root, +Alpha, +Beta, +Opts, -Out
            solve_deferred/10,  % +Tree, +Prog, +File, +Alg, +Root, +Alpha, +Beta, +Opts, +Key, -Out
            solve_packed/11,    % +Tree, +Prog, +File, +Alg, +Names, +Shape, +Root, +Alpha, +Beta, +Opts, -Out
            deferred_answer/2,  % +Key, -Out
            deferred_free/1,    % +Key
            solve_traced/8,     % +Tree, +Prog, +File, +Root, +Alpha, +Beta, +Opts, -Out
            answer_lists/6,     % +Out, -Head, -Leaves, -Visited, -Pruned, -Rest
            recycle/1,          % +Module
            drop/1,             % +Module
            entry/8,            % ?Alg, ?Root, ?Alpha, ?Beta, ?Depth, ?Best, ?Val, -Goal
            algorithm/3,        % ?Name, ?PrologFile, ?EntryText
            algorithms_text/1,  % -Text
            live_modules/1,     % -Count
            live_modules_text/1,     % -Text
            resource_counts_text/1,  % -Text
            message_text/2      % +Error, -Text
          ]).
/** <module> The Prolog half of pyab's bridge: what Python calls

Python hands over data only as string arguments; nothing it sends is ever
read as a goal.  The work is done by three modules, each a file under
prolog/bridge/, that depend on each other in one direction only:

  - state.pl: every dynamic predicate the bridge keeps, declared in one
    place (and the one global variable, documented there);
  - observe.pl: the one recording channel (wrappers on moves/2 and
    staticval/2 write into the record of the running search) and the one
    walk that finds the pruned nodes;
  - store.pl: tree and program modules: loading, recycling, dropping;
  - run.pl: the registry of algorithms (prolog/algorithms.json), one
    search and one traced search, and their answers.

An error is not turned into text on this side: it reaches Python as the
exception of the query, and message_text/2 gives SWI-Prolog's words for it.
*/

:- use_module(library(lists)).
:- use_module(bridge/store).
:- use_module(bridge/run).

%!  algorithms_text(-Text) is det.
%
%   The registry's algorithm names, in order, separated by NUL.

algorithms_text(Text) :-
    findall(Name, algorithm(Name, _, _), Names),
    atomic_list_concat(Names, '\u0000', Text).

live_modules_text(Text) :-
    live_modules(Count),
    number_string(Count, Text).

resource_counts_text(Text) :-
    resource_counts(Text).

%!  message_text(+Error, -Text) is det.
%
%   SWI-Prolog's message for Error, as print_message/2 would print it
%   (without the "ERROR: " prefix); the term itself (writeq) when there is
%   no message for it.

message_text(E, Text) :-
    (   catch(message_lines_(E, Lines), error(_, _), fail)
    ->  with_output_to(string(Text0), print_message_lines(current_output, '', Lines)),
        split_string(Text0, "", "\n ", [Text])
    ;   format(string(Text), "~q", [E])
    ).

message_lines_(E, Lines) :-
    '$messages':translate_message(E, Lines, []).
