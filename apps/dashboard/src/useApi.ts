import { useCallback, useEffect, useState } from 'react';
import { ApiError, api } from './api';

/** GETs `path` (again whenever it or `key` changes); `reload` fetches it once more. */
export function useApi<T>(
  path: string,
  key: unknown = null,
): { data: T | undefined; error: string | null; loading: boolean; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    api<T>('GET', path).then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (!live) return;
        setError(err instanceof ApiError ? err.message : 'Could not reach the server.');
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [path, key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}
