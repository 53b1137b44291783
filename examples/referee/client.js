#!/usr/bin/env node
// A worked --exec client in JavaScript: the slides' alpha-beta speaking
// pyab's JSON lines (node 18 or later, no packages).
//
//   pyab check --random 200 --exec "node examples/referee/client.js"
//   pyab check --random 200 --exec "node examples/referee/client.js --mutant"
//
// Protocol 2 (docs/referee.md): it answers the first job it gets with
// {"protocol": 2}; then each line from pyab carries new jobs,
// {"jobs": [{"id": I, "root": N, "alpha": A, "beta": B}, ...]}, and the
// answers to its questions, {"answers": [[I, ANSWER], ...]}, and it answers
// each line with one line, [[I, MESSAGE], ...]: the next question of every
// search that line started or answered ({"moves": N}, answered [children,
// [is MAX to move at each]]; {"staticval": N}) or its end {"best": N or
// null, "value": V}.  Each search is a generator that yields its questions,
// with its own state, so many run side by side and the client never blocks.
// "--protocol 1" speaks the first version: one job at a time, one question
// a line ({"moves_sides": N} for the children with their sides).
// --mutant flips one comparison (goodenough's val > beta becomes >=).
"use strict";

const ARGS = process.argv.slice(2).join(" ");
const MUTANT = ARGS.includes("--mutant");
const PROTOCOL = /--protocol[ =]1/.test(ARGS) ? 1 : 2;

function bound(x) {
  return x === "inf" ? Infinity : x === "-inf" ? -Infinity : x;
}

// One search: a generator that yields each question ({question: node}) and
// is given its answer; it returns [best, value].  `moves` is the question
// whose answer carries the children's sides.
function search(job, moves) {
  const sides = new Map(); // this search's nodes -> MAX to move there

  function* alphabeta(pos, alpha, beta) {
    const [posList, maxes] = yield { [moves]: pos };
    posList.forEach((p, i) => sides.set(p, maxes[i]));
    if (posList.length > 0) return yield* boundedbest(posList, alpha, beta);
    return [null, yield { staticval: pos }];
  }

  function* boundedbest(posList, alpha, beta) {
    const pos = posList[0];
    const [, val] = yield* alphabeta(pos, alpha, beta);
    return yield* goodenough(posList.slice(1), alpha, beta, pos, val);
  }

  function* goodenough(posList, alpha, beta, pos, val) {
    if (posList.length === 0) return [pos, val];
    if (!sides.has(pos)) sides.set(pos, yield { max_to_move: pos }); // the root only
    const isMax = sides.get(pos);
    const beatsBeta = MUTANT ? val >= beta : val > beta;
    if ((!isMax && beatsBeta) || (isMax && val < alpha)) return [pos, val];
    const [newAlpha, newBeta] = newbounds(alpha, beta, isMax, val);
    const [pos1, val1] = yield* boundedbest(posList, newAlpha, newBeta);
    return betterof(isMax, pos, val, pos1, val1);
  }

  return alphabeta(job.root, bound(job.alpha), bound(job.beta));
}

function newbounds(alpha, beta, isMax, val) {
  if (!isMax && val > alpha) return [val, beta];
  if (isMax && val < beta) return [alpha, val];
  return [alpha, beta];
}

function betterof(isMax, pos, val, pos1, val1) {
  if ((!isMax && val > val1) || (isMax && val < val1)) return [pos, val];
  return [pos1, val1];
}

// The search's next message: its next question, or its end.
function step(gen, answer) {
  const next = gen.next(answer);
  if (!next.done) return next.value;
  const [best, value] = next.value;
  return { best, value };
}

function put(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

let first = true;
let current = null; // protocol 1: the one search running
const running = new Map(); // protocol 2: id -> the search's generator

function onLine(msg) {
  if (first && PROTOCOL === 2) {
    first = false;
    put({ protocol: 2 }); // the first job comes again, in protocol 2
    return;
  }
  if (PROTOCOL === 1) {
    const said = current === null ? step((current = search(msg, "moves_sides")), undefined)
      : step(current, msg);
    if ("best" in said) current = null;
    put(said);
    return;
  }
  const out = [];
  for (const [id, answer] of msg.answers || []) out.push([id, step(running.get(id), answer)]);
  for (const job of msg.jobs || []) {
    running.set(job.id, search(job, "moves"));
    out.push([job.id, step(running.get(job.id), undefined)]);
  }
  for (const [id, said] of out) if ("best" in said) running.delete(id);
  put(out);
}

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (line.trim()) onLine(JSON.parse(line));
  }
});
