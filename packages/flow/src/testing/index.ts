// The public API of @adkit/flow/testing.
export {};
