// The public API of @adkit/session-postgres. Every line here is an API decision.
export {};
