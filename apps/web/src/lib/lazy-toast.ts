import { useSyncExternalStore } from 'react';

/**
 * Toasts are not part of the shell's first load (bench/README.md, "Trade page"): react-hot-toast
 * and the toaster load when the page is idle, or at once when shell code shows its first toast.
 * Screens import react-hot-toast themselves; it is the same module, so their toasts wait in its
 * store until the toaster mounts.
 */
type ToastModule = typeof import('react-hot-toast');

let loading: Promise<ToastModule> | null = null;
const listeners = new Set<() => void>();

/** Starts loading the toasts (once) and mounts the toaster. */
export function loadToasts(): Promise<ToastModule> {
  if (loading === null) {
    // A failed download (offline) is tried again at the next toast.
    const attempt = import('react-hot-toast').catch((error: unknown) => {
      if (loading === attempt) loading = null;
      throw error;
    });
    loading = attempt;
    for (const listener of listeners) listener();
  }
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once the toasts are wanted: the app then renders the toaster. */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(subscribe, () => loading !== null);
}

/** An error toast from shell code (screens that load react-hot-toast with them call it directly). */
export function showErrorToast(message: string, options?: { id?: string }): void {
  loadToasts().then(
    ({ default: toast }) => toast.error(message, options),
    () => undefined,
  );
}

/** Dismisses a toast by id; nothing to do if no toast was ever shown. */
export function dismissToast(id: string): void {
  if (loading === null) return;
  loading.then(
    ({ default: toast }) => toast.dismiss(id),
    () => undefined,
  );
}
