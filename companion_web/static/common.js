/* Shared by every page: language switch, safe SVG insertion, JSON calls with the CSRF token.
   Data from the server is only ever written with textContent or as parsed SVG nodes. */
"use strict";
const Maamut = (() => {
  const TEXT = {
    en: {nav_live: "Live", nav_sandbox: "Sandbox", nav_setup: "Setup", nav_referee: "Referee",
      connecting: "connecting…", live: "live", offline: "reconnecting…", players: "Players", log: "Game log",
      leds: "LEDs", camera: "Camera", no_frame: "No camera frame yet.", to_move: "to move", winner: "Winner",
      mammoth: "the mammoth", needs: "must choose where to flee", no_game: "No game yet: the referee starts one in Setup.",
      placing: "Placing hunters: next is", edit: "Edit the position (click a cell)", t_grass: "grass", t_snow: "snow",
      t_rock: "rock", t_cross: "cross", t_mammoth: "mammoth", t_hunter: "hunter of", t_trap: "trap of",
      t_clear: "remove hunter/trap", t_pick: "pick a hunter", player: "Player", players_ids: "Players (seating order)",
      coords: "coordinates", notation: "Notation", load: "Load", figure: "Rulebook figure", play: "Play a move",
      hunter: "Hunter", direction: "Direction", card: "Card", play_btn: "Play", back: "Back",
      whatif: "What if? (18 moves)", dests: "Destinations per card", share: "Share", link: "link",
      flee_pick: "Frightened hunter: click where he flees.", illegal: "illegal", out: "out", trapped: "trapped!",
      setup_title: "New game", need_pin: "Only the referee can start a game.", pin: "Referee PIN", login: "Log in",
      step_players: "1. Players", how_many: "How many?", step_variants: "2. Variants (default first)",
      step_board: "3. Board", seed: "Seed (empty: random)", tiles: "Tiles (notation, empty: seeded layout)",
      deal: "Deal", step_place: "4. Place the hunters", place_next: "Click the start cell of", ready: "All hunters placed: the game is on.",
      referee_title: "Referee", turn_notation: "Turn (notation, e.g. A:E2 or A:E2 B>1,1)", undo: "Undo last turn",
      export: "Export the game record", variants: "Variants", join: "Follow on your phone", import: "Import a game record", logout: "Log out", done: "Done.",
      nav_stand: "Stand", back_live: "Back to live", sound_on: "Sound on", sound_off: "Sound off", legend: "Legend",
      lg_mammoth: "mammoth", lg_hunter: "hunter (player's colour)", lg_trap: "trap (ring in its owner's colour)",
      lg_last: "last move (from and to)", lg_flight: "the mammoth's flight", lg_flee: "where a frightened hunter may flee",
      lg_illegal: "the board differs from the game here", share_moves: "Download the moves",
      survives: "The mammoth survives!", trapped_by: "{name} trapped the mammoth!", wins: "{name} wins!",
      r_mammoth_faced: "(the mammoth turned on the last hunter)", r_no_escape: "(nowhere left to flee)",
      r_trap: "(the mammoth is trapped)", r_no_hunters: "No hunter is left.",
      r_mammoth_safe: "No trap can ever catch it.", r_stall: "The hunt went round in circles.",
      last_game: "Last game:", stopped: "stopped after {n} turns, the mammoth survives.", why: "why · rule",
      move_of: "turn {k} of {n}", setup_step: "placing the hunters", last_turn: "Last turn", led_mirror: "LEDs under the board",
      cam_overlay: "Camera confidence on the board", start_cells: "Highlighted: the cells where a hunter may start.",
      camera_setup: "What the camera sees", choice_pending: "choice pending", trapped_short: "trapped!",
      relearn_light: "Re-learn the light", light_glare: "Too bright over the {where}: lower or move the lamp.",
      light_glare_middle: "Too bright over the middle of the board: lower or move the lamp.",
      light_dark: "Too dark for the camera: add light over the board.",
      light_unreadable: "The camera has not been able to read the board for {s} s: check the light, or re-learn it.",
      relearn_waiting: "Re-learning the light: waiting for a still board that shows the game…",
      relearn_done_button: "Light re-learnt; the game goes on.",
      relearn_done_auto: "The light changed: it was re-learnt automatically; the game goes on.",
      relearn_failed: "The light could not be re-learnt: {why}",
      why_board_moving: "the board did not stay still (a hand over it?).",
      why_board_covered: "something covers part of the board.",
      why_board_differs: "the board does not show the game's position.",
      why_colours_differ: "the pieces do not show the game's position, or more than the light changed.",
      why_pieces_hidden: "stacked pieces hide a colour: set them apart.",
      why_board_not_seen: "the marker cards are not seen.",
      dir_east: "east", "dir_north-east": "north-east", dir_north: "north", "dir_north-west": "north-west",
      dir_west: "west", "dir_south-west": "south-west", dir_south: "south", "dir_south-east": "south-east"},
    fr: {nav_live: "En direct", nav_sandbox: "Bac à sable", nav_setup: "Préparation", nav_referee: "Arbitre",
      connecting: "connexion…", live: "en direct", offline: "reconnexion…", players: "Joueurs", log: "Journal de la partie",
      leds: "LED", camera: "Caméra", no_frame: "Pas encore d'image de la caméra.", to_move: "au trait", winner: "Gagnant",
      mammoth: "le mammouth", needs: "doit choisir où fuir", no_game: "Pas de partie : l'arbitre en lance une dans Préparation.",
      placing: "Pose des chasseurs : au tour de", edit: "Modifier la position (cliquer une case)", t_grass: "herbe",
      t_snow: "neige", t_rock: "rocher", t_cross: "croix", t_mammoth: "mammouth", t_hunter: "chasseur de",
      t_trap: "piège de", t_clear: "retirer chasseur/piège", t_pick: "choisir un chasseur", player: "Joueur",
      players_ids: "Joueurs (ordre autour de la table)", coords: "coordonnées", notation: "Notation", load: "Charger",
      figure: "Figure de la règle", play: "Jouer un coup", hunter: "Chasseur", direction: "Direction", card: "Carte",
      play_btn: "Jouer", back: "Retour", whatif: "Et si ? (18 coups)", dests: "Destinations par carte",
      share: "Partager", link: "lien", flee_pick: "Chasseur effrayé : cliquez où il fuit.", illegal: "interdit",
      out: "éliminé", trapped: "piégé !", setup_title: "Nouvelle partie", need_pin: "Seul l'arbitre peut lancer une partie.",
      pin: "Code de l'arbitre", login: "Connexion", step_players: "1. Joueurs", how_many: "Combien ?",
      step_variants: "2. Variantes (par défaut en premier)", step_board: "3. Plateau", seed: "Graine (vide : au hasard)",
      tiles: "Tuiles (notation, vide : disposition tirée)", deal: "Distribuer", step_place: "4. Poser les chasseurs",
      place_next: "Cliquez la case de départ de", ready: "Tous les chasseurs sont posés : la partie commence.",
      referee_title: "Arbitre", turn_notation: "Tour (notation, p. ex. A:E2 ou A:E2 B>1,1)",
      undo: "Annuler le dernier tour", export: "Exporter la feuille de partie", variants: "Variantes", join: "Suivre sur votre téléphone", import: "Importer une feuille de partie",
      logout: "Déconnexion", done: "Fait.",
      nav_stand: "Stand", back_live: "Retour au direct", sound_on: "Son activé", sound_off: "Son coupé", legend: "Légende",
      lg_mammoth: "mammouth", lg_hunter: "chasseur (couleur du joueur)", lg_trap: "piège (anneau à la couleur du joueur)",
      lg_last: "dernier coup (départ et arrivée)", lg_flight: "la fuite du mammouth", lg_flee: "où un chasseur effrayé peut fuir",
      lg_illegal: "ici le plateau diffère de la partie", share_moves: "Télécharger les coups",
      survives: "Le mammouth survit !", trapped_by: "{name} a piégé le mammouth !", wins: "{name} gagne !",
      r_mammoth_faced: "(le mammouth a fait face au dernier chasseur)", r_no_escape: "(plus aucune case pour fuir)",
      r_trap: "(le mammouth est piégé)", r_no_hunters: "Il ne reste aucun chasseur.",
      r_mammoth_safe: "Aucun piège ne pourra jamais l'attraper.", r_stall: "La chasse tournait en rond.",
      last_game: "Partie précédente :", stopped: "arrêtée après {n} tours, le mammouth survit.", why: "pourquoi · règle",
      move_of: "tour {k} sur {n}", setup_step: "pose des chasseurs", last_turn: "Dernier tour", led_mirror: "LED sous le plateau",
      cam_overlay: "Confiance de la caméra sur le plateau", start_cells: "En surbrillance : les cases de départ possibles.",
      relearn_light: "Réapprendre la lumière", light_glare: "Trop de lumière sur le {where} : baissez ou déplacez la lampe.",
      light_glare_middle: "Trop de lumière au milieu du plateau : baissez ou déplacez la lampe.",
      light_dark: "Trop sombre pour la caméra : éclairez le plateau.",
      light_unreadable: "La caméra n'arrive plus à lire le plateau depuis {s} s : vérifiez la lumière, ou réapprenez-la.",
      relearn_waiting: "Réapprentissage de la lumière : en attente d'un plateau immobile qui montre la partie…",
      relearn_done_button: "Lumière réapprise ; la partie continue.",
      relearn_done_auto: "La lumière a changé : elle a été réapprise automatiquement ; la partie continue.",
      relearn_failed: "La lumière n'a pas pu être réapprise : {why}",
      why_board_moving: "le plateau n'est pas resté immobile (une main au-dessus ?).",
      why_board_covered: "quelque chose couvre une partie du plateau.",
      why_board_differs: "le plateau ne montre pas la position de la partie.",
      why_colours_differ: "les pièces ne montrent pas la position de la partie, ou plus que la lumière a changé.",
      why_pieces_hidden: "des pièces empilées cachent une couleur : séparez-les.",
      why_board_not_seen: "les cartes repères ne sont pas vues.",
      dir_east: "côté est", "dir_north-east": "côté nord-est", dir_north: "côté nord", "dir_north-west": "côté nord-ouest",
      dir_west: "côté ouest", "dir_south-west": "côté sud-ouest", dir_south: "côté sud", "dir_south-east": "côté sud-est",
      camera_setup: "Ce que voit la caméra", choice_pending: "choix en attente", trapped_short: "piégé !"},
  };
  /* Corrections, the referee's board, coordinates (issue 22). */
  Object.assign(TEXT.en, {
    stale: "Not done: the game changed since your page showed it.", stale_landed: "Landed meanwhile:",
    stale_back: "Taken back meanwhile: {n}.", stale_new: "A new game was dealt.", check_again: "Check the board and try again.",
    undo_named: "Undo “{turn}”", undo_none: "Nothing to undo", corr_taken_back: "The referee took back: {turn}",
    corr_entered: "The referee entered: {turn}", took_back: "Taken back: {turn}", ref_turn: "To move:",
    pick_hunter: "Click the hunter of {name}, then the cell it moves to.", pick_cell: "{name}: click the cell to move to (1 to 3 cells in a straight line).",
    type_turn: "Or type the turn", coords_show: "Coordinates", error_prefix: "Refused:",
    to_place: "to place", viewing: "Looking back: {where}", finished: "The game is over.",
    stand_about: "Mâamut: the hunters take turns to drive the mammoth into one of their traps, and it flees when frightened. This screen follows the game on the table.",
    ai_suggest: "Suggest a move", ai_hunters: "AI hunters", ai_analysis: "AI analysis (referee)",
    ai_analyse: "Analyse: win chance of each action", ai_thinking: "thinking…", ai_none: "no AI on this companion",
    ai_no_estimate: "no estimate", ai_flees: "flees to", ai_plays: "plays", ai_hand: "enter its cards",
    ai_waiting: "waiting", ai_cards: "cards", ai_cards_eg: "e.g. 123", ai_level_easy: "easy", ai_level_normal: "normal",
    ai_level_hard: "hard",
  });
  Object.assign(TEXT.fr, {
    stale: "Rien n'a été fait : la partie a changé depuis que votre page l'a affichée.", stale_landed: "Entre-temps :",
    stale_back: "Annulés entre-temps : {n}.", stale_new: "Une nouvelle partie a été distribuée.", check_again: "Vérifiez le plateau et recommencez.",
    undo_named: "Annuler « {turn} »", undo_none: "Rien à annuler", corr_taken_back: "L'arbitre a annulé : {turn}",
    corr_entered: "L'arbitre a saisi : {turn}", took_back: "Annulé : {turn}", ref_turn: "Au trait :",
    pick_hunter: "Cliquez le chasseur de {name}, puis la case où il va.", pick_cell: "{name} : cliquez la case d'arrivée (1 à 3 cases en ligne droite).",
    type_turn: "Ou tapez le tour", coords_show: "Coordonnées", error_prefix: "Refusé :",
    to_place: "doit poser", viewing: "Retour en arrière : {where}", finished: "La partie est finie.",
    stand_about: "Mâamut : à tour de rôle, les chasseurs poussent le mammouth vers l'un de leurs pièges, et il fuit quand on l'effraie. Cet écran suit la partie posée sur la table.",
    ai_suggest: "Suggérer un coup", ai_hunters: "Chasseurs joués par l'IA", ai_analysis: "Analyse de l'IA (arbitre)",
    ai_analyse: "Analyser : chances de gagner de chaque action", ai_thinking: "réflexion…", ai_none: "pas d'IA sur ce compagnon",
    ai_no_estimate: "pas d'estimation", ai_flees: "fuit vers", ai_plays: "joue", ai_hand: "entrez ses cartes",
    ai_waiting: "attend", ai_cards: "cartes", ai_cards_eg: "p. ex. 123", ai_level_easy: "facile", ai_level_normal: "moyen",
    ai_level_hard: "difficile",
  });
  let lang = localStorage.getItem("maamut-lang") || (navigator.language || "en").slice(0, 2);
  if (!TEXT[lang]) lang = "en";
  const listeners = [];
  const t = (key) => (TEXT[lang][key] !== undefined ? TEXT[lang][key] : key);

  function applyLang() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    document.querySelectorAll("option[data-en]").forEach((o) => { o.textContent = o.dataset[lang] || o.dataset.en; });
    document.querySelectorAll("[data-lang]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.lang === lang)));
    listeners.forEach((fn) => fn(lang));
  }
  function setLang(next) { lang = TEXT[next] ? next : "en"; localStorage.setItem("maamut-lang", lang); applyLang(); }
  document.querySelectorAll("[data-lang]").forEach((b) => b.addEventListener("click", () => setLang(b.dataset.lang)));

  /* Replace the children of `box` by the SVG in `text` (drawn and escaped by the server).
     Parsed as XML and imported as nodes: no innerHTML, and the CSP forbids inline scripts anyway. */
  function showSvg(box, text) {
    if (box.dataset.svg === text) return;  // same drawing: keep the running animation
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    if (doc.getElementsByTagName("parsererror").length) return;
    box.replaceChildren(document.importNode(doc.documentElement, true));
    box.dataset.svg = text;
    coords(box);
  }

  /* The game's entity tag of the last state this page showed: every write under
     /api/game/ sends it as If-Match, so a turn that landed meanwhile refuses the write
     (412) instead of being the one corrected (docs/web-api.md). */
  let etag = null;
  let lastView = null;
  /* Every page calls this with each state it shows: the tag for its writes, and the
     referee's last correction said on top of the page. */
  function seen(view) {
    if (!view) return;
    lastView = view;
    if (typeof view.etag === "string") etag = view.etag;
    const box = document.getElementById("correction");
    if (!box) return;
    const text = correctionText(view);
    box.hidden = !text;
    box.textContent = text;
  }

  async function call(url, body, method = "POST") {
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf};
    if (url.startsWith("/api/game/") && etag) headers["If-Match"] = '"' + etag + '"';
    const response = await fetch(url, {method, credentials: "same-origin", headers,
      body: body === undefined ? undefined : (typeof body === "string" ? body : JSON.stringify(body))});
    let data = null;
    try { data = await response.json(); } catch (e) { data = {ok: false, error: {message: response.statusText}}; }
    const tag = response.headers.get("ETag");
    if (url.startsWith("/api/game/") && tag) etag = tag.replace(/"/g, "");
    return {status: response.status, data};
  }

  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (values[k] !== undefined ? values[k] : m));

  /* What a refused write says, in the page's language: a stale one names the turns
     that landed meanwhile (in words, then the notation). */
  function refusal(status, data) {
    const error = (data && data.error) || {};
    if (status !== 412) return t("error_prefix") + " " + (error.said || error.message || String(status));
    const words = (turn) => (turn[lang] || turn.en) + " (" + (turn.named || turn.notation) + ")";
    let text = t("stale") + " ";
    if (error.taken_back) text += fill(t("stale_back"), {n: error.taken_back}) + " ";
    else if ((error.landed || []).length) text += t("stale_landed") + " " + error.landed.map(words).join("; ") + ". ";
    else text += t("stale_new") + " ";
    return text + t("check_again");
  }

  /* "The referee took back: Bob moves 1 W from 1,-3 to 0,-3 (B:W1)", or "" */
  function correctionText(view) {
    const c = view && view.correction;
    if (!c) return "";
    return fill(t("corr_" + c.kind), {turn: (c[lang] || c.en) + " (" + (c.named || c.notation) + ")"});
  }

  /* A log entry's notation as people read it: the player's colour, then the notation
     with names ("Yellow:E2"); the ids' notation stays in the title and data-notation. */
  function entryLabel(entry, players) {
    const box = document.createElement("strong");
    box.className = "entry";
    box.dataset.notation = entry.notation;
    box.title = entry.notation;
    const who = (players || []).find((p) => p.id === entry.player);
    if (who) { const dot = el("span", null, "swatch small"); dot.style.background = who.colour; box.append(dot); }
    box.append(document.createTextNode(entry.named || entry.notation));
    return box;
  }

  /* Coordinates on every board: each cell's q,r written small at the top of its
     hexagon, on or off for the whole site (remembered). Added in the page, so the
     state sent to every viewer stays as small as it was. */
  let coordsOn = localStorage.getItem("maamut-coords") !== "off";
  function coords(box) {
    const svg = box && box.querySelector("svg.board");
    if (!svg) return;
    svg.querySelectorAll("text.coord").forEach((n) => n.remove());
    if (!coordsOn) return;
    svg.querySelectorAll("g.cell[data-cell]").forEach((g) => {
      const use = g.querySelector("use");
      if (!use) return;
      const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
      label.setAttribute("x", use.getAttribute("x"));
      label.setAttribute("y", String(Number(use.getAttribute("y")) - 24));
      label.setAttribute("class", "coord");
      label.setAttribute("text-anchor", "middle");
      label.textContent = g.dataset.cell;
      g.append(label);
    });
  }
  function coordsButton() {
    document.querySelectorAll("[data-coords]").forEach((b) => b.setAttribute("aria-pressed", String(coordsOn)));
  }
  function toggleCoords() {
    coordsOn = !coordsOn;
    localStorage.setItem("maamut-coords", coordsOn ? "on" : "off");
    coordsButton();
    document.querySelectorAll(".board-box").forEach(coords);
  }

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  function download(name, blob) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob); a.download = name;
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 5000);
  }

  /* PNG export: draw the SVG onto a canvas in the browser (no server-side image library). */
  function svgToPng(svgText, width, done) {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svgText], {type: "image/svg+xml"}));
    img.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = width; canvas.height = Math.round(width * img.height / img.width);
      canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      canvas.toBlob(done, "image/png");
    };
    img.src = url;
  }

  /* The LED mirror drawn as the board: each LED at its cell ("q,r", placed as the
     board's SVG places cells: pointy-top hexagons of radius 40), status LEDs below. */
  const SVG_NS = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
    return node;
  }
  function ledBoard(box, colours, cells) {
    const svg = svgEl("svg", {viewBox: "-249 -226 498 500", class: "led-board", role: "img"});
    svg.append(svgEl("rect", {x: -249, y: -226, width: 498, height: 500, rx: 12, fill: "#111"}));
    const title = svgEl("title", {}); title.textContent = "LEDs"; svg.append(title);
    const status = [];
    (colours || []).forEach((colour, i) => {
      const cell = (cells || [])[i];
      if (!cell) { status.push(colour); return; }
      const [q, r] = cell.split(",").map(Number);
      const x = 40 * Math.sqrt(3) * (q + r / 2), y = 60 * r;
      const hex = [0, 1, 2, 3, 4, 5].map((k) => {
        const a = Math.PI / 180 * (60 * k - 90);
        return (x + 38 * Math.cos(a)).toFixed(1) + "," + (y + 38 * Math.sin(a)).toFixed(1);
      }).join(" ");
      svg.append(svgEl("polygon", {points: hex, fill: "#1d2420", stroke: "#333", "stroke-width": 2}));
      const dot = svgEl("circle", {cx: x.toFixed(1), cy: y, r: 15, fill: colour, stroke: "#000", "stroke-width": 2, class: "led", "data-cell": cell});
      const tip = svgEl("title", {}); tip.textContent = cell + " " + colour; dot.append(tip);
      svg.append(dot);
    });
    status.forEach((colour, i) => {
      svg.append(svgEl("circle", {cx: (i - (status.length - 1) / 2) * 40, cy: 250, r: 12, fill: colour, stroke: "#555",
        "stroke-width": 2, class: "led status-led"}));
    });
    box.replaceChildren(svg);
  }

  function start() {
    // On a phone the legend starts closed: the players and the log stay above the fold.
    if (window.matchMedia("(max-width: 700px)").matches) {
      document.querySelectorAll("details[data-closed-on-phones]").forEach((d) => { d.open = false; });
    }
    listeners.push(() => seen(lastView));
    applyLang();
    coordsButton();
    document.querySelectorAll("[data-coords]").forEach((b) => b.addEventListener("click", toggleCoords));
    document.querySelectorAll(".board-box").forEach(coords);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  /* One event stream per page: the referee page's panels (the board, the camera's
     question) all listen to it, so a device holds one connection to the server. */
  let source = null, lastState = null;
  function stream() {
    if (!source) {
      source = new EventSource("/api/stream");
      source.addEventListener("state", (event) => { lastState = event.data; });
    }
    return source;
  }

  return {strings: TEXT, t, fill, seen, stream, get lastState() { return lastState; }, entryLabel, refusal, correctionText, coords, setLang, ledBoard, svgEl, onLang: (fn) => listeners.push(fn), get lang() { return lang; }, showSvg, call, el, download, svgToPng};
})();
