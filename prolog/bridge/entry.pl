:- module(pyab_entry,
          [ entry_goal/3          % +Text, -e(Root, Alpha, Beta, Depth, Best, Val), -Goal
          ]).
/** <module> An algorithm's entry goal, from the registry's text

prolog/algorithms.json writes each algorithm's entry goal as text over the
variables Root, Alpha, Beta, Depth, Best and Val, for example
"alphabeta(Root, Alpha, Beta, Best, Val)".  The bridge (run.pl) and the
referee's child (prolog/referee/child.pl) both read it here, so that the
two cannot read it differently.  This module holds nothing else: the child
loads it next to a program under test.
*/

:- use_module(library(error)).
:- use_module(library(apply)).
:- use_module(library(lists)).

%!  entry_goal(+Text, -Args, -Goal) is det.
%
%   Goal is Text read as a term, Args = e(Root, Alpha, Beta, Depth, Best,
%   Val) its variables of those names (unbound where Text has none).
%   @error domain_error(pyab_entry_variable, Var) for another variable;
%          type_error(callable, Goal) for text that is not a goal.

entry_goal(Text, Args, Goal) :-
    term_string(Goal, Text, [variable_names(Bindings)]),
    must_be(callable, Goal),
    Args = e(Root, Alpha, Beta, Depth, Best, Val),
    Known = ['Root'=Root, 'Alpha'=Alpha, 'Beta'=Beta, 'Depth'=Depth,
             'Best'=Best, 'Val'=Val],
    maplist(known_(Known), Bindings).

known_(Known, Var=V) :-
    (   memberchk(Var=V, Known)
    ->  true
    ;   domain_error(pyab_entry_variable, Var)
    ).
