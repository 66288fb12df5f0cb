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

function draw() {
  const v = view;
  const svg = $("board");
  svg.replaceChildren();
  if (!v) return;
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
        el("circle", { cx: x + S / 2, cy: y + S / 2, r: S * 0.38, fill: cols[+cell], stroke: "#222", "stroke-width": 1.5, class: "piece", "data-side": cell }, svg);
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
}

function clicked(i) {
  const v = view;
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
  if (state.view) {
    const moved = !view || view.cells !== state.view.cells || view.to_move !== state.view.to_move;
    view = state.view;
    if (moved || !view.clickable) selected = null;
    panel();
    draw();
  }
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
