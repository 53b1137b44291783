% The SWI-Prolog pack of pyab's programs: `make pack` builds it in build/pack/pyab
% (the algorithm programs and library(pyab/tree_dsl) under prolog/pyab/, the
% example trees under prolog/pyab/examples/, the plunit tests under
% prolog/pyab/tests/).  docs/prolog.md says how to install and test it.
% The version is pyab's own (pyab/__init__.py); a test keeps the two equal.
% SWI-Prolog checks these terms (library(prolog_pack), pack_info_term/1):
% author/2's second argument must be an e-mail address, a URL or ''.  The
% project has no public address yet: pyab.invalid (a name that can never
% resolve, RFC 2606) is the one its JSON Schema uses too.
name(pyab).
version('0.2.0').
title('Bratko\'s alpha-beta as printed on the course slides, and the other alpha-beta searches of the literature').
keywords([alphabeta, minimax, game_tree, search, teaching]).
description(['The slides\' alphabeta/5 and its relatives (AIMA, chessprogramming, Hsu, strict-cut, minimax), ',
             'library(pyab/tree_dsl) to read pyab\'s .tree files, example trees, and plunit tests (?- pyab_test.).']).
author('pyab developers', 'https://pyab.invalid/').
home('https://pyab.invalid/').
download('https://pyab.invalid/download/pyab-*.tgz').
