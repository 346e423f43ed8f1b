import { errorMessage } from '@adkit/flow';
import { fetchGuardError } from '@adkit/flow/model-kit';

/** What `readReply` needs of an SDK call: the `APIPromise` every `create()` returns. */
export interface ReplyCall<T> extends PromiseLike<T> {
  asResponse(): Promise<{ ok: boolean; headers: { get(name: string): string | null } }>;
}

/** A 2xx reply: what the SDK parsed (`undefined` when it could not), and the content type. */
export interface Reply<T> {
  data: T | undefined;
  contentType: string;
  /** Why the SDK could not take a 2xx body (an HTML page given to the Responses API, bad JSON). */
  unreadable?: string;
}

/**
 * Awaits an SDK call and keeps the reply's content type, so that a 200 that is not what the API
 * sends (a proxy's HTML page, `{}`) can be reported as what it was. Errors of non-2xx replies and
 * connections are rethrown as the SDK threw them.
 */
export async function readReply<T>(call: ReplyCall<T>): Promise<Reply<T>> {
  let data: T;
  try {
    data = await call;
  } catch (error) {
    // A body cut off by the adapter's guard (too large, stalled) is not "an unreadable 2xx".
    if (fetchGuardError(error)) throw error;
    const response = await call.asResponse().then(
      (r) => r,
      () => undefined,
    );
    if (!response?.ok) throw error;
    return { data: undefined, contentType: contentTypeOf(response), unreadable: errorMessage(error) };
  }
  return { data, contentType: contentTypeOf(await call.asResponse()) };
}

function contentTypeOf(response: { headers: { get(name: string): string | null } }): string {
  return response.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type';
}
