/*  pyab's tree files (.tree) read in plain SWI-Prolog.  After
    pack_install(pyab), one query a line at the toplevel:

        ?- use_module(library(pyab/tree_dsl)).
        ?- load_tree(slides).               % a shipped example, or 'mine.tree'
        ?- [library(pyab/alphabeta)].
        ?- alphabeta(a, -inf, inf, GoodPos, Val).
        GoodPos = b, Val = 3.

    The grammar is pyab's (pyab/grammar.lark, README "Trees"): nested, list
    and flat forms, `max`/`min` marks, quoted names with Prolog's escapes,
    static values on inner nodes, integers of any size and decimals.  This
    reader is a grammar of its own, not a call into pyab, and it is held to
    pyab's reader by the tests: the same texts are taken and refused, at the
    same line and column, and an accepted text gives the clauses `pyab facts`
    writes, in the same order.

    A refused text raises error(syntax_error(Message), file(File, Line,
    Column, CharNo)): Line and Column count from 1, as pyab's FILE:LINE:COL
    does; a text that ends too early points just after its last character;
    a file that is not UTF-8, or is empty, names line 0, column 0.

    How the places match pyab's (an LALR parser): a syntax error is named
    at the first token that cannot continue the text; a bad quoted name or
    a too-long integer is named at its own token, but only once the token
    after it is one the parser's merged state reads ahead on (next_/2
    below); otherwise the next token's own error wins.
    The checks of a whole tree run in pyab's order (pyab/tree.py, build).
*/

:- module(tree_dsl,
          [ read_tree/2,                % +File, -Facts
            load_tree/1,                % :File
            text_tree/3                 % +Text, +Source, -Facts
          ]).
:- use_module(library(assoc)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(readutil)).
:- use_module(library(ordsets)).
:- use_module(library(pairs)).

:- meta_predicate load_tree(:).

%!  read_tree(+File, -Facts) is det.
%
%   File is a file name or a specification such as
%   library(pyab/examples/slides); `.tree` may be left out, and a plain
%   name that is no file here names a shipped example (slides, aima, ...).
%   Facts are the clauses of File's tree, as `pyab facts FILE` writes them:
%   tree/2 for inner nodes, staticval/2, min_to_move/1, max_to_move/1 (each
%   in tree order: depth-first, parents before children), and the slides'
%   bridge (moves(Pos, Moves) :- tree(Pos, Moves)).
%   @error syntax_error(Message) with the file, line and column;
%   existence_error(source_sink, File) when there is no such file.

read_tree(Spec, Facts) :-
    tree_file_(Spec, Path),
    (   atomic(Spec) -> File = Spec ; File = Path ),
    read_file_to_codes(Path, Bytes, [encoding(octet)]),
    (   utf8_(Bytes, Codes0)
    ->  true
    ;   throw(error(syntax_error('not UTF-8 text'), file(File, 0, 0, 0)))
    ),
    (   Codes0 = [0xFEFF|Codes1] -> true ; Codes1 = Codes0 ),
    newlines_(Codes1, Codes),
    codes_tree_(Codes, File, Facts).

%!  text_tree(+Text, +Source, -Facts) is det.
%
%   read_tree/2 for a text (atom, string or code list) already read,
%   named Source in errors.

text_tree(Text, Source, Facts) :-
    text_to_string(Text, String),
    string_codes(String, Codes0),
    newlines_(Codes0, Codes),
    codes_tree_(Codes, Source, Facts).

%!  load_tree(:File) is det.
%
%   Replace the tree of the calling module (`user` at the toplevel;
%   Module:File names another) by File's, as read_tree/2 finds and reads
%   it: every clause of tree/2, staticval/2, min_to_move/1, max_to_move/1
%   and moves/2 goes first, also when a consulted file defined them.  The
%   file is read and checked before anything changes, and the change is
%   one transaction: a refused file leaves the previous tree as it was.
%
%   When the slides' alphabeta/5 cannot search the tree, a warning says so
%   before any query: a node with the same side to move as its parent (it
%   infers who moves from the child it has searched), or an inner node
%   with a static value of its own (alphabeta/5 has no depth limit).  Both
%   name the node and the program that can: strict_cut/6 (pyab's
%   strict-cut, library(pyab/strict_cut)), which asks every node who moves
%   and takes a depth.

load_tree(M:Spec) :-
    read_tree(Spec, Facts),
    Preds = [tree/2, staticval/2, min_to_move/1, max_to_move/1, moves/2],
    forall(( member(N/A, Preds), functor(H, N, A),
             predicate_property(M:H, defined), \+ predicate_property(M:H, dynamic),
             \+ predicate_property(M:H, imported_from(_)) ),
           abolish(M:N/A)),        % static facts of a consulted file: not in a transaction
    transaction(replace_tree_(M, Preds, Facts)),
    forall(slides_cannot_(Facts, Why), print_message(warning, tree_dsl(Spec, Why))).

replace_tree_(M, Preds, Facts) :-
    forall(member(P, Preds),
           ( dynamic(M:P), P = N/A, functor(H, N, A), retractall(M:H) )),
    forall(member(F, Facts), assertz(M:F)).

%   Where to find a tree: File itself, File.tree, or a shipped example.
tree_file_(Spec, Path) :-
    (   absolute_file_name(Spec, Path, [access(read), extensions(['', tree]), file_errors(fail)])
    ->  true
    ;   atom(Spec),
        examples_dir_(Dir),
        directory_file_path(Dir, Spec, Example),
        absolute_file_name(Example, Path, [access(read), extensions(['', tree]), file_errors(fail)])
    ->  true
    ;   absolute_file_name(Spec, Path, [access(read)])      % the existence error
    ).

%   The example trees: prolog/pyab/examples/ in the pack, examples/ beside
%   prolog/ in a checkout, pyab/_examples/ in a wheel.
examples_dir_(Dir) :-
    module_property(tree_dsl, file(Me)),
    file_directory_name(Me, Here),
    member(Rel, [examples, '../examples', '../_examples']),
    directory_file_path(Here, Rel, Dir),
    exists_directory(Dir), !.

%   Why the slides' program cannot search the tree of Facts.
slides_cannot_(Facts, sides(Kid, Side, Parent, Root)) :-
    Facts = [tree(Root, _)|_],
    once(( member(tree(Parent, Kids), Facts),
           side_(Facts, Parent, Side),
           member(Kid, Kids),
           side_(Facts, Kid, KidSide),
           KidSide == Side )).
slides_cannot_(Facts, static(Node, Root)) :-
    Facts = [tree(Root, _)|_],
    once(( member(tree(Node, _), Facts), memberchk(staticval(Node, _), Facts) )).

side_(Facts, Node, Side) :-
    (   memberchk(min_to_move(Node), Facts) -> Side = min ; Side = max ).

:- multifile prolog:message//1.

prolog:message(tree_dsl(Spec, sides(Kid, Side, Parent, Root))) -->
    { upcase_atom(Side, S) },
    [ '~p: the slides\' alphabeta/5 cannot search this tree: ~q has ~w to move like its parent ~q,'-[Spec, Kid, S, Parent],
      nl,
      'and alphabeta/5 infers the side to move from the child it has searched, so it needs sides that alternate.'-[],
      nl,
      'strict-cut asks every node who moves: ?- [library(pyab/strict_cut)].  ?- strict_cut(~q, -inf, inf, inf, Move, Val).'-[Root] ].
prolog:message(tree_dsl(Spec, static(Node, Root))) -->
    [ '~p: ~q has a static value of its own, for a search with a depth limit; the slides\' alphabeta/5'-[Spec, Node],
      nl,
      'has none and never reads it.  strict-cut takes a depth: ?- [library(pyab/strict_cut)].  ?- strict_cut(~q, -inf, inf, 1, Move, Val).'-[Root] ].

%   --- bytes, lines ---------------------------------------------------------

%   Strict UTF-8, as Python's decoder: no overlong forms, no surrogates,
%   nothing above U+10FFFF.
utf8_(Bytes, Codes) :-
    (   ascii_(Bytes) -> Codes = Bytes ; utf8_codes_(Bytes, Codes) ).

ascii_([]).
ascii_([B|Bs]) :- B < 0x80, ascii_(Bs).

utf8_codes_([], []).
utf8_codes_([B|Bs], [C|Cs]) :-
    (   B < 0x80 -> C = B, Rest = Bs
    ;   B >= 0xC2, B =< 0xDF -> Bs = [B1|Rest], cont_(B1, L1), C is (B /\ 0x1F) << 6 \/ L1
    ;   B >= 0xE0, B =< 0xEF -> Bs = [B1, B2|Rest], cont_(B1, L1), cont_(B2, L2),
        C is (B /\ 0x0F) << 12 \/ L1 << 6 \/ L2,
        C >= 0x800, \+ between(0xD800, 0xDFFF, C)
    ;   B >= 0xF0, B =< 0xF4 -> Bs = [B1, B2, B3|Rest], cont_(B1, L1), cont_(B2, L2), cont_(B3, L3),
        C is (B /\ 0x07) << 18 \/ L1 << 12 \/ L2 << 6 \/ L3,
        C >= 0x10000, C =< 0x10FFFF
    ),
    utf8_codes_(Rest, Cs).

cont_(B, L) :- B >= 0x80, B =< 0xBF, L is B /\ 0x3F.

%   \r\n and a lone \r end a line, as in pyab.load.
newlines_([], []).
newlines_([0'\r|T0], [0'\n|T]) :- !,
    ( T0 = [0'\n|T1] -> newlines_(T1, T) ; newlines_(T0, T) ).
newlines_([C|T0], [C|T]) :- newlines_(T0, T).

%   --- the whole read -------------------------------------------------------

codes_tree_(Codes, Source, Facts) :-
    b_setval(tree_dsl_surrogates, false),
    catch(( tokens_(Codes, 1, 1, 0, Tokens0),
            poison_(Tokens0, Tokens),
            parse_(Tokens, Decl),
            build_(Decl, Facts) ),
          dsl(Message, Where),
          error_(Message, Where, Codes, Source)).

error_(Message, Where, Codes, Source) :-
    place_(Where, Codes, Line, Column, CharNo, Message, Message1),
    throw(error(syntax_error(Message1), file(Source, Line, Column, CharNo))).

place_(at(L, C, N), _, L, C, N, M, M).
place_(pos(L, C), _, L, C, 0, M, M).
place_(none, _, 1, 1, 0, M, M).
place_(end, Codes, L, C, N, M0, M) :-
    end_place_(Codes, L, C, N),
    (   L =:= 0 -> M = 'empty file: expected a tree' ; M = M0 ).

%   Just after the last character of the last line that holds anything
%   before a # or % (pyab counts so, quotes or not); 0:0 when none does.
end_place_(Codes, L, C, 0) :-
    split_lines_(Codes, Lines),
    length(Lines, N),
    reverse(Lines, Rev),
    (   nth1(I, Rev, Line), body_length_(Line, Len), Len > 0
    ->  L is N - I + 1, C is Len + 1
    ;   L = 0, C = 0
    ).

split_lines_(Codes, [Line|Lines]) :-
    (   append(Line, [0'\n|Rest], Codes)
    ->  split_lines_(Rest, Lines)
    ;   Line = Codes, Lines = []
    ).

body_length_(Line, Len) :-
    (   append(Body0, [C|_], Line), memberchk(C, `#%`) -> true ; Body0 = Line ),
    !,
    reverse(Body0, R0),
    drop_space_(R0, R),
    length(R, Len).

drop_space_([C|T], R) :- py_space_(C), !, drop_space_(T, R).
drop_space_(R, R).

%   Python's str.isspace().
py_space_(C) :- between(9, 13, C), !.
py_space_(C) :- between(0x1C, 0x20, C), !.
py_space_(C) :- memberchk(C, [0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]), !.
py_space_(C) :- between(0x2000, 0x200A, C).

%   --- tokens ---------------------------------------------------------------
%   t(Kind, Value, Line, Column, CharNo); Kind is one of name, quoted, max,
%   min, number, lpar, rpar, comma, equal, arrow, lsqb, rsqb, char (a
%   character no token starts with) and end.  A quoted name or number that
%   cannot be used has the Value bad(Message).

tokens_([], L, C, N, [t(end, end, L, C, N)]).
tokens_([X|Xs], L, C, N, Ts) :-
    (   X == 0'\n -> L1 is L + 1, N1 is N + 1, tokens_(Xs, L1, 1, N1, Ts)
    ;   ws_(X) -> C1 is C + 1, N1 is N + 1, tokens_(Xs, L, C1, N1, Ts)
    ;   ( X == 0'# ; X == 0'% ) -> comment_(Xs, Rest, K), C1 is C + K + 1, N1 is N + K + 1,
        tokens_(Rest, L, C1, N1, Ts)
    ;   Ts = [T|Ts1],
        token_([X|Xs], Rest, T0, K),
        T0 =.. [Kind, Value], T = t(Kind, Value, L, C, N),
        (   Kind == char
        ->  Ts1 = []
        ;   C1 is C + K, N1 is N + K, tokens_(Rest, L, C1, N1, Ts1)
        )
    ).

ws_(0' ). ws_(0'\t). ws_(0'\f). ws_(0'\r).

comment_([], [], 0).
comment_([X|Xs], Rest, K) :-
    (   X == 0'\n -> Rest = [X|Xs], K = 0
    ;   comment_(Xs, Rest, K0), K is K0 + 1
    ).

%   token_(+Codes, -Rest, -Token, -Length)
token_([0'(|R], R, lpar('('), 1) :- !.
token_([0')|R], R, rpar(')'), 1) :- !.
token_([0',|R], R, comma(','), 1) :- !.
token_([0'=|R], R, equal('='), 1) :- !.
token_([0'[|R], R, lsqb('['), 1) :- !.
token_([0']|R], R, rsqb(']'), 1) :- !.
token_([0'-, 0'>|R], R, arrow('->'), 2) :- !.
token_([X|Xs], R, T, K) :-
    lower_(X), !,
    name_rest_(Xs, Cs, R, 1, K),
    atom_codes(A, [X|Cs]),
    (   A == max -> T = max(A) ; A == min -> T = min(A) ; T = name(A) ).
token_([0'\'|Xs], R, T, K) :-
    quoted_body_(Xs, Body, R), !,
    length(Body, K0), K is K0 + 2,
    (   catch(unquote_(Body, Name), dsl_bad(M), (Name = bad(M)))
    ->  T = quoted(Name)
    ;   T = quoted(bad('bad quoted name'))
    ).
token_(Cs, R, number(V), K) :-
    number_(Cs, Text, R), !,
    length(Text, K),
    number_value_(Text, V).
token_([X|_], [], char(X), 0).

lower_(X) :- X >= 0'a, X =< 0'z.

%   [A-Za-z0-9_] as a table: clause indexing on the code is the fastest test.
term_expansion(name_char_table, Clauses) :-
    findall(name_char_(C), ( member(R-S, [0'a-0'z, 0'A-0'Z, 0'0-0'9, 0'_-0'_]), between(R, S, C) ), Clauses).
name_char_table.

name_rest_([X|Xs], [X|Cs], R, K0, K) :- name_char_(X), !, K1 is K0 + 1, name_rest_(Xs, Cs, R, K1, K).
name_rest_(R, [], R, K, K).

%   The body of '...': the longest that the pattern of pyab's grammar
%   takes, '(?:[^'\\\n]|\\(?>[0-7]+\\|x[0-9a-fA-F]+\\|[^\n])|'')*', with
%   backtracking (the last '' may be the closing quote and a new quote).
quoted_body_(Xs, Body, R) :-
    qpieces_(Xs, Pieces, R0),
    qclose_(Pieces, R0, Body, R).

qpieces_([X|Xs], [P|Ps], R) :-
    qpiece_(X, Xs, P, Xs1), !,
    qpieces_(Xs1, Ps, R).
qpieces_(R, [], R).

qpiece_(X, Xs, [X], Xs) :- X \== 0'\', X \== 0'\\, X \== 0'\n, !.
qpiece_(0'\\, Xs, [0'\\|E], Rest) :- !, qescape_(Xs, E, Rest).
qpiece_(0'\', [0'\'|Xs], [0'\', 0'\'], Xs).

qescape_(Xs, E, Rest) :-
    digits_(Xs, octal_, Ds, [0'\\|R1]), Ds \== [], !, append(Ds, [0'\\], E), Rest = R1.
qescape_([0'x|Xs], [0'x|E], Rest) :-
    digits_(Xs, hex_, Ds, [0'\\|R1]), Ds \== [], !, append(Ds, [0'\\], E), Rest = R1.
qescape_([X|Xs], [X], Xs) :- X \== 0'\n.

%   The pieces read greedily; then a quote must follow, or else the last
%   '' piece gives its first quote back as the closing one.
qclose_(Pieces, [0'\'|R], Body, R) :- !, append(Pieces, Body).
qclose_(Pieces, R0, Body, [0'\'|R]) :-
    reverse(Pieces, Rev),
    append(RevAfter, [[0'\', 0'\']|RevFront], Rev), !,
    reverse(RevFront, Front), append(Front, Body),
    reverse(RevAfter, After), append(After, AfterCodes),
    append(AfterCodes, R0, R).

digits_([X|Xs], Kind, [X|Ds], R) :- call(Kind, X), !, digits_(Xs, Kind, Ds, R).
digits_(R, _, [], R).

octal_(X) :- X >= 0'0, X =< 0'7.
hex_(X) :- ( X >= 0'0, X =< 0'9 ; X >= 0'a, X =< 0'f ; X >= 0'A, X =< 0'F ), !.
digit_(X) :- X >= 0'0, X =< 0'9.

%   Escapes as pyab/quoted.py reads them: \xHH..\, \uHHHH, \UHHHHHHHH,
%   \OOO..\, a one-letter escape; '' for a quote.
unquote_(Body, Name) :-
    unq_(Body, Codes),
    (   memberchk(0, Codes) -> throw(dsl_bad('a name cannot contain the NUL character')) ; true ),
    (   member(C, Codes), C >= 0xD800, C =< 0xDFFF
    ->  b_setval(tree_dsl_surrogates, true)     % only a quoted name can hold one
    ;   true
    ),
    atom_codes(Name, Codes).

unq_([], []).
unq_([0'\', 0'\'|T], [0'\'|Cs]) :- !, unq_(T, Cs).
unq_([0'\\|T0], [C|Cs]) :- !, escape_(T0, C, T), unq_(T, Cs).
unq_([X|T], [X|Cs]) :- unq_(T, Cs).

escape_([0'x|T0], C, T) :- digits_(T0, hex_, Ds, [0'\\|T]), Ds \== [], !, code_(16, [0'x|Ds], Ds, C).
escape_([0'u|T0], C, T) :- length(Ds, 4), append(Ds, T, T0), maplist(hex_, Ds), !, code_(16, [0'u|Ds], Ds, C).
escape_([0'U|T0], C, T) :- length(Ds, 8), append(Ds, T, T0), maplist(hex_, Ds), !, code_(16, [0'U|Ds], Ds, C).
escape_(T0, C, T) :- digits_(T0, octal_, Ds, [0'\\|T]), Ds \== [], !, code_(8, Ds, Ds, C).
escape_([X|T], C, T) :- simple_(X, C), !.
escape_([X|T], C, T) :- octal_(X), !, code_(8, [X], [X], C).
escape_([X|_], _, _) :-
    format(atom(M), 'unknown escape \\~c in a quoted name', [X]),
    throw(dsl_bad(M)).

simple_(0'\\, 0'\\). simple_(0'\', 0'\'). simple_(0'", 0'"). simple_(0'`, 0'`).
simple_(0'n, 0'\n). simple_(0't, 0'\t). simple_(0'r, 0'\r). simple_(0'a, 7).
simple_(0'b, 8). simple_(0'f, 12). simple_(0'v, 11). simple_(0'e, 27). simple_(0's, 0' ).

code_(Base, Esc, Ds, C) :-
    foldl(digit_value_(Base), Ds, 0, C),
    (   C =:= 0 -> throw(dsl_bad('a name cannot contain the NUL character'))
    ;   C > 0x10FFFF
    ->  format(atom(M), 'escape \\~s is not a character a name may hold', [Esc]),
        throw(dsl_bad(M))
    ;   true
    ).

digit_value_(Base, D, V0, V) :-
    (   D =< 0'9 -> X is D - 0'0 ; D >= 0'a -> X is D - 0'a + 10 ; X is D - 0'A + 10 ),
    V is V0 * Base + X.

%   NUMBER: [+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?, each part only when whole.
number_(Cs, Text, R) :-
    (   Cs = [S|Cs1], ( S == 0'+ ; S == 0'- ) -> Sign = [S] ; Sign = [], Cs1 = Cs ),
    digits_(Cs1, digit_, Int, R1), Int \== [],
    (   R1 = [0'.|R2], digits_(R2, digit_, Frac, R3), Frac \== []
    ->  Dot = [0'.|Frac]
    ;   Dot = [], R3 = R1
    ),
    (   R3 = [E|R4], ( E == 0'e ; E == 0'E ),
        ( R4 = [S2|R5], ( S2 == 0'+ ; S2 == 0'- ) -> ESign = [S2] ; ESign = [], R5 = R4 ),
        digits_(R5, digit_, Exp, R6), Exp \== []
    ->  append([[0'e], ESign, Exp], ExpPart), R = R6
    ;   ExpPart = [], R = R3
    ),
    append([Sign, Int, Dot, ExpPart], Text).

%   An integer, or a decimal read as the nearest double (as Python does);
%   an overflowing decimal is inf(Sign).  Python reads no integer of more
%   than 4300 digits.
number_value_(Text, V) :-
    (   member(C, Text), memberchk(C, `.eE`)
    ->  float_text_(Text, F),
        catch(number_codes(V, F), error(syntax_error(float_overflow), _),
              ( Text = [0'-|_] -> V = inf(-1) ; V = inf(1) ))
    ;   include(digit_, Text, Ds), length(Ds, N),
        (   N > 4300
        ->  format(atom(M), 'integer too large (~d digits)', [N]), V = bad(M)
        ;   number_codes(V, Text)
        )
    ).

%   SWI-Prolog wants 1.0e5, not 1e5, in some versions; and +1.5 as 1.5.
float_text_([0'+|T], F) :- !, float_text_(T, F).
float_text_(T, F) :-
    (   memberchk(0'., T) -> F = T
    ;   append(Int, [E|Exp], T), ( E == 0'e ; E == 0'E ) -> append([Int, `.0e`, Exp], F)
    ).

%   The token after a bad quoted name or number raises its error, when it
%   is one the parser reads ahead on there (the names of the terminals in
%   the states after QUOTED and NUMBER of pyab's LALR table).
poison_([], []).
poison_([T|Ts0], [T|Ts]) :-
    (   T = t(Kind, bad(M), L, C, N), Ts0 = [t(Next, _, _, _, _)|Rest],
        next_(Kind, Next)
    ->  Ts = [t(poison, M-at(L, C, N), L, C, N)|Rest1],
        poison_(Rest, Rest1)
    ;   poison_(Ts0, Ts)
    ).

next_(quoted, K) :- memberchk(K, [end, comma, equal, lpar, max, min, name, quoted, rpar, arrow]).
next_(number, K) :- memberchk(K, [end, comma, lpar, max, min, name, quoted, rpar, rsqb]).

%   --- the parser -----------------------------------------------------------
%   Decl = decl(Form, Side, Edges, Values, Defined, Marks), in pyab's orders:
%   Edges: e(Name, Pos, [Child-Pos...]); Values: v(Name, Value, Pos);
%   Defined: Name-Pos (nested form); Marks: m(Name, Side, Pos).

parse_(Ts, Decl) :-
    Ts = [T|_],
    peek_(T),
    (   T = t(Kind, _, _, _, _), side_kind_(Kind), Ts = [_, T1|Rest1], peek_(T1),
        T1 = t(lsqb, _, _, _, _)
    ->  list_top_(Kind, [T1|Rest1], Decl)
    ;   T = t(lsqb, _, _, _, _)
    ->  list_top_(max, Ts, Decl)
    ;   first_decl_(Ts, Decl)
    ).

side_kind_(max).
side_kind_(min).

peek_(t(poison, M-Where, _, _, _)) :- !, throw(dsl(M, Where)).
peek_(_).

unexpected_(T) :-
    peek_(T),
    T = t(Kind, V, L, C, N),
    (   Kind == end -> throw(dsl('unexpected end of file', end))
    ;   Kind == char
    ->  (   V == 0'\'
        ->  M = 'unexpected character "\'": a quoted name not closed on the line it starts on'
        ;   format(atom(M), 'unexpected character ~q', [char(V)])
        )
    ;   format(atom(M), 'unexpected ~q', [V])
    ),
    throw(dsl(M, at(L, C, N))).

%   [side] name, with the side decided by the token after a max/min.
head_([T|Ts], Side, Name, Pos, Rest) :-
    peek_(T),
    T = t(Kind, V, L, C, _),
    (   side_kind_(Kind), Ts = [T1|_], peek_(T1), T1 = t(K1, _, _, _, _), name_kind_(K1)
    ->  Side = Kind, name_(Ts, Name, Pos, Rest)
    ;   name_kind_(Kind)
    ->  Side = none, Name = V, Pos = L-C, Rest = Ts
    ;   unexpected_(T)
    ).

name_kind_(name). name_kind_(quoted). name_kind_(max). name_kind_(min).

name_([T|Ts], Name, L-C, Ts) :-
    peek_(T),
    (   T = t(Kind, Name, L, C, _), name_kind_(Kind) -> true ; unexpected_(T) ).

expect_(Kind, [T|Ts], Ts) :-
    peek_(T),
    (   T = t(Kind, _, _, _, _) -> true ; unexpected_(T) ).

number_tok_([T|Ts], V, L-C, Ts) :-
    peek_(T),
    (   T = t(number, V, L, C, _) -> true ; unexpected_(T) ).

mark_(none, _, _, Ms, Ms) :- !.
mark_(Side, Name, Pos, [m(Name, Side, Pos)|Ms], Ms).

%   The first declaration decides between the nested and the flat form.
first_decl_(Ts0, Decl) :-
    head_(Ts0, Side, Name, Pos, Ts1),
    Ts1 = [T|Ts2], peek_(T), T = t(Kind, _, _, _, _),
    (   Kind == lpar
    ->  nested_top_(Side, Name, Pos, none, Ts1, Decl)
    ;   Kind == equal
    ->  number_tok_(Ts2, V, _, Ts3),
        Ts3 = [T3|_], peek_(T3),
        (   T3 = t(lpar, _, _, _, _)
        ->  nested_top_(Side, Name, Pos, V, Ts3, Decl)
        ;   flat_(Ts3, [], [v(Name, V, Pos)], Marks, MT, Edges, Values),
            mark_(Side, Name, Pos, Marks, MT),
            flat_decl_(Edges, Values, Marks, Decl)
        )
    ;   Kind == arrow
    ->  children_(Ts2, Kids, Ts3),
        flat_(Ts3, [e(Name, Pos, Kids)], [], Marks, MT, Edges, Values),
        mark_(Side, Name, Pos, Marks, MT),
        flat_decl_(Edges, Values, Marks, Decl)
    ;   unexpected_(T)
    ).

%   flat_(+Tokens, +EdgesSoFar(rev), +ValuesSoFar(rev), -Marks, ?MarksTail, -Edges, -Values)
%   Marks are collected in text order: the first declaration's mark goes
%   in front (its tail is MT, bound by the caller).
flat_(Ts, E0, V0, _Marks, MT, Edges, Values) :-
    flat_loop_(Ts, E0, V0, MT, [], Edges0, Values0),
    reverse(Edges0, Edges), reverse(Values0, Values).

flat_loop_([T|Ts], E0, V0, M0, M, Edges, Values) :-
    peek_(T),
    (   T = t(end, _, _, _, _)
    ->  Edges = E0, Values = V0, M0 = M
    ;   head_([T|Ts], Side, Name, Pos, Ts1),
        mark_(Side, Name, Pos, M0, M1),
        Ts1 = [T1|Ts2], peek_(T1), T1 = t(Kind, _, _, _, _),
        (   Kind == equal
        ->  number_tok_(Ts2, V, _, Ts3),
            flat_loop_(Ts3, E0, [v(Name, V, Pos)|V0], M1, M, Edges, Values)
        ;   Kind == arrow
        ->  children_(Ts2, Kids, Ts3),
            flat_loop_(Ts3, [e(Name, Pos, Kids)|E0], V0, M1, M, Edges, Values)
        ;   unexpected_(T1)
        )
    ).

children_(Ts0, [Name-Pos|Kids], Ts) :-
    name_(Ts0, Name, Pos, Ts1),
    Ts1 = [T|Ts2], peek_(T),
    (   T = t(comma, _, _, _, _) -> children_(Ts2, Kids, Ts) ; Kids = [], Ts = Ts1 ).

flat_decl_(Edges, Values, Marks0, decl(flat, Side, Edges, Values, [], Marks)) :-
    % The side before a flat file's first declaration is the root's.
    (   Marks0 = [m(_, S, Pos)|Rest], first_pos_(Edges, Values, Pos)
    ->  Side = S, Marks = Rest
    ;   Side = max, Marks = Marks0
    ).

first_pos_(Edges, Values, Pos) :-
    findall(P, ( member(e(_, P, _), Edges) ; member(v(_, _, P), Values) ), Ps),
    msort(Ps, [Pos|_]).

%   Nested: the root node, then the end of the file.
nested_top_(Side, Name, Pos, V, Ts0, decl(nested, max, Edges, Values, Defined, Marks)) :-
    S0 = s([], [], [], []),
    inner_(Side, Name, Pos, V, Ts0, Ts, S0, s(E, Vs, D, M)),
    Ts = [T|_], peek_(T),
    (   T = t(end, _, _, _, _) -> true ; unexpected_(T) ),
    reverse(E, Edges), reverse(Vs, Values), reverse(M, Marks),
    msort_pos_(D, Defined).

msort_pos_(D, Defined) :-
    maplist(pos_key_, D, Keyed),
    keysort(Keyed, Sorted),
    pairs_values(Sorted, Defined).

pos_key_(N-P, P-(N-P)).

%   inner_: after [side] name [= V], at "(": the children, ")".
%   S = s(Edges, Values, Defined, Marks), each reversed, added in the order
%   pyab's parser reduces (a node after its children).
inner_(Side, Name, Pos, V, Ts0, Ts, S0, S) :-
    expect_(lpar, Ts0, Ts1),
    Ts1 = [T|Ts2], peek_(T),
    (   T = t(rpar, _, _, _, _)
    ->  Kids = [], Ts = Ts2, S1 = S0
    ;   nodes_(Ts1, Kids, Ts3, S0, S1),
        expect_(rpar, Ts3, Ts)
    ),
    S1 = s(E, Vs, D, M),
    mark_(Side, Name, Pos, M1, M),
    (   V == none -> Vs1 = Vs ; Vs1 = [v(Name, V, Pos)|Vs] ),
    S = s([e(Name, Pos, Kids)|E], Vs1, [Name-Pos|D], M1).

nodes_(Ts0, [Kid|Kids], Ts, S0, S) :-
    node_(Ts0, Kid, Ts1, S0, S1),
    Ts1 = [T|Ts2], peek_(T),
    (   T = t(comma, _, _, _, _) -> nodes_(Ts2, Kids, Ts, S1, S) ; Kids = [], Ts = Ts1, S = S1 ).

node_(Ts0, Name-Pos, Ts, S0, S) :-
    head_(Ts0, Side, Name, Pos, Ts1),
    Ts1 = [T|Ts2], peek_(T), T = t(Kind, _, _, _, _),
    (   Kind == lpar
    ->  inner_(Side, Name, Pos, none, Ts1, Ts, S0, S)
    ;   Kind == equal
    ->  number_tok_(Ts2, V, _, Ts3),
        Ts3 = [T3|_], peek_(T3),
        (   T3 = t(lpar, _, _, _, _)
        ->  inner_(Side, Name, Pos, V, Ts3, Ts, S0, S)
        ;   Ts = Ts3, S0 = s(E, Vs, D, M),
            mark_(Side, Name, Pos, M1, M),
            S = s(E, [v(Name, V, Pos)|Vs], [Name-Pos|D], M1)
        )
    ;   Ts = Ts1, S0 = s(E, Vs, D, M),           % a bare name
        mark_(Side, Name, Pos, M1, M),
        S = s(E, Vs, [Name-Pos|D], M1)
    ).

%   List form: nodes named r, r_1, r_1_2, ... (Dewey); every edge at 1:1.
list_top_(Side, Ts0, decl(list, Side, Edges, Values, [], [])) :-
    list_(Ts0, Shape, Ts),
    Ts = [T|_], peek_(T),
    (   T = t(end, _, _, _, _) -> true ; unexpected_(T) ),
    dewey_([r-Shape], [], Edges0, [], Values0),
    reverse(Edges0, Edges), reverse(Values0, Values).

list_(Ts0, list(Items), Ts) :-
    expect_(lsqb, Ts0, Ts1),
    Ts1 = [T|Ts2], peek_(T),
    (   T = t(rsqb, _, _, _, _) -> Items = [], Ts = Ts2
    ;   items_(Ts1, Items, Ts3), expect_(rsqb, Ts3, Ts)
    ).

items_(Ts0, [I|Is], Ts) :-
    Ts0 = [T|_], peek_(T),
    (   T = t(lsqb, _, _, _, _) -> list_(Ts0, I, Ts1)
    ;   number_tok_(Ts0, V, Pos, Ts1), I = leaf(V, Pos)
    ),
    Ts1 = [T1|Ts2], peek_(T1),
    (   T1 = t(comma, _, _, _, _) -> items_(Ts2, Is, Ts) ; Is = [], Ts = Ts1 ).

%   pyab's walk (pyab/tree.py, nested_declarations): pre-order, so the
%   declarations come in the order pyab checks them.
dewey_([], E, E, V, V).
dewey_([Name-Node|Stack], E0, E, V0, V) :-
    (   Node = list(Items)
    ->  length(Items, N), numlist_(1, N, Is),
        maplist(kid_name_(Name), Is, KidNames),
        findall(K-(1-1), member(K, KidNames), Kids),
        pairs_keys_values(Pushed, KidNames, Items),
        append(Pushed, Stack, Stack1),
        dewey_(Stack1, [e(Name, 1-1, Kids)|E0], E, V0, V)
    ;   Node = leaf(Val, Pos),
        dewey_(Stack, E0, E, [v(Name, Val, Pos)|V0], V)
    ).

numlist_(L, H, Is) :- ( H < L -> Is = [] ; numlist(L, H, Is) ).

kid_name_(Parent, I, Kid) :- format(atom(Kid), '~w_~d', [Parent, I]).

%   --- the checks of pyab's build, in its order -------------------------------

%   Like pyab (tree.py, build_plain), bulk checks by sorting first; only
%   when one fails, the walk below names the first problem in pyab's order.
%   The tree is then walked with thread-local tables (hashed on the name).

:- thread_local kid_/2, val_/2, marked_/2.

build_(Decl, Facts) :-
    Decl = decl(_, Side0, Edges, Values, _, Marks),
    (   quick_ok_(Decl, Root)
    ->  true
    ;   checked_(Decl),
        roots_quick_(Edges, Values, [Root])
    ),
    setup_call_cleanup(
        tables_(Edges, Values, Marks),
        walk_(Root, Side0, Facts),
        clear_tables_).

tables_(Edges, Values, Marks) :-
    clear_tables_,
    forall(member(e(N, _, Ks), Edges), ( pairs_keys(Ks, Names), assertz(kid_(N, Names)) )),
    forall(member(v(N, V, _), Values), assertz(val_(N, V))),
    forall(member(m(N, S, _), Marks), assertz(marked_(N, S))).

clear_tables_ :- retractall(kid_(_, _)), retractall(val_(_, _)), retractall(marked_(_, _)).

quick_ok_(decl(_, _, Edges, Values, Defined, Marks), Root) :-
    \+ memberchk(e(_, _, []), Edges),
    findall(N, member(e(N, _, _), Edges), Parents),
    findall(K, ( member(e(_, _, Ks), Edges), member(K-_, Ks) ), Kids),
    findall(N, member(v(N, _, _), Values), Valued),
    findall(V, member(v(_, V, _), Values), Vs),
    unique_(Parents, PSet), unique_(Kids, KSet), unique_(Valued, VSet),
    plain_values_ok_(Vs),
    ord_union(PSet, VSet, Declared),
    ord_subtract(Declared, KSet, [Root]),
    ord_union(Declared, KSet, All),
    length(All, NAll), length(KSet, NK), NAll =:= NK + 1,
    ord_subtract(KSet, Declared, []),       % every node has children or a value
    (   Defined == [] -> true
    ;   pairs_keys(Defined, DNames), unique_(DNames, DSet), DSet == All
    ),
    b_getval(tree_dsl_surrogates, false),
    marks_agree_(Marks),
    reached_(Root, Edges, NAll).

unique_(List, Set) :- sort(List, Set), length(List, N), length(Set, N).

plain_values_ok_(Vs) :-
    \+ memberchk(inf(_), Vs),
    \+ ( member(V, Vs), integer(V), abs(V) >= 2**1024 ),
    (   member(F, Vs), float(F)
    ->  \+ ( member(I, Vs), integer(I), \+ exact_(I) )
    ;   true
    ).

marks_agree_(Marks) :-
    findall(N-S, member(m(N, S, _), Marks), Pairs),
    sort(Pairs, Set), pairs_keys(Set, Names), sort(Names, Unique),
    length(Names, L), length(Unique, L).

reached_(Root, Edges, N) :-
    setup_call_cleanup(
        ( clear_tables_,
          forall(member(e(P, _, Ks), Edges), ( pairs_keys(Ks, Names), assertz(kid_(P, Names)) )) ),
        ( pre_([Root], Order), length(Order, N) ),
        clear_tables_).

roots_quick_(Edges, Values, Roots) :-
    findall(N, member(e(N, _, _), Edges), Parents),
    findall(K, ( member(e(_, _, Ks), Edges), member(K-_, Ks) ), Kids),
    findall(N, member(v(N, _, _), Values), Valued),
    sort(Parents, PSet), sort(Kids, KSet), sort(Valued, VSet),
    ord_union(PSet, VSet, Declared),
    ord_subtract(Declared, KSet, Roots).

%   Pre-order from the root, with an explicit stack (trees may be deep).
pre_([], []).
pre_([N|Stack], [N|Order]) :-
    (   kid_(N, Ks) -> append(Ks, Stack, Stack1) ; Stack1 = Stack ),
    pre_(Stack1, Order).

%   The facts in pyab's order, the sides as pyab/tree.py with_sides gives
%   them: a mark wins, else the opposite of the parent's; the root's is
%   Side0 unless marked.
walk_(Root, Side0, Facts) :-
    (   marked_(Root, RS) -> true ; RS = Side0 ),
    walk_([Root-RS], Trees, [], Statics, [], Mins, [], Maxs, []),
    append([Trees, Statics, Mins, Maxs, [(moves(Pos, Moves) :- tree(Pos, Moves))]], Facts).

walk_([], T, T, S, S, Mi, Mi, Ma, Ma).
walk_([N-Side|Stack], T0, T, S0, S, Mi0, Mi, Ma0, Ma) :-
    (   Side == min -> Mi0 = [min_to_move(N)|Mi1], Ma0 = Ma1 ; Ma0 = [max_to_move(N)|Ma1], Mi0 = Mi1 ),
    (   val_(N, V) -> S0 = [staticval(N, V)|S1] ; S0 = S1 ),
    (   kid_(N, Ks)
    ->  T0 = [tree(N, Ks)|T1],
        other_(Side, Other),
        kid_sides_(Ks, Other, Stack, Stack1)
    ;   T0 = T1, Stack1 = Stack
    ),
    walk_(Stack1, T1, T, S1, S, Mi1, Mi, Ma1, Ma).

kid_sides_([], _, Stack, Stack).
kid_sides_([K|Ks], Other, Stack, [K-S|Rest]) :-
    (   marked_(K, M) -> S = M ; S = Other ),
    kid_sides_(Ks, Other, Stack, Rest).

%   The walk over the declarations, one at a time, that names the first
%   problem (pyab/tree.py, _build_checked and with_sides).
checked_(decl(_Form, Side0, Edges, Values, Defined, Marks)) :-
    empty_assoc(W0),
    check_defined_(Defined, W0, W1, Where1),
    check_edges_(Edges, W1, W2, Where1, Where2, Kids, Parents),
    check_values_(Values, W2, W3, Where2, Where3, Vals),
    reverse(Where3, WhereList),            % names in first-seen order
    check_names_(WhereList, W3),
    check_mixed_(Values, Vals),
    roots_(WhereList, Parents, W3, Root),
    order_(Root, Kids, Order),
    length(Order, NOrder), length(WhereList, NWhere),
    (   NOrder =:= NWhere -> true
    ;   list_to_assoc_set_(Order, Reached),
        member(Lost, WhereList), \+ get_assoc(Lost, Reached, _), !,
        get_assoc(Lost, W3, P),
        fmt_(M, 'cycle through ~q: it cannot be reached from the root', [Lost]),
        throw_at_(M, P)
    ),
    (   member(N, Order), \+ get_assoc(N, Kids, _), \+ get_assoc(N, Vals, _)
    ->  get_assoc(N, W3, P2),
        fmt_(M2, 'leaf ~q has no value', [N]),
        throw_at_(M2, P2)
    ;   true
    ),
    sides_(Order, Root, Kids, Side0, Marks, _Sides).

fmt_(M, F, A) :- format(atom(M), F, A).

%   A place as pyab writes it in a message: LINE:COL, or elsewhere.
place_text_(0-0, elsewhere) :- !.
place_text_(L-C, At) :- format(atom(At), '~d:~d', [L, C]).

%   where: Name -> first position; Where: names, newest first.
seen_(Name, Pos, W0, W, S0, S) :-
    (   get_assoc(Name, W0, _) -> W = W0, S = S0 ; put_assoc(Name, W0, Pos, W), S = [Name|S0] ).

check_defined_([], W, W, []) :- !.
check_defined_(Defined, W0, W, Where) :-
    foldl(defined_, Defined, W0-[], W-Where).

defined_(Name-Pos, W0-S0, W-[Name|S0]) :-
    (   get_assoc(Name, W0, First)
    ->  place_text_(First, At), fmt_(M, 'duplicate name ~q (first at ~w)', [Name, At]), throw_at_(M, Pos)
    ;   put_assoc(Name, W0, Pos, W)
    ).

throw_at_(M, L-C) :- ( L-C == 0-0 -> throw(dsl(M, none)) ; throw(dsl(M, pos(L, C))) ).

check_edges_(Edges, W0, W, S0, S, Kids, Parents) :-
    empty_assoc(K0), empty_assoc(P0),
    foldl(edge_, Edges, t(W0, S0, K0, P0), t(W, S, Kids, Parents)).

edge_(e(Name, Pos, Children), t(W0, S0, K0, P0), t(W, S, K, P)) :-
    seen_(Name, Pos, W0, W1, S0, S1),
    (   get_assoc(Name, K0, _)
    ->  fmt_(M, '~q has its children listed twice', [Name]), throw_at_(M, Pos)
    ;   Children == []
    ->  fmt_(M, 'inner node ~q has no children', [Name]), throw_at_(M, Pos)
    ;   true
    ),
    foldl(child_(Name), Children, t(W1, S1, P0), t(W, S, P)),
    pairs_keys(Children, Names),
    put_assoc(Name, K0, Names, K).

child_(Parent, Child-CPos, t(W0, S0, P0), t(W, S, P)) :-
    seen_(Child, CPos, W0, W, S0, S),
    (   get_assoc(Child, P0, First-FPos)
    ->  place_text_(FPos, At),
        fmt_(M, '~q already has the parent ~q (at ~w): a node has one parent, so names must be unique',
             [Child, First, At]),
        throw_at_(M, CPos)
    ;   put_assoc(Child, P0, Parent-CPos, P)
    ).

check_values_(Values, W0, W, S0, S, Vals) :-
    empty_assoc(V0),
    foldl(value_, Values, t(W0, S0, V0), t(W, S, Vals)).

value_(v(Name, Value, Pos), t(W0, S0, V0), t(W, S, V)) :-
    seen_(Name, Pos, W0, W, S0, S),
    (   Value = inf(_)
    ->  fmt_(M, 'value of ~q is not finite', [Name]), throw_at_(M, Pos)
    ;   get_assoc(Name, V0, _)
    ->  fmt_(M, '~q has two values', [Name]), throw_at_(M, Pos)
    ;   put_assoc(Name, V0, Value, V)
    ).

%   Lone surrogates (from \uD800) are not Unicode characters.
check_names_(Names, W) :-
    (   b_getval(tree_dsl_surrogates, true),
        member(N, Names), atom_codes(N, Cs), member(C, Cs), between(0xD800, 0xDFFF, C)
    ->  get_assoc(N, W, P),
        fmt_(M, 'name ~q holds a lone surrogate (not a Unicode character)', [N]),
        throw_at_(M, P)
    ;   true
    ).

%   Numbers SWI-Prolog and Python would compare differently (pyab/tree.py,
%   _check_mixed): integers from 2**1024 up; integers a float cannot hold
%   exactly, next to decimals.  In the order of the values' first writing.
check_mixed_(Values, Vals) :-
    first_values_(Values, Vals, Firsts),
    (   member(N-V-P, Firsts), integer(V), abs(V) >= 2**1024
    ->  fmt_(M, 'value of ~q is too large: integers from 2**1024 up cannot be compared with the window\'s infinite bounds', [N]),
        throw_at_(M, P)
    ;   true
    ),
    (   member(FN-FV-FP, Firsts), float(FV)
    ->  (   member(N2-V2-P2, Firsts), integer(V2), \+ exact_(V2)
        ->  place_text_(FP, At),
            fmt_(M2, 'value of ~q is an integer a float cannot hold exactly, and the tree also has decimals (~q at ~w)',
                 [N2, FN, At]),
            throw_at_(M2, P2)
        ;   true
        )
    ;   true
    ).

first_values_(Values, Vals, Firsts) :-
    empty_assoc(D0),
    foldl(first_value_(Vals), Values, D0-Firsts, _-[]).

first_value_(_Vals, v(N, V, P), D0-[N-V-P|T], D-T) :-
    \+ get_assoc(N, D0, _), !, put_assoc(N, D0, x, D).
first_value_(_, _, D-T, D-T).

exact_(I) :- catch(( F is float(I), J is integer(F) ), error(_, _), fail), J =:= I.

roots_(Names, Parents, W, Root) :-
    exclude(has_parent_(Parents), Names, Roots),
    (   Roots = []
    ->  Names = [First|_], get_assoc(First, W, P),
        fmt_(M, 'cycle: every node is somebody\'s child (see ~q)', [First]), throw_at_(M, P)
    ;   Roots = [Root]
    ->  true
    ;   Roots = [R1, R2|_], get_assoc(R2, W, P),
        fmt_(M, 'two roots, ~q and ~q: every node but the root must be somebody\'s child', [R1, R2]),
        throw_at_(M, P)
    ).

has_parent_(Parents, N) :- get_assoc(N, Parents, _).

order_(Root, Kids, Order) :- pre_assoc_([Root], Kids, Order).

pre_assoc_([], _, []).
pre_assoc_([N|Stack], Kids, [N|Order]) :-
    (   get_assoc(N, Kids, Ks) -> append(Ks, Stack, Stack1) ; Stack1 = Stack ),
    pre_assoc_(Stack1, Kids, Order).

list_to_assoc_set_(Names, A) :-
    findall(N-x, member(N, Names), Pairs0), sort(Pairs0, Pairs), list_to_assoc(Pairs, A).

%   Sides (pyab/tree.py, with_sides): a mark wins, else the opposite of
%   the parent's; the root takes Side0 unless marked.
sides_(Order, Root, Kids, Side0, Marks, Sides) :-
    empty_assoc(M0),
    foldl(mark_check_, Marks, M0, Marked),
    (   get_assoc(Root, Marked, RS-_) -> true ; RS = Side0 ),
    empty_assoc(S0), put_assoc(Root, S0, RS, S1),
    foldl(side_of_(Kids, Marked), Order, S1, Sides).

mark_check_(m(Name, Side, Pos), M0, M) :-
    (   get_assoc(Name, M0, First-FPos), First \== Side
    ->  place_text_(FPos, At),
        fmt_(Msg, '~q is marked ~w (at ~w) and ~w', [Name, First, At, Side]), throw_at_(Msg, Pos)
    ;   put_assoc(Name, M0, Side-Pos, M)
    ).

side_of_(Kids, Marked, N, S0, S) :-
    get_assoc(N, S0, Side),
    (   get_assoc(N, Kids, Ks)
    ->  other_(Side, Other),
        foldl(kid_side_(Marked, Other), Ks, S0, S)
    ;   S = S0
    ).

kid_side_(Marked, Other, K, A0, A) :-
    (   get_assoc(K, Marked, KS-_) -> put_assoc(K, A0, KS, A) ; put_assoc(K, A0, Other, A) ).

other_(max, min).
other_(min, max).
