/* Referee controls (after the PIN login): play a turn by notation, undo, import a record. */
"use strict";
(() => {
  const {t, call} = Maamut;
  const $ = (id) => document.getElementById(id);
  if (!$("play-form")) return;
  const say = (status, data) => { $("ref-result").textContent = status === 200 ? t("done") : data.error.message; };
  $("play-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const {status, data} = await call("/api/game/play", {notation: $("turn").value});
    say(status, data);
  });
  // The live board: while a frightened hunter waits, click one of the circled cells.
  let needs = null;
  const source = new EventSource("/api/stream");
  source.addEventListener("state", (event) => {
    let view;
    try { view = JSON.parse(event.data); } catch (e) { return; }
    Maamut.showSvg($("ref-board"), view.svg);
    needs = view.needs;
    $("ref-status").textContent = needs ? needs.hunter + ": " + t("flee_pick") : "";
  });
  $("ref-board").addEventListener("click", async (event) => {
    const target = event.target.closest(".flee-option");
    if (!target || !needs) return;
    const r = await call("/api/game/flee", {cell: target.dataset.cell});
    say(r.status, r.data);
  });
  $("undo").addEventListener("click", async () => { const r = await call("/api/game/undo", {}); say(r.status, r.data); });
  $("record").addEventListener("change", async () => {
    const file = $("record").files[0];
    if (!file) return;
    const r = await call("/api/game/record", await file.text());
    say(r.status, r.data);
  });
})();
