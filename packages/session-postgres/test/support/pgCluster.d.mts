/** The directory holding initdb and pg_ctl, if any (see pgCluster.mjs). */
export function findPostgresBin(env?: Record<string, string | undefined>): string | undefined;
/** A running throwaway cluster: its URL, and how to stop and remove it. */
export interface Cluster {
  url: string;
  stop(): void;
}
/** Starts a throwaway cluster on 127.0.0.1 with the binaries in `bin`. */
export function startCluster(bin: string): Promise<Cluster>;
/** How to enable the Postgres tests. */
export const HOW_TO_ENABLE: string;
