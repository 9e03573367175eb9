/* Setup wizard (referee only): players, names, colours, variants, board; then the
   hunters' start cells, clicked on the board. */
"use strict";
(() => {
  const {t, el, call, showSvg, svgEl} = Maamut;
  const form = document.getElementById("setup-form");
  if (!form) return;  // not logged in: the page shows the PIN form instead
  const $ = (id) => document.getElementById(id);
  const rows = [...document.querySelectorAll(".player-row")];
  const count = $("count");
  function showRows() { rows.forEach((row, i) => { row.hidden = i >= Number(count.value); }); }
  count.addEventListener("change", showRows); showRows();
  /* Each player is one name and one colour: the swatch shows the colour, and a name
     nobody typed follows the colour's name in the page's language. */
  function colourName(row) {
    const select = row.querySelector('[name="colour"]');
    const name = row.querySelector('[name="name"]');
    row.querySelector(".pid-swatch").style.background = select.value;
    if (name.dataset.default) name.value = select.selectedOptions[0].textContent;
  }
  rows.forEach((row) => {
    row.querySelector('[name="colour"]').addEventListener("change", () => colourName(row));
    row.querySelector('[name="name"]').addEventListener("input", (e) => { delete e.target.dataset.default; });
    colourName(row);
  });
  Maamut.onLang(() => rows.forEach(colourName));

  let next = null, shownSvg = null, shownFrame = 0;
  /* Draws the dealt board (start cells ringed for the hunter being placed) and the
     camera's latest frame; called with each state the stream brings, so the camera's
     view follows the table while people set it up. */
  function show(view) {
    Maamut.seen(view);
    if (!view || !view.position) return;
    $("placing").hidden = false;
    const nextNow = view.phase === "setup" ? view.next_to_place : null;
    if (view.svg !== shownSvg || nextNow !== next) {
      shownSvg = view.svg;
      showSvg($("setup-board"), view.svg);
      next = nextNow;
      const who = (view.players || []).find((p) => p.id === next);
      $("place-who").textContent = next ? t("place_next") + " " + (who ? who.name : next) + ". " + t("start_cells")
        : (view.winner ? t("finished") : t("ready"));
      if (next) highlight(who ? who.colour : "#ffffff");
    }
    const cam = view.camera || {};
    if (cam.frame && cam.frame !== shownFrame) {
      shownFrame = cam.frame;
      $("setup-camera").src = "/camera/frame?v=" + encodeURIComponent(cam.frame);
      $("setup-camera-box").hidden = false;
    }
  }
  async function refresh() {
    const response = await fetch("/api/state", {credentials: "same-origin"});
    show(await response.json());
  }

  /* The legal start cells of the hunter being placed, outlined in his colour. */
  async function highlight(colour) {
    const response = await fetch("/api/start-cells", {credentials: "same-origin"});
    if (!response.ok) return;
    const data = await response.json();
    const svg = $("setup-board").querySelector("svg");
    if (!svg) return;
    svg.querySelectorAll(".start-cell").forEach((n) => n.remove());
    data.cells.forEach((cell) => {
      const use = svg.querySelector(`g.cell[data-cell="${CSS.escape(cell)}"] use`);
      if (!use) return;
      // A dashed ring (not a disc, which would read as a hunter already there).
      const mark = svgEl("circle", {cx: use.getAttribute("x"), cy: use.getAttribute("y"), r: 27, fill: "#ffffff",
        "fill-opacity": 0.3, stroke: colour, "stroke-width": 5, "stroke-dasharray": "7 5", class: "start-cell",
        "data-cell": cell});
      svg.append(mark);
    });
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = rows.filter((r) => !r.hidden).map((r) => ({
      id: r.dataset.pid, name: r.querySelector('[name="name"]').value,
      colour: r.querySelector('[name="colour"]').value}));
    const variants = {};
    document.querySelectorAll("[data-variant]").forEach((group) => {
      variants[group.dataset.variant] = JSON.parse(group.querySelector("input:checked").value);
    });
    const body = {players, variants};
    if ($("seed").value.trim()) body.seed = Number($("seed").value.trim());
    if ($("tiles").value.trim()) body.tiles = $("tiles").value.trim();
    const {status, data} = await call("/api/game/new", body);
    $("setup-error").textContent = status === 200 ? "" : Maamut.refusal(status, data);
    if (status === 200) refresh();
  });

  $("setup-board").addEventListener("click", async (event) => {
    const target = event.target.closest("[data-cell]");
    if (!target || !next) return;
    const {status, data} = await call("/api/game/place", {player: next, cell: target.dataset.cell});
    $("setup-error").textContent = status === 200 ? "" : Maamut.refusal(status, data);
    refresh();
  });
  const source = Maamut.stream();
  source.addEventListener("state", (event) => {
    let view;
    try { view = JSON.parse(event.data); } catch (e) { return; }
    show(view);
  });
  refresh();
})();
