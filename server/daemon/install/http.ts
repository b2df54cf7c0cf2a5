import type { StepContext } from "./environment.ts";
import { installErrors } from "./errors.ts";

/**
 * HTTP for the steps. Every failure names the step and the host: a node
 * without internet access sees "javadl: could not reach api.adoptium.net
 * (ENOTFOUND)", never a silent success or a bare "fetch failed".
 */
export async function request(
  ctx: StepContext,
  url: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await ctx.fetch(url, {
      headers: { "user-agent": "outpost-daemon", ...headers },
      signal: ctx.signal,
    });
  } catch (error) {
    if (ctx.signal.aborted) throw installErrors.cancelled();
    throw installErrors.unreachable(ctx.step, url, causeOf(error), { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw installErrors.httpStatus(ctx.step, url, response.status, response.statusText);
  }
  return response;
}

/** A response that may be missing: 404 gives undefined, other failures throw as request() does. */
export async function requestOptional(
  ctx: StepContext,
  url: string,
  headers: Record<string, string> = {},
): Promise<Response | undefined> {
  try {
    return await request(ctx, url, headers);
  } catch (error) {
    if ((error as { metadata?: { status?: number } }).metadata?.status === 404) return undefined;
    throw error;
  }
}

export async function getJson<T>(
  ctx: StepContext,
  url: string,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await request(ctx, url, { accept: "application/json", ...headers });
  try {
    return (await response.json()) as T;
  } catch (error) {
    throw installErrors.failed(
      ctx.step,
      `${url} did not answer JSON (${(error as Error).message})`,
      {},
      { cause: error },
    );
  }
}

export async function getText(ctx: StepContext, url: string): Promise<string> {
  const response = await request(ctx, url);
  return response.text();
}

/** The lowest-level reason a fetch failed: ECONNREFUSED, ENOTFOUND, a TLS error… */
export function causeOf(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code) return code;
    message = current.message || message;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}
