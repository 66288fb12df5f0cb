// The board page: draws the session's view (sent by the server as events), sends
// clicked moves and the command box as text-language lines, and the buttons as the
// page's actions. All state comes from the server, so a reload shows the same game.
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const q = "?token=" + encodeURIComponent(token);
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
let view = null;
let selected = null;
let seenLine = -1;
let blocking = false; // Ataxx set-up: a click blocks the square (and its reflections)
// The game behind the view (positions, moves in the dialect's notation, FENs, PGN),
// the position of it shown (null: the current one, live) and the page's analysis.
let record = null;
let shown = null;
let analysis = null;
let analysing = false;
let asked = null; // the last analysis request sent, so a change asks again once

function post(path, body) {
  return fetch(path + q, { method: "POST", body, headers: { "Content-Type": "text/plain" } })
    .then((r) => { if (!r.ok) r.text().then((t) => addLog([[-1, "e", "page: " + t.trim()]])); })
    .catch((e) => addLog([[-1, "e", "page: " + e]]));
}
const command = (line) => post("/command", line);
const action = (a) => post("/action", a);

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function movesFrom(sq) { return view.moves.filter((m) => m[0] === sq); }

// The index of the position shown in the record, and whether it is an earlier one.
function shownPly() {
  if (!record) return 0;
  const lastPly = record.plies.length - 1;
  return shown === null ? lastPly : Math.min(shown, lastPly);
}
const browsing = () => record !== null && shown !== null && shown < record.plies.length - 1;

function draw() {
  const live = view;
  const svg = $("board");
  svg.replaceChildren();
  if (!live) return;
  // An earlier position of the move list is drawn read-only: its squares and last
  // move over the live view's geometry, no move to click.
  const past = browsing() ? record.plies[shownPly()] : null;
  const v = past ? Object.assign({}, live, { cells: past.cells, last: past.last, clickable: false, moves: [] }) : live;
  const S = 60, M = 24;
  const W = v.width * S + M, H = v.height * S + M;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#f4f1ea" }, svg);
  const cols = v.colours;
  const can = v.clickable && v.to_move !== null;
  const targets = new Set();
  if (can && selected !== null) movesFrom(selected).forEach((m) => targets.add(m[1]));
  const starts = new Set(can ? v.moves.filter((m) => m[0] !== null).map((m) => m[0]) : []);
  const drops = new Set(can ? v.moves.filter((m) => m[0] === null).map((m) => m[1]) : []);
  for (let r = 0; r < v.height; r++) {
    for (let c = 0; c < v.width; c++) {
      const i = r * v.width + c, x = M + c * S, y = r * S, cell = v.cells[i];
      const dark = v.dark && (r + c) % 2 === 1;
      const rect = el("rect", {
        x, y, width: S, height: S, "data-sq": i, "data-name": v.files[c] + v.ranks[r],
        class: "sq" + (starts.has(i) || targets.has(i) || drops.has(i) ? " can" : ""),
        fill: cell === "#" ? "#555" : dark ? v.dark : v.board,
        stroke: "#333", "stroke-width": 1,
      }, svg);
      rect.addEventListener("click", () => clicked(i));
      if (v.last.includes(i)) el("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, fill: "none", stroke: "#f5c400", "stroke-width": 4, class: "mark" }, svg);
      if (i === selected) el("rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, fill: "none", stroke: "#0a0", "stroke-width": 5, class: "mark" }, svg);
      if (cell === "0" || cell === "1") {
        el("circle", { cx: x + S / 2, cy: y + S / 2, r: S * 0.38, fill: cols[+cell], stroke: "#222", "stroke-width": 1.5, class: "piece", "data-side": cell, "data-sq": i }, svg);
      }
      if (targets.has(i) || drops.has(i)) {
        el("circle", { cx: x + S / 2, cy: y + S / 2, r: S * 0.12, fill: "#0a0", opacity: 0.75, class: "mark target" }, svg);
      }
    }
    const t = el("text", { x: M / 2, y: r * S + S / 2 + 5, "text-anchor": "middle", "font-size": 14 }, svg);
    t.textContent = v.ranks[r];
  }
  for (let c = 0; c < v.width; c++) {
    const t = el("text", { x: M + c * S + S / 2, y: v.height * S + 17, "text-anchor": "middle", "font-size": 14 }, svg);
    t.textContent = v.files[c];
  }
  drawAnalysis(svg, v, S, M);
}

// The analysis of the position shown, if it is that one's: a hint rings the best
// move's squares, the analysis writes each move's score on its square (the best of
// the moves into a square).
function analysisShown() {
  const a = analysis;
  if (!a || !record) return null;
  const p = record.plies[shownPly()];
  return p && a.ply === shownPly() && a.fen === p.fen ? a : null;
}

function drawAnalysis(svg, v, S, M) {
  const a = analysisShown();
  if (!a) return;
  const centre = (i) => [M + (i % v.width) * S + S / 2, Math.floor(i / v.width) * S + S / 2];
  if (a.kind === "hint") {
    const m = a.moves[0];
    if (!m) return;
    for (const sq of [m.from, m.to]) {
      if (sq === null) continue;
      const [x, y] = centre(sq);
      el("circle", { cx: x, cy: y, r: S * 0.44, fill: "none", stroke: "#e0218a", "stroke-width": 5, class: "mark hint", "data-sq": sq }, svg);
    }
    if (m.from !== null && m.to !== null) {
      const [x1, y1] = centre(m.from), [x2, y2] = centre(m.to);
      el("line", { x1, y1, x2, y2, stroke: "#e0218a", "stroke-width": 4, opacity: 0.8, class: "mark hint-line" }, svg);
    }
    return;
  }
  const best = new Map();
  for (const m of a.moves) if (m.to !== null && !best.has(m.to)) best.set(m.to, m);
  for (const [sq, m] of best) {
    const [x, y] = centre(sq);
    el("rect", { x: x - S * 0.42, y: y - 11, width: S * 0.84, height: 20, rx: 4, fill: "#fff", opacity: 0.85, class: "mark" }, svg);
    const t = el("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": "bold", class: "mark score", "data-sq": sq }, svg);
    t.textContent = m.short;
  }
}

// The analysis beside the board: the hint, or every move's score and line.
function showAnalysis() {
  const a = analysisShown(), box = $("analysis");
  box.hidden = !a;
  if (!a) return;
  const kn = (n) => n >= 1e6 ? (n / 1e6).toFixed(1) + " M" : n >= 1e3 ? (n / 1e3).toFixed(0) + " k" : String(n);
  $("analysis-head").textContent = (a.kind === "hint" ? "Hint" : "Analysis") + `: depth ${a.depth}, ${kn(a.nodes)} nodes, ${(a.millis / 1000).toFixed(1)} s` + (a.done ? "" : " …");
  const list = $("analysis-moves");
  list.replaceChildren();
  for (const m of a.moves) {
    const row = document.createElement("div");
    row.className = "rated";
    row.textContent = `${m.move}  ${m.score}  ${m.pv.join(" ")}`;
    list.appendChild(row);
  }
}

// The AI is searching its own move: no analysis meanwhile (the server refuses it).
function aiToMove() {
  const v = view;
  return !!v && v.mode === "playing" && v.to_move !== null && v.players[v.to_move] === "AI";
}

// With the analysis on, the position shown is analysed (asked again when it changes).
function keepAnalysing() {
  if (!analysing || !record) return;
  const p = record.plies[shownPly()];
  const want = "analyse " + shownPly() + " " + p.fen;
  if (asked === want || p.to_move === null || (aiToMove() && !browsing())) return;
  asked = want;
  post("/analysis", "analyse " + shownPly());
}

// The move list: the moves in the dialect's notation, numbered by pairs; the shown
// position's move marked; a click shows that position.
function showMoves() {
  const list = $("moves");
  list.replaceChildren();
  if (!record) return;
  const at = shownPly();
  let n = 1;
  const startTag = document.createElement("span");
  startTag.className = "mv" + (at === 0 ? " at" : "");
  startTag.dataset.ply = 0;
  startTag.textContent = "start";
  startTag.onclick = () => showPly(0);
  list.appendChild(startTag);
  record.plies.forEach((p, i) => {
    if (i === 0) return;
    const mover = record.plies[i - 1].to_move;
    if (mover === 0 || i === 1 && mover === 1) {
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = mover === 0 ? `${n}.` : `${n}…`;
      list.appendChild(num);
    }
    if (mover === 1) n++;
    const m = document.createElement("span");
    m.className = "mv" + (i === at ? " at" : "");
    m.dataset.ply = i;
    m.textContent = p.move;
    m.onclick = () => showPly(i);
    list.appendChild(m);
  });
  const mark = list.querySelector(".at");
  if (mark) mark.scrollIntoView({ block: "nearest" });
  $("browsing").hidden = !browsing();
  $("browsing").textContent = browsing() ? `position after ${at} of ${record.plies.length - 1} moves (read-only; » or → returns)` : "";
}

function showPly(i) {
  if (!record) return;
  const lastPly = record.plies.length - 1;
  i = Math.max(0, Math.min(i, lastPly));
  shown = i >= lastPly ? null : i;
  selected = null;
  refresh();
}

function refresh() {
  if (!view) return;
  draw();
  showMoves();
  showAnalysis();
  keepAnalysing();
}

function clicked(i) {
  const v = view;
  // An earlier position is only looked at: a click there must not reach the live game
  // (whose moves differ), so it only points back to it.
  if (browsing()) {
    $("browsing").classList.add("flash");
    setTimeout(() => $("browsing").classList.remove("flash"), 600);
    return;
  }
  if (v && blocking && v.mode === "set-up") {
    command("block " + v.files[i % v.width] + v.ranks[Math.floor(i / v.width)]);
    return;
  }
  if (!v || !v.clickable) return;
  if (v.placement) {
    const m = v.moves.find((m) => m[0] === null && m[1] === i);
    if (m) command(m[2]);
    return;
  }
  if (selected !== null) {
    const m = movesFrom(selected).find((m) => m[1] === i);
    if (m) { selected = null; command(m[2]); draw(); return; }
  }
  selected = movesFrom(i).length ? (selected === i ? null : i) : null;
  draw();
}

function panel() {
  const v = view;
  $("title").textContent = v.title;
  document.title = v.title;
  let turn = v.to_move === null ? "" : `, ${v.sides[v.to_move]} to move`;
  if (v.mode === "playing" && v.to_move !== null && v.players[v.to_move] !== "manual") turn += ` (${v.players[v.to_move]} thinking…)`;
  $("status").textContent = v.mode + turn + ` (${v.sides[0]} ${v.counts[0]}, ${v.sides[1]} ${v.counts[1]})`;
  $("result").hidden = !v.result;
  $("result").textContent = v.result || "";
  const players = $("players");
  players.replaceChildren();
  const cols = v.colours;
  [0, 1].forEach((s) => {
    const row = document.createElement("div");
    row.className = "player";
    row.innerHTML = `<span class="dot"></span><span class="name"></span><span class="count"></span>
      <button id="manual${s}">manual</button><button id="ai${s}">AI</button><span class="turn"></span>`;
    row.querySelector(".dot").style.background = cols[s];
    row.querySelector(".name").textContent = v.sides[s];
    row.querySelector(".count").textContent = v.counts[s];
    const who = v.players[s];
    const manual = row.querySelector(`#manual${s}`), ai = row.querySelector(`#ai${s}`);
    manual.classList.toggle("on", who === "manual");
    ai.classList.toggle("on", who === "AI");
    manual.disabled = ai.disabled = who === "remote";
    if (who === "remote") row.querySelector(".turn").textContent = "remote";
    if (v.to_move === s) row.querySelector(".turn").textContent += " ◀ to move";
    manual.onclick = () => action("manual " + s);
    ai.onclick = () => action("ai " + s);
    players.appendChild(row);
  });
  // The set-up tools the game's language has (its view names them).
  const setup = v.mode === "set-up";
  const has = (tool) => v.tools.includes(tool);
  blocking = blocking && setup && has("block");
  $("block").hidden = !(setup && has("block"));
  $("block").setAttribute("aria-pressed", String(blocking));
  $("blocks-tool").hidden = !(setup && has("blocks"));
  $("limit-tool").hidden = !has("limit");
  $("remote-tool").hidden = !has("remote");
  $("pass").hidden = !(v.clickable && v.pass);
  $("start").hidden = v.mode !== "set-up";
}

function addLog(lines) {
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  for (const [n, kind, text] of lines) {
    if (n >= 0 && n <= seenLine) continue;
    if (n >= 0) seenLine = n;
    const d = document.createElement("div");
    d.className = kind;
    d.textContent = text;
    log.appendChild(d);
  }
  while (log.childNodes.length > 2000) log.removeChild(log.firstChild);
  if (atEnd) log.scrollTop = log.scrollHeight;
}

// The AI's search: depth, score, nodes, speed and principal variation, live while it
// thinks, then the report behind the move it played.
let thinking = null;
function showThinking() {
  const t = thinking, box = $("thinking");
  box.hidden = !t;
  if (!t) return;
  const kn = (n) => n >= 1e6 ? (n / 1e6).toFixed(1) + " M" : n >= 1e3 ? (n / 1e3).toFixed(0) + " k" : String(n);
  const who = view ? view.sides[t.side] + " (AI)" : "AI";
  $("thinking-head").textContent = who + (t.done ? " played: " : " thinking: ")
    + `depth ${t.depth}, ${t.score}, ${kn(t.nodes)} nodes, ${kn(t.nps)} nodes/s, ${(t.millis / 1000).toFixed(2)} s`;
  $("thinking-pv").textContent = t.pv.length ? "line: " + t.pv.join(" ") : "";
}

function update(state) {
  if (state.thinking !== undefined && JSON.stringify(state.thinking) !== JSON.stringify(thinking)) {
    thinking = state.thinking;
  }
  if (state.record !== undefined) {
    // A new game (not a longer one) goes back to its current position.
    const same = record && state.record && record.plies[0].fen === state.record.plies[0].fen
      && record.plies.length <= state.record.plies.length;
    if (!same) shown = null;
    record = state.record;
  }
  if (state.analysis !== undefined) analysis = state.analysis;
  if (state.view) {
    const moved = !view || view.cells !== state.view.cells || view.to_move !== state.view.to_move;
    view = state.view;
    if (moved || !view.clickable) selected = null;
    panel();
  }
  refresh();
  showThinking();
  addLog(state.log);
}

$("new").onclick = () => { selected = null; action("new"); };
$("undo").onclick = () => { selected = null; action("undo"); };
$("pass").onclick = () => view && view.pass && command(view.pass);
$("start").onclick = () => command("start");
$("help").onclick = () => command("help");
// Each tool sends the line its language takes; the session checks it like a typed one.
const withValue = (id, make) => () => {
  const value = $(id).value.trim();
  if (value) command(make(value));
};
$("seed-set").onclick = withValue("seed", (n) => "seed " + n);
$("blocks-set").onclick = withValue("blocks", (c) => "blocks " + c);
$("limit-set").onclick = withValue("limit", (n) => "limit " + n);
$("host").onclick = withValue("remote", (id) => "host " + id);
$("join").onclick = withValue("remote", (id) => "join " + id);
$("block").onclick = () => {
  blocking = !blocking;
  $("block").setAttribute("aria-pressed", String(blocking));
};
// The move list's keys, and the arrow keys while no text box has the focus.
$("first").onclick = () => showPly(0);
$("prev").onclick = () => showPly(shownPly() - 1);
$("next").onclick = () => showPly(shownPly() + 1);
$("last").onclick = () => showPly(Infinity);
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
  const to = { ArrowLeft: shownPly() - 1, ArrowRight: shownPly() + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  showPly(to);
});
// Hint and analysis of the position shown, on the server's analysis thread.
$("hint").onclick = () => post("/analysis", "hint " + shownPly());
$("analyse").onclick = () => {
  analysing = !analysing;
  $("analyse").setAttribute("aria-pressed", String(analysing));
  asked = null;
  if (analysing) keepAnalysing(); else post("/analysis", "off");
};
// Copy: the text goes to the clipboard where the browser allows it, and into the box
// below either way (selected, to copy by hand).
function copy(text) {
  const clip = $("clip");
  clip.hidden = false;
  clip.value = text;
  clip.select();
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).catch(() => {});
}
$("copy-pgn").onclick = () => record && copy(record.pgn);
$("copy-fen").onclick = () => record && copy(record.plies[shownPly()].fen);
$("paste").onclick = () => {
  const text = $("paste-text").value.trim();
  if (text) { shown = null; post("/paste", text); }
};
$("command-form").onsubmit = (e) => {
  e.preventDefault();
  const line = $("cmd").value;
  if (line.trim()) command(line);
  $("cmd").value = "";
};

function connect() {
  const events = new EventSource("/events" + q);
  events.onmessage = (e) => update(JSON.parse(e.data));
  events.onerror = () => { $("status").textContent = "connection lost: retrying…"; };
}
connect();
