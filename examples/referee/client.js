#!/usr/bin/env node
// A worked --exec client in JavaScript: the slides' alpha-beta speaking
// pyab's JSON lines (node 18 or later, no packages).
//
//   pyab check --random 200 --exec "node examples/referee/client.js"
//   pyab check --random 200 --exec "node examples/referee/client.js --mutant"
//
// A job arrives as one line, {"root": N, "alpha": A, "beta": B} (bounds are
// numbers or "-inf"/"inf"); the client asks {"moves_sides": N} (answered
// [children, [is MAX to move at each]], which saves asking {"max_to_move": N}
// of each child) and {"staticval": N}, one line each, reads each answer, and
// ends the search with {"best": N or null, "value": V}.  The search is written as a
// generator that yields its questions, so the client never blocks on a read.
// --mutant flips one comparison (goodenough's val > beta becomes >=).
"use strict";

const MUTANT = process.argv.slice(2).includes("--mutant");

function bound(x) {
  return x === "inf" ? Infinity : x === "-inf" ? -Infinity : x;
}

function* ask(question, node) {
  return yield { [question]: node };
}

const sides = new Map(); // this search's nodes -> MAX to move there, as their parents' moves said

function* alphabeta(pos, alpha, beta) {
  const [posList, maxes] = yield* ask("moves_sides", pos);
  posList.forEach((p, i) => sides.set(p, maxes[i]));
  if (posList.length > 0) return yield* boundedbest(posList, alpha, beta);
  return [null, yield* ask("staticval", pos)];
}

function* boundedbest(posList, alpha, beta) {
  const pos = posList[0];
  const [, val] = yield* alphabeta(pos, alpha, beta);
  return yield* goodenough(posList.slice(1), alpha, beta, pos, val);
}

function* goodenough(posList, alpha, beta, pos, val) {
  if (posList.length === 0) return [pos, val];
  const isMax = sides.has(pos) ? sides.get(pos) : yield* ask("max_to_move", pos);
  const beatsBeta = MUTANT ? val >= beta : val > beta;
  if ((!isMax && beatsBeta) || (isMax && val < alpha)) return [pos, val];
  const [newAlpha, newBeta] = newbounds(alpha, beta, isMax, val);
  const [pos1, val1] = yield* boundedbest(posList, newAlpha, newBeta);
  return betterof(isMax, pos, val, pos1, val1);
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

// One search at a time: each input line is either a job or the answer to
// the question the running search asked last.
let search = null;

function step(answer) {
  const next = search.next(answer);
  if (next.done) {
    const [best, value] = next.value;
    search = null;
    process.stdout.write(JSON.stringify({ best, value }) + "\n");
  } else {
    process.stdout.write(JSON.stringify(next.value) + "\n");
  }
}

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (search === null) {
      sides.clear(); // another tree: names may mean other nodes
      search = alphabeta(msg.root, bound(msg.alpha), bound(msg.beta));
      step(undefined);
    } else {
      step(msg);
    }
  }
});
