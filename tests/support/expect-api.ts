import { expect } from "vitest";
import type { Answer } from "./http-client.ts";

/** Asserts an answer in the API envelope `{error:{code,msg,metadata}}` with nothing internal in it. */
export function expectError(
  res: Answer,
  status: number,
  code: string,
  metadata?: Record<string, unknown>,
): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  expect((res.body as any)?.error?.code, res.text).toBe(code);
  if (metadata) expect((res.body as any).error.metadata).toMatchObject(metadata);
  expectNoInternals(res);
}

/** No stack lines, error class names or file paths may reach a client. */
export function expectNoInternals(res: Answer): void {
  expect(res.text).not.toMatch(/\bat .*:\d+:\d+/);
  expect(res.text).not.toMatch(/[A-Za-z]*Error:/);
  expect(res.text).not.toMatch(/node_modules|\.ts\b|\/work\/|\/tmp\//);
}

/** The Set-Cookie line for one cookie name, or undefined. */
export function setCookie(res: Answer, name: string): string | undefined {
  return res.setCookies.find((line) => line.startsWith(`${name}=`));
}

/** A cookie line that sets a value (not one that clears it). */
export function cookieValue(line: string | undefined): string | undefined {
  if (!line || /max-age=0\b/i.test(line) || /expires=thu, 01 jan 1970/i.test(line)) return undefined;
  return line.slice(line.indexOf("=") + 1).split(";")[0] || undefined;
}

let counter = 0;
/** A fresh, valid account (unique within the test process). */
export function newUser(tag: string): { username: string; email: string; password: string } {
  counter += 1;
  const id = `${tag}${counter}${process.pid % 1000}`;
  return { username: `user-${id}`, email: `${id}@example.com`, password: `password-${id}` };
}
