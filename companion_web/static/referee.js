/* Referee controls (after the PIN login): whose turn it is and the log; a move played by
   clicking the board (the hunter, then the cell; flee choices the same way) or typed as
   notation; an undo that names its turn; every write sent with the tag of the state on
   screen (If-Match), so a turn that landed meanwhile is named, never silently undone;
   import a record;
   the LED mirror drawn as the board, the camera's frame and its per-cell confidence
   drawn over the live board (referee only: viewers are not shown the camera). */
"use strict";
(() => {
  const {t, call, svgEl, el, fill} = Maamut;
  const $ = (id) => document.getElementById(id);
  if (!$("play-form")) return;
  /* "Done." and a refusal never look alike: each has its own line and style. */
  const say = (status, data, done) => {
    const ok = status === 200 || status === 202;
    $("ref-result").textContent = ok ? (done || t("done")) : "";
    $("ref-error").textContent = ok ? "" : Maamut.refusal(status, data);
    if (status === 412) reread();
  };
  $("play-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const {status, data} = await call("/api/game/play", {notation: $("turn").value});
    say(status, data);
  });
  let needs = null, view = null, selected = null, log = [];
  const DIRS = {E: [1, 0], SE: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [0, -1], NE: [1, -1]};
  const player = (id) => ((view && view.players) || []).find((p) => p.id === id);
  const nameOf = (id) => (player(id) ? player(id).name : id);
  const words = (entry) => ((entry && (entry[Maamut.lang] || entry.en)) || []).find((l) => l && !l.startsWith(" "));
  const short = (line) => (line || "").split("  [")[0].replace(/[.\s]+$/, "");

  /* Whose turn, with the player's colour; the placement, a waiting flee or the end instead. */
  function turnLine() {
    const box = $("ref-turn");
    box.replaceChildren();
    if (!view || !view.position) { box.textContent = t("no_game"); return; }
    let who = null, text = "";
    if (view.winner) text = t("winner") + ": " + (view.winner === "mammoth" ? t("mammoth") : nameOf(view.winner));
    else if (view.needs) { who = view.needs.hunter; text = nameOf(who) + " " + t("needs"); }
    else if (view.phase === "setup" && view.next_to_place) { who = view.next_to_place; text = t("placing") + " " + nameOf(who); }
    else { const p = (view.players || []).find((x) => x.to_move); if (p) { who = p.id; text = t("ref_turn") + " " + p.name; } }
    if (who && player(who)) { const dot = el("span", null, "swatch"); dot.style.background = player(who).colour; box.append(dot); }
    box.append(el("span", text));
    const mover = (view.players || []).find((x) => x.to_move);
    $("ref-hint").textContent = view.needs ? t("flee_pick")
      : (mover && !view.winner && view.phase !== "setup" ? fill(t(selected ? "pick_cell" : "pick_hunter"), {name: mover.name}) : "");
  }

  /* The undo button names the turn it takes back ("Undo “Ann moves 2 E from 0,-3 to 2,-3”"). */
  function undoLabel() {
    const last = log[log.length - 1];
    const pending = view && view.needs;
    $("undo").disabled = !last && !pending;
    $("undo").textContent = !last && !pending ? t("undo_none")
      : fill(t("undo_named"), {turn: pending ? nameOf(pending.hunter) + " " + t("needs") : short(words(last)) + " (" + (last.named || last.notation) + ")"});
  }

  function renderLog() {
    let turn = 0;
    const items = log.map((entry) => {
      const placement = entry.notation.includes("@");
      if (!placement) turn += 1;
      const li = el("li");
      li.append(el("span", placement ? "·" : String(turn), "num"), Maamut.entryLabel(entry, view.players), " ", el("span", short(words(entry))));
      return li;
    });
    $("ref-log").replaceChildren(...items.reverse());
  }

  /* Click a hunter of the player to move, then one of the cells 1 to 3 steps away in a
     straight line: the move is sent; the server says if the rules refuse it. */
  function targets() {
    const svg = $("ref-board").querySelector("svg");
    if (!svg) return;
    svg.querySelectorAll(".target, .selected-hunter").forEach((n) => n.classList.remove("target", "selected-hunter"));
    svg.querySelectorAll("circle.target-ring").forEach((n) => n.remove());
    if (!selected) return;
    const hunter = svg.querySelector(`g.hunter[data-hunter="${CSS.escape(selected.hunter)}"]`);
    if (hunter) hunter.classList.add("selected-hunter");
    const [q, r] = selected.cell.split(",").map(Number);
    Object.entries(DIRS).forEach(([dir, [dq, dr]]) => {
      for (let k = 1; k <= 3; k += 1) {
        const cell = (q + k * dq) + "," + (r + k * dr);
        const use = svg.querySelector(`g.cell[data-cell="${CSS.escape(cell)}"] use`);
        if (!use) break;
        svg.append(svgEl("circle", {cx: use.getAttribute("x"), cy: use.getAttribute("y"), r: 30, class: "target target-ring",
          "data-cell": cell, "data-direction": dir, "data-distance": k}));
      }
    });
  }

  /* Each cell the camera read gets a ring (green sure, amber unsure, red doubtful) and its percentage. */
  function overlay() {
    const svg = $("ref-board").querySelector("svg");
    if (!svg || !view) return;
    svg.querySelectorAll(".confidence").forEach((n) => n.remove());
    if (!$("cam-overlay").checked) return;
    const conf = (view.camera || {}).confidence || {};
    Object.entries(conf).forEach(([cell, c]) => {
      const use = svg.querySelector(`g.cell[data-cell="${CSS.escape(cell)}"] use`);
      if (!use) return;
      const x = Number(use.getAttribute("x")), y = Number(use.getAttribute("y"));
      const colour = c >= 0.9 ? "#2ecc71" : (c >= 0.6 ? "#f5b700" : "#e74c3c");
      const g = svgEl("g", {class: "confidence", "data-cell": cell, "data-confidence": Math.round(100 * c)});
      g.append(svgEl("circle", {cx: x, cy: y, r: 33, fill: "none", stroke: colour, "stroke-width": c >= 0.9 ? 2 : 5}));
      if (c < 0.9) {
        g.append(svgEl("rect", {x: x - 19, y: y + 12, width: 38, height: 17, rx: 4, fill: "#111", opacity: 0.85}));
        const label = svgEl("text", {x, y: y + 25, "text-anchor": "middle", fill: colour, class: "conf-label"});
        label.textContent = Math.round(100 * c) + "%";
        g.append(label);
      }
      svg.append(g);
    });
  }

  const source = Maamut.stream();
  let drawing = false;
  source.addEventListener("state", (event) => {
    try { receive(JSON.parse(event.data)); } catch (e) { return; /* a broken message: wait for the next */ }
    // A burst of updates is drawn once per frame (the latest state), never one by one.
    if (!drawing) { drawing = true; requestAnimationFrame(() => { drawing = false; draw(); }); }
  });
  /* After a refusal the page reads the game as it is now (a full state), so what the
     referee sees next is what his next write acts on. */
  async function reread() {
    try { const r = await fetch("/api/state", {credentials: "same-origin"}); apply(await r.json()); } catch (e) { /* the stream catches up */ }
  }
  function apply(next) { receive(next); draw(); }
  function receive(next) {
    view = next;
    log = log.slice(0, view.log_from || 0).concat(view.log || []);
    view.log = log;
    Maamut.seen(view);
  }
  function draw() {
    const before = $("ref-board").dataset.svg;
    Maamut.showSvg($("ref-board"), view.svg);
    if (before !== view.svg) selected = null;
    overlay();
    targets();
    needs = view.needs;
    $("ref-status").textContent = needs ? nameOf(needs.hunter) + ": " + t("flee_pick") : "";
    turnLine(); undoLabel(); renderLog();
    Maamut.ledBoard($("leds"), view.leds, view.led_cells);
    const cam = view.camera || {};
    if (cam.frame) {
      const img = $("camera-frame");
      const src = "/camera/frame?v=" + encodeURIComponent(cam.frame);
      if (img.getAttribute("src") !== src) img.src = src;
      img.hidden = false;
      $("camera-none").hidden = true;
    }
    lightNotes();
  }
  $("cam-overlay").addEventListener("change", overlay);

  /* The camera's word on the light (codes from the server, worded here in the page's language). */
  function lightNotes() {
    const light = ((view || {}).camera || {}).light || {warnings: [], relearn: null};
    const items = light.warnings.map((w) => {
      if (w.kind === "glare") return w.where === "middle" ? t("light_glare_middle") : fill(t("light_glare"), {where: t("dir_" + w.where)});
      if (w.kind === "dark") return t("light_dark");
      return fill(t("light_unreadable"), {s: w.seconds});
    });
    $("light-warnings").replaceChildren(...items.map((text) => Maamut.el("li", text, "light-warning")));
    const r = light.relearn;
    let status = "";
    if (r && r.state === "waiting") status = t("relearn_waiting");
    else if (r && r.state === "done") status = t(r.by === "button" ? "relearn_done_button" : "relearn_done_auto");
    else if (r && r.state === "failed") status = fill(t("relearn_failed"), {why: t("why_" + (r.reason || "board_moving"))});
    $("relearn-status").textContent = status;
    $("relearn-status").dataset.state = r ? r.state : "";
  }
  Maamut.onLang(lightNotes);
  $("relearn-light").addEventListener("click", async () => {
    const r = await call("/api/camera/relearn", {});
    if (r.status === 202) $("relearn-status").textContent = t("relearn_waiting");
    else say(r.status, r.data);
  });
  $("ref-board").addEventListener("click", async (event) => {
    const flee = event.target.closest(".flee-option");
    if (flee && needs) {
      const r = await call("/api/game/flee", {cell: flee.dataset.cell});
      say(r.status, r.data);
      return;
    }
    const target = event.target.closest(".target-ring");
    if (target && selected) {
      const action = {type: "move", hunter: selected.hunter, direction: target.dataset.direction, distance: Number(target.dataset.distance)};
      selected = null; targets(); turnLine();
      const r = await call("/api/game/play", {action});
      say(r.status, r.data);
      return;
    }
    const hunter = event.target.closest("g.hunter");
    const mover = ((view && view.players) || []).find((p) => p.to_move);
    if (hunter && mover && !needs && !view.winner && hunter.dataset.hunter === mover.id) {
      selected = selected && selected.cell === hunter.dataset.cell ? null : {hunter: hunter.dataset.hunter, cell: hunter.dataset.cell};
      targets(); turnLine();
    }
  });
  $("undo").addEventListener("click", async () => {
    const r = await call("/api/game/undo", {});
    const back = r.data && r.data.taken_back;
    say(r.status, r.data, back ? fill(t("took_back"), {turn: (back[Maamut.lang] || back.en) + " (" + (back.named || back.notation) + ")"}) : undefined);
  });
  Maamut.onLang(() => { turnLine(); undoLabel(); renderLog(); });
  $("record").addEventListener("change", async () => {
    const file = $("record").files[0];
    if (!file) return;
    const r = await call("/api/game/record", await file.text());
    say(r.status, r.data);
  });
})();
