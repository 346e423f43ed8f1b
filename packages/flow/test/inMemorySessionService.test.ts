import { InMemorySessionService } from '../src/sessions/inMemorySessionService.js';
import { runSessionServiceSuite } from './support/sessionServiceSuite.js';

// The reference implementation runs the same suite as every other session service.
runSessionServiceSuite('InMemorySessionService', async () => ({ service: new InMemorySessionService() }));
