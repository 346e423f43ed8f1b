// Placeholder until the example is written.
export {};
