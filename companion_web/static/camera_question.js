/* The camera's question about a cell it is unsure of, on the referee page: the camera's
   crop of the cell, a short question worded with the players' names and colours, one
   button per answer. The question comes with the live state (view.camera_question);
   the answer goes to /api/camera/questions/<id>/answer with the page's referee login. */
"use strict";
(() => {
  const box = document.getElementById("camera-question");
  if (!box) return;
  const $ = (id) => document.getElementById(id);
  const TEXT = {
    en: {title: "The camera asks", mammoth: "the mammoth", hunter: "{name}'s hunter", trap: "{name}'s trap",
      nothing: "nothing", and: " and ", ask: "Is that {what} on {cell}?", ask_empty: "Is {cell} empty?",
      yes: "Yes", other: "It's {what}", other_empty: "Nothing there", thanks: "Thanks: the camera goes on.",
      crop: "The camera's view of {cell}"},
    fr: {title: "La caméra demande", mammoth: "le mammouth", hunter: "le chasseur de {name}", trap: "le piège de {name}",
      nothing: "rien", and: " et ", ask: "Est-ce {what} sur {cell} ?", ask_empty: "La case {cell} est-elle vide ?",
      yes: "Oui", other: "C'est {what}", other_empty: "Il n'y a rien", thanks: "Merci : la caméra continue.",
      crop: "Ce que voit la caméra de {cell}"},
  };
  const say = (key, values = {}) => (TEXT[Maamut.lang] || TEXT.en)[key].replace(/\{(\w+)\}/g, (m, k) => values[k]);
  let view = null, answering = false;

  const player = (id) => ((view && view.players) || []).find((p) => p.id === id) || {name: "?", colour: "#888"};
  function what(contents) {
    const parts = [];
    if (contents.mammoth) parts.push(say("mammoth"));
    contents.hunters.forEach((id) => parts.push(say("hunter", {name: player(id).name})));
    if (contents.trap) parts.push(say("trap", {name: player(contents.trap).name}));
    return parts.join(say("and"));
  }
  const empty = (c) => !c.mammoth && !c.hunters.length && !c.trap;
  function swatches(contents) {
    const ids = [...contents.hunters, ...(contents.trap ? [contents.trap] : [])];
    return [...new Set(ids)].map((id) => {
      const dot = Maamut.el("span", "", "swatch");
      // CSSOM, allowed by the page's CSP (inline style attributes are not)
      Object.assign(dot.style, {background: player(id).colour, display: "inline-block", width: "0.9em",
        height: "0.9em", borderRadius: "50%", marginRight: "0.35em", border: "1px solid #000", verticalAlign: "-0.1em"});
      return dot;
    });
  }

  function show() {
    const q = view && view.camera_question;
    box.hidden = !q;
    if (!q) { box.dataset.question = ""; return; }
    $("camera-question-title").textContent = say("title");
    $("camera-question-text").textContent = empty(q.seen) ? say("ask_empty", {cell: q.cell})
      : say("ask", {what: what(q.seen), cell: q.cell});
    const crop = $("camera-question-crop");
    const src = "/api/camera/questions/" + encodeURIComponent(q.id) + "/crop.jpg";
    if (q.crop && crop.getAttribute("src") !== src) crop.src = src;
    crop.hidden = !q.crop;
    crop.alt = say("crop", {cell: q.cell});
    const buttons = q.options.map((option, index) => {
      const button = Maamut.el("button", null, "camera-answer");
      button.type = "button";
      button.dataset.answer = String(index);
      const label = index === 0 ? say("yes") : (empty(option) ? say("other_empty") : say("other", {what: what(option)}));
      button.append(...swatches(option), document.createTextNode(label));
      button.addEventListener("click", () => answer(q.id, index));
      return button;
    });
    $("camera-question-answers").replaceChildren(...buttons);
    if (box.dataset.question !== String(q.id)) $("camera-question-status").textContent = "";
    box.dataset.question = String(q.id);
  }

  async function answer(id, index) {
    if (answering) return;
    answering = true;
    try {
      const r = await Maamut.call("/api/camera/questions/" + encodeURIComponent(id) + "/answer", {answer: index});
      $("camera-question-status").textContent = r.status === 200 ? say("thanks") : r.data.error.message;
    } finally {
      answering = false;
    }
  }

  // This panel's script runs after the page's own (deferred): the shared stream may
  // already have brought a state, which it shows at once.
  function received(data) {
    try { view = JSON.parse(data); } catch (e) { return; }
    show();
  }
  Maamut.stream().addEventListener("state", (event) => received(event.data));
  if (Maamut.lastState) received(Maamut.lastState);
  Maamut.onLang(show);
})();
