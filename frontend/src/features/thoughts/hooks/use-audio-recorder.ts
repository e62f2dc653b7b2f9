import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';

import {
  AUDIO_BITS_PER_SECOND,
  AUDIO_FLUSH_TIMEOUT_MS,
  HEARTBEAT_GIVE_UP_AFTER,
  HEARTBEAT_MS,
  HEARTBEAT_WARN_AFTER,
  RECORDER_CHUNK_MS,
} from '@/features/thoughts/lib/capture-constants';
import type { VoiceProblem } from '@/features/thoughts/lib/voice-problems';

const PREFERRED_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4'];

function stopTracks(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}

interface AudioRecorderOptions {
  /** Records while true; turning it off stops the recorder and releases the microphone. */
  enabled: boolean;
  onProblem: (problem: VoiceProblem) => void;
}

/**
 * Records the microphone in 500 ms chunks at 128 kbit/s. A 2 s heartbeat rebuilds a recorder that
 * stopped, warns and reopens the microphone after more than 2 beats without data, and gives up after
 * more than 5. Returns the open `stream` (for the waveform) and `collectAudio` for submitting.
 */
export function useAudioRecorder({ enabled, onProblem }: AudioRecorderOptions) {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  // The chunks of the current recorder; a rebuilt recorder starts a new recording.
  const chunksRef = useRef<Blob[]>([]);
  const emitProblem = useEffectEvent(onProblem);

  useEffect(() => {
    if (!enabled) return;
    let disposed = false;
    let media: MediaStream | null = null;
    let gotData = false;
    let emptyBeats = 0;

    const stopRecorder = () => {
      const recorder = recorderRef.current;
      recorderRef.current = null;
      if (recorder && recorder.state !== 'inactive') recorder.stop();
    };
    const buildRecorder = () => {
      stopRecorder();
      if (!media || typeof MediaRecorder === 'undefined') return;
      const mimeType = PREFERRED_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
      const chunks: Blob[] = [];
      try {
        const recorder = new MediaRecorder(media, { mimeType, audioBitsPerSecond: AUDIO_BITS_PER_SECOND });
        recorder.ondataavailable = ({ data }) => {
          if (data.size === 0) return;
          chunks.push(data);
          // The last flush of a replaced recorder says nothing about the microphone now.
          if (recorderRef.current === recorder) gotData = true;
        };
        recorder.onerror = () => emitProblem('recorder-error');
        recorder.start(RECORDER_CHUNK_MS);
        recorderRef.current = recorder;
        chunksRef.current = chunks;
      } catch {
        // A dead stream cannot record: the heartbeat sees no data and reopens the microphone.
      }
    };
    const openMicrophone = async () => {
      try {
        const opened = await navigator.mediaDevices.getUserMedia({ audio: true });
        if (disposed) return stopTracks(opened);
        stopRecorder();
        stopTracks(media);
        media = opened;
        setStream(opened);
        buildRecorder();
      } catch (error) {
        if (disposed) return;
        const name = error instanceof DOMException ? error.name : '';
        emitProblem(name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'no-microphone');
      }
    };

    const heartbeat = window.setInterval(() => {
      if (!media) return; // Still waiting for the permission answer.
      if (recorderRef.current?.state !== 'recording') buildRecorder();
      emptyBeats = gotData ? 0 : emptyBeats + 1;
      gotData = false;
      if (emptyBeats > HEARTBEAT_GIVE_UP_AFTER) {
        emitProblem('unavailable');
      } else if (emptyBeats === HEARTBEAT_WARN_AFTER + 1) {
        emitProblem('silent');
        void openMicrophone();
      }
    }, HEARTBEAT_MS);
    void openMicrophone();

    return () => {
      disposed = true;
      window.clearInterval(heartbeat);
      stopRecorder();
      stopTracks(media);
      media = null;
    };
  }, [enabled]);

  /** Flushes the recorder and returns what it has recorded, or null when it has nothing. */
  const collectAudio = useCallback(async (): Promise<Blob | null> => {
    const recorder = recorderRef.current;
    if (recorder?.state === 'recording') {
      await new Promise<void>((resolve) => {
        const timer = window.setTimeout(resolve, AUDIO_FLUSH_TIMEOUT_MS);
        const done = () => {
          window.clearTimeout(timer);
          resolve();
        };
        recorder.addEventListener('dataavailable', done, { once: true });
        recorder.requestData();
      });
    }
    const chunks = chunksRef.current;
    if (chunks.length === 0) return null;
    // 'audio/webm;codecs=opus' is sent as plain 'audio/webm'.
    const type = (recorder?.mimeType || chunks[0]?.type || 'audio/webm').split(';')[0];
    return new Blob(chunks, { type });
  }, []);

  // A stream from an earlier session has ended tracks (inactive) and is never handed out again.
  return { stream: enabled && stream?.active ? stream : null, collectAudio };
}
