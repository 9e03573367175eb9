/* Setup wizard (referee only): players, names, colours, variants, board; then the
   hunters' start cells, clicked on the board. */
"use strict";
(() => {
  const {t, el, call, showSvg} = Maamut;
  const form = document.getElementById("setup-form");
  if (!form) return;  // not logged in: the page shows the PIN form instead
  const $ = (id) => document.getElementById(id);
  const rows = [...document.querySelectorAll(".player-row")];
  const count = $("count");
  function showRows() { rows.forEach((row, i) => { row.hidden = i >= Number(count.value); }); }
  count.addEventListener("change", showRows); showRows();

  let next = null;
  async function refresh() {
    const response = await fetch("/api/state", {credentials: "same-origin"});
    const view = await response.json();
    if (!view.position) return;
    $("placing").hidden = false;
    showSvg($("setup-board"), view.svg);
    next = view.phase === "setup" ? view.next_to_place : null;
    const who = (view.players || []).find((p) => p.id === next);
    $("place-who").textContent = next ? t("place_next") + " " + (who ? who.name : next) : t("ready");
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = rows.filter((r) => !r.hidden).map((r) => ({
      id: r.querySelector(".pid").textContent, name: r.querySelector('[name="name"]').value,
      colour: r.querySelector('[name="colour"]').value}));
    const variants = {};
    document.querySelectorAll("[data-variant]").forEach((s) => { variants[s.dataset.variant] = JSON.parse(s.value); });
    const body = {players, variants};
    if ($("seed").value.trim()) body.seed = Number($("seed").value.trim());
    if ($("tiles").value.trim()) body.tiles = $("tiles").value.trim();
    const {status, data} = await call("/api/game/new", body);
    $("setup-error").textContent = status === 200 ? "" : data.error.message;
    if (status === 200) refresh();
  });

  $("setup-board").addEventListener("click", async (event) => {
    const target = event.target.closest("[data-cell]");
    if (!target || !next) return;
    const {status, data} = await call("/api/game/place", {player: next, cell: target.dataset.cell});
    $("setup-error").textContent = status === 200 ? "" : data.error.message;
    refresh();
  });
  refresh();
})();
