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
let selectedRoute = null;
let busy = false;

async function gamePage(id) {
  gameId = id;
  $("#game").hidden = false;
  $("#replay-game").addEventListener("click", async () => {
    try {
      const made = await api("POST", `/api/games/${gameId}/replay`);
      location.assign(made.url);
    } catch (err) {
      showError(err);
    }
  });
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
    selectedRoute = null;
    render(answer);
  } catch (err) {
    showError(err);
    if (err && err.reason === "stale_move") {
      // Another tab moved first: show the game as it is now.
      render(await api("GET", `/api/games/${gameId}`));
    }
    setState("ready");
  } finally {
    busy = false;
  }
}

function moveButton(move, label) {
  const button = el("button", { type: "button", class: "move", dataset: { kind: move.kind } },
    label || move.label);
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
  renderSheet(status);
  setState("ready");
}

// The person's own score sheet once the game is over: each line, with what it
// counts (the Grand Tour's tickets, the attractions reached) beneath it.
function renderSheet(status) {
  const list = $("#final-sheet");
  list.replaceChildren();
  if (!status.over) return;
  for (const line of status.sheet) {
    const item = el("li", {}, `${line.points >= 0 ? "+" : ""}${line.points} ${line.label}`);
    if (line.detail && line.detail.length) {
      item.append(el("div", { class: "detail" }, line.detail.join("; ")));
    }
    list.append(item);
  }
}

function renderBoard(status) {
  const board = $("#board");
  board.innerHTML = status.svg; // drawn by the server from the person's view
  const claimable = new Set(status.moves.filter((m) => m.kind === "claim").map((m) => m.route));
  for (const group of board.querySelectorAll('g[id^="route-"]')) {
    const route = parseInt(group.id.slice(6), 10);
    if (claimable.has(route)) group.classList.add("claimable");
    if (route === selectedRoute) group.classList.add("selected");
    group.addEventListener("click", () => {
      selectedRoute = route;
      for (const g of board.querySelectorAll("g.selected")) g.classList.remove("selected");
      group.classList.add("selected");
      renderMoves(current);
    });
  }
}

function renderStatus(status) {
  const line = $("#status");
  $("#end").hidden = !status.over;
  if (status.over) {
    const winners = status.winners.map((s) => status.seats[s].name).join(" and ");
    line.textContent = `Game over: ${winners} won.`;
    $("#save").href = `/api/games/${gameId}/record`;
  } else {
    line.textContent = status.turn ? "Your turn" : "The bots are moving";
  }
}

function renderMoves(status) {
  const moves = $("#moves");
  const selection = $("#selection");
  moves.replaceChildren();
  selection.replaceChildren();
  if (selectedRoute !== null) {
    const options = status.moves.filter((m) => m.kind === "claim" && m.route === selectedRoute);
    if (options.length) {
      selection.append(el("div", { class: "group-title" }, "Claim the route you picked"));
      for (const move of options) selection.append(moveButton(move));
    } else {
      selection.append(el("div", {}, "You cannot claim that route now."));
    }
  }
  const keep = status.moves.filter((m) => m.kind === "keep");
  if (keep.length) moves.append(keepForm(status, keep));
  const groups = [
    ["claim", "Claim a route (or click one on the board)"],
    ["deck", "Draw cards"],
    ["faceup", null],
    ["tickets", "Tickets"],
    ["other", "Other moves"],
    ["pass", "Pass"],
  ];
  for (const [kind, title] of groups) {
    const these = status.moves.filter((m) => m.kind === kind);
    if (!these.length) continue;
    if (title) moves.append(el("div", { class: "group-title" }, title));
    for (const move of these) moves.append(moveButton(move));
  }
  if (!status.moves.length && !status.over) moves.append(el("p", {}, "No move for you now."));
}

function keepForm(status, keep) {
  // The ticket choice: tick the tickets to keep; the move sent is the legal
  // KeepTickets with exactly those tickets.
  const form = el("div", { id: "keep" });
  form.append(el("div", { class: "group-title" },
    `Keep at least ${status.min_keep} of the tickets offered`));
  for (const ticket of status.offered) {
    const label = el("label", { class: "offer" });
    const box = el("input", { type: "checkbox", value: String(ticket.id) });
    box.checked = true;
    label.append(box, ` ${ticket.name} (${ticket.points})`);
    form.append(label, el("br"));
  }
  const button = el("button", { type: "button", class: "move", dataset: { kind: "keep" } },
    "Keep the tickets ticked");
  button.addEventListener("click", () => {
    const ticked = [...form.querySelectorAll("input:checked")].map((b) => parseInt(b.value, 10));
    const key = ticked.sort((a, b) => a - b).join(",");
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
    list.append(el("li", { class: ticket.done ? "done" : "open" },
      `${ticket.name} (${ticket.points})`));
  }
}

function renderSeats(status) {
  const table = $("#seats");
  table.replaceChildren();
  const head = el("tr");
  for (const title of ["", "score", "cards", "tickets", status.pieces]) {
    head.append(el("th", {}, title));
  }
  table.append(head);
  for (const seat of status.seats) {
    const row = el("tr", { class: seat.to_move ? "to-move" : "" });
    for (const value of [seat.name, seat.score, seat.cards, seat.tickets, seat.cars]) {
      row.append(el("td", {}, String(value)));
    }
    table.append(row);
  }
}

function renderEvents(status) {
  const list = $("#events");
  list.replaceChildren();
  for (const line of [...status.events].reverse()) list.append(el("li", {}, line));
}

// ---------------------------------------------------------------------------
// The replay page

async function replayPage(id) {
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
