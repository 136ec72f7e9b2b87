// One log event in words: who, the roll and its breakdown, what was said.

const WHO = ["actor", "participant", "target", "who", "by", "from", "to", "hunter", "quarry"];
const SHOWN = new Set([...WHO, "text", "roll", "check", "say", "effect", "reason", "targets", "outcome"]);

/** The pieces of text that tell an event. */
export function eventLines(event, ctx) {
  const d = event.data || {};
  const out = [];
  const names = WHO.filter((k) => typeof d[k] === "string").map((k) => `${k} ${ctx.name(d[k])}`);
  if (Array.isArray(d.targets)) names.push(`targets ${d.targets.map(ctx.name).join(", ")}`);
  if (names.length) out.push(names.join(" · "));
  if (typeof d.text === "string") out.push(d.text.replaceAll("**", ""));
  else if (d.roll && d.roll.dice) out.push(roll(d.roll));
  if (d.check) {
    const c = d.check;
    const against = c.target_number ?? c.tn ?? c.dl;
    out.push(`${c.skill || "check"}: ${c.roll ? roll(c.roll) : ""}${against === undefined ? "" : ` vs ${against}`}`
      + ` → ${c.success ? "success" : "failure"}`);
    if (c.breakdown) out.push(c.breakdown);
  }
  if (d.say) out.push(`“${d.say}”`);
  if (d.effect) out.push(d.effect);
  if (d.reason) out.push(d.reason);
  if (d.outcome) out.push(d.outcome);
  const rest = Object.entries(d).filter(([k, v]) => !SHOWN.has(k) && v !== null && typeof v !== "object")
    .map(([k, v]) => `${k.replaceAll("_", " ")}: ${v}`);
  if (rest.length) out.push(rest.join(" · "));
  return out.map((line) => Object.assign(document.createElement("span"), { className: "piece", textContent: line }));
}

function roll(r) {
  return `${r.expression} → [${(r.dice || []).join(", ")}] = ${r.total}`;
}
