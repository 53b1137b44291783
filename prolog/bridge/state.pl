:- module(pyab_state,
          [ program_module/3,   % ?TreeModule, ?ProgModule, ?SourceId
            program_stamp/3,    % ?ProgModule, ?File, ?Time-Size
            program_idle/1,     % ?ProgModule
            free_module/1,      % ?TreeModule
            rules_module/3,     % ?Module, ?RulesFile, ?Mode
            traced/2,           % ?TreeModule, ?ProgModule
            tree_nodes_cache/3, % ?TreeModule, ?Generations, ?Nodes
            record_hint/2       % ?TreeModule, ?Calls
          ]).
/** <module> Every piece of state the bridge keeps, declared in one place

The other bridge modules (store, observe, run) import these dynamic
predicates and change them; nothing else holds state, except one global
variable:

  - `pyab_record`: the record of the search running now (see
    prolog/bridge/observe.pl), `off` outside a search.  It is set and
    reset around each search with setup_call_cleanup/3.

The facts:

  - program_module(Tree, Prog, SourceId): program module Prog, loaded
    from SourceId, imports tree module Tree.  A rules module is its own
    program module (Tree == Prog).
  - program_stamp(Prog, File, Time-Size): the file as it was when loaded
    into Prog (a recycled module keeps Prog only while it is unchanged).
  - program_idle(Prog): Prog belongs to a free (recycled) tree module.
  - free_module(Tree): Tree was emptied by recycle/1 and waits for the
    next tree.
  - rules_module(M, File, Mode): M holds a tree given as rules (File) and
    records in Mode (`names` or `counts`).
  - traced(Tree, Prog): Prog's alphabeta/5, newbounds/6 and goodenough/7
    are wrapped for solve_traced/8.
  - tree_nodes_cache(Tree, Generations, Nodes): the node count of the last
    tree asked about (counting walks every clause).
  - record_hint(Tree, Calls): how many calls the last search recorded,
    and on which tree module (the next search of it sizes its record by
    that; a hint left by a tree since recycled only sizes a store).
*/

:- dynamic
    program_module/3,
    program_stamp/3,
    program_idle/1,
    free_module/1,
    rules_module/3,
    traced/2,
    tree_nodes_cache/3,
    record_hint/2.
