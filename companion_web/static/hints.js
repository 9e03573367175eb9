/* AI on the page (only when the companion has one: /api/hint answers 404 otherwise).
   Live page: a "suggest a move" toggle per player, and the AI seats' moves with their
   card entry (referee). Sandbox: "Analyse" lists every legal action with its win chance.
   Server data is only written with textContent. */
"use strict";
(() => {
  const {el, call, t} = Maamut;
  const page = document.body.dataset.page;
  const referee = document.querySelector('meta[name="referee"]').content === "1";
  const pct = (x) => (x === null || x === undefined ? t("ai_no_estimate") : Math.round(100 * x) + " %");
  let names = {};
  const named = (notation) => notation.replace(/(^|\s)([^\s:@>]+)(?=[:@>])/g, (m, sp, id) => sp + (names[id] || id));
  const get = async (url) => { const r = await fetch(url, {credentials: "same-origin"});
    let data = null; try { data = await r.json(); } catch (e) { data = null; } return {status: r.status, data}; };

  function rows(list, limit) {
    const ol = el("ol", null, "hints");
    for (const row of list.slice(0, limit)) ol.append(el("li", named(row.notation) + " — " + pct(row.win_chance)));
    return ol;
  }

  async function live() {
    const side = document.querySelector(".side");
    const probe = await get("/api/ai");  // always answers: no 404 in the console without an AI
    if (!side || !probe.data) return;
    const hints = probe.data.hints && referee;  // suggestions are the referee's to switch on
    const anySeat = Object.keys(probe.data.seats || {}).length > 0;
    if (!hints && !anySeat) return;  // no AI panel where there is no AI to show
    const box = el("section", null, "hints-box");
    box.id = "hints-box";
    const toggles = el("div"), list = el("div"), seatsBox = el("div");
    const heading = (key) => { const h = el("h2", t(key)); h.dataset.i18n = key; return h; };
    if (hints) box.append(heading("ai_suggest"), toggles, list);
    if (anySeat) box.append(heading("ai_hunters"), seatsBox);
    side.prepend(box);
    const wanted = new Set(JSON.parse(localStorage.getItem("maamut-hints") || "[]"));
    let shownFor = null;

    function drawToggles(players) {
      const ids = players.map((p) => p.id).join(",");
      if (toggles.dataset.ids === ids) return;
      toggles.dataset.ids = ids;
      toggles.replaceChildren(...players.map((p) => {
        const label = el("label"), box = document.createElement("input");
        box.type = "checkbox"; box.checked = wanted.has(p.id); box.dataset.player = p.id;
        box.addEventListener("change", () => {
          if (box.checked) wanted.add(p.id); else wanted.delete(p.id);
          localStorage.setItem("maamut-hints", JSON.stringify([...wanted])); shownFor = null; tick();
        });
        label.append(box, " " + p.name);
        return label;
      }));
    }

    function drawSeats(seats) {
      seatsBox.replaceChildren();
      for (const [id, seat] of Object.entries(seats)) {
        const p = el("p");
        let text = (names[id] || id) + " (" + t("ai_level_" + seat.level) + ")" + (Maamut.lang === "fr" ? " : " : ": ");
        if (seat.move) text += seat.move.kind === "flee" ? t("ai_flees") + " " + seat.move.cell
          : t("ai_plays") + " " + named(seat.move.notation) + (seat.move.cells.length ? " → " + seat.move.cells.slice(-1)[0] : "")
            + " (" + pct(seat.move.win_chance) + ")";
        else text += {hand: t("ai_hand"), thinking: t("ai_thinking"), turn: t("ai_waiting")}[seat.waiting_for] || "";
        p.append(el("span", text));
        if (seat.waiting_for === "hand" || seat.cards < 3) {
          const input = document.createElement("input");
          input.size = 5; input.placeholder = t("ai_cards_eg"); input.maxLength = 3;
          input.setAttribute("aria-label", t("ai_cards"));
          const send = el("button", t("ai_cards"));
          send.type = "button";
          send.addEventListener("click", async () => {
            const cards = [...input.value].map(Number);
            const r = await call("/api/ai/hand", {player: id, cards});
            if (!r.data || !r.data.ok) p.append(el("span", " " + ((r.data && r.data.error && r.data.error.message) || r.status), "error"));
            tick();
          });
          p.append(" ", input, send);
        }
        seatsBox.append(p);
      }
    }

    async function tick() {
      const [state, seats] = await Promise.all([get("/api/state"), get("/api/ai")]);
      if (state.data) names = Object.fromEntries((state.data.players || []).map((p) => [p.id, p.name]));
      if (seats.data && seats.data.ok && !seatsBox.contains(document.activeElement)) drawSeats(seats.data.seats);
      if (!state.data) return;
      if (!hints) return;
      drawToggles(state.data.players || []);
      const mover = (state.data.players || []).find((p) => p.to_move);
      const key = mover ? mover.id + "@" + state.data.version : null;
      if (!mover || !wanted.has(mover.id)) { list.replaceChildren(); shownFor = null; return; }
      if (shownFor === key) return;
      shownFor = key;
      list.replaceChildren(el("p", t("ai_thinking")));
      const r = await get("/api/hint?player=" + encodeURIComponent(mover.id));
      if (r.data && r.data.ok && r.data.hints.length) list.replaceChildren(el("p", mover.name + ":"), rows(r.data.hints, 3));
      else list.replaceChildren();
    }
    tick();
    setInterval(tick, 2000);
    Maamut.onLang(() => { shownFor = null; tick(); });
  }

  function sandbox() {
    const side = document.querySelector(".side");
    const text = document.getElementById("sb-text");
    if (!side || !text) return;
    if (!referee) return;  // the analysis is the referee's
    const box = el("fieldset"), out = el("div"), button = el("button", t("ai_analyse"));
    button.type = "button"; button.dataset.i18n = "ai_analyse";
    const legend = el("legend", t("ai_analysis")); legend.dataset.i18n = "ai_analysis";
    box.append(legend, button, out);
    side.append(box);
    button.addEventListener("click", async () => {
      const hunter = document.getElementById("sb-hunter");
      out.replaceChildren(el("p", t("ai_thinking")));
      const r = await call("/api/analyse", {position: text.value.trim(), player: hunter ? hunter.value : undefined});
      if (r.status === 404) { out.replaceChildren(el("p", t("ai_none"))); return; }
      if (!r.data || !r.data.ok) { out.replaceChildren(el("p", (r.data && r.data.error && r.data.error.message) || String(r.status), "error")); return; }
      out.replaceChildren(rows(r.data.analysis, 40));
    });
  }

  if (page === "live") live();
  else if (page === "sandbox") sandbox();
})();
