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
entry('strict-cut', Root, Alpha, Beta, Depth, Best, Val,
      strict_cut(Root, Alpha, Beta, Depth, Best, Val)).
entry(minimax, Root, _Alpha, _Beta, Depth, Best, Val,
      minimax(Root, Depth, Best, Val)).
entry('minimax-negamax', Root, _Alpha, _Beta, Depth, Best, Val,
      negamax(Root, Depth, Best, Val)).

%   The rest of the module, one concern a file:
:- include(bridge/load).
:- include(bridge/solve).
:- include(bridge/trace).
:- include(bridge/collect).
:- include(bridge/lifecycle).
:- include(bridge/rules).
