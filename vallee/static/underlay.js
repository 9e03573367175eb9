/* The map editor's photo underlay: the group loads a photo of their own board (a local
   file, read here, never sent to the table) and sees it under the grid, with its
   opacity, size, rotation and shift, to trace the board. The photo (made smaller) and
   the settings are kept in this browser's localStorage when it has room. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const stack = $("ed-trace"), photo = $("ed-photo");
  if (!stack || !photo) return;
  const KEY = "vallee.underlay", PHOTO_KEY = "vallee.underlay.photo";
  const MAX_SIDE = 1600;  // pixels: enough to trace a board, small enough to keep
  const DEFAULTS = {opacity: 60, scale: 100, rotate: 0, x: 0, y: 0};
  const CONTROLS = {opacity: "ed-photo-opacity", scale: "ed-photo-scale", rotate: "ed-photo-rotate", x: "ed-photo-x", y: "ed-photo-y"};
  const MSG = {
    shown: {en: "Photo under the grid: move it until its cells match.", fr: "Photo sous la grille : déplacez-la jusqu'à ce que ses cases coïncident."},
    not_kept: {en: "Photo shown, but too large to keep in this browser: it will be gone after a reload.",
               fr: "Photo affichée, mais trop grande pour être gardée dans ce navigateur : elle disparaîtra au rechargement."},
    unreadable: {en: "This file is not a photo this browser can read.", fr: "Ce fichier n'est pas une photo que ce navigateur sait lire."},
    removed: {en: "Photo removed.", fr: "Photo retirée."},
  };
  let settings = read();

  function read() {
    try { return {...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}")}; } catch (e) { return {...DEFAULTS}; }
  }
  function keep(key, value) {
    try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); return true; } catch (e) { return false; }
  }
  function say(key) {
    const status = $("ed-photo-status");
    status.dataset.en = MSG[key].en; status.dataset.fr = MSG[key].fr; status.textContent = MSG[key][Vallee.lang()];
  }
  function apply() {
    Object.entries(CONTROLS).forEach(([name, id]) => { $(id).value = String(settings[name]); });
    photo.style.opacity = String(settings.opacity / 100);
    photo.style.transform = `translate(${settings.x}%, ${settings.y}%) rotate(${settings.rotate}deg) scale(${settings.scale / 100})`;
    const shown = Boolean(photo.getAttribute("src"));
    photo.hidden = !shown;
    stack.classList.toggle("tracing", shown);
  }
  function show(url, kept) {
    photo.src = url;
    apply();
    say(kept ? "shown" : "not_kept");
  }
  /* The photo drawn again at most MAX_SIDE pixels wide or high, as a JPEG data URL. */
  function smaller(image) {
    const ratio = Math.min(1, MAX_SIDE / Math.max(image.naturalWidth, image.naturalHeight));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(image.naturalWidth * ratio));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * ratio));
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL("image/jpeg", 0.85);
  }
  $("ed-photo-file").addEventListener("change", (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      const data = smaller(image);
      URL.revokeObjectURL(url);
      show(data, keep(PHOTO_KEY, data));
    };
    image.onerror = () => { URL.revokeObjectURL(url); say("unreadable"); };
    image.src = url;
  });
  Object.entries(CONTROLS).forEach(([name, id]) => {
    $(id).addEventListener("input", () => {
      settings[name] = Number($(id).value);
      apply();
      keep(KEY, JSON.stringify(settings));
    });
  });
  $("ed-photo-reset").addEventListener("click", () => {
    settings = {...DEFAULTS, opacity: settings.opacity};
    apply();
    keep(KEY, JSON.stringify(settings));
  });
  $("ed-photo-remove").addEventListener("click", () => {
    photo.removeAttribute("src");
    keep(PHOTO_KEY, null);
    $("ed-photo-file").value = "";
    apply();
    say("removed");
  });
  Maamut.onLang(() => { const s = $("ed-photo-status"); if (s.dataset.en) s.textContent = s.dataset[Vallee.lang()]; });
  const saved = (() => { try { return localStorage.getItem(PHOTO_KEY); } catch (e) { return null; } })();
  if (saved) { photo.src = saved; $("ed-photo-box").open = true; }
  apply();
})();
