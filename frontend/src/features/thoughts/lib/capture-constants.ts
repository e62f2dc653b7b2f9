/** Timing and size constants of the thought-capture dialog (spec section 9). */

/** Delay between opening the dialog and starting the microphone. */
export const CAPTURE_START_DELAY_MS = 100;
/** Quiet time after the last edit or spoken word before the text is classified. */
export const CLASSIFY_DEBOUNCE_MS = 1_000;
// The speech recognition timings (8 s silence restart, 250 ms restart pause) are in @/lib/speech-recognition.

/** The recorder hands over a chunk this often. */
export const RECORDER_CHUNK_MS = 500;
export const AUDIO_BITS_PER_SECOND = 128_000;
/** How often the recorder is checked for being alive and delivering data. */
export const HEARTBEAT_MS = 2_000;
/** More consecutive empty beats than this: warn and ask for the microphone again. */
export const HEARTBEAT_WARN_AFTER = 2;
/** More consecutive empty beats than this: give up on the microphone and switch to typing. */
export const HEARTBEAT_GIVE_UP_AFTER = 5;
/** Longest wait for the recorder to flush its last chunk at submit. */
export const AUDIO_FLUSH_TIMEOUT_MS = 1_000;
/** Largest recording sent with a thought (the server's limit); a longer one is left out. */
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;

export const WAVEFORM_BARS = 40;
/** The waveform scrolls by one bar this often, so 40 bars show the last two seconds. */
export const WAVEFORM_SAMPLE_MS = 50;
