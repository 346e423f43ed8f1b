// The API of @adkit/replay-server (private, test-only). Every line here is an API decision.
export type {
  FixtureStep,
  ResponseStep,
  ReplayStep,
  RecordedRequest,
  ReplayServer,
  ReplayServerOptions,
} from './replayServer.js';
export { startReplayServer, truncatedFixture } from './replayServer.js';
export type { FixtureEntry, FixtureRequest } from './fixtures.js';
export {
  FIXTURES_DIR,
  fixtureIndex,
  fixtureEntry,
  fixtureText,
  fixtureJson,
  fixtureRequest,
  fixtureRequestBody,
  endpointOf,
  splitSseEvents,
} from './fixtures.js';
