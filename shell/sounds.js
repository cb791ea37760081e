// Quiet tones made with Web Audio, no sound files: the player's move, the
// computer's, and a game won, lost or just ended. Python asks for them when
// the sound setting is on (py/app/page/controller.py). The AudioContext is made on
// the first sound, or the switch turned on, once the page has had a user
// gesture (browsers refuse audio before one). Each tone: [Hz, start s, length s].
const SOUNDS = {
  move: [[660, 0, 0.07]],
  computer: [[440, 0, 0.08]],
  win: [[523, 0, 0.1], [784, 0.11, 0.18]],
  loss: [[392, 0, 0.1], [262, 0.11, 0.22]],
  end: [[523, 0, 0.1], [523, 0.13, 0.12]],
};
const SOUND_PEAK = 0.08; // the gain at a tone's loudest: quiet
let audio = null;
let audioFree = 0; // when the last tone ends: sounds follow, never overlap
// The tests' log of the sounds asked for (only on a page the harness opened).
const soundLog = window.appHarness === true ? (window.appSounds = []) : null;

function audioContext() {
  if (audio) return audio;
  const activation = navigator.userActivation;
  const Context = window.AudioContext || window.webkitAudioContext;
  if ((activation && !activation.hasBeenActive) || !Context) return null;
  try {
    audio = new Context();
  } catch (error) {
    console.warn("shell: no sound", error);
    return null;
  }
  return audio;
}

export function primeSound() {
  const context = audioContext();
  if (context && context.state === "suspended") context.resume().catch(() => {});
  return context;
}

export function playSound(name) {
  const tones = SOUNDS[name];
  if (!tones) return;
  if (soundLog) soundLog.push(name);
  const context = primeSound();
  if (!context) return;
  const start = Math.max(context.currentTime + 0.01, audioFree);
  for (const [frequency, offset, length] of tones) {
    const at = start + offset;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(SOUND_PEAK, at + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + length + 0.02);
    audioFree = Math.max(audioFree, at + length);
  }
}
