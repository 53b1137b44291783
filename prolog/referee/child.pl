/*  The child side of pyab's referee for a Prolog program under test.

    Run by pyab (pyab/referee/program.py) as

        swipl -g pyab_child:main -t halt prolog/referee/child.pl -- [--untrusted] PROGRAM.pl

    (main/0 is not an initialization goal, so that the plunit tests can load
    this module.)

    The program is loaded into a module of its own, `student`, and never
    sees pyab's bridge or the reference programs.  The four predicates the
    slides' program needs from its fact file are provided here, answered
    from the tree the parent ships with each job and recorded, in the order
    asked, by this module (never by the program):

        moves(Pos, Moves)     the children of Pos; fails at a leaf
        staticval(Pos, Val)   the static value of Pos
        max_to_move(Pos)      MAX is to move at Pos
        min_to_move(Pos)      MIN is to move at Pos: the sides are two, so
                              one record (max_to_move, once a node) serves
                              both tests

    A job is one line of Prolog text written by pyab (every name quoted by
    pyab.dsl.quoted.quote, every number by pyab.text.number); pyab may
    write many at once:

        j(Root, Alpha, Beta, Depth, Entry, n(Name, ...), k(Kids, ...),
          v(Value, ...), "Sides").

    Entry is the algorithm's entry goal as an atom written with the
    variables Root, Alpha, Beta, Depth, Best and Val, for example
    'alphabeta(Root, Alpha, Beta, Best, Val)'; Depth is a number or inf.
    The tree is one argument a node in pyab's order (a node's Id is its
    place, from 0, its argument Id+1): its name, its children's Ids (a
    list), its static value (a number, or n for none) and a character of
    Sides, x where MAX is to move, n where MIN is.  Each job is answered,
    in order, by one JSON line, written (flushed) as soon as it is known:
    {"asked": Codes, "best": Best, "value": Val}, Codes the questions
    asked, each Id*3+Q (Q: 0 moves, 1 max_to_move, 2 staticval); Best the
    Id of the node the program gave (pyab names it), its text when it is
    not a node, or null (JSON's null) when it is left unbound, the answer
    "no move"; a value "inf"/"-inf" stands for an infinity.  A question no
    correct search asks (a term that is not a node the search was given,
    the static value of an inner node) ends the search at once with
    {"asked": Codes, "stray": [Question, Name]}, and the child halts: the
    parent replays the record and says what was wrong.  At the end of input
    the child halts with 0.

    The program's own output (write/1, format/2, ...) goes to standard
    error: standard output carries the protocol only, standard input is the
    parent's (the program reads an empty stream).

    Loading:
      - plain: the program is consulted into `student` (its directives run:
        for trusted code only);
      - --untrusted: its clauses are read, not consulted; the directives
        that run are dynamic/1 and discontiguous/1 of its own predicates,
        a module header :- module(Name, Exports) as its first term (its
        predicates are then the program's, in `student`), imports of
        libraries library(sandbox) accepts (use_module/1,2 and
        ensure_loaded/1 of library(L), L a path without ..), include/1,
        consult/1, ensure_loaded/1 or [F] of a file in the program's own
        folder (read the same way, each once), initialization(G) (run
        once the file is read) and any other goal that library(sandbox)'s
        safe_goal/1 holds safe (format/1,2, write/1, nl/0, ...); anything
        else is refused with its file, line and why.  The entry goal is
        vetted with safe_goal/1 before anything runs.  SWI-Prolog 9's library(sandbox) holds
        print_message/2 and message_to_string/2 safe, but a message that
        formats with ~@ calls its argument: under --untrusted both run only
        messages whose every line is plain text (vet_message_/1); the rest
        raise a permission error.  pyab runs this child inside an
        operating-system sandbox as well (pyab/referee/sandbox.py).
    In both a program that defines moves/2, staticval/2, max_to_move/1 or
    min_to_move/1 itself is refused, naming the predicate.  Under
    --untrusted a clause that names this module (pyab_child) is refused too:
    library(sandbox) holds pyab_child:retract(G) safe (an ISO built-in
    called in another module), and the record must stay out of the
    program's reach.

    Exit codes (read by the parent): 0 end of input; 3 the program raised
    an error; 4 it ran out of a resource (stacks, memory); 5 refused
    (--untrusted); 6 the program could not be loaded; 7 the entry goal
    failed (no answer); 2 a bad command line, or a line that is not a job.
*/

:- module(pyab_child,
          [ main/0,
            moves/2,
            staticval/2,
            max_to_move/1,
            min_to_move/1
          ]).

:- use_module(library(http/json)).
:- use_module(library(sandbox)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(prolog_wrap)).
:- use_module(library(prolog_format), [format_types/2]).
:- use_module(library(when)).           % format_types/2 needs it: loaded now, not
                                        % autoloaded (with a message) mid-vetting
:- use_module('../bridge/entry').      % the entry goal, read as the bridge reads it

:- dynamic protocol_/2.                  % In, Out: the parent's streams

%!  provided(?Name, ?Arity) is nondet.
%
%   The predicates the child provides to the program.

provided(moves, 2).
provided(staticval, 2).
provided(max_to_move, 1).
provided(min_to_move, 1).

%!  main is det.
%
%   The child's life: read the command line (`[--untrusted] PROGRAM.pl`
%   after `--`), take the parent's streams, load the program (vetted
%   clause by clause under --untrusted), then answer the parent's jobs
%   until its input ends.  Halts with status 2 on a bad command line.

main :-
    current_prolog_flag(argv, Argv),
    (   append(Opts, [File], Argv)
    ->  true
    ;   format(user_error, "usage: child.pl [--untrusted] PROGRAM.pl~n", []),
        halt(2)
    ),
    take_streams_,
    (   memberchk('--untrusted', Opts)
    ->  load_untrusted_(File)
    ;   load_trusted_(File)
    ),
    serve_(Opts).

%   The parent's streams are kept for the protocol; the program gets an
%   empty standard input and writes its "standard output" to stderr.

take_streams_ :-
    stream_property(In, alias(user_input)),
    stream_property(Out, alias(user_output)),
    set_stream(In, encoding(utf8)),
    set_stream(Out, encoding(utf8)),
    assertz(protocol_(In, Out)),
    open_string("", Empty),
    set_stream(Empty, alias(user_input)),
    set_stream(user_error, alias(user_output)),
    set_input(Empty),
    set_output(user_error).

                 /*******************************
                 *          QUESTIONS           *
                 *******************************/

%   While the program searches a job's tree, the tree and the record of
%   its questions are one term, the store, held as the first argument of
%   the frame that runs the search (search_/2); a question finds it there,
%   walking up its own stack (prolog_frame_attribute/3).  No global
%   variable or clause holds it: library(sandbox) lets a program read any
%   global variable (nb_current/2) and change any term it holds
%   (nb_setarg/3), but not look at frames, and the loader refuses a clause
%   that names this module.  The store is
%
%       s(Ids, Names, Kids, Values, Sides, Given, Sided, Count, Codes)
%
%   Ids a dict from a node's name to its Id; Names, Kids, Values and Sides
%   the job's, one argument (one character of Sides) a node, at Id+1;
%   Given and Sided one argument a node, bound (by nb_setarg/3, so that
%   the program's backtracking keeps it) once the node was handed to the
%   search (the root, and the children of a node whose moves were asked)
%   and once its side was recorded; the first Count arguments of Codes the
%   questions asked, in order, each Id*3+Q (Q: 0 moves, 1 max_to_move,
%   2 staticval).  A question about a term that is not a node the search
%   was given ends the search at once (stray_/2), as the parent would end
%   it.

%!  moves(+Pos, -Moves) is semidet.
%
%   Moves are the children of Pos in the shipped tree, in order; fails at
%   a leaf.  Recorded as asked.  A Pos not given yet ends the search.

moves(Pos, Moves) :-
    store_(S),
    given_(S, moves, Pos, I),
    C is I*3-3,
    record_(S, C),
    arg(3, S, Kids),
    arg(I, Kids, KidIds),
    KidIds \== [],
    arg(2, S, Names),
    arg(6, S, Given),
    kid_names_(KidIds, Names, Given, Moves0),
    Moves = Moves0.

kid_names_([], _, _, []).
kid_names_([K|Ks], Names, Given, [Name|Rest]) :-
    I is K+1,
    arg(I, Names, Name),
    nb_setarg(I, Given, g),
    kid_names_(Ks, Names, Given, Rest).

%!  staticval(+Pos, -Val) is det.
%
%   Val is the static value of Pos.  Recorded as asked.  Asked of a node
%   without one (an inner node), or of a Pos not given yet, it ends the
%   search: only a wrong search asks so.

staticval(Pos, Val) :-
    store_(S),
    given_(S, staticval, Pos, I),
    arg(4, S, Values),
    arg(I, Values, Val0),
    (   Val0 == n
    ->  stray_(staticval, Pos)          % an inner node: the parent says so
    ;   C is I*3-1,
        record_(S, C),
        Val = Val0
    ).

%!  max_to_move(+Pos) is semidet.
%!  min_to_move(+Pos) is semidet.
%
%   True when MAX (MIN) is to move at Pos.  The sides are two, so MIN is to
%   move exactly where MAX is not: one question, recorded the first time a
%   node's side is asked (it never changes), serves both tests.  A Pos not
%   given yet ends the search.

max_to_move(Pos) :-
    side_(Pos, Side),
    Side == 0'x.

min_to_move(Pos) :-
    side_(Pos, Side),
    Side == 0'n.

side_(Pos, Side) :-
    store_(S),
    (   node_arg_(S, Pos, I),
        arg(7, S, Sided),
        arg(I, Sided, Was),
        nonvar(Was)                     % recorded, and so given
    ->  true
    ;   given_(S, max_to_move, Pos, I),
        arg(7, S, Sided),
        nb_setarg(I, Sided, s),
        C is I*3-2,
        record_(S, C)
    ),
    arg(5, S, Sides),
    string_code(I, Sides, Side).

%   I is the argument of node Pos, which the search was given.

given_(S, Key, Pos, I) :-
    (   node_arg_(S, Pos, I),
        arg(6, S, Given),
        arg(I, Given, G),
        nonvar(G)
    ->  true
    ;   stray_(Key, Pos)
    ).

%   I is the argument of the node named Pos in the store's tuples.

node_arg_(S, Pos, I) :-
    atom(Pos),
    arg(1, S, Ids),
    get_dict(Pos, Ids, Id),
    I is Id+1.

record_(S, C) :-
    arg(8, S, N0),
    N is N0+1,
    arg(9, S, Codes),
    functor(Codes, _, Room),
    (   N =< Room
    ->  nb_setarg(N, Codes, C)
    ;   Codes =.. [F|Old],              % full: twice the room (nb_setarg/3 copies it)
        length(More, Room),
        append(Old, More, All),
        Bigger =.. [F|All],
        nb_setarg(9, S, Bigger),
        arg(9, S, Kept),
        nb_setarg(N, Kept, C)
    ),
    nb_setarg(8, S, N).

%   The store of the search under way; a question asked outside a search
%   (a directive's) is one no search was given.

store_(S) :-
    prolog_current_frame(F),
    (   prolog_frame_attribute(F, parent_goal, pyab_child:search_(S0, _))
    ->  S = S0
    ;   throw(error(existence_error(pyab_search, tree),
                    context(pyab_child:store_/1, 'a question about the tree outside a search')))
    ).

%   A question only a wrong search asks: the record so far and the question
%   go to the parent, which replays them and says what was wrong; the child
%   halts at once, so that no catch/3 of the program can go on searching.

stray_(Key, Pos) :-
    (   atom(Pos)
    ->  atom_string(Pos, Name)
    ;   term_string(Pos, Name)          % not a node: the parent says so
    ),
    store_(S),
    protocol_(_, Out),
    asked_codes_(S, Codes),
    format(Out, '{"asked":~w,"stray":[', [Codes]),
    json_write(Out, Key),
    write(Out, ','),
    json_write(Out, Name, [width(0)]),
    write(Out, ']}'),
    nl(Out),
    flush_output(Out),
    halt(0).

asked_codes_(S, Codes) :-
    arg(8, S, N),
    arg(9, S, All),
    All =.. [_|Args],
    length(Codes, N),
    append(Codes, _, Args).

%   The questions are the parent's business: the sandbox may let the
%   program call them.

:- multifile sandbox:safe_primitive/1, sandbox:safe_meta/2.

sandbox:safe_primitive(pyab_child:moves(_, _)).
sandbox:safe_primitive(pyab_child:staticval(_, _)).
sandbox:safe_primitive(pyab_child:max_to_move(_)).
sandbox:safe_primitive(pyab_child:min_to_move(_)).

%   Debug lines to user_error are harmless here (stderr is captured by
%   the parent); library(sandbox) allows only the current streams.

sandbox:safe_meta(system:format(Out, Format, Args), Calls) :-
    Out == user_error,
    sandbox:format_calls(Format, Args, Calls).
sandbox:safe_primitive(system:nl(Out)) :- Out == user_error.
sandbox:safe_primitive(system:write(Out, _)) :- Out == user_error.
sandbox:safe_primitive(system:writeln(Out, _)) :- Out == user_error.
sandbox:safe_primitive(system:print(Out, _)) :- Out == user_error.
%   Tracing on the current output (here the captured stderr: the program
%   cannot change it, set_output/1 is not safe): library(sandbox) allows
%   only writeln/1 and format/1,2.  print/1 (and writef/2's %p) adds
%   portray/1 hooks to write/1, and a program under --untrusted cannot
%   define one (a clause for user:portray/1 is for another module: refused).
%   write_term/2 is left out: its portray_goal option calls a goal.
sandbox:safe_primitive(system:write(_)).
sandbox:safe_primitive(system:writeq(_)).
sandbox:safe_primitive(system:print(_)).
sandbox:safe_primitive(system:write_canonical(_)).
sandbox:safe_primitive(system:nl).
sandbox:safe_primitive(system:tab(_)).
sandbox:safe_primitive(system:put_char(_)).
sandbox:safe_primitive(system:put(_)).
sandbox:safe_primitive(system:ttyflush).
sandbox:safe_primitive(system:flush_output).
sandbox:safe_primitive(system:writeq(Out, _)) :- Out == user_error.

                 /*******************************
                 *           LOADING            *
                 *******************************/

prepare_module_ :-
    forall(provided(Name, Arity),
           student:import(pyab_child:Name/Arity)).

%   Trusted: consult.  Errors printed while loading end the child (6).

:- dynamic load_error_/1.

load_trusted_(File) :-
    prepare_module_,
    setup_call_cleanup(
        asserta((user:message_hook(Term, error, _) :- pyab_child:note_load_error_(Term)), Ref),
        catch(student:load_files(File, [if(true)]), E, true),
        erase(Ref)),
    (   nonvar(E)
    ->  refuse_or_fail_(6, E)
    ;   load_error_(First)
    ->  refuse_or_fail_(6, First)
    ;   true
    ).

note_load_error_(Term) :-
    \+ load_error_(_),
    (   source_location(File, Line)     % where the loader is: the clause's line
    ->  assertz(load_error_(at(File:Line, Term)))
    ;   assertz(load_error_(Term))
    ),
    fail.

%   Untrusted: read clause by clause; only harmless directives run.

load_untrusted_(File) :-
    prepare_module_,
    guard_messages_,
    absolute_file_name(File, Abs),
    file_directory_name(Abs, Dir),
    assertz(home_(Dir)),
    catch(read_file_(Abs), E, refuse_or_fail_(6, E)).

:- dynamic home_/1, read_/1.            % the program's folder; files read

read_file_(File) :-
    (   read_(File)
    ->  true                            % each file once: no include loop
    ;   assertz(read_(File)),
        setup_call_cleanup(
            open(File, read, S, [encoding(utf8)]),
            read_clauses_(S, File),
            close(S)),
        run_initialization_(File)
    ).

%   initialization(G) directives run, in order, once their file is read
%   (as consult runs them once the file is loaded).

:- dynamic initialization_/3.           % File, Goal, Where

run_initialization_(File) :-
    forall(retract(initialization_(File, G, Where)),
           ( vet_directive_(G, Where),
             run_directive_(G, Where) )).

%   include/1, consult/1, ensure_loaded/1 and [F]: a file of the program's
%   own folder (relative to the file that names it), read as clauses.

own_file_(Spec, Where, Path) :-
    Where = From:_,
    (   atom(Spec) -> Name = Spec
    ;   string(Spec) -> atom_string(Name, Spec)
    ;   refuse_(Where, "~q names no file of the program's folder", [Spec])
    ),
    file_directory_name(From, FromDir),
    absolute_file_name(Name, Path0, [relative_to(FromDir)]),
    (   exists_file(Path0) -> Path = Path0
    ;   file_name_extension(Path0, pl, Path), exists_file(Path) -> true
    ;   refuse_(Where, "there is no file ~q in the program's folder", [Spec])
    ),
    home_(Home),
    atom_concat(Home, '/', Prefix),
    (   sub_atom(Path, 0, _, _, Prefix)
    ->  true
    ;   refuse_(Where, "~q is not in the program's own folder ~w", [Spec, Home])
    ).

include_directive_(include(F), F).
include_directive_(consult(F), F).
include_directive_(ensure_loaded(F), F) :- F \= library(_).
include_directive_([F], F).

%   Messages that run goals: refused (see the header).

guard_messages_ :-
    wrap_predicate('$messages':print_message(K, T), pyab_child, W,
                   (K == silent -> W ; pyab_child:vet_message_(T), W)),
    wrap_predicate('$messages':message_to_string(T2, _), pyab_child, W2,
                   (pyab_child:vet_message_(T2), W2)).

vet_message_(T) :-
    (   catch('$messages':translate_message(T, Lines, []), _, fail),
        forall(member(L, Lines), plain_line_(L))
    ->  true
    ;   throw(error(permission_error(print, message, T),
                    context(pyab_child:vet_message_/1,
                            'a message that can run a goal (~@) is not allowed under --untrusted')))
    ).

plain_line_(L) :- var(L), !, fail.
plain_line_(Fmt-Args) :- !, plain_format_(Fmt, Args).
plain_line_(ansi(_, Fmt, Args)) :- !, plain_format_(Fmt, Args).
plain_line_(Fmt) :- (atom(Fmt) ; string(Fmt)), !, plain_format_(Fmt, []).
plain_line_(L) :- memberchk(L, [nl, flush, at_same_line, full_stop]), !.
plain_line_(begin(_, _)).
plain_line_(end(_)).
plain_line_(prefix(_)).
plain_line_(url(_)).
plain_line_(url(_, _)).

plain_format_(Fmt, Args) :-
    (   atom(Fmt) ; string(Fmt) ),
    catch(format_types(Fmt, Types), _, fail),
    \+ memberchk(callable, Types),
    (   is_list(Args) -> true ; Args \= [_|_] ).

read_clauses_(S, File) :-
    read_clauses_(S, File, first).

read_clauses_(S, File, Nth) :-
    read_term(S, T, [module(student), term_position(P), syntax_errors(error)]),
    (   T == end_of_file
    ->  true
    ;   stream_position_data(line_count, P, Line),
        (   Nth == first, module_header_(T, File:Line)
        ->  true
        ;   clause_(T, File:Line)
        ),
        read_clauses_(S, File, later)
    ).

%   :- module(Name, Exports), the first term of the program's file (many
%   textbook copies start so): its predicates are the program's, read into
%   `student` like any other; the exports are checked, not used.

module_header_((:- module(Name, Exports)), Where) :-
    (   atom(Name), is_list(Exports)
    ->  true
    ;   refuse_(Where, "the module header :- module(~q, ~q) needs a name and a list of exports",
                [Name, Exports])
    ).

clause_((:- D), Where) :- !, directive_(D, Where).
clause_((?- D), Where) :- !, directive_(D, Where).
clause_((H --> B), Where) :- !,
    dcg_translate_rule((H --> B), C),
    clause_(C, Where).
clause_(C, Where) :-
    (   C = (H :- _) -> true ; H = C ),
    (   var(H)
    ->  refuse_(Where, "a clause with a variable head", [])
    ;   H = _:_
    ->  refuse_(Where, "a clause for another module (~q)", [H])
    ;   \+ callable(H)
    ->  refuse_(Where, "a clause whose head is not callable (~q)", [H])
    ;   sub_term(S, C), S == pyab_child
    ->  refuse_(Where, "a clause that names pyab's own module pyab_child", [])
    ;   functor(H, N, A),
        provided(N, A)
    ->  reserved_(N/A, Where)
    ;   catch(assertz(student:C), E, refuse_(Where, "cannot add the clause: ~w", [E]))
    ).

directive_(D, Where) :-
    nonvar(D),
    include_directive_(D, Spec),
    !,
    own_file_(Spec, Where, Path),
    read_file_(Path).
directive_(D, Where) :-
    (   var(D)
    ->  refuse_(Where, "a directive that is a variable", [])
    ;   sub_term(T, D), T == pyab_child
    ->  refuse_(Where, "a directive that names pyab's own module pyab_child", [])
    ;   D = module(_, _)
    ->  refuse_(Where, "a module header that is not the file's first term", [])
    ;   initialization_directive_(D, G)
    ->  Where = File:_,
        assertz(initialization_(File, G, Where))
    ;   allowed_directive_(D)
    ->  run_directive_(D, Where)
    ;   loads_file_(D)
    ->  refuse_(Where, "loads neither a library library(sandbox) accepts nor a file of the program's folder: :- ~q", [D])
    ;   vet_directive_(D, Where),
        run_directive_(D, Where)
    ).

loads_file_(use_module(_)).
loads_file_(use_module(_, _)).
loads_file_(ensure_loaded(_)).
loads_file_(load_files(_, _)).

initialization_directive_(initialization(G), G).
initialization_directive_(initialization(G, now), G).

run_directive_(D, Where) :-
    (   catch(student:D, E, refuse_(Where, "the directive :- ~q raised ~q", [D, E]))
    ->  true
    ;   format(user_error, "Warning: ~w: goal (directive) failed: ~q~n", [Where, D])
    ).

%   A directive's goal runs when library(sandbox) holds it safe.

vet_directive_(G, Where) :-
    catch(safe_goal(student:G), E, true),
    (   var(E)
    ->  true
    ;   message_line_(E, Msg),
        refuse_(Where, "the directive :- ~q does not run under --untrusted: ~w", [G, Msg])
    ).

allowed_directive_(D) :- var(D), !, fail.
allowed_directive_(dynamic(Spec)) :- local_specs_(Spec).
allowed_directive_(discontiguous(Spec)) :- local_specs_(Spec).
allowed_directive_(use_module(library(L))) :- safe_library_(L).
allowed_directive_(use_module(library(L), Imports)) :- safe_library_(L), is_list(Imports).
allowed_directive_(ensure_loaded(library(L))) :- safe_library_(L).

%   The libraries library(sandbox) lets a sandboxed program load
%   (prolog:sandbox_allowed_directive/1: library(L), L a path without ..).

safe_library_(L) :-
    ground(L),
    catch(sandbox:safe_path(L), _, fail).

local_specs_(Spec) :- var(Spec), !, fail.
local_specs_((A, B)) :- !, local_specs_(A), local_specs_(B).
local_specs_([]) :- !.
local_specs_([H|T]) :- !, local_specs_(H), local_specs_(T).
local_specs_(N/A) :- atom(N), integer(A), \+ provided(N, A).

reserved_(N/A, Where) :-
    refuse_(Where, "defines its own ~w; the tree's moves/2, staticval/2, min_to_move/1 and max_to_move/1 come from pyab: remove these clauses (keep them in a separate file for your own games)", [N/A]).

refuse_(Where, Fmt, Args) :-
    format(string(Msg), Fmt, Args),
    one_line_(Msg, One),
    (   Where = File:Line
    ->  format(user_error, "pyab: refused: ~w:~w: ~w~n", [File, Line, One])
    ;   format(user_error, "pyab: refused: ~w~n", [One])
    ),
    halt(5).

refuse_or_fail_(Code, at(Where, E)) :- !,
    (   reserved_error_(E, N/A)
    ->  reserved_(N/A, Where)
    ;   refuse_or_fail_(Code, E)
    ).
refuse_or_fail_(Code, E) :-
    (   reserved_error_(E, N/A)
    ->  reserved_(N/A, program)
    ;   message_line_(E, Msg),
        format(user_error, "pyab: ~w~n", [Msg]),
        halt(Code)
    ).

reserved_error_(error(permission_error(modify, static_procedure, pyab_child:PI), _), PI).
reserved_error_(error(permission_error(_, imported_procedure, pyab_child:PI), _), PI).

message_line_(E, One) :-
    (   catch(message_to_codes(E, Codes), _, fail)
    ->  string_codes(Msg, Codes)
    ;   format(string(Msg), "~q", [E])
    ),
    one_line_(Msg, One).

message_to_codes(E, Codes) :-
    '$messages':translate_message(E, Lines, []),
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).

one_line_(Msg, One) :-
    split_string(Msg, "\n", " \t", Parts0),
    exclude(==(""), Parts0, Parts),
    atomic_list_concat(Parts, ' ', One).

                 /*******************************
                 *            JOBS              *
                 *******************************/

%   One job a line, answered in order; each answer is written (flushed) as
%   soon as it is known, so that the parent's clock times each search on
%   its own, and a child that dies leaves the answers before it complete.
%   A failure-driven loop: each job's terms go when it is answered.

serve_(Opts) :-
    protocol_(In, Out),
    repeat,
    read_term(In, Job, [syntax_errors(error), double_quotes(string)]),
    (   Job == end_of_file
    ->  !,
        halt(0)
    ;   job_(Job, Opts),
        flush_output(Out),
        fail
    ).

job_(j(Root0, Alpha0, Beta0, Depth0, Entry, Names, Kids, Values, Sides), Opts) :-
    !,
    entry_(Entry, Opts, e(Root, Alpha, Beta, Depth, Best, Val), Goal),
    e(Root, Alpha, Beta, Depth) = e(Root0, Alpha0, Beta0, Depth0),
    Names =.. [_|NameList],
    ids_(NameList, 0, Pairs),
    dict_pairs(Ids, i, Pairs),
    functor(Names, _, N),
    functor(Given, g, N),
    arg(1, Given, g),                   % the root is given
    functor(Sided, s, N),
    Room is 3*N+8,
    functor(Codes, c, Room),
    Store = s(Ids, Names, Kids, Values, Sides, Given, Sided, 0, Codes),
    (   catch(search_(Store, Goal), E, program_error_(E))
    ->  answer_(Store, Best, Val)
    ;   format(user_error, "pyab: the entry goal ~w failed (no answer)~n", [Entry]),
        halt_(7)
    ).

job_(Job, _) :-
    format(user_error, "pyab: not a job: ~q~n", [Job]),
    halt_(2).

ids_([], _, []).
ids_([Name|Names], Id, [Name-Id|Pairs]) :-
    Next is Id+1,
    ids_(Names, Next, Pairs).

%   The frame the questions find the store in (store_/1): Store is used
%   after the call, so the frame keeps it as its first argument.

search_(Store, Goal) :-
    student:Goal,
    arg(1, Store, _).

%   Each entry text is read once (entry_goal/3) and, under --untrusted,
%   vetted once (its template, before a job binds it), then copied.

:- dynamic entry_cache_/3.

entry_(Entry, Opts, Args, Goal) :-
    (   entry_cache_(Entry, Args, Goal)
    ->  true
    ;   entry_goal(Entry, Args0, Goal0),
        (   memberchk('--untrusted', Opts)
        ->  vet_(Goal0)
        ;   true
        ),
        assertz(entry_cache_(Entry, Args0, Goal0)),
        entry_cache_(Entry, Args, Goal)
    ).

vet_(Goal) :-
    catch(safe_goal(student:Goal), E, true),
    (   var(E)
    ->  true
    ;   message_line_(E, Msg),
        format(user_error, "pyab: refused: ~w~n", [Msg]),
        halt_(5)
    ).

program_error_(E) :-
    message_line_(E, Msg),
    format(user_error, "pyab: ~w~n", [Msg]),
    (   E = error(resource_error(_), _)
    ->  halt_(4)
    ;   halt_(3)
    ).

%   The answers written before this job's go first, then the child halts.

halt_(Code) :-
    protocol_(_, Out),
    catch(flush_output(Out), _, true),
    halt(Code).

%   The answer: Best as its node's Id when it is a node (the parent names
%   it), else as text; Val as JSON.

answer_(Store, Best, Val) :-
    protocol_(_, Out),
    asked_codes_(Store, Codes),
    (   var(Best) -> B = null             % unbound: the answer "no move"
    ;   atom(Best), arg(1, Store, Ids), get_dict(Best, Ids, B) -> true
    ;   atom(Best) -> atom_string(Best, S), with_output_to(string(B), json_write(current_output, S, [width(0)]))
    ;   term_string(Best, T), with_output_to(string(B), json_write(current_output, json([term=T]), [width(0)]))
    ),
    (   integer(Val) -> V = Val
    ;   float(Val), Val =:= inf -> V = '"inf"'
    ;   float(Val), Val =:= -inf -> V = '"-inf"'
    ;   float(Val), Val =\= Val -> V = '"nan"'
    ;   float(Val) -> V = Val
    ;   number(Val) -> V is float(Val)     % a rational
    ;   term_string(Val, T), with_output_to(string(V), json_write(current_output, json([term=T]), [width(0)]))
    ),
    format(Out, '{"asked":~w,"best":~w,"value":~w}~n', [Codes, B, V]).
