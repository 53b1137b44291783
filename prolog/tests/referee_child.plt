/*  Unit tests of prolog/referee/child.pl, the child that runs a program
    under test for pyab's referee: which directives an untrusted program
    may run, and the whole protocol with a real child process, answered
    from Prolog (no Python).  The child always runs in a process of its
    own: loading library(sandbox) into this process would change how the
    other suites' files compile (variants.plt's wrappers fail with it).

    Run: swipl -g run_tests -t halt prolog/tests/referee_child.plt
*/

:- dynamic rc_dir_/1.
:- prolog_load_context(directory, Dir),
   assertz(rc_dir_(Dir)).

:- use_module(library(process)).
:- use_module(library(http/json)).
:- use_module(library(readutil)).

:- begin_tests(referee_child).

test(harmless_directives, [forall(member(D, [ 'dynamic(count/1)',
                                              'dynamic((a/1, b/2))',
                                              'dynamic([a/1, b/2])',
                                              'discontiguous(helper/3)',
                                              'use_module(library(lists))',
                                              'use_module(library(apply), [foldl/4])',
                                              'ensure_loaded(library(lists))',
                                              'use_module(library(process))',
                                              'module(m, [alphabeta/5])',
                                              'format("loading~n")',
                                              'write(hello), nl',
                                              'initialization(format("ready~n"))'
                                            ]))]) :-
    directive_exit_(D, Status),
    assertion(Status == exit(0)).

test(other_directives_refused, [forall(member(D, [ 'shell(ls)',
                                                   'include(\'alphabeta.pl\')',
                                                   'consult(\'alphabeta.pl\')',
                                                   '[x]',
                                                   'set_prolog_flag(stack_limit, 1)',
                                                   'initialization(main)',
                                                   'use_module(library(\'../x\'))',
                                                   'initialization(shell(ls))',
                                                   'use_module(\'/tmp/x.pl\')',
                                                   'dynamic(moves/2)',
                                                   'dynamic(other:count/1)',
                                                   'halt'
                                                 ]))]) :-
    directive_exit_(D, Status),
    assertion(Status == exit(5)).

test(own_moves_refused, [forall(member(Mode, [[], ['--untrusted']]))]) :-
    with_program_("moves(_, []).~nalphabeta(_, _, _, b, 1).~n", [],
                  Mode, Status),
    assertion(Status == exit(5)).

%   A real child on the tree a(b = 1, c = 2) (MAX at a): the record of the
%   questions it asked (Id*3+Q: moves 0, max_to_move 1, staticval 2) and
%   the answer it gives, with and without --untrusted.  The slides' program
%   asks moves of a, then of b (a leaf: moves/2 fails) and its static value,
%   the side of b (its first min_to_move/1; later ones are not recorded
%   again), then moves and the static value of c.  The best move, a node,
%   comes as its Id (c is 2).

test(protocol, [forall(member(Mode, [[], ['--untrusted']]))]) :-
    job_answer_(Mode, 'alphabeta.pl', Answer),
    assertion(Answer.asked == [0, 3, 5, 4, 6, 8]),
    assertion(Answer.best == 2),
    assertion(Answer.value == 2).

%   Jobs written together are answered in order, one line each.

test(jobs_in_one_write) :-
    rc_dir_(Dir),
    atomic_list_concat([Dir, '/../alphabeta.pl'], Program),
    child_file_(Child),
    process_create(path(swipl), ['-q', '-g', 'pyab_child:main', '-t', halt, Child, '--', Program],
                   [stdin(pipe(In)), stdout(pipe(Out)), stderr(null), process(Pid)]),
    format(In, "j(a,-1.0Inf,1.0Inf,inf,'alphabeta(Root, Alpha, Beta, Best, Val)',n(a,b,c),k([1,2],[],[]),v(n,1,2),\"xnn\").~n", []),
    format(In, "j(r,-1.0Inf,1.0Inf,inf,'alphabeta(Root, Alpha, Beta, Best, Val)',n(r,s),k([1],[]),v(n,7),\"xn\").~n", []),
    close(In),
    read_line_to_string(Out, One),
    read_line_to_string(Out, Two),
    read_line_to_string(Out, End),
    close(Out),
    process_wait(Pid, Status),
    assertion(One == "{\"asked\":[0,3,5,4,6,8],\"best\":2,\"value\":2}"),
    assertion(Two == "{\"asked\":[0,3,5],\"best\":1,\"value\":7}"),
    assertion(End == end_of_file),
    assertion(Status == exit(0)).

%   A question about a term that is not a node the search was given ends the
%   search at once: the record so far, the stray question, and the child
%   halts (a catch/3 of the program cannot go on searching).

test(stray_question, [forall(member(Mode, [[], ['--untrusted']]))]) :-
    with_file_("alphabeta(_, _, _, b, V) :- catch(staticval(c, V), _, true), V = 0.~n", File),
    job_answer_(Mode, File, Answer, Status),
    delete_file(File),
    assertion(Answer.asked == []),
    assertion(Answer.stray == ["staticval", "c"]),
    assertion(Status == exit(0)).

test(inner_static_value, [forall(member(Mode, [[], ['--untrusted']]))]) :-
    with_file_("alphabeta(P, _, _, b, V) :- staticval(P, V).~n", File),
    job_answer_(Mode, File, Answer, _),
    delete_file(File),
    assertion(Answer.stray == ["staticval", "a"]).

%   The record is pyab's: an untrusted program that names the child's
%   module is refused before anything runs (library(sandbox) holds
%   pyab_child:retractall(G) safe), and so is one that looks at the
%   frames, where the questions find the record.  No global variable
%   holds it (library(sandbox) lets a program read and change those).

test(untrusted_cannot_name_the_record,
     [forall(member(Body, [ "pyab_child:retractall(store_(_))",
                            "prolog_current_frame(F), prolog_frame_attribute(F, parent, _)"
                          ]))]) :-
    with_file_("alphabeta(_, _, _, b, 1) :- ~w.~n", [Body], File),
    child_exit_(File, Status),
    delete_file(File),
    assertion(Status == exit(5)).

test(no_global_variable_holds_the_record, [forall(member(Mode, [[], ['--untrusted']]))]) :-
    with_file_("alphabeta(P, _, _, b, 1) :- moves(P, _),~n    forall(nb_current(_, V), \\+ (sub_term(T, V), T == P)).~n", File),
    job_answer_(Mode, File, Answer, _),
    delete_file(File),
    assertion(Answer.asked == [0]).

test(untrusted_refuses_shell) :-
    tmp_file_stream(text, File, S),
    format(S, "alphabeta(_, _, _, _, 1) :- shell(ls).~n", []),
    close(S),
    child_exit_(File, Status),
    delete_file(File),
    assertion(Status == exit(5)).

%   SWI-Prolog 9's library(sandbox) holds print_message/2 and
%   message_to_string/2 safe, and a message that formats with ~@ calls its
%   argument: the child refuses such messages (exit 3, the goal not run)
%   and still prints plain ones.

test(untrusted_refuses_a_goal_in_a_message,
     [forall(member(Call, ["print_message(error, format(\"~@\", [G]))",
                           "message_to_string(format(\"~@\", [G]), _)",
                           "'$messages':print_message(error, format(\"~@\", [G]))"]))]) :-
    tmp_file(ran, Mark),
    tmp_file_stream(text, File, S),
    format(S, "alphabeta(_, _, _, _, 1) :- G = (open(~q, write, O), close(O)), ~w.~n",
           [Mark, Call]),
    close(S),
    child_exit_(File, Status),
    delete_file(File),
    assertion(Status == exit(3)),
    assertion(\+ exists_file(Mark)).

test(untrusted_prints_a_plain_message) :-
    tmp_file_stream(text, File, S),
    format(S, "alphabeta(_, _, _, _, 1) :- print_message(error, format(\"plain ~~w\", [x])),~n    message_to_string(format(\"n ~~d\", [1]), _), writef('%w\\n', [t]), print(p), nl.~n", []),
    close(S),
    child_exit_(File, Status),
    delete_file(File),
    assertion(Status == exit(0)).

test(untrusted_includes_its_own_folder) :-
    tmp_file(dir, Dir),
    make_directory(Dir),
    directory_file_path(Dir, 'helper.pl', Helper),
    directory_file_path(Dir, 'main.pl', Main),
    setup_call_cleanup(open(Helper, write, H), format(H, "one(1).~n", []), close(H)),
    setup_call_cleanup(open(Main, write, M),
                       format(M, ":- include(helper).~n:- consult('helper.pl').~nalphabeta(_, _, _, _, V) :- one(V).~n", []),
                       close(M)),
    child_exit_(Main, Status),
    delete_directory_and_contents(Dir),
    assertion(Status == exit(0)).

%   GoodPos left unbound is JSON's null (the answer "no move"), not the
%   string "null".

test(unbound_best_is_null, [forall(member(Mode, [[], ['--untrusted']]))]) :-
    first_line_("alphabeta(_, _, _, _, 1).~n", Mode, Line),
    assertion(sub_string(Line, _, _, _, "\"best\":null")),
    open_string(Line, S),
    json_read_dict(S, Msg, [value_string_as(string)]),
    assertion(Msg.best == null).

%   A clause body that goes on at column 0 is a body, not a definition of
%   moves/2: SWI-Prolog's reader says where clauses begin.

test(column_0_body_loads, [forall(member(Mode, [[], ['--untrusted']]))]) :-
    with_program_("alphabeta(Pos, _, _, b, Val) :-~nmoves(Pos, _), !,~nVal = 1;~nstaticval(Pos, Val).~n",
                  [], Mode, Status),
    assertion(Status == exit(0)).

%   The refusal of a program's own moves/2 names its line in both modes.

test(own_moves_names_the_line, [forall(member(Mode, [[], ['--untrusted']]))]) :-
    refusal_(":- dynamic(count/1).~n~nmoves(_, []).~nalphabeta(_, _, _, b, 1).~n", Mode, Text),
    assertion(sub_string(Text, _, _, _, ":3: defines its own moves/2")).

:- end_tests(referee_child).

first_line_(Fmt, Mode, Line) :-
    with_file_(Fmt, File),
    child_file_(Child),
    append([['-q', '-g', 'pyab_child:main', '-t', halt, Child, '--'], Mode, [File]], Argv),
    process_create(path(swipl), Argv,
                   [stdin(pipe(In)), stdout(pipe(Out)), stderr(null), process(Pid)]),
    job_(In),
    read_line_to_string(Out, Line),
    close(In),
    close(Out),
    process_wait(Pid, _),
    delete_file(File).

with_file_(Fmt, File) :-
    with_file_(Fmt, [], File).

with_file_(Fmt, Args, File) :-
    tmp_file_stream(text, File, S),
    format(S, Fmt, Args),
    close(S).

%   The one job of these tests: the tree a(b = 1, c = 2), MAX at a.

job_(In) :-
    format(In, "j(a,-1.0Inf,1.0Inf,inf,'alphabeta(Root, Alpha, Beta, Best, Val)',n(a,b,c),k([1,2],[],[]),v(n,1,2),\"xnn\").~n", []),
    flush_output(In).

refusal_(Fmt, Mode, Text) :-
    tmp_file_stream(text, File, S),
    format(S, Fmt, []),
    close(S),
    child_file_(Child),
    append([['-q', '-g', 'pyab_child:main', '-t', halt, Child, '--'], Mode, [File]], Argv),
    process_create(path(swipl), Argv,
                   [stdin(pipe(In)), stdout(null), stderr(pipe(Err)), process(Pid)]),
    close(In),
    read_string(Err, _, Text),
    close(Err),
    process_wait(Pid, Status),
    assertion(Status == exit(5)),
    delete_file(File).

child_file_(File) :-
    rc_dir_(Dir),
    directory_file_path(Dir, '../referee/child.pl', File).

directive_exit_(D, Status) :-
    with_program_(":- ~w.~nalphabeta(_, _, _, b, 1).~n", [D], ['--untrusted'], Status).

%   Load a program from Fmt/Args in a child and end it at once (no job):
%   exit(0) when it loaded, exit(5) when it was refused.

with_program_(Fmt, Args, Mode, Status) :-
    tmp_file_stream(text, File, S),
    format(S, Fmt, Args),
    close(S),
    child_file_(Child),
    append([['-q', '-g', 'pyab_child:main', '-t', halt, Child, '--'], Mode, [File]], Argv),
    process_create(path(swipl), Argv,
                   [stdin(pipe(In)), stdout(null), stderr(null), process(Pid)]),
    close(In),
    process_wait(Pid, Status),
    delete_file(File).

job_answer_(Mode, Program, Answer) :-
    job_answer_(Mode, Program, Answer, Status),
    assertion(Status == exit(0)).

%   Program (a file name; a bare one is in prolog/) gets the one job; its
%   answer line as a dict and the child's exit status.

job_answer_(Mode, Program0, Answer, Status) :-
    (   file_directory_name(Program0, '.')
    ->  rc_dir_(Dir),
        atomic_list_concat([Dir, '/../', Program0], Program)
    ;   Program = Program0
    ),
    child_file_(Child),
    append([['-q', '-g', 'pyab_child:main', '-t', halt, Child, '--'], Mode, [Program]], Args),
    process_create(path(swipl), Args,
                   [stdin(pipe(In)), stdout(pipe(Out)), stderr(null), process(Pid)]),
    set_stream(In, encoding(utf8)),
    set_stream(Out, encoding(utf8)),
    job_(In),
    read_line_to_string(Out, Line),
    close(In),
    close(Out),
    process_wait(Pid, Status),
    open_string(Line, S),
    json_read_dict(S, Answer, [value_string_as(string)]).

%   Load Program under --untrusted and give it one job: its exit status.

child_exit_(Program, Status) :-
    child_file_(Child),
    process_create(path(swipl),
                   ['-q', '-g', 'pyab_child:main', '-t', halt, Child, '--', '--untrusted', Program],
                   [stdin(pipe(In)), stdout(null), stderr(null), process(Pid)]),
    job_(In),
    close(In),
    process_wait(Pid, Status).
