/* The table's sounds, made with the Web Audio API (no sound files): a card played, a
 * pass, a bomb, my turn, and a tick in the last seconds of my countdown. The sound
 * button (#sound-toggle, data-muted) says whether sound is on; muting is remembered
 * (./prefs.js).
 *
 * Browsers start audio only after a gesture on the page: the context is made on the
 * first click or key press, and sounds before it are skipped. */

import { dom, t } from "./page.js";
import { loadPref, savePref } from "./prefs.js";

let context = null;
let muted = false;

// Each sound: notes of [frequency Hz, start s, length s, wave, volume].
const SOUNDS = {
  play: [[660, 0, 0.07, "triangle", 0.25], [990, 0.03, 0.06, "triangle", 0.12]],
  pass: [[330, 0, 0.12, "sine", 0.18]],
  turn: [[523, 0, 0.12, "sine", 0.22], [784, 0.13, 0.16, "sine", 0.22]],
  tick: [[1200, 0, 0.04, "square", 0.08]],
  bomb: [[110, 0, 0.45, "sawtooth", 0.3], [82, 0.05, 0.5, "square", 0.2],
    [220, 0, 0.12, "triangle", 0.25]],
};

function wake() {
  if (context === null) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) {
      return;
    }
    context = new Context();
  }
  if (context.state === "suspended") {
    context.resume().catch(() => {});
  }
}

/** Plays the sound ``name`` (a key of SOUNDS) unless muted or not yet allowed. */
export function playSound(name) {
  if (muted || context === null || context.state !== "running" || !SOUNDS[name]) {
    return;
  }
  const now = context.currentTime;
  for (const [frequency, start, length, wave, volume] of SOUNDS[name]) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = wave;
    oscillator.frequency.setValueAtTime(frequency, now + start);
    if (name === "bomb") {
      oscillator.frequency.exponentialRampToValueAtTime(frequency / 3, now + start + length);
    }
    gain.gain.setValueAtTime(volume, now + start);
    gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length + 0.02);
  }
}

function showMuted() {
  // The button says the sound's state (its title, what a press does).
  dom.soundToggle.dataset.muted = muted ? "true" : "false";
  dom.soundToggle.textContent = muted ? t("sound_off_label") : t("sound_on_label");
  dom.soundToggle.title = muted ? t("sound_unmute") : t("sound_mute");
}

export function setupSound() {
  muted = Boolean(loadPref("muted", false));
  showMuted();
  dom.soundToggle.addEventListener("click", () => {
    muted = !muted;
    savePref("muted", muted);
    showMuted();
  });
  for (const type of ["pointerdown", "keydown"]) {
    window.addEventListener(type, wake, { capture: true, passive: true });
  }
}
