import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, setCsrfToken, setShownMode, whenSignedOut, type Mode, type SessionInfo } from './api';

interface SessionState {
  /** undefined while the first check runs; null when nobody is signed in. */
  session: SessionInfo | null | undefined;
  signIn(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  setMode(mode: Mode): Promise<void>;
  can(action: string): boolean;
}

const Ctx = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);

  const adopt = useCallback((s: SessionInfo | null) => {
    setCsrfToken(s?.csrf_token ?? '');
    setShownMode(s?.mode ?? null);
    setSession(s);
  }, []);

  useEffect(() => {
    whenSignedOut(() => adopt(null));
    // No session (401) or no answer: the sign-in page.
    api<SessionInfo>('GET', '/session').then(adopt, () => adopt(null));
  }, [adopt]);

  const value: SessionState = {
    session,
    signIn: async (email, password) => adopt(await api<SessionInfo>('POST', '/login', { email, password })),
    signOut: async () => {
      await api('POST', '/logout').catch(() => undefined);
      adopt(null);
    },
    setMode: async (mode) => adopt(await api<SessionInfo>('PUT', '/session/mode', { mode })),
    can: (action) => session?.actions.includes(action) ?? false,
  };
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useSession(): SessionState {
  const s = useContext(Ctx);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
