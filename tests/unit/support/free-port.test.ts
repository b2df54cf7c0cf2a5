import { expect, it } from "vitest";
import { freePort } from "../../support/free-port.ts";

// The kernel hands a just-closed ephemeral port out again now and then: 2 000 plain draws gave 268
// repeats. A test panel whose HTTP and SFTP ports came out the same could not start.
it("never hands out the same port twice in one process", async () => {
  const ports = new Set<number>();
  for (let i = 0; i < 1000; i++) ports.add(await freePort());
  expect(ports.size).toBe(1000);
});
