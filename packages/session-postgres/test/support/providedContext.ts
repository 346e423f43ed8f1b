// What globalSetup.ts provides to the tests (vitest's `provide`/`inject`).
declare module 'vitest' {
  export interface ProvidedContext {
    /** The server the Postgres tests use, or undefined when they are skipped. */
    adkitPgUrl: string | undefined;
  }
}

export {};
