/* The player's choices on this browser (sound, the hand's order, muted players),
 * remembered in localStorage under keys of the signed-in user (config.user), so two
 * accounts on one browser keep their own. A browser without storage (private mode,
 * blocked) simply forgets: every read has a default. */

import { config } from "./page.js";

const key = (name) => "shuangkou:" + config.user + ":" + name;

export function loadPref(name, fallback) {
  try {
    const text = window.localStorage.getItem(key(name));
    return text === null ? fallback : JSON.parse(text);
  } catch (error) {
    return fallback;
  }
}

export function savePref(name, value) {
  try {
    window.localStorage.setItem(key(name), JSON.stringify(value));
  } catch (error) {
    // No storage: the choice lasts as long as the page.
  }
}
