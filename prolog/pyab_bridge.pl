:- module(pyab_bridge,
          [ algorithms_text/1,  % -Text
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

This module exports its own four predicates and, by reexport/1, every
predicate of store.pl and run.pl (what Python calls: load_tree/2, solve/9,
deferred_answer/2, drop/1, ...).

An error is not turned into text on this side: it reaches Python as the
exception of the query, and message_text/2 gives SWI-Prolog's words for it.
*/

:- use_module(library(lists)).
:- reexport(bridge/store).
:- reexport(bridge/run).

%!  algorithms_text(-Text) is det.
%
%   The registry's algorithm names, in order, separated by NUL.

algorithms_text(Text) :-
    findall(Name, algorithm(Name, _, _), Names),
    atomic_list_concat(Names, '\u0000', Text).

%!  live_modules_text(-Text) is det.
%
%   live_modules/1's count as a string.

live_modules_text(Text) :-
    live_modules(Count),
    number_string(Count, Text).

%!  resource_counts_text(-Text) is det.
%
%   resource_counts/1's text (the bridge's modules, clauses and records).

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
