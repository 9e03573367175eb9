/* La Vallée pages: text in the site's language, the cell-name toggle.
   Text people read comes from the server in both languages (data-en, data-fr);
   the language switch of the site's header picks one (common.js). */
"use strict";
const Vallee = (() => {
  function lang() { return Maamut.lang === "fr" ? "fr" : "en"; }
  function translate(root) {
    const l = lang();
    (root || document).querySelectorAll("[data-en][data-fr]").forEach((node) => {
      node.textContent = node.dataset[l];
    });
  }
  /* A node whose text follows the language: built from an {en, fr} pair. */
  function text(tag, pair, cls) {
    const node = Maamut.el(tag, pair[lang()], cls);
    node.dataset.en = pair.en; node.dataset.fr = pair.fr;
    return node;
  }
  function namesToggle() {
    const box = document.getElementById("show-names");
    if (!box) return;
    const apply = () => document.querySelectorAll(".valley-box").forEach((b) => b.classList.toggle("show-names", box.checked));
    box.addEventListener("change", apply);
    apply();
  }
  Maamut.onLang(() => translate());
  document.addEventListener("DOMContentLoaded", () => { translate(); namesToggle(); });
  return {lang, translate, text};
})();
