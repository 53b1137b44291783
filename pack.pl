% The SWI-Prolog pack of pyab's programs: `make pack` builds it in build/pack/pyab
% (the algorithm files under prolog/pyab/, the slides' facts under examples/).
% Install it from there:
%   ?- pack_install('file:///ABSOLUTE/PATH/build/pack/pyab', [interactive(false), inquiry(false)]).
%   ?- [library(pyab/alphabeta)], ['examples/slides.pl'].
% The version is pyab's own (pyab/__init__.py); a test keeps the two equal.
name(pyab).
version('0.2.0').
title('Bratko\'s alpha-beta as printed on the course slides, and the other alpha-beta searches of the literature').
keywords([alphabeta, minimax, game_tree, search, teaching]).
author('pyab developers', 'pyab developers').
