// What is being typed and chosen at the table (a command's fields, which commands are open,
// the text of a command line), kept through a reload: a phone reloads a background tab, a
// GM presses F5. Kept in the tab's sessionStorage, never localStorage: it goes with the tab,
// and a shared screen keeps nothing for the next one who sits at it. Each key begins with its
// conflict's id (another conflict's Ada starts afresh); all are kept per table and viewer
// (`keepIn`), so another link opened in the same tab starts afresh too.

/** The values kept, by key: a Map that writes itself to the tab's storage as it changes. */
class Kept extends Map {
  constructor() {
    super();
    this.slot = null;  // the storage key of the table and viewer (none: kept for the page only)
  }

  // Load what the tab kept for `slot` (a reload's fields come back).
  load(slot) {
    this.slot = slot;
    super.clear();
    try {
      for (const [key, value] of Object.entries(JSON.parse(sessionStorage.getItem(slot) || "{}"))) {
        if (typeof value === "string") super.set(key, value);
      }
    } catch {
      // nothing kept, or kept by another version of the page: start afresh
    }
  }

  set(key, value) {
    super.set(key, value);
    this.save();
    return this;
  }

  delete(key) {
    const had = super.delete(key);
    if (had) this.save();
    return had;
  }

  save() {
    if (!this.slot) return;
    try {
      sessionStorage.setItem(this.slot, JSON.stringify(Object.fromEntries(this)));
    } catch {
      // storage full or refused (a private window): kept for this page only
    }
  }
}

export const kept = new Kept();

/** Keep what is typed for this table and viewer (`role`, and `player` for a player's). */
export function keepIn(table, role, player) {
  kept.load(`fracas.typed|${table}|${role}|${player || ""}`);
}
