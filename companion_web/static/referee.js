/* Referee controls (after the PIN login): play a turn by notation, undo, import a record;
   the LED mirror drawn as the board, the camera's frame and its per-cell confidence
   drawn over the live board (referee only: viewers are not shown the camera). */
"use strict";
(() => {
  const {t, call, svgEl} = Maamut;
  const $ = (id) => document.getElementById(id);
  if (!$("play-form")) return;
  const say = (status, data) => { $("ref-result").textContent = status === 200 ? t("done") : data.error.message; };
  $("play-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const {status, data} = await call("/api/game/play", {notation: $("turn").value});
    say(status, data);
  });
  let needs = null, view = null;

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

  const source = new EventSource("/api/stream");
  source.addEventListener("state", (event) => {
    try { view = JSON.parse(event.data); } catch (e) { return; }
    Maamut.showSvg($("ref-board"), view.svg);
    overlay();
    needs = view.needs;
    $("ref-status").textContent = needs ? needs.hunter + ": " + t("flee_pick") : "";
    Maamut.ledBoard($("leds"), view.leds, view.led_cells);
    const cam = view.camera || {};
    if (cam.frame) {
      const img = $("camera-frame");
      const src = "/camera/frame?v=" + encodeURIComponent(cam.frame);
      if (img.getAttribute("src") !== src) img.src = src;
      img.hidden = false;
      $("camera-none").hidden = true;
    }
  });
  $("cam-overlay").addEventListener("change", overlay);

  /* The camera's word on the light (codes from the server, worded here in the page's language). */
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (values[k] !== undefined ? values[k] : m));
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
  source.addEventListener("state", lightNotes);
  Maamut.onLang(lightNotes);
  $("relearn-light").addEventListener("click", async () => {
    const r = await call("/api/camera/relearn", {});
    if (r.status === 202) $("relearn-status").textContent = t("relearn_waiting");
    else say(r.status, r.data);
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
