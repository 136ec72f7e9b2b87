// The timed effects in play (`effect TEXT until=… who=… count=…`, docs/scenarios.md): what
// each says, whom it is on and when it ends; the GM's Expire ends one now (`expire ID`). Only
// what the viewer's projection holds is drawn, and no panel at all when it holds none: a
// player's page tells nothing of effects hidden from them, not even that there are some.
// Once the conflict has ended, no effect is expired (the rules refuse it): no Expire.
import { h, panel } from "./dom.js";

/** The Effects panel of the levels in view (a zoomed-in conflict's last), or null when none
 * holds an effect. Only the innermost level's effects can be expired (commands go there). */
export function effectsPanel(levels, ctx) {
  const items = levels.flatMap((level, i) => (level.effects || []).map((effect) =>
    effectItem(effect, ctx, i === levels.length - 1 ? null : level.title)));
  return items.length ? panel("Effects", h("ul", { class: "plain effects" }, items)) : null;
}

function effectItem(effect, ctx, parent) {
  const on = effect.participant || effect.owner;
  return h("li", { class: "effect" }, h("b", {}, effect.text),
    on ? ` · on ${ctx.name(on)}` : "", ` · ${effect.lasts}`,
    parent ? h("span", { class: "muted" }, ` (in ${parent})`) : null,
    ctx.send ? visibilityTag(effect, ctx) : null,
    ctx.send && !parent && !ctx.ended ? h("button", { type: "button", class: "small", "data-focus": `expire-${effect.id}`,
      "aria-label": `Expire ${effect.text}`, onclick: () => ctx.send(`expire ${effect.id}`) }, "Expire") : null);
}

// Who sees it, on the GM's screen: the players don't (gm only) or the owner's player only.
function visibilityTag(effect, ctx) {
  if (effect.visibility === "gm") return h("span", { class: "tag secret" }, "gm only");
  if (effect.visibility === "owner") return h("span", { class: "tag" }, `owner: ${ctx.name(effect.owner)}`);
  return null;
}
