import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';

import type { ToastVariant } from '@/components/ui/toast';

/** Spec 4: at most one toast at a time; a new one replaces the current one. */
const TOAST_LIMIT = 1;
/** How long a toast stays before it dismisses itself, in milliseconds. */
export const TOAST_DURATION = 5_000;

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  /** Usually a `<ToastAction>`. */
  action?: ReactElement;
  variant?: ToastVariant;
  /** Milliseconds before auto-dismiss; `Infinity` keeps it until closed. */
  duration?: number;
}

export interface ToasterToast extends ToastInput {
  id: string;
}

let toasts: ToasterToast[] = [];
const listeners = new Set<() => void>();
let counter = 0;

function setToasts(next: ToasterToast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Removes one toast, or all of them when no id is given. */
export function dismissToast(id?: string): void {
  setToasts(id === undefined ? [] : toasts.filter((t) => t.id !== id));
}

/** Shows a toast from anywhere (components, mutation callbacks). */
export function toast(input: ToastInput): {
  id: string;
  dismiss: () => void;
  update: (next: ToastInput) => void;
} {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  setToasts([{ ...input, id }, ...toasts].slice(0, TOAST_LIMIT));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (next) => setToasts(toasts.map((t) => (t.id === id ? { ...t, ...next, id } : t))),
  };
}

/** The current toasts plus `toast` and `dismiss`, like shadcn's hook. */
export function useToast() {
  const current = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  return { toasts: current, toast, dismiss: dismissToast };
}
