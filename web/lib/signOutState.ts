/**
 * While the user leaves a login-required page after signing out (or deleting the account), its
 * guard must not send them to /auth: the session is already gone but "/" has not rendered yet
 * (its code may still be loading). RequireAuth renders nothing while this is set; RootLayout
 * clears it once the next location has rendered.
 */
let leaving = false;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  if (leaving === value) return;
  leaving = value;
  listeners.forEach((notify) => notify());
}

export const signOutState = {
  start: () => set(true),
  end: () => set(false),
  subscribe(notify: () => void): () => void {
    listeners.add(notify);
    return () => listeners.delete(notify);
  },
  get: (): boolean => leaving,
};
