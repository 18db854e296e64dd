// ttr serve: the page. Plain JavaScript, no library. The server decides
// everything: this page shows the person's status and posts the move they
// click, with the ply it was chosen at (a stale move is refused there).
"use strict";

const $ = (selector) => document.querySelector(selector);

function el(tag, attrs = {}, text = undefined) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

// The server refuses a POST that does not say its body's type, body or not
// (another site's page could send text/plain): JSON, or the JSON Lines of a
// record. Same-origin credentials send the game's seat cookie.
async function api(method, url, body, type = "application/json") {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (method !== "GET") init.headers["Content-Type"] = type;
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const response = await fetch(url, init);
  let data;
  try {
    data = await response.json();
  } catch (err) {
    data = { error: "http", message: response.statusText };
  }
  if (!response.ok) throw data;
  return data;
}

function setState(state) {
  document.body.dataset.state = state;
}

function textOn(fill) {
  // Black or white text, whichever reads better on the card's colour.
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill || "");
  if (!m) return "#000";
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
}

function paint(node, fill) {
  if (!fill) return;
  node.style.background = fill;
  node.style.color = textOn(fill);
}

// ---------------------------------------------------------------------------
// The start page

async function startPage() {
  $("#start").hidden = false;
  const options = await api("GET", "/api/options");
  for (const name of options.maps) $("#map").append(el("option", { value: name }, name));
  for (const name of options.bots) $("#bots").append(el("option", { value: name }, name));
  $("#map").value = options.map;
  $("#bots").value = options.bot;
  $("#players").value = options.players;
  $("#new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await api("POST", "/api/games", {
        map: $("#map").value,
        players: parseInt($("#players").value, 10),
        // The command's own --bots list, unless another bot is picked here.
        bots: $("#bots").value === options.bot ? options.default_bots : [$("#bots").value],
      });
      location.assign(made.url);
    } catch (err) {
      $("#start-error").textContent = err.message || String(err);
    }
  });
  $("#upload-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = $("#record-file").files[0];
    if (!file) return;
    try {
      const made = await api("POST", "/api/replays", await file.text(), "application/x-ndjson");
      location.assign(made.url);
    } catch (err) {
      $("#start-error").textContent = err.message || String(err);
    }
  });
  setState("ready");
}

// ---------------------------------------------------------------------------
// The game page

let gameId = null;
let current = null;
// What the person picked on the board: { route: n } or { location: n }, or
// null. Cleared by any move and by a click on the board's empty parts.
let selected = null;
// Whether the person closed the game-over sheets to look at the board.
let endClosed = false;
let busy = false;

// A group of moves about more places than this is not listed as buttons (a
// station may go to ~50 cities, 188 moves): the cities are clicked on the
// board, or picked from a list.
const MANY_PLACES = 8;
// The smallest target on the screen, in pixels, for a route or a city.
const HIT_PX = 18;

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

async function gamePage(id) {
  gameId = id;
  document.body.dataset.page = "game";
  $("#game").hidden = false;
  $("#replay-game").addEventListener("click", async () => {
    try {
      const made = await api("POST", `/api/games/${gameId}/replay`);
      location.assign(made.url);
    } catch (err) {
      showError(err);
    }
  });
  $("#end-close").addEventListener("click", () => showEnd(false));
  $("#end-open").addEventListener("click", () => showEnd(true));
  // One listener for the board, whose picture is replaced at every status.
  const board = $("#board");
  board.addEventListener("click", boardClick);
  board.addEventListener("mouseover", (event) => hover(event, true));
  board.addEventListener("mouseout", (event) => hover(event, false));
  try {
    render(await api("GET", `/api/games/${id}`));
  } catch (err) {
    showError(err);
    setState("error");
  }
}

function showError(err) {
  $("#error").textContent = err && err.message ? err.message : String(err);
}

async function play(action) {
  if (busy || !current) return;
  busy = true;
  setState("busy");
  $("#error").textContent = "";
  try {
    const answer = await api("POST", `/api/games/${gameId}/moves`, { ply: current.ply, action });
    selected = null;
    render(answer);
  } catch (err) {
    showError(err);
    if (err && err.reason === "stale_move") {
      // Another tab moved first: show the game as it is now.
      selected = null;
      render(await api("GET", `/api/games/${gameId}`));
    }
    setState("ready");
  } finally {
    busy = false;
  }
}

// A move as a button: its words (or, where the heading already says what
// it is about, only its `choice`), and the variants' notes on it beneath
// (a ferry's locomotives, a toll and who gets it).
function moveButton(move, short = false) {
  const words = short ? move.choice || move.label : move.label;
  const button = el("button", { type: "button", class: "move", dataset: { kind: move.kind } }, words);
  if (move.notes && move.notes.length) {
    button.append(el("span", { class: "notes" }, move.notes.join("; ")));
  }
  button.addEventListener("click", () => play(move.action));
  return button;
}

function render(status) {
  current = status;
  document.body.dataset.ply = String(status.ply);
  document.body.dataset.over = String(status.over);
  $("#title").textContent = status.map;
  renderBoard(status);
  renderStatus(status);
  renderMoves(status);
  renderDisplay(status);
  renderHand(status);
  renderTickets(status);
  renderSeats(status);
  renderEvents(status);
  renderEnd(status);
  setState("ready");
}

// ---------------------------------------------------------------------------
// The board

// The moves of the status by one of their fields (route, location).
function movesBy(moves, key) {
  const found = new Map();
  for (const move of moves) {
    const value = move[key];
    if (value === null || value === undefined) continue;
    if (!found.has(value)) found.set(value, []);
    found.get(value).push(move);
  }
  return found;
}

function points(polygon) {
  return polygon.getAttribute("points").trim().split(/\s+/).map((pair) => pair.split(",").map(Number));
}

function middle(p, q) {
  return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
}

function renderBoard(status) {
  const board = $("#board");
  board.innerHTML = status.svg || ""; // drawn by the server from the person's view
  const picture = board.querySelector("svg");
  if (!picture) return;
  // The drawing as large as its box allows, whole, at the top of the column.
  picture.setAttribute("preserveAspectRatio", "xMidYMin meet");
  const box = picture.viewBox.baseVal;
  if (box && box.width && box.height) {
    $("#board-column").style.setProperty("--board-aspect", `${box.width} / ${box.height}`);
  }
  // User units per screen pixel, to make targets of a least HIT_PX pixels.
  const ctm = picture.getScreenCTM();
  const perPixel = ctm && ctm.a ? 1 / ctm.a : 1;
  const byRoute = movesBy(status.moves, "route");
  const byLocation = movesBy(status.moves, "location");
  // Wider invisible targets, drawn under the routes and cities (so a click on
  // a drawn car or dot still goes to it) but over the board's background: a
  // click that just misses a one-space route or a dot still finds it.
  const hits = svgEl("g", { class: "hits" });
  const frame = picture.querySelector("rect.board");
  if (frame) frame.after(hits);
  else picture.prepend(hits);
  for (const group of picture.querySelectorAll('g[id^="route-"]')) {
    const route = parseInt(group.id.slice(6), 10);
    const active = byRoute.has(route);
    group.classList.toggle("claimable", active);
    if (selected && selected.route === route) group.classList.add("selected");
    const cars = group.querySelectorAll("polygon.car");
    if (!cars.length) continue;
    // A car's corners: two along one side, two back along the other. The
    // route runs from the middle of its first car's start to its last's end.
    const first = points(cars[0]);
    const last = points(cars[cars.length - 1]);
    const start = middle(first[0], first[3]);
    const end = middle(last[1], last[2]);
    const across = Math.hypot(first[0][0] - first[3][0], first[0][1] - first[3][1]);
    const line = svgEl("line", {
      x1: start[0], y1: start[1], x2: end[0], y2: end[1],
      stroke: "transparent", "stroke-linecap": "round", "pointer-events": "stroke",
      "stroke-width": Math.max(across * 2.2, HIT_PX * perPixel),
    });
    line.dataset.route = String(route);
    if (active) line.classList.add("claimable");
    hits.append(line);
  }
  for (const group of picture.querySelectorAll('g[id^="location-"]')) {
    const where = parseInt(group.id.slice(9), 10);
    const active = byLocation.has(where);
    group.classList.toggle("clickable", active);
    if (selected && selected.location === where) group.classList.add("selected");
    const dot = group.querySelector(":scope > circle");
    if (!active || !dot) continue;
    const r = parseFloat(dot.getAttribute("r"));
    const circle = svgEl("circle", {
      cx: dot.getAttribute("cx"), cy: dot.getAttribute("cy"),
      r: Math.max(r * 2, (HIT_PX / 2) * perPixel + r), fill: "transparent", "pointer-events": "all",
    });
    circle.dataset.location = String(where);
    circle.classList.add("claimable");
    hits.append(circle); // after the routes' lines: a city wins over a route's end
  }
  // A decision about one route (a tunnel to pay for): that route stands out.
  const routes = new Set(status.moves.map((m) => m.route));
  if (status.moves.length && routes.size === 1 && !status.moves.some((m) => m.kind === "claim")) {
    const [route] = routes;
    if (route !== null && route !== undefined) {
      const group = picture.querySelector(`#route-${route}`);
      if (group) group.classList.add("pending");
    }
  }
}

// What a click on the board is about: a route, a city, or nothing.
function pickedAt(target) {
  const hit = target.closest("[data-route], [data-location]");
  if (hit && hit.closest(".hits")) {
    if (hit.dataset.route !== undefined) return { route: parseInt(hit.dataset.route, 10) };
    return { location: parseInt(hit.dataset.location, 10) };
  }
  const group = target.closest('g[id^="route-"], g[id^="location-"]');
  if (!group) return null;
  if (group.id.startsWith("route-")) return { route: parseInt(group.id.slice(6), 10) };
  const where = parseInt(group.id.slice(9), 10);
  // A city without moves is as empty board (its name may lie over a route).
  return group.classList.contains("clickable") ? { location: where } : null;
}

function boardClick(event) {
  if (!current || current.over) return;
  selected = pickedAt(event.target);
  const picture = $("#board svg");
  for (const g of picture.querySelectorAll(".selected")) g.classList.remove("selected");
  if (selected) {
    const id = selected.route !== undefined ? `route-${selected.route}` : `location-${selected.location}`;
    const group = picture.querySelector(`#${id}`);
    if (group) group.classList.add("selected");
  }
  renderMoves(current);
  if (selected) $("#selection").scrollIntoView({ block: "nearest" });
}

// The pointer over a wide target lights its route or city up as over the drawing.
function hover(event, on) {
  const hit = event.target.closest(".hits [data-route], .hits [data-location]");
  if (!hit) return;
  const id = hit.dataset.route !== undefined ? `route-${hit.dataset.route}` : `location-${hit.dataset.location}`;
  const group = document.getElementById(id);
  if (group) group.classList.toggle("hover", on);
}

// A route as the board names it ("Amsterdam – Utrecht"), from its tooltip.
function routeName(route) {
  const title = document.querySelector(`#route-${route} > title`);
  return title ? title.textContent.split(":")[0] : `route ${route}`;
}

// ---------------------------------------------------------------------------
// The side panel

function renderStatus(status) {
  const line = $("#status");
  if (status.over) {
    const winners = (status.winners || []).map((s) => status.seats[s].name).join(" and ");
    line.textContent = `Game over: ${winners} won.`;
  } else if (status.turn) {
    line.textContent = status.prompt || "Your turn";
  } else {
    line.textContent = "The bots are moving";
  }
  // What the variants show now (a tunnel's turned-up cards and what they
  // cost): above the moves, where the decision is made.
  const situation = $("#situation");
  situation.replaceChildren();
  for (const text of status.situation || []) situation.append(el("li", {}, text));
}

// The moves in groups under their heading, as the server groups them (an
// older server without `group`: by kind).
const KIND_TITLES = {
  claim: "Claim a route",
  deck: "Draw cards",
  faceup: "Draw cards",
  tickets: "Tickets",
  pass: "Pass",
  other: "Other moves",
};

function hasPlace(move) {
  return move.location !== null && move.location !== undefined;
}

function grouped(moves) {
  const groups = new Map();
  for (const move of moves) {
    const title = move.group || KIND_TITLES[move.kind] || "Other moves";
    if (!groups.has(title)) groups.set(title, []);
    groups.get(title).push(move);
  }
  return groups;
}

function renderMoves(status) {
  renderSelection(status);
  const moves = $("#moves");
  moves.replaceChildren();
  const keep = status.moves.filter((m) => m.kind === "keep");
  if (keep.length) moves.append(keepForm(status, keep));
  for (const [title, these] of grouped(status.moves.filter((m) => m.kind !== "keep"))) {
    const places = new Map();
    for (const move of these) if (hasPlace(move)) places.set(move.location, move.place);
    if (places.size > MANY_PLACES) {
      moves.append(placePicker(title, places));
      for (const move of these) if (!hasPlace(move)) moves.append(moveButton(move));
      continue;
    }
    const claims = these.every((m) => m.kind === "claim");
    moves.append(el("div", { class: "group-title" }, claims ? `${title} (or click one on the board)` : title));
    for (const move of these) moves.append(moveButton(move));
  }
  if (!status.moves.length && !status.over) moves.append(el("p", {}, "No move for you now."));
}

// A group about many cities: its heading, how to choose on the board, and
// for the keyboard a list of its cities (picking one selects it, as a click
// on the board does).
function placePicker(title, places) {
  const box = el("div", { class: "places", dataset: { group: title } });
  box.append(el("div", { class: "group-title" }, title));
  box.append(el("p", { class: "hint" },
    `Click a city on the board (ringed in yellow) to choose where: ${title.toLowerCase()} there.`));
  const list = el("select", { "aria-label": `${title}: the city` });
  list.append(el("option", { value: "" }, "…or pick the city here"));
  const sorted = [...places].sort((a, b) => String(a[1]).localeCompare(String(b[1])));
  for (const [where, place] of sorted) list.append(el("option", { value: String(where) }, place));
  if (selected && places.has(selected.location)) list.value = String(selected.location);
  list.addEventListener("change", () => {
    if (list.value === "") return;
    selected = { location: parseInt(list.value, 10) };
    const picture = $("#board svg");
    for (const g of picture.querySelectorAll(".selected")) g.classList.remove("selected");
    const group = picture.querySelector(`#location-${selected.location}`);
    if (group) group.classList.add("selected");
    renderSelection(current);
    list.focus();
  });
  box.append(list);
  return box;
}

// The moves about what the person picked on the board, under a heading
// that names it; each button says only what tells it apart (its `choice`).
function renderSelection(status) {
  const selection = $("#selection");
  selection.replaceChildren();
  if (!selected) return;
  let these;
  let name;
  if (selected.route !== undefined) {
    these = status.moves.filter((m) => m.route === selected.route);
    name = routeName(selected.route);
  } else {
    these = status.moves.filter((m) => m.location === selected.location);
    name = these.length ? these[0].place : "";
  }
  const cancel = el("button", { type: "button", class: "cancel", title: "Pick nothing" }, "×");
  cancel.addEventListener("click", () => {
    selected = null;
    for (const g of document.querySelectorAll("#board .selected")) g.classList.remove("selected");
    renderMoves(current);
  });
  selection.append(cancel);
  if (!these.length) {
    selection.append(el("span", {}, status.over || !status.turn
      ? `${name}: no move of yours now.`
      : `You cannot claim ${name} now.`));
    return;
  }
  for (const [title, moves] of grouped(these)) {
    selection.append(el("div", { class: "group-title" }, `${title}: ${name}`));
    for (const move of moves) selection.append(moveButton(move, true));
  }
}

function keepForm(status, keep) {
  // The ticket choice: tick the tickets to keep; the move sent is the legal
  // KeepTickets with exactly those tickets. Nothing is ticked at first (the
  // person decides), unless every ticket offered must be kept.
  const all = status.min_keep >= status.offered.length;
  const form = el("div", { id: "keep", dataset: { minKeep: String(status.min_keep) } });
  form.append(el("div", { class: "group-title" },
    all ? "Keep the tickets offered" : `Keep at least ${status.min_keep} of the tickets offered`));
  for (const ticket of status.offered) {
    const label = el("label", { class: "offer" });
    const box = el("input", { type: "checkbox", value: String(ticket.id) });
    box.checked = all;
    box.disabled = all;
    label.append(box, ` ${ticket.name} (${ticket.points})`);
    form.append(label, el("br"));
  }
  const button = el("button", { type: "button", class: "move", dataset: { kind: "keep" } },
    "Keep the tickets ticked");
  const ticked = () => [...form.querySelectorAll("input:checked")].map((b) => parseInt(b.value, 10));
  const update = () => { button.disabled = ticked().length < status.min_keep; };
  form.addEventListener("change", update);
  update();
  button.addEventListener("click", () => {
    const key = ticked().sort((a, b) => a - b).join(",");
    const move = keep.find((m) => m.tickets.join(",") === key);
    if (move) play(move.action);
    else showError(`Keep at least ${status.min_keep} ticket(s).`);
  });
  form.append(button);
  return form;
}

function renderDisplay(status) {
  const display = $("#display");
  display.replaceChildren();
  for (const slot of status.display) {
    const move = status.moves.find((m) => m.kind === "faceup" && m.slot === slot.slot);
    const button = el("button", { type: "button", class: "card faceup" }, slot.name || "(empty)");
    paint(button, slot.fill);
    button.disabled = !move;
    if (move) button.addEventListener("click", () => play(move.action));
    display.append(button);
  }
  const deck = status.moves.find((m) => m.kind === "deck");
  const deckButton = el("button", { type: "button", class: "card deck" }, `Deck (${status.deck})`);
  deckButton.disabled = !deck;
  if (deck) deckButton.addEventListener("click", () => play(deck.action));
  const tickets = status.moves.find((m) => m.kind === "tickets");
  const ticketButton = el("button", { type: "button", class: "card ticket-deck" },
    `Tickets (${status.ticket_deck})`);
  ticketButton.disabled = !tickets;
  if (tickets) ticketButton.addEventListener("click", () => play(tickets.action));
  display.append(el("br"), deckButton, ticketButton);
}

function renderHand(status) {
  const hand = $("#hand");
  hand.replaceChildren();
  for (const card of status.hand) {
    const chip = el("span", { class: "card" });
    chip.append(el("span", { class: "count" }, `${card.count}× `), card.name);
    paint(chip, card.fill);
    hand.append(chip);
  }
  if (!status.hand.length) hand.textContent = "No cards.";
}

function renderTickets(status) {
  const list = $("#tickets");
  list.replaceChildren();
  for (const ticket of status.tickets) {
    // Once over, a ticket not completed has failed.
    const state = ticket.done ? "done" : status.over ? "failed" : "open";
    list.append(el("li", { class: state },
      `${ticket.name} (${ticket.points})`));
  }
}

// A seat's colour on the board, read from the picture's panel (the renderer
// owns the colours): a swatch beside the seat's name, or nothing.
function seatSwatch(seat) {
  const chip = document.querySelector(`#board g.score.seat-${seat} rect[stroke]`);
  if (!chip) return null;
  const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
  swatch.style.background = chip.getAttribute("fill");
  return swatch;
}

// Every seat's final sheet once over: the server's `final`; before the
// field came, the person's own sheet only.
function finalSheets(status) {
  if (status.final) return status.final;
  const total = status.sheet.reduce((sum, line) => sum + line.points, 0);
  return [{ seat: status.seat, name: "You", total, lines: status.sheet }];
}

function renderSeats(status) {
  const table = $("#seats");
  table.replaceChildren();
  const head = el("tr");
  for (const title of ["", "score", "cards", "tickets", status.pieces]) {
    head.append(el("th", {}, title));
  }
  table.append(head);
  // Once over, the score is the final total, as on the sheets (tickets,
  // longest path and the variants' lines counted), never the running score.
  const totals = new Map();
  if (status.over) for (const sheet of finalSheets(status)) totals.set(sheet.seat, sheet.total);
  const winners = new Set(status.winners || []);
  for (const seat of status.seats) {
    const score = totals.has(seat.seat) ? totals.get(seat.seat) : seat.score;
    const row = el("tr", {
      class: [seat.to_move ? "to-move" : "", winners.has(seat.seat) ? "winner" : ""].join(" ").trim(),
      dataset: { seat: String(seat.seat), score: String(score) },
    });
    for (const value of [seat.name, score, seat.cards, seat.tickets, seat.cars]) {
      row.append(el("td", {}, String(value)));
    }
    const swatch = seatSwatch(seat.seat);
    if (swatch) row.firstChild.prepend(swatch, " ");
    table.append(row);
  }
}

function renderEvents(status) {
  const list = $("#events");
  list.replaceChildren();
  for (const line of [...status.events].reverse()) list.append(el("li", {}, line));
}

// The game over: every player's whole score sheet, each line with its points
// and what it counts beneath it (the tickets completed or failed, the longest
// path's holder, the attractions), the total, and who won. Over the board
// until closed; the buttons to save and replay stay in the side panel.
function renderEnd(status) {
  $("#over-actions").hidden = !status.over;
  const end = $("#end");
  const sheets = $("#final-sheets");
  sheets.replaceChildren();
  if (!status.over) {
    end.hidden = true;
    return;
  }
  $("#save").href = `/api/games/${gameId}/record`;
  const winners = new Set(status.winners || []);
  const names = [...winners].map((s) => status.seats[s].name);
  $("#winners").textContent = names.length ? `${names.join(" and ")} won.` : "";
  for (const sheet of finalSheets(status)) {
    const won = winners.has(sheet.seat);
    const box = el("section", {
      class: won ? "sheet won" : "sheet",
      dataset: { seat: String(sheet.seat), total: String(sheet.total) },
    });
    const heading = el("h3", {}, `${sheet.name}: ${sheet.total}${won ? " — won" : ""}`);
    const swatch = seatSwatch(sheet.seat);
    if (swatch) heading.prepend(swatch);
    box.append(heading);
    const table = el("table");
    for (const line of sheet.lines) {
      const row = el("tr", {
        class: line.points < 0 ? "line minus" : "line",
        dataset: { label: line.label, points: String(line.points) },
      });
      const label = el("td", { class: "label" }, line.label);
      if (line.detail && line.detail.length) {
        label.append(el("div", { class: "detail" }, line.detail.join("; ")));
      }
      row.append(label, el("td", { class: "points" }, `${line.points > 0 ? "+" : ""}${line.points}`));
      table.append(row);
    }
    const total = el("tr", { class: "total" });
    total.append(el("td", {}, "Total"), el("td", { class: "points" }, String(sheet.total)));
    table.append(total);
    box.append(table);
    sheets.append(box);
  }
  for (const other of status.others || []) {
    sheets.append(el("p", { class: "other" },
      `${other.name}: ${other.routes} route${other.routes === 1 ? "" : "s"} (not a player: scores nothing)`));
  }
  showEnd(!endClosed);
}

// The sheets over the board, or the board with a button to show them again.
function showEnd(shown) {
  endClosed = !shown;
  $("#end").hidden = !shown;
  $("#end-open").hidden = shown;
  if (shown) $("#end-close").focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------
// The replay page

async function replayPage(id) {
  document.body.dataset.page = "replay";
  $("#replay").hidden = false;
  const range = $("#step");
  let steps = 1;
  let step = 0;
  async function show(n) {
    setState("busy");
    try {
      const answer = await api("GET", `/api/replays/${id}?step=${n}`);
      step = answer.step;
      steps = answer.steps;
      range.max = String(steps - 1);
      range.value = String(step);
      $("#title").textContent = `${answer.map}: replay`;
      $("#step-text").textContent = `${step} / ${steps - 1}`;
      $("#replay-line").textContent = answer.line;
      $("#replay-board").innerHTML = answer.svg;
      const picture = $("#replay-board svg");
      if (picture) picture.setAttribute("preserveAspectRatio", "xMidYMin meet");
      document.body.dataset.step = String(step);
    } catch (err) {
      $("#replay-error").textContent = err.message || String(err);
    }
    setState("ready");
  }
  $("#first").addEventListener("click", () => show(0));
  $("#prev").addEventListener("click", () => show(Math.max(0, step - 1)));
  $("#next").addEventListener("click", () => show(Math.min(steps - 1, step + 1)));
  $("#last").addEventListener("click", () => show(steps - 1));
  range.addEventListener("change", () => show(parseInt(range.value, 10)));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") show(Math.max(0, step - 1));
    if (event.key === "ArrowRight") show(Math.min(steps - 1, step + 1));
  });
  await show(0);
}

// ---------------------------------------------------------------------------

const path = location.pathname.split("/").filter(Boolean);
if (path[0] === "game" && path[1]) gamePage(path[1]);
else if (path[0] === "replay" && path[1]) replayPage(path[1]);
else startPage();
